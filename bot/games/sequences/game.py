"""Push-your-luck Sequences as the bot shows it: its kind with its embeds, rules text and the
private Odds button."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import discord

from bot.errors import StaleAction
from bot.games.base import ClickContext, Demo, Game, Moments, RulesPage, TurnView
from bot.games.sequences import buttons, render, story
from bot.games.sequences.events import TurnEnded
from bot.games.sequences.kind import SequencesKind, sudden_finish
from bot.games.sequences.odds import ODDS_PAGES, advice_text
from bot.games.sequences.texts import (
    LABELS,
    OPTION_LABELS,
    bot_level_texts,
    length_text,
    rules_pages,
    variant_title,
)
from bot.games.sequences.words import turn_line
from bot.i18n.drawn import Drawn
from bot.i18n.speaking import N_, _, plural
from bot.records import TurnAction
from bot.render.common import NO_PINGS
from bot.rules import odds
from bot.rules import pushluck as pl
from bot.rules.dice import NoDice
from bot.rules.dice_bots import choose_push_action
from bot.tables.events import Event
from bot.tables.model import Seat, Table, TableSnapshot
from bot.tables.names import md_name


class SequencesGame(Game[pl.PushState]):
    kind: SequencesKind

    bot_level_texts = Drawn(bot_level_texts)
    rules_pages = Drawn(rules_pages)
    odds_pages = ODDS_PAGES
    labels = LABELS
    option_labels = OPTION_LABELS
    best_turn_meaning = N_("best turn: the most points banked in one turn")
    demos = (
        Demo(
            "sequences",
            {"variant": "standard", "rounds": 3, "target": None, "soft_last_die": False},
            ("optimal", "bold", "cautious"),
        ),
        *(
            Demo(
                f"sequences-{variant}",
                {
                    "variant": variant,
                    "rounds": None if variant in ("sudden", "team") else 3,
                    "target": pl.TEAM_DEFAULT_TARGET if variant == "team" else None,
                    "soft_last_die": False,
                },
                ("optimal", "bold", "cautious", "optimal")
                if variant == "team"
                else ("optimal", "bold", "cautious"),
            )
            for variant in ("reverse", "team", "sudden", "extended")
        ),
    )

    def title(self, settings: Mapping[str, Any]) -> str:
        return variant_title(settings.get("variant", "standard"))

    def describe_settings(self, settings: Mapping[str, Any]) -> str:
        config = self.kind.config(settings)
        parts = [length_text(config), plural("%(count)s die", "%(count)s dice", config.n_dice)]
        if config.soft_last_die:
            # TRANSLATORS: the house rule, as the lobby's settings line names it.
            parts.append(_("soft last die"))
        return " · ".join(parts)

    def stage(self, state: pl.PushState) -> str | None:
        return None if state.outcome is not None else render.stage_text(state)

    def button_text(self, state: pl.PushState, action: TurnAction) -> tuple[str, str | None]:
        return buttons.button_text(state, action)

    def member_button(self, state: pl.PushState, rng: random.Random) -> str | None:
        """The optimal policy's next press (locking all and deciding is one press)."""
        action = choose_push_action(state, "optimal", rng)
        if isinstance(action, pl.Lock):
            if action.count < len(state.extending):
                if sudden_finish(state, len(state.run) + action.count) == "exact":
                    return f"bank{action.count}"  # the button that locks and banks 21
                return f"lock{action.count}"
            action = choose_push_action(pl.apply(state, action, NoDice()), "optimal", rng)
        return {pl.Throw: "throw", pl.Push: "push", pl.BonusThrow: "bonus"}.get(
            type(action), "bank"
        )

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        return turn_line(event, seats) if isinstance(event, TurnEnded) else None

    def turn_view(self, table: TableSnapshot) -> TurnView:
        return TurnView(render.turn_embed(table))

    def standings(self, table: TableSnapshot) -> list[tuple[str, int]]:
        state: pl.PushState = table.rules
        if state.config.variant != "team":
            return super().standings(table)
        # A team's score is the sum of its players' turns: one entry per team, best first.
        teams = list(zip(render.team_names(table, state), state.side_totals(), strict=True))
        won = {state.team_of(s) for s in state.outcome.winners} if state.outcome else set()
        order = sorted(range(len(teams)), key=lambda t: (t not in won, -teams[t][1], t))
        return [teams[t] for t in order]

    def result_note(self, table: TableSnapshot) -> str | None:
        return render.tiebreak_note(table.rules, [md_name(s.name) for s in table.seats])

    def table_rules(self, table: TableSnapshot) -> tuple[RulesPage, ...]:
        variant = table.settings.get("variant", "standard")
        pages = self.rules_pages
        return pages[:1] + tuple(p for p in pages if p.key == variant)

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str:
        return story.story(moments, seats)

    def is_private(self, action: str) -> bool:
        return action == "odds"

    async def private_click(
        self,
        ctx: ClickContext,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        action: str,
    ) -> None:
        if table.status != "running" or version != table.version:
            raise StaleAction(_("That throw is over."))
        state: pl.PushState = table.rules
        if state.phase not in ("lock", "decide"):
            raise StaleAction(_("Throw first: the odds are about what to do with a throw."))
        await interaction.response.send_message(
            advice_text(odds.advice(state)), ephemeral=True, allowed_mentions=NO_PINGS
        )

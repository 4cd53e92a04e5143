"""One-roll Sequences and Hearts Due as the bot shows them: their kind with its embed and
rules text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Demo, Game, Moments, RulesPage, TurnView
from bot.games.oneroll import render, story
from bot.games.oneroll import settings as options
from bot.games.oneroll.events import Thrown
from bot.games.oneroll.kind import OneRollKind, OneRollTable
from bot.games.oneroll.odds import ODDS_PAGES
from bot.games.oneroll.texts import LABELS, OPTION_LABELS, rules_pages, ruleset_title
from bot.games.oneroll.words import throw_line
from bot.i18n.drawn import Drawn
from bot.i18n.speaking import N_, _, number
from bot.records import TurnAction
from bot.tables.events import Event
from bot.tables.model import Seat, TableSnapshot

# What the one bot level does, one line in /rules.
THROWER = N_("throws the dice (a one-roll game has no decisions to make)")


class OneRollGame(Game[OneRollTable]):
    kind: OneRollKind

    bot_level_texts = Drawn(lambda: {"thrower": _(THROWER)})
    rules_pages = Drawn(rules_pages)
    odds_pages = ODDS_PAGES
    labels = LABELS
    option_labels = OPTION_LABELS
    # TRANSLATORS: /stats, a player's best throw in a one-roll game.
    best_turn_text = N_("best throw %(best)s")
    best_turn_meaning = N_("best throw: the most points one throw scored")
    demos = tuple(
        Demo(ruleset, {"ruleset": ruleset, "target": 100}, ("thrower",) * 3)
        for ruleset in ("classic", "heartsdue")
    )

    def title(self, settings: Mapping[str, Any]) -> str:
        return ruleset_title(self.kind.ruleset(settings))

    def describe_settings(self, settings: Mapping[str, Any]) -> str:
        # TRANSLATORS: the lobby's settings line of a one-roll game.
        return _(
            "race to %(target)s · six dice, one throw a turn",
            target=number(options.target(settings)),
        )

    def stage(self, table: OneRollTable) -> str | None:
        state = table.state
        if state.outcome is not None:
            return None
        if state.phase != "play":
            return render.phase_text(state)
        round_no = min(state.turns[s] for s in state.playing) + 1
        # TRANSLATORS: where a one-roll game stands (the demo marks each round's start).
        return _(
            "Round %(round)s · race to %(target)s",
            round=number(round_no),
            target=number(state.config.target),
        )

    def button_text(self, table: OneRollTable, action: TurnAction) -> tuple[str, str | None]:
        # TRANSLATORS: the turn's one button (at most 80 characters, as short as the English).
        return (_("Throw 6 dice"), "🎲") if action.action == "throw" else (action.action, None)

    def turn_view(self, table: TableSnapshot) -> TurnView:
        return TurnView(render.turn_embed(table))

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        return throw_line(event, seats) if isinstance(event, Thrown) else None

    def table_rules(self, table: TableSnapshot) -> tuple[RulesPage, ...]:
        ruleset = self.kind.ruleset(table.settings)
        pages = self.rules_pages
        return tuple(p for p in pages if p.key == ruleset) or pages[:1]

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str:
        return story.story(moments, seats)

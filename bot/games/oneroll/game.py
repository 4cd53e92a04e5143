"""One-roll Sequences and Hearts Due as the bot runs them: the kind plus its embed and
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
from bot.games.oneroll.texts import LABELS, RULES_PAGES, RULESETS
from bot.games.oneroll.words import throw_line
from bot.tables.events import Event
from bot.tables.model import Seat, TableSnapshot


class OneRollGame(OneRollKind, Game[OneRollTable]):
    bot_level_texts = {"thrower": "throws the dice (a one-roll game has no decisions to make)"}
    button_texts = {"throw": ("Throw 6 dice", "🎲")}
    rules_pages = RULES_PAGES
    odds_pages = ODDS_PAGES
    labels = LABELS
    demos = tuple(
        Demo(ruleset, {"ruleset": ruleset, "target": 100}, ("thrower",) * 3)
        for ruleset in ("classic", "heartsdue")
    )

    def title(self, settings: Mapping[str, Any]) -> str:
        return RULESETS[self.ruleset(settings)]

    def describe_settings(self, settings: Mapping[str, Any]) -> str:
        return f"race to {options.target(settings)} · six dice, one throw a turn"

    def turn_view(self, table: TableSnapshot) -> TurnView:
        return TurnView(render.turn_embed(table))

    def event_words(self, event: Event, seats: list[Seat]) -> str | None:
        return throw_line(event, seats) if isinstance(event, Thrown) else None

    def table_rules(self, table: TableSnapshot) -> tuple[RulesPage, ...]:
        ruleset = self.ruleset(table.settings)
        return tuple(p for p in self.rules_pages if p.key == ruleset) or self.rules_pages[:1]

    def replay_text(self, moments: Moments, seats: list[Seat]) -> str:
        return story.story(moments, seats)

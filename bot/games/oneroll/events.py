"""A one-roll throw as a value for the table's recent events (issue 21): the words are made
by ``bot.games.oneroll.words`` when a message is drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules import oneroll as one
from bot.tables.events import Event


@dataclass(frozen=True)
class Thrown(Event, tag="oneroll.throw"):
    """A throw (the rules' record: seat, phase, dice, score, totals) under ``ruleset``."""

    ruleset: one.Ruleset
    record: one.ThrowRecord

    def dump(self) -> dict[str, Any]:
        return {"type": self.tag, "ruleset": self.ruleset, "record": one.dump_record(self.record)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Thrown:
        ruleset: one.Ruleset = data["ruleset"]
        return cls(ruleset, one.load_record(data["record"]))

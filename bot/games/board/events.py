"""A board move as a value for the table's recent events (issue 21): the words are made
by ``bot.games.board.words`` when a message is drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules import board as b
from bot.tables.events import Event


@dataclass(frozen=True)
class Moved(Event, tag="board.move"):
    """A move (the rules' record: seat, action, sequences made, a reshuffle)."""

    move: b.MoveRecord

    def dump(self) -> dict[str, Any]:
        # The card drawn is the mover's secret: the event keeps only what the table saw.
        return {"type": self.tag, "move": {**b.dump_move(self.move), "drawn": None}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Moved:
        return cls(b.load_move(data["move"]))

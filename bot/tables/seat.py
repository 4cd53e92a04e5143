"""A seat at a table: a leaf module, so that the game kinds (``kind.py``) and the table
(``model.py``) both use it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_NAME = 32  # characters of a member's name kept on a seat (``names.clean_name``)


@dataclass(frozen=True)
class Seat:
    user_id: int | None  # None for a bot player
    name: str
    bot_level: str | None = None
    team: int | None = None

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def key(self) -> str:
        """The seat's identity across changes and games: ``u<id>`` for a member, ``b<name>``
        for a bot player (bot names are unique at a table)."""
        return f"u{self.user_id}" if self.user_id is not None else f"b{self.name}"

    def dump(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "bot_level": self.bot_level,
            "team": self.team,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Seat:
        return cls(data["user_id"], data["name"], data.get("bot_level"), data.get("team"))

"""Every game kind the bot runs, by name."""

from __future__ import annotations

from bot.errors import UserError
from bot.tables.board_kind import BoardKind
from bot.tables.kinds import GameKind, SequencesKind
from bot.tables.oneroll_kind import OneRollKind

KINDS: dict[str, GameKind] = {
    "sequences": SequencesKind(),
    "oneroll": OneRollKind(),
    "board": BoardKind(),
}


def kind_for(name: str) -> GameKind:
    try:
        return KINDS[name]
    except KeyError:
        raise UserError(f"Unknown game {name!r}.") from None

"""Every game kind the bot runs, by name."""

from __future__ import annotations

from bot.errors import UserError
from bot.tables.board_kind import BoardKind
from bot.tables.kinds import GameKind, SequencesKind

KINDS: dict[str, GameKind] = {
    "sequences": SequencesKind(),
    "board": BoardKind(),
}


def kind_for(name: str) -> GameKind:
    try:
        return KINDS[name]
    except KeyError:
        raise UserError(f"Unknown game {name!r}.") from None

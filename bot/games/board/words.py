"""The recent-events lines of the board game, made when a message is drawn."""

from __future__ import annotations

from bot.games.board.events import Moved
from bot.games.terms import seat_name
from bot.rules import board as b
from bot.tables.model import Seat
from bot.tables.names import md_name


def move_line(event: Moved, seats: list[Seat]) -> str:
    """The move in words: "Ana played 7♥ on E5", "Bo removed the chip on C3 with J♠"."""
    move = event.move
    who = md_name(seat_name(seats, move.seat))
    action = move.action
    if isinstance(action, b.PlayCard):
        where = b.coord_label(action.row, action.col)
        text = f"{who} played {b.card_label(action.card)} on {where}"
    elif isinstance(action, b.RemoveChip):
        where = b.coord_label(action.row, action.col)
        text = f"{who} removed the chip on {where} with {b.card_label(action.card)}"
    elif isinstance(action, b.TradeDeadCard):
        text = f"{who} traded the dead {b.card_label(action.card)}"
    else:
        text = f"{who} had no playable card and passed"
    if move.new_sequences:
        n = len(move.new_sequences)
        text += f" — **{'a sequence' if n == 1 else f'{n} sequences'}!**"
    if move.reshuffled:
        text += " (the discards were shuffled into a new draw pile)"
    return text

"""The recent-events lines of the board game, made when a message is drawn."""

from __future__ import annotations

from bot.games.board.events import Moved
from bot.games.terms import seat_name
from bot.i18n.speaking import _, plural
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
        # TRANSLATORS: a move in the board's recent events: "Ana played 7♥ on E5".
        text = _(
            "%(who)s played %(card)s on %(space)s",
            who=who,
            card=b.card_label(action.card),
            space=where,
        )
    elif isinstance(action, b.RemoveChip):
        where = b.coord_label(action.row, action.col)
        # TRANSLATORS: a one-eyed jack's move: "Bo removed the chip on C3 with J♠".
        text = _(
            "%(who)s removed the chip on %(space)s with %(card)s",
            who=who,
            space=where,
            card=b.card_label(action.card),
        )
    elif isinstance(action, b.TradeDeadCard):
        text = _("%(who)s traded the dead %(card)s", who=who, card=b.card_label(action.card))
    else:
        text = _("%(who)s had no playable card and passed", who=who)
    if move.new_sequences:
        # TRANSLATORS: %(move)s is one of the moves above ("Ana played 7♥ on E5").
        text = plural(
            "%(move)s — **a sequence!**",
            "%(move)s — **%(count)s sequences!**",
            len(move.new_sequences),
            move=text,
        )
    if move.reshuffled:
        # TRANSLATORS: %(move)s is one of the moves above ("Ana played 7♥ on E5").
        text = _("%(move)s (the discards were shuffled into a new draw pile)", move=text)
    return text

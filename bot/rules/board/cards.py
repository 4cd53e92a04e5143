"""Playing cards of the Sequence board game as 2-character codes, rank then suit (``"7H"``, ``"TS"``
ten of spades, ``"JD"``); two standard 52-card decks (RULINGS §3)."""

from __future__ import annotations

from bot.errors import IllegalAction

RANKS = "A23456789TJQK"
SUITS = "SHDC"

#: Two-eyed jacks place a chip on any open space except the corners.
TWO_EYED_JACKS = frozenset({"JD", "JC"})
#: One-eyed jacks remove one opponent chip that is not part of a sequence.
ONE_EYED_JACKS = frozenset({"JH", "JS"})

#: Every code of one 52-card deck, in a fixed order.
ONE_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
#: The 104 cards of a game: two copies of every code.
FULL_DECK: tuple[str, ...] = ONE_DECK + ONE_DECK

_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CODES = frozenset(ONE_DECK)


def is_card(code: str) -> bool:
    """Whether ``code`` is a valid card code such as ``"7H"``."""
    return code in _CODES


def check_card(code: str) -> str:
    """Return ``code`` unchanged if it is a card code, else raise ``IllegalAction``."""
    if code not in _CODES:
        raise IllegalAction(code="board.not_card", card=code)
    return code


def is_jack(code: str) -> bool:
    """Whether ``code`` is a jack (either kind)."""
    return code[0] == "J"


def card_label(code: str) -> str:
    """Label of a card for players: ``"7H"`` -> ``"7♥"``, ``"TS"`` -> ``"10♠"``."""
    check_card(code)
    rank = "10" if code[0] == "T" else code[0]
    return rank + _SUIT_SYMBOLS[code[1]]

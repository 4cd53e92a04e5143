"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage
from bot.games.terms import counts_text
from bot.rules import board as b

# The one name of the game, wherever it is named (lobby, thread, board, results, /stats).
TITLE = "Sequence (board game)"

RULES_PAGES = (
    RulesPage(
        "board",
        TITLE,
        "**2–12 players.** 2 or 3 play alone; 4, 6, 8, 9, 10 or 12 play in 2 or 3 equal "
        "teams taking turns in alternation (5, 7 and 11 can't make equal teams). Two decks, "
        "104 cards, jacks included.\n"
        "• On your turn play a card and put a chip on one of the (up to two) free spaces "
        "showing it, then draw. The four corners are free spaces for every side.\n"
        "• **Two-eyed jacks** (J♦ J♣) go on any open space. **One-eyed jacks** (J♥ J♠) remove "
        "an opponent's chip that is not part of a sequence: that is your whole turn.\n"
        "• A card whose two spaces are both taken is **dead**: once a turn, before you play, "
        "trade it for a new card.\n"
        "• A **sequence** is five in a row (across, down or diagonal) of your chips or "
        "corners; its chips are locked. Two of your sequences may share one space, so nine "
        "in a line make two.\n"
        "• Win: 2 sequences with 2 sides, 1 with 3 sides (or 1 if the table chose *first "
        "sequence wins*).\n"
        "• Can't play? Trade a dead card if you hold one, then pass; the game goes on. It is "
        "a **draw** (stakes back, no rating change) only when no card left can ever be "
        "played, or when the pile is shuffled twice with no chip placed or removed.\n"
        "• Press **My hand** on the board message to see your cards (only you see them), "
        "choose a card, then a space.",
    ),
)

LABELS = {"board": TITLE}


def _teams(choices: list[int]) -> str:
    return f"Play in {' or '.join(str(n) for n in choices)} teams."


# The words of the settings' and the seating's refusals (``bot.games.board.settings``,
# ``BoardKind.arrange``).
add_texts(
    {
        "board.seats": "The board game takes {low} to {high} players.",
        "board.uneven": lambda seats: (
            f"{seats} players can't split into equal teams: choose {seats - 1} or {seats + 1}."
        ),
        "board.teams": _teams,
        "board.seats_teams": lambda teams, counts, seats: (
            f"{teams} teams need {counts_text(counts)} players, so seats can't be {seats}."
        ),
        "board.table_teams": lambda teams, counts, seats: (
            f"{teams} teams need {counts_text(counts)} players; this table has {seats}."
        ),
    }
)


def _shows(cell: int, card: str) -> str:
    shown = "a free corner" if cell in b.CORNER_CELLS else b.card_label(b.BOARD[cell])
    return f"{b.cell_label(cell)} shows {shown}, not {b.card_label(card)}."


def _not_dead(card: str, cells: list[int]) -> str:
    spaces = " and ".join(sorted({b.cell_label(c) for c in cells}))
    return f"{b.card_label(card)} is not dead: {spaces} is open."


def _no_split(seats: int) -> str:
    return f"{seats} players can't split into equal teams: play with {seats - 1} or {seats + 1}."


# The words of the rules core's refusals (``bot.rules.board``): a move the rules forbid,
# a set-up they do not allow. The rules raise the code with cards as codes ("7H") and
# spaces as cell numbers; they are named here.
add_texts(
    {
        "board.rules_seats": "The board game takes 2 to 12 players, not {seats}.",
        "board.alone": "With {seats} players everyone plays alone: no teams.",
        "board.no_split": _no_split,
        "board.teams_2_3": "Play in 2 or 3 teams.",
        "board.split": "{seats} players can't split into {teams} equal teams.",
        "board.malformed": "That move is malformed.",
        "board.off_board": "That space is off the board.",
        "board.over": "The game is over.",
        "board.trade_first": "Trade your dead card first: you can pass only after that.",
        "board.cant_pass": "You can play a card, so you can't pass.",
        "board.not_a_move": "That is not a move of this game.",
        "board.not_held": lambda card: f"You don't hold {b.card_label(card)}.",
        "board.one_eyed_only": "Only a one-eyed jack (J♥, J♠) removes a chip.",
        "board.no_chip": lambda cell: f"There is no chip on {b.cell_label(cell)} to remove.",
        "board.own_chip": lambda cell: (
            f"The chip on {b.cell_label(cell)} is your own: remove an opponent's chip."
        ),
        "board.locked_chip": lambda cell: (
            f"The chip on {b.cell_label(cell)} is part of a sequence and can't be removed."
        ),
        "board.one_eyed": lambda card: (
            f"{b.card_label(card)} is a one-eyed jack: it removes a chip."
        ),
        "board.corner": lambda cell: f"{b.cell_label(cell)} is a free corner: no chip goes there.",
        "board.shows": _shows,
        "board.taken": lambda cell: f"{b.cell_label(cell)} already holds a chip.",
        "board.traded": "You have already traded a dead card this turn.",
        "board.jack_dead": "Jacks are never dead.",
        "board.not_dead": _not_dead,
        "board.not_card": lambda card: (
            f"{card!r} is not a card: use a rank A,2-9,T,J,Q,K and a suit S,H,D,C."
        ),
        "board.off_coord": "({row}, {col}) is off the board.",
        "board.not_space": lambda text: (
            f"{text!r} is not a space: use a column A-J and a row 1-10, like C5."
        ),
    }
)

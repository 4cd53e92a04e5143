"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by. Every word is a catalogue message
(the ``board`` domain), translated when the page or the refusal is drawn."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage
from bot.games.terms import counts_text
from bot.i18n.speaking import N_, _, number
from bot.rules import board as b

# TRANSLATORS: the game's name everywhere (lobby, thread, board, results, /stats): the board
# game is sold as "Sequence" in every language; only "(board game)" is translated.
TITLE = N_("Sequence (board game)")

# The rules page, one message per paragraph or bullet so each is translated on its own.
RULES = (
    N_(
        "**2–12 players.** 2 or 3 play alone; 4, 6, 8, 9, 10 or 12 play in 2 or 3 equal "
        "teams taking turns in alternation (5, 7 and 11 can't make equal teams). Two decks, "
        "104 cards, jacks included."
    ),
    N_(
        "• On your turn play a card and put a chip on one of the (up to two) free spaces "
        "showing it, then draw. The four corners are free spaces for every side."
    ),
    N_(
        "• **Two-eyed jacks** (J♦ J♣) go on any open space. **One-eyed jacks** (J♥ J♠) remove "
        "an opponent's chip that is not part of a sequence: that is your whole turn."
    ),
    N_(
        "• A card whose two spaces are both taken is **dead**: once a turn, before you play, "
        "trade it for a new card."
    ),
    N_(
        "• A **sequence** is five in a row (across, down or diagonal) of your chips or "
        "corners; its chips are locked. Two of your sequences may share one space, so nine "
        "in a line make two."
    ),
    N_(
        "• Win: 2 sequences with 2 sides, 1 with 3 sides (or 1 if the table chose *first "
        "sequence wins*)."
    ),
    N_(
        "• Can't play? Trade a dead card if you hold one, then pass; the game goes on. It is "
        "a **draw** (stakes back, no rating change) only when no card left can ever be "
        "played, when the pile is shuffled twice with no chip placed or removed, or when "
        "everyone still playing passes in turn with nothing changing."
    ),
    # TRANSLATORS: **My hand** is the board message's button: use its label's translation.
    N_(
        "• Press **My hand** on the board message to see your cards (only you see them), "
        "choose a card, then a space."
    ),
)


def rules_pages() -> tuple[RulesPage, ...]:
    """The ``/rules`` pages in the language being drawn."""
    return (RulesPage("board", _(TITLE), "\n".join(_(part) for part in RULES)),)


LABELS = {"board": TITLE}


def _teams(choices: list[int]) -> str:
    # TRANSLATORS: %(choices)s is "2 or 3".
    return _("Play in %(choices)s teams.", choices=counts_text(choices))


# The words of the settings' and the seating's refusals (``bot.games.board.settings``,
# ``BoardKind.arrange``).
add_texts(
    {
        "board.seats": lambda low, high: _(
            "The board game takes %(low)s to %(high)s players.", low=number(low), high=number(high)
        ),
        "board.uneven": lambda seats: _(
            "%(seats)s players can't split into equal teams: choose %(fewer)s or %(more)s.",
            seats=number(seats),
            fewer=number(seats - 1),
            more=number(seats + 1),
        ),
        "board.teams": _teams,
        # TRANSLATORS: %(counts)s is a list of seat counts, "4, 6, 8, 10 or 12".
        "board.seats_teams": lambda teams, counts, seats: _(
            "%(teams)s teams need %(counts)s players, so seats can't be %(seats)s.",
            teams=number(teams),
            counts=counts_text(counts),
            seats=number(seats),
        ),
        # TRANSLATORS: %(counts)s is a list of seat counts, "4, 6, 8, 10 or 12".
        "board.table_teams": lambda teams, counts, seats: _(
            "%(teams)s teams need %(counts)s players; this table has %(seats)s.",
            teams=number(teams),
            counts=counts_text(counts),
            seats=number(seats),
        ),
    }
)


def _shows(cell: int, card: str) -> str:
    space, played = b.cell_label(cell), b.card_label(card)
    if cell in b.CORNER_CELLS:
        return _("%(space)s is a free corner, not %(card)s.", space=space, card=played)
    return _(
        "%(space)s shows %(shown)s, not %(card)s.",
        space=space,
        shown=b.card_label(b.BOARD[cell]),
        card=played,
    )


def _not_dead(card: str, cells: list[int]) -> str:
    spaces = sorted({b.cell_label(c) for c in cells})
    if len(spaces) == 1:
        return _(
            "%(card)s is not dead: %(space)s is open.", card=b.card_label(card), space=spaces[0]
        )
    return _(
        "%(card)s is not dead: %(first)s and %(second)s are open.",
        card=b.card_label(card),
        first=spaces[0],
        second=spaces[1],
    )


def _no_split(seats: int) -> str:
    return _(
        "%(seats)s players can't split into equal teams: play with %(fewer)s or %(more)s.",
        seats=number(seats),
        fewer=number(seats - 1),
        more=number(seats + 1),
    )


# The words of the rules core's refusals, raised with cards as codes ("7H") and spaces as
# cell numbers, which are named here.
add_texts(
    {
        "board.rules_seats": lambda seats: _(
            "The board game takes 2 to 12 players, not %(seats)s.", seats=number(seats)
        ),
        "board.alone": lambda seats: _(
            "With %(seats)s players everyone plays alone: no teams.", seats=number(seats)
        ),
        "board.no_split": _no_split,
        "board.teams_2_3": lambda: _("Play in 2 or 3 teams."),
        "board.split": lambda seats, teams: _(
            "%(seats)s players can't split into %(teams)s equal teams.",
            seats=number(seats),
            teams=number(teams),
        ),
        "board.malformed": lambda: _("That move is malformed."),
        "board.off_board": lambda: _("That space is off the board."),
        "board.over": lambda: _("The game is over."),
        "board.trade_first": lambda: _("Trade your dead card first: you can pass only after that."),
        "board.cant_pass": lambda: _("You can play a card, so you can't pass."),
        "board.not_a_move": lambda: _("That is not a move of this game."),
        "board.not_held": lambda card: _("You don't hold %(card)s.", card=b.card_label(card)),
        "board.one_eyed_only": lambda: _("Only a one-eyed jack (J♥, J♠) removes a chip."),
        "board.no_chip": lambda cell: _(
            "There is no chip on %(space)s to remove.", space=b.cell_label(cell)
        ),
        "board.own_chip": lambda cell: _(
            "The chip on %(space)s is your own: remove an opponent's chip.",
            space=b.cell_label(cell),
        ),
        "board.locked_chip": lambda cell: _(
            "The chip on %(space)s is part of a sequence and can't be removed.",
            space=b.cell_label(cell),
        ),
        "board.one_eyed": lambda card: _(
            "%(card)s is a one-eyed jack: it removes a chip.", card=b.card_label(card)
        ),
        "board.corner": lambda cell: _(
            "%(space)s is a free corner: no chip goes there.", space=b.cell_label(cell)
        ),
        "board.shows": _shows,
        "board.taken": lambda cell: _("%(space)s already holds a chip.", space=b.cell_label(cell)),
        "board.traded": lambda: _("You have already traded a dead card this turn."),
        "board.jack_dead": lambda: _("Jacks are never dead."),
        "board.not_dead": _not_dead,
        # TRANSLATORS: %(text)s is what the player typed; the ranks and suits are the codes
        # to type (S spades, H hearts, D diamonds, C clubs): keep them as they are.
        "board.not_card": lambda card: _(
            "%(text)r is not a card: use a rank A,2-9,T,J,Q,K and a suit S,H,D,C.", text=card
        ),
        "board.off_coord": lambda row, col: _(
            "(%(row)s, %(col)s) is off the board.", row=row, col=col
        ),
        # TRANSLATORS: %(text)s is what the player typed; C5 is a space (column C, row 5).
        "board.not_space": lambda text: _(
            "%(text)r is not a space: use a column A-J and a row 1-10, like C5.", text=text
        ),
    }
)

# The start options' names in the host's settings form (``Game.option_labels``).
OPTION_LABELS = {
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "seats": N_("Players"),
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "teams": N_("Teams"),
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "first_sequence_wins": N_("First sequence wins"),
}

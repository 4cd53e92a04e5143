"""The Sequence board game (RULINGS §3): pure rules engine and bot players.

Typical use::

    rng = random.SystemRandom()
    state = new_game(BoardConfig(seats=2), rng)
    while outcome(state) is None:
        seat = current_seat(state)
        action = choose_action(view_for(state, seat), "strong", rng)  # or a player's choice
        state = apply(state, action, rng)  # raises IllegalAction for an illegal move
        log(dump_move(state.last_move)); save(dump(state))
"""

from bot.rules.board.cards import (
    FULL_DECK,
    ONE_EYED_JACKS,
    TWO_EYED_JACKS,
    card_label,
    is_card,
    is_jack,
)
from bot.rules.board.game import (
    EMPTY,
    Action,
    BoardConfig,
    BoardOutcome,
    BoardState,
    MoveRecord,
    Pass,
    PlayCard,
    RemoveChip,
    SeatView,
    Sequence,
    TradeDeadCard,
    apply,
    current_seat,
    dump,
    dump_action,
    dump_move,
    forfeit,
    is_dead,
    legal_actions,
    load,
    load_action,
    load_move,
    new_game,
    outcome,
    view_for,
)
from bot.rules.board.layout import BOARD, CORNER_CELLS, cell_label, coord_label, parse_coord
from bot.rules.board.levels import LEVELS, PLAYER_LEVELS, SEARCHING, bot_steps, choose_action

__all__ = [
    "BOARD",
    "CORNER_CELLS",
    "EMPTY",
    "FULL_DECK",
    "LEVELS",
    "ONE_EYED_JACKS",
    "PLAYER_LEVELS",
    "SEARCHING",
    "TWO_EYED_JACKS",
    "Action",
    "BoardConfig",
    "BoardOutcome",
    "BoardState",
    "MoveRecord",
    "Pass",
    "PlayCard",
    "RemoveChip",
    "SeatView",
    "Sequence",
    "TradeDeadCard",
    "apply",
    "bot_steps",
    "card_label",
    "cell_label",
    "choose_action",
    "coord_label",
    "current_seat",
    "dump",
    "dump_action",
    "dump_move",
    "forfeit",
    "is_card",
    "is_dead",
    "is_jack",
    "legal_actions",
    "load",
    "load_action",
    "load_move",
    "new_game",
    "outcome",
    "parse_coord",
    "view_for",
]

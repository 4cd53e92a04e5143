"""``/tournament create``'s options, declared as a game's ``settings`` are, and their one ``check``;
a refusal is a code with values (worded in ``bot.ui.tournament_texts``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import UserError
from bot.rules import tournament as rules
from bot.store.tournaments import FORMATS
from bot.tables.options import Option

MAX_SIGNUP_MINUTES = 10_080  # a week
FEE_MAX = 1_000_000_000  # the command's bound; the bot's stake cap is the real one

# The command's words (each option's description) are the cog's, at the edge: this layer
# holds values only (tests/test_player_words.py).
FORMAT: Option[str] = Option("format", "", default="")
ROUNDS: Option[int | None] = Option("rounds", "", default=None, low=1, high=20)
FEE: Option[int] = Option("fee", "", default=0, low=0, high=FEE_MAX)
PRIZE: Option[str] = Option("prize", "", default="winner")
BEST_OF: Option[int] = Option("best_of", "", default=1, low=1, high=3)
FINAL_BEST_OF: Option[int | None] = Option("final_best_of", "", default=None, low=1, high=3)
SIGNUP: Option[int | None] = Option("signup", "", default=None, low=1, high=MAX_SIGNUP_MINUTES)
CHECKIN: Option[int | None] = Option("checkin", "", default=None, low=1, high=MAX_SIGNUP_MINUTES)
SEATS: Option[int] = Option("seats", "", default=2, low=2, high=8)
OPTIONS = (FORMAT, ROUNDS, FEE, PRIZE, BEST_OF, FINAL_BEST_OF, SIGNUP, CHECKIN, SEATS)
MATCH_LENGTHS = (1, 3)  # a best of 1 or a best of 3


@dataclass(frozen=True, slots=True)
class Plan:
    """A tournament's options as chosen (0 or None: left out)."""

    format: str
    rounds: int = 0
    fee: int = 0
    prize: str = "winner"
    best_of: int = 1
    final_best_of: int | None = None  # None: as every match
    signup_minutes: int = 0  # 0: the organiser presses Start
    checkin_minutes: int = 0  # 0: no check-in
    seats: int = 2

    @property
    def final(self) -> int:
        return self.best_of if self.final_best_of is None else self.final_best_of


def check(plan: Plan, seat_limits: tuple[int, int], max_fee: int = FEE_MAX) -> None:
    """Raise ``UserError`` (a ``tournament.*`` code) if a tournament can't be made so:
    ``seat_limits`` are the game's, ``max_fee`` the bot's stake cap."""
    if plan.format not in FORMATS or plan.prize not in rules.PRIZE_SPLITS:
        raise UserError(code="tournament.choice")
    if plan.rounds and plan.format != "swiss":
        raise UserError(code="tournament.rounds")
    if plan.final_best_of not in (None, plan.best_of) and plan.format != "elimination":
        raise UserError(code="tournament.final")
    if plan.best_of not in MATCH_LENGTHS or plan.final not in MATCH_LENGTHS:
        raise UserError(code="tournament.best_of")
    if not 0 <= plan.fee <= max_fee:
        raise UserError(code="tournament.fee_cap", cap=max_fee)
    signup, checkin = plan.signup_minutes, plan.checkin_minutes
    if not 0 <= signup <= MAX_SIGNUP_MINUTES or not 0 <= checkin <= signup:
        raise UserError(code="tournament.checkin")
    low, high = seat_limits
    if not low <= plan.seats <= high or (plan.seats == 2 and not low <= 2 <= high):
        raise UserError(code="tournament.seats")
    if plan.seats > 2 and plan.format != "swiss":
        raise UserError(code="tournament.seats_format")
    if plan.seats > 2 and (plan.best_of != 1 or plan.final != 1):
        raise UserError(code="tournament.seats_best_of")

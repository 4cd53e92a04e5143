"""How a push-your-luck turn ended, as a value for the table's recent events (issue 21):
the words are made by ``bot.games.sequences.words`` when a message is drawn."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules import pushluck as pl
from bot.tables.events import Event


@dataclass(frozen=True)
class TurnEnded(Event, tag="sequences.turn"):
    """The rules' event that ended a turn (bank, full_run, bonus, overshoot or bust) with what its
    line says beyond it: the face a bust needed, the bonus throw, and for Sudden's overshoot
    ``via``, by how much and from which total."""

    seat: int
    kind: str
    dice: tuple[int, ...]
    run: tuple[int, ...]
    points: int
    needed: int = 0
    bonus_throw: bool = False
    via: str = ""
    added: int = 0
    total: int = 0


def turn_ended(state: pl.PushState, event: pl.Event) -> TurnEnded | None:
    """The value of ``event`` (``state`` is the state it led to); None for a throw or a
    lock, which the turn message shows live."""
    if event.kind in ("throw", "lock"):
        return None
    config = state.config
    base = TurnEnded(event.seat, event.kind, event.dice, event.run, event.points)
    if event.kind == "overshoot":
        # The event keeps the run and the dice, which say what the turn was: a bank throws
        # no die, a bonus hit has its die in the run, a soft bust on one die has not.
        if not event.dice:
            via, added = "bank", pl.bank_value(config, len(event.run))
        elif event.run[-1:] == event.dice and len(event.run) > config.n_dice:
            via, added = "bonus", pl.BONUS_POINTS
        else:
            via, added = "soft", len(event.run) // 2
        total = state.totals[event.seat]  # unchanged: the turn scored 0
        return replace(base, via=via, added=added, total=total)
    if event.kind == "bust":
        bonus = config.has_bonus and len(event.run) == config.n_dice
        needed = config.faces[len(event.run)]
        return replace(base, needed=needed, bonus_throw=bonus)
    return base

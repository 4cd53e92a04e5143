"""Push-your-luck Sequences' turn buttons in words: what each of the kind's turn actions
says it does (in Sudden with the total it leads to)."""

from __future__ import annotations

from bot.games.sequences.kind import sudden_finish
from bot.games.terms import dice_text
from bot.records import TurnAction
from bot.rules import pushluck as pl


def button_text(state: pl.PushState, action: TurnAction) -> tuple[str, str | None]:
    """The label and emoji of one of ``SequencesKind.turn_actions``."""
    name = action.action
    run = len(state.run) + (len(state.extending) if state.phase == "lock" else 0)
    if name == "throw":
        return f"Throw {state.config.n_dice} dice", "🎲"
    if name == "bank":
        return _bank_label(state, run), None
    if name == "push":
        left = state.config.n_dice - run if state.phase == "lock" else state.dice_left
        return f"Push ({left} {'die' if left == 1 else 'dice'})", None
    if name == "bonus":
        return _bonus_label(state), "🎯"
    if name == "odds":
        return "Odds", "📊"
    count = int(name[4:])
    locked = state.run + state.extending[:count]
    if name.startswith("bank"):
        return f"Bank only {dice_text(locked)} → {pl.SUDDEN_TARGET}: wins!", None
    return f"Lock only {dice_text(locked)}", None


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _bank_label(state: pl.PushState, run_length: int) -> str:
    """Bank, labelled for what it does; in Sudden with the total it leads to."""
    points = pl.bank_value(state.config, run_length)
    finish = sudden_finish(state, run_length)
    after = state.totals[state.current] + points
    if finish == "exact":
        return f"Bank {points} → {after}: wins!"
    if finish == "over":
        return f"Bank {points} → {after}: scores 0"
    if finish == "under":
        return f"Bank {_points(points)} → {after}"
    return f"Bank {_points(points)}"


def _bonus_label(state: pl.PushState) -> str:
    """The bonus throw; in Sudden with the total a hit leads to."""
    finish = sudden_finish(state, 0, pl.BONUS_POINTS)
    if finish is None:
        return "Bonus throw"
    after = state.totals[state.current] + pl.BONUS_POINTS
    hit = f"Bonus throw: a {state.config.bonus_face} → {after}"
    return {"exact": f"{hit} wins", "over": f"{hit} scores 0", "under": hit}[finish]

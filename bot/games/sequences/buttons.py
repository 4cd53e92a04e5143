"""Push-your-luck Sequences' turn buttons in words: what each of the kind's turn actions
says it does (in Sudden with the total it leads to)."""

from __future__ import annotations

from bot.games.sequences.kind import sudden_finish
from bot.games.terms import dice_text
from bot.i18n.speaking import _, number, pgettext, plural
from bot.records import TurnAction
from bot.rules import pushluck as pl

# TRANSLATORS (every label here): a button, at most 80 characters; keep it as short as
# the English, a phone shows about 25 characters of it on one line.


def button_text(state: pl.PushState, action: TurnAction) -> tuple[str, str | None]:
    """The label and emoji of one of ``SequencesKind.turn_actions``."""
    name = action.action
    run = len(state.run) + (len(state.extending) if state.phase == "lock" else 0)
    if name == "throw":
        return plural("Throw %(count)s die", "Throw %(count)s dice", state.config.n_dice), "🎲"
    if name == "bank":
        return _bank_label(state, run), None
    if name == "push":
        left = state.config.n_dice - run if state.phase == "lock" else state.dice_left
        # TRANSLATORS: a button: throw the dice not locked again ("push your luck").
        return plural("Push (%(count)s die)", "Push (%(count)s dice)", left), None
    if name == "bonus":
        return _bonus_label(state), "🎯"
    if name == "odds":
        return pgettext("button", "Odds"), "📊"
    count = int(name[4:])
    locked = dice_text(state.run + state.extending[:count])
    if name.startswith("bank"):
        # TRANSLATORS: Sudden: lock only these dice (1-2-3) and bank, reaching 21: a win.
        return _(
            "Bank only %(dice)s → %(target)s: wins!", dice=locked, target=number(pl.SUDDEN_TARGET)
        ), None
    # TRANSLATORS: lock only these dice of the throw (1-2), not every extending one.
    return _("Lock only %(dice)s", dice=locked), None


def _bank_label(state: pl.PushState, run_length: int) -> str:
    """Bank, labelled for what it does; in Sudden with the total it leads to."""
    points = pl.bank_value(state.config, run_length)
    finish = sudden_finish(state, run_length)
    after = number(state.totals[state.current] + points)
    if finish == "exact":
        # TRANSLATORS: Sudden: bank these points, the total becomes exactly 21: a win.
        return _("Bank %(points)s → %(total)s: wins!", points=number(points), total=after)
    if finish == "over":
        # TRANSLATORS: Sudden: banking would pass 21, so the turn scores nothing.
        return _("Bank %(points)s → %(total)s: scores 0", points=number(points), total=after)
    if finish == "under":
        # TRANSLATORS: Sudden: bank these points, the total becomes %(total)s.
        return plural("Bank %(count)s point → %(total)s", "Bank %(count)s points → %(total)s",
                      points, total=after)  # fmt: skip
    return plural("Bank %(count)s point", "Bank %(count)s points", points)


def _bonus_label(state: pl.PushState) -> str:
    """The bonus throw; in Sudden with the total a hit leads to."""
    finish = sudden_finish(state, 0, pl.BONUS_POINTS)
    if finish is None:
        return _("Bonus throw")
    face = state.config.bonus_face
    after = number(state.totals[state.current] + pl.BONUS_POINTS)
    if finish == "exact":
        # TRANSLATORS: Sudden: the bonus throw; a %(face)s makes the total %(total)s: a win.
        return _("Bonus throw: a %(face)s → %(total)s wins", face=face, total=after)
    if finish == "over":
        return _("Bonus throw: a %(face)s → %(total)s scores 0", face=face, total=after)
    return _("Bonus throw: a %(face)s → %(total)s", face=face, total=after)

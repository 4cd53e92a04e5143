"""One-roll Sequences and Hearts Due replayed as text: every throw, then the scores
(``python -m bot replay``)."""

from __future__ import annotations

from bot.games.base import Moments
from bot.games.oneroll.events import Thrown
from bot.games.oneroll.kind import OneRollTable
from bot.games.oneroll.words import throw_line
from bot.games.story import forfeit_line, plain, score_table
from bot.games.terms import seat_name
from bot.i18n.speaking import _
from bot.tables.model import Seat


def story(moments: Moments, seats: list[Seat]) -> str:
    lines: list[str] = []
    for step, after in moments[1:]:
        assert step is not None
        if "forfeit" in step.detail:
            lines.append(forfeit_line(step.detail, seats))
        elif after.state.last is not None:
            thrown = Thrown(after.state.config.ruleset, after.state.last)
            lines.append(plain(throw_line(thrown, seats)))
    table: OneRollTable = moments[-1][1]
    state = table.state
    lines.append("")
    lines.extend(
        score_table(
            [(seat_name(seats, s), state.totals[s]) for s in range(state.n_seats)], _("Scores")
        )
    )
    if state.outcome is not None:
        lines.append(_("Winner: %(winner)s", winner=seat_name(seats, state.outcome.winner)))
    return "\n".join(lines)

"""The board game replayed as text: every move as the thread showed it, then the sequences
(``python -m bot replay``). Public information only: the cards played and traded, never a
hand nor a drawn card."""

from __future__ import annotations

from bot.games.base import Moments
from bot.games.board.animation import side_names
from bot.games.board.events import Moved
from bot.games.board.render import draw_reason, side_label
from bot.games.board.words import move_line
from bot.games.story import forfeit_line, plain
from bot.i18n.speaking import _, number
from bot.rules import board as b
from bot.tables.model import Seat


def story(moments: Moments, seats: list[Seat]) -> str:
    lines: list[str] = []
    for index, (step, after) in enumerate(moments[1:], start=1):
        assert step is not None
        if "forfeit" in step.detail:
            lines.append(f"{index}. " + forfeit_line(step.detail, seats))
        elif after.last_move is not None:
            lines.append(f"{index}. {plain(move_line(Moved(after.last_move), seats))}")
    state: b.BoardState = moments[-1][1]
    names = side_names(state, seats)
    counts = state.sequence_counts()
    need = state.config.sequences_to_win
    lines.append("")
    # TRANSLATORS: the heading of each side's sequences in a replayed game's text.
    lines.append(_("Sequences:"))
    for side, name in enumerate(names):
        score = _(
            "%(side)s %(names)s: **%(made)s**/%(need)s",
            side=side_label(side),
            names=name,
            made=number(counts[side]),
            need=number(need),
        )
        lines.append("  " + score.replace("**", ""))  # plain text: no Discord bold
    if state.outcome is not None:
        won = state.outcome.side
        lines.append(
            _("Drawn: %(reason)s", reason=draw_reason(state.outcome))
            if won is None
            else _("Winner: %(name)s", name=names[won])
        )
    return "\n".join(lines)

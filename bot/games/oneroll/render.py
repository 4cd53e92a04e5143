"""One-roll Sequences and Hearts Due as a Discord embed."""

from __future__ import annotations

import discord

from bot.games.oneroll.texts import ruleset_title
from bot.games.oneroll.words import breakdown, describe
from bot.games.words import event_lines, ranked_seats
from bot.i18n.speaking import _, number
from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji, relative_time, score_table
from bot.rules import oneroll as one
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name

PENALTY_COLOUR = discord.Colour(0xC53030)


def phase_text(state: one.OneRollState) -> str:
    """The phase of a running game, as the turn's title names it."""
    return {
        "opening": _("Opening throws: the highest sum starts"),
        "play": _("Race to %(target)s", target=number(state.config.target)),
        "tiebreak": _("Tie-break: the highest throw wins"),
    }[state.phase]


def turn_embed(table: TableSnapshot) -> discord.Embed:
    state: one.OneRollState = table.rules.state
    title = ruleset_title(state.config.ruleset)
    lines = []
    colour = COLOUR
    last = state.last
    if last is not None:
        lines.append(f"## {dice_emoji(list(last.dice))}")
        who = md_name(table.seats[last.seat].name)
        if last.phase == "opening":
            lines.append(
                _("%(who)s's opening throw: sum **%(sum)s**", who=who, sum=number(last.value))
            )
        elif last.score.wiped:
            said = describe(last.score, state.config.ruleset)
            # TRANSLATORS: four 1s: %(said)s says so ("four 1s: total wiped!"), %(total)s
            # is the total the throw wiped.
            lines.append(
                _(
                    "💥 **%(who)s threw %(said)s** (%(total)s → 0)",
                    who=who,
                    said=said,
                    total=number(last.total_before),
                )
            )
            colour = PENALTY_COLOUR
        else:
            lines.append(_score_line(who, last.score, state.config.ruleset))
    if state.outcome is not None:
        winner = md_name(table.seats[state.outcome.winner].name)
        # TRANSLATORS: %(game)s is the game's name, "Hearts Due".
        title = _("🏆 %(winner)s won %(game)s!", winner=winner, game=title)
        colour = COLOUR_DONE
    else:
        seat = table.seats[state.current]
        title = f"🎲 {title} · {phase_text(state)}"
        lines.append(_("**%(who)s** to throw.", who=md_name(seat.name)))
        if table.turn_deadline is not None and not seat.is_bot:
            # TRANSLATORS: %(when)s is Discord's relative time ("in 3 minutes").
            lines.append(_("Turn timer: ends %(when)s", when=relative_time(table.turn_deadline)))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    names = [s.name for s in table.seats]
    live = state.outcome is None and table.status == "running"
    marks = ["▶" if live and i == state.current else "" for i in range(len(names))]
    if state.outcome is not None:
        marks = ["🏆" if i == state.outcome.winner else "" for i in range(len(names))]
    order = ranked_seats(table)  # by place once the game is over, as the result line
    embed.add_field(
        name=_("Scores"),
        value=score_table(
            [names[i] for i in order], [state.totals[i] for i in order], [marks[i] for i in order]
        ),
        inline=False,
    )
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-5:]))
        # TRANSLATORS: the field of the last few throws' lines.
        embed.add_field(name=_("Recent"), value=recent[:1024], inline=False)
    embed.set_footer(text=_("Game #%(id)s · four 1s in a throw wipe your total", id=table.id))
    return embed


def _score_line(who: str, score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """What a throw scored, as a sentence: ``Ana scores **20**: 1 (5) + 1-2-3 (15).``"""
    if not score.runs:
        return _("%(who)s's throw scores nothing.", who=who)
    parts = breakdown(score, ruleset)
    points = number(score.points)
    if len(score.runs) == 1:
        # TRANSLATORS: %(parts)s is the one scoring run: "1-2-3", "a lone 1", "five 6s".
        return _("%(who)s scores **%(points)s** with %(parts)s.", who=who, points=points,
                 parts=parts)  # fmt: skip
    # TRANSLATORS: %(parts)s adds up the runs: "1-2 (5) + 1-2-3 (10)".
    return _("%(who)s scores **%(points)s**: %(parts)s.", who=who, points=points, parts=parts)

"""One-roll Sequences and Hearts Due as a Discord embed."""

from __future__ import annotations

import discord

from bot.games.oneroll.texts import RULESETS
from bot.games.oneroll.words import breakdown, describe
from bot.games.words import event_lines
from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji, relative_time, score_table
from bot.rules import oneroll as one
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name

PENALTY_COLOUR = discord.Colour(0xC53030)


def turn_embed(table: TableSnapshot) -> discord.Embed:
    state: one.OneRollState = table.rules.state
    title = RULESETS[state.config.ruleset]
    lines = []
    colour = COLOUR
    last = state.last
    if last is not None:
        lines.append(f"## {dice_emoji(list(last.dice))}")
        who = md_name(table.seats[last.seat].name)
        if last.phase == "opening":
            lines.append(f"{who}'s opening throw: sum **{last.value}**")
        elif last.score.wiped:
            said = describe(last.score, state.config.ruleset)
            lines.append(f"💥 **{who} threw {said}** ({last.total_before} → 0)")
            colour = PENALTY_COLOUR
        else:
            lines.append(_score_line(who, last.score, state.config.ruleset))
    if state.outcome is not None:
        winner = md_name(table.seats[state.outcome.winner].name)
        title = f"🏆 {winner} won {title}!"
        colour = COLOUR_DONE
    else:
        seat = table.seats[state.current]
        phase = {
            "opening": "Opening throws: the highest sum starts",
            "play": f"Race to {state.config.target}",
            "tiebreak": "Tie-break: the highest throw wins",
        }[state.phase]
        title = f"🎲 {title} · {phase}"
        lines.append(f"**{md_name(seat.name)}** to throw.")
        if table.turn_deadline is not None and not seat.is_bot:
            lines.append(f"Turn timer: ends {relative_time(table.turn_deadline)}")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    names = [s.name for s in table.seats]
    marks = ["▶" if state.outcome is None and i == state.current else "" for i in range(len(names))]
    if state.outcome is not None:
        marks = ["🏆" if i == state.outcome.winner else "" for i in range(len(names))]
    embed.add_field(
        name="Scores", value=score_table(names, list(state.totals), marks), inline=False
    )
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-5:]))
        embed.add_field(name="Recent", value=recent[:1024], inline=False)
    embed.set_footer(text=f"Game #{table.id} · four 1s in a throw wipe your total")
    return embed


def _score_line(who: str, score: one.ThrowScore, ruleset: one.Ruleset) -> str:
    """What a throw scored, as a sentence: ``Ana scores **20**: 1 (5) + 1-2-3 (15).``"""
    if not score.runs:
        return f"{who}'s throw scores nothing."
    parts = breakdown(score, ruleset)
    if len(score.runs) == 1:
        return f"{who} scores **{score.points}** with {parts}."
    return f"{who} scores **{score.points}**: {parts}."

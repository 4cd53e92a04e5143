"""Push-your-luck Sequences as a Discord embed: the dice big, the run, the stakes, the scores."""

from __future__ import annotations

import discord

from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji, relative_time, score_table
from bot.rules import pushluck as pl
from bot.tables.model import Table


def _header(state: pl.PushState) -> str:
    config = state.config
    if state.tiebreak:
        return "Tie-break"
    if config.variant == "sudden":
        return "Sudden death · first to exactly 21"
    if config.rounds is not None:
        round_no = min(min(state.turns_taken) + 1, config.rounds)
        return f"Round {round_no} of {config.rounds}"
    return f"Race to {config.target} · round {min(state.turns_taken) + 1}"


def turn_embed(table: Table) -> discord.Embed:
    state: pl.PushState = table.rules
    title = f"🎲 {_title(table)} · {_header(state)}"
    if state.outcome is not None:
        return final_embed(table)
    seat = table.seats[state.current]
    lines = [f"**{seat.name}** to play."]
    if state.phase == "throw":
        if state.last is not None and state.last.turn_over and table.events:
            pass
        lines.append(f"Throw all {state.config.n_dice} dice to start the turn.")
    else:
        if state.phase == "lock":
            lines.append(f"## {dice_emoji(state.throw)}")
            ext = state.extending
            lines.append(f"Extends the run: **{'-'.join(map(str, ext))}**")
            run_after = len(state.run) + len(ext)
        else:
            run_after = len(state.run)
        locked = "-".join(map(str, state.run)) or "nothing yet"
        lines.append(f"Locked run: **{locked}** · dice left: {state.dice_left}")
        lines.append(
            f"Bank now for **{pl.bank_value(state.config, run_after)}** "
            f"point{'s' if run_after != 1 else ''}."
        )
        if state.config.variant == "sudden":
            total = state.totals[state.current]
            lines.append(f"Total {total}: needs exactly {pl.SUDDEN_TARGET - total} to win.")
    if table.turn_deadline is not None and not seat.is_bot:
        lines.append(f"Turn timer: ends {relative_time(table.turn_deadline)}")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    _add_scores(embed, table, state)
    return embed


def final_embed(table: Table) -> discord.Embed:
    state: pl.PushState = table.rules
    assert state.outcome is not None
    winners = " & ".join(table.seats[s].name for s in state.outcome.winners)
    reason = {
        "exact21": "reached exactly 21",
        "tiebreak": "won the tie-break",
        "rounds": "had the highest total after the last round",
        "target": "had the highest total when the target was reached",
        "forfeit": "kept playing after every other side forfeited",
    }[state.outcome.reason]
    embed = discord.Embed(
        title=f"🏆 {winners} won {_title(table)}!",
        description=f"{winners} {reason}.",
        colour=COLOUR_DONE,
    )
    _add_scores(embed, table, state)
    return embed


def _title(table: Table) -> str:
    variant = table.settings.get("variant", "standard")
    return "Sequences" if variant == "standard" else f"Sequences ({variant})"


def _add_scores(embed: discord.Embed, table: Table, state: pl.PushState) -> None:
    names = [s.name for s in table.seats]
    marks = ["▶" if i == state.current and state.outcome is None else "" for i in range(len(names))]
    if state.outcome is not None:
        marks = ["🏆" if i in state.outcome.winners else "" for i in range(len(names))]
    embed.add_field(
        name="Scores", value=score_table(names, list(state.totals), marks), inline=False
    )
    if state.config.variant == "team":
        a, b = state.side_totals()
        embed.add_field(name="Teams", value=f"Team A: **{a}** · Team B: **{b}**", inline=False)
    if table.events:
        embed.add_field(name="Recent", value="\n".join(table.events[-5:])[:1024], inline=False)
    embed.set_footer(text=f"Game #{table.id} · {table.settings.get('variant', 'standard')}")

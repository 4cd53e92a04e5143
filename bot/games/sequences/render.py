"""Push-your-luck Sequences as a Discord embed: the dice big, the run, the stakes, the scores."""

from __future__ import annotations

import discord

from bot.games.sequences.kind import sudden_finish
from bot.games.sequences.texts import variant_title
from bot.games.terms import dice_text
from bot.games.words import event_lines
from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji, relative_time, score_table
from bot.rules import pushluck as pl
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES


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


def turn_embed(table: TableSnapshot) -> discord.Embed:
    state: pl.PushState = table.rules
    title = f"🎲 {_title(table)} · {_header(state)}"
    if state.outcome is not None:
        return final_embed(table)
    seat = table.seats[state.current]
    lines = [f"**{md_name(seat.name)}** to play."]
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
        if state.config.variant == "sudden":
            lines.extend(_sudden_lines(state, run_after))
        else:
            points = pl.bank_value(state.config, run_after)
            lines.append(f"Bank now for **{points}** point{'s' if points != 1 else ''}.")
    lines.extend(house_rule_lines(state.config))
    if table.turn_deadline is not None and not seat.is_bot:
        lines.append(f"Turn timer: ends {relative_time(table.turn_deadline)}")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    _add_scores(embed, table, state)
    return embed


def _sudden_lines(state: pl.PushState, run_after: int) -> list[str]:
    """Sudden: how far 21 is, where banking now takes the total, and the smaller lock that
    lands exactly on 21 when banking everything would not."""
    total = state.totals[state.current]
    points = pl.bank_value(state.config, run_after)
    lines = [f"Total {total}: needs exactly {pl.SUDDEN_TARGET - total} to win."]
    finish = sudden_finish(state, run_after)
    if finish == "exact":
        lines.append(f"Bank now: {total} + {points} = **exactly 21, you win!**")
    elif finish == "over":
        lines.append(
            f"Banking {points} would make {total + points}: past 21 it **scores nothing**."
        )
    else:
        lines.append(f"Bank now for **{points}** point{'s' if points != 1 else ''}.")
    if state.phase == "lock" and finish != "exact":
        for count in range(1, len(state.extending)):
            locked = state.run + state.extending[:count]
            if sudden_finish(state, len(locked)) == "exact":
                lines.append(
                    f"Win now with **Bank only {dice_text(locked)}**: {total} + {len(locked)} = 21."
                )
    return lines


def house_rule_lines(config: pl.PushConfig) -> list[str]:
    """The house rules this table plays by, for every turn message."""
    if not config.soft_last_die:
        return []
    return ["House rule: **soft last die** (a bust on one die keeps half the run)."]


def _footer(table: TableSnapshot) -> str:
    """Game number and rules: the variant, and any house rule (never "standard" then)."""
    variant = table.settings.get("variant", "standard")
    parts = [f"Game #{table.id}"]
    soft = bool(table.settings.get("soft_last_die", False))
    if variant != "standard" or not soft:
        parts.append(variant)
    if soft:
        parts.append("house rule: soft last die")
    return " · ".join(parts)


def final_embed(table: TableSnapshot) -> discord.Embed:
    state: pl.PushState = table.rules
    assert state.outcome is not None
    winners = " & ".join(md_name(table.seats[s].name) for s in state.outcome.winners)
    reason = {
        "exact21": "reached exactly 21",
        "tiebreak": "won the tie-break",
        "rounds": "had the highest total after the last round",
        "target": "had the highest total when the target was reached",
        "forfeit": "kept playing after every other side forfeited",
    }[state.outcome.reason]
    note = tiebreak_note(state, [md_name(s.name) for s in table.seats])
    embed = discord.Embed(
        title=f"🏆 {winners} won {_title(table)}!",
        description=f"{winners} {reason}." + (f"\n**{note}**" if note else ""),
        colour=COLOUR_DONE,
    )
    _add_scores(embed, table, state)
    return embed


def tiebreak_note(state: pl.PushState, names: list[str]) -> str | None:
    """The tie-break turns that decided the game, "Tie-break: Ana 3 · Bo 0" (in a Team
    game with each team's sum); None when no tie-break did. The totals stay tied, so
    without this line a result reads as a win at 0-0."""
    turns = state.deciding_tiebreak
    if not turns:
        return None
    played = " · ".join(f"{names[seat]} {points}" for seat, points in turns)
    # Every turn outside the tie-break counted in turns_taken; more tie-break turns than
    # those of the deciding round mean earlier rounds of it were tied too.
    tiebreak_turns = len(state.history) - sum(state.turns_taken)
    head = "Last tie-break round" if tiebreak_turns > len(turns) else "Tie-break"
    if state.config.variant != "team":
        return f"{head}: {played}"
    sums = {side: 0 for side in sorted({state.side_of(seat) for seat, _ in turns})}
    for seat, points in turns:
        sums[state.side_of(seat)] += points
    teams = ", ".join(f"Team {TEAM_NAMES[side]} {total}" for side, total in sums.items())
    return f"{head}: {played} ({teams})"


def team_names(table: TableSnapshot, state: pl.PushState) -> list[str]:
    """Per team, who plays in it: "Ana & Cy" (as markdown)."""
    return [
        " & ".join(
            md_name(table.seats[s].name) for s in range(state.n_seats) if state.team_of(s) == t
        )
        for t in (0, 1)
    ]


def _title(table: TableSnapshot) -> str:
    return variant_title(table.settings.get("variant", "standard"))


def _add_scores(embed: discord.Embed, table: TableSnapshot, state: pl.PushState) -> None:
    team_game = state.config.variant == "team"
    names = [
        f"{s.name} ({TEAM_NAMES[state.team_of(i)]})" if team_game else s.name
        for i, s in enumerate(table.seats)
    ]
    marks = ["▶" if i == state.current and state.outcome is None else "" for i in range(len(names))]
    if state.outcome is not None:
        marks = ["🏆" if i in state.outcome.winners else "" for i in range(len(names))]
    embed.add_field(
        name="Scores", value=score_table(names, list(state.totals), marks), inline=False
    )
    if team_game:
        members = team_names(table, state)
        embed.add_field(
            name="Teams",
            value="\n".join(
                f"Team {TEAM_NAMES[t]} ({members[t]}): **{total}**"
                for t, total in enumerate(state.side_totals())
            )[:1024],
            inline=False,
        )
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-5:]))
        embed.add_field(name="Recent", value=recent[:1024], inline=False)
    embed.set_footer(text=_footer(table))

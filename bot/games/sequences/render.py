"""Push-your-luck Sequences as a Discord embed: the dice big, the run, the stakes, the scores."""

from __future__ import annotations

import discord

from bot.games.sequences.kind import sudden_finish
from bot.games.sequences.texts import variant_name, variant_title
from bot.games.terms import dice_text
from bot.games.words import event_lines, ranked_seats, won_by_forfeit
from bot.i18n.speaking import _, number, plural
from bot.render.common import COLOUR, COLOUR_DONE, dice_emoji, relative_time, score_table
from bot.rules import pushluck as pl
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES

TARGET = pl.SUDDEN_TARGET


def stage_text(state: pl.PushState) -> str:
    """The turn's stage as its title names it: the round, the race, the tie-break."""
    config = state.config
    if state.tiebreak:
        return _("Tie-break")
    if config.variant == "sudden":
        return _("Sudden death · first to exactly %(target)s", target=number(TARGET))
    if config.rounds is not None:
        round_no = min(min(state.turns_taken) + 1, config.rounds)
        return _(
            "Round %(round)s of %(rounds)s", round=number(round_no), rounds=number(config.rounds)
        )
    return _(
        "Race to %(target)s · round %(round)s",
        target=number(config.target or 0),
        round=number(min(state.turns_taken) + 1),
    )


def turn_embed(table: TableSnapshot) -> discord.Embed:
    state: pl.PushState = table.rules
    title = f"🎲 {_title(table)} · {stage_text(state)}"
    if state.outcome is not None:
        return final_embed(table)
    seat = table.seats[state.current]
    lines = [_("**%(who)s** to play.", who=md_name(seat.name))]
    if state.phase == "throw":
        n = state.config.n_dice
        lines.append(
            plural(
                "Throw the %(count)s die to start the turn.",
                "Throw all %(count)s dice to start the turn.",
                n,
            )
        )
    else:
        if state.phase == "lock":
            lines.append(f"## {dice_emoji(state.throw)}")
            ext = state.extending
            # TRANSLATORS: the dice of this throw that extend the run, as "3-4".
            lines.append(_("Extends the run: **%(dice)s**", dice=dice_text(ext)))
            run_after = len(state.run) + len(ext)
        else:
            run_after = len(state.run)
        left = number(state.dice_left)
        if state.run:
            lines.append(
                _(
                    "Locked run: **%(run)s** · dice left: %(left)s",
                    run=dice_text(state.run),
                    left=left,
                )
            )
        else:
            lines.append(_("Locked run: **nothing yet** · dice left: %(left)s", left=left))
        if state.config.variant == "sudden":
            lines.extend(_sudden_lines(state, run_after))
        else:
            lines.append(_bank_now(pl.bank_value(state.config, run_after)))
    lines.extend(house_rule_lines(state.config))
    if table.turn_deadline is not None and not seat.is_bot:
        # TRANSLATORS: %(when)s is Discord's relative time ("in 3 minutes").
        lines.append(_("Turn timer: ends %(when)s", when=relative_time(table.turn_deadline)))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    _add_scores(embed, table, state)
    return embed


def _bank_now(points: int) -> str:
    return plural("Bank now for **%(count)s** point.", "Bank now for **%(count)s** points.", points)


def _sudden_lines(state: pl.PushState, run_after: int) -> list[str]:
    """Sudden: how far 21 is, where banking now takes the total, and the smaller lock that
    lands exactly on 21 when banking everything would not."""
    total = state.totals[state.current]
    points = pl.bank_value(state.config, run_after)
    values = {
        "total": number(total),
        "points": number(points),
        "sum": number(total + points),
        "target": number(TARGET),
    }
    lines = [
        _(
            "Total %(total)s: needs exactly %(needed)s to win.",
            total=number(total),
            needed=number(TARGET - total),
        )
    ]
    finish = sudden_finish(state, run_after)
    if finish == "exact":
        lines.append(
            _("Bank now: %(total)s + %(points)s = **exactly %(target)s, you win!**", **values)
        )
    elif finish == "over":
        lines.append(
            _(
                "Banking %(points)s would make %(sum)s: past %(target)s it **scores nothing**.",
                **values,
            )
        )
    else:
        lines.append(_bank_now(points))
    if state.phase == "lock" and finish != "exact":
        for count in range(1, len(state.extending)):
            locked = state.run + state.extending[:count]
            if sudden_finish(state, len(locked)) == "exact":
                lines.append(
                    # TRANSLATORS: "Bank only 1-2" is the button's label ("Bank only
                    # %(dice)s → %(target)s: wins!"): use the same words.
                    _(
                        "Win now with **Bank only %(dice)s**: %(total)s + %(count)s = %(target)s.",
                        dice=dice_text(locked),
                        total=number(total),
                        count=number(len(locked)),
                        target=number(TARGET),
                    )
                )
    return lines


def house_rule_lines(config: pl.PushConfig) -> list[str]:
    """The house rules this table plays by, for every turn message."""
    if not config.soft_last_die:
        return []
    return [_("House rule: **soft last die** (a bust on one die keeps half the run).")]


def _footer(table: TableSnapshot) -> str:
    """Game number and rules: the variant, and any house rule (never "standard" then)."""
    variant = table.settings.get("variant", "standard")
    parts = [_("Game #%(id)s", id=table.id)]
    soft = bool(table.settings.get("soft_last_die", False))
    if variant != "standard" or not soft:
        parts.append(variant_name(variant))
    if soft:
        parts.append(_("house rule: soft last die"))
    return " · ".join(parts)


def final_embed(table: TableSnapshot) -> discord.Embed:
    state: pl.PushState = table.rules
    assert state.outcome is not None
    won = state.outcome.winners
    winners = " & ".join(md_name(table.seats[s].name) for s in won)
    how = won_by_forfeit(table) if state.outcome.reason == "forfeit" else None
    reason = (
        # TRANSLATORS: %(how)s says who left and how: "Bo resigned", "Bo ran out of time";
        # %(winners)s is one name or a team's two: the plural form is for two.
        plural(
            "%(winners)s won: %(how)s.",
            "%(winners)s won: %(how)s.",
            len(won),
            winners=winners,
            how=how,
        )
        if how
        else _reason(state.outcome.reason, winners, len(won))
    )
    note = tiebreak_note(state, [md_name(s.name) for s in table.seats])
    embed = discord.Embed(
        # TRANSLATORS: %(game)s is the game's name, "Sequences (Reverse)"; %(winners)s one
        # name or a team's two ("Ana & Cy"): the plural form is for two.
        title=plural(
            "🏆 %(winners)s won %(game)s!",
            "🏆 %(winners)s won %(game)s!",
            len(won),
            winners=winners,
            game=_title(table),
        ),
        description=reason + (f"\n**{note}**" if note else ""),
        colour=COLOUR_DONE,
    )
    _add_scores(embed, table, state)
    return embed


def _reason(reason: str, winners: str, n: int) -> str:
    """Why the winners won, a sentence; ``n`` winners (a team's two in Team)."""
    # TRANSLATORS (the result's line): %(winners)s is one name or a team's two ("Ana & Cy"):
    # the plural form is for two.
    if reason == "exact21":
        return plural(
            "%(winners)s reached exactly 21.", "%(winners)s reached exactly 21.", n, winners=winners
        )
    if reason == "tiebreak":
        return plural(
            "%(winners)s won the tie-break.", "%(winners)s won the tie-break.", n, winners=winners
        )
    if reason == "rounds":
        return plural(
            "%(winners)s had the highest total after the last round.",
            "%(winners)s had the highest total after the last round.",
            n,
            winners=winners,
        )
    if reason == "target":
        return plural(
            "%(winners)s had the highest total when the target was reached.",
            "%(winners)s had the highest total when the target was reached.",
            n,
            winners=winners,
        )
    return plural(
        "%(winners)s kept playing after every other side forfeited.",
        "%(winners)s kept playing after every other side forfeited.",
        n,
        winners=winners,
    )


def tiebreak_note(state: pl.PushState, names: list[str]) -> str | None:
    """The tie-break turns that decided the game, "Tie-break: Ana 3 · Bo 0" (in a Team
    game with each team's sum); None when no tie-break did. The totals stay tied, so
    without this line a result reads as a win at 0-0."""
    turns = state.deciding_tiebreak
    if not turns:
        return None
    played = " · ".join(f"{names[seat]} {number(points)}" for seat, points in turns)
    # Every turn outside the tie-break counted in turns_taken; more tie-break turns than
    # those of the deciding round mean earlier rounds of it were tied too.
    tiebreak_turns = len(state.history) - sum(state.turns_taken)
    last = tiebreak_turns > len(turns)
    # TRANSLATORS: %(turns)s lists each player's tie-break turn, "Ana 3 · Bo 0".
    if state.config.variant != "team":
        if last:
            return _("Last tie-break round: %(turns)s", turns=played)
        return _("Tie-break: %(turns)s", turns=played)
    sums = {side: 0 for side in sorted({state.side_of(seat) for seat, _points in turns})}
    for seat, points in turns:
        sums[state.side_of(seat)] += points
    teams = ", ".join(
        _("Team %(team)s %(total)s", team=TEAM_NAMES[side], total=number(total))
        for side, total in sums.items()
    )
    # TRANSLATORS: %(teams)s lists each team's sum, "Team A 3, Team B 0".
    if last:
        return _("Last tie-break round: %(turns)s (%(teams)s)", turns=played, teams=teams)
    return _("Tie-break: %(turns)s (%(teams)s)", turns=played, teams=teams)


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
    live = state.outcome is None and table.status == "running"
    marks = ["▶" if i == state.current and live else "" for i in range(len(names))]
    if state.outcome is not None:
        marks = ["🏆" if i in state.outcome.winners else "" for i in range(len(names))]
    order = ranked_seats(table)  # by place once the game is over, as the result line
    embed.add_field(
        name=_("Scores"),
        value=score_table(
            [names[i] for i in order], [state.totals[i] for i in order], [marks[i] for i in order]
        ),
        inline=False,
    )
    if team_game:
        members = team_names(table, state)
        embed.add_field(
            name=_("Teams"),
            value="\n".join(
                _(
                    "Team %(team)s (%(members)s): **%(total)s**",
                    team=TEAM_NAMES[t],
                    members=members[t],
                    total=number(total),
                )
                for t, total in enumerate(state.side_totals())
            )[:1024],
            inline=False,
        )
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-5:]))
        # TRANSLATORS: the field of the last few turns' lines.
        embed.add_field(name=_("Recent"), value=recent[:1024], inline=False)
    embed.set_footer(text=_footer(table))

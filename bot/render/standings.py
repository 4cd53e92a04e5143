"""Embeds for wallets, leaderboards and member statistics: values in, embeds out."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.ratings import StatLine
from bot.records import (
    WIN_RATE_MIN_GAMES,
    LeaderboardPage,
    LeaderboardRow,
    LedgerEntry,
    Season,
    WalletView,
)
from bot.render.common import COLOUR, chips

SORT_LABELS = {
    "rating": "rating",
    "wins": "wins",
    "win_rate": f"win rate ({WIN_RATE_MIN_GAMES}+ games)",
    "chips": "chips won, net of stakes",
}
SCOPE_LABELS = {"server": "this server", "global": "all servers"}
MINUS = "\u2212"


def signed(amount: int) -> str:
    return f"+{amount:,}" if amount >= 0 else f"{MINUS}{-amount:,}"


FIELD_MAX = 1024  # Discord's limits on an embed field's value and on a description
DESCRIPTION_MAX = 4096
ELLIPSIS = "…"


def clip_markdown(text: str, room: int) -> str:
    """``text`` with markdown escaped, cut (ending in "…") to at most ``room`` characters.
    Cut before escaping, so no escape is split."""
    escaped = discord.utils.escape_markdown(text)
    if len(escaped) <= room:
        return escaped
    if room < 1:
        return ""
    cut = text
    while cut:
        cut = cut[:-1]
        clipped = discord.utils.escape_markdown(cut.rstrip()) + ELLIPSIS
        if len(clipped) <= room:
            return clipped
    return ELLIPSIS


def fit_lines(lines: list[str], limit: int = FIELD_MAX) -> str:
    """Join ``lines``; if that exceeds ``limit``, keep the first lines that fit and end
    with a "…" line."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line, ELLIPSIS])) > limit:
            break
        kept.append(line)
    if not kept and lines:  # even one line is too long: cut it
        return lines[0][: limit - 1] + ELLIPSIS
    return "\n".join([*kept, ELLIPSIS])


def _entry_text(
    kind: str,
    reason: str | None,
    game_id: int | None,
    actor_id: int | None,
    reason_room: int = FIELD_MAX,
) -> str:
    if game_id is None and reason and reason.startswith("tournament:"):
        number = reason.removeprefix("tournament:")
        tournament = {
            "escrow": "Entry fee of tournament #",
            "refund": "Entry fee back from tournament #",
            "payout": "Prize of tournament #",
        }.get(kind)
        if tournament is not None and number.isdigit():
            return tournament + number
    who = f"<@{actor_id}>" if actor_id is not None else "someone"
    clipped = clip_markdown(reason, reason_room) if reason else ""
    why = f": {clipped}" if clipped else ""
    table = f"table #{game_id}" if game_id is not None else "a table"
    return {
        "start": "Welcome chips",
        "daily": "Daily chips",
        "grant": f"Granted by {who}{why}",
        "take": f"Removed by {who}{why}",
        "pay_in": f"From {who}{why}",
        "pay_out": f"To {who}{why}",
        "escrow": f"Stake at {table}",
        "refund": f"Stake back from {table}",
        "payout": f"Pot won at {table}",
    }.get(kind, kind)


def wallet_embed(view: WalletView, name: str, now: float) -> discord.Embed:
    lines = [f"**{chips(view.balance)}**"]
    if view.held:
        lines.append(f"{chips(view.held)} staked at open tables")
    due = view.next_daily(now)
    lines.append("`/daily` is ready" if due is None else f"Next `/daily` <t:{int(due)}:R>")
    embed = discord.Embed(title=f"Wallet · {name}", description="\n".join(lines), colour=COLOUR)
    if view.entries:
        embed.add_field(name="Latest", value=_latest(view.entries), inline=False)
    return embed


def _latest(entries: list[LedgerEntry]) -> str:
    """One line per entry, in one field: reasons (200 characters each, longer once escaped)
    are cut so that every entry keeps its line within the field's 1,024 characters."""

    def line(e: LedgerEntry, room: int) -> str:
        text = _entry_text(e.kind, e.reason, e.game_id, e.actor_id, room)
        return f"`{signed(e.delta):>8}` {text} · <t:{int(e.at)}:R>"

    lines = [line(e, FIELD_MAX) for e in entries]
    if len("\n".join(lines)) > FIELD_MAX:
        per_line = (FIELD_MAX - (len(entries) - 1)) // len(entries)
        lines = [
            line(e, per_line - len(line(e, 0)) - len(": ")) if e.reason else line(e, 0)
            for e in entries
        ]
    return fit_lines(lines)


def _who(row: LeaderboardRow) -> str:
    # A member never seen by name is shown as a mention; allowed_mentions keeps it silent.
    if not row.name:
        return f"<@{row.user_id}>"
    # Names keep their markdown and mention characters: escaped, a name shows as it is.
    return discord.utils.escape_mentions(discord.utils.escape_markdown(row.name)).replace(
        "<", "\\<"
    )


def _board_line(row: LeaderboardRow, sort: str, me: bool) -> str:
    rate = f"{100 * row.win_rate:.0f} %"
    key = {
        "rating": f"**{row.rating:,}**",
        "wins": f"**{row.wins:,}** won",
        "win_rate": f"**{rate}**",
        "chips": f"**{signed(row.chips_net)}** chips",
    }[sort]
    # Games with bot players rate nobody: a member who only had those has no rating yet.
    rating = f"rating {row.rating:,}" if row.rated_games else "unrated"
    rest = [f"{row.wins:,}/{row.games:,} won ({rate})", rating]
    if sort in ("wins", "win_rate"):
        rest = [f"{row.games:,} played", rating]
    if sort == "rating":
        rest = [f"{row.wins:,}/{row.games:,} won ({rate})"]
    name = f"__{_who(row)}__" if me else _who(row)
    return f"`{row.rank:>3}.` {name} · {key} · " + " · ".join(rest)


def leaderboard_embed(
    board: LeaderboardPage,
    game_name: str,
    scope: str,
    sort: str,
    viewer_id: int | None,
    *,
    played: bool = True,
    season: Season | None = None,
    all_time: bool = False,
    now: float = 0.0,
) -> discord.Embed:
    """``played``: whether any game of this leaderboard finished in the scope (an empty
    board says so, rather than blame bot players for the missing ratings). ``season``: the
    season's board; ``all_time``: the all-time board of a server that has seasons."""
    title = f"Leaderboard · {game_name}"
    period = f", {season_label(season, now)}" if season else ", all time" if all_time else ""
    head = (
        f"{SCOPE_LABELS.get(scope, scope).capitalize()}{period}, by {SORT_LABELS.get(sort, sort)}"
    )
    if not board.rows:
        where = (
            f"in season {clip_markdown(season.name, 60)}"
            if season
            else "on this server"
            if scope == "server"
            else "anywhere"
        )
        empty = (
            {
                "rating": "Nobody is rated yet: ratings move in games without bot players.",
                "win_rate": f"Nobody has played {WIN_RATE_MIN_GAMES} games yet.",
            }.get(sort, "No finished games yet.")
            if played
            else f"No game of {game_name} has finished {where} yet. "
            "Pick another game with the `game` option."
        )
        return discord.Embed(title=title, description=f"{head}\n\n{empty}", colour=COLOUR)
    lines = [_board_line(row, sort, row.user_id == viewer_id) for row in board.rows]
    mine = board.viewer_row
    own: list[str] = []
    if mine is not None and all(row.user_id != mine.user_id for row in board.rows):
        own = [ELLIPSIS, _board_line(mine, sort, True)]
    # The page's rows end with "…" rather than pass a description's 4,096 characters; the
    # viewer's own row always shows.
    room = DESCRIPTION_MAX - len(head) - len("\n\n") - len("\n".join(["", *own]))
    rows = fit_lines(lines, room)
    if own and rows.endswith(ELLIPSIS):
        own = own[1:]
    description = "\n".join([head + "\n\n" + rows, *own])
    embed = discord.Embed(title=title, description=description, colour=COLOUR)
    embed.set_footer(
        text=f"Page {board.page:,} of {board.pages:,} · {board.total:,} "
        f"player{'s' if board.total != 1 else ''}"
    )
    return embed


def season_label(season: Season, now: float) -> str:
    """ "season **Spring** (ends in 3 days)": its end as a Discord timestamp, which each
    reader sees in their own time zone."""
    name = f"season **{clip_markdown(season.name, 60)}**"
    if season.ends_at is None:
        return name + (" (running)" if season.running(now) else "")
    at = int(season.ends_at)
    return name + (f" (ends <t:{at}:R>)" if season.running(now) else f" (ended <t:{at}:d>)")


def _streak(streak: int) -> str:
    if streak > 0:
        return f"{streak} win{'s' if streak != 1 else ''} in a row"
    if streak < 0:
        return f"{-streak} without a win"
    return "—"


def stats_embed(
    name: str,
    lines: list[StatLine],
    global_lines: dict[str, StatLine],
    chart_game: str | None,
    game_label: Callable[[str], str],
) -> discord.Embed:
    embed = discord.Embed(title=f"Statistics · {name}", colour=COLOUR)
    if not lines:
        embed.description = "No finished games on this server yet."
        return embed
    for line in lines[:10]:
        rated = f"rating **{line.display:,}**" if line.rated_games else "not rated yet"
        glob = global_lines.get(line.game_key)
        everywhere = (
            f" (all servers {glob.display:,})" if glob is not None and glob.rated_games else ""
        )
        embed.add_field(
            name=game_label(line.game_key),
            value=(
                f"{rated}{everywhere}\n"
                f"{line.wins:,} won of {line.games:,} ({100 * line.win_rate:.0f} %) · "
                f"best turn {line.best_turn:,}\n"
                f"chips won {line.chips_won:,} · lost {line.chips_lost:,} · "
                f"streak {_streak(line.streak)}"
            ),
            inline=False,
        )
    if chart_game is not None:
        embed.set_image(url="attachment://rating.png")
        embed.set_footer(text=f"Rating after each of the last games: {game_label(chart_game)}")
    return embed

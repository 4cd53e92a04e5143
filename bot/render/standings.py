"""Embeds for wallets, leaderboards and member statistics: values in, embeds out."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.i18n.speaking import N_, _, number, plural
from bot.ratings import StatLine
from bot.records import (
    WIN_RATE_MIN_GAMES,
    LeaderboardPage,
    LeaderboardRow,
    LedgerEntry,
    Season,
    WalletView,
)
from bot.render.common import COLOUR, chips, timestamp

SORT_LABELS = {
    "rating": N_("rating"),
    "wins": N_("wins"),
    "win_rate": N_("win rate (%(games)s+ games)"),
    "chips": N_("chips won, net of stakes"),
}
SCOPE_LABELS = {  # a heading's start
    "server": N_("This server"),
    "global": N_("All servers"),
    "everywhere": N_("Quick play across servers"),
}


def sort_label(sort: str) -> str:
    label = SORT_LABELS.get(sort)
    return (
        sort
        if label is None
        else _(label, games=WIN_RATE_MIN_GAMES)
        if sort == "win_rate"
        else _(label)
    )


MINUS = "\u2212"


def signed(amount: int) -> str:
    return f"+{number(amount)}" if amount >= 0 else f"{MINUS}{number(-amount)}"


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
        tid = reason.removeprefix("tournament:")
        tournament = {
            "escrow": N_("Entry fee of tournament #%(id)s"),
            "refund": N_("Entry fee back from tournament #%(id)s"),
            "payout": N_("Prize of tournament #%(id)s"),
        }.get(kind)
        if tournament is not None and tid.isdigit():
            return _(tournament, id=tid)
    who = f"<@{actor_id}>" if actor_id is not None else _("someone")
    clipped = clip_markdown(reason, reason_room) if reason else ""
    if kind in ("grant", "take", "pay_in", "pay_out"):
        with_reason = {
            "grant": N_("Granted by %(who)s: %(why)s"),
            "take": N_("Removed by %(who)s: %(why)s"),
            "pay_in": N_("From %(who)s: %(why)s"),
            "pay_out": N_("To %(who)s: %(why)s"),
        }
        without = {
            "grant": N_("Granted by %(who)s"),
            "take": N_("Removed by %(who)s"),
            "pay_in": N_("From %(who)s"),
            "pay_out": N_("To %(who)s"),
        }
        if clipped:
            return _(with_reason[kind], who=who, why=clipped)
        return _(without[kind], who=who)
    if kind in ("escrow", "refund", "payout"):
        if game_id is None:
            somewhere = {
                "escrow": N_("Stake at a table"),
                "refund": N_("Stake back from a table"),
                "payout": N_("Pot won at a table"),
            }[kind]
            return _(somewhere)
        at_table = {
            "escrow": N_("Stake at table #%(table)s"),
            "refund": N_("Stake back from table #%(table)s"),
            "payout": N_("Pot won at table #%(table)s"),
        }[kind]
        return _(at_table, table=game_id)
    if kind == "start":
        return _("Welcome chips")
    if kind == "daily":
        return _("Daily chips")
    return kind


def wallet_embed(view: WalletView, name: str, now: float) -> discord.Embed:
    lines = [f"**{chips(view.balance)}**"]
    if view.held:
        lines.append(_("%(chips)s staked at open tables", chips=chips(view.held)))
    due = view.next_daily(now)
    lines.append(
        _("`/daily` is ready") if due is None else _("Next `/daily` %(when)s", when=timestamp(due))
    )
    embed = discord.Embed(
        title=_("Wallet · %(name)s", name=name), description="\n".join(lines), colour=COLOUR
    )
    if view.entries:
        embed.add_field(name=_("Latest"), value=_latest(view.entries), inline=False)
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
    rate = _("%(percent)s %%", percent=number(round(100 * row.win_rate)))
    key = {
        "rating": f"**{number(row.rating)}**",
        "wins": _("**%(wins)s** won", wins=number(row.wins)),
        "win_rate": f"**{rate}**",
        "chips": _("**%(chips)s** chips", chips=signed(row.chips_net)),
    }[sort]
    # Games with bot players rate nobody: a member who only had those has no rating yet.
    rating = _("rating %(rating)s", rating=number(row.rating)) if row.rated_games else _("unrated")
    won = _(
        "%(wins)s/%(games)s won (%(rate)s)",
        wins=number(row.wins),
        games=number(row.games),
        rate=rate,
    )
    rest = [won, rating]
    if sort in ("wins", "win_rate"):
        rest = [_("%(games)s played", games=number(row.games)), rating]
    if sort == "rating":
        rest = [won]
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
    title = _("Leaderboard · %(game)s", game=game_name)
    where_label = _(SCOPE_LABELS[scope]) if scope in SCOPE_LABELS else scope
    if season:
        head = _(
            "%(scope)s, %(season)s, by %(sort)s",
            scope=where_label,
            season=season_label(season, now),
            sort=sort_label(sort),
        )
    elif all_time:
        head = _("%(scope)s, all time, by %(sort)s", scope=where_label, sort=sort_label(sort))
    else:
        head = _("%(scope)s, by %(sort)s", scope=where_label, sort=sort_label(sort))
    if not board.rows:
        if not played and season:
            empty = _(
                "No game of %(game)s has finished in season %(season)s yet. Pick another "
                "game with the `game` option.",
                game=game_name,
                season=clip_markdown(season.name, 60),
            )
        elif not played and scope == "server":
            empty = _(
                "No game of %(game)s has finished on this server yet. Pick another game "
                "with the `game` option.",
                game=game_name,
            )
        elif not played and scope == "everywhere":
            empty = _(
                "No quick-play game of %(game)s across servers has finished yet. Pick another "
                "game with the `game` option.",
                game=game_name,
            )
        elif not played:
            empty = _(
                "No game of %(game)s has finished anywhere yet. Pick another game with the "
                "`game` option.",
                game=game_name,
            )
        elif sort == "rating":
            empty = _("Nobody is rated yet: ratings move in games without bot players.")
        elif sort == "win_rate":
            empty = _("Nobody has played %(games)s games yet.", games=number(WIN_RATE_MIN_GAMES))
        else:
            empty = _("No finished games yet.")
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
        text=plural(
            "Page %(page)s of %(pages)s · %(count)s player",
            "Page %(page)s of %(pages)s · %(count)s players",
            board.total,
            page=number(board.page),
            pages=number(board.pages),
        )
    )
    return embed


def season_label(season: Season, now: float) -> str:
    """ "season **Spring** (ends in 3 days)": its end as a Discord timestamp, which each
    reader sees in their own time zone."""
    name = clip_markdown(season.name, 60)
    if season.ends_at is None:
        if season.running(now):
            return _("season **%(name)s** (running)", name=name)
        return _("season **%(name)s**", name=name)
    at = int(season.ends_at)
    if season.running(now):
        return _("season **%(name)s** (ends %(when)s)", name=name, when=timestamp(at))
    return _("season **%(name)s** (ended %(when)s)", name=name, when=timestamp(at, "d"))


def _streak(streak: int) -> str | None:
    """The current run of results, as a whole phrase; None when there is none."""
    if streak > 0:
        return plural("%(count)s win in a row", "%(count)s wins in a row", streak)
    if streak < 0:
        return plural("%(count)s game without a win", "%(count)s games without a win", -streak)
    return None


def _ladder_value(
    line: StatLine, stat_words: Callable[[str], tuple[str | None, str | None]], meanings: list[str]
) -> str:
    """A member's line on the everywhere ladder: its rating, record and run (no chips:
    those tables carry no stake)."""
    rated = (
        _("rating **%(rating)s**", rating=number(line.display))
        if line.rated_games
        else _("not rated yet")
    )
    record = [
        _(
            "%(wins)s won of %(games)s (%(percent)s %%)",
            wins=number(line.wins),
            games=number(line.games),
            percent=number(round(100 * line.win_rate)),
        )
    ]
    best, meaning = stat_words(line.game_key)
    if best is not None:
        record.append(_(best, best=number(line.best_turn)))
        if meaning is not None:
            meanings.append(_(meaning))
    streak = _streak(line.streak)
    if streak is not None:
        record.append(streak)
    return "\n".join([rated, " · ".join(record)])


# What the figures of /stats mean, said under them (issue 31.18: a board game's "best turn
# 0" meant nothing); a game's own figures are its own (``stat_words``).
RATING_MEANING = N_("rating: 1,000 for a newcomer; games with bot players don't move it")


def stats_embed(
    name: str,
    lines: list[StatLine],
    global_lines: dict[str, StatLine],
    chart_game: str | None,
    game_label: Callable[[str], str],
    stat_words: Callable[[str], tuple[str | None, str | None]] = lambda key: (None, None),
    *,
    ladder: list[StatLine] | None = None,
) -> discord.Embed:
    """A member's statistics, a field per game. ``stat_words(game_key)`` is the game's
    words for a best turn and what it means (catalogue messages), or None where the game
    has none (the board game shows no "best turn 0"). ``ladder``: the member's lines on the
    everywhere ladder (quick play across servers), a field each after the server's."""
    embed = discord.Embed(title=_("Statistics · %(name)s", name=name), colour=COLOUR)
    ladder = ladder or []
    if not lines:
        embed.description = _("No finished games on this server yet.")
        if not ladder:
            return embed
    meanings: list[str] = []
    for line in lines[:10]:
        glob = global_lines.get(line.game_key)
        everywhere = glob is not None and glob.rated_games
        if line.rated_games and everywhere:
            rated = _(
                "rating **%(rating)s** (all servers %(everywhere)s)",
                rating=number(line.display),
                everywhere=number(glob.display),  # type: ignore[union-attr]
            )
        elif line.rated_games:
            rated = _("rating **%(rating)s**", rating=number(line.display))
        elif everywhere:
            rated = _(
                "not rated yet (all servers %(everywhere)s)",
                everywhere=number(glob.display),  # type: ignore[union-attr]
            )
        else:
            rated = _("not rated yet")
        record = [
            _(
                "%(wins)s won of %(games)s (%(percent)s %%)",
                wins=number(line.wins),
                games=number(line.games),
                percent=number(round(100 * line.win_rate)),
            )
        ]
        best, meaning = stat_words(line.game_key)
        if best is not None:
            record.append(_(best, best=number(line.best_turn)))
            if meaning is not None:
                meanings.append(_(meaning))
        money = [
            _(
                "chips won %(won)s · lost %(lost)s",
                won=number(line.chips_won),
                lost=number(line.chips_lost),
            )
        ]
        streak = _streak(line.streak)
        if streak is not None:
            money.append(streak)
        value = "\n".join([rated, " · ".join(record), " · ".join(money)])
        embed.add_field(name=game_label(line.game_key), value=value, inline=False)
    for line in ladder[:10]:  # with the server's ten at most: 20 fields of Discord's 25
        embed.add_field(
            name=_("%(game)s · quick play across servers", game=game_label(line.game_key)),
            value=_ladder_value(line, stat_words, meanings),
            inline=False,
        )
    meanings.append(_(RATING_MEANING))
    footer = list(dict.fromkeys(meanings))
    if chart_game is not None:
        embed.set_image(url="attachment://rating.png")
        footer.insert(
            0, _("Rating after each of the last games: %(game)s", game=game_label(chart_game))
        )
    embed.set_footer(text="\n".join(footer))
    return embed

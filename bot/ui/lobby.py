"""The lobby message every game shares: who sits where, the settings, and the buttons to
join, leave, add bot players, switch team, start or cancel; the host's Manage panel; Watch."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import discord

from bot.games.base import Game
from bot.games.terms import bot_level, counts_text
from bot.games.words import last_line
from bot.i18n.speaking import N_, _, pgettext, plural
from bot.records import NO_GUILD, Button
from bot.render.common import COLOUR, COLOUR_CLOSED, COLOUR_DONE, chips, relative_time
from bot.tables import events as ev
from bot.tables.kind import GameKind
from bot.tables.model import Seat, Table, TableSnapshot
from bot.tables.teams import TEAM_NAMES
from bot.ui.rematch_texts import held_field


def lobby_buttons(game: Game[Any], table: TableSnapshot) -> list[Button]:
    high = game.kind.seat_limits(table.settings)[1]
    full = len(table.seats) >= high  # an invited member still joins a held seat
    no_room = len(table.seats) + len(table.held) >= high
    buttons = [
        Button("join", pgettext("button", "Join"), "success", disabled=full),
        Button("leave", pgettext("button", "Leave"), "secondary"),
        Button("start", pgettext("button", "Start"), "primary"),
        Button("cancel", pgettext("button", "Cancel"), "danger"),
    ]
    if lobby_team_count(game.kind, table) >= 2 and teams_to_switch(game.kind, table):
        buttons.append(Button("team", pgettext("button", "Switch team"), "secondary", emoji="🔁"))
    if table.stake == 0:
        buttons += [
            Button(
                f"bot_{level}",
                # TRANSLATORS: %(level)s is a bot level ("cautious"); a button: <= 80 chars.
                pgettext("button", "Add bot: %(level)s", level=bot_level(level)),
                "secondary",
                row=1,
                emoji="🤖",
                disabled=no_room,
            )
            for level in game.kind.bot_levels
        ]
    buttons.append(Button("manage", pgettext("button", "Manage"), "secondary", row=2, emoji="⚙️"))
    if table.guild_id != NO_GUILD:  # watching adds a member to the game's thread: not in a DM
        buttons += labelled(WATCH_BUTTONS)
    return buttons


# A toggle on the lobby and the table message: a spectator follows from the thread; the old
# messages' Stop watching ("unwatch") still answers.
WATCH_BUTTONS = (Button("watch", N_("Watch"), "secondary", row=2, emoji="👀"),)


def labelled(buttons: Iterable[Button]) -> list[Button]:
    """Buttons whose labels are catalogue messages (``N_``), in the reader's language."""
    return [dataclasses.replace(b, label=_(b.label)) for b in buttons]


def watching_text(table: Table | TableSnapshot) -> str | None:
    """The spectators' line, if any watch."""
    n = len(table.watchers)
    return plural("👀 %(count)s watching", "👀 %(count)s watching", n) if n else None


def lobby_team_count(game: GameKind[Any], table: TableSnapshot) -> int:
    """Teams the lobby offers at its current seat count (0: none)."""
    return game.lobby_teams(table.settings, len(table.seats))[0]


def teams_to_switch(game: GameKind[Any], table: TableSnapshot) -> bool:
    """Whether a seat has a team to switch: not where Start would seat everyone alone
    (3 players with "3 teams" set)."""
    seats, problem = game.lobby_order(table.settings, list(table.seats))
    return problem is not None or any(s.team is not None for s in seats)


def as_lobby(table: TableSnapshot) -> bool:
    """Whether the seats show as a lobby's: an open lobby, or one that closed unstarted
    (cancelled, expired), whose message keeps the teams as the lobby showed them."""
    return table.status == "lobby" or table.rules is None


def lobby_seats(game: GameKind[Any], table: TableSnapshot) -> tuple[list[Seat], str | None]:
    """The seats as the lobby lists them: as Start would place them now (playing order,
    every seat's team), so Start reorders nothing unseen; where Start would refuse, as they
    sit, with the reason when it is the teams (a count that does not fit says "needs")."""
    if not as_lobby(table):
        return list(table.seats), None
    seats, problem = game.lobby_order(table.settings, list(table.seats))
    fits = len(table.seats) in game.seat_counts(table.settings)
    return seats, problem if fits and table.status == "lobby" else None


def seat_lines(
    game: GameKind[Any], table: TableSnapshot, seats: list[Seat] | None = None
) -> list[str]:
    # In the lobby a seat shows a team only where the game would start with teams (a pick
    # made at 4 seats means nothing once a player leaves and 3 play alone).
    n_teams = lobby_team_count(game, table) if as_lobby(table) else len(TEAM_NAMES)
    lines = []
    for i, seat in enumerate(table.seats if seats is None else seats, 1):
        level = bot_level(seat.bot_level or "")
        who = f"{seat.name} ({level})" if seat.is_bot else f"<@{seat.user_id}>"
        host = " " + pgettext("seat", "(host)") if seat.user_id == table.host_id else ""
        shown = seat.team is not None and seat.team < n_teams
        team = (
            " · " + _("team %(team)s", team=TEAM_NAMES[seat.team])
            if shown and seat.team is not None
            else ""
        )
        lines.append(f"`{i:>2}.` {who}{host}{team}")
    if table.status == "lobby":
        start = len(lines) + 1
        held = enumerate(table.held, start)
        lines += [f"`{i:>2}.` <@{s.user_id}> " + pgettext("seat", "(seat held)") for i, s in held]
    return lines


def lobby_embed(game: Game[Any], table: TableSnapshot) -> discord.Embed:
    status = table.status
    if status == "lobby":
        need = counts_text(game.kind.seat_counts(table.settings))
        description = (
            f"**{game.describe_settings(table.settings)}** · "
            f"{_timer(table.settings.get('turn_timeout', 180))}\n"
            + _(
                "Players: %(players)s (needs %(need)s) · closes %(when)s",
                players=len(table.seats),
                need=need,
                when=relative_time(table.deadline),
            )
        )
        watching = watching_text(table)
        if watching:
            description += f" · {watching}"
        # In a lobby: who took over from a host who left, who a Switch team moved (while
        # the lobby still has teams).
        swap = table.events and isinstance(table.events[-1], ev.TeamsSwapped)
        if table.events and not (swap and lobby_team_count(game.kind, table) < 2):
            description += f"\n{last_line(table)}"
        colour = COLOUR
    elif status in ("running", "finished"):
        description = (
            _("Game on! Follow it in <#%(channel)s>.", channel=table.game_channel_id)
            if status == "running"
            else _("This game is over. %(result)s", result=last_line(table) or "").strip()
        )
        colour = COLOUR_DONE
    else:
        # Closed without a result: the reason the service recorded is the last event.
        description = last_line(table) or _(CLOSED_WORDS.get(status, status))
        colour = COLOUR_CLOSED
    embed = discord.Embed(
        title=_("%(game)s · table #%(id)s", game=game.title(table.settings), id=table.id),
        description=description,
        colour=colour,
    )
    seats, problem = lobby_seats(game.kind, table)
    lines = seat_lines(game.kind, table, seats)
    teams = as_lobby(table) and any(s.team is not None for s in seats)
    if problem:
        lines.append(f"⚠️ {problem}")
    embed.add_field(
        name=_("Seats, in turn order (teams alternate)") if teams and not problem else _("Seats"),
        value="\n".join(lines) or "—",
        inline=False,
    )
    held = held_field(table)
    if held is not None:
        embed.add_field(name=held[0], value=held[1], inline=False)
    if table.stake:
        humans = sum(1 for s in table.seats if not s.is_bot)
        closed = status not in ("lobby", "running", "finished")  # no result: stakes went back
        each = chips(table.stake)
        value = (
            _("%(chips)s each · refunded", chips=each)
            if closed
            else _("%(chips)s each · pot %(pot)s", chips=each, pot=chips(table.stake * humans))
        )
        embed.add_field(name=_("Stake"), value=value, inline=False)
    if status == "lobby" and game.kind.bot_levels and table.stake:
        # A staked lobby has no Add bot button (RULINGS §5): say so, not list the levels.
        embed.add_field(
            name=_("Bot players"),
            value=_("None here: staked tables are for people only."),
            inline=False,
        )
    elif status == "lobby" and game.kind.bot_levels:
        # One line: how each level plays is in /rules, not repeated on every lobby.
        levels = " · ".join(bot_level(level) for level in game.kind.bot_levels)
        embed.add_field(
            name=_("Bot players"),
            value=_("%(levels)s (`/rules` says how each plays)", levels=levels),
            inline=False,
        )
    if status == "lobby":
        # TRANSLATORS: "Join" and "Start" are the lobby's buttons of those names.
        embed.set_footer(text=_("Join, then the host presses Start."))
    return embed


def _timer(seconds: int) -> str:
    """The lobby's timer words: 0 is no turn timer (tables outside servers)."""
    if not seconds:
        return _("no turn timer")
    return _("turn timer %(time)s", time=_minutes(seconds))


def _minutes(seconds: int) -> str:
    seconds = int(seconds)
    if seconds % 60 == 0:
        return _("%(minutes)s min", minutes=seconds // 60)
    return _("%(seconds)s s", seconds=seconds)


# A table closed without a result and without a recorded reason (an old table).
CLOSED_WORDS = {
    "cancelled": N_("This table was cancelled."),
    "expired": N_("Nobody started this table in time."),
    "ended": N_("This game was ended early."),
    "abandoned": N_("This game was abandoned."),
}

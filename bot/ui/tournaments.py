"""Tournaments on the Discord side: the words, the sign-up message and its buttons, and
the posting of each round's tables and standings (issue 25)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from fractions import Fraction
from typing import Any

import discord

from bot.errors import Forbidden, UserError
from bot.games.base import RulesPage
from bot.games.registry import Games
from bot.i18n.speaking import N_, _, number, pgettext, plural
from bot.render.bracket import BracketMatch, Side, bracket_png, table_png
from bot.render.common import COLOUR, NO_PINGS, timestamp, user_mention
from bot.rules.tournament import MAX_PLAYERS, Standing
from bot.tables.names import clean_name, md_name
from bot.tables.tournaments import (
    Match,
    Picture,
    Tournament,
    TournamentError,
    TournamentFeeShort,
    table_places,
)
from bot.ui.buttons import NOT_THIS_MESSAGE, is_button
from bot.ui.checks import is_admin
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import Shell, shell_of
from bot.ui.weblinks import add_link, web_address

log = logging.getLogger(__name__)

FORMAT_LABELS = {
    "swiss": N_("Swiss"),
    "elimination": N_("Single elimination"),
    "round_robin": N_("Round robin"),
}
REFUSALS = {
    "unknown": N_("There is no such tournament here."),
    "format": N_("Pick a format from the list."),
    "join_closed": N_("Sign-up for this tournament is closed."),
    "join_again": N_("You are signed up already."),
    "leave": N_("You are not signed up, or the tournament has started."),
    "start": N_("This tournament has started already or is over."),
    "players": N_("A tournament needs two players at least."),
    "cancel": N_("This tournament is over already."),
    "remove": N_("They are not in this tournament, or it is over."),
    "override": N_("Only a match of the round being played can be changed."),
    # TRANSLATORS: signup-minutes, seats and best-of below are /tournament create's
    # options: write their names as your language's Discord shows them.
    "checkin": N_("Check-in needs a sign-up window at least as long: set signup-minutes too."),
    "checkin_closed": N_("Check-in is not open."),
    "checkin_again": N_("You are checked in already."),
    "checkin_not_in": N_("You are not signed up: press **Join** (it checks you in too)."),
    "checkin_not_open": N_("Check-in has not opened yet: start once it has, or wait."),
    "seats": N_("This game cannot seat that many at a table."),
    "seats_format": N_("Tables of three or more are for Swiss: pick Swiss, or 2 seats."),
    "seats_best_of": N_("Tables of three or more play one game a round: leave best-of at 1."),
}

# /rules game:tournaments (bot.rules.tournament is the code of it).
TOURNAMENT_RULES = RulesPage(
    "tournaments",
    N_("Tournaments: pairing, byes and tie-breaks"),
    N_(
        "• **Seeds** follow your rating of the game on this server (ties and newcomers by "
        "Discord id).\n"
        "• **Swiss**: ⌈log2 players⌉ rounds unless the organiser picks (at most players − 1). "
        "Each round ranks players by points, then seed; the best unpaired player meets the next "
        "one they have not met. Nobody meets twice while a round without repeats exists.\n"
        "• **Byes**: with an odd number, the lowest-ranked player who has had none sits out: a "
        "bye counts as a win, once per player.\n"
        "• **Single elimination**: a bracket of 2, 4, 8… places where seeds 1 and 2 can meet "
        "only in the final; empty places are byes for the top seeds. A match with no result "
        "sends the better seed through.\n"
        "• **Round robin**: everyone meets everyone once (the circle method); with an odd "
        "number each player sits out one round (a bye).\n"
        "• **Points**: win or bye 1, draw ½ (a match that ends with no result counts as a "
        "draw), loss 0. **Tie-breaks**: Swiss by Buchholz (your opponents' points added up; a "
        "bye adds none), then head-to-head (points in games among the tied), then seed; round "
        "robin by head-to-head, then seed; elimination by the round you went out in.\n"
        "• **Matches** are ordinary tables with their timers and forfeits (`/rules game:tables`): "
        "a player who does not show loses by those rules. A best of 3 goes to whoever wins 2 "
        "games; a drawn game counts for nobody and another is played, 5 games at most, then "
        "the one ahead wins. The next round starts when the last match of a round ends.\n"
        "• **Entry fee**: paid on Join, back on Leave or if the tournament is cancelled; the "
        "pool goes to the best places by the organiser's split when the last match ends.\n"
        "• **Check-in**: with a sign-up window and check-in, press **Check in** once it opens "
        "(joining then checks you in). At the start whoever has not checked in is dropped, "
        "their fee refunded; with fewer than two left the tournament is cancelled.\n"
        "• **Tables of three or more** (Swiss, one game a round): tables as even as possible, "
        "nobody sits out. A table gives (players below you + half those level with you) ÷ "
        "(players − 1) points: a win 1, last place 0. Each table takes the best-ranked player "
        "left, then those who have met nobody at it; Buchholz adds up your tablemates' points.",
    ),
)


PRIZE_LABELS = {
    "winner": N_("all to the winner"),
    "top2": N_("70 % / 30 %"),
    "top3": N_("50 % / 30 % / 20 %"),
}


async def may_organise(
    interaction: discord.Interaction[Any], shell: Shell, t: Tournament | None = None
) -> bool:
    """Manage Server, the server's organiser role (``/settings organiser-role``), or, for
    a tournament of theirs, its organiser."""
    if is_admin(interaction) or (t is not None and interaction.user.id == t.created_by):
        return True
    if interaction.guild_id is None:
        return False
    role_id = await shell.guild_settings.organiser_role(interaction.guild_id)
    roles = getattr(interaction.user, "roles", None) or []
    return role_id is not None and any(role.id == role_id for role in roles)


async def require_organiser(
    interaction: discord.Interaction[Any], shell: Shell, t: Tournament | None = None
) -> None:
    if await may_organise(interaction, shell, t):
        return
    if t is None:
        role_id = None
        if interaction.guild_id is not None:
            role_id = await shell.guild_settings.organiser_role(interaction.guild_id)
        if role_id is None:
            raise Forbidden(_("You need Manage Server to run a tournament."))
        role = interaction.guild.get_role(role_id) if interaction.guild else None
        if role is None:  # deleted since: Manage Server is all that is left
            raise Forbidden(_("You need Manage Server to run a tournament."))
        raise Forbidden(
            _(
                "You need Manage Server or the %(role)s role to run a tournament.",
                role=md_name(role.name),
            )
        )
    raise Forbidden(_("Only the organiser or a member with Manage Server can do that."))


def no_rematch(tournament_id: int) -> str:
    """The Rematch button of a tournament match's table, pressed: the tournament plays on
    by itself (its next game, or the next round, opens in a thread of its own)."""
    return _(
        "That was a match of tournament #%(id)s: the tournament opens its next games "
        "itself, so there is no rematch. `/tournament show` has the standings.",
        id=tournament_id,
    )


def refusal(error: TournamentError) -> UserError:
    if isinstance(error, TournamentFeeShort):
        return UserError(
            plural(
                "You have %(count)s chip; this tournament's entry fee is %(fee)s.",
                "You have %(count)s chips; this tournament's entry fee is %(fee)s.",
                error.balance,
                count=number(error.balance),
                fee=number(error.fee),
            )
        )
    if error.code == "join_full":
        return UserError(
            plural(
                "The field is full: a tournament takes %(count)s player at most.",
                "The field is full: a tournament takes %(count)s players at most.",
                MAX_PLAYERS,
                count=number(MAX_PLAYERS),
            )
        )
    code = REFUSALS.get(error.code)
    return UserError(_(code) if code else _("That cannot be done now."))


def tournament_games(games: Games) -> dict[str, tuple[str, dict[str, Any]]]:
    """Leaderboard key -> (game kind, table settings) for every game two can play: each
    game's own standard settings (those its demo plays)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind, game in games.items():
        for demo in games.shown(kind).demos:
            if game.seat_limits(demo.settings)[0] <= 2 <= game.seat_limits(demo.settings)[1]:
                out.setdefault(game.game_key(demo.settings), (kind, dict(demo.settings)))
    return out


def _name(picture: Picture, user_id: int | None) -> str:
    if user_id is None:
        return _("bye")
    entry = next((e for e in picture.entries if e.user_id == user_id), None)
    return md_name(entry.name) if entry else _("Player")


def points_value(points: Fraction) -> str:
    """Points as the language writes them: 3, 2.5 (2,5 in German); a table's thirds to two
    places (0.67)."""
    return number(int(points) if points.denominator == 1 else round(float(points), 2))


def _table_line(picture: Picture, s: Standing) -> str:
    """A player of a tournament at tables of three or more: points and each round's place."""
    places = []
    for m in picture.matches:
        if m.status == "done" and s.id in m.players:
            places.append(next(p for u, p in table_places(m) if u == s.id))
    n = int(s.points) if s.points.denominator == 1 else 2
    shown = plural(
        "`%(place)s.` %(name)s · **%(points)s** pt",
        "`%(place)s.` %(name)s · **%(points)s** pts",
        n,
        place=str(s.place).rjust(2),
        name=_name(picture, s.id),
        points=points_value(s.points),
    )
    if places:
        shown += " · " + _("places %(places)s", places=", ".join(map(str, places)))
    shown += " · " + _("Buchholz %(value)s", value=points_value(s.buchholz))
    return shown + _removed(picture, s.id)


def _standing_line(picture: Picture, s: Standing) -> str:
    # A half point reads as a plural in English ("1.5 pts"): the form of 2.
    n = int(s.points) if s.points.denominator == 1 else 2
    shown = plural(
        "`%(place)s.` %(name)s · **%(points)s** pt · %(won)s-%(drawn)s-%(lost)s",
        "`%(place)s.` %(name)s · **%(points)s** pts · %(won)s-%(drawn)s-%(lost)s",
        n,
        place=str(s.place).rjust(2),
        name=_name(picture, s.id),
        points=points_value(s.points),
        won=s.wins,
        drawn=s.draws,
        lost=s.losses,
    )
    if s.byes:
        shown += " · " + plural("%(count)s bye", "%(count)s byes", s.byes)
    if picture.tournament.format == "swiss":
        shown += " · " + _("Buchholz %(value)s", value=points_value(s.buchholz))
    return shown + _removed(picture, s.id)


def _removed(picture: Picture, user_id: int) -> str:
    """A player the organiser took out: their line says so (they win no prize)."""
    entry = next((e for e in picture.entries if e.user_id == user_id), None)
    # TRANSLATORS: ends a standings line of a player the organiser removed.
    return " · " + _("removed") if entry is not None and entry.removed else ""


def _series(t: Tournament, m: Match) -> bool:
    """Whether a bracket match is a best of 3 with a game played (its score is news)."""
    best_of = t.final_best_of if m.round == t.rounds else t.best_of
    return best_of > 1 and m.games > 0 and m.b_id is not None


def standings_text(picture: Picture) -> str:
    t = picture.tournament
    if t.format == "elimination":
        lines = []
        for round_number in range(1, t.round + 1):
            matches = [m for m in picture.matches if m.round == round_number]
            parts = []
            for m in matches:
                if m.b_id is None:
                    parts.append(_("%(name)s (bye)", name=_name(picture, m.a_id)))
                elif m.status == "done" and m.winner_id is None:
                    # No result: the better seed went through (as the pairing does).
                    seed = {e.user_id: e.seed or 10**6 for e in picture.entries}
                    win, loser = sorted((m.a_id, m.b_id), key=lambda u: seed.get(u, 10**6))
                    parts.append(
                        _(
                            "**%(winner)s** through on seed (no result against %(loser)s)",
                            winner=_name(picture, win),
                            loser=_name(picture, loser),
                        )
                    )
                elif m.status == "done" and _series(t, m):
                    a_won = m.winner_id == m.a_id
                    won, lost = (m.a_wins, m.b_wins) if a_won else (m.b_wins, m.a_wins)
                    parts.append(
                        _(
                            "**%(winner)s** beat %(loser)s %(won)s–%(lost)s",
                            winner=_name(picture, m.winner_id),
                            loser=_name(picture, m.b_id if a_won else m.a_id),
                            won=number(won),
                            lost=number(lost),
                        )
                    )
                elif m.status == "done":
                    loser = m.b_id if m.winner_id == m.a_id else m.a_id
                    parts.append(
                        _(
                            "**%(winner)s** beat %(loser)s",
                            winner=_name(picture, m.winner_id),
                            loser=_name(picture, loser),
                        )
                    )
                elif _series(t, m):  # a best of 3 under way: its score so far
                    parts.append(
                        # TRANSLATORS: a best of 3 under way, its games won: "Ana 1–0 Bo".
                        _(
                            "%(a)s %(a_wins)s–%(b_wins)s %(b)s",
                            a=_name(picture, m.a_id),
                            b=_name(picture, m.b_id),
                            a_wins=number(m.a_wins),
                            b_wins=number(m.b_wins),
                        )
                    )
                else:
                    parts.append(
                        _(
                            "%(a)s vs %(b)s",
                            a=_name(picture, m.a_id),
                            b=_name(picture, m.b_id),
                        )
                    )
            lines.append(
                # TRANSLATORS: a round of the bracket, named as the picture names it
                # ("Semi-finals"), then its matches.
                _(
                    "**%(round)s**: %(matches)s",
                    round=_round_name(round_number, max(t.rounds, 1)),
                    matches=" · ".join(parts),
                )
            )
        return "\n".join(lines)
    line = _table_line if t.seats > 2 else _standing_line
    return "\n".join(line(picture, s) for s in picture.standings)


def winner_name(picture: Picture) -> str:
    """The winner of a finished tournament, as markdown: a bracket's champion, else the
    first of the standings."""
    winner = picture.places[0] if picture.places else picture.standings[0].id
    return _name(picture, winner)


def prize_line(picture: Picture) -> str | None:
    """Who won which chips of the pool, once it is over (None: no fee)."""
    if not picture.prizes:
        return None
    if len(picture.prizes) == 1:
        [(user_id, amount)] = picture.prizes.items()
        return plural(
            "💰 %(name)s won the prize pool of %(count)s chip.",
            "💰 %(name)s won the prize pool of %(count)s chips.",
            amount,
            name=_name(picture, user_id),
            count=number(amount),
        )
    shares = " · ".join(
        plural(
            "%(name)s %(count)s chip",
            "%(name)s %(count)s chips",
            amount,
            name=_name(picture, user_id),
            count=number(amount),
        )
        for user_id, amount in picture.prizes.items()
    )
    return _("💰 Prizes: %(shares)s", shares=shares)


DROPPED_MAX = 600  # characters of the names of who was dropped (an embed holds 4,096)


def dropped_line(picture: Picture) -> str:
    """Who was dropped at the start for not checking in (and that their fees came back),
    as a line to add (starting with its line break); empty when nobody was."""
    if not picture.dropped:
        return ""
    count = len(picture.dropped)
    listed: list[str] = []
    for _user, name in picture.dropped:  # a big field's list is cut to leave the standings room
        if sum(len(x) + 2 for x in listed) + len(md_name(name)) > DROPPED_MAX:
            break
        listed.append(md_name(name))
    names = ", ".join(listed)
    if len(listed) < count:
        # TRANSLATORS: a cut list of names: "Ana, Bo and 12 more".
        names = plural(
            "%(names)s and %(count)s more",
            "%(names)s and %(count)s more",
            count - len(listed),
            names=names,
        )
    if picture.tournament.fee:
        shown = plural(
            "Dropped for not checking in, their entry fee refunded: %(names)s",
            "Dropped for not checking in, their entry fees refunded: %(names)s",
            count,
            names=names,
        )
    else:
        shown = plural(
            "Dropped for not checking in: %(names)s",
            "Dropped for not checking in: %(names)s",
            count,
            names=names,
        )
    return "\n" + shown


def picture_embed(picture: Picture, games: Games, now: float = 0.0) -> discord.Embed:
    """``now``: the clock, for whether check-in is open."""
    t = picture.tournament
    head = _(
        "Tournament #%(id)s · %(format)s · %(game)s",
        id=t.id,
        format=_(FORMAT_LABELS[t.format]),
        game=games.label(t.game_key),
    )
    lines = []
    if t.seats > 2:
        lines.append(_("Tables of up to %(seats)s", seats=t.seats))
    final_differs = t.format == "elimination" and t.final_best_of != t.best_of
    if t.best_of > 1 and final_differs:
        lines.append(
            _(
                "Matches: best of %(games)s, the final best of %(final)s",
                games=t.best_of,
                final=t.final_best_of,
            )
        )
    elif t.best_of > 1:
        lines.append(_("Matches: best of %(games)s", games=t.best_of))
    elif final_differs:
        lines.append(_("The final: best of %(final)s", final=t.final_best_of))
    if t.fee:
        pool = t.fee * len(picture.entries)
        # Two items of a list, each with its own number's plural ("1 chip").
        fee_item = plural(
            "Entry fee %(count)s chip", "Entry fee %(count)s chips", t.fee, count=number(t.fee)
        )
        pool_item = plural(
            "prize pool %(count)s chip, %(split)s",
            "prize pool %(count)s chips, %(split)s",
            pool,
            count=number(pool),
            split=_(PRIZE_LABELS.get(t.prize, t.prize)),
        )
        lines.append(f"{fee_item} · {pool_item}")
    standings: str | None = None  # the standings (or bracket) text, once it has started
    if t.status == "signup":
        checkin = t.checkin_open(now)
        names = [
            f"`{i}.` {md_name(e.name)}" + (" ✅" if checkin and e.checked_in else "")
            for i, e in enumerate(picture.entries, 1)
        ]
        if checkin and t.fee:
            body = _(
                "**Check-in is open**: press **Check in**. It starts %(when)s; who has not "
                "checked in by then is dropped, their fee refunded.",
                when=timestamp(t.starts_at or 0),
            )
        elif checkin:
            body = _(
                "**Check-in is open**: press **Check in**. It starts %(when)s; who has not "
                "checked in by then is dropped.",
                when=timestamp(t.starts_at or 0),
            )
        elif t.starts_at is not None and t.checkin_at is not None:
            body = _(
                "Sign-up is open: press **Join**. It starts %(when)s. Check in from "
                "%(checkin)s, or you are dropped.",
                when=timestamp(t.starts_at),
                checkin=timestamp(t.checkin_at, "t"),
            )
        elif t.starts_at is not None:
            body = _(
                "Sign-up is open: press **Join**. It starts %(when)s.",
                when=timestamp(t.starts_at),
            )
        else:
            body = _("Sign-up is open: press **Join**. The organiser presses **Start**.")
        if checkin:
            head_line = _(
                "**Players (%(count)s, %(ready)s checked in)**",
                count=number(len(names)),
                ready=number(sum(e.checked_in for e in picture.entries)),
            )
        else:
            head_line = _("**Players (%(count)s)**", count=number(len(names)))
        body += "\n\n" + head_line + "\n" + ("\n".join(names) or _("Nobody yet."))
    elif t.status == "running":
        # TRANSLATORS: a tournament's round, not a game's: word it apart from a game's
        # "Round 1 of 3" (French "Ronde", not "Manche"), as both show in a match.
        body = pgettext(
            "tournament", "Round %(round)s of %(rounds)s", round=t.round, rounds=t.rounds
        )
        body += dropped_line(picture)
        standings = standings_text(picture)
    elif t.status == "finished":
        body = _("🏆 **%(name)s** won.", name=winner_name(picture))
        prizes = prize_line(picture)
        if prizes:
            body += "\n" + prizes
        body += dropped_line(picture)
        standings = standings_text(picture)
    elif t.fee:
        body = _("Cancelled: no result. Every entry fee was refunded.")
    else:
        body = _("Cancelled: no result.")
    if t.status == "cancelled":
        lines = []
    description = "\n".join(lines) + ("\n" if lines else "") + body
    if standings is not None:
        description += "\n\n" + _fit(standings.split("\n"), DESCRIPTION_MAX - len(description) - 2)
    return discord.Embed(title=head, description=description, colour=COLOUR)


DESCRIPTION_MAX = 4096  # characters of an embed's description


def _fit(lines: list[str], room: int) -> str:
    """The standings lines that fit in ``room`` characters, the best places first; a
    field too long for an embed ends with how many more the picture shows."""
    if sum(len(line) + 1 for line in lines) - 1 <= room:
        return "\n".join(lines)
    shown: list[str] = []
    for i, line in enumerate(lines):
        rest = len(lines) - i
        more = plural(
            "…and %(count)s more: the picture shows everyone.",
            "…and %(count)s more: the picture shows everyone.",
            rest,
            count=number(rest),
        )
        if sum(len(x) + 1 for x in shown) + len(line) + 1 + len(more) > room:
            return "\n".join([*shown, more])
        shown.append(line)
    return "\n".join(shown)  # pragma: no cover (the whole fitted after all)


PICTURE = "tournament.png"
BRACKET_COLUMNS = 3


def round_label(t: Tournament, round_number: int) -> str:
    """A round as a match's notice names it: as the bracket does ("Final"), else
    "round 2" (issue 31: the last match was "round 3" in its notice, "Final" in the bracket)."""
    if t.format == "elimination":
        return _round_name(round_number, max(t.rounds, 1))
    # TRANSLATORS: a tournament's round inside a sentence ("Tournament #1, round 2: ...").
    return pgettext("tournament", "round %(number)s", number=round_number)


def _round_name(number: int, rounds: int) -> str:
    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    # TRANSLATORS: a round of a tournament's bracket (before the quarter-finals).
    return pgettext("tournament", "Round %(number)s", number=number)


def picture_png(picture: Picture, games: Games) -> bytes | None:
    """The tournament as a picture once it has started: its bracket (single elimination)
    or its standings table; None in sign-up or once cancelled."""
    t = picture.tournament
    if t.status in ("signup", "cancelled") or not picture.entries:
        return None
    if t.format == "elimination":
        title = _("Tournament #%(id)s · %(game)s", id=t.id, game=games.label(t.game_key))
        return _bracket_png(picture, title)
    head, header, rows = standings_table(picture, games)
    return table_png(head, header, rows, leader=t.status == "finished")


def standings_table(picture: Picture, games: Games) -> tuple[str, list[str], list[list[str]]]:
    """The standings picture's title, header and rows (a Swiss or a round robin). A column
    of byes when anyone had one: a bye is a point the W-D-L does not show."""
    t = picture.tournament
    title = _("Tournament #%(id)s · %(game)s", id=t.id, game=games.label(t.game_key))
    if t.status == "finished":
        head = _("%(title)s · final standings", title=title)
    else:
        head = _(
            "%(title)s · round %(round)s of %(rounds)s", title=title, round=t.round,
            rounds=t.rounds,
        )  # fmt: skip
    multi = t.seats > 2
    byes = not multi and any(s.byes for s in picture.standings)
    header = ["", _("Player"), _("Pts"), _("Places") if multi else _("W-D-L")]
    if byes:
        header.append(_("Byes"))
    if t.format == "swiss":
        header.append(_("Buchholz"))
    rows = []
    for s in picture.standings:
        if multi:
            places = [
                next(p for u, p in table_places(m) if u == s.id)
                for m in picture.matches
                if m.status == "done" and s.id in m.players
            ]
            record = " ".join(map(str, places)) or "—"
        else:
            record = f"{s.wins}-{s.draws}-{s.losses}"
        row = [str(s.place), _name_plain(picture, s.id), points_value(s.points), record]
        if byes:
            row.append(str(s.byes))
        if t.format == "swiss":
            row.append(points_value(s.buchholz))
        rows.append(row)
    return head, header, rows


def _name_plain(picture: Picture, user_id: int) -> str:
    entry = next((e for e in picture.entries if e.user_id == user_id), None)
    return entry.name if entry else _("Player")


def _bracket_png(picture: Picture, title: str) -> bytes:
    t = picture.tournament
    seed = {e.user_id: e.seed for e in picture.entries}
    size = 1 << max(len(picture.entries) - 1, 1).bit_length()
    rounds = max(t.rounds, 1)

    def side(user_id: int | None, m: Match, is_a: bool) -> Side:
        if user_id is None:
            return Side(None, bye=True)
        through = m.winner_id
        if m.status == "done" and through is None and m.b_id is not None:
            # No result: the better seed goes through (as the pairing does).
            through = min((m.a_id, m.b_id), key=lambda u: seed.get(u) or 10**6)
        elif m.status == "done" and m.b_id is None:
            through = m.a_id
        score = ""
        if m.b_id is not None and (t.best_of > 1 or t.final_best_of > 1) and m.games:
            score = str(m.a_wins if is_a else m.b_wins)
        return Side(
            _name_plain(picture, user_id), seed.get(user_id),
            won=m.status == "done" and through == user_id, score=score,
        )  # fmt: skip

    columns: list[list[BracketMatch]] = []
    for round_number in range(1, rounds + 1):
        played = sorted(
            (m for m in picture.matches if m.round == round_number), key=lambda m: m.slot
        )
        count = max(size >> round_number, 1)
        column = [BracketMatch(side(m.a_id, m, True), side(m.b_id, m, False)) for m in played]
        column += [BracketMatch(Side(None), Side(None))] * (count - len(column))
        columns.append(column)
    names = [_round_name(n, rounds) for n in range(1, rounds + 1)]
    # A phone shows the picture at its screen's width: at most three rounds across, from
    # the round being played (the last three once they are reached).
    start = max(0, min(t.round - 1, rounds - BRACKET_COLUMNS))
    columns, names = (
        columns[start : start + BRACKET_COLUMNS],
        names[start : start + BRACKET_COLUMNS],
    )
    champion = None
    if t.status == "finished" and picture.places:
        champion = _("Champion: %(name)s", name=_name_plain(picture, picture.places[0]))
    return bracket_png(title, names, columns, bye=_("bye"), champion=champion)


def button_label(action: str) -> str:
    """A sign-up button's label; the messages that name it say **it** in the same words."""
    return {
        "join": pgettext("button", "Join"),
        "leave": pgettext("button", "Leave"),
        "checkin": pgettext("button", "Check in"),
        "start": pgettext("button", "Start"),
    }[action]


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:(?P<id>[0-9]{1,18}):(?P<action>join|leave|checkin|start)",
):
    # The English labels; shown through ``button_label``, the lobby's own words for Join,
    # Leave and Start (one button, one name in every language).
    LABELS = {"join": "Join", "leave": "Leave", "checkin": "Check in", "start": "Start"}

    def __init__(self, tournament_id: int, action: str) -> None:
        style = (
            discord.ButtonStyle.success
            if action in ("start", "checkin")
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(
                label=button_label(action), style=style, custom_id=f"tn:{tournament_id}:{action}"
            )
        )
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TournamentButton:
        return cls(int(match["id"]), match["action"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only on the tournament's own sign-up message (its standings once it started): the
        id pressed on a game's table message or a lobby (a forged click) would redraw that
        message as the sign-up and take the game's buttons away."""
        if not is_button(interaction):
            return False
        try:
            t = await shell_of(interaction).tournaments.get(self.tournament_id)
            mine = t.guild_id == interaction.guild_id and t.message_id is not None
            message = interaction.message
            if mine and message is not None and message.id == t.message_id:
                return True
        except TournamentError:
            pass  # no such tournament: the same refusal
        except Exception as exc:
            await handle_error(interaction, exc, f"on tournament {self.tournament_id}")
            return False
        await reply_private(interaction, _(NOT_THIS_MESSAGE))
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._press(interaction)
        except TournamentError as exc:
            await handle_error(interaction, refusal(exc), f"on tournament {self.tournament_id}")
        except Exception as exc:
            await handle_error(interaction, exc, f"on tournament {self.tournament_id}")

    async def _press(self, interaction: discord.Interaction[Any]) -> None:
        shell = shell_of(interaction)
        service = shell.tournaments
        t = await service.get(self.tournament_id)
        if t.guild_id != interaction.guild_id:
            raise TournamentError("unknown")
        user = interaction.user
        if self.action == "join":
            if user.bot:
                raise UserError(_("Bots don't enter tournaments."))
            await service.join(t.id, user.id, clean_name(user.display_name))
        elif self.action == "leave":
            await service.leave(t.id, user.id)
        elif self.action == "checkin":
            await service.check_in(t.id, user.id)
        else:
            if not await may_organise(interaction, shell, t):
                raise Forbidden(
                    _("Only the organiser or a member with Manage Server can start it.")
                )
            await interaction.response.defer()
            await service.start(t.id)
            await interaction.edit_original_response(**await signup_message(shell, t.id))
            await post_due(interaction.client, shell)
            return
        await interaction.response.edit_message(**await signup_message(shell, t.id))


async def signup_message(shell: Shell, tournament_id: int) -> dict[str, Any]:
    """The sign-up message: once the tournament starts, its live standings (or bracket)
    with the picture attached (``attachments``: for an edit). A public message, drawn in
    the server's language whoever's click (or the bot's tick) redraws it."""
    picture = await shell.tournaments.picture(tournament_id)
    async with shell.publisher.languages.in_guild(picture.tournament.guild_id):
        return await _signup_message(shell, picture)


async def _signup_message(shell: Shell, picture: Picture) -> dict[str, Any]:
    tournament_id = picture.tournament.id
    now = shell.tournaments.clock()
    view = discord.ui.View(timeout=None)
    t = picture.tournament
    if t.status == "signup":
        actions = (
            ("join", "leave", "checkin", "start")
            if t.checkin_open(now)
            else ("join", "leave", "start")
        )
        for action in actions:
            view.add_item(TournamentButton(tournament_id, action))
    add_link(view, await web_address(shell, t.guild_id, f"/t/{tournament_id}"))
    if t.status == "signup":
        return {"embed": picture_embed(picture, shell.games, now), "view": view}
    embed, file = await shown(picture, shell.games, now)
    return {"embed": embed, "view": view, "attachments": [file] if file else []}


async def shown(
    picture: Picture, games: Games, now: float = 0.0
) -> tuple[discord.Embed, discord.File | None]:
    """The tournament's embed and, once it has started, its picture (drawn off the event
    loop: a 64-player bracket takes a moment), shown in the embed."""
    embed = picture_embed(picture, games, now)
    png = await asyncio.to_thread(picture_png, picture, games)
    if png is None:
        return embed, None
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed, discord.File(io.BytesIO(png), filename=PICTURE)


async def redraw_signup(client: Any, shell: Shell, t: Tournament) -> None:
    """Edit the sign-up message (its check-in opened, or it started by the clock)."""
    if t.message_id is None:
        return
    try:
        channel = await _channel(client, t.channel_id)
        message = channel.get_partial_message(t.message_id)
        await message.edit(**await signup_message(shell, t.id), allowed_mentions=NO_PINGS)
    except discord.HTTPException as exc:
        log.warning("tournament %s: sign-up message not redrawn (%s)", t.id, exc.status)


async def post_due(client: Any, shell: Shell) -> None:
    """Open the tables of every paired match and post them, each in a thread of its own;
    then post the standings of each round just started or tournament just finished.
    Before that: redraw the sign-up messages whose check-in opened, and start the
    tournaments whose start time came."""
    for t in await shell.tournaments.checkin_opened():
        await redraw_signup(client, shell, t)
    started, cancelled = await shell.tournaments.start_due()
    for tournament_id in started + cancelled:
        await redraw_signup(client, shell, await shell.tournaments.get(tournament_id))
    # A match ended (or a round was paired with byes): the live standings follow.
    for t in await shell.tournaments.redraws():
        await redraw_signup(client, shell, t)
    for table_id in await shell.tournaments.open_pending():
        try:
            # A public message: in the server's words, as every table's (bot.ui.i18n).
            async with shell.publisher.languages.public(await shell.tables.get(table_id)):
                await _post_table(client, shell, table_id)
        except discord.HTTPException as exc:
            log.warning("tournament table %s: not posted (%s)", table_id, exc.status)
    for t, _value in await shell.tournaments.due_posts():
        try:
            async with shell.publisher.languages.in_guild(t.guild_id):
                await _post_standings(client, shell, t)
        except discord.HTTPException as exc:
            log.warning("tournament %s: standings not posted (%s)", t.id, exc.status)


async def _channel(client: Any, channel_id: int) -> Any:
    return client.get_channel(channel_id) or await client.fetch_channel(channel_id)


async def _post_table(client: Any, shell: Shell, table_id: int) -> None:
    """A match's table opens as any started table does (bot/ui/opening.py): its thread on
    a notice naming the players, the channel if the thread is refused, its first player
    called by the turn ping."""
    table = await shell.tables.get(table_id)
    channel = await _channel(client, table.row.channel_id)
    head = None
    try:
        head = await channel.send(
            await _match_notice(shell, table_id, [s.user_id for s in table.seats]),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
    except discord.HTTPException as exc:  # the game is tried in the channel on its own
        log.warning("tournament table %s: no match notice (%s)", table.id, exc.status)
    await shell.publisher.started_on(table, head, channel)


async def _match_notice(shell: Shell, table_id: int, seated: list[int | None]) -> str:
    """The line that calls a match's players to its table: which tournament and round, and
    in a best of 3 which game and the score so far (each game is a table of its own)."""
    names = ", ".join(f"<@{u}>" for u in seated if u is not None)
    match = await shell.tournaments.match_for_table(table_id)
    if match is None:  # not a tournament's (cannot happen): the players and the table
        return _(
            "⚔️ Tournament match: %(players)s · table #%(table)s", players=names, table=table_id
        )
    t = await shell.tournaments.get(match.tournament_id)
    final = t.format == "elimination" and match.round == t.rounds
    best_of = t.final_best_of if final else t.best_of
    # The round as the bracket names it ("Final"), else "round 2".
    values = {"id": t.id, "round": round_label(t, match.round), "table": table_id}
    values["best_of"] = best_of
    if best_of == 1 or match.b_id is None:
        return _(
            "⚔️ Tournament #%(id)s, %(round)s: %(players)s · table #%(table)s",
            players=names,
            **values,
        )
    if match.games > match.a_wins + match.b_wins:
        # A drawn game counts for nobody and the match plays on (bot.rules.tournament
        # match_over): "game 4 of a best of 3" would read as a mistake.
        return _(
            "⚔️ Tournament #%(id)s, %(round)s, game %(game)s (a best of %(best_of)s: a "
            "drawn game is replayed, %(most)s games at most): %(a)s %(a_wins)s–%(b_wins)s "
            "%(b)s · table #%(table)s",
            game=match.games + 1,
            most=number(best_of + 2),
            a=user_mention(match.a_id),
            b=user_mention(match.b_id),
            a_wins=number(match.a_wins),
            b_wins=number(match.b_wins),
            **values,
        )
    if match.games == 0:
        return _(
            "⚔️ Tournament #%(id)s, %(round)s, game 1 of a best of %(best_of)s: "
            "%(players)s · table #%(table)s",
            players=names,
            **values,
        )
    return _(
        "⚔️ Tournament #%(id)s, %(round)s, game %(game)s of a best of %(best_of)s: "
        "%(a)s %(a_wins)s–%(b_wins)s %(b)s · table #%(table)s",
        game=match.games + 1,
        a=user_mention(match.a_id),
        b=user_mention(match.b_id),
        a_wins=number(match.a_wins),
        b_wins=number(match.b_wins),
        **values,
    )


async def _post_standings(client: Any, shell: Shell, t: Tournament) -> None:
    picture = await shell.tournaments.picture(t.id)
    channel = await _channel(client, t.channel_id)
    embed, file = await shown(picture, shell.games)
    files = [file] if file else []
    await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none(), files=files)

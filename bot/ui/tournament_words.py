"""Tournaments in words (issue 25): the labels, the refusals' words, the rules page, the
standings and bracket as text, and the embed of a sign-up or a round. Values in, words out:
nothing here reaches Discord's API or the shell (``bot.ui.tournaments`` does)."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.games.base import RulesPage
from bot.games.registry import Games
from bot.i18n.speaking import N_, _, number, pgettext, plural
from bot.render.common import COLOUR, timestamp
from bot.rules.tournament import Standing
from bot.tables.names import md_name
from bot.tables.tournament_rounds import table_places
from bot.tables.tournaments import Match, Picture, Tournament

FORMAT_LABELS = {
    "swiss": N_("Swiss"),
    "elimination": N_("Single elimination"),
    "round_robin": N_("Round robin"),
}

PRIZE_LABELS = {
    "winner": N_("all to the winner"),
    "top2": N_("70 % / 30 %"),
    "top3": N_("50 % / 30 % / 20 %"),
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


def no_rematch(tournament_id: int) -> str:
    """The Rematch button of a tournament match's table, pressed: the tournament plays on
    by itself (its next game, or the next round, opens in a thread of its own)."""
    return _(
        "That was a match of tournament #%(id)s: the tournament opens its next games "
        "itself, so there is no rematch. `/tournament show` has the standings.",
        id=tournament_id,
    )


def button_label(action: str) -> str:
    """A sign-up button's label; the messages that name it say **it** in the same words."""
    return {
        "join": pgettext("button", "Join"),
        "leave": pgettext("button", "Leave"),
        "checkin": pgettext("button", "Check in"),
        "start": pgettext("button", "Start"),
    }[action]


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
                    win = picture.through(m)  # no result: the better seed went on
                    loser = m.b_id if win == m.a_id else m.a_id
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
                        _("%(a)s vs %(b)s", a=_name(picture, m.a_id), b=_name(picture, m.b_id))
                    )
            lines.append(
                # TRANSLATORS: a round of the bracket, named as the picture names it
                # ("Semi-finals"), then its matches.
                _(
                    "**%(round)s**: %(matches)s",
                    round=round_name(round_number, max(t.rounds, 1)),
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
                "Sign-up is open: press **Join**. It starts %(when)s.", when=timestamp(t.starts_at)
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


def round_label(t: Tournament, round_number: int) -> str:
    """A round as a match's notice names it: as the bracket does ("Final"), else
    "round 2" (issue 31: the last match was "round 3" in its notice, "Final" in the bracket)."""
    if t.format == "elimination":
        return round_name(round_number, max(t.rounds, 1))
    # TRANSLATORS: a tournament's round inside a sentence ("Tournament #1, round 2: ...").
    return pgettext("tournament", "round %(number)s", number=round_number)


def round_name(number: int, rounds: int) -> str:
    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    # TRANSLATORS: a round of a tournament's bracket (before the quarter-finals).
    return pgettext("tournament", "Round %(number)s", number=number)

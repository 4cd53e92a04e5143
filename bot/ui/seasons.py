"""Seasons on the Discord side: the words of ``/settings season`` and the ``season`` option
of ``/leaderboard`` (its choices, and what a typed value names)."""

from __future__ import annotations

import calendar
import datetime as dt
import re

from babel.dates import format_date
from discord import app_commands

from bot.errors import UserError
from bot.i18n.speaking import _, current, plural
from bot.records import DAY, Season
from bot.tables.names import clean_name, md_name
from bot.ui.shell import Shell

ALL_TIME = "all-time"
NAME_MAX = 40
MAX_SEASON_DAYS = 5 * 366  # an end date further off than this is a typo
ISO_DAY = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")


def end_of_day(text: str, now: float) -> float:
    """The moment a season whose last day is ``text`` (YYYY-MM-DD, UTC) ends: midnight UTC
    after it. A past day, a malformed one or one years ahead is refused."""
    written = text.strip()
    try:
        day = dt.date.fromisoformat(written)
    except ValueError:
        shaped = ISO_DAY.fullmatch(written)
        if shaped is None:
            raise UserError(
                _("Give the season's last day as YYYY-MM-DD (UTC), for example 2026-06-30.")
            ) from None
        # Well written but not in the calendar (2026-02-30, 2026-13-01): say so, not the
        # format again.
        raise UserError(_no_such_day(written, int(shaped["year"]), int(shaped["month"]))) from None
    start = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()
    ends = start + DAY
    if ends <= now:
        raise UserError(_("That day is over: pick a last day from today on (UTC)."))
    if ends - now > MAX_SEASON_DAYS * DAY:
        raise UserError(_("A season may run five years at most: pick an earlier last day."))
    return ends


def _no_such_day(written: str, year: int, month: int) -> str:
    if not 1 <= month <= 12:
        return _("There is no day %(day)s: a year has 12 months.", day=written)
    if year < 1:
        return _("There is no day %(day)s: the calendar starts at year 1.", day=written)
    # TRANSLATORS: a CLDR date pattern for a month and its year ("February 2026").
    named = format_date(dt.date(year, month, 1), format=_("MMMM y"), locale=current().babel)
    return plural(
        "There is no day %(day)s: %(month)s has %(count)s day.",
        "There is no day %(day)s: %(month)s has %(count)s days.",
        calendar.monthrange(year, month)[1],
        day=written,
        month=named,
    )


def season_name(text: str) -> str:
    if len(text.strip()) > NAME_MAX:
        raise UserError(_("A season's name is %(count)s characters at most.", count=NAME_MAX))
    name = " ".join(clean_name(text).split()) if text.strip() else ""
    if not name:
        raise UserError(_("Give the season a name, for example “Spring 2026”."))
    if len(name) > NAME_MAX:
        raise UserError(_("A season's name is %(count)s characters at most.", count=NAME_MAX))
    if name.casefold() in (ALL_TIME, "all time", "current"):
        raise UserError(_("That name is taken by the leaderboard's own choices: pick another."))
    return name


def started_text(season: Season, ended: Season | None) -> str:
    lines = [_("🏁 Season **%(name)s** has started.", name=md_name(season.name))]
    if season.ends_at is not None:
        at = int(season.ends_at)
        # TRANSLATORS: %(date)s and %(when)s are Discord timestamps ("in 3 months").
        date, when = f"<t:{at}:f>", f"<t:{at}:R>"
        lines.append(_("It ends %(date)s (%(when)s).", date=date, when=when))
    if ended is not None:
        lines.append(
            _("Season **%(name)s** is over: its final board stays.", name=md_name(ended.name))
        )
    lines.append(
        _("Ratings start from a soft reset (halfway back to a newcomer's).")
        if season.soft_reset
        else _("Ratings carry on from the all-time ones.")
    )
    # TRANSLATORS: `season: all-time` is the option and its value as typed (keep all-time).
    lines.append(_("`/leaderboard` shows this season; pick `season: all-time` for all time."))
    return "\n".join(lines)


def choice_label(season: Season, now: float) -> str:
    """An autocomplete choice (plain text: no timestamps there)."""
    if season.running(now):
        # TRANSLATORS: a season in /leaderboard's list (at most 100 characters with its name).
        label = _("%(name)s (running)", name=season.name)
    else:
        assert season.ends_at is not None
        day = dt.datetime.fromtimestamp(season.ends_at, dt.UTC).date()
        # TRANSLATORS: a CLDR date pattern (dd day, MMM month's short name, y year): write
        # the one your language uses for "30 Jun 2026".
        ended = format_date(day, format=_("dd MMM y"), locale=current().babel)
        label = _("%(name)s (ended %(date)s)", name=season.name, date=ended)
    return label[:100]


async def season_choices(
    shell: Shell, guild_id: int, current: str
) -> list[app_commands.Choice[str]]:
    now = shell.clock()
    text = current.strip().casefold()
    all_time = text in ALL_TIME or text in _("All time").casefold()
    found = [app_commands.Choice(name=_("All time"), value=ALL_TIME)] if all_time else []
    for season in await shell.stats.list_seasons(guild_id):
        if text in season.name.casefold():
            found.append(app_commands.Choice(name=choice_label(season, now), value=str(season.id)))
    return found[:25]


async def chosen_season(shell: Shell, guild_id: int, text: str | None, scope: str) -> Season | None:
    """The season a ``season`` option names (None: all time). Unset: the season running on
    this server now, if any, for the server scope."""
    if text is None:
        return await shell.stats.current_season(guild_id) if scope == "server" else None
    wanted = text.strip()
    if wanted.casefold() in (ALL_TIME, "all time", "alltime", _("All time").casefold()):
        return None
    if scope != "server":
        raise UserError(_("Seasons belong to one server: pick scope “this server” to see one."))
    if wanted.casefold() == "current":
        season = await shell.stats.current_season(guild_id)
        if season is None:
            raise UserError(_("No season is running here: pick a past one from the list."))
        return season
    season = None
    if wanted.isdigit() and len(wanted) <= 12:
        season = await shell.stats.season(guild_id, int(wanted))
    season = season or await shell.stats.season_named(guild_id, wanted[:NAME_MAX])
    if season is None:
        raise UserError(_("There is no season of that name here: pick one from the list."))
    return season

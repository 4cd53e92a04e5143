"""Shared pieces of a replay's text story (``Game.replay_text``): plain lines, no markdown."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.speaking import N_, _
from bot.tables.names import unescape_markdown


def plain(line: str) -> str:
    """An event line as the thread shows it, without Discord's bold marks and with the
    names as they are (a name's markdown is escaped in the thread)."""
    return unescape_markdown(line.replace("**", ""))


def score_table(rows: Sequence[tuple[str, int]], title: str = N_("Scores")) -> list[str]:
    """``title:`` (a catalogue message, or words already translated) then one aligned line
    per (name, score), highest first."""
    ordered = sorted(rows, key=lambda r: -r[1])
    width = max((len(name) for name, __ in ordered), default=0)
    return [
        _("%(title)s:", title=_(title)),
        *(f"  {name.ljust(width)}  {score:>4}" for name, score in ordered),
    ]

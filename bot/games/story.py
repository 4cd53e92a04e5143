"""Shared pieces of a replay's text story (``Game.replay_text``): plain lines, no markdown."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tables.names import unescape_markdown


def plain(line: str) -> str:
    """An event line as the thread shows it, without Discord's bold marks and with the
    names as they are (a name's markdown is escaped in the thread)."""
    return unescape_markdown(line.replace("**", ""))


def score_table(rows: Sequence[tuple[str, int]], title: str = "Scores") -> list[str]:
    """``title:`` then one aligned line per (name, score), highest first."""
    ordered = sorted(rows, key=lambda r: -r[1])
    width = max((len(name) for name, _ in ordered), default=0)
    return [f"{title}:", *(f"  {name.ljust(width)}  {score:>4}" for name, score in ordered)]

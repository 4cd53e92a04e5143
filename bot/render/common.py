"""Embeds shared by every game: the lobby, the end of a game, score tables."""

from __future__ import annotations

import unicodedata

import discord

from bot.tables.model import Table
from bot.tables.registry import kind_for
from bot.tables.teams import TEAM_NAMES

COLOUR = discord.Colour(0x2B6CB0)
COLOUR_DONE = discord.Colour(0x2F855A)
COLOUR_CLOSED = discord.Colour(0x718096)
KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}


def chips(amount: int) -> str:
    return f"{amount:,} chip{'s' if amount != 1 else ''}"


def dice_emoji(faces: tuple[int, ...] | list[int]) -> str:
    return " ".join(KEYCAPS[f] for f in faces) if faces else "—"


def relative_time(unix: float | None) -> str:
    return "—" if unix is None else f"<t:{int(unix)}:R>"


def seat_lines(table: Table) -> list[str]:
    lines = []
    for i, seat in enumerate(table.seats, 1):
        who = f"{seat.name} ({seat.bot_level})" if seat.is_bot else f"<@{seat.user_id}>"
        host = " (host)" if seat.user_id == table.row.host_id else ""
        team = f" · team {TEAM_NAMES[seat.team]}" if seat.team is not None else ""
        lines.append(f"`{i:>2}.` {who}{host}{team}")
    return lines


def lobby_embed(table: Table) -> discord.Embed:
    game = kind_for(table.kind)
    status = table.status
    if status == "lobby":
        low, high = game.seat_limits(table.settings)
        need = f"{low}" if low == high else f"{low}–{high}"
        description = (
            f"**{game.describe_settings(table.settings)}** · turn timer "
            f"{_minutes(table.settings.get('turn_timeout', 180))}\n"
            f"Players: {len(table.seats)} (needs {need}) · "
            f"closes {relative_time(table.row.deadline)}"
        )
        colour = COLOUR
    else:
        description = {
            "running": f"Game on! Follow it in <#{table.game_channel_id}>.",
            "finished": "This game is over. " + (table.events[-1] if table.events else ""),
            "cancelled": "This table was cancelled.",
            "expired": "Nobody started this table in time.",
            "ended": "This game was ended early.",
            "abandoned": "This game was abandoned.",
        }.get(status, status)
        colour = COLOUR_DONE if status in ("running", "finished") else COLOUR_CLOSED
    embed = discord.Embed(
        title=f"{game.title(table.settings)} · table #{table.id}",
        description=description,
        colour=colour,
    )
    embed.add_field(name="Seats", value="\n".join(seat_lines(table)) or "—", inline=False)
    if table.row.stake:
        humans = sum(1 for s in table.seats if not s.is_bot)
        embed.add_field(
            name="Stake",
            value=f"{chips(table.row.stake)} each · pot {chips(table.row.stake * humans)}",
            inline=False,
        )
    if status == "lobby" and game.bot_levels:
        embed.add_field(
            name="Bot players",
            value="\n".join(f"**{level}**: {text}" for level, text in game.bot_levels.items()),
            inline=False,
        )
    embed.set_footer(text="Join, then the host presses Start.") if status == "lobby" else None
    return embed


def _minutes(seconds: int) -> str:
    seconds = int(seconds)
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace block: emoji and wide characters take two,
    combining marks and variation selectors none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\ufe0f\u200d":
            continue
        width += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return width


def _pad(text: str, width: int) -> str:
    while display_width(text) > width:
        text = text[:-1]
    return text + " " * (width - display_width(text))


def score_table(names: list[str], scores: list[int], marks: list[str] | None = None) -> str:
    """A code block of names and scores, aligned even when names hold emoji (🤖)."""
    width = min(max((display_width(n) for n in names), default=4), 20)
    rows = []
    for i, (name, score) in enumerate(zip(names, scores, strict=True)):
        mark = marks[i] if marks else ""
        rows.append(f"{_pad(mark, 2)} {_pad(name, width)} {score:>4}")
    return "```\n" + "\n".join(rows) + "\n```"


def embed_as_text(embed: discord.Embed) -> str:
    """An embed as plain text, for the terminal demo and logs."""
    parts = []
    if embed.title:
        parts.append(f"== {embed.title} ==")
    if embed.description:
        parts.append(embed.description)
    for field in embed.fields:
        parts.append(f"-- {field.name} --\n{field.value}")
    if embed.footer and embed.footer.text:
        parts.append(f"({embed.footer.text})")
    return "\n".join(parts).replace("```\n", "").replace("\n```", "").replace("```", "")

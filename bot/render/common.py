"""Embeds shared by every game: the lobby, the end of a game, score tables."""

from __future__ import annotations

import unicodedata

import discord

from bot.i18n import catalogues
from bot.i18n.speaking import plural

COLOUR = discord.Colour(0x2B6CB0)
COLOUR_DONE = discord.Colour(0x2F855A)
COLOUR_CLOSED = discord.Colour(0x718096)
# Game messages name players without pinging them; only "your turn" pings, explicitly.
NO_PINGS = discord.AllowedMentions.none()
KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}


def chips(amount: int) -> str:
    # TRANSLATORS: an amount of chips (the bot's currency), e.g. "1,000 chips".
    return plural("%(count)s chip", "%(count)s chips", amount)


def every_language(message: str) -> tuple[str, ...]:
    """``message`` in each language the bot speaks (English first): what a persistent
    button checks a message's title against, since the message was drawn in the language
    of whoever it was for and may be pressed by a member reading another."""
    books = catalogues()
    found = [books.language(tag).gettext(message) for tag in books.tags]
    return tuple(dict.fromkeys(found))


def dice_emoji(faces: tuple[int, ...] | list[int]) -> str:
    return " ".join(KEYCAPS[f] for f in faces) if faces else "—"


def timestamp(unix: float, style: str = "R") -> str:
    """A moment as Discord shows it in each reader's own time zone and language
    (``R``: "in 5 minutes", ``t``: 18:30, ``d``: a date, ``f``: date and time)."""
    return f"<t:{int(unix)}:{style}>"


def user_mention(user_id: int) -> str:
    """A member as a mention (``<@id>``): Discord shows their name in the reader's client."""
    return f"<@{user_id}>"


def relative_time(unix: float | None) -> str:
    return "—" if unix is None else timestamp(unix)


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

"""Display names as the bot shows them: one cleaning for every name a member brings."""

from __future__ import annotations

import re
import unicodedata

from bot.tables.model import MAX_NAME

_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def clean_name(name: str) -> str:
    """A display name safe to show: no zero-width or control characters, no markdown
    or mentions, at most MAX_NAME characters."""
    name = _INVISIBLE.sub("", unicodedata.normalize("NFKC", name))
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = re.sub(r"[\\*_`~|>#\[\]()<@!&:]", "", name).strip()
    name = name.replace("@", "")
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
    return name or "Player"

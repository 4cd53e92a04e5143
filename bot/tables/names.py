"""Display names as the bot shows them: one cleaning for every name a member brings."""

from __future__ import annotations

import re
import unicodedata

from bot.tables.seat import MAX_NAME

# Characters that draw nothing, so a name made of them looks blank. Zero-width and direction
# marks and variation selectors go; the fillers that stand for a space (Hangul fillers
# U+115F, U+1160, U+3164, U+FFA0, the braille blank, line and paragraph separators) become one.
_INVISIBLE = re.compile(
    r"[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)
_BLANK = re.compile(r"[\s\u115f\u1160\u3164\uffa0\u2800\u2028\u2029]+")
MAX_MARKS = 2  # combining marks kept on one letter: enough for Thai or Vietnamese, not Zalgo


def _marks_on_letters(name: str) -> str:
    """Combining marks stay on the letter they belong to, at most MAX_MARKS of them; a mark
    with no letter under it (at the start, after a space) is dropped."""
    out: list[str] = []
    run = -1  # marks on the last letter so far; -1 when there is no letter to carry them
    for ch in name:
        if unicodedata.category(ch).startswith("M"):
            if 0 <= run < MAX_MARKS:
                out.append(ch)
                run += 1
            continue
        out.append(ch)
        run = -1 if ch.isspace() else 0
    return "".join(out)


def clean_name(name: str) -> str:
    """A display name safe to keep: nothing invisible or control, no stacks of combining marks, at
    most MAX_NAME; blank becomes "Player". Markdown stays (``md_name`` escapes it); letters are
    never folded (NFC, not NFKC), or one member could look exactly like another (issue 31)."""
    name = _INVISIBLE.sub("", unicodedata.normalize("NFC", name))
    name = _BLANK.sub(" ", name)
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = _marks_on_letters(name).strip()
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
    return name or "Player"


# What Discord reads as markdown or a mention: a backslash before each shows it as itself, so
# "@everyone" in a name is text (on top of every message's allowed_mentions).
_MARKDOWN = re.compile(r"([\\*_`~|>#\-\[\]()<@:])")
_ESCAPED = re.compile(r"\\([\\*_`~|>#\-\[\]()<@:])")


def md_name(name: str) -> str:
    """``name`` as markdown text that shows exactly ``name``."""
    return _MARKDOWN.sub(r"\\\1", name)


def unescape_markdown(text: str) -> str:
    """Text made with ``md_name`` back as plain text (a replay's story, a terminal)."""
    return _ESCAPED.sub(r"\1", text)

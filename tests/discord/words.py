"""What a player reads, gathered from every request the bot sent to Discord (messages sent
and edited, interaction answers, followups, modals, thread names, autocomplete choices),
and the checks of issue 23 on it: no text outside the pseudo-locale's markers, no English
word in German, and Discord's limits with the longer strings.

A ``Piece`` is one visible string with where it was (the request and the field), so a
failure names the message a word escaped from."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from bot.i18n import catalogues
from bot.i18n.catalogue import LOCALES_DIR
from bot.i18n.pseudo import CLOSE, OPEN, TAG, pseudo_catalogue
from tests.harness import Harness


@dataclass(frozen=True)
class Piece:
    where: str  # "POST /channels/1/messages embed.title"
    text: str
    limit: int | None = None  # Discord's limit for this field, if it has one of its own

    def __str__(self) -> str:
        return f"{self.where}: {self.text!r}"


# Discord's limits per field (docs/discord limits; the harness checks messages too).
LIMITS = {
    "title": 256,
    "description": 4096,
    "field.name": 256,
    "field.value": 1024,
    "footer": 2048,
    "author": 256,
    "button": 80,
    "option.label": 100,
    "option.description": 100,
    "placeholder": 150,
    "modal.title": 45,
    "input.label": 45,
    "thread": 100,
    "content": 2000,
    "choice": 100,
}


def _components(items: Iterable[Any], where: str) -> Iterator[Piece]:
    for item in items or ():
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if item.get("label") and kind == 2:
            yield Piece(f"{where} button", str(item["label"]), LIMITS["button"])
        elif item.get("label") and kind == 4:
            yield Piece(f"{where} input.label", str(item["label"]), LIMITS["input.label"])
        elif item.get("label"):
            yield Piece(f"{where} label", str(item["label"]))
        if item.get("placeholder"):
            limit = 100 if kind == 4 else LIMITS["placeholder"]  # a text input's, a select's
            yield Piece(f"{where} placeholder", str(item["placeholder"]), limit)
        if kind == 4 and item.get("value"):  # a text input's text, filled in by the bot
            yield Piece(f"{where} input.value", str(item["value"]), 4000)
        for option in item.get("options") or ():
            yield Piece(f"{where} option", str(option["label"]), LIMITS["option.label"])
            if option.get("description"):
                yield Piece(
                    f"{where} option", str(option["description"]), LIMITS["option.description"]
                )
        if kind == 10 and item.get("content"):  # a text display (Components V2)
            yield Piece(f"{where} text", str(item["content"]), 4000)
        if item.get("description") and kind == 12:
            pass  # media descriptions are alt text, not drawn
        yield from _components(item.get("components") or (), where)
        if isinstance(item.get("accessory"), dict):
            yield from _components([item["accessory"]], where)
        if isinstance(item.get("component"), dict):  # a label's (modal) component
            yield from _components([item["component"]], where)


def _embed(embed: dict[str, Any], where: str) -> Iterator[Piece]:
    if embed.get("title"):
        yield Piece(f"{where} embed.title", str(embed["title"]), LIMITS["title"])
    if embed.get("description"):
        yield Piece(f"{where} embed.description", str(embed["description"]), LIMITS["description"])
    for field in embed.get("fields") or ():
        yield Piece(f"{where} field.name", str(field["name"]), LIMITS["field.name"])
        yield Piece(f"{where} field.value", str(field["value"]), LIMITS["field.value"])
    if (embed.get("footer") or {}).get("text"):
        yield Piece(f"{where} footer", str(embed["footer"]["text"]), LIMITS["footer"])
    if (embed.get("author") or {}).get("name"):
        yield Piece(f"{where} author", str(embed["author"]["name"]), LIMITS["author"])


def _about(body: dict[str, Any]) -> str:
    """A few words saying which message it is: its first embed's title, else its text."""
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    title = next((str(e["title"]) for e in embeds if e.get("title")), "")
    text = title or str(body.get("content") or "")
    if not text:
        texts = [c for c in _components(body.get("components") or (), "") if "text" in c.where]
        text = texts[0].text if texts else ""
    return f" [{text.splitlines()[0][:60]}]" if text else ""


def _message(body: dict[str, Any], where: str) -> Iterator[Piece]:
    where += _about(body)
    if body.get("content"):
        yield Piece(f"{where} content", str(body["content"]), LIMITS["content"])
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    for embed in embeds:
        yield from _embed(embed, where)
    yield from _components(body.get("components") or (), where)


def _route(method: str, path: str) -> str:
    """What a request was, in a few words: "answer", "followup edit", "post", "edit"..."""
    if path.startswith("/interactions/"):
        return "answer"
    if path.startswith("/webhooks/"):
        return "followup" if method == "POST" else "followup edit"
    if path.endswith("/threads"):
        return "thread"
    return {"POST": "post", "PATCH": "edit"}.get(method, method.lower())


def pieces(h: Harness, since: int = 0) -> list[Piece]:
    """Every visible string of every request the bot sent from ``h.requests[since]`` on."""
    found: list[Piece] = []
    for number, request in enumerate(h.requests[since:], start=since):
        body = request.json
        if not isinstance(body, dict) or request.failed_with:
            continue
        where = f"#{number} {_route(request.method, request.path)}"
        if "/callback" in request.path:
            data = body.get("data") or {}
            if body.get("type") == 9:
                found.append(Piece(f"{where} modal.title", str(data["title"]), 45))
                found.extend(_components(data.get("components") or (), where))
            elif body.get("type") == 8:
                found.extend(
                    Piece(f"{where} choice", str(c["name"]), LIMITS["choice"])
                    for c in data.get("choices") or ()
                )
            else:
                found.extend(_message(data, where))
            continue
        if "/threads" in request.path and body.get("name"):
            found.append(Piece(f"{where} thread", str(body["name"]), LIMITS["thread"]))
            continue
        found.extend(_message(body, where))
    return found


def over_limits(found: Iterable[Piece]) -> list[str]:
    return [f"{p} ({len(p.text)} > {p.limit})" for p in found if p.limit and len(p.text) > p.limit]


# --- the pseudo-locale ---------------------------------------------------------------------

# What may stand outside the markers: mentions, channels, commands and custom emoji, links,
# Markdown and punctuation, numbers, dice and card faces, coordinates and single letters
# (a card's rank, a board column), the game and table ids.
_KEPT = re.compile(
    r"<[@#:/a][^>]*>"  # mentions, channels, command mentions, custom emoji
    r"|https?://\S+"
    r"|\b[0-9]+(?:[.,\u202f\u00a0 ][0-9]{3})*(?:[.,][0-9]+)?\b"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")


def outside_markers(text: str) -> str:
    """``text`` without what stands inside ⟦ ⟧ (nested ones too: a marked message with a
    marked value in it)."""
    out, depth = [], 0
    for c in text:
        if c == OPEN:
            depth += 1
        elif c == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def escaped_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` that stand outside the markers, names excepted."""
    rest = _KEPT.sub(" ", outside_markers(text))
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return _WORD.findall(rest)


def escapes(found: Iterable[Piece], names: Iterable[str] = ()) -> list[str]:
    """One line per distinct string with words outside the markers: the words, the first
    request and field it was in, the string, and how many times it was sent."""
    names = list(names)
    first: dict[str, tuple[list[str], Piece]] = {}
    times: dict[str, int] = {}
    for piece in found:
        words = escaped_words(piece.text, names)
        if words:
            first.setdefault(piece.text, (words, piece))
            times[piece.text] = times.get(piece.text, 0) + 1
    return [
        f"{' '.join(dict.fromkeys(words))}  <- {piece}"
        + (f" (x{times[t]})" if times[t] > 1 else "")
        for t, (words, piece) in first.items()
    ]


@contextmanager
def pseudo_locale(h: Harness) -> Iterator[None]:
    """The whole block in en-XA: the catalogues speak it, every member's client and the
    server's Discord locale are set to it (members added later too)."""
    books = catalogues()
    books.add(TAG, pseudo_catalogue())
    saved = h.locale, h.guild_locale, {p: p.locale for p in h.players.values()}
    h.speak(TAG)
    try:
        yield
    finally:
        h.locale, h.guild_locale = saved[0], saved[1]
        for player, locale in saved[2].items():
            player.locale = locale
        catalogues.cache_clear()  # the installed catalogues again, without en-XA


# --- English words in German ----------------------------------------------------------------


def _strings(path: Path) -> Iterator[tuple[str, str]]:
    with path.open("rb") as source:
        for message in read_po(source):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            strings = (
                message.string if isinstance(message.string, tuple | list) else (message.string,)
            )
            for i, msgid in enumerate(ids):
                yield str(msgid), str(strings[min(i, len(strings) - 1)] or "")


def _words(text: str) -> set[str]:
    text = re.sub(r"%\([^)]+\)[a-z]|\{[^{}]*\}|<[^>]*>", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text)}


# English words of every sentence, so a string that escaped the catalogues is caught even
# if none of its words is in a message of the templates.
_FUNCTION_WORDS = (
    "the and you your yours with this that these those there their they them for from "
    "into onto are was were has have had will would can can't cannot isn't aren't don't "
    "doesn't didn't won't it's its who whom what when where which while why how here "
    "now then than only also just once each every all any some none nobody everyone "
    "yet still again after before until press pressed turn turns player players seat "
    "seats game games round rounds points point wins won win lost draw throw threw "
    "banked bank push pushed dice die next back refresh hand cards card pass trade odds "
    "rules resign stop watching watch closes needs timer table board host join joined "
    "leave left start started cancel cancelled ended over score scored"
)
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())


def english_only_words(language: str = "de", directory: Path = LOCALES_DIR) -> set[str]:
    """The words of three letters or more that occur in the English messages of the
    templates (or are among ``FUNCTION_WORDS``) and in none of ``language``'s
    translations: what would show that a string escaped its catalogue ("the", "turn",
    "banked", "your"...). Words German shares ("Team", "Bot", "Start", "Hand") are in
    its translations, so they never count."""
    english: set[str] = set(FUNCTION_WORDS)
    translated: set[str] = set()
    folder = directory / language.replace("-", "_") / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")):
        for msgid, msgstr in _strings(po):
            english |= _words(msgid)
            translated |= _words(msgstr)
    return english - translated


def english_in(found: Iterable[Piece], english: set[str], names: Iterable[str] = ()) -> list[str]:
    """One line per distinct string holding an English-only word: the words, then where."""
    names = list(names)
    lines: dict[str, str] = {}
    for piece in found:
        text = _KEPT.sub(" ", piece.text)
        for name in names:
            text = text.replace(name, " ")
        words = [w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text) if w.lower() in english]
        if words and piece.text not in lines:
            lines[piece.text] = f"{' '.join(dict.fromkeys(words))}  <- {piece}"
    return list(lines.values())

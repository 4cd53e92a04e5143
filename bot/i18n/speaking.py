"""The words of the message being drawn, in its reader's language.

Presentation code writes ``_("%(who)s banked %(points)s", who=name, points=number(n))``;
the language is not passed down through every renderer but set once, at the edge, where
the reader is known (``with speaking(language): ...``): the clicking member's for a
private answer, the server's for a public message (``bot.ui.i18n``). This is how Django's
``translation.override`` and Flask-Babel's ``force_locale`` do it, and a ``ContextVar`` keeps
it to the task (one interaction) that set it. Outside any ``speaking`` block the words are
English, the source.

- ``_(message, **values)``: the translation, its ``%(name)s`` placeholders filled.
- ``pgettext(context, message, **values)``: the same, for a message whose English is
  ambiguous ("Bank" the button, "Bank" the noun).
- ``plural(singular, plural, n, **values)``: the form the
  language's plural rule picks for ``n``, with ``%(count)s`` as the locale writes ``n``.
- ``number(n)``: ``n`` grouped the language's way (1,000 / 1.000 / 1 000).
- ``N_(message)``: marks a constant for the catalogue; translate it where it is shown.

Never glue translated fragments into a sentence: a language orders its words differently.
Pure: no Discord, no storage."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from bot.i18n.catalogue import SOURCE, Language, catalogues

_reading: ContextVar[Language | None] = ContextVar("language", default=None)


def current() -> Language:
    """The language of the words being drawn now (English outside ``speaking``)."""
    found = _reading.get()
    return found if found is not None else catalogues().language(SOURCE)


@contextmanager
def speaking(words: Language | str | None) -> Iterator[Language]:
    """Draw in ``words`` (a ``Language`` or a locale tag, resolved with its fallbacks)
    until the block ends."""
    if not isinstance(words, Language):
        words = catalogues().language(words)
    token = _reading.set(words)
    try:
        yield words
    finally:
        _reading.reset(token)


def _fill(text: str, values: dict[str, object]) -> str:
    return text % values if values else text


def _(message: str, **values: object) -> str:
    return _fill(current().gettext(message), values)


def gettext(message: str, **values: object) -> str:
    return _(message, **values)


def pgettext(context: str, message: str, **values: object) -> str:
    return _fill(current().pgettext(context, message), values)


def plural(singular: str, plural_form: str, n: int, **values: object) -> str:
    return current().plural(singular, plural_form, n, **values)


def number(value: int | float) -> str:
    return current().number(value)


def N_(message: str) -> str:
    return message

"""The words of the message being drawn, in its reader's language, set once at the edge (``with
speaking(language):``) in a ``ContextVar``, as Django's ``translation.override`` does; English
outside. Never glue translated fragments into a sentence."""

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

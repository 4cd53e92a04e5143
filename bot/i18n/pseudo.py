"""``en-XA``, the tests' pseudo-locale: every template string accented, about 40 % longer and
wrapped in ⟦ ⟧, so an untranslated word or an English-only layout shows in the tests (docs/i18n.md,
"The pseudo-locale")."""

from __future__ import annotations

import gettext
import math
import re
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.catalogue import LOCALES_DIR

TAG = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
PAD = "ẋ"  # a lowercase letter: a padded name is still a Discord name
LONGER = 0.4
NAME_CONTEXTS = ("command", "option")  # the tree's names (bot.ui.i18n.CONTEXTS)

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# What a translation keeps as it is: printf and brace placeholders, mentions, emoji, links.
KEPT = re.compile(r"%\([^)]+\)[a-z]|%[a-z%]|\{[^{}]*\}|<[@#:/a][^>]*>|https?://\S+")


def accented(text: str) -> str:
    out, at = [], 0
    for kept in KEPT.finditer(text):
        out.append(text[at : kept.start()].translate(_ACCENTS))
        out.append(kept.group())
        at = kept.end()
    out.append(text[at:].translate(_ACCENTS))
    return "".join(out)


def pseudo(text: str, context: str | None = None) -> str:
    """``text`` as en-XA shows it: "Open a table" → "⟦Öþéñ à ţàƀļé ẋẋẋ⟧"."""
    pad = math.ceil(len(text) * LONGER)
    if context in NAME_CONTEXTS:
        return accented(text) + PAD * pad
    return OPEN + accented(text) + " " + PAD * max(1, pad - 3) + CLOSE


def pseudo_catalogue(directory: Path = LOCALES_DIR) -> gettext.GNUTranslations:
    """The pseudo-locale of every message of every domain's template, compiled in memory."""
    catalog = Catalog()
    for pot in sorted(directory.glob("*.pot")):
        with pot.open("rb") as source:
            for message in read_po(source):
                if message.id:
                    catalog[message.id] = message  # keyed with its context by Babel
    for message in catalog:
        if not message.id:
            continue
        context = message.context
        if isinstance(message.id, tuple | list):
            message.string = tuple(pseudo(form, context) for form in message.id)
        else:
            message.string = pseudo(message.id, context)
        message.flags.discard("fuzzy")
    mo = BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)

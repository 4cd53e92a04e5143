"""The words in the reader's language: gettext catalogues, one domain per part of the bot, and one
``Language`` per locale with its plurals and numbers. Pure; ``docs/i18n.md`` says how a language is
added."""

from __future__ import annotations

from bot.i18n.catalogue import (
    LOCALES_DIR,
    SOURCE,
    Catalogues,
    Language,
    catalogues,
    compile_po,
    po_of,
    template_of,
)

__all__ = [
    "LOCALES_DIR",
    "SOURCE",
    "Catalogues",
    "Language",
    "catalogues",
    "compile_po",
    "po_of",
    "template_of",
]

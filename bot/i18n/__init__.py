"""The words in the reader's language: gettext catalogues (``locales/<lang>/LC_MESSAGES/
<domain>.po``, made with Babel, one domain per part of the bot: ``domains.py``), one
``Language`` per locale with its plurals (CLDR rules, from the catalogue's Plural-Forms)
and its numbers (1,000 / 1.000 / 1 000).

Pure: no Discord, no storage. ``docs/i18n.md`` says how a language is added."""

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

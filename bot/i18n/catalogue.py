"""Loading the catalogues: one ``gettext.GNUTranslations`` per language (the union of its
domains' ``.po`` files, ``bot/i18n/domains.py``), and which one a Discord locale reads (its
own, else its base language's, else English, the source)."""

from __future__ import annotations

import functools
import gettext
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from babel import Locale as BabelLocale
from babel import UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALES_DIR = Path(__file__).with_name("locales")
SOURCE = "en"  # the language the code is written in: no catalogue, msgid is the text


def template_of(domain: str, directory: Path = LOCALES_DIR) -> Path:
    """A domain's template: every English message of that part of the bot."""
    return directory / f"{domain}.pot"


def po_of(folder: str, domain: str, directory: Path = LOCALES_DIR) -> Path:
    """A language's (``folder`` as Babel names it: ``pt_BR``) catalogue of one domain."""
    return directory / folder / "LC_MESSAGES" / f"{domain}.po"


def tag_of(directory: str) -> str:
    """A catalogue folder's name (Babel's ``pt_BR``) as Discord writes the locale (``pt-BR``)."""
    return directory.replace("_", "-")


def _key(tag: str) -> str:
    return tag.replace("_", "-").casefold()


def compile_po(po: Path) -> gettext.GNUTranslations:
    """A ``.po`` compiled in memory (what ``pybabel compile`` writes; fuzzy entries left
    out, as there)."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name)
    mo = BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def _load(po: Path) -> gettext.GNUTranslations:
    """The compiled ``.mo`` beside the ``.po`` when it is not older (``make i18n-compile``,
    the Docker image), else the ``.po`` compiled in memory: a fresh clone needs no build
    step, and an edited ``.po`` is never hidden by a stale ``.mo``."""
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    return compile_po(po)


@dataclass(frozen=True)
class Language:
    """The words of one language: gettext's lookups and the locale's numbers."""

    tag: str  # as Discord writes it: "en", "de", "pt-BR"
    translations: gettext.NullTranslations = field(compare=False)

    @functools.cached_property
    def babel(self) -> BabelLocale:
        """CLDR's locale of the language; for one CLDR has not (the pseudo-locale en-XA),
        its base language's, so its numbers and plurals are still a language's."""
        try:
            return BabelLocale.parse(self.tag, sep="-")
        except UnknownLocaleError:
            return BabelLocale.parse(self.tag.split("-", 1)[0])

    @property
    def name(self) -> str:
        """The language's own name for itself: "Deutsch", "Français", "Português (Brasil)"."""
        own = self.babel.get_display_name(self.babel) or self.tag
        return own[:1].upper() + own[1:]

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` by the language's plural rules (CLDR's, in the catalogue's
        Plural-Forms: French and Portuguese say 0 in the singular, English does not)."""
        return self.translations.ngettext(singular, plural, n)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.translations.npgettext(context, singular, plural, n)

    def number(self, value: int | float) -> str:
        """``value`` with the locale's digit grouping: 1,000 (en), 1.000 (de), 1 000 (fr)."""
        if type(value) is int and 0 <= value < 1000:
            return str(value)  # no grouping to do: every catalogue's digits are Latin
        return format_decimal(value, locale=self.babel)

    def plural(self, singular: str, plural: str, n: int, **values: object) -> str:
        """The plural form for ``n`` with ``%(count)s`` (the locale's number) and ``values``
        filled in: ``plural("%(count)s chip", "%(count)s chips", 1000)`` → "1.000 Chips"."""
        form = self.ngettext(singular, plural, n)
        return form % {"count": self.number(n), **values}


class Catalogues:
    """Every language the bot speaks: English (the source) and one per catalogue folder."""

    def __init__(self, translations: dict[str, gettext.NullTranslations]) -> None:
        self._translations = dict(translations)
        self._languages: dict[str, Language] = {}

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR) -> Catalogues:
        """Every language folder's domains, chained: a lookup reads each in turn."""
        found: dict[str, gettext.NullTranslations] = {}
        for folder in sorted(p for p in directory.iterdir() if (p / "LC_MESSAGES").is_dir()):
            chain: gettext.NullTranslations | None = None
            for po in sorted((folder / "LC_MESSAGES").glob("*.po")):
                if chain is None:
                    chain = _load(po)
                else:
                    chain.add_fallback(_load(po))
            if chain is not None:
                found[tag_of(folder.name)] = chain
        return cls(found)

    def add(self, tag: str, translations: gettext.NullTranslations) -> None:
        """Another language (the tests' pseudo-locale ``en-XA``)."""
        self._translations[tag] = translations
        self._languages.pop(tag, None)

    @property
    def tags(self) -> tuple[str, ...]:
        """Every language, English first."""
        return (SOURCE, *sorted(t for t in self._translations if t != SOURCE))

    def resolve(self, locale: str | None) -> str:
        """The language a Discord locale reads: its own catalogue, else its base
        language's (es-419 → es, pt-PT → pt-BR), else English."""
        if not locale:
            return SOURCE
        by_key = {_key(tag): tag for tag in self.tags}
        wanted = _key(locale)
        if wanted in by_key:
            return by_key[wanted]
        base = wanted.split("-", 1)[0]
        same_base = [tag for key, tag in sorted(by_key.items()) if key.split("-", 1)[0] == base]
        return same_base[0] if same_base else SOURCE

    def language(self, locale: str | None) -> Language:
        """The words for a Discord locale (``resolve``)."""
        tag = self.resolve(locale)
        if tag not in self._languages:
            translations = self._translations.get(tag, gettext.NullTranslations())
            self._languages[tag] = Language(tag, translations)
        return self._languages[tag]

    def lookup(self, tag: str, context: str | None, message: str) -> str | None:
        """The translation of ``message`` in the language ``tag`` itself (no fallback), or
        None when its catalogue has none (an empty or fuzzy entry, or no entry)."""
        translations = self._translations.get(tag)
        wanted = message if context is None else f"{context}\x04{message}"
        while translations is not None:
            # gettext's own table (CPython's since 2.x): its lookups answer the msgid itself
            # for a missing entry, which cannot be told apart from "translated the same".
            table: dict[object, str] = getattr(translations, "_catalog", {})
            if table.get(wanted):
                return table[wanted]
            translations = getattr(translations, "_fallback", None)
        return None


@functools.cache
def catalogues() -> Catalogues:
    """The installed catalogues, loaded once."""
    return Catalogues.load()

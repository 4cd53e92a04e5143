"""The catalogues (issue 23, items 1 and 7): what the code says in English now is in the
template and in every language, with its placeholders and the language's plural forms; the
catalogues load on a fresh clone (no compiled .mo) and give each language its plurals and
numbers."""

from __future__ import annotations

import gettext
import os
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.cli.i18n import extracted
from bot.i18n import LOCALES_DIR, Catalogues, compile_po, po_of, template_of
from bot.i18n.checks import all_problems, key, problems, template_problems
from bot.i18n.domains import ALL, DOMAINS, Domain

LANGUAGES = ("de", "es", "fr", "pt-BR")
COMMANDS_POT = template_of("commands")


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def translations(domain: str = "commands") -> list[tuple[str, Catalog]]:
    found = []
    for po in sorted(LOCALES_DIR.glob(f"*/LC_MESSAGES/{domain}.po")):
        name = po.parent.parent.name
        found.append((name.replace("_", "-"), read(po, name)))
    return found


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
def test_the_template_holds_what_the_code_says(
    domain: Domain, capsys: pytest.CaptureFixture[str]
) -> None:
    found = extracted(domain)
    # Babel skips an f-string inside _() with a warning on stderr: a message, or a value
    # given to one, made in a way the extractor cannot read.
    assert capsys.readouterr().err == ""
    assert template_problems(found, read(template_of(domain.name)), domain.name) == []


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
def test_every_language_has_every_message_its_placeholders_and_plurals(domain: Domain) -> None:
    languages = translations(domain.name)
    assert [tag for tag, _ in languages] == sorted(LANGUAGES)
    assert all_problems(read(template_of(domain.name)), languages, domain.name) == []


def test_each_source_file_is_in_one_domain() -> None:
    seen: dict[str, str] = {}
    for domain in DOMAINS:
        for message in extracted(domain):
            for filename, _line in message.locations:
                assert seen.setdefault(filename, domain.name) == domain.name, filename


def test_a_message_added_in_english_lists_what_each_language_lacks() -> None:
    source = read(COMMANDS_POT)
    source.add("%(count)s chip", context=None)  # a new message, nowhere translated yet
    source.add(("%(count)s chip won", "%(count)s chips won"))
    lines = all_problems(source, translations())
    assert lines == [
        f"{tag} commands.po: missing {text}"
        for tag in sorted(LANGUAGES)
        for text in ("'%(count)s chip'", "'%(count)s chip won'")
    ]


def test_wrong_placeholders_fuzzy_stale_and_plural_forms_are_each_named() -> None:
    source = Catalog(locale=None)
    source.add("Hello %(name)s", context=None)
    source.add(("%(count)s chip", "%(count)s chips"))
    source.add("Gone soon")
    german = Catalog(locale="de")
    german.add("Hello %(name)s", "Hallo %(nom)s")
    german.add(("%(count)s chip", "%(count)s chips"), ("ein Chip", "%(count)s Chips"))
    german.add("Gone soon", "Bald weg", flags=["fuzzy"])
    german.add("Old words", "Alte Worte")
    german.obsolete["Older"] = german["Old words"]
    assert problems(source, "de", german) == [
        "de: 'Hello %(name)s' placeholders ['nom'], the source has ['name']",
        "de: fuzzy 'Gone soon' (review it, then drop the flag)",
        "de: stale 'Old words' (no longer in the source)",
        "de: stale 'Old words' (obsolete entry: make i18n-update drops it)",
    ]  # "ein Chip" may say the count in words: only %(count)s may go
    french = Catalog(locale="fr")
    french.add(("%(count)s chip", "%(count)s chips"), ("%(count)s jeton", "%(count)s jetons"))
    lines = problems(source, "fr", french)
    assert "fr: '%(count)s chip' has 2 plural forms, not 3" in lines


def test_a_fresh_clone_compiles_the_po_in_memory_and_a_stale_mo_is_not_read(
    tmp_path: Path,
) -> None:
    po = tmp_path / "de" / "LC_MESSAGES" / "table.po"
    po.parent.mkdir(parents=True)
    catalog = Catalog(locale="de")
    catalog.add("Hello", "Hallo")
    with po.open("wb") as out:
        write_po(out, catalog)
    assert Catalogues.load(tmp_path).language("de").gettext("Hello") == "Hallo"  # no .mo
    # An .mo older than its .po (a pull brought a new .po) is left aside.
    mo = po.with_suffix(".mo")
    stale = Catalog(locale="de")
    stale.add("Hello", "Servus")
    with mo.open("wb") as out:
        write_mo(out, stale)
    os.utime(mo, (po.stat().st_mtime - 60, po.stat().st_mtime - 60))
    assert Catalogues.load(tmp_path).language("de").gettext("Hello") == "Hallo"
    os.utime(mo, (po.stat().st_mtime + 60, po.stat().st_mtime + 60))
    assert Catalogues.load(tmp_path).language("de").gettext("Hello") == "Servus"
    assert isinstance(compile_po(po), gettext.GNUTranslations)


@pytest.mark.parametrize(
    ("locale", "tag"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt-BR"),
        ("pt-PT", "pt-BR"),
        ("pt", "pt-BR"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("ja", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_locale_reads_its_catalogue_else_its_base_language_else_english(
    locale: str | None, tag: str
) -> None:
    assert Catalogues.load().resolve(locale) == tag


@pytest.mark.parametrize(
    ("tag", "thousand", "million"),
    [
        ("en", "1,000", "1,234,567"),
        ("de", "1.000", "1.234.567"),
        ("fr", "1\u202f000", "1\u202f234\u202f567"),
        ("pt-BR", "1.000", "1.234.567"),
    ],
)
def test_numbers_are_grouped_as_the_language_writes_them(
    tag: str, thousand: str, million: str
) -> None:
    words = Catalogues.load().language(tag)
    assert (words.number(1000), words.number(1_234_567)) == (thousand, million)


def test_plurals_follow_each_languages_rules() -> None:
    # French and Brazilian Portuguese say 0 in the singular, German and English do not;
    # CLDR gives French, Spanish and Portuguese a third form for a round million
    # ("1 000 000 de jetons").
    books = Catalogues.load()
    forms = {tag: read(po_of(tag.replace("-", "_"), "commands"),
                       tag.replace("-", "_")) for tag in LANGUAGES}  # fmt: skip
    assert forms["de"].plural_forms == "nplurals=2; plural=(n != 1);"
    assert [forms[t].num_plurals for t in ("de", "es", "fr", "pt-BR")] == [2, 3, 3, 3]
    chips = ("%(count)s chip", "%(count)s chips")
    english = books.language("en")
    assert [english.plural(*chips, n) for n in (0, 1, 1000)] == ["0 chips", "1 chip", "1,000 chips"]
    # The same message in a catalogue of its own: the language's plural rule picks the form.
    for tag, strings, expected in [
        ("fr", ("%(count)s jeton", "%(count)s de jetons", "%(count)s jetons"),
         ["0 jeton", "1 jeton", "2 jetons", "1\u202f000\u202f000 de jetons"]),
        ("de", ("%(count)s Chip", "%(count)s Chips"),
         ["0 Chips", "1 Chip", "2 Chips", "1.000.000 Chips"]),
        ("pt_BR", ("%(count)s ficha", "%(count)s de fichas", "%(count)s fichas"),
         ["0 ficha", "1 ficha", "2 fichas", "1.000.000 de fichas"]),
    ]:  # fmt: skip
        catalog = Catalog(locale=tag)
        catalog.add(chips, strings)
        tmp = Catalogues({})
        mo = BytesIO()
        write_mo(mo, catalog)
        mo.seek(0)
        tmp.add(tag.replace("_", "-"), gettext.GNUTranslations(mo))
        words = tmp.language(tag.replace("_", "-"))
        assert [words.plural(*chips, n) for n in (0, 1, 2, 1_000_000)] == expected, tag


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_message_in_several_domains_reads_the_same_in_each(language: str) -> None:
    """A language reads the union of its domains, the first that has a message giving its
    words: a message two domains share must say the same in both, or one of them is never
    read (a tournament round read as the dice game's "Manche" did)."""
    said: dict[tuple[tuple[str | None, str], bool], dict[str, object]] = {}
    folder = LOCALES_DIR / language.replace("-", "_") / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")):
        for message in read(po, language.replace("-", "_")):
            if message.id:
                text = message.string
                said.setdefault((key(message), message.pluralizable), {})[po.stem] = (
                    tuple(text) if isinstance(text, list | tuple) else text
                )
    differ = {k: v for k, v in said.items() if len(set(v.values())) > 1}
    assert differ == {}

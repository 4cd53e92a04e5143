"""``python -m bot i18n extract|update|compile``: the catalogues of every domain (``docs/i18n.md``,
"Translating a message that is new or changed")."""

from __future__ import annotations

import argparse
import datetime
from collections.abc import Callable
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n import LOCALES_DIR, po_of, template_of
from bot.i18n.checks import key, translated
from bot.i18n.domains import ALL, DOMAINS, KEYWORDS, Domain

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "sequences-bot"
# A fixed creation date: a template changes only when its messages do (no merge conflicts
# on a timestamp between two people extracting the same code).
CREATED = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def method_map(domain: Domain) -> list[tuple[str, str]]:
    """Babel's (pattern, method) list for ``domain``: the files of the domains before it
    ignored, so each file is in one domain."""
    if domain not in DOMAINS:
        return [(pattern, domain.method) for pattern in domain.files]
    before = DOMAINS[: DOMAINS.index(domain)]
    ignored = [(pattern, "ignore") for other in before for pattern in other.files]
    return [*ignored, *((pattern, domain.method) for pattern in domain.files)]


def extracted(domain: Domain, root: Path = ROOT) -> Catalog:
    """What ``extract`` writes for ``domain`` from the code as it is now."""
    catalog = Catalog(project=PROJECT, version="0", creation_date=CREATED, domain=domain.name)
    found = extract_from_dir(
        str(root),
        method_map(domain),
        {},
        keywords=KEYWORDS,  # type: ignore[arg-type]
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, line, message, comments, context in found:
        catalog.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return catalog


def _write(path: Path, catalog: Catalog, **options: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=0, **options)  # type: ignore[arg-type]


def extract(root: Path = ROOT, directory: Path = LOCALES_DIR) -> list[Path]:
    written = []
    for domain in ALL:
        path = template_of(domain.name, directory)
        _write(path, extracted(domain, root), sort_by_file=True)
        written.append(path)
    return written


def _read(path: Path, folder: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=folder)


def languages(directory: Path = LOCALES_DIR) -> list[str]:
    """The language folders (Babel's names: ``de``, ``pt_BR``)."""
    return sorted(p.name for p in directory.iterdir() if (p / "LC_MESSAGES").is_dir())


def _new_catalogue(template: Catalog, folder: str, domain: str) -> Catalog:
    locale = Locale.parse(folder)
    catalog = Catalog(
        locale=locale,
        domain=domain,
        project=PROJECT,
        version="0",
        creation_date=CREATED,
        revision_date=CREATED,
        last_translator="sequences-bot contributors",
        language_team=locale.get_display_name(locale) or folder,
    )
    catalog.update(template, no_fuzzy_matching=True)
    catalog.fuzzy = False  # the header: a fuzzy one is left out of the .mo, plurals and all
    return catalog


def update(directory: Path = LOCALES_DIR) -> list[Path]:
    written = []
    for folder in languages(directory):
        # Every .po of the language, each read once: the domains' own, and any left by a
        # renamed domain, which only lends its translations.
        books = {po.stem: _read(po, folder) for po in sorted((directory / folder).glob("*/*.po"))}
        # The language's translation memory, by text and by having plural forms (a singular's
        # translation given to a plural would be read as its letters, a form each).
        memory = {
            (key(m), m.pluralizable): m.string
            for book in books.values()
            for m in book
            if m.id and translated(m) and not m.fuzzy
        }
        for domain in ALL:
            template = _read(template_of(domain.name, directory))
            catalog = books.get(domain.name)
            if catalog is None:
                catalog = _new_catalogue(template, folder, domain.name)
            else:
                catalog.update(template, update_creation_date=False)
            for message in catalog:
                remembered = (key(message), message.pluralizable)
                wanted = (not translated(message) or message.fuzzy) and remembered in memory
                if message.id and wanted:
                    message.string = memory[remembered]
                    message.flags.discard("fuzzy")
            path = po_of(folder, domain.name, directory)
            _write(path, catalog, ignore_obsolete=True)
            written.append(path)
    return written


def compile_all(directory: Path = LOCALES_DIR) -> list[Path]:
    written = []
    for po in sorted(directory.glob("*/LC_MESSAGES/*.po")):
        catalog = _read(po, po.parent.parent.name)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as out:
            write_mo(out, catalog, use_fuzzy=False)
        written.append(mo)
    return written


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("step", choices=("extract", "update", "compile"))


def run(args: argparse.Namespace) -> int:
    steps: dict[str, Callable[[], list[Path]]] = {
        "extract": extract,
        "update": update,
        "compile": compile_all,
    }
    for path in steps[args.step]():
        print(path)
    return 0

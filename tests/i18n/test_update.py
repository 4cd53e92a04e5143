"""``python -m bot i18n update`` (bot/cli/i18n.py): a message keeps its translation when it
moves between domains, and a message that turns plural is left for its translator, never
filled with the singular translation cut into letters."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.cli.i18n import update
from bot.i18n import LOCALES_DIR

SINGULAR = "Ended early by %(who)s."


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def _write(path: Path, catalog: Catalog) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=0)


def test_a_message_that_turns_plural_is_not_filled_with_letters(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, locales, ignore=shutil.ignore_patterns("*.mo"))
    german = _read(locales / "de/LC_MESSAGES/table.po", "de")
    before = german[SINGULAR].string
    assert isinstance(before, str) and len(before) > 5
    pot = _read(locales / "table.pot")
    message = pot[SINGULAR]
    pot.delete(SINGULAR)
    pot.add((SINGULAR, "Ended early by %(who)s and %(count)s more."), locations=message.locations)
    _write(locales / "table.pot", pot)

    update(locales)

    after = _read(locales / "de/LC_MESSAGES/table.po", "de")[SINGULAR]
    assert isinstance(after.string, tuple | list)
    assert all(form in ("", before) for form in after.string), after.string
    assert not all(after.string)  # a form is missing: the translator is asked for it

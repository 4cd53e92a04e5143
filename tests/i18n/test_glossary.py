"""One word per term and language (issue 31, items 25 and 26): the glossary of
``docs/i18n.md`` holds, every language addresses the player one way, and a winner's
headline has one form for every game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR
from bot.i18n.glossary import glossaries, glossary_problems

LANGUAGES = ("de", "es", "fr", "pt_BR")


def books(language: str) -> list[tuple[str, Catalog]]:
    found = []
    for po in sorted((LOCALES_DIR / language / "LC_MESSAGES").glob("*.po")):
        with Path(po).open("rb") as source:
            found.append((po.stem, read_po(source, locale=language)))
    return found


def strings(language: str) -> list[tuple[str, str, str]]:
    """(domain, English, translation) of every form of every translated message."""
    found = []
    for domain, catalogue in books(language):
        for message in catalogue:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            found.extend((domain, str(ids[0]), str(form)) for form in forms)
    return found


def test_every_language_has_a_glossary() -> None:
    terms = glossaries()
    assert sorted(terms) == sorted(LANGUAGES)
    assert all(len(terms[language]) >= 5 for language in LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_glossary_term_has_its_one_translation(language: str) -> None:
    assert glossary_problems(glossaries()[language], books(language), language) == []


def test_a_term_translated_two_ways_is_named() -> None:
    """The check bites: a German message saying "Knopf" for a button, and one saying
    neither word, are each one line."""
    doc = (
        "## Glossary\n\n### de\n\n| term | translation | not | domains | where |\n"
        "|---|---|---|---|---|\n| button | Button | Knopf | | x |\n"
    )
    catalogue = Catalog(locale="de")
    catalogue.add("That button is old.", "Dieser Knopf ist alt.")
    catalogue.add("Press a button.", "Drück eine Taste.")
    catalogue.add("The buttons open it.", "Die Buttons öffnen es.")
    found = glossary_problems(glossaries(doc)["de"], [("table", catalogue)], "de")
    assert len(found) == 3, found  # Knopf (avoided, and not Button); Taste (not Button)
    assert any("'Knopf'" in line for line in found)
    assert not any("open it" in line for line in found)


FORMAL = {
    # German says "du": "Sie"/"Ihnen" in the middle of a sentence is the formal address.
    "de": re.compile(r"(?<=[a-zäöüß,] )(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem)\b"),
    # French says "vous".
    "fr": re.compile(r"\b(tu|toi|ton|ta|tes|le tien|la tienne|les tiens)\b(?!-)"),
}


@pytest.mark.parametrize("language", sorted(FORMAL))
def test_each_language_addresses_the_player_one_way(language: str) -> None:
    wrong = [
        (domain, english, text)
        for domain, english, text in strings(language)
        if domain != "commands" or " " in text  # a command name is no sentence
        if FORMAL[language].search(re.sub(r"%\(\w+\)s|`[^`]*`", "", text))
    ]
    assert wrong == []


HEADLINE = re.compile(r"^🏆 \**%\((who|winner|winners)\)s\** won %\(game\)s( #%\(id\)s)?[!:. (]")


def _shape(text: str, name: str) -> str:
    """A headline's words up to the winner and the game, the placeholders named alike."""
    text = text.replace(f"%({name})s", "W").replace(" #%(id)s", "").replace("**", "")
    text = text.replace("¡", "")
    return text[: max(text.index("W") + 1, text.index("%(game)s") + 8)]


@pytest.mark.parametrize("language", [*LANGUAGES, "en"])
def test_a_winners_headline_has_one_form_for_every_game(language: str) -> None:
    """Was "🏆 Sieg in Sequence (Brettspiel): Ana!" on the board but "Bo gewinnt
    Sequences!" on the dice: every game's result title, and the channel's line, say the
    winner the same way."""
    shapes = {}
    for domain, english, text in strings("de" if language == "en" else language):
        found = HEADLINE.match(english)
        if found:
            said = english if language == "en" else text
            shapes[f"{domain}: {english}"] = _shape(said, found[1])
    assert len(shapes) >= 7  # board, both dice games, the table's and the channel's lines
    assert len(set(shapes.values())) == 1, shapes

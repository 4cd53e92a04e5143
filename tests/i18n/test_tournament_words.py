"""The tournaments catalogue as a reader meets it (a native reviewer's findings):

- a language's domains are read in a chain, the first holding a message winning: a
  tournament message written like a game's ("Round %(round)s of %(rounds)s") read as the
  game's (French "Manche 1 sur 5" for a tournament's round, the word of a game's round). Every
  tournament message reads as its own catalogue says.
- a button a message names in bold is named as the button shows it (Portuguese said
  **Começar** where the lobby's Start reads **Iniciar**).
- a tournament's round is not worded as a game's round in the same language."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.i18n import po_of
from bot.i18n.speaking import pgettext, speaking
from bot.ui.tournaments import TournamentButton

LANGUAGES = {"de": "de", "es": "es", "fr": "fr", "pt-BR": "pt_BR"}


def _catalogue(folder: str):  # type: ignore[no-untyped-def]
    with po_of(folder, "tournaments").open("rb") as source:
        return read_po(source, locale=folder)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_every_tournament_message_reads_as_the_tournaments_catalogue_says(tag: str) -> None:
    wrong = []
    with speaking(tag) as words:
        for m in _catalogue(LANGUAGES[tag]):
            if not m.id or isinstance(m.id, tuple | list) or not m.string:
                continue
            shown = words.pgettext(m.context, m.id) if m.context else words.gettext(str(m.id))
            if shown != m.string:
                wrong.append(f"{m.id!r}: {shown!r} (the tournaments catalogue: {m.string!r})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_button_named_in_bold_is_named_as_it_shows(tag: str) -> None:
    wrong = []
    with speaking(tag):
        labels = {
            english: pgettext("button", english) for english in TournamentButton.LABELS.values()
        }
    for m in _catalogue(LANGUAGES[tag]):
        if not m.id or not m.string:
            continue
        english = " ".join(m.id) if isinstance(m.id, tuple | list) else str(m.id)
        texts = m.string if isinstance(m.string, tuple | list) else (m.string,)
        for button, label in labels.items():
            if f"**{button}**" not in english:
                continue
            for text in texts:
                if f"**{label}**" not in text:
                    wrong.append(f"{m.id!r}: no **{label}** in {text[:90]!r}")
    assert not wrong, "\n".join(wrong)


def test_the_buttons_read_as_the_lobbys_buttons() -> None:
    """Join, Leave and Start are the lobby's words in every language (one button, one name)."""
    for tag in LANGUAGES:
        with speaking(tag):
            for english in ("Join", "Leave", "Start"):
                shown = TournamentButton(1, english.lower()).item.label
                assert shown == pgettext("button", english), (tag, english, shown)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_a_tournament_round_is_not_worded_as_a_games_round(tag: str) -> None:
    from bot.i18n.speaking import _

    with speaking(tag):
        game = _("Round %(round)s of %(rounds)s", round=1, rounds=5)
        tournament = pgettext("tournament", "Round %(round)s of %(rounds)s", round=1, rounds=5)
    assert tournament != game
    assert tournament != "Round 1 of 5"  # translated, not left in English
    assert re.search(r"\b1\b", tournament) and re.search(r"\b5\b", tournament)

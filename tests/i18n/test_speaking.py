"""The words of the message being drawn (bot/i18n/speaking.py): English outside any
``speaking`` block, the reader's language inside it, back to what it was after; numbers
and plurals the language's way; and the language stays with the task that set it."""

from __future__ import annotations

import asyncio

from bot.i18n.speaking import N_, _, current, number, plural, speaking

HERE = "Language of public game messages here: %(language)s."


def test_english_outside_and_the_readers_language_inside() -> None:
    assert _(HERE, language="Deutsch") == "Language of public game messages here: Deutsch."
    with speaking("de") as words:
        assert words.tag == "de"
        german = "Sprache der öffentlichen Spielnachrichten hier: Deutsch."
        assert _(HERE, language="Deutsch") == german
        with speaking("fr"):
            assert _(HERE, language="x").startswith("Langue des messages de jeu publics ici")
        assert current().tag == "de"
        assert number(12_345) == "12.345"
    assert current().tag == "en"
    assert number(12_345) == "12,345"


def test_a_locale_without_a_catalogue_speaks_its_base_language_or_english() -> None:
    with speaking("pt-PT"):
        assert current().tag == "pt-BR"
    with speaking("ja"):
        assert _(HERE, language="日本語") == "Language of public game messages here: 日本語."


def test_plurals_and_numbers_follow_the_language() -> None:
    chips = ("%(count)s chip", "%(count)s chips")
    assert [plural(*chips, n) for n in (1, 2, 1500)] == ["1 chip", "2 chips", "1,500 chips"]
    with speaking("fr"):
        assert number(1500) == "1\u202f500"


def test_a_marked_constant_is_translated_where_it_is_shown() -> None:
    constant = N_(HERE)
    assert constant == HERE  # the marker is only for the catalogue
    with speaking("de"):
        assert _(constant, language="x").startswith("Sprache")


async def test_each_task_keeps_the_language_it_set() -> None:
    seen: dict[str, str] = {}

    async def draw(tag: str) -> None:
        with speaking(tag):
            await asyncio.sleep(0)  # the other task runs here, in its own language
            seen[tag] = current().tag

    await asyncio.gather(draw("de"), draw("fr"), draw("es"))
    assert seen == {"de": "de", "fr": "fr", "es": "es"}
    assert current().tag == "en"

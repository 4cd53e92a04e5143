"""Chips, dice and chances as each language writes them (issue 23): its plural rules and
its numbers, never "s" if n != 1."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.i18n.speaking import speaking
from bot.render.common import chips, every_language
from bot.render.odds_text import chance, dice, num, percent

NNBSP = "\u202f"  # French groups digits with a narrow no-break space


@pytest.mark.parametrize(
    ("language", "amounts"),
    [
        ("en", {0: "0 chips", 1: "1 chip", 1000: "1,000 chips", 10**6: "1,000,000 chips"}),
        ("de", {0: "0 Chips", 1: "1 Chip", 1000: "1.000 Chips", 10**6: "1.000.000 Chips"}),
        (
            "fr",
            {0: "0 jeton", 1: "1 jeton", 2: "2 jetons", 1000: f"1{NNBSP}000 jetons",
             10**6: f"1{NNBSP}000{NNBSP}000 de jetons"},
        ),
        ("es", {1: "1 ficha", 1000: "1.000 fichas", 10**6: "1.000.000 de fichas"}),
        ("pt-BR", {0: "0 ficha", 2: "2 fichas", 10**6: "1.000.000 de fichas"}),
    ],
)  # fmt: skip
def test_chips_follow_each_languages_plurals_and_numbers(
    language: str, amounts: dict[int, str]
) -> None:
    with speaking(language):
        assert {n: chips(n) for n in amounts} == amounts


def test_odds_figures_are_written_the_readers_way() -> None:
    with speaking("en"):
        assert (dice(1), dice(4), percent(Fraction(173, 1000)), num(Fraction(63, 50))) == (
            "1 die", "4 dice", "17.3 %", "1.26"
        )  # fmt: skip
        assert chance(Fraction(1, 7776)) == "1 in 7,776"
    with speaking("de"):
        assert (dice(1), dice(4), percent(Fraction(173, 1000)), num(Fraction(63, 50))) == (
            "1 Würfel", "4 Würfel", "17,3 %", "1,26"
        )  # fmt: skip
        assert chance(Fraction(1, 7776)) == "1 zu 7.776"
    with speaking("fr"):
        assert dice(0) == "0 dé" and dice(3) == "3 dés" and num(Fraction(35, 2)) == "17,5"


def test_a_persistent_buttons_title_is_known_in_every_language() -> None:
    found = every_language("Odds · %(game)s")
    assert found[0] == "Odds · %(game)s" and len(found) == len(set(found))
    assert {"Chancen · %(game)s", "Probabilidades · %(game)s", "Probabilités · %(game)s"} <= set(
        found
    )

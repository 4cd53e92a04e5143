"""Who goes through a bracket match with no result is the rules' answer (``rules.through``),
and the words say that one: the standings text, the bracket picture's winner mark and the
final places agree, also when the two players' seeds are equal (two unseeded players: the
rules order them by id, where the ui's own sort once kept whoever was named first)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.registry import Games
from bot.i18n.speaking import speaking
from bot.render import bracket
from bot.rules import tournament as rules
from bot.store.tournaments import Entry, Match, Tournament
from bot.tables.tournament_rounds import entrants_of, results_of
from bot.tables.tournaments import Picture
from bot.ui.tournament_pictures import picture_png
from bot.ui.tournament_words import standings_text


def _bracket(seeds: dict[int, int | None]) -> Picture:
    """A finished final of two with no result: 7 named first, 3 second."""
    t = Tournament(
        id=1, guild_id=10, channel_id=20, kind="sequences", settings={}, game_key="sequences",
        format="elimination", rounds=1, round=1, status="finished", fee=0, prize="winner",
        best_of=1, final_best_of=1, created_by=99, created_at=0.0, started_at=0.0,
        finished_at=1.0,
    )  # fmt: skip
    entries = [Entry(u, f"P{u}", None, seed) for u, seed in seeds.items()]
    final = Match(1, 1, 1, 0, 7, 3, "done", 5, None, players=(7, 3))
    results = results_of([final])
    seed_ids = rules.seed_order(entrants_of(entries))
    places = rules.elimination_places([results], seed_ids)
    standings = rules.standings(entrants_of(entries), results, buchholz=False)
    return Picture(t, entries, [final], standings, places)


def test_equal_seeds_send_the_lower_id_through_in_the_rules_and_the_words() -> None:
    picture = _bracket({7: None, 3: None})
    assert picture.through(picture.matches[0]) == 3
    assert picture.places == [3, 7]
    with speaking("en"):
        assert "**P3** through on seed (no result against P7)" in standings_text(picture)


def test_the_better_seed_goes_through_whichever_is_named_first() -> None:
    picture = _bracket({7: 1, 3: 2})
    assert picture.through(picture.matches[0]) == 7
    with speaking("en"):
        assert "**P7** through on seed (no result against P3)" in standings_text(picture)


def test_the_bracket_marks_the_one_the_rules_send_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[list[list[bracket.BracketMatch]]] = []

    def capture(
        title: str, names: list[str], columns: list[list[bracket.BracketMatch]], **kwargs: Any
    ) -> bytes:
        drawn.append(columns)
        return b""

    monkeypatch.setattr("bot.ui.tournament_pictures.bracket_png", capture)
    with speaking("en"):
        picture_png(_bracket({7: None, 3: None}), Games())
    [[final]] = drawn[0]
    top, bottom = final.top, final.bottom
    assert (top.name, top.won, bottom.name, bottom.won) == ("P7", False, "P3", True)

"""The ``board-sim`` subcommand: seeded, reproducible, both output forms."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.sim.board import duplicate, league, simulate, uninformative, wilson


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3)
    assert high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0)
    assert wilson(10, 10)[1] == 1.0


def test_simulate_is_seeded_and_alternates_first_seat() -> None:
    first = simulate(["greedy", "random"], games=6, seed=3)
    second = simulate(["greedy", "random"], games=6, seed=3)
    for key in ("levels", "by_side", "avg_turns", "draws", "draw_reasons"):
        assert first[key] == second[key]
    sides = first["by_side"]
    assert sum(row["wins"] for row in sides) + first["draws"] + first["unfinished"] == 6
    assert set(first["move_ms"]) == {"greedy", "random"}


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["board-sim", "--games", "4", "--seats", "greedy,random,greedy,random", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and report["sides"] == 2
    assert report["by_side"][0]["levels"] == ["greedy", "greedy"]
    assert not report["levels"]["greedy"]["every_side"]


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-sim", "--games", "2", "--seats", "random,random", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "plays every side" in out and "games/s" in out
    assert "drawn 0 (no card playable 0, two idle reshuffles 0, a round of idle passes 0)" in out
    assert main(["board-sim", "--games", "2", "--seats", "random,wizard"]) == 2
    assert "unknown level" in capsys.readouterr().err
    assert main(["board-sim", "--games", "2", "--seats", "random,random,random,random,random"]) == 2
    assert "can't split into equal teams" in capsys.readouterr().err


def test_duplicate_mirror_match_is_decided_by_the_cards() -> None:
    # The same level on both seats plays each deal identically twice: the same seat wins.
    report = duplicate(["greedy", "greedy"], deals=6, seed=2)
    assert report["same_seat_wins_both"] + report["with_a_drawn_game"] == 1.0
    assert [row["wins_both"] for row in report["levels"]] == [0.0, 0.0]


def test_duplicate_counts_add_up_and_skill_shows() -> None:
    report = duplicate(["strong", "random"], deals=8, seed=5)
    strong, random_level = report["levels"]
    total = strong["wins_both"] + random_level["wins_both"]
    assert total + report["same_seat_wins_both"] + report["with_a_drawn_game"] == 1.0
    assert strong["wins_both"] >= 0.75 and random_level["wins_both"] == 0.0
    assert strong["win_rate"] + random_level["win_rate"] <= 1.0
    again = duplicate(["strong", "random"], deals=8, seed=5)
    timings = ("move_ms", "move_cpu_ms", "seconds")  # the only fields a replay may change
    assert {k: v for k, v in again.items() if k not in timings} == {
        k: v for k, v in report.items() if k not in timings
    }


def test_cli_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-sim", "--games", "3", "--seats", "strong,greedy", "--duplicate"]) == 0
    out = capsys.readouterr().out
    assert "wins from both sides" in out and "the cards decide" in out and "95% CI" in out
    assert (
        main(["board-sim", "--games", "2", "--seats", "greedy,greedy,greedy", "--duplicate"]) == 2
    )
    assert "two levels on two sides" in capsys.readouterr().err


def test_duplicate_with_teams_swaps_the_sides_and_gives_intervals() -> None:
    report = duplicate(["greedy", "random", "greedy", "random"], deals=3, seed=1)
    greedy, random_level = report["levels"]
    assert report["seats"] == 4 and greedy["level"] == "greedy"
    assert greedy["score"] + random_level["score"] == pytest.approx(1.0)
    low, high = greedy["score_ci95"]
    assert low <= greedy["score"] <= high
    assert greedy["wins_both_ci95"][0] <= greedy["wins_both"] <= greedy["wins_both_ci95"][1]
    assert set(report["move_ms"]) == set(report["move_cpu_ms"]) == {"greedy", "random"}
    for levels in (["greedy", "greedy", "random", "random"], ["greedy", "random", "greedy"]):
        with pytest.raises(ValueError, match="two levels on two sides"):
            duplicate(levels, deals=1, seed=1)


def test_a_league_plays_every_pair_and_flags_the_same_player() -> None:
    report = league(["easy", "medium", "random"], deals=2, seed=3)
    assert report["members"] == ["easy", "medium", "random", "strong", "greedy"]
    pairs = {tuple(row["level"] for row in m["levels"]): m for m in report["matchups"]}
    assert len(pairs) == 10  # every pair of the five, strong and greedy among them
    flagged = {pair for pair, m in pairs.items() if m["uninformative"] is not None}
    assert flagged == {("easy", "greedy"), ("medium", "strong")}
    # Levels playing as one engine play the same games: reported under both names.
    easy_strong = [row["score"] for row in pairs[("easy", "strong")]["levels"]]
    easy_medium = [row["score"] for row in pairs[("easy", "medium")]["levels"]]
    assert easy_strong == easy_medium
    for m in pairs.values():
        for row in m["levels"]:
            low, high = row["score_ci95"]
            assert low <= row["score"] <= high
    assert pairs[("random", "strong")]["levels"][1]["wins_both"] == 1.0
    standing = report["standing"]
    assert standing["medium"]["plays_as"] == "strong"
    assert standing["random"]["matchups"] == 4 and standing["strong"]["matchups"] == 3
    assert standing["random"]["mean_score"] == 0.0


def test_two_deterministic_players_are_uninformative() -> None:
    assert uninformative("strong", "medium") is not None
    assert uninformative("greedy", "easy") is not None
    assert uninformative("strong", "greedy") is None and uninformative("hard", "strong") is None


def test_cli_league(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["board-sim", "--games", "1", "--duplicate", "--league", "medium,random"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "League of 4 levels" in out and "medium vs strong" in out
    assert "uninformative: " in out and "Standing" in out
    assert main(["board-sim", "--games", "1", "--league", "random"]) == 2
    assert "--league needs --duplicate" in capsys.readouterr().err
    assert main(["board-sim", "--games", "1", "--duplicate", "--league", "wizard"]) == 2

"""The offline dice tools: ``score``, ``odds``, ``simulate``, and the odds' bench section."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "classic", "1", "2", "2", "3", "4", "6")
    assert code == 0
    assert json.loads(out) == {"points": 15, "penalty": False, "runs": [[1, 2, 3, 4]]}
    code, out, _ = run(capsys, "score", "heartsdue", "1", "1", "1", "1", "5", "6")
    assert json.loads(out) == {"points": 0, "penalty": True, "runs": []}


@pytest.mark.parametrize(
    "argv",
    [
        ("score", "classic", "1", "2", "3"),
        ("score", "classic", "1", "2", "3", "4", "5", "9"),
        ("score", "classic", "one", "2", "3", "4", "5", "6"),
        ("score", "poker", "1", "2", "3", "4", "5", "6"),
        ("odds", "--ruleset", "poker"),
        ("simulate", "poker"),
        ("simulate", "standard", "--policy", "reckless"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_odds_json_has_every_ruleset_with_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"standard", "reverse", "extended", "sudden", "classic", "heartsdue"}
    ev = data["standard"]["optimal_turn_ev"]
    assert ev["exact"] == "264847/209952" and ev["float"] == pytest.approx(1.26146, abs=1e-5)
    assert len(data["extended"]["policy"]) == 7
    for variant in ("standard", "reverse", "extended", "sudden"):
        assert data[variant]["optimal_turn_ev"]["exact"]
        assert data[variant]["policy"]
    turns = data["sudden"]["expected_turns_to_21"]
    assert float(Fraction(turns["exact"])) == pytest.approx(turns["float"])
    for ruleset in ("classic", "heartsdue"):
        for key in ("p_no_score", "p_penalty", "mean_points", "expected_turns_to_100"):
            assert "/" in data[ruleset][key]["exact"]


def test_odds_tables_for_one_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--ruleset", "classic")
    assert code == 0 and "mean points per throw = 4.5062" in out
    code, out, _ = run(capsys, "odds", "--ruleset", "sudden")
    assert code == 0 and "expected turns to exactly 21 from 0 = 17.2567" in out


@pytest.mark.parametrize("ruleset", ["standard", "sudden", "heartsdue"])
def test_simulate_prints_empirical_next_to_exact(
    capsys: pytest.CaptureFixture[str], ruleset: str
) -> None:
    code, out, _ = run(capsys, "simulate", ruleset, "--turns", "300", "--seed", "5")
    assert code == 0 and "exact" in out


def test_bench_odds_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--quick", "--only", "odds", "--repeat", "1")
    assert code == 0 and "cached" in out and "odds: everything" in out

"""One-roll scoring (RULINGS §2): the examples, and the best split against a brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.oneroll.words import describe
from bot.rules import odds, oneroll
from bot.rules.oneroll import score_throw

dice6 = st.lists(st.integers(1, 6), min_size=6, max_size=6)


# --- an independent brute force ----------------------------------------------------------
# It tries every way to peel runs 1..L off the dice, one run at a time, and keeps the best
# total: no prefix minimums, no greedy argument.

RUN_POINTS = {
    "classic": {1: 0, 2: 5, 3: 10, 4: 15, 5: 20, 6: 25},
    "heartsdue": {1: 5, 2: 10, 3: 15, 4: 20, 5: 25, 6: 30},
}
FIVE_SIXES = {"classic": 30, "heartsdue": 35}
SIX_SIXES = {"classic": 60, "heartsdue": 70}


@cache
def best_split(ruleset: str, dice: tuple[int, ...]) -> int:
    """Most points from disjoint runs starting at 1 among ``dice`` (sorted)."""
    best = 0
    for length in range(1, 7):
        needed = Counter(range(1, length + 1))
        left = Counter(dice)
        if any(left[face] < n for face, n in needed.items()):
            break
        rest = tuple(sorted((left - needed).elements()))
        best = max(best, RUN_POINTS[ruleset][length] + best_split(ruleset, rest))
    return best


def brute_points(ruleset: str, dice: tuple[int, ...]) -> int:
    if dice.count(1) >= 4:
        return 0
    if dice.count(6) == 6:
        return SIX_SIXES[ruleset]
    if dice.count(6) == 5:
        odd = tuple(face for face in dice if face != 6)
        return FIVE_SIXES[ruleset] + best_split(ruleset, odd)
    return best_split(ruleset, tuple(sorted(dice)))


@pytest.mark.parametrize("ruleset", oneroll.RULESETS)
def test_best_split_equals_brute_force_over_all_46656_throws(ruleset: oneroll.Ruleset) -> None:
    mismatches = []
    for throw in itertools.product(range(1, 7), repeat=6):
        score = score_throw(ruleset, throw)
        if score.points != brute_points(ruleset, throw) or score.penalty != (throw.count(1) >= 4):
            mismatches.append(throw)
    assert mismatches == []


@given(dice6, st.sampled_from(oneroll.RULESETS))
def test_runs_are_a_real_split_that_adds_up(dice: list[int], ruleset: oneroll.Ruleset) -> None:
    score = score_throw(ruleset, dice)
    used = Counter(face for run in score.runs for face in run)
    assert not used - Counter(dice), "a run uses a die twice or a die that is not there"
    if not score.penalty and dice.count(6) < 5:
        assert score.points == sum(oneroll.run_points(ruleset, len(run)) for run in score.runs)
        assert all(run == tuple(range(1, len(run) + 1)) for run in score.runs)


@given(dice6, st.sampled_from(oneroll.RULESETS), st.randoms())
def test_order_of_the_dice_does_not_matter(
    dice: list[int], ruleset: oneroll.Ruleset, rnd: random.Random
) -> None:
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    assert score_throw(ruleset, dice) == score_throw(ruleset, shuffled)


@pytest.mark.parametrize(
    ("ruleset", "dice", "points", "runs"),
    [
        ("classic", (1, 2, 2, 3, 4, 6), 15, ((1, 2, 3, 4),)),
        ("classic", (1, 1, 2, 2, 3, 5), 15, ((1, 2), (1, 2, 3))),
        ("classic", (1, 1, 1, 2, 2, 2), 15, ((1, 2), (1, 2), (1, 2))),
        ("heartsdue", (1, 1, 2, 3, 5, 6), 20, ((1,), (1, 2, 3))),
        ("heartsdue", (6, 6, 6, 6, 6, 1), 40, ((6, 6, 6, 6, 6), (1,))),
        ("classic", (6, 6, 6, 6, 6, 1), 30, ((6, 6, 6, 6, 6),)),
        ("classic", (6, 6, 6, 6, 6, 6), 60, ((6, 6, 6, 6, 6, 6),)),
        ("heartsdue", (6, 6, 6, 6, 6, 6), 70, ((6, 6, 6, 6, 6, 6),)),
        ("classic", (1, 2, 3, 4, 5, 6), 25, ((1, 2, 3, 4, 5, 6),)),
        ("classic", (1, 3, 4, 5, 6, 6), 0, ()),
        ("heartsdue", (1, 3, 4, 5, 6, 6), 5, ((1,),)),
        ("classic", (1, 1, 2, 2, 3, 3), 20, ((1, 2, 3), (1, 2, 3))),
        ("classic", (1, 1, 2, 2, 3, 4), 20, ((1, 2), (1, 2, 3, 4))),
    ],
)
def test_rulings_examples(
    ruleset: oneroll.Ruleset, dice: tuple[int, ...], points: int, runs: tuple[tuple[int, ...]]
) -> None:
    score = score_throw(ruleset, dice)
    assert (score.points, score.runs, score.penalty) == (points, runs, False)


@pytest.mark.parametrize("ruleset", oneroll.RULESETS)
@pytest.mark.parametrize("dice", [(1, 1, 1, 1, 2, 3), (1, 1, 1, 1, 1, 2), (1,) * 6])
def test_four_or_more_ones_is_the_penalty(ruleset: oneroll.Ruleset, dice: tuple[int, ...]) -> None:
    score = score_throw(ruleset, dice)
    assert score.penalty and score.wiped and score.points == 0 and score.runs == ()


def test_three_ones_are_not_a_penalty() -> None:
    score = score_throw("heartsdue", (1, 1, 1, 2, 3, 4))
    assert not score.penalty and score.points == 5 + 5 + 20


@pytest.mark.parametrize(
    ("ruleset", "dice", "text"),
    [
        ("classic", (1, 1, 2, 2, 3, 5), "1-2 (5) + 1-2-3 (10) = 15"),
        ("classic", (1, 1, 1, 1, 2, 3), "four 1s: total wiped!"),
        ("heartsdue", (1, 1, 1, 1, 1, 3), "five 1s: total wiped!"),
        ("heartsdue", (6, 6, 6, 6, 6, 1), "five 6s (35) + 1 (5) = 40"),
        ("classic", (6,) * 6, "six 6s = 60"),
        ("classic", (2, 3, 4, 5, 6, 6), "no score"),
        ("classic", (1, 2, 3, 5, 6, 6), "1-2-3 = 10"),
        ("heartsdue", (1, 3, 4, 5, 6, 6), "a lone 1 = 5"),
        ("heartsdue", (1, 1, 1, 2, 3, 4), "1 (5) + 1 (5) + 1-2-3-4 (20) = 30"),
    ],
)
def test_describe(ruleset: oneroll.Ruleset, dice: tuple[int, ...], text: str) -> None:
    assert describe(score_throw(ruleset, dice), ruleset) == text


@pytest.mark.parametrize(
    ("ruleset", "dice"),
    [
        ("classic", (1, 2, 3)),
        ("classic", (1, 2, 3, 4, 5, 6, 6)),
        ("classic", (0, 1, 2, 3, 4, 5)),
        ("classic", (1, 2, 3, 4, 5, 7)),
        ("classic", (True, 2, 3, 4, 5, 6)),
        ("yahtzee", (1, 2, 3, 4, 5, 6)),
    ],
)
def test_bad_input_is_a_value_error(ruleset: str, dice: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        score_throw(ruleset, dice)  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", oneroll.RULESETS)
def test_exact_distribution_counts_every_ordered_throw(ruleset: oneroll.Ruleset) -> None:
    counts: Counter[int] = Counter()
    penalties = 0
    for throw in itertools.product(range(1, 7), repeat=6):
        score = score_throw(ruleset, throw)
        if score.penalty:
            penalties += 1
        else:
            counts[score.points] += 1
    exact = odds.oneroll_odds(ruleset)
    assert exact.points == {p: Fraction(c, 46656) for p, c in sorted(counts.items())}
    assert exact.p_penalty == Fraction(penalties, 46656)

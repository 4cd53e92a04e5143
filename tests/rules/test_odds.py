"""Exact odds: hand-checkable figures, an expectimax through the real rules core, optimality
against fixed policies, and agreement with seeded simulations of the real core."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.games.sequences.odds import advice_text
from bot.rules import odds, oneroll
from bot.rules import pushluck as pl
from bot.rules.dice import ScriptedDice
from bot.sim import dice as simulate

F = Fraction


# --- dice ----------------------------------------------------------------------------------


def test_hand_checkable_probabilities() -> None:
    # The seed's tip: a 3 from three dice.
    assert odds.p_faces_all_show(1, 3) == F(91, 216)
    # First throw: at least one 1 among five dice = 1 - (5/6)^5.
    assert odds.p_faces_all_show(1, 5) == F(4651, 7776)
    assert odds.extension_distribution(1) == (F(5, 6), F(1, 6))
    # Two dice showing 1 and 2: 2 orders out of 36.
    assert odds.p_faces_all_show(2, 2) == F(2, 36)
    # Six dice showing 1..6: 6! of 6^6.
    assert odds.p_faces_all_show(6, 6) == F(720, 46656)


@given(st.integers(1, 5))
def test_extension_distribution_matches_the_cores_extending_dice(d: int) -> None:
    config = pl.PushConfig()
    run = config.faces[: 5 - d]
    counts = Counter(
        len(pl.extending_dice(config, run, throw))
        for throw in itertools.product(range(1, 7), repeat=d)
    )
    assert odds.extension_distribution(d) == tuple(F(counts[j], 6**d) for j in range(d + 1))


# --- an expectimax through the real rules core ---------------------------------------------


def core_optimal_ev(config: pl.PushConfig) -> Fraction:
    """Best expected turn score, found by trying every legal action on every throw (grouped
    by multiset) with ``pushluck.apply`` itself: no tables, no inclusion-exclusion."""
    base = pl.new_game(config, config.seats_range[0])

    def throws(n: int) -> list[tuple[tuple[int, ...], int]]:
        out = []
        for faces in itertools.combinations_with_replacement(range(1, 7), n):
            ways = math.factorial(n)
            for c in Counter(faces).values():
                ways //= math.factorial(c)
            out.append((faces, ways))
        return out

    def value_after(state: pl.PushState) -> Fraction:
        """Value of a state reached by an action: a finished turn, a lock or a decision."""
        if state.last is not None and state.last.turn_over:
            return F(state.last.points)
        if state.phase == "lock":
            return max(
                value_after(pl.apply(state, lock, ScriptedDice([])))
                for lock in pl.legal_actions(state)
            )
        return decide(len(state.run))

    def throw_value(state: pl.PushState, action: pl.Action, n: int) -> Fraction:
        total = F(0)
        for faces, ways in throws(n):
            total += ways * value_after(pl.apply(state, action, ScriptedDice([faces])))
        return total / F(6**n)

    @cache
    def decide(run: int) -> Fraction:
        state = replace(base, phase="decide", run=config.faces[:run])
        best = F(-1)
        for action in pl.legal_actions(state):
            if isinstance(action, pl.Bank):
                value = value_after(pl.apply(state, action, ScriptedDice([])))
            else:
                n = 1 if isinstance(action, pl.BonusThrow) else state.dice_left
                value = throw_value(state, action, n)
            best = max(best, value)
        return best

    return throw_value(base, pl.Throw(), config.n_dice)


@pytest.mark.parametrize("variant", ["standard", "reverse", "extended"])
@pytest.mark.parametrize("soft", [False, True])
def test_tables_match_an_expectimax_through_the_rules_core(variant: pl.Variant, soft: bool) -> None:
    config = pl.PushConfig(variant=variant, soft_last_die=soft)
    assert odds.optimal_turn_ev(variant, soft) == core_optimal_ev(config)


def test_headline_expected_values() -> None:
    assert odds.optimal_turn_ev("standard") == F(264847, 209952)
    assert odds.optimal_turn_ev("reverse") == odds.optimal_turn_ev("standard")
    assert odds.optimal_turn_ev("team") == odds.optimal_turn_ev("standard")
    assert odds.optimal_turn_ev("extended") == F(33013231409, 17414258688)
    table = odds.push_table("standard")
    # One die left from 4: a 1-in-6 push is worth 5/6, far below the 4 in hand.
    assert table[4].ev_push == F(5, 6) and table[4].best == "bank"
    # The bonus throw is worth 10/6 against 5 banked.
    assert table[5].ev_push == F(10, 6) and table[5].best == "bank"
    # Soft last die: a failed bonus keeps 2, so 10/6 + 5/6 * 2.
    assert odds.push_table("standard", True)[5].ev_push == F(10, 6) + F(5, 6) * 2
    assert [e.best for e in table] == ["throw", "push", "bank", "bank", "bank", "bank"]


@pytest.mark.parametrize("variant", ["standard", "extended"])
@pytest.mark.parametrize("soft", [False, True])
def test_locking_everything_is_optimal_outside_sudden(variant: pl.Variant, soft: bool) -> None:
    for entry in odds.push_table(variant, soft):
        assert all(k == extend for extend, k in entry.lock.items())


@pytest.mark.parametrize("variant", ["standard", "reverse", "extended"])
@pytest.mark.parametrize("soft", [False, True])
def test_no_fixed_bank_at_k_policy_beats_the_optimum(variant: pl.Variant, soft: bool) -> None:
    best = odds.optimal_turn_ev(variant, soft)
    n = pl.PushConfig(variant=variant).n_dice
    values = [odds.threshold_turn_ev(variant, soft, k) for k in range(1, n + 2)]
    assert all(v <= best for v in values)
    assert max(values) == best  # the optimum is itself a threshold policy
    assert odds.policy_turn_ev(variant, soft, odds.OptimalPolicy(variant, soft)) == best


# --- Sudden --------------------------------------------------------------------------------


@pytest.mark.parametrize("soft", [False, True])
def test_sudden_value_equals_an_independent_evaluation_of_its_policy(soft: bool) -> None:
    policy = odds.OptimalPolicy("sudden", soft)
    for total in (0, 10, 17, 19, 20):
        assert odds.policy_turns_to_21(soft, policy, total) == odds.expected_turns_to_21(
            total, soft
        )


@dataclass(frozen=True)
class Deviate:
    """The optimal Sudden policy with one decision changed."""

    base: odds.OptimalPolicy
    total: int
    run: int
    extend: int | None  # None: flip bank/push at (total, run); else lock another count
    other: int

    def lock(self, total: int, run: int, extend: int) -> int:
        if (total, run, extend) == (self.total, self.run, self.extend):
            return self.other
        return self.base.lock(total, run, extend)

    def bank(self, total: int, run: int) -> bool:
        if self.extend is None and (total, run) == (self.total, self.run):
            return not self.base.bank(total, run)
        return self.base.bank(total, run)


@pytest.mark.parametrize("soft", [False, True])
def test_no_single_change_of_the_sudden_policy_needs_fewer_turns(soft: bool) -> None:
    base = odds.OptimalPolicy("sudden", soft)
    best = odds.expected_turns_to_21(0, soft)
    n = 5
    for total in range(odds.SUDDEN_GOAL):
        for run in range(n + 1):
            candidates = [] if run == 0 else [Deviate(base, total, run, None, 0)]
            for extend in range(1, n - run + 1):
                for k in range(1, extend + 1):
                    if k != base.lock(total, run, extend):
                        candidates.append(Deviate(base, total, run, extend, k))
            for policy in candidates:
                try:
                    turns = odds.policy_turns_to_21(soft, policy, total)
                except ValueError:
                    continue  # that change never reaches 21
                assert turns >= odds.expected_turns_to_21(total, soft)
    assert best == odds.policy_turns_to_21(soft, base)


def test_sudden_beats_every_threshold_policy() -> None:
    best = odds.expected_turns_to_21(0)
    for k in range(1, 6):
        assert odds.policy_turns_to_21(False, odds.ThresholdPolicy(k)) >= best, k
    # Never banking by choice (always the bonus throw) can never fill the last few points
    # exactly: no finite expectation.
    with pytest.raises(ValueError, match="never leaves a total"):
        odds.policy_turns_to_21(False, odds.ThresholdPolicy(6))


def test_sudden_locks_fewer_to_land_on_21() -> None:
    table = odds.sudden_table()
    # On 19 the first throw shows 1-2-3: lock 1-2 and bank 2.
    assert table[19][0].lock[3] == 2
    assert table[19][2].best == "bank" and table[19][2].turns_bank == 0
    # On 20 a 1 wins at once.
    assert table[20][1].best == "bank"
    assert odds.expected_turns_to_21(20) == 1 / (1 - F(5, 6) ** 5)


# --- one-roll ------------------------------------------------------------------------------


def test_oneroll_hand_checkable_figures() -> None:
    classic = odds.oneroll_odds("classic")
    # Four 1s: C(6,4) 5^2 + C(6,5) 5 + 1 = 406 throws.
    assert classic.p_penalty == F(406, 46656)
    assert classic.points[60] == F(1, 46656)
    # Five 6s and one other die (5 faces x 6 places), the odd 1 adds nothing in classic.
    assert classic.points[30] == F(30, 46656)
    assert sum(classic.points.values()) + classic.p_penalty == 1
    hearts = odds.oneroll_odds("heartsdue")
    # Hearts Due scores whenever a 1 shows, bar the penalty: no score = no 1 at all, less
    # the 25 throws of five or six 6s without a 1, which score anyway.
    assert hearts.p_no_score == F(5**6 - 25, 6**6) + hearts.p_penalty
    assert hearts.points[40] == F(6, 46656)


@pytest.mark.parametrize("ruleset", oneroll.RULESETS)
def test_expected_turns_to_100_agrees_with_value_iteration(ruleset: oneroll.Ruleset) -> None:
    o = odds.oneroll_odds(ruleset)
    points = [(s, float(p)) for s, p in o.points.items()]
    pen = float(o.p_penalty)
    e = dict.fromkeys(range(0, 100, 5), 0.0)
    for _ in range(3000):
        e = {t: 1 + sum(p * e.get(t + s, 0.0) for s, p in points) + pen * e[0] for t in e}
    assert e[0] == pytest.approx(float(odds.expected_turns_to_target(ruleset)), rel=1e-9)


def test_reach_within_is_a_distribution_function() -> None:
    assert odds.p_reach_within("classic", 0) == 0
    assert (
        odds.p_reach_within("classic", 1, target=5) == 1 - odds.oneroll_odds("classic").p_no_score
    )
    values = [odds.p_reach_within("heartsdue", n) for n in range(1, 12)]
    assert values == sorted(values)


# --- advice ----------------------------------------------------------------------------------


def decide_state(variant: pl.Variant, run: int, total: int = 0) -> pl.PushState:
    config = pl.PushConfig(variant=variant)
    state = pl.new_game(config, config.seats_range[0])
    state = replace(state, phase="decide", run=config.faces[:run])
    return replace(state, totals=(total, *state.totals[1:]))


def test_advice_text_for_a_push_or_bank() -> None:
    advice = odds.advice(decide_state("standard", 2))
    assert advice_text(advice) == (
        "Push: 42.1 % to extend, 57.9 % to bust; pushing is worth 1.43 points on average, "
        "banking is worth 2: bank."
    )
    assert (advice.p_extend, advice.best, advice.ev_bank) == (F(91, 216), "bank", F(2))


def test_advice_for_the_opening_throw_and_the_bonus() -> None:
    config = pl.PushConfig(variant="reverse")
    advice = odds.advice(pl.new_game(config, 2))
    assert advice.best == "throw" and advice.p_extend == F(4651, 7776)
    bonus = odds.advice(decide_state("reverse", 5))
    assert bonus.best == "bank" and bonus.ev_push == F(10, 6)
    assert "throw the 1 for 10 points" in advice_text(bonus)


def test_advice_in_sudden_counts_turns_and_locks_fewer() -> None:
    config = pl.PushConfig(variant="sudden")
    state = replace(pl.new_game(config, 2), totals=(19, 0))
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 2, 3, 6, 6)]))
    advice = odds.advice(state)
    assert advice.best == "lock" and advice.lock == 2
    assert advice_text(advice).startswith("Lock 2 of the 3 extending dice, then bank.")
    assert advice.ev_push is None and advice.turns_bank == 0


def test_advice_on_a_finished_game_is_refused() -> None:
    state = replace(decide_state("standard", 1), phase="over")
    with pytest.raises(IllegalAction):
        odds.advice(state)


@pytest.mark.parametrize("variant", pl.VARIANTS)
def test_advice_exists_for_every_decision_point(variant: pl.Variant) -> None:
    config = pl.PushConfig(variant=variant)
    for total in (0, 18) if variant == "sudden" else (0,):
        for state in odds.decision_states(config, total):
            advice = odds.advice(state)
            assert advice_text(advice) and 0 <= advice.p_bust <= 1
            if state.phase == "lock":
                assert advice.lock is not None and pl.Lock(advice.lock) in pl.legal_actions(state)


# --- seeded simulations of the real core -----------------------------------------------------

TURNS = 20_000


def within(empirical: list[int], exact: Fraction, sigmas: float = 4.0) -> bool:
    n = len(empirical)
    mean = sum(empirical) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in empirical) / (n - 1))
    return abs(mean - float(exact)) <= sigmas * sd / math.sqrt(n)


@pytest.mark.parametrize("variant", ["standard", "extended"])
def test_simulated_turns_agree_with_the_exact_value(variant: pl.Variant) -> None:
    config = pl.PushConfig(variant=variant, rounds=pl.MAX_ROUNDS)
    sample = simulate.play_push_turns(config, "optimal", TURNS, seed=20261130)
    assert within(sample.turn_points, odds.optimal_turn_ev(variant))


def test_simulated_sudden_games_agree_with_expected_turns() -> None:
    config = pl.PushConfig(variant="sudden", rounds=None)
    sample = simulate.play_push_turns(config, "optimal", TURNS, seed=7)
    assert len(sample.games_turns) > 500
    assert within(sample.games_turns, odds.expected_turns_to_21())


@pytest.mark.parametrize("ruleset", oneroll.RULESETS)
def test_simulated_throws_agree_with_the_exact_figures(ruleset: oneroll.Ruleset) -> None:
    sample = simulate.play_oneroll_turns(ruleset, TURNS, seed=11)
    exact = odds.oneroll_odds(ruleset)
    assert within([s.points for s in sample.throws], exact.mean_points)
    assert within([int(s.penalty) for s in sample.throws], exact.p_penalty)
    assert within(sample.games_turns, odds.expected_turns_to_target(ruleset))

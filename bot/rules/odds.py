"""Exact odds for push-your-luck Sequences and the one-roll games, as ``Fraction``s; how they are
computed: docs/odds.md, "How bot/rules/odds.py computes them"."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Literal, Protocol

from bot.errors import IllegalAction
from bot.rules import oneroll, pushluck

PushVariant = pushluck.Variant
PUSH_VARIANTS: tuple[PushVariant, ...] = pushluck.VARIANTS
SUDDEN_GOAL = pushluck.SUDDEN_TARGET
ONE = Fraction(1)
ZERO = Fraction(0)


# --- dice ----------------------------------------------------------------------------------


@cache
def p_faces_all_show(j: int, d: int) -> Fraction:
    """Probability that ``j`` given distinct faces all show among ``d`` dice."""
    total = sum((-1) ** i * math.comb(j, i) * (6 - i) ** d for i in range(j + 1))
    return Fraction(total, 6**d)


@cache
def extension_distribution(d: int) -> tuple[Fraction, ...]:
    """``P(the run grows by exactly j)`` for j = 0..d when ``d`` dice are thrown (index 0: the
    bust)."""
    at_least = [p_faces_all_show(j, d) for j in range(d + 1)] + [ZERO]
    return tuple(at_least[j] - at_least[j + 1] for j in range(d + 1))


# --- the rules of a turn, as numbers -------------------------------------------------------


@dataclass(frozen=True)
class TurnRules:
    """What a push-your-luck turn pays: ``bank[r]`` banks a run of ``r``; with ``bonus``, a full run
    may be risked on one die for it."""

    variant: PushVariant
    soft_last_die: bool
    n_dice: int
    bank: tuple[int, ...]
    bonus: int | None

    def bust_score(self, run: int) -> int:
        """Score of a bust from a run of ``run``: soft last die pays half a one-die bust."""
        dice_thrown = max(self.n_dice - run, 1)
        return run // 2 if self.soft_last_die and dice_thrown == 1 else 0


@cache
def turn_rules(variant: PushVariant, soft_last_die: bool = False) -> TurnRules:
    """The payouts, read from the rules core so the odds cannot drift from the game."""
    if variant not in PUSH_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    config = pushluck.PushConfig(variant=variant, soft_last_die=soft_last_die)
    bank = tuple(pushluck.bank_value(config, run) for run in range(config.n_dice + 1))
    bonus = pushluck.BONUS_POINTS if config.has_bonus else None
    return TurnRules(variant, soft_last_die, config.n_dice, bank, bonus)


# --- expected score of a turn (every variant but Sudden) -----------------------------------

Best = Literal["bank", "push", "bonus", "throw", "end"]


@dataclass(frozen=True)
class StateOdds:
    """Odds at one decision point, a run of ``run`` locked (0: the turn's forced first throw);
    ``lock`` maps a throw's extension to the best count to lock."""

    run: int
    dice: int
    p_extend: Fraction
    p_bust: Fraction
    ev_push: Fraction | None
    ev_bank: Fraction | None
    best: Best
    value: Fraction
    lock: Mapping[int, int]


def _push_dice(rules: TurnRules, run: int) -> int:
    return 1 if run == rules.n_dice else rules.n_dice - run


def _push_outcomes(rules: TurnRules, run: int) -> tuple[Fraction, ...]:
    """Distribution of how far a push from ``run`` extends the run (index 0 = bust)."""
    if run == rules.n_dice:
        # The bonus throw: one die, one face wins.
        return (Fraction(5, 6), Fraction(1, 6))
    return extension_distribution(rules.n_dice - run)


def _best_lock(values: Mapping[int, Fraction], run: int, extend: int) -> tuple[int, Fraction]:
    """Best count to lock when ``extend`` dice extend ``run``: the most on a tie."""
    best_k, best_v = extend, values[run + extend]
    for k in range(extend - 1, 0, -1):
        if values[run + k] > best_v:
            best_k, best_v = k, values[run + k]
    return best_k, best_v


@cache
def push_table(variant: PushVariant, soft_last_die: bool = False) -> tuple[StateOdds, ...]:
    """The optimal policy for a turn's expected score, per run length; a tie goes to the bank (the
    same score without the risk). Not for Sudden: ``sudden_table``."""
    if variant == "sudden":
        raise ValueError("Sudden maximises no score: use sudden_table")
    rules = turn_rules(variant, soft_last_die)
    n = rules.n_dice
    values: dict[int, Fraction] = {}
    table: dict[int, StateOdds] = {}
    for run in range(n, -1, -1):
        outcomes = _push_outcomes(rules, run)
        p_bust = outcomes[0]
        if run == n and rules.bonus is None:
            value = Fraction(rules.bank[n])
            table[run] = StateOdds(
                run, 0, ZERO, ZERO, None, value, "end", value, MappingProxyType({})
            )
            values[run] = value
            continue
        lock: dict[int, int] = {}
        ev_push = p_bust * rules.bust_score(run)
        if run == n:
            ev_push += outcomes[1] * (rules.bonus or 0)
        else:
            for extend in range(1, len(outcomes)):
                k, v = _best_lock(values, run, extend)
                lock[extend] = k
                ev_push += outcomes[extend] * v
        ev_bank = None if run == 0 else Fraction(rules.bank[run])
        if ev_bank is None:
            best: Best = "throw"
            value = ev_push
        elif ev_push > ev_bank:
            best = "bonus" if run == n else "push"
            value = ev_push
        else:
            best, value = "bank", ev_bank
        values[run] = value
        table[run] = StateOdds(
            run,
            _push_dice(rules, run),
            ONE - p_bust,
            p_bust,
            ev_push,
            ev_bank,
            best,
            value,
            MappingProxyType(lock),
        )
    return tuple(table[run] for run in range(n + 1))


def optimal_turn_ev(variant: PushVariant, soft_last_die: bool = False) -> Fraction:
    """Expected score of a whole turn played to maximise it."""
    return push_table(variant, soft_last_die)[0].value


# --- any fixed policy, evaluated exactly ---------------------------------------------------


class TurnPolicy(Protocol):
    """A way to play a push-your-luck turn, for exact evaluation: ``total`` matters only in Sudden,
    ``extend`` is how many dice of the latest throw extend ``run``."""

    def lock(self, total: int, run: int, extend: int) -> int: ...

    def bank(self, total: int, run: int) -> bool:
        """True to bank; False to push (at a full run: to take the bonus throw)."""
        ...


def turn_score_distribution(
    variant: PushVariant, soft_last_die: bool, policy: TurnPolicy, total: int = 0
) -> dict[int, Fraction]:
    """Exact distribution of the points a turn scores under ``policy``, before Sudden's
    overshoot rule (the caller applies it: it depends only on the score)."""
    rules = turn_rules(variant, soft_last_die)
    n = rules.n_dice
    memo: dict[int, dict[int, Fraction]] = {}

    def add(into: dict[int, Fraction], dist: Mapping[int, Fraction], p: Fraction) -> None:
        for score, q in dist.items():
            into[score] = into.get(score, ZERO) + p * q

    def decide(run: int) -> dict[int, Fraction]:
        if run not in memo:
            if (run == n and rules.bonus is None) or policy.bank(total, run):
                memo[run] = {rules.bank[run]: ONE}
            else:
                memo[run] = push(run)
        return memo[run]

    def push(run: int) -> dict[int, Fraction]:
        outcomes = _push_outcomes(rules, run)
        dist = {rules.bust_score(run): outcomes[0]}
        if run == n:
            add(dist, {rules.bonus or 0: ONE}, outcomes[1])
            return dist
        for extend in range(1, len(outcomes)):
            k = policy.lock(total, run, extend)
            if not 1 <= k <= extend:
                raise ValueError(f"policy locks {k} of {extend} extending dice")
            add(dist, decide(run + k), outcomes[extend])
        return dist

    return push(0)


def policy_turn_ev(variant: PushVariant, soft_last_die: bool, policy: TurnPolicy) -> Fraction:
    """Expected score of a turn played by ``policy``."""
    dist = turn_score_distribution(variant, soft_last_die, policy)
    return sum((score * p for score, p in dist.items()), start=ZERO)


def policy_turns_to_21(soft_last_die: bool, policy: TurnPolicy, total: int = 0) -> Fraction:
    """Expected Sudden turns from ``total`` to exactly 21 under ``policy``; ``ValueError`` when the
    policy can be stuck on a total."""
    expected: dict[int, Fraction] = {SUDDEN_GOAL: ZERO}
    for t in range(SUDDEN_GOAL - 1, total - 1, -1):
        dist = turn_score_distribution("sudden", soft_last_die, policy, t)
        moves = {s: p for s, p in dist.items() if s > 0 and t + s <= SUDDEN_GOAL}
        p_stay = ONE - sum(moves.values(), start=ZERO)
        if p_stay == ONE:
            raise ValueError(f"the policy never leaves a total of {t}")
        fixed = ONE + sum((p * expected[t + s] for s, p in moves.items()), start=ZERO)
        expected[t] = fixed / (ONE - p_stay)
    return expected[total]


@dataclass(frozen=True)
class ThresholdPolicy:
    """Lock every extending die (in Sudden: what the total has room for) and bank at ``bank_at`` or
    an exact 21; ``bank_at = n_dice + 1`` takes the bonus throw."""

    bank_at: int

    def lock(self, total: int, run: int, extend: int) -> int:
        room = SUDDEN_GOAL - total - run
        return min(extend, room) if room >= 1 else extend

    def bank(self, total: int, run: int) -> bool:
        need = SUDDEN_GOAL - total
        return run >= 1 and (run >= self.bank_at or run >= need)


@cache
def threshold_turn_ev(variant: PushVariant, soft_last_die: bool, bank_at: int) -> Fraction:
    """Expected score of "lock everything, bank once the run is >= bank_at"."""
    return policy_turn_ev(variant, soft_last_die, _FullLockThreshold(bank_at))


@dataclass(frozen=True)
class _FullLockThreshold:
    """``ThresholdPolicy`` outside Sudden: always lock every extending die."""

    bank_at: int

    def lock(self, total: int, run: int, extend: int) -> int:
        return extend

    def bank(self, total: int, run: int) -> bool:
        return run >= self.bank_at


@dataclass(frozen=True)
class OptimalPolicy:
    """The exact tables as a ``TurnPolicy``: used to check them by independent evaluation."""

    variant: PushVariant
    soft_last_die: bool = False

    def lock(self, total: int, run: int, extend: int) -> int:
        if self.variant == "sudden":
            return sudden_table(self.soft_last_die)[total][run].lock[extend]
        return push_table(self.variant, self.soft_last_die)[run].lock[extend]

    def bank(self, total: int, run: int) -> bool:
        if self.variant == "sudden":
            return sudden_table(self.soft_last_die)[total][run].best == "bank"
        return push_table(self.variant, self.soft_last_die)[run].best == "bank"


# --- Sudden: expected turns to exactly 21 --------------------------------------------------


@dataclass(frozen=True)
class _Cost:
    """Expected remaining turns after this turn, ``fixed + stay * E(total)``: ``stay`` is the chance
    the turn leaves the total unchanged."""

    fixed: Fraction
    stay: Fraction

    def at(self, lam: Fraction) -> Fraction:
        return self.fixed + self.stay * lam


@dataclass(frozen=True)
class SuddenStateOdds:
    """Odds at one decision point of a Sudden turn: expected further turns to exactly 21 if the
    player pushes or banks now (``turns``: the better)."""

    total: int
    run: int
    dice: int
    p_extend: Fraction
    p_bust: Fraction
    turns_push: Fraction | None
    turns_bank: Fraction | None
    best: Best
    turns: Fraction
    lock: Mapping[int, int]


def _sudden_turn(
    rules: TurnRules, total: int, lam: Fraction, later: Callable[[int], Fraction]
) -> tuple[dict[int, _Cost], dict[int, _Cost | None], dict[int, dict[int, int]]]:
    """The best play of one turn from ``total`` if staying put costs ``lam`` more turns;
    ``later(t)`` is known for ``t > total``."""
    n = rules.n_dice

    def ended(score: int) -> _Cost:
        reached = total + score
        if score == 0 or reached > SUDDEN_GOAL:
            return _Cost(ZERO, ONE)
        return _Cost(later(reached), ZERO)

    def better(a: _Cost, b: _Cost) -> bool:
        return a.at(lam) < b.at(lam)

    best_cost: dict[int, _Cost] = {}
    push_cost: dict[int, _Cost | None] = {}
    locks: dict[int, dict[int, int]] = {}
    for run in range(n, -1, -1):
        bank = ended(rules.bank[run]) if run >= 1 else None
        if run == n and rules.bonus is None:
            assert bank is not None
            best_cost[run], push_cost[run], locks[run] = bank, None, {}
            continue
        outcomes = _push_outcomes(rules, run)
        bust = ended(rules.bust_score(run))
        fixed, stay = outcomes[0] * bust.fixed, outcomes[0] * bust.stay
        lock: dict[int, int] = {}
        if run == n:
            won = ended(rules.bonus or 0)
            fixed += outcomes[1] * won.fixed
            stay += outcomes[1] * won.stay
        else:
            for extend in range(1, len(outcomes)):
                # The most dice on a tie, as in the expected-score table.
                k = extend
                for fewer in range(extend - 1, 0, -1):
                    if better(best_cost[run + fewer], best_cost[run + k]):
                        k = fewer
                lock[extend] = k
                fixed += outcomes[extend] * best_cost[run + k].fixed
                stay += outcomes[extend] * best_cost[run + k].stay
        push = _Cost(fixed, stay)
        push_cost[run] = push
        locks[run] = lock
        # A tie goes to the bank, as in the expected-score table.
        best_cost[run] = push if bank is None or better(push, bank) else bank
    return best_cost, push_cost, locks


@cache
def sudden_table(soft_last_die: bool = False) -> tuple[tuple[SuddenStateOdds, ...], ...]:
    """Optimal Sudden play, ``table[total][run]`` for totals 0..20, minimising expected turns;
    solved exactly by Dinkelbach's iteration (docs/odds.md says how and why it ends)."""
    rules = turn_rules("sudden", soft_last_die)
    expected: dict[int, Fraction] = {SUDDEN_GOAL: ZERO}
    rows: dict[int, tuple[SuddenStateOdds, ...]] = {}
    for total in range(SUDDEN_GOAL - 1, -1, -1):
        # Start from a policy that surely ends: bank the first 1 (a total of 20 or less has
        # room for it), which stays put only when no 1 shows among the five dice.
        lam = (ONE + expected[total + 1]) / (ONE - extension_distribution(rules.n_dice)[0])
        while True:
            best_cost, push_cost, locks = _sudden_turn(rules, total, lam, expected.__getitem__)
            start = best_cost[0]
            new_lam = (ONE + start.fixed) / (ONE - start.stay)
            if new_lam == lam:
                break
            lam = new_lam
        expected[total] = lam
        row = []
        for run in range(rules.n_dice + 1):
            outcomes = _push_outcomes(rules, run)
            push = push_cost[run]
            bank_score = rules.bank[run]
            bank_turns: Fraction | None = None
            if run >= 1:
                reached = total + bank_score
                bank_turns = expected[reached] if reached <= SUDDEN_GOAL else lam
            turns_push = None if push is None else push.at(lam)
            best: Best
            if run == 0:
                best = "throw"
            elif turns_push is None:
                best = "end"
            elif bank_turns is not None and bank_turns <= turns_push:
                best = "bank"
            else:
                best = "bonus" if run == rules.n_dice else "push"
            row.append(
                SuddenStateOdds(
                    total=total,
                    run=run,
                    dice=0 if push is None else _push_dice(rules, run),
                    p_extend=ZERO if push is None else ONE - outcomes[0],
                    p_bust=ZERO if push is None else outcomes[0],
                    turns_push=turns_push,
                    turns_bank=bank_turns,
                    best=best,
                    turns=best_cost[run].at(lam),
                    # Read-only: the tables are cached and shared.
                    lock=MappingProxyType(locks[run]),
                )
            )
        rows[total] = tuple(row)
    return tuple(rows[total] for total in range(SUDDEN_GOAL))


def expected_turns_to_21(total: int = 0, soft_last_die: bool = False) -> Fraction:
    """Expected number of turns from ``total`` to exactly 21 under the optimal policy."""
    if total == SUDDEN_GOAL:
        return ZERO
    if not 0 <= total < SUDDEN_GOAL:
        raise ValueError(f"a Sudden total is 0 to {SUDDEN_GOAL}, got {total}")
    return ONE + sudden_table(soft_last_die)[total][0].turns


# --- one-roll games ------------------------------------------------------------------------


@dataclass(frozen=True)
class OneRollOdds:
    """Figures of one throw of a one-roll ruleset: ``points`` excludes penalty throws
    (``p_penalty``); ``p_no_score`` includes them."""

    ruleset: oneroll.Ruleset
    points: Mapping[int, Fraction]
    p_penalty: Fraction
    p_no_score: Fraction
    mean_points: Fraction


@cache
def oneroll_odds(ruleset: oneroll.Ruleset) -> OneRollOdds:
    weights: Counter[int] = Counter()
    penalty = 0
    for multiset in itertools.combinations_with_replacement(range(1, 7), oneroll.N_DICE):
        # Number of ordered throws showing this multiset.
        ways = math.factorial(oneroll.N_DICE)
        for count in Counter(multiset).values():
            ways //= math.factorial(count)
        score = oneroll.score_throw(ruleset, multiset)
        if score.penalty:
            penalty += ways
        else:
            weights[score.points] += ways
    throws = 6**oneroll.N_DICE
    points = {p: Fraction(w, throws) for p, w in sorted(weights.items())}
    p_penalty = Fraction(penalty, throws)
    mean = sum((p * q for p, q in points.items()), start=ZERO)
    return OneRollOdds(ruleset, points, p_penalty, points.get(0, ZERO) + p_penalty, mean)


@cache
def expected_turns_to_target(
    ruleset: oneroll.Ruleset, target: int = 100, penalty: bool = True
) -> Fraction:
    """Expected throws for one player to reach ``target`` from 0, solved exactly; ``penalty=False``
    counts a penalty throw as scoring 0."""
    odds = oneroll_odds(ruleset)
    p_stay = odds.points.get(0, ZERO) + (ZERO if penalty else odds.p_penalty)
    p_wipe = odds.p_penalty if penalty else ZERO
    moves = {s: p for s, p in odds.points.items() if s > 0}
    a: dict[int, Fraction] = {}
    b: dict[int, Fraction] = {}
    for total in range(5 * ((target - 1) // 5), -1, -5):
        fixed, coeff = ONE, p_wipe
        for s, p in moves.items():
            if total + s < target:
                fixed += p * a[total + s]
                coeff += p * b[total + s]
        # E(t) (1 - p_stay) = fixed + coeff * E(0)
        a[total] = fixed / (ONE - p_stay)
        b[total] = coeff / (ONE - p_stay)
    return a[0] / (ONE - b[0])


@cache
def p_reach_within(ruleset: oneroll.Ruleset, turns: int, target: int = 100) -> Fraction:
    """Probability that one player reaches ``target`` within ``turns`` throws."""
    odds = oneroll_odds(ruleset)
    dist: dict[int, Fraction] = {0: ONE}
    reached = ZERO
    for _ in range(turns):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            if odds.p_penalty:
                nxt[0] = nxt.get(0, ZERO) + p * odds.p_penalty
            for s, q in odds.points.items():
                if total + s >= target:
                    reached += p * q
                else:
                    nxt[total + s] = nxt.get(total + s, ZERO) + p * q
        dist = nxt
    return reached


# --- advice for the Odds button --------------------------------------------------------------

Move = Literal["throw", "lock", "bank", "push", "bonus"]


@dataclass(frozen=True)
class Advice:
    """What the Odds button shows for a push-your-luck state, as values that
    ``bot.games.sequences.odds.advice_text`` words. The fields are listed in docs/odds.md, "The Odds
    button's values"."""

    p_extend: Fraction
    p_bust: Fraction
    ev_push: Fraction | None
    ev_bank: Fraction | None
    best: Move
    lock: int | None = None
    turns_push: Fraction | None = None
    turns_bank: Fraction | None = None
    phase: str = "decide"
    sudden: bool = False
    total: int = 0
    turns: Fraction | None = None
    extend: int = 0
    then: Move | None = None
    full_run: int | None = None
    bonus: bool = False
    bonus_face: int = 0
    bonus_points: int | None = None
    bank_total: int = 0


def advice(state: pushluck.PushState) -> Advice:
    """The odds and the best move for the seat to move: this turn's expected score, or in Sudden the
    turns to exactly 21; ``IllegalAction`` once the game is over."""
    if state.phase == "over" or state.outcome is not None:
        raise IllegalAction(code="odds.over")
    config = state.config
    total = state.totals[state.current] if config.variant == "sudden" else 0
    extend = len(state.extending) if state.phase == "lock" else 0
    return _advice(config.variant, config.soft_last_die, state.phase, len(state.run), extend, total)


@cache
def _advice(
    variant: PushVariant, soft: bool, phase: str, run: int, extend: int, total: int
) -> Advice:
    rules = turn_rules(variant, soft)
    first = rules.n_dice  # the opening throw uses every die
    sudden = variant == "sudden"
    if phase == "throw":
        p_bust = extension_distribution(first)[0]
        if sudden:
            turns = expected_turns_to_21(total, soft)
            return Advice(
                1 - p_bust, p_bust, None, None, "throw",
                phase="throw", sudden=True, total=total, turns=turns,
            )  # fmt: skip
        ev = optimal_turn_ev(variant, soft)
        return Advice(1 - p_bust, p_bust, ev, None, "throw", phase="throw")
    if phase == "lock":
        if sudden:
            k = sudden_table(soft)[total][run].lock[extend]
        else:
            k = push_table(variant, soft)[run].lock[extend]
        if run + k == rules.n_dice and rules.bonus is None:
            full = rules.bank[run + k]
            return Advice(
                ZERO, ZERO, None, None, "lock", lock=k,
                phase="lock", sudden=sudden, total=total, extend=extend, full_run=full,
            )  # fmt: skip
        then = _advice(variant, soft, "decide", run + k, 0, total)
        return replace(then, best="lock", lock=k, phase="lock", extend=extend, then=then.best)
    if phase != "decide":
        raise IllegalAction(code="odds.nothing")
    bonus = run == rules.n_dice
    face = pushluck.PushConfig(variant=variant).bonus_face if bonus else 0
    points = rules.bonus if bonus else None
    if sudden:
        row = sudden_table(soft)[total][run]
        assert row.turns_push is not None and row.turns_bank is not None
        best: Move = "bank" if row.best == "bank" else ("bonus" if bonus else "push")
        return Advice(
            row.p_extend, row.p_bust, None, None, best,
            turns_push=row.turns_push, turns_bank=row.turns_bank,
            sudden=True, total=total, bank_total=total + rules.bank[run],
            bonus=bonus, bonus_face=face, bonus_points=points,
        )  # fmt: skip
    entry = push_table(variant, soft)[run]
    assert entry.ev_push is not None and entry.ev_bank is not None
    best = "bank" if entry.best == "bank" else ("bonus" if bonus else "push")
    return Advice(
        entry.p_extend, entry.p_bust, entry.ev_push, entry.ev_bank, best,
        bonus=bonus, bonus_face=face, bonus_points=points,
    )  # fmt: skip


def decision_states(config: pushluck.PushConfig, total: int = 0) -> list[pushluck.PushState]:
    """One state for every decision point of a turn (seat 0, ``total`` in Sudden): the
    opening throw, every lock choice and every bank-or-push. For tables and benchmarks."""
    base = pushluck.new_game(config, config.seats_range[0])
    if config.variant == "sudden":
        base = replace(base, totals=(total, *base.totals[1:]))
    faces = config.faces
    states = [base]
    for run in range(config.n_dice):
        for extend in range(1, config.n_dice - run + 1):
            # Spare dice repeat the first extending face: duplicates never extend further.
            throw = faces[run : run + extend] + (faces[run],) * (config.n_dice - run - extend)
            states.append(replace(base, phase="lock", run=faces[:run], throw=throw))
    last = config.n_dice if config.has_bonus else config.n_dice - 1
    for run in range(1, last + 1):
        states.append(replace(base, phase="decide", run=faces[:run]))
    return states


def clear_caches() -> None:
    """Forget every cached figure (for cold benchmarks)."""
    for cached in (
        p_faces_all_show,
        extension_distribution,
        turn_rules,
        push_table,
        threshold_turn_ev,
        sudden_table,
        oneroll_odds,
        expected_turns_to_target,
        p_reach_within,
        _advice,
    ):
        cached.cache_clear()

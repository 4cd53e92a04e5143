"""The exact odds (was ``bench-odds``): each table built cold, every decision point's advice
cold and cached, and everything built at once. No harness and no database."""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.report import Report, Sizes
from bot.rules import odds, oneroll
from bot.rules import pushluck as pl


def _ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def builds() -> list[tuple[str, Callable[[], object]]]:
    """(name, build) of every table, as the old command listed them."""
    found: list[tuple[str, Callable[[], object]]] = []
    for variant in ("standard", "reverse", "extended"):
        for soft in (False, True):
            found.append(
                (f"push_table({variant}, soft={soft})", _bind(odds.push_table, variant, soft))
            )
    for soft in (False, True):
        found.append((f"sudden_table(soft={soft})", _bind(odds.sudden_table, soft)))
    for ruleset in oneroll.RULESETS:
        found.append((f"oneroll_odds({ruleset})", _bind(odds.oneroll_odds, ruleset)))
        found.append(
            (
                f"expected_turns_to_target({ruleset})",
                _bind(odds.expected_turns_to_target, ruleset),
            )
        )
    return found


def _bind(fn: Callable[..., object], *args: object) -> Callable[[], object]:
    return lambda: fn(*args)


def build_everything() -> None:
    for variant in ("standard", "reverse", "team", "extended"):
        for soft in (False, True):
            odds.push_table(variant, soft)
    for soft in (False, True):
        odds.sudden_table(soft)
    for ruleset in oneroll.RULESETS:
        odds.oneroll_odds(ruleset)
        odds.expected_turns_to_target(ruleset)


def odds_section(sizes: Sizes, report: Report) -> None:
    for name, build in builds():
        odds.clear_caches()
        report.add(f"odds.build.{name}", f"odds: {name}, cold", "ms", _ms(build), goal="keep it")
    repeat = max(1, sizes.odds_repeat)
    worst_cold = worst_cached = 0.0
    for variant in pl.VARIANTS:
        config = pl.PushConfig(variant=variant)
        totals = range(odds.SUDDEN_GOAL) if variant == "sudden" else range(1)
        states = [s for t in totals for s in odds.decision_states(config, t)]
        odds.clear_caches()
        cold = [_ms(_bind(odds.advice, s)) for s in states]
        started = time.perf_counter()
        for _ in range(repeat):
            for state in states:
                odds.advice(state)
        cached = (time.perf_counter() - started) / (repeat * len(states)) * 1e6
        worst_cold, worst_cached = max(worst_cold, max(cold)), max(worst_cached, cached)
        where = f"odds: advice, {variant} ({len(states)} states)"
        report.add(f"odds.advice.{variant}.first", f"{where}: first call", "ms", cold[0])
        report.add(f"odds.advice.{variant}.cold", f"{where}: slowest cold", "ms", max(cold))
        report.add(
            f"odds.advice.{variant}.cached", f"{where}: cached (mean of {repeat})", "µs", cached
        )
    odds.clear_caches()
    report.add(
        "odds.everything",
        "odds: everything (all tables, both soft settings, one-roll figures)",
        "ms",
        _ms(build_everything),
        goal="keep it",
    )
    report.add("odds.worst.cold", "odds: worst single advice call, cold", "ms", worst_cold)
    report.add("odds.worst.cached", "odds: worst single advice call, cached", "µs", worst_cached)

"""``python -m bot bench-odds``: how long the exact odds take, cold and cached.

Timings live here, not in the tests, because they depend on the machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from bot.rules import odds, oneroll
from bot.rules import pushluck as pl


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=200, help="cached calls per state")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(args: argparse.Namespace) -> int:
    repeat = max(1, args.repeat)
    print("table builds, cold (caches cleared before each):")
    builds: list[tuple[str, Callable[[], object]]] = []
    for variant in ("standard", "reverse", "extended"):
        for soft in (False, True):
            builds.append((f"push_table({variant}, soft={soft})", _bind_push(variant, soft)))
    for soft in (False, True):
        builds.append((f"sudden_table(soft={soft})", _bind_sudden(soft)))
    for ruleset in oneroll.RULESETS:
        builds.append((f"oneroll_odds({ruleset})", _bind_oneroll(ruleset)))
        builds.append((f"expected_turns_to_target({ruleset})", _bind_turns(ruleset)))
    for name, fn in builds:
        odds.clear_caches()
        print(f"  {name:40} {_ms(_time(fn))}")

    print(f"advice(state) for every decision point, cold and cached (mean of {repeat}):")
    worst_cold = worst_cached = 0.0
    for variant in pl.VARIANTS:
        config = pl.PushConfig(variant=variant)
        totals = range(odds.SUDDEN_GOAL) if variant == "sudden" else range(1)
        states = [s for t in totals for s in odds.decision_states(config, t)]
        odds.clear_caches()
        cold = [_time(_bind_advice(s)) for s in states]
        start = time.perf_counter()
        for _ in range(repeat):
            for s in states:
                odds.advice(s)
        cached = (time.perf_counter() - start) / (repeat * len(states))
        worst_cold = max(worst_cold, max(cold))
        worst_cached = max(worst_cached, cached)
        print(
            f"  {variant:9} {len(states):4} states: first call {_ms(cold[0])}, "
            f"slowest cold {_ms(max(cold))}, cached {cached * 1e6:7.2f} µs"
        )
    odds.clear_caches()
    everything = _time(_build_everything)
    print(f"everything (all tables, both soft settings, one-roll figures): {_ms(everything)}")
    print(f"worst single advice call: cold {_ms(worst_cold)}, cached {worst_cached * 1e6:.2f} µs")
    return 0


def _bind_push(variant: pl.Variant, soft: bool) -> Callable[[], object]:
    return lambda: odds.push_table(variant, soft)


def _bind_sudden(soft: bool) -> Callable[[], object]:
    return lambda: odds.sudden_table(soft)


def _bind_oneroll(ruleset: oneroll.Ruleset) -> Callable[[], object]:
    return lambda: odds.oneroll_odds(ruleset)


def _bind_turns(ruleset: oneroll.Ruleset) -> Callable[[], object]:
    return lambda: odds.expected_turns_to_target(ruleset)


def _bind_advice(state: pl.PushState) -> Callable[[], object]:
    return lambda: odds.advice(state)


def _build_everything() -> None:
    for variant in ("standard", "reverse", "team", "extended"):
        for soft in (False, True):
            odds.push_table(variant, soft)
    for soft in (False, True):
        odds.sudden_table(soft)
    for ruleset in oneroll.RULESETS:
        odds.oneroll_odds(ruleset)
        odds.expected_turns_to_target(ruleset)

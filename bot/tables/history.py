"""A game rebuilt from its action log alone (STYLE §12: the log is the truth): ``replay`` plays the
logged steps, dice and cards included, through the rules again; ``verify`` compares the end with the
stored state and results (``python -m bot verify-log``)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.records import SeatResult
from bot.store import games
from bot.store.db import Database
from bot.tables.kind import GameKind, NotReplayable, ReplayMismatch
from bot.tables.model import Seat


@dataclass(frozen=True)
class Step:
    """Where a step is in the log: the entry's ``seq`` and kind, the step's index in it."""

    seq: int
    kind: str
    index: int
    detail: dict[str, Any]

    def __str__(self) -> str:
        return f"log entry {self.seq} ({self.kind}), step {self.index + 1}: {_short(self.detail)}"


class StepMismatch(Exception):
    """A step the rules replay differently from the log (or refuse)."""

    def __init__(self, step: Step, why: str) -> None:
        super().__init__(f"{step}: {why}")
        self.step = step
        self.why = why


def start_of(entries: list[dict[str, Any]]) -> tuple[list[Seat], dict[str, Any]]:
    """The seats and the initial rules state (JSON) that the ``start`` entry logged."""
    for entry in entries:
        if entry["kind"] == "start":
            detail = entry["detail"]
            if "rules" not in detail:
                raise NotReplayable("the start entry holds no initial state")
            return [Seat.load(s) for s in detail["seats"]], detail["rules"]
    raise NotReplayable("the log has no start entry")


def replay(game: GameKind[Any], entries: list[dict[str, Any]]) -> Iterator[tuple[Step | None, Any]]:
    """The states of a game from its log entries: ``(None, initial state)``, then ``(step, state
    after it)``. ``StepMismatch`` where the rules replay a step differently, ``NotReplayable`` where
    the log lacks what it needs."""
    _, initial = start_of(entries)
    state = game.load(initial)
    yield None, state
    started = False
    for entry in entries:
        if entry["kind"] == "start":
            started = True
            continue
        if not started:
            continue
        for index, detail in enumerate(entry["detail"].get("steps", ())):
            step = Step(entry["seq"], entry["kind"], index, detail)
            try:
                if "forfeit" in detail:
                    state = game.forfeit(state, int(detail["forfeit"]))
                else:
                    state = game.replay_step(state, detail)
            except NotReplayable as exc:
                raise NotReplayable(f"{step}: {exc}") from None
            except ReplayMismatch as exc:
                raise StepMismatch(step, str(exc)) from None
            except Exception as exc:  # a log the rules refuse (tampered, or a bug): report
                raise StepMismatch(step, f"the rules refuse it: {exc!r}") from None
            yield step, state


@dataclass(frozen=True)
class Verdict:
    """One finished game checked: ``status`` is "ok", "differs" or "not replayable"."""

    game_id: int
    kind: str
    game_key: str
    status: str
    why: str = ""
    steps: int = 0


async def verify_game(db: Database, kinds: Mapping[str, GameKind[Any]], game_id: int) -> Verdict:
    """Replay one finished game from its log and compare with what is stored."""
    row = await games.get(db, game_id)
    assert row is not None
    kind_name = row.state.get("kind", "?")

    def verdict(status: str, why: str = "", steps: int = 0) -> Verdict:
        return Verdict(game_id, kind_name, row.game_key, status, why, steps)

    game = kinds.get(kind_name)
    if game is None:
        return verdict("not replayable", f"unknown game kind {kind_name!r}")
    entries = await games.log_entries(db, game_id)
    steps = 0
    state: Any = None
    try:
        seats, _ = start_of(entries)
        for step, after in replay(game, entries):
            steps += step is not None
            state = after
    except NotReplayable as exc:
        return verdict("not replayable", str(exc), steps)
    except StepMismatch as exc:
        return verdict("differs", f"first differing step: {exc}", steps)
    except NotImplementedError:
        return verdict("not replayable", f"{kind_name} has no replay", steps)
    stored = row.state.get("rules") or {}
    rebuilt = json.loads(json.dumps(game.dump(state)))  # JSON's lists for tuples, as stored
    if rebuilt != stored:
        keys = sorted(k for k in {*rebuilt, *stored} if rebuilt.get(k) != stored.get(k))
        return verdict(
            "differs",
            f"every step replays, but the final state differs in {', '.join(keys)}",
            steps,
        )
    want = [_outcome(r) for r in await games.results_of(db, game_id)]
    got = [_outcome(r) for r in game.results(state, seats) or []]
    if got != want:
        return verdict("differs", f"the results differ: stored {want}, replayed {got}", steps)
    return verdict("ok", steps=steps)


async def verify_all(db: Database, kinds: Mapping[str, GameKind[Any]]) -> list[Verdict]:
    """Every finished game, oldest first."""
    return [await verify_game(db, kinds, game_id) for game_id in await games.finished_ids(db)]


def _outcome(result: SeatResult) -> tuple[Any, ...]:
    # Not the name or id: forgetting a member rewrites those in the results, not the game.
    return (result.seat, result.team, result.score, result.place, result.won, result.best_turn)


def _short(detail: dict[str, Any], limit: int = 160) -> str:
    text = json.dumps(detail, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""Board frames drawn ahead (``picture.Frames``): the bytes ``render_board`` draws, found only
by what they show, and bounded in memory and in work waiting."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from dataclasses import replace

from bot.games.board.picture import BoardPicture, Frames, frame_key, render_board
from bot.games.board.samples import SAMPLES


def _midgame(*highlight: tuple[int, int]) -> BoardPicture:
    return replace(SAMPLES["midgame"](), highlight=frozenset(highlight))


def _settle(frames: Frames) -> None:
    deadline = time.monotonic() + 30
    while frames.busy() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not frames.busy()


def test_a_frame_drawn_ahead_is_the_same_png_and_is_not_drawn_again() -> None:
    frames = Frames()
    pictures = [_midgame((1, 1), (7, 3)), _midgame((2, 5))]
    frames.draw_ahead(("table", 0), pictures)
    _settle(frames)
    assert frames.kept[0] == 2
    for p in pictures:
        assert asyncio.run(frames.get(p)) == render_board(p)
    assert frames.served == {"kept": 2, "waited": 0, "drawn": 0}


def test_another_board_is_never_served_a_kept_frame() -> None:
    """Same highlight, same names, one chip more (the table moved on): drawn anew."""
    before = _midgame((2, 5))
    moved = replace(before, chips={**before.chips, (3, 3): 1})
    frames = Frames()
    frames.draw_ahead(("table", 0), [before])
    _settle(frames)
    assert asyncio.run(frames.get(moved)) == render_board(moved) != render_board(before)
    assert frame_key(moved) != frame_key(before)
    # Every drawn input is part of the key: the last move, removals, names, locked chips.
    for changed in (
        replace(before, last_move=(0, 1)),
        replace(before, last_removed=(0, 1)),
        replace(before, side_names=("Ana", "Bo")),
        replace(before, locked=frozenset({next(iter(before.chips))})),
        replace(before, highlight=frozenset({(2, 6)})),
    ):
        assert frame_key(changed) != frame_key(before)
        assert asyncio.run(frames.get(changed)) == render_board(changed)


def test_kept_frames_stay_within_their_byte_budget_in_memory_too() -> None:
    one = len(render_board(_midgame((0, 1))))
    budget = 5 * one
    frames = Frames(max_bytes=budget)
    cells = [(r, c) for r in range(1, 9) for c in range(1, 9)][:20]
    tracemalloc.start()
    try:
        for cell in cells:
            asyncio.run(frames.get(_midgame(cell)))
        count, size = frames.kept
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size <= budget and 4 <= count <= 5
    # What the process holds for them: the PNGs plus their keys, within 10% of the budget.
    assert current <= budget * 1.1
    # The least recently used went first: the last ones asked for are still kept.
    assert asyncio.run(frames.get(_midgame(cells[-1]))) == render_board(_midgame(cells[-1]))
    assert frames.served["kept"] == 1


def test_work_waiting_is_bounded_and_an_owner_replaces_its_own() -> None:
    frames = Frames(max_ahead=3)
    many = [_midgame((1, c)) for c in range(1, 9)]
    frames.draw_ahead(("table", 0), many)
    assert frames.busy() <= 3
    # The same seat's newer hand drops its frames not started yet for the new ones.
    frames.draw_ahead(("table", 0), [_midgame((8, 8))])
    _settle(frames)
    assert asyncio.run(frames.get(_midgame((8, 8)))) == render_board(_midgame((8, 8)))
    assert frames.served["kept"] == 1  # drawn ahead, though asked for after the others
    assert frames.kept[0] <= 4  # at most the 3 first ones started, and the new one

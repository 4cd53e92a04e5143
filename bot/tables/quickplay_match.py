"""Quick play's matcher (issue 36): queued members grouped by rating, as plain values. No
database, no clock: given the waiting entries, the time and the blocks, it returns the
groups to ask for a ready check; ``bot.tables.quickplay`` claims them in the database.

The window (docs/rules.md, "Quick play"): two members may be matched when their ratings
differ by at most the smaller of their two windows; a member's window is ±100 and widens by
50 every 10 seconds of waiting, up to ±700. Members are matched only with members of the
same server (``where: here``) and the same game, never with a member either of them blocked.
The longest-waiting member is served first, with the closest rating that fits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

WINDOW_START = 100  # rating points either side, at once
WINDOW_STEP = 50  # added ...
WINDOW_EVERY = 10.0  # ... every this many seconds of waiting
WINDOW_MAX = 700  # and never wider


def window(waited: float) -> int:
    """The rating window of a member who has waited ``waited`` seconds."""
    steps = int(max(0.0, waited) // WINDOW_EVERY)
    return min(WINDOW_MAX, WINDOW_START + WINDOW_STEP * steps)


def wait_for_window(difference: int) -> float | None:
    """Seconds of waiting after which a window covers ``difference`` (None: never)."""
    difference = abs(difference)
    if difference > WINDOW_MAX:
        return None
    if difference <= WINDOW_START:
        return 0.0
    return -(-(difference - WINDOW_START) // WINDOW_STEP) * WINDOW_EVERY


@dataclass(frozen=True, slots=True)
class Entry:
    """One waiting member of the queue."""

    user_id: int
    guild_id: int
    channel_id: int
    game_key: str
    rating: int
    queued_at: float


Blocks = Collection[tuple[int, int]]  # (member, the member they blocked)


def _blocked(blocks: Blocks, a: int, b: int) -> bool:
    return (a, b) in blocks or (b, a) in blocks


def _fits(a: Entry, b: Entry, now: float, blocks: Blocks) -> bool:
    reach = min(window(now - a.queued_at), window(now - b.queued_at))
    return abs(a.rating - b.rating) <= reach and not _blocked(blocks, a.user_id, b.user_id)


def match(
    entries: Iterable[Entry],
    now: float,
    blocks: Blocks = frozenset(),
    seats: Callable[[str], int] = lambda game_key: 2,
) -> list[tuple[Entry, ...]]:
    """The groups to ask, each of ``seats(game_key)`` members of one server and game, every
    two of them within each other's window and neither blocking the other; a member is in
    at most one group. Deterministic: the same entries give the same groups."""
    pools: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    for entry in entries:
        pools[(entry.guild_id, entry.game_key)].append(entry)
    groups: list[tuple[Entry, ...]] = []
    for (_, game_key), pool in sorted(pools.items()):
        groups.extend(_match_pool(pool, now, blocks, max(2, seats(game_key))))
    return groups


def _match_pool(
    pool: list[Entry], now: float, blocks: Blocks, size: int
) -> list[tuple[Entry, ...]]:
    # The pool by rating, as a doubly linked list of the members still unmatched: a scan
    # outwards from a member visits only those, and taking one out is O(1).
    by_rating = sorted(pool, key=lambda e: (e.rating, e.queued_at, e.user_id))
    n = len(by_rating)
    position = {e.user_id: i for i, e in enumerate(by_rating)}
    left = list(range(-1, n - 1))
    right = list(range(1, n + 1))

    def take(i: int) -> None:
        if left[i] >= 0:
            right[left[i]] = right[i]
        if right[i] < n:
            left[right[i]] = left[i]

    taken: set[int] = set()
    groups: list[tuple[Entry, ...]] = []
    for anchor in sorted(pool, key=lambda e: (e.queued_at, e.user_id)):
        if anchor.user_id in taken:
            continue
        reach = window(now - anchor.queued_at)
        group = [anchor]
        i = position[anchor.user_id]
        down, up = left[i], right[i]
        # Closest rating first, on either side, until the group is full or the anchor's
        # own window is passed on both.
        while len(group) < size:
            below = anchor.rating - by_rating[down].rating if down >= 0 else None
            above = by_rating[up].rating - anchor.rating if up < n else None
            if below is not None and below > reach:
                below, down = None, -1
            if above is not None and above > reach:
                above, up = None, n
            if below is None and above is None:
                break
            if above is None or (below is not None and below <= above):
                candidate, down = by_rating[down], left[down]
            else:
                candidate, up = by_rating[up], right[up]
            if all(_fits(member, candidate, now, blocks) for member in group):
                group.append(candidate)
        if len(group) < size:
            continue
        for member in group:
            taken.add(member.user_id)
            take(position[member.user_id])
        groups.append(tuple(group))
    return groups

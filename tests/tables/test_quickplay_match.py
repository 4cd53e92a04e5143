"""Quick play's matcher as plain values (issue 36): the widening window with an injected
clock, blocks, servers and games kept apart, groups of three, and one member in one group."""

from __future__ import annotations

import random

from bot.tables.quickplay_match import (
    WINDOW_MAX,
    WINDOW_START,
    Entry,
    match,
    wait_for_window,
    window,
)

T0 = 1_700_000_000.0


def entry(user: int, rating: int, at: float = T0, guild: int = 1, game: str = "board") -> Entry:
    return Entry(user, guild, 100 + guild, game, rating, at)


def users(groups: list[tuple[Entry, ...]]) -> list[tuple[int, ...]]:
    return [tuple(e.user_id for e in g) for g in groups]


def test_the_window_widens_by_50_every_10_seconds_up_to_700() -> None:
    assert [window(s) for s in (0, 9.9, 10, 19.9, 20, 60)] == [100, 100, 150, 150, 200, 400]
    assert window(119.9) == 650 and window(120) == WINDOW_MAX and window(10_000) == WINDOW_MAX
    assert window(-5) == WINDOW_START  # a clock that stepped back waits as new
    assert wait_for_window(100) == 0 and wait_for_window(101) == 10 and wait_for_window(-250) == 30
    assert wait_for_window(700) == 120 and wait_for_window(701) is None


def test_two_members_300_apart_are_matched_once_both_have_waited_40_seconds() -> None:
    queue = [entry(1, 1000), entry(2, 1300, at=T0 + 5)]
    assert match(queue, T0 + 5) == []
    assert match(queue, T0 + 44.9) == []  # the second has waited 39.9 s: ±250
    assert users(match(queue, T0 + 45)) == [(1, 2)]


def test_the_window_is_the_smaller_of_the_two() -> None:
    """A member who waited long is not handed a newcomer 600 away: the newcomer's window
    counts too."""
    queue = [entry(1, 1000), entry(2, 1600, at=T0 + 119)]
    assert match(queue, T0 + 120) == []
    assert users(match(queue, T0 + 119 + 100)) == [(1, 2)]


def test_the_longest_waiting_member_gets_the_closest_rating() -> None:
    queue = [entry(1, 1000), entry(2, 1090, at=T0 + 1), entry(3, 1020, at=T0 + 2)]
    assert users(match(queue, T0 + 3)) == [(1, 3)]


def test_a_blocked_pair_is_never_matched_either_way() -> None:
    queue = [entry(1, 1000), entry(2, 1000), entry(3, 1650)]
    for blocks in ({(1, 2)}, {(2, 1)}):
        assert users(match(queue, T0 + 1, blocks)) == []
        assert users(match(queue, T0 + 130, blocks)) == [(1, 3)]


def test_servers_and_games_are_kept_apart() -> None:
    queue = [entry(1, 1000), entry(2, 1000, guild=2), entry(3, 1000, game="heartsdue")]
    assert match(queue, T0 + 500) == []
    queue.append(entry(4, 1000, guild=2))
    assert users(match(queue, T0 + 500)) == [(2, 4)]


def test_groups_of_three_hold_only_members_within_each_others_window() -> None:
    queue = [entry(1, 1000), entry(2, 1100), entry(3, 900), entry(4, 1050)]
    # 2 and 3 are 200 apart: not both with 1 at first; 4 fits 1 and 2.
    assert users(match(queue, T0, seats=lambda key: 3)) == [(1, 4, 2)]


def test_every_member_is_in_one_group_at_most_and_every_pair_fits() -> None:
    rng = random.Random(36)
    queue = [
        entry(u, rng.randint(0, 3000), at=T0 + rng.uniform(0, 200), guild=rng.randint(1, 3))
        for u in range(1, 2001)
    ]
    blocks = {(rng.randint(1, 2000), rng.randint(1, 2000)) for _ in range(500)}
    now = T0 + 200
    groups = match(queue, now, blocks)
    seen = [e.user_id for g in groups for e in g]
    assert len(seen) == len(set(seen)) and len(groups) > 500
    for a, b in groups:
        assert a.guild_id == b.guild_id and a.game_key == b.game_key
        assert abs(a.rating - b.rating) <= min(window(now - a.queued_at), window(now - b.queued_at))
        assert (a.user_id, b.user_id) not in blocks and (b.user_id, a.user_id) not in blocks
    assert match(queue, now, blocks) == groups  # deterministic

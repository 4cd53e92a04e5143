"""Tournament pairing and standings (issue 25.3): properties by hypothesis, and standings
checked against hand-computed tables."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournament import (
    PRIZE_SPLITS,
    Entrant,
    Pairing,
    Result,
    bracket_order,
    elimination_first_round,
    elimination_next_round,
    elimination_places,
    match_over,
    next_round,
    points,
    prize_shares,
    round_robin,
    seed_order,
    standings,
    swiss_pairing,
    swiss_rounds,
    through,
)


def field(n: int, ratings: list[int] | None = None) -> list[Entrant]:
    ratings = ratings or [1000 - 10 * i for i in range(n)]
    return [Entrant(id=100 + i, rating=float(ratings[i])) for i in range(n)]


def can_pair(players: list[int], met: set[frozenset[int]]) -> bool:
    """Brute force: is there a pairing of ``players`` with no pair in ``met``?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met and can_pair(rest[:i] + rest[i + 1 :], met)
        for i, other in enumerate(rest)
    )


def played_in(pairings: list[Pairing]) -> list[int]:
    return [p for pairing in pairings for p in (pairing.a, pairing.b) if p is not None]


# --- Swiss -------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    n=st.integers(min_value=2, max_value=9),
    extra=st.integers(min_value=0, max_value=3),
    data=st.data(),
)
def test_swiss_rounds_pair_everyone_once_with_no_repeat_while_possible(
    n: int, extra: int, data: st.DataObject
) -> None:
    entrants = field(n, data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    seeds = seed_order(entrants)
    rounds = min(swiss_rounds(n) + extra, n - 1)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        pairings = swiss_pairing(entrants, results)
        ids = played_in(pairings)
        assert sorted(ids) == sorted(seeds)  # everyone plays once (or sits out on a bye)
        byes = [p.a for p in pairings if p.b is None]
        assert len(byes) == n % 2
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        had_bye = {r.a for r in results if r.b is None}
        options = [p for p in seeds if p not in had_bye] if n % 2 else [None]
        free = [o for o in options if can_pair([p for p in seeds if p != o], met)]
        repeats = [p for p in pairings if p.b is not None and frozenset((p.a, p.b)) in met]
        assert bool(repeats) == (not free)  # a repeat only when no round is free of them
        if byes:
            (bye,) = byes
            assert bye not in had_bye  # at most one bye each (rounds < n)
            # The lowest-ranked player without a bye gets it, unless that leaves no
            # repeat-free pairing while another choice would.
            score = points(results)
            ranked = sorted(seeds, key=lambda p: (-score.get(p, Fraction(0)), seeds.index(p)))
            lower = [p for p in ranked[ranked.index(bye) + 1 :] if p not in had_bye]
            assert all(other not in free for other in lower)
            assert free or not lower
        for pairing in pairings:
            if pairing.b is None:
                results.append(Result(number, pairing.a, None, pairing.a))
            else:
                outcome = data.draw(st.sampled_from(("a", "b", "draw")))
                winner = {"a": pairing.a, "b": pairing.b, "draw": None}[outcome]
                results.append(Result(number, pairing.a, pairing.b, winner))
    table = standings(entrants, results)
    assert [s.place for s in table] == list(range(1, n + 1))
    assert sum(s.points for s in table) == len(results)  # one point a match (or bye)


def test_swiss_backtracks_to_give_the_bye_to_the_lowest_ranked() -> None:
    # Round three of five (seeds A-E), by hand. Points: A 2, B, C, D, E 1 each; ranked A, B,
    # C, D, E. D is the lowest-ranked without a bye. Left: A, B, C, E, of whom A-B and B-E
    # have met: A-C would leave B-E, so A meets E and B meets C.
    entrants = field(5)
    A, B, C, D, E = seed_order(entrants)
    results = [
        Result(1, A, B, A), Result(1, C, D, D), Result(1, E, None, E),
        Result(2, A, D, A), Result(2, E, B, B), Result(2, C, None, C),
    ]  # fmt: skip
    assert swiss_pairing(entrants, results) == [Pairing(A, E), Pairing(B, C), Pairing(D, None)]


def test_swiss_with_no_repeat_free_round_left_still_pairs() -> None:
    # Four players who have all met: a fourth round must repeat, and does.
    entrants = field(4)
    a, b, c, d = seed_order(entrants)
    results = [
        Result(1, a, b, a), Result(1, c, d, c),
        Result(2, a, c, a), Result(2, b, d, b),
        Result(3, a, d, a), Result(3, b, c, b),
    ]  # fmt: skip
    pairings = swiss_pairing(entrants, results)
    assert sorted(played_in(pairings)) == sorted((a, b, c, d))


def test_swiss_first_round_pairs_neighbours_by_seed_and_byes_the_last() -> None:
    entrants = field(5)
    s = seed_order(entrants)
    assert swiss_pairing(entrants, []) == [
        Pairing(s[0], s[1]),
        Pairing(s[2], s[3]),
        Pairing(s[4], None),
    ]
    assert swiss_rounds(8) == 3 and swiss_rounds(5) == 3 and swiss_rounds(2) == 1


def test_swiss_standings_by_hand() -> None:
    # Five players (seeds A-E), three rounds, worked out by hand:
    # R1: A beats B, C draws D, E bye.  R2: E beats A, B beats C, D bye.
    # R3: B beats E, A beats D, C bye.
    entrants = field(5)
    A, B, C, D, E = seed_order(entrants)
    results = [
        Result(1, A, B, A), Result(1, C, D, None), Result(1, E, None, E),
        Result(2, E, A, E), Result(2, B, C, B), Result(2, D, None, D),
        Result(3, B, E, B), Result(3, A, D, A), Result(3, C, None, C),
    ]  # fmt: skip
    # Points: A 2, B 2, C 1.5, D 1.5, E 2.
    # Buchholz (opponents' points, byes none): A: B2+E2+D1.5 = 5.5; B: A2+C1.5+E2 = 5.5;
    # E: A2+B2 = 4; C: D1.5+B2 = 3.5; D: C1.5+A2 = 3.5.
    # A and B tie on 2 and 5.5: A beat B head-to-head. C and D tie on 1.5 and 3.5: they
    # drew, so seed decides (C is seed 3).
    table = standings(entrants, results)
    assert [(s.id, s.points, s.buchholz) for s in table] == [
        (A, 2, Fraction(11, 2)),
        (B, 2, Fraction(11, 2)),
        (E, 2, 4),
        (C, Fraction(3, 2), Fraction(7, 2)),
        (D, Fraction(3, 2), Fraction(7, 2)),
    ]
    assert (table[0].wins, table[0].losses, table[2].byes) == (2, 1, 1)
    # Without Buchholz the three on 2 points go by their games among themselves: A beat B,
    # E beat A, B beat E: one point each, so seed: A, B, E.
    assert [s.id for s in standings(entrants, results, buchholz=False)][:3] == [A, B, E]


def test_head_to_head_breaks_a_tie_against_the_seed() -> None:
    entrants = field(2)
    top, low = seed_order(entrants)
    table = standings(entrants, [Result(1, top, low, low)], buchholz=False)
    assert [s.id for s in table] == [low, top]


# --- single elimination ------------------------------------------------------------------


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]
    with pytest.raises(ValueError):
        bracket_order(6)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=40))
def test_elimination_by_seed_meets_late_and_byes_fall_to_the_top(n: int) -> None:
    entrants = field(n)
    seeds = seed_order(entrants)
    size = 1 << (n - 1).bit_length()
    first = elimination_first_round(entrants)
    assert len(first) == size // 2
    assert sorted(played_in(first)) == sorted(seeds)
    byes = {p.a for p in first if p.b is None}
    assert byes == set(seeds[: size - n])  # the top seeds, as many as there are empty places
    # The better seed always wins: the bracket ends with seeds 1 and 2 in the final, and
    # seeds 1-4 in the semi-finals.
    rank = {pid: i for i, pid in enumerate(seeds)}
    rounds: list[list[Result]] = []
    pairings = first
    while True:
        results = [
            Result(len(rounds) + 1, p.a, p.b, p.a if p.b is None else min(p.a, p.b, key=rank.get))  # type: ignore[arg-type]
            for p in pairings
        ]
        rounds.append(results)
        winners = [r.winner for r in results]
        if len(winners) == 1:
            break
        if len(winners) == 2:
            assert set(winners) == set(seeds[:2])
        if len(winners) == 4:
            assert set(winners) == set(seeds[:4])
        pairings = elimination_next_round(winners)  # type: ignore[arg-type]
    assert rounds[-1][0].winner == seeds[0]
    places = elimination_places(rounds, seeds)
    assert places[:2] == seeds[:2] and sorted(places) == sorted(seeds)


def test_six_player_bracket_by_hand() -> None:
    # Six players in a bracket of eight: seeds 1 and 2 sit out round one.
    entrants = field(6)
    s = seed_order(entrants)
    assert elimination_first_round(entrants) == [
        Pairing(s[0], None), Pairing(s[3], s[4]), Pairing(s[1], None), Pairing(s[2], s[5]),
    ]  # fmt: skip


# --- round robin -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=20))
def test_round_robin_meets_everyone_once(n: int) -> None:
    entrants = field(n)
    seeds = seed_order(entrants)
    rounds = round_robin(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for pairings in rounds:
        assert sorted(played_in(pairings)) == sorted(seeds)
        met += [frozenset((p.a, p.b)) for p in pairings if p.b is not None]
        byes += [p.a for p in pairings if p.b is None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(seeds, 2)), key=sorted
    )
    assert sorted(byes) == (sorted(seeds) if n % 2 else [])


def test_round_robin_standings_by_hand() -> None:
    # Five players: A beats everyone but B; B loses to C and D; C loses to A and E...
    entrants = field(5)
    A, B, C, D, E = seed_order(entrants)
    results = [
        Result(1, A, C, A), Result(1, A, D, A), Result(1, A, E, A), Result(1, B, A, B),
        Result(1, C, B, C), Result(1, D, B, D), Result(1, B, E, B),
        Result(1, C, D, C), Result(1, E, C, E), Result(1, D, E, None),
    ]  # fmt: skip
    # Points: A 3, B 2, C 2, D 1.5, E 1.5. B and C tie: C beat B. D and E drew: seed (D).
    table = standings(entrants, results, buchholz=False)
    assert [(s.id, s.points) for s in table] == [
        (A, 3), (C, 2), (B, 2), (D, Fraction(3, 2)), (E, Fraction(3, 2)),
    ]  # fmt: skip


# --- match length and prizes -------------------------------------------------------------


def test_a_best_of_three_is_won_in_two_and_plays_on_after_draws() -> None:
    assert match_over(1, 1, 2, 1, 0, 1) == (True, 1)
    assert match_over(1, 1, 2, 0, 0, 1) == (True, None)  # a drawn single game
    assert match_over(3, 1, 2, 1, 0, 1) == (False, None)
    assert match_over(3, 1, 2, 1, 1, 2) == (False, None)
    assert match_over(3, 1, 2, 1, 2, 3) == (True, 2)
    assert match_over(3, 1, 2, 1, 0, 4) == (False, None)  # three draws after a win
    assert match_over(3, 1, 2, 1, 0, 5) == (True, 1)  # five games: the one ahead
    assert match_over(3, 1, 2, 0, 0, 5) == (True, None)


@given(
    pool=st.integers(min_value=0, max_value=10**9),
    players=st.integers(min_value=1, max_value=6),
    split=st.sampled_from(sorted(PRIZE_SPLITS)),
)
def test_prizes_add_up_to_the_pool(pool: int, players: int, split: str) -> None:
    places = list(range(100, 100 + players))
    shares = prize_shares(pool, places, split)
    assert sum(shares.values()) == pool
    assert all(amount > 0 for amount in shares.values())
    assert set(shares) <= set(places[: len(PRIZE_SPLITS[split])])
    assert prize_shares(1_000, [7, 8, 9], "top3") == {7: 500, 8: 300, 9: 200}
    assert prize_shares(1_001, [7, 8], "top3") == {7: 701, 8: 300}  # 3rd's share: the winner's


def test_a_bracket_match_with_no_winner_puts_out_the_worse_seed() -> None:
    """Seeds 1-4; semi-finals 1-4 with no result (1 goes on) and 2 beat 3; 1 won the final:
    4 went out in the semi-finals (after 3 by seed), not never."""
    rounds = [
        [Result(1, 1, 4, None), Result(1, 2, 3, 2)],
        [Result(2, 1, 2, 1)],
    ]
    assert elimination_places(rounds, [1, 2, 3, 4]) == [1, 2, 3, 4]


def test_the_better_seed_goes_through_on_no_result_and_equal_ratings_go_by_id() -> None:
    """``through`` is the one answer to who goes on: the winner, a bye's player, else the
    better seed; two equal ratings (unseeded newcomers) are ordered by id, so the lower id
    goes on whichever of the two is named first, and the pairing and the places agree."""
    level = [Entrant(7, 0.0), Entrant(3, 0.0), Entrant(5, 1.0), Entrant(9, 1.0)]
    seeds = seed_order(level)
    assert seeds == [5, 9, 3, 7]
    assert through(Result(1, 7, 3, None), seeds) == 3  # named second, the lower id
    assert through(Result(1, 3, 7, None), seeds) == 3
    assert through(Result(1, 7, 3, 7), seeds) == 7  # a result is a result
    assert through(Result(1, 9, None, 9), seeds) == 9  # a bye
    assert through(Result(1, 9, 5, None), seeds) == 5
    results = [Result(1, 9, 5, None), Result(1, 7, 3, None)]
    assert next_round("elimination", level, results, 1, 2) == [Pairing(5, 3)]
    assert elimination_places([results], seeds)[2:] == [9, 7]

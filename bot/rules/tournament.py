"""Tournament pairing, seeding and standings as pure values (issue 25.3); the formats and
tie-breaks: docs/rules.md, "How bot/rules/tournament.py pairs and ranks"."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

MAX_PLAYERS = 64  # a tournament's cap: pairing searches stay small


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: ``b`` None is a bye for ``a``."""

    a: int
    b: int | None


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match: ``winner`` None with ``b`` set is a draw; a bye has ``b`` None and
    ``winner`` a."""

    round: int
    a: int
    b: int | None
    winner: int | None
    # What the pair's game is worth: 1 for a match of two; at a table of n players each
    # pair of them is a 1/(n - 1) result (so a table win is 1 point, last place 0).
    weight: Fraction = Fraction(1)

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    id: int
    points: Fraction
    buchholz: Fraction
    wins: int
    draws: int
    losses: int
    byes: int


def seed_order(entrants: Iterable[Entrant]) -> list[int]:
    """Ids by seed: rating high to low, ties by id."""
    return [e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.id))]


def swiss_rounds(players: int) -> int:
    """The default number of Swiss rounds: ⌈log2 n⌉ (at least 1)."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def points(results: Iterable[Result]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for r in results:
        out.setdefault(r.a, Fraction(0))
        if r.b is not None:
            out.setdefault(r.b, Fraction(0))
        if r.is_bye:
            out[r.a] += 1
        elif r.winner is None:
            out[r.a] += r.weight / 2
            out[r.b] += r.weight / 2  # type: ignore[index]
        else:
            out[r.winner] += r.weight
    return out


def _met(results: Iterable[Result]) -> set[frozenset[int]]:
    return {frozenset((r.a, r.b)) for r in results if r.b is not None}


def _byes(results: Iterable[Result]) -> dict[int, int]:
    out: dict[int, int] = {}
    for r in results:
        if r.is_bye:
            out[r.a] = out.get(r.a, 0) + 1
    return out


def swiss_pairing(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Pairing]:
    """The next Swiss round, best-ranked pair first (a bye last)."""
    seeds = seed_order(entrants)
    if len(seeds) < 2:
        raise ValueError("a round needs two players")
    score = points(results)
    seed_rank = {pid: i for i, pid in enumerate(seeds)}
    ranked = sorted(seeds, key=lambda p: (-score.get(p, Fraction(0)), seed_rank[p]))
    met = _met(results)
    byes = _byes(results)

    if len(ranked) % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        fewest = min(byes.get(p, 0) for p in ranked)
        # Lowest-ranked first among those with the fewest byes (none, while anyone has none).
        candidates = [p for p in reversed(ranked) if byes.get(p, 0) == fewest]
    for allow_repeats in (False, True):
        for bye in candidates:
            rest = tuple(p for p in ranked if p != bye)
            pairs = _pair(rest, frozenset(met), allow_repeats)
            if pairs is not None:
                out = [Pairing(a, b) for a, b in pairs]
                if bye is not None:
                    out.append(Pairing(bye, None))
                return out
    raise AssertionError("a pairing with repeats always exists")  # pragma: no cover


def _pair(
    ranked: tuple[int, ...], met: frozenset[frozenset[int]], allow_repeats: bool
) -> list[tuple[int, int]] | None:
    """Pair ``ranked`` in order, each with the nearest they may meet, backtracking so a repeat-free
    pairing is found whenever one exists."""

    @cache
    def solve(rest: tuple[int, ...]) -> tuple[tuple[int, int], ...] | None:
        if not rest:
            return ()
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if not allow_repeats and frozenset((first, other)) in met:
                continue
            tail = solve(others[:i] + others[i + 1 :])
            if tail is not None:
                return ((first, other), *tail)
        return None

    found = solve(ranked)
    return None if found is None else list(found)


def table_sizes(players: int, seats: int) -> list[int]:
    """Tables of at most ``seats`` for ``players``, as even as possible, larger first:
    8 at 3 a table -> 3, 3, 2; 5 at 4 -> 3, 2 (nobody sits out: no byes)."""
    tables = -(-players // seats)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def swiss_tables(
    entrants: Sequence[Entrant], results: Sequence[Result], seats: int
) -> list[tuple[int, ...]]:
    """The next Swiss round at tables of ``seats`` (3 or more): players ranked by points,
    then seed; each table takes the best-ranked player left, then, in rank order, those
    who have met nobody at it yet, then (when nobody is left who has not) the next ranked."""
    seeds = seed_order(entrants)
    if len(seeds) < 2:
        raise ValueError("a round needs two players")
    score = points(results)
    seed_rank = {pid: i for i, pid in enumerate(seeds)}
    left = sorted(seeds, key=lambda p: (-score.get(p, Fraction(0)), seed_rank[p]))
    met = _met(results)
    tables: list[tuple[int, ...]] = []
    for size in table_sizes(len(left), seats):
        table = [left.pop(0)]
        while len(table) < size:
            fresh = next(
                (p for p in left if all(frozenset((p, q)) not in met for q in table)), left[0]
            )
            left.remove(fresh)
            table.append(fresh)
        tables.append(tuple(table))
    return tables


def table_results(round_number: int, places: Sequence[tuple[int, int]]) -> list[Result]:
    """A finished table's ``places`` (1 the best, shared: a tie) as pairwise results worth 1/(n - 1)
    each: points are (players below + half those level) / (n - 1)."""
    n = len(places)
    if n < 2:
        return []
    weight = Fraction(1, n - 1)
    out = []
    for i, (a, place_a) in enumerate(places):
        for b, place_b in places[i + 1 :]:
            winner = None if place_a == place_b else a if place_a < place_b else b
            out.append(Result(round_number, a, b, winner, weight))
    return out


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``: neighbours meet
    in round one, and seeds 1 and 2 only in the final."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def elimination_first_round(entrants: Sequence[Entrant]) -> list[Pairing]:
    """Round one of a single elimination, in bracket order: the top seeds get the byes."""
    seeds = seed_order(entrants)
    if len(seeds) < 2:
        raise ValueError("a bracket needs two players")
    size = 1 << (len(seeds) - 1).bit_length()
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size)]
    out = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        assert a is not None  # the better seed of a slot pair always exists
        out.append(Pairing(a, b))
    return out


def elimination_next_round(winners: Sequence[int]) -> list[Pairing]:
    """The next round from the previous round's winners, in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("a round of a bracket has an even number of winners")
    return [Pairing(a, b) for a, b in zip(winners[::2], winners[1::2], strict=True)]


def round_robin(entrants: Sequence[Entrant]) -> list[list[Pairing]]:
    """Every round of a round robin by the circle method: seed 1 stays, the others turn.
    With an odd count a bye fills the table, so each player sits out once."""
    seeds: list[int | None] = list(seed_order(entrants))
    if len(seeds) < 2:
        raise ValueError("a round robin needs two players")
    if len(seeds) % 2:
        seeds.append(None)
    n = len(seeds)
    rounds: list[list[Pairing]] = []
    ring = seeds[1:]
    for r in range(n - 1):
        table = [seeds[0], *ring]
        pairs: list[Pairing] = []
        for i in range(n // 2):
            a, b = table[i], table[n - 1 - i]
            if a is None or b is None:
                pairs.append(Pairing(b if a is None else a, None))  # type: ignore[arg-type]
            else:
                # Alternate who is named first, so nobody always opens.
                pairs.append(Pairing(a, b) if (r + i) % 2 == 0 else Pairing(b, a))
        byes = [p for p in pairs if p.b is None]
        rounds.append([p for p in pairs if p.b is not None] + byes)
        ring = ring[-1:] + ring[:-1]
    return rounds


def standings(
    entrants: Sequence[Entrant], results: Sequence[Result], *, buchholz: bool = True
) -> list[Standing]:
    """Places by points, then (Swiss) Buchholz, then head-to-head among the still tied,
    then seed. Equal on every count still gets distinct places, in seed order."""
    seeds = seed_order(entrants)
    seed_rank = {pid: i for i, pid in enumerate(seeds)}
    score = {pid: Fraction(0) for pid in seeds}
    for pid, value in points(results).items():
        if pid in score:
            score[pid] = value
    opponents: dict[int, list[int]] = {pid: [] for pid in seeds}
    record = {pid: [0, 0, 0, 0] for pid in seeds}  # wins, draws, losses, byes
    for r in results:
        if r.is_bye:
            record[r.a][3] += 1
            continue
        assert r.b is not None
        opponents.setdefault(r.a, []).append(r.b)
        opponents.setdefault(r.b, []).append(r.a)
        record.setdefault(r.a, [0, 0, 0, 0])
        record.setdefault(r.b, [0, 0, 0, 0])
        if r.weight != 1:
            continue  # a table of three or more: its record is its places (table_wins)
        if r.winner is None:
            record[r.a][1] += 1
            record[r.b][1] += 1
        else:
            loser = r.b if r.winner == r.a else r.a
            record[r.winner][0] += 1
            record[loser][2] += 1
    bh = {
        pid: sum((score.get(o, Fraction(0)) for o in opponents[pid]), Fraction(0))
        if buchholz
        else Fraction(0)
        for pid in seeds
    }
    # Group by (points, Buchholz); inside a group, head-to-head points among its members.
    groups: dict[tuple[Fraction, Fraction], list[int]] = {}
    for pid in seeds:
        groups.setdefault((score[pid], bh[pid]), []).append(pid)
    order: list[int] = []
    for key in sorted(groups, reverse=True):
        members = groups[key]
        inside = set(members)
        mini = points(r for r in results if r.b is not None and r.a in inside and r.b in inside)
        members.sort(key=lambda p: (-mini.get(p, Fraction(0)), seed_rank[p]))
        order += members
    return [
        Standing(
            place=i + 1,
            id=pid,
            points=score[pid],
            buchholz=bh[pid],
            wins=record[pid][0],
            draws=record[pid][1],
            losses=record[pid][2],
            byes=record[pid][3],
        )
        for i, pid in enumerate(order)
    ]


def through(result: Result, seeds: Sequence[int]) -> int:
    """Who goes on from a bracket match: its winner, a bye's player, or with no result the better
    seed (``seed_order``)."""
    if result.b is None:
        return result.a
    if result.winner is not None:
        return result.winner
    rank = {pid: i for i, pid in enumerate(seeds)}
    return min((result.a, result.b), key=lambda p: (rank.get(p, len(rank)), p))


def elimination_places(rounds: Sequence[Sequence[Result]], seeds: Sequence[int]) -> list[int]:
    """Final order of a single elimination: champion, runner-up, then each earlier round's losers
    (later rounds first), by seed within a round."""
    rank = {pid: i for i, pid in enumerate(seeds)}
    out_in: dict[int, int] = {}
    for number, matches in enumerate(rounds):
        for r in matches:
            if r.b is not None:
                out_in[r.b if through(r, seeds) == r.a else r.a] = number
    champions = [pid for pid in seeds if pid not in out_in]
    rest = sorted(out_in, key=lambda p: (-out_in[p], rank[p]))
    return champions + rest


def first_round(format: str, entrants: Sequence[Entrant]) -> list[Pairing]:
    if format == "swiss":
        return swiss_pairing(entrants, [])
    if format == "elimination":
        return elimination_first_round(entrants)
    if format == "round_robin":
        return round_robin(entrants)[0]
    raise ValueError(f"unknown format {format!r}")


def planned_rounds(format: str, players: int, chosen: int = 0) -> int:
    """Rounds of a tournament of ``players``: Swiss as chosen (⌈log2 n⌉ by default, at most
    n - 1 so nobody needs a second bye), a bracket's depth, a round robin's circle."""
    if format == "swiss":
        return max(1, min(chosen or swiss_rounds(players), players - 1))
    if format == "elimination":
        return max(1, (players - 1).bit_length())
    if format == "round_robin":
        return players - 1 if players % 2 == 0 else players
    raise ValueError(f"unknown format {format!r}")


def next_round(
    format: str, entrants: Sequence[Entrant], results: Sequence[Result], played: int, rounds: int
) -> list[Pairing] | None:
    """The pairings of round ``played + 1``, or None when the tournament is over; in a bracket, no
    result sends the better seed through."""
    if played >= rounds:
        return None
    if format == "swiss":
        return swiss_pairing(entrants, results)
    if format == "round_robin":
        return round_robin(entrants)[played]
    if format == "elimination":
        seeds = seed_order(entrants)
        winners = [through(r, seeds) for r in results if r.round == played]
        return elimination_next_round(winners) if len(winners) > 1 else None
    raise ValueError(f"unknown format {format!r}")


# Prize splits an organiser picks from: percent of the pool for 1st, 2nd, 3rd.
PRIZE_SPLITS: dict[str, tuple[int, ...]] = {
    "winner": (100,),
    "top2": (70, 30),
    "top3": (50, 30, 20),
}


def prize_shares(pool: int, places: Sequence[int], split: str) -> dict[int, int]:
    """Chips per player by final place (``places``, winner first), rounded down; the remainder and
    unheld places' shares go to the winner, so the sum is the pool."""
    if pool <= 0 or not places:
        return {}
    percents = PRIZE_SPLITS[split]
    shares: dict[int, int] = {}
    for pid, percent in zip(places, percents, strict=False):
        shares[pid] = pool * percent // 100
    shares[places[0]] += pool - sum(shares.values())
    return {pid: amount for pid, amount in shares.items() if amount > 0}


def match_over(
    best_of: int, a: int, b: int, a_wins: int, b_wins: int, games: int
) -> tuple[bool, int | None]:
    """Whether a match of ``best_of`` is over after ``games`` (a draw counts for nobody) and its
    winner: a best of 3 plays on after a draw, up to five games."""
    need = best_of // 2 + 1
    if a_wins >= need:
        return True, a
    if b_wins >= need:
        return True, b
    if best_of == 1:
        return True, None
    if games >= best_of + 2:
        return True, a if a_wins > b_wins else b if b_wins > a_wins else None
    return False, None

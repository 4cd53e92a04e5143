"""A tournament's rounds inside the transactions that move it (issue 25); once per round across
processes (docs/reliability.md, "What fires once")."""

from __future__ import annotations

from bot.rules import tournament as rules
from bot.store import tournaments as store
from bot.store import wallets as chips
from bot.store.db import Connection
from bot.store.tournaments import Entry, Match, Tournament
from bot.tables.wallets import START_CHIPS

__all__ = [
    "advance", "entrants_of", "final_places", "on_game_over", "pair_round", "pay_prizes",
    "refund", "results_of", "table_places",
]  # fmt: skip


def entrants_of(entries: list[Entry]) -> list[rules.Entrant]:
    # Fixed seeds give the order: the rating is only its expression for the pure core.
    return [
        rules.Entrant(e.user_id, -float(e.seed if e.seed is not None else 10**6)) for e in entries
    ]


def table_places(match: Match) -> list[tuple[int, int]]:
    """A done table of three or more by place: as it finished; a result set by the
    organiser (its winner first, the rest level); no result: everyone level."""
    if match.places is not None:
        return list(match.places)
    if match.winner_id is not None:
        return [(u, 1 if u == match.winner_id else 2) for u in match.players]
    return [(u, 1) for u in match.players]


def results_of(matches: list[Match]) -> list[rules.Result]:
    out: list[rules.Result] = []
    for m in matches:
        if m.status != "done":
            continue
        if len(m.players) > 2:
            out += rules.table_results(m.round, table_places(m))
        else:
            out.append(rules.Result(m.round, m.a_id, m.b_id, m.winner_id))
    return out


async def pair_round(
    conn: Connection,
    t: Tournament,
    round_number: int,
    field: list[rules.Entrant],
    pairs: list[rules.Pairing] | None,
    results: list[rules.Result],
    now: float,
    removed: frozenset[int] = frozenset(),
) -> None:
    """Insert round ``round_number``: at tables of three or more by ``swiss_tables``, else
    the ``pairs``."""
    if t.seats > 2:
        tables = rules.swiss_tables(field, results, t.seats)
        await store.insert_tables(conn, t.id, round_number, tables, removed, now)
    else:
        assert pairs is not None
        await store.insert_matches(
            conn, t.id, round_number, [(p.a, p.b) for p in pairs], now, removed
        )


async def advance(conn: Connection, tournament_id: int, now: float) -> None:
    """If the tournament's current round is over, pair the next (or finish): once."""
    t = await store.get(conn, tournament_id)
    if t is None or t.status != "running":
        return
    played = await store.matches(conn, tournament_id)
    if any(m.round == t.round and m.status != "done" for m in played):
        return
    entries = await store.entries(conn, tournament_id)
    entrants = entrants_of(entries)
    removed = frozenset(e.user_id for e in entries if e.removed)
    # Swiss pairs those still in; a fixed schedule (round robin, a bracket) keeps everyone,
    # and a removed player's matches are forfeited as they come.
    field = [e for e in entrants if e.id not in removed] if t.format == "swiss" else entrants
    if len(field) < 2 and t.format == "swiss":
        pairs = None
    else:
        pairs = rules.next_round(t.format, field, results_of(played), t.round, t.rounds)
    if pairs is None:
        if await store.move_to_round(conn, tournament_id, t.round, status="finished", now=now):
            await pay_prizes(conn, t, entrants, results_of(played), now, removed)
        return
    if not await store.move_to_round(conn, tournament_id, t.round, status="running", now=now):
        return  # another transaction moved it first
    await pair_round(conn, t, t.round + 1, field, pairs, results_of(played), now, removed)
    # A round whose every match is decided already (byes, forfeits): on to the next.
    await advance(conn, tournament_id, now)


def final_places(
    t: Tournament, entrants: list[rules.Entrant], results: list[rules.Result]
) -> list[int]:
    """Ids by final place: a bracket by the round each went out in, else the standings."""
    if t.format == "elimination":
        by_round = [[r for r in results if r.round == n] for n in range(1, t.round + 1)]
        return rules.elimination_places(by_round, rules.seed_order(entrants))
    return [s.id for s in rules.standings(entrants, results, buchholz=t.format == "swiss")]


async def pay_prizes(
    conn: Connection,
    t: Tournament,
    entrants: list[rules.Entrant],
    results: list[rules.Result],
    now: float,
    removed: frozenset[int],
) -> None:
    """The pool of fees to the places (a removed player wins none), in the transaction
    that finishes the tournament; the fees leave 'held' once, so this pays once."""
    pool = sum(amount for _, amount in await store.collect_fees(conn, t.id, now))
    places = [p for p in final_places(t, entrants, results) if p not in removed]
    shares = rules.prize_shares(pool, places, t.prize)
    for user_id, amount in shares.items():
        await chips.ensure_wallet(conn, t.guild_id, user_id, now, start=START_CHIPS)
        await chips.credit(
            conn, t.guild_id, user_id, amount, "payout", now, reason=f"tournament:{t.id}"
        )


async def refund(conn: Connection, t: Tournament, now: float, user_id: int | None = None) -> None:
    for guild_id, user, amount in await store.release_fees(conn, t.id, now, user_id):
        await chips.ensure_wallet(conn, guild_id, user, now, start=START_CHIPS)
        await chips.credit(conn, guild_id, user, amount, "refund", now, reason=f"tournament:{t.id}")


async def on_game_over(
    conn: Connection,
    game_id: int,
    winners: list[int] | None,
    now: float,
    places: dict[int, int] | None = None,
) -> None:
    """A table ended (``winners``: its winning members; None or empty: no winner;
    ``places``: each member's place, 1 the best). If it was a tournament match, record it
    and advance the tournament. Runs inside the table's finishing transaction."""
    match = await store.match_of_game(conn, game_id)
    if match is None:
        return
    await store.lock(conn, match.tournament_id)
    if len(match.players) > 2:
        # A table of three or more plays one game: done with its places (a table that
        # ended with no result: everyone level).
        found = places or {}
        worst = max(found.values(), default=0) + 1
        standing = [(u, found.get(u, worst) if found else 1) for u in match.players]
        if await store.finish_table(conn, match.id, standing, now):
            await advance(conn, match.tournament_id, now)
        return
    winner = next(
        (w for w in winners or [] if w in (match.a_id, match.b_id)), None
    ) if winners and len(winners) == 1 else None  # fmt: skip
    counted = await store.count_game(
        conn, match.id, None if winner is None else winner == match.a_id
    )
    if counted is None or counted.b_id is None:
        return  # counted already (a retry)
    t = await store.get(conn, match.tournament_id)
    assert t is not None
    final = t.format == "elimination" and counted.round == t.rounds
    over, match_winner = rules.match_over(
        t.final_best_of if final else t.best_of, counted.a_id, counted.b_id,
        counted.a_wins, counted.b_wins, counted.games,
    )  # fmt: skip
    if not over:
        await store.play_again(conn, match.id)  # the next tick opens its next game
    elif await store.finish_match(conn, match.id, match_winner, now):
        await advance(conn, match.tournament_id, now)

"""The tournament service (issue 25): sign-up, seeding, rounds that open themselves as
ordinary tables, and standings. Pairing is ``bot.rules.tournament``; the SQL is in
``bot.store.tournaments``.

A tournament advances exactly once per round, across processes: each match's end is
recorded in the transaction that finishes its table (``on_game_over``, called by the
table hooks), under a per-tournament lock, and the move to the next round is a
compare-and-set on the round number. Opening a round's tables comes after that commit
(``open_pending``): each match is claimed by a compare-and-set before its table opens.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bot.errors import StaleAction, UserError
from bot.rules import tournament as rules
from bot.store import tournaments as store
from bot.store import wallets as chips
from bot.store.db import Connection, Database
from bot.store.tournaments import FORMATS, Entry, Format, Match, Tournament
from bot.tables.clock import Clock
from bot.tables.model import Change
from bot.tables.service import TableService
from bot.tables.wallets import START_CHIPS

__all__ = ["FORMATS", "Entry", "Format", "Match", "Tournament", "Tournaments", "on_game_over"]

MIN_PLAYERS = 2
CLAIM_GRACE = 300.0  # seconds before a claim whose table never got linked is taken over


class TournamentError(Exception):
    """A refused tournament action; ``code`` names it for the presentation layer, which
    words it (no player-facing words in this layer)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class TournamentFeeShort(TournamentError):
    """The member's balance does not cover the entry fee."""

    def __init__(self, balance: int, fee: int) -> None:
        super().__init__("fee")
        self.balance = balance
        self.fee = fee


DROPPED = "dropped"  # the log's action: members dropped at the start for not checking in


@dataclass(frozen=True, slots=True)
class Picture:
    """A tournament as values, for the words and pictures."""

    tournament: Tournament
    entries: list[Entry]
    matches: list[Match]
    standings: list[rules.Standing]
    places: list[int]  # final order of a bracket (elimination), else empty
    # Chips each place won once it is over, best place first (what _pay_prizes paid).
    prizes: dict[int, int] = dataclasses.field(default_factory=dict)
    # Who was dropped at the start for not checking in (id, name), their fees refunded.
    dropped: list[tuple[int, str]] = dataclasses.field(default_factory=list)


def _entrants(entries: list[Entry]) -> list[rules.Entrant]:
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


def _results(matches: list[Match]) -> list[rules.Result]:
    out: list[rules.Result] = []
    for m in matches:
        if m.status != "done":
            continue
        if len(m.players) > 2:
            out += rules.table_results(m.round, table_places(m))
        else:
            out.append(rules.Result(m.round, m.a_id, m.b_id, m.winner_id))
    return out


async def _pair(
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


async def _advance(conn: Connection, tournament_id: int, now: float) -> None:
    """If the tournament's current round is over, pair the next (or finish): once."""
    t = await store.get(conn, tournament_id)
    if t is None or t.status != "running":
        return
    played = await store.matches(conn, tournament_id)
    if any(m.round == t.round and m.status != "done" for m in played):
        return
    entries = await store.entries(conn, tournament_id)
    entrants = _entrants(entries)
    removed = frozenset(e.user_id for e in entries if e.removed)
    # Swiss pairs those still in; a fixed schedule (round robin, a bracket) keeps everyone,
    # and a removed player's matches are forfeited as they come.
    field = [e for e in entrants if e.id not in removed] if t.format == "swiss" else entrants
    if len(field) < 2 and t.format == "swiss":
        pairs = None
    else:
        pairs = rules.next_round(t.format, field, _results(played), t.round, t.rounds)
    if pairs is None:
        if await store.move_to_round(conn, tournament_id, t.round, status="finished", now=now):
            await _pay_prizes(conn, t, entrants, _results(played), now, removed)
        return
    if not await store.move_to_round(conn, tournament_id, t.round, status="running", now=now):
        return  # another transaction moved it first
    await _pair(conn, t, t.round + 1, field, pairs, _results(played), now, removed)
    # A round whose every match is decided already (byes, forfeits): on to the next.
    await _advance(conn, tournament_id, now)


def final_places(
    t: Tournament, entrants: list[rules.Entrant], results: list[rules.Result]
) -> list[int]:
    """Ids by final place: a bracket by the round each went out in, else the standings."""
    if t.format == "elimination":
        by_round = [[r for r in results if r.round == n] for n in range(1, t.round + 1)]
        return rules.elimination_places(by_round, rules.seed_order(entrants))
    return [s.id for s in rules.standings(entrants, results, buchholz=t.format == "swiss")]


async def _pay_prizes(
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


async def _refund(conn: Connection, t: Tournament, now: float, user_id: int | None = None) -> None:
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
            await _advance(conn, match.tournament_id, now)
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
        await _advance(conn, match.tournament_id, now)


class Tournaments:
    def __init__(self, db: Database, tables: TableService, clock: Clock) -> None:
        self.db = db
        self.tables = tables
        self.clock = clock

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        settings: dict[str, Any],
        format: Format,
        rounds: int = 0,
        fee: int = 0,
        prize: str = "winner",
        best_of: int = 1,
        final_best_of: int = 1,
        actor_id: int,
        signup_minutes: int = 0,
        checkin_minutes: int = 0,
        seats: int = 2,
    ) -> Tournament:
        """``signup_minutes``: it starts by itself that long from now (0: when the organiser
        presses Start); ``checkin_minutes``: check-in opens that long before the start."""
        if format not in FORMATS:
            raise TournamentError("format")
        if prize not in rules.PRIZE_SPLITS or fee < 0:
            raise TournamentError("prize")
        if best_of not in (1, 3) or final_best_of not in (1, 3):
            raise TournamentError("best_of")
        if checkin_minutes and not 0 < checkin_minutes <= signup_minutes:
            raise TournamentError("checkin")
        game = self.tables.kind(kind)
        game.check_settings(settings)
        low, high = game.seat_limits(settings)
        if not low <= seats <= high or (not low <= 2 <= high and seats == 2):
            raise TournamentError("seats")
        if seats > 2 and format != "swiss":
            raise TournamentError("seats_format")
        if seats > 2 and (best_of != 1 or final_best_of != 1):
            raise TournamentError("seats_best_of")
        now = self.clock()
        starts_at = now + 60 * signup_minutes if signup_minutes > 0 else None
        checkin_at = (
            None if starts_at is None or not checkin_minutes else starts_at - 60 * checkin_minutes
        )
        return await store.create(
            self.db, guild_id=guild_id, channel_id=channel_id, kind=kind, settings=settings,
            game_key=game.game_key(settings), format=format, rounds=max(0, rounds),
            fee=fee, prize=prize, best_of=best_of, final_best_of=final_best_of,
            actor_id=actor_id, now=now, starts_at=starts_at, checkin_at=checkin_at, seats=seats,
        )  # fmt: skip

    async def get(self, tournament_id: int) -> Tournament:
        t = await store.get(self.db, tournament_id)
        if t is None:
            raise TournamentError("unknown")
        return t

    async def join(self, tournament_id: int, user_id: int, name: str) -> None:
        """Sign up, paying the entry fee into the pool (held like a table's stake)."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or not await store.add_entry(
                conn, tournament_id, user_id, name, now, rules.MAX_PLAYERS
            ):
                raise await self._join_refusal(conn, t, user_id)
            if t.fee > 0:
                await chips.ensure_wallet(conn, t.guild_id, user_id, now, start=START_CHIPS)
                if not await chips.debit(
                    conn, t.guild_id, user_id, t.fee, "escrow", now,
                    reason=f"tournament:{t.id}",
                ):  # fmt: skip
                    short = await chips.balance_in(conn, t.guild_id, user_id)
                    raise TournamentFeeShort(short, t.fee)
                await store.hold_fee(conn, t.id, t.guild_id, user_id, t.fee, now)

    @staticmethod
    async def _join_refusal(
        conn: Connection, t: Tournament | None, user_id: int
    ) -> TournamentError:
        """Why a Join did not count: sign-up closed, in already, or the field full."""
        if t is None or t.status != "signup":
            return TournamentError("join_closed")
        if user_id in {e.user_id for e in await store.entries(conn, t.id)}:
            return TournamentError("join_again")
        return TournamentError("join_full")

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Leave before the start: the fee comes back."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or not await store.remove_entry(conn, tournament_id, user_id):
                raise TournamentError("leave")
            await _refund(conn, t, now, user_id)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or not t.checkin_open(now):
                raise TournamentError("checkin_closed")
            if not await store.check_in(conn, tournament_id, user_id, now):
                signed = {e.user_id for e in await store.entries(conn, tournament_id)}
                raise TournamentError("checkin_again" if user_id in signed else "checkin_not_in")

    async def start(self, tournament_id: int) -> Tournament:
        """Seed by the game's rating and pair round one; ``open_pending`` opens its tables.
        With check-in, those who did not check in are dropped first, their fees refunded
        (in the same transaction: a start that fails drops nobody)."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or t.status != "signup":
                raise TournamentError("start")
            if t.checkin_at is not None:
                if now < t.checkin_at:
                    raise TournamentError("checkin_not_open")
                dropped = await store.drop_unchecked(conn, tournament_id)
                for user_id, _name in dropped:
                    await _refund(conn, t, now, user_id)
                if dropped:  # the standings say who (and that their fees went back)
                    players = [[user_id, name] for user_id, name in dropped]
                    await store.log(conn, tournament_id, 0, DROPPED, {"players": players}, now)
            entries = await store.entries(conn, tournament_id)
            if len(entries) < MIN_PLAYERS:
                raise TournamentError("players")
            ratings = await store.seed_ratings(
                conn, t.guild_id, t.game_key, [e.user_id for e in entries]
            )
            field = [rules.Entrant(e.user_id, ratings.get(e.user_id, 0.0)) for e in entries]
            order = rules.seed_order(field)
            await store.set_seeds(conn, tournament_id, [(u, ratings.get(u, 0.0)) for u in order])
            seeded = _entrants(await store.entries(conn, tournament_id))
            pairs = None if t.seats > 2 else rules.first_round(t.format, seeded)
            rounds = rules.planned_rounds(t.format, len(entries), t.rounds)
            assert await store.move_to_round(
                conn, tournament_id, 0, status="running", rounds=rounds, now=now
            )
            await _pair(conn, t, 1, seeded, pairs, [], now)
            if pairs is not None and all(p.b is None for p in pairs):
                await _advance(conn, tournament_id, now)
        return await self.get(tournament_id)

    async def start_due(self) -> tuple[list[int], list[int]]:
        """Start every tournament whose start time has come (once: the start is a
        compare-and-set on its status); one left with fewer than two players is cancelled,
        every fee refunded. Returns (started, cancelled) ids."""
        started: list[int] = []
        cancelled: list[int] = []
        for t in await store.due_starts(self.db, self.clock()):
            try:
                await self.start(t.id)
                started.append(t.id)
            except TournamentError as exc:
                if exc.code != "players":
                    continue  # another process started it meanwhile
                now = self.clock()
                async with self.db.transaction() as conn:
                    await store.lock(conn, t.id)
                    if await store.move_to_round(conn, t.id, 0, status="cancelled", now=now):
                        await _refund(conn, t, now)
                        cancelled.append(t.id)
        return started, cancelled

    async def checkin_opened(self) -> list[Tournament]:
        """Tournaments whose check-in has just opened (each returned once, across
        processes): their sign-up messages are to be redrawn with Check in."""
        return await store.claim_checkin_shown(self.db, self.clock())

    async def open_pending(self, tournament_id: int | None = None) -> list[int]:
        """Open a table for every match that needs one (claimed first, so each opens once),
        and start any whose process died between linking and starting it; returns the
        tables started. Call it after any match ends, and after a restart."""
        started: list[int] = []
        now = self.clock()
        for match in await store.pending_matches(self.db, now, CLAIM_GRACE, tournament_id):
            if match.b_id is None or not await store.claim_match(
                self.db, match.id, now, CLAIM_GRACE
            ):
                continue
            t = await self.get(match.tournament_id)
            name = {e.user_id: e.name for e in await store.entries(self.db, t.id)}
            table = await self.tables.open_lobby(
                guild_id=t.guild_id, channel_id=t.channel_id, host_id=match.a_id,
                host_name=name[match.a_id], kind=t.kind, settings=dict(t.settings),
                limits=False,  # a round opens all its tables, however many, at once
            )  # fmt: skip
            for user in match.seated[1:]:
                await self.tables.join(table.id, user, name[user])
            # Linked before the start: a crash after this leaves a lobby the next call
            # starts (below); a crash before it leaves a lobby that expires by itself.
            await store.set_match_game(self.db, match.id, table.id)
            await self.tables.start(table.id, match.a_id)
            started.append(table.id)
        for match in await store.unstarted_matches(self.db, now, CLAIM_GRACE):
            if tournament_id is None or match.tournament_id == tournament_id:
                assert match.game_id is not None
                try:
                    await self.tables.start(match.game_id, match.a_id)
                except UserError:
                    continue  # another process started (or closed) it meanwhile
                started.append(match.game_id)
        return started

    async def cancel(self, tournament_id: int, actor_id: int, actor_name: str) -> list[Change]:
        """Cancel: no result. Its running tables end early with no result (each refunds as
        any table does); returns their changes, for the caller to show."""
        t = await self.get(tournament_id)
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            if not await store.move_to_round(
                conn, tournament_id, t.round, status="cancelled", now=self.clock()
            ):
                raise TournamentError("cancel")
            await _refund(conn, t, self.clock())
            live = await store.live_match_games(conn, tournament_id)
        changes = []
        for game_id in live:
            try:
                changes.append(await self.tables.end(game_id, actor_id, True, actor_name))
            except StaleAction:
                continue  # it ended meanwhile
        return changes

    async def picture(self, tournament_id: int) -> Picture:
        t = await self.get(tournament_id)
        entries = await store.entries(self.db, tournament_id)
        matches = await store.matches(self.db, tournament_id)
        entrants = _entrants(entries)
        results = _results(matches)
        table = rules.standings(entrants, results, buchholz=t.format == "swiss")
        places: list[int] = []
        if t.format == "elimination" and entries:
            by_round = [[r for r in results if r.round == n] for n in range(1, t.round + 1)]
            places = rules.elimination_places(by_round, rules.seed_order(entrants))
        prizes: dict[int, int] = {}
        if t.status == "finished" and t.fee:
            # The pool of every fee held at the start (a removed player's stays in it),
            # to the places as _pay_prizes paid it.
            removed = {e.user_id for e in entries if e.removed}
            ranked = [p for p in final_places(t, entrants, results) if p not in removed]
            prizes = rules.prize_shares(t.fee * len(entries), ranked, t.prize)
        dropped = [
            (int(user_id), str(name))
            for _actor, action, detail in await store.log_entries(self.db, tournament_id)
            if action == DROPPED
            for user_id, name in detail.get("players", [])
        ]
        return Picture(t, entries, matches, table, places, prizes, dropped)

    async def listed(self, guild_id: int) -> list[Tournament]:
        return await store.listed(self.db, guild_id)

    async def due_posts(self) -> list[tuple[Tournament, int]]:
        """(tournament, value) to post: its round started, or (round + 1) it finished;
        claimed, so each is posted once."""
        out = []
        for t in await store.due_posts(self.db):
            value = t.round if t.status == "running" else t.round + 1
            if await store.claim_post(self.db, t.id, value):
                out.append((t, value))
        return out

    async def redraws(self) -> list[Tournament]:
        """Started tournaments whose live message is behind their matches (each returned
        once per change, across processes)."""
        return await store.claim_redraws(self.db)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await store.set_message(self.db, tournament_id, message_id)

    async def remove(
        self, tournament_id: int, user_id: int, actor_id: int, actor_name: str
    ) -> list[Change]:
        """The organiser removes a player: before the start as if they left (fee back);
        once it runs, their open and coming matches are forfeited (their fee stays in the
        pool, as a forfeited seat's stake does). Logged with who did it."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None:
                raise TournamentError("unknown")
            if t.status == "signup":
                if not await store.remove_entry(conn, tournament_id, user_id):
                    raise TournamentError("remove")
                await _refund(conn, t, now, user_id)
                await store.log(conn, t.id, actor_id, "remove", {"user_id": user_id}, now)
                return []
            if t.status != "running" or not await store.remove_player(
                conn, tournament_id, user_id, now
            ):
                raise TournamentError("remove")
            forfeited = await store.forfeit_open_matches(conn, tournament_id, user_id, now)
            for match in forfeited:
                if len(match.players) > 2:  # the others level above the removed one
                    others = [(u, 1) for u in match.players if u != user_id]
                    await store.finish_table(
                        conn, match.id, [*others, (user_id, len(others) + 1)], now,
                        only_playing=False,
                    )  # fmt: skip
            await store.log(conn, t.id, actor_id, "remove", {"user_id": user_id}, now)
            await _advance(conn, tournament_id, now)
        return await self._end_tables([m.game_id for m in forfeited], actor_id, actor_name)

    async def override(
        self, match_id: int, winner_id: int | None, actor_id: int, actor_name: str
    ) -> list[Change]:
        """The organiser sets a match's result (``winner_id`` None: a draw) while its round
        is being played; a table still running ends with no result. Logged with the result
        it replaced."""
        now = self.clock()
        async with self.db.transaction() as conn:
            match = await store.match_by_id(conn, match_id)
            if match is None:
                raise TournamentError("unknown")
            await store.lock(conn, match.tournament_id)
            match = await store.match_by_id(conn, match_id)
            t = await store.get(conn, match.tournament_id) if match else None
            if match is None or t is None or t.status != "running" or match.round != t.round:
                raise TournamentError("override")
            if match.b_id is None:
                raise TournamentError("override")
            if winner_id not in (*match.seated, None):
                raise TournamentError("override_winner")
            await store.log(
                conn, t.id, actor_id, "override",
                {"match": match.id, "was": match.winner_id, "status": match.status,
                 "now": winner_id},
                now,
            )  # fmt: skip
            if len(match.players) > 2:  # the winner first, the rest level (None: all level)
                standing = [(u, 1 if winner_id in (None, u) else 2) for u in match.players]
                await store.finish_table(conn, match.id, standing, now, only_playing=False)
            else:
                await store.set_result(conn, match.id, winner_id, now)
            if match.status == "done":  # a result changed, none added: redraw all the same
                await store.mark_unshown(conn, t.id)
            await _advance(conn, t.id, now)
        running = [match.game_id] if match.status != "done" else []
        return await self._end_tables(running, actor_id, actor_name)

    async def _end_tables(
        self, game_ids: list[int | None], actor_id: int, actor_name: str
    ) -> list[Change]:
        changes = []
        for game_id in game_ids:
            if game_id is None:
                continue
            try:
                changes.append(await self.tables.end(game_id, actor_id, True, actor_name))
            except StaleAction:
                continue  # over already
        return changes

    async def log(self, tournament_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        return await store.log_entries(self.db, tournament_id)

    async def match_for_table(self, table_id: int) -> Match | None:
        return await store.match_for_game(self.db, table_id)

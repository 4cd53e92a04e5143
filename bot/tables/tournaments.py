"""The tournament service (issue 25): sign-up, seeding, rounds that open as ordinary tables,
standings; it advances exactly once a round across processes (docs/reliability.md, "What fires
once")."""

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
from bot.tables.fair_play import FairPlay
from bot.tables.model import Change
from bot.tables.service import TableService
from bot.tables.tournament_options import FEE_MAX, Plan, check
from bot.tables.tournament_rounds import (
    advance,
    entrants_of,
    final_places,
    on_game_over,
    pair_round,
    refund,
    results_of,
)
from bot.tables.wallets import START_CHIPS

__all__ = [
    "FORMATS", "Entry", "Format", "Match", "Picture", "Tournament", "Tournaments",
    "on_game_over",
]  # fmt: skip

MIN_PLAYERS = 2
CLAIM_GRACE = 300.0  # seconds before a claim whose table never got linked is taken over


def refused(code: str, **values: object) -> UserError:
    """A refused tournament action: a ``tournament.*`` code, worded by the ui."""
    return UserError(code=f"tournament.{code}", **values)


DROPPED = "dropped"  # the log's action: members dropped at the start for not checking in


@dataclass(frozen=True, slots=True)
class Picture:
    """A tournament as values, for the words and pictures."""

    tournament: Tournament
    entries: list[Entry]
    matches: list[Match]
    standings: list[rules.Standing]
    places: list[int]  # final order of a bracket (elimination), else empty
    # Chips each place won once it is over, best place first (what pay_prizes paid).
    prizes: dict[int, int] = dataclasses.field(default_factory=dict)
    # Who was dropped at the start for not checking in (id, name), their fees refunded.
    dropped: list[tuple[int, str]] = dataclasses.field(default_factory=list)

    def through(self, match: Match) -> int | None:
        """Who went on from a done match of a bracket (``rules.through``: its winner, a
        bye's player, else the better seed); None while it is played."""
        if match.status != "done":
            return None
        seeds = rules.seed_order(entrants_of(self.entries))
        return rules.through(
            rules.Result(match.round, match.a_id, match.b_id, match.winner_id), seeds
        )


class Tournaments:
    def __init__(self, db: Database, tables: TableService, clock: Clock) -> None:
        self.db = db
        self.tables = tables
        self.fair_play = FairPlay(tables.kernel)  # a moderator's end of its games
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
        final_best_of: int | None = None,
        actor_id: int,
        signup_minutes: int = 0,
        checkin_minutes: int = 0,
        seats: int = 2,
        max_fee: int = FEE_MAX,
    ) -> Tournament:
        """``signup_minutes``: it starts by itself that long from now (0: when the organiser
        presses Start); ``checkin_minutes``: check-in opens that long before the start;
        ``final_best_of`` None: as every match; ``max_fee``: the bot's stake cap."""
        plan = Plan(
            format, rounds, fee, prize, best_of, final_best_of, signup_minutes,
            checkin_minutes, seats,
        )  # fmt: skip
        game = self.tables.kind(kind)
        game.check_settings(settings)
        check(plan, game.seat_limits(settings), max_fee)
        now = self.clock()
        starts_at = now + 60 * signup_minutes if signup_minutes > 0 else None
        checkin_at = (
            None if starts_at is None or not checkin_minutes else starts_at - 60 * checkin_minutes
        )
        return await store.create(
            self.db, guild_id=guild_id, channel_id=channel_id, kind=kind, settings=settings,
            game_key=game.game_key(settings), format=format, rounds=max(0, rounds),
            fee=fee, prize=prize, best_of=best_of, final_best_of=plan.final,
            actor_id=actor_id, now=now, starts_at=starts_at, checkin_at=checkin_at, seats=seats,
        )  # fmt: skip

    async def get(self, tournament_id: int) -> Tournament:
        t = await store.get(self.db, tournament_id)
        if t is None:
            raise refused("unknown")
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
                    raise refused("fee", balance=short, fee=t.fee)
                await store.hold_fee(conn, t.id, t.guild_id, user_id, t.fee, now)

    @staticmethod
    async def _join_refusal(conn: Connection, t: Tournament | None, user_id: int) -> UserError:
        """Why a Join did not count: sign-up closed, in already, or the field full."""
        if t is None or t.status != "signup":
            return refused("join_closed")
        if user_id in {e.user_id for e in await store.entries(conn, t.id)}:
            return refused("join_again")
        return refused("join_full", most=rules.MAX_PLAYERS)

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Leave before the start: the fee comes back."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or not await store.remove_entry(conn, tournament_id, user_id):
                raise refused("leave")
            await refund(conn, t, now, user_id)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or not t.checkin_open(now):
                raise refused("checkin_closed")
            if not await store.check_in(conn, tournament_id, user_id, now):
                signed = {e.user_id for e in await store.entries(conn, tournament_id)}
                raise refused("checkin_again" if user_id in signed else "checkin_not_in")

    async def start(self, tournament_id: int) -> Tournament:
        """Seed by the game's rating and pair round one; ``open_pending`` opens its tables.
        With check-in, those who did not check in are dropped first, their fees refunded
        (in the same transaction: a start that fails drops nobody)."""
        now = self.clock()
        async with self.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await store.get(conn, tournament_id)
            if t is None or t.status != "signup":
                raise refused("start")
            if t.checkin_at is not None:
                if now < t.checkin_at:
                    raise refused("checkin_not_open")
                dropped = await store.drop_unchecked(conn, tournament_id)
                for user_id, _name in dropped:
                    await refund(conn, t, now, user_id)
                if dropped:  # the standings say who (and that their fees went back)
                    players = [[user_id, name] for user_id, name in dropped]
                    await store.log(conn, tournament_id, 0, DROPPED, {"players": players}, now)
            entries = await store.entries(conn, tournament_id)
            if len(entries) < MIN_PLAYERS:
                raise refused("players")
            ratings = await store.seed_ratings(
                conn, t.guild_id, t.game_key, [e.user_id for e in entries]
            )
            field = [rules.Entrant(e.user_id, ratings.get(e.user_id, 0.0)) for e in entries]
            order = rules.seed_order(field)
            await store.set_seeds(conn, tournament_id, [(u, ratings.get(u, 0.0)) for u in order])
            seeded = entrants_of(await store.entries(conn, tournament_id))
            pairs = None if t.seats > 2 else rules.first_round(t.format, seeded)
            rounds = rules.planned_rounds(t.format, len(entries), t.rounds)
            assert await store.move_to_round(
                conn, tournament_id, 0, status="running", rounds=rounds, now=now
            )
            await pair_round(conn, t, 1, seeded, pairs, [], now)
            if pairs is not None and all(p.b is None for p in pairs):
                await advance(conn, tournament_id, now)
        return await self.get(tournament_id)

    async def start_due(self) -> tuple[list[int], list[int]]:
        """Start every tournament whose time came, once (a compare-and-set); one with fewer than two
        players is cancelled, fees back. Returns (started, cancelled)."""
        started: list[int] = []
        cancelled: list[int] = []
        for t in await store.due_starts(self.db, self.clock()):
            try:
                await self.start(t.id)
                started.append(t.id)
            except UserError as exc:
                if exc.code != "tournament.players":
                    continue  # another process started it meanwhile
                now = self.clock()
                async with self.db.transaction() as conn:
                    await store.lock(conn, t.id)
                    if await store.move_to_round(conn, t.id, 0, status="cancelled", now=now):
                        await refund(conn, t, now)
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
                raise refused("cancel")
            await refund(conn, t, self.clock())
            live = await store.live_match_games(conn, tournament_id)
        changes = []
        for game_id in live:
            try:
                changes.append(await self.fair_play.end(game_id, actor_id, True, actor_name))
            except StaleAction:
                continue  # it ended meanwhile
        return changes

    async def picture(self, tournament_id: int) -> Picture:
        t = await self.get(tournament_id)
        entries = await store.entries(self.db, tournament_id)
        matches = await store.matches(self.db, tournament_id)
        entrants = entrants_of(entries)
        results = results_of(matches)
        table = rules.standings(entrants, results, buchholz=t.format == "swiss")
        bracket = t.format == "elimination" and entries
        places = final_places(t, entrants, results) if bracket else []
        prizes: dict[int, int] = {}
        if t.status == "finished" and t.fee:
            # The pool of every fee held at the start (a removed player's stays in it),
            # to the places as pay_prizes paid it.
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
                raise refused("unknown")
            if t.status == "signup":
                if not await store.remove_entry(conn, tournament_id, user_id):
                    raise refused("remove")
                await refund(conn, t, now, user_id)
                await store.log(conn, t.id, actor_id, "remove", {"user_id": user_id}, now)
                return []
            if t.status != "running" or not await store.remove_player(
                conn, tournament_id, user_id, now
            ):
                raise refused("remove")
            forfeited = await store.forfeit_open_matches(conn, tournament_id, user_id, now)
            for match in forfeited:
                if len(match.players) > 2:  # the others level above the removed one
                    others = [(u, 1) for u in match.players if u != user_id]
                    await store.finish_table(
                        conn, match.id, [*others, (user_id, len(others) + 1)], now,
                        only_playing=False,
                    )  # fmt: skip
            await store.log(conn, t.id, actor_id, "remove", {"user_id": user_id}, now)
            await advance(conn, tournament_id, now)
        return await self._end_tables([m.game_id for m in forfeited], actor_id, actor_name)

    async def override(
        self,
        match_id: int,
        winner_id: int | None,
        actor_id: int,
        actor_name: str,
        winner_name: str = "",
    ) -> list[Change]:
        """The organiser sets a match's result (``winner_id`` None: a draw) while its round
        is being played; a table still running ends with no result. Logged with the result
        it replaced. ``winner_name``: for the refusal if they are not at the table."""
        now = self.clock()
        async with self.db.transaction() as conn:
            match = await store.match_by_id(conn, match_id)
            if match is None:
                raise refused("unknown")
            await store.lock(conn, match.tournament_id)
            match = await store.match_by_id(conn, match_id)
            t = await store.get(conn, match.tournament_id) if match else None
            if match is None or t is None or t.status != "running" or match.round != t.round:
                raise refused("override")
            if match.b_id is None:
                raise refused("override")
            if winner_id not in (*match.seated, None):
                raise refused("override_winner", name=winner_name)
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
            await advance(conn, t.id, now)
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
                changes.append(await self.fair_play.end(game_id, actor_id, True, actor_name))
            except StaleAction:
                continue  # over already
        return changes

    async def log(self, tournament_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        return await store.log_entries(self.db, tournament_id)

    async def match_for_table(self, table_id: int) -> Match | None:
        return await store.match_for_game(self.db, table_id)

"""``python -m bot demo [game]``: a whole game among bot players, offline, in seconds: a temporary
database, the real table service and rules, each move printed as the thread shows it (``--out
FILE.png``, ``--language de``)."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.games.base import Demo, Game
from bot.games.registry import Games
from bot.games.words import event_lines
from bot.i18n import SOURCE, catalogues
from bot.i18n.speaking import _, number, pgettext, speaking
from bot.render.common import chips, embed_as_text
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.model import Seat, Table
from bot.tables.names import unescape_markdown
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from bot.tables.wallets import START_CHIPS

DEMO_GUILD = 1
DEMO_CHANNEL = 2
HOST = 100


def _demos() -> dict[str, tuple[Game[Any], Demo]]:
    return {demo.name: (game, demo) for game in Games().presentations() for demo in game.demos}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        default="sequences",
        choices=sorted(_demos()),
        help="which game to play (default: sequences)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed the dice and cards, to replay a demo (default: random, a new game each run)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="board: write the final board picture to this PNG file",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument(
        "--language",
        default=SOURCE,
        help=f"the language to play in ({', '.join(catalogues().tags)}; default: {SOURCE})",
    )
    parser.add_argument(
        "--stake",
        type=int,
        default=250,
        help="then a staked game between two members playing well (0: skip)",
    )


def run(args: argparse.Namespace) -> int:
    books = catalogues()
    tag = books.resolve(args.language)
    if tag == SOURCE and args.language.replace("_", "-").split("-")[0].casefold() != SOURCE:
        print(
            f"error: no catalogue for {args.language!r}: pick one of {', '.join(books.tags)}",
            file=sys.stderr,
        )
        return 2
    with speaking(tag):  # asyncio.run's task reads the language of this context
        if not 0 <= args.stake <= START_CHIPS:
            # TRANSLATORS: keep --stake as it is: the option of python -m bot demo.
            message = _(
                "error: --stake must be between 0 and %(most)s, the chips each demo member "
                "starts with.",
                most=number(START_CHIPS),
            )
            print(message, file=sys.stderr)
            return 2
        try:
            return asyncio.run(_demo(args))
        except BrokenPipeError:
            # The reader stopped (``demo | head``): stop quietly, pointing stdout at nothing
            # so Python's flush at exit does not report the pipe again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _plain(text: str) -> str:
    return unescape_markdown(re.sub(r"\*\*|<t:\d+:R>", "", text))


class _Log:
    """Prints what the thread would show, move by move: the events each read of a table
    added, in words, and a mark where each stage of the game starts (a round, a
    tie-break: ``Game.stage``)."""

    def __init__(self, game: Game[Any], quiet: bool) -> None:
        self.game = game
        self.quiet = quiet
        self.stage: str | None = None

    def __call__(self, table: Table) -> None:
        if self.quiet:
            return
        for line in event_lines(table, table.fresh_events):
            print(_plain(line))
        stage = self.game.stage(table.rules) if table.status == "running" else None
        if stage is not None and stage != self.stage:
            print(f"-- {stage} --")
        self.stage = stage


async def _demo(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    game, demo = _demos()[args.game]
    clock = _Clock()
    with tempfile.TemporaryDirectory() as tmp:
        settings_obj = Settings(  # type: ignore[call-arg]
            _env_file=None, database_path=Path(tmp) / "demo.sqlite3", start_cooldown_seconds=0
        )
        db = await Database.open(settings_obj.database_path)
        try:
            from bot.tables.wallet_hooks import WalletHooks

            games = Games()
            service = TableService(
                TableKernel(db, games, settings_obj.table_limits(), clock, rng, WalletHooks(clock))
            )
            table = await service.open_lobby(
                guild_id=DEMO_GUILD,
                channel_id=DEMO_CHANNEL,
                host_id=HOST,
                host_name="Demo",
                kind=game.name,
                settings=dict(demo.settings),
                seat_host=False,
            )
            for level in demo.bot_levels:
                await service.add_bot(table.id, HOST, level)
            change = await service.start(table.id, HOST)
            names = ", ".join(s.name for s in change.table.seats)
            title = _(game.title(change.table.settings))
            print(f"{title} #{table.id}: {names}")
            # TRANSLATORS: the demo's second line: %(settings)s is the lobby's settings line.
            print(_("Settings: %(settings)s", settings=game.describe_settings(demo.settings)))
            print()
            log = _Log(game, args.quiet)
            log(change.table)
            for _tick in range(20_000):
                if change.table.status != "running":
                    break
                clock.now = (change.table.row.deadline or clock.now) + 0.01
                for fired in await TableTimers(service.kernel).run_due():
                    change = fired
                    # Every line the timer's move added, once: a table keeps only its last
                    # few events, so their count says nothing once the list is full.
                    log(fired.table)
            final = change.table
            print()
            shown = game.turn_view(final.snapshot())
            print(_plain(embed_as_text(shown.embed)))
            if args.out is not None:
                if shown.file is None:
                    print(
                        _("error: %(game)s has no picture to write", game=args.game),
                        file=sys.stderr,
                    )
                    return 2
                args.out.write_bytes(shown.file.fp.read())
                print("\n" + _("picture written to %(path)s", path=args.out))
            if args.stake > 0 and args.game == game.demos[0].name:
                await _staked_game(service, db, clock, rng, args, game, demo)
            return 0 if final.status == "finished" else 1
        finally:
            await db.close()


async def _staked_game(
    service: TableService,
    db: Database,
    clock: _Clock,
    rng: random.Random,
    args: argparse.Namespace,
    game: Game[Any],
    demo: Demo,
) -> None:
    """Two members stake chips, play by the game's member script (as if clicking), and the
    pot is paid: balances before and after, then the leaderboard. Games without a member
    script skip it."""
    from bot.store import stats
    from bot.tables import wallets

    probe = random.Random(0)
    seats = [Seat(1, "a"), Seat(2, "b")]
    if game.member_button(game.kind.start(demo.settings, seats, probe), probe) is None:
        return

    members = {201: "Ana", 202: "Bo"}
    print("\n" + _("== A staked game: %(chips)s each ==", chips=chips(args.stake)))
    for user, name in members.items():
        balance = _aligned(await wallets.balance(db, DEMO_GUILD, user))
        # TRANSLATORS: the demo's wallets before and after a staked game; keep the two
        # lines' amounts under each other (pad "after:" with spaces as in English).
        print(_("%(name)s before: %(balance)s", name=name.ljust(4), balance=balance))
    table = await service.open_lobby(
        guild_id=DEMO_GUILD,
        channel_id=DEMO_CHANNEL,
        host_id=201,
        host_name="Ana",
        kind=game.name,
        stake=args.stake,
        settings=dict(demo.settings),
    )
    await service.join(table.id, 202, "Bo")
    change = await service.start(table.id, 201)
    log = _Log(game, args.quiet)
    log(change.table)
    while change.table.status == "running":
        seat_index = game.kind.current_seat(change.table.rules)
        assert seat_index is not None
        seat = change.table.seats[seat_index]
        button = game.member_button(change.table.rules, rng)
        assert button is not None
        assert seat.user_id is not None
        change = await service.act(table.id, seat.user_id, change.table.version, button)
        log(change.table)
    for user, name in members.items():
        balance = _aligned(await wallets.balance(db, DEMO_GUILD, user))
        print(_("%(name)s after:  %(balance)s", name=name.ljust(4), balance=balance))
    key = game.kind.game_key(demo.settings)
    page = await stats.leaderboard(db, key, "server", DEMO_GUILD, "rating")
    label = _(game.labels.get(key, key))
    print("\n" + _("== Leaderboard · %(game)s · this server ==", game=label))
    # TRANSLATORS: the demo's leaderboard columns (short words: the columns widen to fit).
    heads = [
        "#",
        pgettext("demo column", "player"),
        pgettext("demo column", "rating"),
        pgettext("demo column", "won"),
        pgettext("demo column", "games"),
        pgettext("demo column", "chips"),
    ]
    widths = [max(w, len(h)) for w, h in zip((2, 8, 6, 4, 5, 7), heads, strict=True)]
    print(
        " ".join(
            h.ljust(w) if i == 1 else h.rjust(w)
            for i, (h, w) in enumerate(zip(heads, widths, strict=True))
        )
    )
    for row in page.rows:
        cells = [
            str(row.rank),
            row.name or "?",
            number(row.rating),
            number(row.wins),
            number(row.games),
            ("+" if row.chips_net >= 0 else "") + number(row.chips_net),
        ]
        print(
            " ".join(
                c.ljust(w) if i == 1 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )
        )
    report = await wallets.check_invariant(db)
    print(
        _(
            "ledger check: balances %(balances)s + held %(held)s = granted %(minted)s: %(state)s",
            balances=number(report.balances),
            held=number(report.held),
            minted=number(report.minted),
            # TRANSLATORS: the demo's ledger check result.
            state=_("ok") if report.ok else _("BROKEN"),
        )
    )


def _aligned(balance: int) -> str:
    """A balance in chips, its number right-aligned in six columns."""
    return " " * max(0, 6 - len(number(balance))) + chips(balance)

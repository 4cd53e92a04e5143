"""The web companion's rows (issue 33): a server's leaderboard page and a replay's step with
100,000 finished games in the store, each read through the real HTTP server the bot runs
(its pages' own process, ``bot.web_process``); and the push-your-luck click's p99 while 200
page requests are always in flight (from another process, as browsers would be), against
the same clicks with none. The two kinds of clicks take turns, ``ROUNDS`` times (the page
requests paused and resumed), so that a change of the machine's load meanwhile falls on
both; a note says where the CPU went while the pages were read."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from bench.env import Env
from bench.report import T0, Report, Sizes, quantile
from bench.targets import Targets

PLAYERS = 1_000  # on the leaderboard
CONCURRENT = 200  # page requests in flight while the clicks run
ROUNDS = 4  # clicks without page requests, then with them, this many times
CLICKS = 4  # times the section's click count, per kind: a p99 of 1,200, not of 300

# The browsers: CONCURRENT requests always in flight over the URLs given, until killed.
_LOAD = textwrap.dedent(
    """
    import asyncio, sys
    import aiohttp

    async def main(urls, concurrent):
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=concurrent)
        ) as session:
            async def one(i):
                while True:
                    try:
                        async with session.get(urls[i % len(urls)]) as response:
                            await response.read()
                    except aiohttp.ClientError:
                        await asyncio.sleep(0.01)
            print("ready", flush=True)
            await asyncio.gather(*(one(i) for i in range(concurrent)))

    asyncio.run(main(sys.argv[2:], int(sys.argv[1])))
    """
)


def finished_games(sizes: Sizes) -> int:
    return 100_000 if sizes.clicks >= 100 else 1_000  # --quick: a thousand


async def _players(env: Env, guild_id: int) -> None:
    """PLAYERS members with statistics on the push-your-luck board of the server."""
    rows = [
        (guild_id, "sequences", 50_000 + i, 10 + i % 40, i % 17, 25.0 + (i % 300) / 20, 3.0)
        for i in range(PLAYERS)
    ]
    async with env.bot.db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO player_stats (scope, game_key, user_id, games, wins, best_turn,"
            " chips_won, chips_lost, chips_net, streak, win_rate, rated_games, mu, sigma,"
            " ordinal, last_game_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0.3, 5, ?, ?, ? - 9.0, NULL, 0)",
            [(g, k, u, n, w, mu, s, mu) for g, k, u, n, w, mu, s in rows],
        )
        await conn.executemany(
            "INSERT INTO members (guild_id, user_id, display_name, updated_at) VALUES (?, ?, ?, 0)",
            [(guild_id, 50_000 + i, f"Player {i}") for i in range(PLAYERS)],
        )


async def _board_game(env: Env) -> int:
    """A board game of a few moves that Bo resigns: a replay with pictures."""
    board_id = await env.start_game("board start")
    for _ in range(12):
        await env.board_move(board_id)
    table = await env.bot.tables.get(board_id)
    player = env.players[table.seats[table.rules.turn].user_id]
    message = env.h.message(table.row.message_id)
    ask = await player.click(message, "Resign")
    await player.click(ask.message, "Resign")
    assert (await env.bot.tables.get(board_id)).status == "finished"
    return board_id


async def _timed(session: Any, url: str, count: int) -> list[float]:
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        async with session.get(url) as response:
            await response.read()
            assert response.status == 200, (url, response.status)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _cpu(pid: int, thread: int | None = None) -> float:
    """CPU seconds a process (or one of its threads) used so far; 0 when it is gone."""
    path = Path("/proc", str(pid), *(("task", str(thread)) if thread is not None else ()), "stat")
    try:
        fields = path.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_cpu() -> float:
    """CPU seconds every core spent busy so far (stolen time left out)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    except (OSError, ValueError):
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq = values
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def _cpu_split(pages: int, load: int) -> dict[str, float]:
    bot = _cpu(os.getpid())
    loop = _cpu(os.getpid(), os.getpid())  # the main thread: the bot's event loop
    pages_cpu, load_cpu = _cpu(pages), _cpu(load)
    machine = _machine_cpu()
    return {
        "bot's loop": loop,
        "bot's other threads": bot - loop,
        "pages' process": pages_cpu,
        "page requests": load_cpu,
        "others": machine - bot - pages_cpu - load_cpu,
    }


async def _pages_answered(session: Any, url: str) -> int:
    """Pages the process answered so far (its ``/metrics``; the operator's routes left out)."""
    async with session.get(url) as response:
        text = await response.text()
    found = re.findall(
        r'^bot_web_requests_total\{route="([a-z_]+)",status="\d+"\} (\S+)$', text, re.M
    )
    return int(sum(float(n) for route, n in found if route not in ("metrics", "healthz", "readyz")))


async def web_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    import aiohttp

    from bot.sim.live_games import insert_finished
    from bot.web.guard import RateLimit

    env = await Env(H, dbs, "web", seed, timers=False).start()
    server = None
    load = None
    try:
        guild_id = env.h.guild.id
        dice_id = await env.start_game("sequences start", rounds=2)
        await env.dice_clicks(40, dice_id)  # a game or two finished by clicks
        board_id = await _board_game(env)
        template = (await env.bot.tables.get(dice_id)).row
        count = finished_games(sizes)
        await insert_finished(env.bot.db, template, count, host_ids=[env.ana.id], at=T0)
        await _players(env, guild_id)
        # A live server's tables have statistics (PostgreSQL's autovacuum analyses them); the
        # 100,000 games inserted at once have none until it runs, as the store rows do.
        async with env.bot.db.transaction() as conn:
            await conn.execute("ANALYZE")
        assert env.bot.shell.web is not None
        web_id = await env.bot.shell.web.set_public(guild_id, True, env.ana.id)
        unlimited = RateLimit(per_second=1e9, burst=1e9)
        server = await env.bot.start_web("127.0.0.1", 0, unlimited)  # as setup_hook starts it
        assert server.port is not None and server.pid is not None
        port = server.port
        base = f"http://127.0.0.1:{port}/s/{web_id}"
        board_url = f"{base}?game=sequences&page=3"
        replay = await env.bot.shell.replays.load(board_id, guild_id)
        step_urls = [f"{base}/g/{board_id}?step={i}" for i in range(replay.last + 1)]
        n = max(20, sizes.clicks)
        async with aiohttp.ClientSession() as session:
            await _timed(session, board_url, 3)  # warm: templates compiled, caches filled
            boards = await _timed(session, board_url, n)
            steps: list[float] = []
            while len(steps) < n:
                for url in step_urls:
                    steps += await _timed(session, url, 1)
            started = time.perf_counter()
            pictures = await _timed(session, f"{base}/g/{board_id}/{replay.last}.png", 1)
            first_picture = (time.perf_counter() - started) * 1000
        report.add("web.board.p50", f"leaderboard page p50, {count:,} finished games", "ms",
                   quantile(boards, 0.5), goal="—")  # fmt: skip
        report.add("web.step.p50", f"replay step page p50, {count:,} finished games", "ms",
                   quantile(steps, 0.5), goal="—")  # fmt: skip
        report.add("web.board.p99", f"leaderboard page p99, {count:,} finished games", "ms",
                   quantile(boards, 0.99), goal="≤ 25 ms")  # fmt: skip
        report.add("web.step.p99", f"replay step page p99, {count:,} finished games", "ms",
                   quantile(steps, 0.99), goal="≤ 40 ms")  # fmt: skip
        report.add("web.picture", "replay step picture, first draw (off the loop)", "ms",
                   first_picture or pictures[0], goal="drawn once, then cached")  # fmt: skip

        load = subprocess.Popen(
            [sys.executable, "-c", _LOAD, str(CONCURRENT), board_url, *step_urls[:5]],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert load.stdout is not None
        await asyncio.to_thread(load.stdout.readline)  # "ready"
        quiet: list[float] = []
        busy: list[float] = []
        per_round = max(1, CLICKS * sizes.clicks // ROUNDS)
        spent = dict.fromkeys(_cpu_split(server.pid, load.pid), 0.0)
        spent_quiet = dict(spent)
        busy_seconds, quiet_seconds, answered = 0.0, 0.0, 0
        async with aiohttp.ClientSession() as session:
            for _ in range(ROUNDS):
                load.send_signal(signal.SIGSTOP)  # the page requests paused...
                await asyncio.sleep(0.3)  # ...and those under way answered
                before, started = _cpu_split(server.pid, load.pid), time.perf_counter()
                clicks, dice_id = await env.dice_clicks(per_round, dice_id)
                quiet_seconds += time.perf_counter() - started
                after = _cpu_split(server.pid, load.pid)
                for name in spent_quiet:
                    spent_quiet[name] += after[name] - before[name]
                quiet += clicks
                load.send_signal(signal.SIGCONT)
                await asyncio.sleep(0.5)  # every request in flight again
                before, pages = (
                    _cpu_split(server.pid, load.pid),
                    await _pages_answered(session, f"http://127.0.0.1:{port}/metrics"),
                )
                started = time.perf_counter()
                clicks, dice_id = await env.dice_clicks(per_round, dice_id)
                busy_seconds += time.perf_counter() - started
                after = _cpu_split(server.pid, load.pid)
                answered += (
                    await _pages_answered(session, f"http://127.0.0.1:{port}/metrics") - pages
                )
                busy += clicks
                for name in spent:
                    spent[name] += after[name] - before[name]
        ratio = quantile(busy, 0.99) / quantile(quiet, 0.99)
        report.add("web.clicks.quiet", "push-your-luck click p99, no page requests", "ms",
                   quantile(quiet, 0.99), goal="—")  # fmt: skip
        # Its ratio column is against the same clicks with no page requests (the floor here).
        report.add("web.clicks.busy", f"push-your-luck click p99, {CONCURRENT} page requests "
                   "in flight (ratio: against none)", "ms", quantile(busy, 0.99),
                   floor=quantile(quiet, 0.99), goal="≤ 1.2x")  # fmt: skip
        report.notes.append(
            f"web: click p99 {ratio:.2f}x with {CONCURRENT} page requests (p50 "
            f"{quantile(busy, 0.5):.2f} ms against {quantile(quiet, 0.5):.2f} ms; "
            f"{len(busy)} clicks of each kind in {ROUNDS} rounds); pages answered meanwhile "
            f"{answered / max(busy_seconds, 1e-9):,.0f}/s"
        )
        report.notes.append(
            "web: cores used while the pages were read, and while they were not ("
            + ", ".join(
                f"{name} {cpu / max(busy_seconds, 1e-9):.2f} and "
                f"{spent_quiet[name] / max(quiet_seconds, 1e-9):.2f}"
                for name, cpu in spent.items()
            )
            + f"; of {os.cpu_count()})"
        )
    finally:
        if load is not None:
            load.kill()
            load.wait()
        if server is not None:
            await server.stop()
        await env.stop()

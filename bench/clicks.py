"""The click sections: push-your-luck clicks beside N live games (and a restart among them),
board moves, bursts of clicks, and the locks closed tables leave behind."""

from __future__ import annotations

from typing import Any

from bench.database import no_group_commit
from bench.env import Env, burst_clicks
from bench.report import LATENCY, Report, Sizes, quantile
from bench.targets import Targets
from bot.tables.events import ENDED, Closed


def goal_click() -> str:
    return "≤ 2x at p50 and p99, at 10,000 live games with timers running"


async def click_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    f, w = report.floor, report.work_floor
    for slot, n in enumerate(sizes.live):
        env = await Env(H, dbs, f"click{n}", seed, timers=True).start()
        try:
            table_id = await env.start_game("sequences start", rounds=10)
            await env.copies(table_id, n - 1, env.spread(n))
            samples, table_id = await env.dice_clicks(sizes.clicks, table_id)
            for q in ("p50", "p99"):
                value = quantile(samples, 0.5 if q == "p50" else 0.99)
                report.add(
                    f"click.{slot}.{q}",
                    f"push-your-luck click {q}, N={n:,}, timers on",
                    "ms",
                    value,
                    floor=f.get(f"click_{q}"),
                    work_floor=w.get(f"click_{q}"),
                    goal=goal_click(),
                )
            if slot == 0:
                await slow_click(env, table_id, sizes, report)
            if n in sizes.restart:
                seconds, requests = await env.restart()
                which = sizes.restart.index(n)
                report.add(
                    f"restart.{which}.seconds",
                    f"restart, {n:,} live games: until restored",
                    "s",
                    seconds,
                    goal="≤ 2 s of bot-side work for 10,000",
                )
                report.add(
                    f"restart.{which}.requests",
                    f"restart, {n:,} live games: Discord requests",
                    "count",
                    requests,
                    goal="no burst beyond the rate limits",
                )
        finally:
            await env.stop()


async def slow_click(env: Env, table_id: int, sizes: Sizes, report: Report) -> None:
    env.h.set_latency(LATENCY)
    try:
        samples, _ = await env.dice_clicks(sizes.slow_clicks, table_id)
    finally:
        env.h.set_latency(0)
    f, w = report.floor, report.work_floor
    for q in ("p50", "p99"):
        value = quantile(samples, 0.5 if q == "p50" else 0.99)
        report.add(
            f"slow_click.{q}",
            f"click {q}, {LATENCY * 1000:.0f} ms per Discord request",
            "ms",
            value,
            floor=f.get(f"slow_{q}"),
            work_floor=w.get(f"slow_{q}"),
            goal="answer first",
        )


async def board_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    f, w = report.floor, report.work_floor
    for slot, n in enumerate(sizes.board_live):
        env = await Env(H, dbs, f"board{n}", seed, timers=True).start()
        try:
            board_id = await env.start_game("board start")
            if n > 1:
                dice_id = await env.start_game("sequences start", rounds=10)
                await env.copies(dice_id, n - 2, env.spread(n))
            samples: list[float] = []
            cards: list[float] = []
            for _ in range(sizes.board_moves * 4):
                if len(samples) >= sizes.board_moves:
                    break
                if (await env.bot.tables.get(board_id)).status != "running":
                    board_id = await env.start_game("board start")
                ms = await env.board_move(board_id)
                if ms is not None:
                    samples.append(ms)
                    cards.append(env.last_card_ms)
            for q in ("p50", "p99"):
                value = quantile(samples, 0.5 if q == "p50" else 0.99)
                report.add(
                    f"board.{slot}.{q}",
                    f"board move (card, then space) {q}, N={n:,}",
                    "ms",
                    value,
                    floor=f.get(f"two_{q}"),
                    work_floor=w.get(f"two_{q}"),
                    goal="≤ 2x",
                )
            for q in ("p50", "p99"):  # the card click alone, beside one click's floors
                report.add(
                    f"board.{slot}.card.{q}",
                    f"board card click {q}, N={n:,}",
                    "ms",
                    quantile(cards, 0.5 if q == "p50" else 0.99),
                    floor=f.get(f"click_{q}"),
                    work_floor=w.get(f"click_{q}"),
                    goal="≤ 1x the work floor (a dice click's)",
                )
        finally:
            await env.stop()


async def throw_button(env: Env) -> tuple[int, Any, str]:
    """A game started for the burst: its id, the player to move, and its Throw button."""
    table_id = await env.start_game("sequences start", rounds=10)
    table = await env.bot.tables.get(table_id)
    seat = table.game.current_seat(table.rules)
    assert seat is not None
    throw = next(
        b.custom_id
        for b in env.h.message(table.row.message_id).buttons
        if b.custom_id and b.custom_id.endswith(":throw")
    )
    return table_id, env.players[table.seats[seat].user_id], throw


async def throw_clicks(
    env: Env, table_id: int, player: Any, throw: str, count: int
) -> list[tuple[Any, Any, str]]:
    """``count`` copies of the table, and a click on each one's Throw."""
    ids = await env.copies(table_id, count, env.spread(count))
    clicks = []
    for game_id in ids:
        row = (await env.bot.tables.get(game_id)).row
        custom_id = throw.replace(f"t:{table_id}:", f"t:{game_id}:")
        clicks.append((player, env.h.message(row.message_id), custom_id))
    return clicks


async def burst_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    env = await Env(H, dbs, "burst", seed, timers=True).start()
    f, w = report.floor, report.work_floor
    try:
        table_id, player, throw = await throw_button(env)
        for slot, size in enumerate(sizes.bursts):
            clicks = await throw_clicks(env, table_id, player, throw, size)
            rate, p50, p99 = await burst_clicks(env.h, clicks)
            report.add(
                f"burst.{slot}.rate",
                f"burst of {size:,} clicks on {size:,} tables",
                "/s",
                rate,
                floor=f.get(f"burst{size}"),
                work_floor=w.get(f"burst{size}"),
                higher_is_better=True,
                goal="≥ 1,000 clicks/s",
            )
            report.add(
                f"burst.{slot}.p50",
                f"burst of {size:,}: p50 until answered",
                "ms",
                p50,
                floor=f.get(f"burst{size}_p50"),
                work_floor=w.get(f"burst{size}_p50"),
                goal="",
            )
            report.add(
                f"burst.{slot}.p99",
                f"burst of {size:,}: p99 until answered",
                "ms",
                p99,
                floor=f.get(f"burst{size}_p99"),
                work_floor=w.get(f"burst{size}_p99"),
                goal="p99 ≤ 1 s",
            )
        await single_burst(env, table_id, player, throw, sizes.bursts[-1], report)
        await locks(env, table_id, throw, player, sizes, report)
    finally:
        await env.stop()


async def single_burst(
    env: Env, table_id: int, player: Any, throw: str, size: int, report: Report
) -> None:
    """The biggest burst again on fresh tables, each click's save its own commit."""
    clicks = await throw_clicks(env, table_id, player, throw, size)
    with no_group_commit():
        rate, _, p99 = await burst_clicks(env.h, clicks)
    where, w = f"burst of {size:,}, no group commit", report.work_floor
    report.add(
        "burst.single.rate",
        where,
        "/s",
        rate,
        work_floor=w.get(f"burst{size}"),
        higher_is_better=True,
        goal="(what group commit saves)",
    )
    report.add(
        "burst.single.p99",
        f"{where}: p99 until answered",
        "ms",
        p99,
        work_floor=w.get(f"burst{size}_p99"),
    )


async def locks(
    env: Env, table_id: int, throw: str, player: Any, sizes: Sizes, report: Report
) -> None:
    """Per-table locks left behind by tables that were played once and then closed."""
    service, publisher = env.bot.tables, env.bot.shell.publisher
    before = service.live_locks(), publisher.live_locks()
    ids = await env.copies(table_id, sizes.closed, env.spread(sizes.closed))
    clicks = []
    for game_id in ids:
        row = (await service.get(game_id)).row
        clicks.append(
            (
                player,
                env.h.message(row.message_id),
                throw.replace(f"t:{table_id}:", f"t:{game_id}:"),
            )
        )
    await burst_clicks(env.h, clicks)
    for game_id in ids:
        change = await service.close_unseen(game_id, Closed(ENDED))  # shown as ended early
        if change is not None:
            await publisher.publish(change)
    await env.h.settle()
    n = sizes.closed
    report.add(
        "locks.service",
        f"table-service locks left by {n} closed tables",
        "count",
        service.live_locks() - before[0],
        goal="0",
    )
    report.add(
        "locks.publisher",
        f"publisher locks left by {n} closed tables",
        "count",
        publisher.live_locks() - before[1],
        goal="0",
    )

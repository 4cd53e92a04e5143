"""The floor: a bare ``commands.Bot`` whose no-op button edits its message, measured in the
same harness as the bot, so every ratio compares like with like."""

from __future__ import annotations

import time
from typing import Any

from bench.env import burst_clicks
from bench.report import LATENCY, Report, Sizes, ms_since, quantile


def noop_bot() -> Any:
    """A bare ``commands.Bot`` whose one ``DynamicItem`` answers a click by editing the
    message: discord.py's own dispatch and nothing else (the floor)."""
    import re

    import discord
    from discord.ext import commands

    class NoopButton(
        discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:(?P<n>[0-9]+)"
    ):
        def __init__(self, n: int) -> None:
            super().__init__(discord.ui.Button(label="Noop", custom_id=f"bench:{n}"))
            self.n = n

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> NoopButton:
            return cls(int(match["n"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await interaction.response.edit_message(content=f"clicked {self.n}")

    class FloorBot(commands.Bot):
        async def setup_hook(self) -> None:
            self.add_dynamic_items(NoopButton)

    return FloorBot(command_prefix="!", intents=discord.Intents.default())


class Floor:
    """The floor: a bare bot whose no-op button edits its message, in the same harness."""

    def __init__(self, H: Any) -> None:
        self.H = H

    async def start(self) -> Floor:
        self.h = await self.H.Harness.start(noop_bot(), settle_timeout=3600.0, answer_deadline=None)
        self.player = await self.h.member("Ana")
        self.made = 0
        return self

    def message(self) -> Any:
        self.made += 1
        button = {"type": 2, "style": 1, "label": "Noop", "custom_id": f"bench:{self.made}"}
        stored = self.h.fake.create_message(
            channel_id=self.h.channel_id,
            author=self.h.fake.bot_author(),
            fields={"content": "floor", "components": [{"type": 1, "components": [button]}]},
            files=[],
        )
        return self.h.message(stored.id)

    async def click(self, message: Any) -> float:
        started = time.perf_counter()
        reply = await self.player.click(message, custom_id=message.buttons[0].custom_id)
        return ms_since(started, reply.answered_at)

    async def clicks(self, count: int) -> list[float]:
        message = self.message()
        return [await self.click(message) for _ in range(count)]

    async def burst(self, size: int) -> tuple[float, float, float]:
        messages = [self.message() for _ in range(size)]
        return await burst_clicks(
            self.h, [(self.player, m, m.buttons[0].custom_id) for m in messages]
        )

    async def stop(self) -> None:
        await self.h.stop()


async def floor_section(H: Any, sizes: Sizes, report: Report) -> None:
    floor = await Floor(H).start()
    try:
        samples = await floor.clicks(max(sizes.clicks, 20))
        report.floor["click_p50"], report.floor["click_p99"] = (
            quantile(samples, 0.5),
            quantile(samples, 0.99),
        )
        pairs = [a + b for a, b in zip(samples[::2], samples[1::2], strict=False)]
        report.floor["two_p50"], report.floor["two_p99"] = (
            quantile(pairs, 0.5),
            quantile(pairs, 0.99),
        )
        for size in sizes.bursts:
            rate, p50, p99 = await floor.burst(size)
            report.floor[f"burst{size}"] = rate
            report.floor[f"burst{size}_p50"], report.floor[f"burst{size}_p99"] = p50, p99
        floor.h.set_latency(LATENCY)
        slow = await floor.clicks(sizes.slow_clicks)
        floor.h.set_latency(0)
        report.floor["slow_p50"], report.floor["slow_p99"] = (
            quantile(slow, 0.5),
            quantile(slow, 0.99),
        )
    finally:
        await floor.stop()

"""The work floor: the work a click cannot avoid, measured in the same harness as the bot.

A bare ``commands.Bot`` whose one ``DynamicItem`` does, per click, what any answer to a click
on a live game must do: read the game's row by primary key, write it back (the version moved
on, the compare-and-set on it) in one durable transaction, and answer with
``interaction.response.edit_message`` carrying a message of the bot's own turn message's
shape (its content, embed fields and characters, and buttons, measured from a real game in
the same run). A board move's floor is two such clicks plus one board frame encoded with
Pillow (the bot's own card-click picture, its size and PNG settings), attached to one of them.

The database is the bot's: ``Database.open`` on a new database of the same engine (the same
SQLite pragmas, or the same PostgreSQL server and settings), migrated, its ``games`` table
holding copies of the real game's row; the read is ``games.get`` and the write
``Database.write`` of ``games.update`` (the bot's group commit, so a burst's clicks share
commits as the bot's do). Whatever the bot does beyond this (its log, the timer loop, its
locks, rebuilding its views) is the distance the ``work_ratio`` shows.
"""

from __future__ import annotations

import copy
import io
import re
import time
from dataclasses import dataclass
from typing import Any

from bench.env import Env, burst_clicks
from bench.report import LATENCY, Report, Sizes, ms_since, quantile
from bench.targets import Targets
from bot.store import jsontext

# The board picture's PNG settings (bot/games/board/picture.py: render_board).
COMPRESS_LEVEL = 3
SHAPE_CLICKS = 24  # turn messages of a real game measured for the shape


@dataclass(frozen=True)
class Shape:
    """What a work-floor click reads, writes and answers, copied from a real game."""

    content: str
    embed: dict[str, Any]
    buttons: list[tuple[int, dict[str, Any]]]  # (action row, the button's payload)
    dice_row: Any  # the dice game's GameRow
    board_row: Any  # the board game's GameRow
    frame: bytes  # the bot's card-click picture (PNG)

    def describe(self) -> str:
        fields = len(self.embed.get("fields") or [])
        chars = len(self.content) + embed_chars(self.embed)
        return (
            f"work floor: the turn message's shape is {fields} fields, {chars} characters, "
            f"{len(self.buttons)} buttons; rows of {len(jsontext.dumps(self.dice_row.state))} "
            f"(dice) and {len(jsontext.dumps(self.board_row.state))} (board) characters of state; "
            f"a {len(self.frame) / 1024:.0f} KB board frame"
        )


def embed_chars(embed: dict[str, Any]) -> int:
    """Characters of an embed as Discord counts them (title, description, fields, footer)."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    for item in embed.get("fields") or []:
        total += len(item.get("name") or "") + len(item.get("value") or "")
    return total


def message_size(payload: dict[str, Any]) -> int:
    embeds = payload.get("embeds") or []
    return len(payload.get("content") or "") + sum(embed_chars(e) for e in embeds)


async def measure_shape(H: Any, dbs: Targets, seed: int) -> Shape:
    """The real bot's turn message (the median by characters of ``SHAPE_CLICKS`` turns of a
    push-your-luck game), both games' rows, and the picture of a board card click."""
    env = await Env(H, dbs, "workshape", seed, timers=False).start()
    try:
        table_id = await env.start_game("sequences start", rounds=10)
        shown: list[dict[str, Any]] = []
        rows = []
        for _ in range(SHAPE_CLICKS):
            if await env.dice_click(table_id) is None:
                table_id = await env.start_game("sequences start", rounds=10)
                continue
            table = await env.bot.tables.get(table_id)
            shown.append(copy.deepcopy(env.h.message(table.row.message_id).payload))
            rows.append(table.row)
        order = sorted(range(len(shown)), key=lambda i: message_size(shown[i]))
        middle = order[len(order) // 2]
        turn, dice_row = shown[middle], rows[middle]
        board_id = await env.start_game("board start")
        table = await env.bot.tables.get(board_id)
        player = env.players[table.seats[table.rules.turn].user_id]
        hand = (await player.click(env.h.message(table.row.message_id), "My hand")).message
        card = next(
            b
            for b in hand.buttons
            if b.custom_id and not b.disabled and b.label not in ("Refresh", "Back")
        )
        chosen = await player.click(hand, custom_id=card.custom_id)
        pictures = [a.data for a in chosen.files if a.filename.endswith(".png")]
        assert pictures, "the board's card click showed no picture"
        board_row = (await env.bot.tables.get(board_id)).row
    finally:
        await env.stop()
    buttons = [
        (r, button)
        for r, action_row in enumerate(turn.get("components") or [])
        for button in action_row.get("components") or []
        if button.get("type") == 2
    ]
    [embed] = turn.get("embeds") or [{}]
    return Shape(turn.get("content") or "", embed, buttons, dice_row, board_row, pictures[0])


def work_bot(db: Any, shape: Shape) -> Any:
    """A bare ``commands.Bot`` whose one ``DynamicItem`` does a click's unavoidable work."""
    import discord
    from discord.ext import commands
    from PIL import Image

    from bot.store import games

    frame_image = Image.open(io.BytesIO(shape.frame))
    frame_image.load()

    def answer(row: Any, frame: bool) -> dict[str, Any]:
        """The message a click answers with: the turn message's shape, this version's ids."""
        embed_data = copy.deepcopy(shape.embed)
        embed_data["footer"] = {"text": f"Game #{row.id} · version {row.version}"}
        files = []
        if frame:
            out = io.BytesIO()
            frame_image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
            out.seek(0)
            files.append(discord.File(out, filename="board.png"))
            embed_data["image"] = {"url": "attachment://board.png"}
        view = discord.ui.View(timeout=None)
        for i, (r, data) in enumerate(shape.buttons):
            emoji = (data.get("emoji") or {}).get("name")
            view.add_item(
                discord.ui.Button(
                    style=discord.ButtonStyle(data.get("style", 2)),
                    label=data.get("label"),
                    emoji=emoji,
                    disabled=bool(data.get("disabled")),
                    custom_id=f"work:{row.id}:{int(frame)}:{row.version}:{i}",
                    row=r,
                )
            )
        return {
            "content": shape.content,
            "embed": discord.Embed.from_dict(embed_data),
            "view": view,
            "attachments": files,
        }

    class WorkButton(
        discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=r"work:(?P<id>[0-9]+):(?P<frame>[01]):(?P<rest>.*)",
    ):
        def __init__(self, row_id: int, frame: bool, custom_id: str) -> None:
            super().__init__(discord.ui.Button(label="Work", custom_id=custom_id))
            self.row_id = row_id
            self.frame = frame

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> WorkButton:
            return cls(int(match["id"]), match["frame"] == "1", match.string)

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            row = await games.get(db, self.row_id)
            assert row is not None
            expected = row.version
            row.version += 1
            row.updated_at += 1
            await db.write(games.update(row, expected), order=row.id)
            await interaction.response.edit_message(**answer(row, self.frame))

    class WorkFloorBot(commands.Bot):
        async def setup_hook(self) -> None:
            self.add_dynamic_items(WorkButton)

    return WorkFloorBot(command_prefix="!", intents=discord.Intents.default())


class WorkFloor:
    """The work floor's bot on its own database (``rows`` copies of the dice game's row and
    one of the board game's), in the same harness as the bot."""

    def __init__(self, H: Any, dbs: Targets, shape: Shape, rows: int) -> None:
        self.H = H
        self.dbs = dbs
        self.shape = shape
        self.rows = rows

    async def start(self) -> WorkFloor:
        from bot.sim.live_games import insert_live_copies
        from bot.store.db import Database

        self.target = self.dbs.new("workfloor")
        self.db = await Database.open(self.target)
        try:
            self.dice_ids = await insert_live_copies(
                self.db,
                self.shape.dice_row,
                self.rows,
                place=lambda i: (self.shape.dice_row.channel_id, None),
                deadline=lambda i: None,
            )
            [self.board_id] = await insert_live_copies(
                self.db,
                self.shape.board_row,
                1,
                place=lambda i: (self.shape.board_row.channel_id, None),
                deadline=lambda i: None,
            )
            self.h = await self.H.Harness.start(
                work_bot(self.db, self.shape), settle_timeout=3600.0, answer_deadline=None
            )
        except BaseException:
            await self.db.close()
            self.dbs.drop(self.target)
            raise
        self.player = await self.h.member("Ana")
        return self

    def message(self, row_id: int, *, frame: bool = False) -> Any:
        """A message in the channel with the turn message's buttons for this row."""
        components: list[dict[str, Any]] = []
        for i, (r, data) in enumerate(self.shape.buttons):
            while len(components) <= r:
                components.append({"type": 1, "components": []})
            button = dict(data, custom_id=f"work:{row_id}:{int(frame)}:0:{i}")
            components[r]["components"].append(button)
        fake = self.h.fake
        stored = fake.create_message(
            channel_id=self.h.channel_id,
            author=fake.bot_author(),
            fields={
                "content": self.shape.content,
                "embeds": [self.shape.embed],
                "components": components,
            },
            files=[],
        )
        return self.h.message(stored.id)

    def button(self, message: Any) -> str:
        return str(next(b.custom_id for b in message.buttons if not b.disabled))

    async def click(self, message: Any) -> tuple[float, Any]:
        started = time.perf_counter()
        reply = await self.player.click(message, custom_id=self.button(message))
        return ms_since(started, reply.answered_at), reply.message

    async def clicks(self, count: int) -> list[float]:
        message = self.message(self.dice_ids[0])
        samples = []
        for _ in range(count):
            ms, message = await self.click(message)
            samples.append(ms)
        return samples

    async def board_moves(self, count: int) -> list[float]:
        """Two clicks per move: the first encodes and attaches a board frame."""
        card = self.message(self.board_id, frame=True)
        space = self.message(self.board_id)
        samples = []
        for _ in range(count):
            first, card = await self.click(card)
            second, space = await self.click(space)
            samples.append(first + second)
        return samples

    async def burst(self, size: int) -> tuple[float, float, float]:
        messages = [self.message(row_id) for row_id in self.dice_ids[:size]]
        return await burst_clicks(self.h, [(self.player, m, self.button(m)) for m in messages])

    async def version(self, row_id: int) -> int:
        """The row's version as the database holds it."""
        from bot.store import games

        row = await games.get(self.db, row_id)
        assert row is not None
        return int(row.version)

    async def stop(self) -> None:
        try:
            await self.h.stop()
        finally:
            await self.db.close()
            self.dbs.drop(self.target)


async def work_floor_section(H: Any, dbs: Targets, sizes: Sizes, report: Report, seed: int) -> None:
    shape = await measure_shape(H, dbs, seed)
    report.notes.append(shape.describe())
    floor = await WorkFloor(H, dbs, shape, max(*sizes.live, *sizes.bursts)).start()
    w = report.work_floor
    try:
        samples = await floor.clicks(max(sizes.clicks, 20))
        w["click_p50"], w["click_p99"] = quantile(samples, 0.5), quantile(samples, 0.99)
        moves = await floor.board_moves(max(sizes.board_moves, 10))
        w["two_p50"], w["two_p99"] = quantile(moves, 0.5), quantile(moves, 0.99)
        for size in sizes.bursts:
            rate, p50, p99 = await floor.burst(size)
            w[f"burst{size}"] = rate
            w[f"burst{size}_p50"], w[f"burst{size}_p99"] = p50, p99
        floor.h.set_latency(LATENCY)
        slow = await floor.clicks(sizes.slow_clicks)
        floor.h.set_latency(0)
        w["slow_p50"], w["slow_p99"] = quantile(slow, 0.5), quantile(slow, 0.99)
    finally:
        await floor.stop()

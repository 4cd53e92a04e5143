"""A played test server for the web pages: a board game that Bobby resigns after four moves
(a replay with pictures), a Hearts Due game played out, and its pages made public."""

from __future__ import annotations

from dataclasses import dataclass

from tests.discord.conftest import Env
from tests.discord.play import DICE_ORDER, needed
from tests.discord.test_board_game import open_board, play_turn
from tests.discord.test_dice_games import start_table
from tests.harness import Player


@dataclass
class Played:
    env: Env
    ana: Player
    bo: Player
    cy: Player
    admin: Player
    web_id: str


async def dice_out(env: Env, players: list[Player], table_id: int) -> None:
    """Play a dice table in the newest thread out: throw, then bank what can be banked."""
    by_id = {p.id: p for p in players}
    for _ in range(600):
        table = await env.bot.tables.get(table_id)
        if table.status != "running":
            return
        seat = table.seats[table.game.current_seat(table.rules)]
        shown = [m for m in env.h.messages(env.h.threads[-1]) if not m.ephemeral]
        message = [m for m in shown if m.components or m.embeds][-1]
        await by_id[seat.user_id or 0].click(message, **needed(message, *DICE_ORDER, prefix=True))
    raise AssertionError(f"table {table_id} did not finish")


async def play_server(env: Env, *, public: bool = True) -> Played:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bobby")
    cy, admin = await env.h.member("Cyrille"), await env.h.member("Dee", manage_guild=True)
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    for player in (ana, bo, ana, bo):
        await play_turn(env, player)
    ask = await bo.click(env.turn_message(), "Resign")
    await bo.click(ask.message, "Resign")
    assert (await env.bot.tables.get(1)).status == "finished"
    await start_table(env, ana, [cy], "heartsdue start", target=20)
    await dice_out(env, [ana, cy], 2)
    assert (await env.bot.tables.get(2)).status == "finished"
    web_id = ""
    if public:
        reply = await admin.slash("settings web", state="on")
        assert reply.ephemeral and "on the web" in reply.text, reply.text
        web_id = reply.text.split("/s/", 1)[1].split(" ", 1)[0]
    return Played(env, ana, bo, cy, admin, web_id)

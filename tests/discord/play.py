"""Whole games through the harness in any language: buttons are found by their custom_id
(``t:<table>:<version>:<action>``, the same in every language), never by their label."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tests.discord.conftest import Env
from tests.harness import Message, Player, Reply


def action_of(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[-1]


def button(message: Message, *actions: str, prefix: bool = False) -> dict[str, str] | None:
    """``custom_id=`` of the message's first enabled button for the first of ``actions``
    it has (an action's start, with ``prefix``), or None."""
    for wanted in actions:
        for b in message.buttons:
            if b.disabled or not b.custom_id:
                continue
            found = action_of(b.custom_id)
            if found == wanted or (prefix and found.startswith(wanted)):
                return {"custom_id": b.custom_id}
    return None


def needed(message: Message, *actions: str, prefix: bool = False) -> dict[str, str]:
    found = button(message, *actions, prefix=prefix)
    assert found is not None, f"no {actions} button in {[b.custom_id for b in message.buttons]}"
    return found


async def open_table(
    env: Env, command: str, host: Player, joiners: list[Player], **options: object
) -> Message:
    """Open a table with ``command`` (``"sequences start"``), every joiner joins, the host
    starts it; returns the lobby message."""
    lobby = (await host.slash(command, **options)).message
    for player in joiners:
        reply = await player.click(lobby, **needed(lobby, "join"))
        assert not reply.ephemeral, reply.text
        lobby = reply.message
    reply = await host.click(lobby, **needed(lobby, "start"))
    assert not reply.ephemeral, reply.text
    return lobby


# The dice games' actions in the order a cautious player takes them.
DICE_ORDER = ("throw", "bank", "lock", "push", "bonus")


async def play_out(
    env: Env,
    players: list[Player],
    table_id: int,
    turn: Callable[[Player], Awaitable[object]],
    limit: int,
) -> None:
    """Play a table out: each of ``players`` takes a ``turn`` when it is theirs, the bots
    theirs; fails if it has not finished within ``limit`` turns."""
    by_id = {p.id: p for p in players}
    for _ in range(limit):
        table = await env.bot.tables.get(table_id)
        if table.status != "running":
            return
        seat = table.seats[table.game.current_seat(table.rules)]
        if seat.is_bot or seat.user_id not in by_id:
            await env.run_bots()
            continue
        await turn(by_id[seat.user_id])
    raise AssertionError(f"table {table_id} did not finish")


async def play_dice(env: Env, players: list[Player], table_id: int, limit: int = 600) -> None:
    """Play a dice table out: throw, then bank what can be banked (else lock, push)."""

    async def turn(player: Player) -> None:
        message = env.turn_message()
        reply = await player.click(message, **needed(message, *DICE_ORDER, prefix=True))
        assert not reply.ephemeral, reply.text

    await play_out(env, players, table_id, turn, limit)


async def board_turn(env: Env, player: Player, table_id: int) -> Reply:
    """A board turn the way a person plays it: My hand, then a card (a trade or a pass if
    that is all there is), a row, a space, until the turn has passed."""
    before = (await env.bot.tables.get(table_id)).version
    hand = await player.click(env.turn_message(), **needed(env.turn_message(), "hand"))
    assert hand.ephemeral, hand.text
    reply = hand
    for _ in range(5):
        message = reply.message
        choice = button(message, "pass") or next(
            (
                {"custom_id": b.custom_id}
                for b in message.buttons
                if b.custom_id and not b.disabled and action_of(b.custom_id) != "hand"
            ),
            None,
        )
        assert choice is not None, f"nothing to press in {[b.custom_id for b in message.buttons]}"
        reply = await player.click(message, **choice)
        if (await env.bot.tables.get(table_id)).version != before:
            return reply
    raise AssertionError("a board turn took more than five clicks")


async def play_board(env: Env, players: list[Player], table_id: int, limit: int = 800) -> None:
    """Play a board table out, each turn as a person plays it (``board_turn``)."""

    async def turn(player: Player) -> None:
        await board_turn(env, player, table_id)

    await play_out(env, players, table_id, turn, limit)

"""Issue 19, item 18: a host who leaves an open lobby hands it to the next member seated,
on both engines, with every chip where it belongs."""

from __future__ import annotations

from bot.tables import wallets
from tests.discord.conftest import MakeEnv
from tests.harness import Player


async def test_the_host_leaving_hands_the_lobby_to_the_next_member(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy, di = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    db, guild = env.bot.db, env.h.guild.id

    async def balances(*players: Player) -> list[int]:
        return [await wallets.balance(db, guild, p.id) for p in players]

    lobby = (await ana.slash("sequences start", rounds=1, stake=100)).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    left = await ana.click(lobby, "Leave")
    assert not left.ephemeral and left.message.buttons  # the lobby stays open
    assert "👑 Ana left, so Bo is the host now." in lobby.text
    assert f"{bo.mention} (host)" in lobby.text and ana.mention not in lobby.text
    assert await balances(ana, bo, cy) == [1000, 900, 900]  # Ana's stake went back
    assert (await wallets.check_invariant(db)).ok

    # Bo hosts now: Cy still can't start, and Ana, gone, can't cancel.
    refused = await cy.click(lobby, "Start")
    assert refused.ephemeral and "Only the host" in refused.text
    refused = await ana.click(lobby, "Cancel")
    assert refused.ephemeral and "Only the host" in refused.text
    lobby = (await di.click(lobby, "Join")).message
    await bo.click(lobby, "Leave")
    assert "👑 Bo left, so Cy is the host now." in lobby.text
    assert await balances(ana, bo, cy, di) == [1000, 1000, 900, 900]
    await cy.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.row.host_id == cy.id
    assert [s.user_id for s in table.seats] == [cy.id, di.id]
    assert (await wallets.check_invariant(db)).ok

    # A host alone closes the lobby by leaving, and gets the stake back.
    lobby = (await ana.slash("sequences start", stake=50)).message
    assert await balances(ana) == [950]
    closed = await ana.click(lobby, "Leave")
    assert "The host left and nobody else is seated" in closed.message.text
    assert "refunded" in closed.message.text and closed.message.buttons == []
    assert await balances(ana) == [1000]
    # Bot players can't host: with only bots left, the lobby closes too.
    lobby = (await bo.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Add bot: optimal")).message
    closed = await bo.click(lobby, "Leave")
    assert (await env.bot.tables.get(3)).status == "cancelled"
    assert (await wallets.check_invariant(db)).ok

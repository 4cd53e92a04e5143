"""What play-testing tournaments as players and organisers found (issue 25): each a line a
player read wrong, or a message left behind."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv


async def test_a_cancel_redraws_the_sign_up_message(make_env: MakeEnv) -> None:
    """The sign-up message of a cancelled tournament says so, without Join/Leave/Start
    buttons that would only answer "sign-up is closed"; one that was running no longer
    shows its round as if it went on."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    waiting = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", fee=20
    )
    await ana.click(waiting.message, "Join")
    await org.slash("tournament cancel", tournament=1)
    assert "Cancelled: no result. Every entry fee was refunded." in waiting.message.text
    assert waiting.message.buttons == []

    running = await org.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (ana, bo):
        await p.click(running.message, "Join")
    await org.click(running.message, "Start")
    assert "Round 1 of 1" in running.message.text
    await org.slash("tournament cancel", tournament=2)
    assert "Cancelled: no result." in running.message.text
    assert "Round 1 of 1" not in running.message.text
    assert running.message.attachments == []


async def test_removing_a_player_before_the_start(make_env: MakeEnv) -> None:
    """Before the start there are no matches to forfeit: the organiser reads that the
    fee went back, and the sign-up list and pool lose the player."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", fee=20
    )
    for p in (ana, bo):
        await p.click(created.message, "Join")
    out = await org.slash("tournament remove", tournament=1, member=bo.member)
    assert out.text == f"{bo.mention} is out of tournament #1: their entry fee is refunded."
    assert "forfeit" not in out.text
    assert "Players (1)" in created.message.text and "Bo" not in created.message.text
    assert "prize pool 20 chips" in created.message.text
    assert "**1,000 chips**" in (await bo.slash("wallet")).text

    free = await org.slash("tournament create", game="sequences:standard", format="swiss")
    await bo.click(free.message, "Join")
    out = await org.slash("tournament remove", tournament=2, member=bo.member)
    assert out.text == f"{bo.mention} is out of tournament #2."
    assert "Nobody yet." in free.message.text


async def test_a_result_for_someone_not_at_the_table_says_so(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy = [await h.member(n) for n in ("Ana", "Bo", "Cy")]
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (ana, bo):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    (match,) = (await env.bot.shell.tournaments.picture(1)).matches
    wrong = await org.slash("tournament result", table=match.game_id, winner=cy.member)
    assert wrong.ephemeral
    assert wrong.text == "Cy is not playing at that table: pick one of its players as the winner."
    assert (await env.bot.tables.get(match.game_id or 0)).status == "running"

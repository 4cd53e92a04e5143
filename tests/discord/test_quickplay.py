"""Quick play through the real dispatch (issue 36, `where: here`): queue, ready check,
the table opened in a thread with both seated, refusals, no-shows, the Leave button, the
bot offer and a server turning quick play off. Hostile input: forged queue, ready and
leave ids, queuing twice, queuing while seated."""

from __future__ import annotations

from bot.i18n.speaking import speaking
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player
from tests.reliability.helpers import forge_click


def ready_message(env: Env, player: Player) -> Message:
    found = [
        m
        for m in env.h.messages()
        if not m.ephemeral
        and player.mention in m.content
        and any(b.custom_id and b.custom_id.startswith(f"qp:ready:{player.id}:") for b in m.buttons)
    ]
    assert found, [m.content for m in env.h.messages()]
    return found[-1]


def ready_id(message: Message) -> str:
    [button] = [b for b in message.buttons if b.custom_id and b.custom_id.startswith("qp:ready:")]
    assert button.custom_id is not None
    return button.custom_id


async def queue_two(env: Env) -> tuple[Player, Player]:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    first = await ana.slash("play queue", game="board")
    assert first.ephemeral
    assert first.text.startswith(
        "You're in the queue for Sequence (board game): number 1 of 1 waiting here."
    )
    assert "offered a bot after 60 seconds" in first.text
    second = await bo.slash("play queue", game="board")
    assert "number 2 of 2 waiting here. Estimated wait: a few seconds." in second.text
    assert [b.custom_id for b in second.message.buttons] == [f"qp:leave:{bo.id}"]
    await env.tick(1)
    return ana, bo


async def test_two_members_are_matched_press_ready_and_play_at_one_table(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await queue_two(env)
    asked = ready_message(env, ana)
    assert asked.content == (
        f"{ana.mention}, a match for Sequence (board game) with {bo.mention}: press Ready "
        "within 30 seconds."
    )
    cy = await env.h.member("Cy")
    # A forged or copied id: someone else's Ready, a made-up check, a leave of another's.
    forged = await cy.click(asked, custom_id=ready_id(asked))
    assert forged.ephemeral and forged.text == "This button is someone else's; nothing changed."
    first = await ana.click(asked, custom_id=ready_id(asked))
    assert first.message.content == "You're ready; waiting for the others."
    assert first.message.buttons == []
    again = await bo.slash("play queue", game="heartsdue")
    assert again.text == (
        "You're already in the queue (for Sequence (board game)): /play leave first."
    )
    out = await bo.slash("play leave")
    assert out.text.startswith("You've been matched: press Ready")
    last = ready_message(env, bo)
    await bo.click(last, custom_id=ready_id(last))
    [thread] = env.h.threads
    table = await env.bot.tables.get(1)
    assert table.status == "running" and [s.user_id for s in table.seats] == [ana.id, bo.id]
    assert table.row.thread_id == thread.id
    link = f"https://discord.com/channels/{env.h.guild.id}/{thread.id}"
    done = [m for m in env.h.messages(env.h.channel) if m.content.startswith("Everyone")]
    assert [m.content for m in done] == [f"Everyone is ready: your table is {link}"] * 2
    assert {m.id for m in done} == {asked.id, last.id} and done[0].buttons == []
    notices = [m for m in env.h.messages() if m.content.startswith("⚡ Quick play")]
    assert notices[0].content == (
        f"⚡ Quick play, Sequence (board game): {ana.mention}, {bo.mention} · table #1"
    )
    seated = await ana.slash("play queue", game="board")
    assert seated.ephemeral and seated.text == (
        f"You're playing at table #1 (<#{thread.id}>): finish it before you queue."
    )
    assert await env.bot.shell.quickplay.sizes(env.h.guild.id) == {}  # type: ignore[union-attr]


async def test_a_no_show_is_told_and_the_other_is_back_at_the_front(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await queue_two(env)
    asked = ready_message(env, ana)
    await ana.click(asked, custom_id=ready_id(asked))
    bos = ready_message(env, bo)
    stale = ready_id(bos)
    await env.tick(30)
    assert bos.content == (
        f"{bo.mention}, you didn't press Ready in time: you're back at the end of the queue."
    )
    assert bos.buttons == []
    late = await bo.click_stale(bos, stale)
    assert late.text == "That ready check is over."
    told = [m for m in env.h.messages() if m.content.startswith(f"{ana.mention}, ")]
    assert f"{bo.mention} didn't press Ready: you're back at the front of the queue." in (
        told[0].content
    )


async def test_the_leave_button_and_forged_ids(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    queued = await ana.slash("play queue", game="sequences", variant="reverse")
    assert "Sequences (Reverse)" in queued.text
    mine = await bo.slash("play queue", game="board")
    stolen = await forge_click(env, bo, mine, f"qp:leave:{ana.id}")
    assert stolen.text == "This button is someone else's; nothing changed."
    for forged in (f"qp:ready:{bo.id}:0", f"qp:ready:{bo.id}:99", "qp:bot:0", f"qp:x:{bo.id}"):
        answer = await forge_click(env, bo, mine, forged)
        assert answer.ephemeral, forged
        assert answer.text in (
            "This button is someone else's; nothing changed.",
            "That ready check isn't yours.",
            "That button isn't one of mine; nothing changed.",
        ), (forged, answer.text)
    assert (await env.bot.shell.quickplay.place(bo.id)).place == 1  # type: ignore[union-attr]
    left = await ana.click(queued, custom_id=f"qp:leave:{ana.id}")
    assert left.ephemeral and left.text == "You left the queue for Sequences (Reverse)."
    twice = await ana.click(queued, custom_id=f"qp:leave:{ana.id}")
    assert twice.text == "You're not in the queue."
    bad = await ana.slash("play queue", game="board", variant="sudden")
    assert bad.text == "Only Sequences has variants: leave variant empty."


async def test_the_bot_offer_comes_after_the_members_wait(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    queued = await ana.slash("play queue", game="heartsdue", **{"bot-after": 20})
    assert "offered a bot after 20 seconds" in queued.text
    await env.tick(19)
    assert not [m for m in env.h.messages() if "nobody near your rating" in m.content]
    await env.tick(1)
    [offer] = [m for m in env.h.messages() if "nobody near your rating" in m.content]
    assert offer.content == (
        f"{ana.mention}, nobody near your rating has come for Hearts Due yet. Play a bot "
        "now, or keep waiting."
    )
    played = await ana.click(offer, custom_id=f"qp:bot:{ana.id}")
    assert played.ephemeral and "Your table with a bot player: https://discord.com/" in played.text
    table = await env.bot.tables.get(1)
    assert table.status == "running" and [s.user_id for s in table.seats] == [ana.id, None]


async def test_turning_quick_play_off_takes_members_out_and_tells_them(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    admin = await env.h.member("Admin", manage_guild=True)
    ana = await env.h.member("Ana")
    await ana.slash("play queue", game="board")
    off = await admin.slash("settings quickplay", state="off")
    assert off.text == (
        "Quick play is off here: 1 member waiting was taken out of the queue and told."
    )
    [told] = [m for m in env.h.messages() if m.content.startswith(ana.mention)]
    assert told.content == (
        f"{ana.mention}, quick play was turned off on this server: you're out of the queue "
        "for Sequence (board game)."
    )
    refused = await ana.slash("play queue", game="board")
    assert refused.text == "Quick play is off on this server (/settings quickplay)."
    everywhere = await admin.slash("settings quickplay", state="everywhere")
    assert "matched with members of every server that chose everywhere" in everywhere.text
    queued = await ana.slash("play queue", game="board")
    assert queued.text.startswith("You're in the queue for Sequence (board game): number 1")
    assert "waiting here" in queued.text


async def test_blocks_are_private_and_respected(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    blocked = await ana.slash("play block", member=bo.member)
    assert blocked.ephemeral and blocked.text == f"You'll never be matched with {bo.mention}."
    listed = await ana.slash("play blocked")
    assert listed.ephemeral and listed.text == f"You're never matched with: {bo.mention}"
    await ana.slash("play queue", game="board")
    await bo.slash("play queue", game="board")
    await env.tick(1)
    assert not [m for m in env.h.messages() if "press Ready" in m.content]
    await ana.slash("play unblock", member=bo.member)
    await env.tick(1)
    assert ready_message(env, ana) and ready_message(env, bo)
    none = await bo.slash("play blocked")
    assert none.text == "You haven't blocked anyone."


async def test_rules_explain_quick_play_in_the_members_language(make_env: MakeEnv) -> None:
    """Issue 36.7: /rules has a quick-play page with the matcher's numbers and the buttons'
    words, in English and in each member's language."""
    env = await make_env()
    ana = await env.h.member("Ana")
    page = await ana.slash("rules", game="quickplay")
    text = " ".join(page.text.split())
    assert page.ephemeral
    assert "±100 at once, 50 wider every 10 seconds of waiting, at most ±700" in text
    assert "**Ready**" in text and "**Play a bot now**" in text
    ana.locale = "de"
    with speaking("de"):
        page = await ana.slash("rules", game="quickplay")
    assert "**Bereit**" in page.text and "/spielen warteschlange" in page.text
    assert "Ready" not in page.text

"""A tournament through the harness (issue 25): sign-up with Join/Leave, the organiser's
Start, each match an ordinary table in its own thread with the paired members seated, the
next round opened by the bot's tick (across a restart), standings posted each round, and
the final ones in /tournament show and /tournament list."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.harness import Player


async def end_playing_matches(env: object, players: dict[int, Player], order: list[int]) -> int:
    """Every running match of tournament 1 ends: the member later in ``order`` resigns with
    the Resign button of the match's own turn message. Returns how many ended."""
    bot = env.bot  # type: ignore[attr-defined]
    h = env.h  # type: ignore[attr-defined]
    picture = await bot.shell.tournaments.picture(1)
    ended = 0
    for match in [m for m in picture.matches if m.status == "playing"]:
        table = await bot.tables.get(match.game_id)
        assert table.status == "running" and table.row.thread_id is not None
        assert {s.user_id for s in table.seats} == {match.a_id, match.b_id}
        loser = max((match.a_id, match.b_id), key=order.index)
        turn = h.message(table.row.message_id)
        assert turn.channel_id == table.row.thread_id  # the match plays in its own thread
        ask = await players[loser].click(turn, "Resign")
        await players[loser].click(ask.message, "Resign")
        assert (await bot.tables.get(match.game_id)).status == "finished"
        ended += 1
    return ended


async def test_a_round_robin_from_sign_up_to_standings(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy, di = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    players = {p.id: p for p in (ana, bo, cy, di)}

    refused = await ana.slash("tournament create", game="sequences:standard", format="swiss")
    assert refused.ephemeral and refused.text == "You need Manage Server to run a tournament."
    created = await org.slash(
        "tournament create", game="sequences:standard", format="round_robin", fee=100
    )
    assert not created.ephemeral
    assert "Tournament #1 · Round robin · Sequences" in created.text
    assert "Sign-up is open" in created.text and "Nobody yet." in created.text
    signup = created.message
    for p in (ana, bo, cy, di):
        await p.click(signup, "Join")
    await di.click(signup, "Leave")
    again = await ana.click(signup, "Join")
    assert again.ephemeral
    assert again.text == "You are signed up already."
    assert "Players (3)" in signup.text and "Di" not in signup.text
    assert "Entry fee 100 chips · prize pool 300 chips, all to the winner" in signup.text
    assert "**1,000 chips**" in (await di.slash("wallet")).text  # Di's fee came back
    assert "**900 chips**" in (await ana.slash("wallet")).text
    no = await ana.click(signup, "Start")
    assert no.ephemeral
    assert no.text == "Only the organiser or a member with Manage Server can start it."

    await org.click(signup, "Start")
    assert signup.buttons == []  # sign-up closed
    # Three players (seeded by id, all unrated): a round each pairs two, the third has a
    # bye. Round one's table is up in its own thread, and round one's standings posted.
    assert len(h.threads) == 1
    board = h.last_message(h.channel)
    assert "Round 1 of 3" in board.text
    order = [ana.id, bo.id, cy.id]  # who beats whom: the earlier in this list wins
    assert await end_playing_matches(env, players, order) == 1

    # The next round opens on the bot's next tick, after a restart too.
    await env.restart()
    await env.tick()
    assert len(h.threads) == 2
    assert "Round 2 of 3" in h.last_message(h.channel).text
    assert await end_playing_matches(env, players, order) == 1
    await env.tick()
    assert "Round 3 of 3" in h.last_message(h.channel).text
    assert await end_playing_matches(env, players, order) == 1
    await env.tick()
    final = h.last_message(h.channel)
    # By hand: Ana beat Bo and Cy, Bo beat Cy, and each had one bye (a win):
    # Ana 3 points (2-0-0 and the bye), Bo 2 (1-0-1 and the bye), Cy 1 (0-0-2 and the bye).
    assert "🏆 **Ana** won." in final.text
    assert "` 1.` Ana · **3** pts · 2-0-0 · 1 bye" in final.text
    assert "` 2.` Bo · **2** pts · 1-0-1 · 1 bye" in final.text
    assert "` 3.` Cy · **1** pt · 0-0-2 · 1 bye" in final.text
    await env.tick()
    assert h.last_message(h.channel).id == final.id  # the final standings post once

    # The pool of 300 went to Ana, once.
    wallet = await ana.slash("wallet")
    assert "**1,200 chips**" in wallet.text and "Prize of tournament #1" in wallet.text
    assert "**900 chips**" in (await bo.slash("wallet")).text

    shown = await bo.slash("tournament show")
    assert "🏆 **Ana** won." in shown.text
    listed = await bo.slash("tournament list")
    assert listed.text == "**#1** · Round robin · Sequences · finished: 🏆 Ana"
    cancel = await org.slash("tournament cancel", tournament=1)
    assert cancel.ephemeral and cancel.text == "This tournament is over already."


async def test_fees_refused_when_short_and_refunded_by_a_cancel(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    await org.slash("chips take", member=bo.member, amount=800, reason="test")
    created = await org.slash(
        "tournament create", game="board", format="elimination", fee=300, prize="top2",
        final_best_of=3,
    )  # fmt: skip
    assert "Single elimination · Sequence" in created.text
    assert "70 % / 30 %" in created.text
    assert "The final: best of 3" in created.text
    await ana.click(created.message, "Join")
    short = await bo.click(created.message, "Join")
    assert short.ephemeral
    assert short.text == "You have 200 chips; this tournament's entry fee is 300."
    await org.click(created.message, "Join")
    await org.click(created.message, "Start")
    assert len(h.threads) == 1  # Ana and Org at a board game table
    cancelled = await org.slash("tournament cancel", tournament=1)
    assert "Tournament #1 is cancelled: no result. Every entry fee is refunded." in (cancelled.text)
    wallet = await ana.slash("wallet")
    assert "**1,000 chips**" in wallet.text
    assert "Entry fee back from tournament #1" in wallet.text
    assert (
        "Cancelled: no result. Every entry fee was refunded."
        in (await ana.slash("tournament show")).text
    )


async def test_the_rules_of_tournaments(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    page = await ana.slash("rules", game="tournaments")
    assert page.ephemeral
    assert page.embeds[0]["title"] == "Rules · Tournaments: pairing, byes and tie-breaks"
    assert "a bye counts as a win, once per player" in page.text
    assert "Buchholz" in page.text
    choices = await ana.autocomplete("rules", "game", "tourn")
    assert choices == [
        {"name": "Tournaments: pairing, byes and tie-breaks", "value": "tournaments"}
    ]


async def test_the_organiser_sets_a_result_and_removes_a_player(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy = [await h.member(n) for n in ("Ana", "Bo", "Cy")]
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (ana, bo, cy):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    # Round one of three: two play, the third has the bye; the organiser decides the match.
    picture = await env.bot.shell.tournaments.picture(1)
    (match,) = [m for m in picture.matches if m.status == "playing"]
    players = {p.id: p for p in (ana, bo, cy)}
    winner = players[match.b_id]  # type: ignore[index]
    refused = await winner.slash("tournament result", table=match.game_id, winner=winner.member)
    assert refused.ephemeral
    assert refused.text == "Only the organiser or a member with Manage Server can do that."
    done = await org.slash("tournament result", table=match.game_id, winner=winner.member)
    assert f"Table #{match.game_id} of tournament #1 is now won by {winner.mention}" in done.text
    assert (await env.bot.tables.get(match.game_id)).status == "ended"  # type: ignore[arg-type]
    assert "Round 2 of 2" in h.last_message(h.channel).text  # the round was over: on to two
    log = await env.bot.shell.tournaments.log(1)
    assert [(actor, action) for actor, action, _ in log] == [(org.id, "override")]

    bye = next(m.a_id for m in picture.matches if m.b_id is None)
    out = await org.slash("tournament remove", tournament=1, member=players[bye].member)
    assert "is out of tournament #1: their matches are forfeited." in out.text
    await env.tick()
    final = await ana.slash("tournament show")
    assert "🏆" in final.text  # round two was forfeited: the tournament is over
    assert players[bye].name not in final.text.split("won.")[0]
    late = await org.slash("tournament result", table=match.game_id)
    assert late.ephemeral
    assert late.text == "Only a match of the round being played can be changed."


async def test_check_in_drops_who_did_not_and_refunds_them(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy, di = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lone = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", checkin=10
    )
    assert lone.ephemeral
    assert lone.text == (
        "Check-in needs a sign-up window at least as long: set signup-minutes too."
    )
    created = await org.slash(
        "tournament create", game="sequences:standard", format="round_robin", fee=100,
        signup=30, checkin=10,
    )  # fmt: skip
    signup = created.message
    assert "It starts <t:" in signup.text and "or you are dropped" in signup.text
    for p in (ana, bo, di):
        await p.click(signup, "Join")
    assert signup.labels == ["Join", "Leave", "Start"]
    early = await org.click(signup, "Start")
    assert early.ephemeral
    assert early.text == "Check-in has not opened yet: start once it has, or wait."

    # Twenty minutes on, check-in opens: the sign-up message gets its Check in button (by
    # the tick, across a restart: it is all in the database).
    await env.restart()
    await env.tick(20 * 60 + 1)
    assert signup.labels == ["Join", "Leave", "Check in", "Start"]
    assert "**Check-in is open**" in signup.text
    await ana.click(signup, "Check in")
    await bo.click(signup, "Check in")
    again = await bo.click(signup, "Check in")
    assert again.ephemeral
    assert again.text == "You are checked in already."
    await cy.click(signup, "Join")  # joining during check-in checks in too
    assert "Players (4, 3 checked in)" in signup.text
    assert "Ana ✅" in signup.text and "Di ✅" not in signup.text
    await env.tick(10 * 60)  # the start: Di did not check in
    assert signup.buttons == []
    assert "Round 1 of 3" in signup.text
    # Di is out of the standings, and the message says why (and that the fee went back).
    assert "Dropped for not checking in, their entry fee refunded: Di\n" in signup.text
    assert signup.text.count("Di") == 1
    assert len(h.threads) == 1  # three players: one match, one bye
    assert "**1,000 chips**" in (await di.slash("wallet")).text  # Di's fee came back
    assert "**900 chips**" in (await cy.slash("wallet")).text


async def test_a_timed_start_with_too_few_checked_in_is_cancelled(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", fee=50, signup=15,
        checkin=5,
    )  # fmt: skip
    for p in (ana, bo):
        await p.click(created.message, "Join")
    await env.tick(10 * 60)
    await ana.click(created.message, "Check in")
    await env.tick(5 * 60)
    assert "Cancelled: no result. Every entry fee was refunded." in created.message.text
    assert created.message.buttons == []
    for p in (ana, bo):
        assert "**1,000 chips**" in (await p.slash("wallet")).text


async def test_a_role_the_server_names_may_run_tournaments(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    mod = await h.member("Mod", manage_guild=True)
    hosts = await h.role("Hosts")
    eve = await h.member("Eve", roles=[hosts])
    ana, bo = await h.member("Ana"), await h.member("Bo")
    refused = await eve.slash("settings organiser-role", role=hosts)
    assert refused.ephemeral
    assert refused.text == "You need Manage Server to change game settings."
    nobody = await mod.slash("settings organiser-role", role=h.guild.default_role)
    assert nobody.text == "Choose a role: not everyone can run tournaments."
    done = await mod.slash("settings organiser-role", role=hosts)
    assert done.ephemeral and done.text.startswith(f"Members with {hosts.mention} can run")

    # Eve (the role, no Manage Server) creates one; Ana (neither) may not.
    no = await ana.slash("tournament create", game="sequences:standard", format="swiss")
    assert no.ephemeral
    assert no.text == "You need Manage Server or the Hosts role to run a tournament."
    mine = await mod.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (ana, bo):
        await p.click(mine.message, "Join")
    await eve.click(mine.message, "Start")  # another's tournament: the role may start it
    assert "Round 1 of 1" in mine.message.text
    picture = await env.bot.shell.tournaments.picture(1)
    (match,) = [m for m in picture.matches if m.status == "playing"]
    set_ = await eve.slash("tournament result", table=match.game_id, winner=ana.member)
    assert not set_.ephemeral and "is now won by" in set_.text
    second = await eve.slash("tournament create", game="sequences:standard", format="swiss")
    assert not second.ephemeral
    await bo.click(second.message, "Join")
    out = await eve.slash("tournament remove", tournament=2, member=bo.member)
    assert "is out of tournament #2" in out.text
    cancel = await eve.slash("tournament cancel", tournament=2)
    assert "Tournament #2 is cancelled" in cancel.text

    # The role unset: Eve is back to an ordinary member.
    await mod.slash("settings organiser-role")
    again = await eve.slash("tournament create", game="sequences:standard", format="swiss")
    assert again.text == "You need Manage Server to run a tournament."


async def test_a_match_table_opens_as_an_ordinary_table_does(make_env: MakeEnv) -> None:
    """Item 4: the match's first player is called by the turn ping in its thread, and a
    refused thread puts the match in the channel, as for any table."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy, di = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (ana, bo, cy, di):
        await p.click(created.message, "Join")
    h.fail_next("POST", r"/messages/\d+/threads$", 403)  # the first match's thread: refused
    await org.click(created.message, "Start")
    picture = await env.bot.shell.tournaments.picture(1)
    first, second = [await env.bot.tables.get(m.game_id or 0) for m in picture.matches]
    assert first.row.thread_id is None  # in the channel, saying why
    assert first.row.message_id is not None
    in_channel = h.message(first.row.message_id)
    assert in_channel.channel_id == h.channel.id
    assert "thread" in in_channel.text.lower()
    [thread] = h.threads
    assert second.row.thread_id == thread.id
    pings = [m for m in h.messages(thread) if "your turn" in m.content]
    seated = {f"<@{s.user_id}>" for s in second.seats}
    assert len(pings) == 1 and any(mention in pings[0].content for mention in seated)


async def test_a_swiss_at_tables_of_three(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy = [await h.member(n) for n in ("Ana", "Bo", "Cy")]
    players = {p.id: p for p in (ana, bo, cy)}
    bracket = await org.slash(
        "tournament create", game="sequences:standard", format="elimination", seats=3
    )
    assert bracket.ephemeral
    assert bracket.text == "Tables of three or more are for Swiss: pick Swiss, or 2 seats."
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", seats=3, rounds=1
    )
    assert "Tables of up to 3" in created.text
    for p in (ana, bo, cy):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    picture = await env.bot.shell.tournaments.picture(1)
    (match,) = picture.matches
    assert match.game_id is not None and len(match.players) == 3
    table = await env.bot.tables.get(match.game_id)
    assert {s.user_id for s in table.seats} == set(players)
    notice = h.last_message(h.channel)
    assert all(f"<@{u}>" in notice.text for u in players) or len(h.threads) == 1
    # Bo and Cy resign (they share second place): Ana wins the table. By hand, at a table
    # of three each pair is worth 1/2: Ana 1, Bo and Cy half of their drawn pair, 1/4.
    for loser in (bo, cy):
        await env.bot.peers.fair_play.resign(match.game_id, loser.id)
    await env.tick()
    final = h.last_message(h.channel)
    assert "🏆 **Ana** won." in final.text
    assert "` 1.` Ana · **1** pt · places 1 · Buchholz 0.5" in final.text
    assert "` 2.` Bo · **0.25** pts · places 2 · Buchholz 1.25" in final.text


async def test_the_bracket_and_the_standings_as_pictures(make_env: MakeEnv) -> None:
    """Item 5: once started, the sign-up message carries the bracket (or the standings
    table) as a PNG and is redrawn as each match ends; /tournament show and the standings
    posts carry it too."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    members = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Eve")]
    players = {p.id: p for p in members}
    created = await org.slash("tournament create", game="sequences:standard", format="elimination")
    signup = created.message
    for p in members:
        await p.click(signup, "Join")
    assert signup.attachments == []
    await org.click(signup, "Start")
    [first] = signup.attachments
    assert first.filename == "tournament.png" and first.data.startswith(b"\x89PNG")
    assert signup.embeds[0]["image"]["url"] == "attachment://tournament.png"
    post = h.last_message(h.channel)
    assert "Round 1 of 3" in post.text and post.attachments[0].filename == "tournament.png"
    # Five in a bracket of eight: three byes; the one match of round one ends.
    order = [m.id for m in members]
    assert await end_playing_matches(env, players, order) == 1
    await env.tick()
    [redrawn] = signup.attachments
    assert redrawn.data != first.data  # the bracket moved on
    shown = await members[0].slash("tournament show")
    assert shown.files[0].filename == "tournament.png"
    assert shown.embeds[0]["image"]["url"] == "attachment://tournament.png"

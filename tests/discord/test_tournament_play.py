"""What play-testing tournaments as players and organisers found (issue 25): each a line a
player read wrong, or a message left behind."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from bot.render.bracket import PAD
from bot.render.fonts import font
from bot.tables import wallets
from bot.ui.tournament_pictures import standings_table
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player
from tests.reliability.test_tournament_scenarios import resign_matches


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


FOUR = ("Ana", "Bo", "Cy", "Di")


async def started(
    env: Env, names: tuple[str, ...], **options: Any
) -> tuple[Player, list[Player], Message]:
    """Org's tournament of push-your-luck (``options`` as /tournament create takes them),
    joined by a member of each of ``names`` in that order, and started: the organiser, the
    members and the sign-up message (the live standings from here on)."""
    org = await env.h.member("Org", manage_guild=True)
    members = [await env.h.member(n) for n in names]
    created = await org.slash("tournament create", game="sequences:standard", **options)
    for p in members:
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    return org, members, created.message


async def play_round_robin(env: Env, names: tuple[str, ...], **options: Any) -> list[Player]:
    """A round robin of ``names`` to its end, the earlier name winning each match."""
    _, members, _ = await started(env, names, format="round_robin", **options)
    order = [p.id for p in members]
    while (await env.bot.shell.tournaments.picture(1)).tournament.status == "running":
        assert await resign_matches(env, {p.id: p for p in members}, order) > 0
        await env.tick()
    return members


async def test_the_standings_picture_shows_its_whole_title(make_env: MakeEnv) -> None:
    """The narrowest table (a round robin: no Buchholz column) is wide enough for its
    title: "· final standings" was cut to "· final standin" on the right edge."""
    env = await make_env()
    await play_round_robin(env, ("Ana", "Bo", "Cy", "Di"))
    final = env.h.last_message(env.h.channel)
    image = Image.open(io.BytesIO(final.attachments[0].data))
    title = "Tournament #1 · Sequences · final standings"
    drawn = ImageDraw.Draw(image).textlength(title, font=font(24))
    assert image.width >= drawn + 2 * PAD


async def test_the_standings_picture_counts_byes(make_env: MakeEnv) -> None:
    """In the picture a player's points add up: a bye (a point) has its column, as the
    text says "1 bye"; without it "2 pts · 1-0-1" read wrong."""
    env = await make_env()
    await play_round_robin(env, ("Ana", "Bo", "Cy"))
    picture = await env.bot.shell.tournaments.picture(1)
    head, header, rows = standings_table(picture, env.bot.games)
    assert head == "Tournament #1 · Sequences · final standings"
    assert header == ["", "Player", "Pts", "W-D-L", "Byes"]
    assert rows == [
        ["1", "Ana", "3", "2-0-0", "1"],
        ["2", "Bo", "2", "1-0-1", "1"],
        ["3", "Cy", "1", "0-0-2", "1"],
    ]


async def test_the_final_standings_say_who_won_which_prize(make_env: MakeEnv) -> None:
    """The pool's split is in the final post, as it was paid: with 70 % / 30 % of 150 the
    runner-up read only "prize pool 150 chips, 70 % / 30 %" and had to work it out."""
    env = await make_env()
    ana, bo, cy = await play_round_robin(env, ("Ana", "Bo", "Cy"), fee=50, prize="top2")
    final = env.h.last_message(env.h.channel)
    assert "🏆 **Ana** won.\n💰 Prizes: Ana 105 chips · Bo 45 chips\n" in final.text
    assert [await wallets.balance(env.bot.db, env.h.guild.id, p.id) for p in (ana, bo, cy)] == [
        1055, 995, 950,
    ]  # fmt: skip
    shown = await cy.slash("tournament show")
    assert "💰 Prizes: Ana 105 chips · Bo 45 chips" in shown.text

    env2 = await make_env()
    await play_round_robin(env2, ("Ana", "Bo"), fee=1)
    assert "💰 Ana won the prize pool of 2 chips." in env2.h.last_message(env2.h.channel).text


async def test_join_and_check_in_refusals_say_which_it_is(make_env: MakeEnv) -> None:
    """A member who presses Join twice read "Sign-up is closed, the field is full, or you
    are in already", and one who pressed Check in "checked in already, or not signed up":
    each is now told the one that is so."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy = [await h.member(n) for n in ("Ana", "Bo", "Cy")]
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", signup=30, checkin=10
    )
    signup = created.message
    await ana.click(signup, "Join")
    again = await ana.click(signup, "Join")
    assert again.ephemeral and again.text == "You are signed up already."
    await env.tick(20 * 60 + 1)
    await ana.click(signup, "Check in")
    twice = await ana.click(signup, "Check in")
    assert twice.ephemeral and twice.text == "You are checked in already."
    stranger = await bo.click(signup, "Check in")
    assert stranger.ephemeral
    assert stranger.text == "You are not signed up: press **Join** (it checks you in too)."
    await bo.click(signup, "Join")
    await env.tick(10 * 60)  # it starts: its buttons go, but an old copy may be pressed
    late = await cy.click_stale(signup, "tn:1:join")
    assert late.ephemeral and late.text == "Sign-up for this tournament is closed."


async def test_a_refusal_names_the_option_as_the_organiser_sees_it(make_env: MakeEnv) -> None:
    """A German organiser's /tournament create shows anmeldung-minuten, a French one's
    au-meilleur-de: the refusals told them to set signup-minutes and best-of, options
    their Discord does not show."""
    env = await make_env()
    h = env.h
    de = await h.member("Dora", manage_guild=True, locale="de")
    fr = await h.member("Félix", manage_guild=True, locale="fr")
    lone = await de.slash("tournament create", game="sequences:standard", format="swiss", checkin=5)
    assert lone.ephemeral and "anmeldung-minuten" in lone.text
    assert "signup-minutes" not in lone.text
    wide = await fr.slash("tournament create", game="heartsdue", format="swiss", seats=3, best_of=3)
    assert wide.ephemeral and "au-meilleur-de" in wide.text and "best-of" not in wide.text


async def test_options_that_do_not_apply_are_refused_not_ignored(make_env: MakeEnv) -> None:
    """rounds for a round robin or a bracket, final-best-of for a Swiss or a round robin:
    the tournament was created as if they were not given, and nothing said so."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    for format in ("round_robin", "elimination"):
        reply = await org.slash(
            "tournament create", game="sequences:standard", format=format, rounds=5
        )
        assert reply.ephemeral
        assert reply.text == (
            "Only a Swiss has a number of rounds to choose: a round robin plays everyone "
            "once, a bracket until one is left. Leave rounds out."
        )
    for format in ("swiss", "round_robin"):
        reply = await org.slash(
            "tournament create", game="sequences:standard", format=format, final_best_of=3
        )
        assert reply.ephemeral
        assert reply.text == (
            "Only single elimination has a final: leave final-best-of out, or set best-of."
        )
    assert (await org.slash("tournament list")).text == "No tournament has been held here yet."
    same = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", best_of=3,
        final_best_of=3,
    )  # fmt: skip
    assert not same.ephemeral and "Matches: best of 3" in same.text


async def test_a_match_notice_says_which_round_and_game(make_env: MakeEnv) -> None:
    """Each game of a best of 3 is a table of its own, each called by a notice: they all
    read "⚔️ Tournament match: @Ana, @Bo · table #n", so nobody could tell a second game
    from a new match, nor the score."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    players = {ana.id: ana, bo.id: bo}
    created = await org.slash(
        "tournament create", game="sequences:standard", format="elimination", best_of=3
    )
    for p in (ana, bo):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")

    def notices() -> list[str]:
        return [m.content for m in h.messages(h.channel) if m.content.startswith("⚔️")]

    # A bracket of two is its final, named as the bracket names it (issue 31).
    assert notices() == [
        f"⚔️ Tournament #1, Final, game 1 of a best of 3: {ana.mention}, {bo.mention} · table #1"
    ]
    await resign_matches(env, players, [bo.id, ana.id])  # Bo wins game one
    await env.tick()
    assert notices()[-1] == (
        f"⚔️ Tournament #1, Final, game 2 of a best of 3: {ana.mention} 0–1 {bo.mention} · table #2"
    )

    single = await make_env()
    org = await single.h.member("Org", manage_guild=True)
    cy, di = await single.h.member("Cy"), await single.h.member("Di")
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    for p in (cy, di):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    last = [m.content for m in single.h.messages(single.h.channel) if m.content][-1]
    assert last == f"⚔️ Tournament #1, round 1: {cy.mention}, {di.mention} · table #1"


async def test_the_list_of_tournaments_is_a_history_of_who_won(make_env: MakeEnv) -> None:
    """/tournament list said only "finished" of a finished event: who won it took a
    /tournament show of each."""
    env = await make_env()
    _, bo = await play_round_robin(env, ("Ana", "Bo"))
    org = await env.h.member("Boss", manage_guild=True)
    await org.slash("tournament create", game="board", format="elimination")
    listed = await bo.slash("tournament list")
    assert listed.ephemeral
    assert listed.text == (
        "**#2** · Single elimination · Sequence (board game) · sign-up\n"
        "**#1** · Round robin · Sequences · finished: 🏆 Ana"
    )


async def test_a_removed_player_is_marked_in_the_standings(make_env: MakeEnv) -> None:
    """A player the organiser took out stays in the standings with the matches they
    played, and wins no prize: their line says they were removed, or the prize line
    ("Prizes: Ana … · Cy …") skipped a second place for no reason anyone could see."""
    env = await make_env()
    h = env.h
    org, (ana, bo, cy, di), _ = await started(env, FOUR, format="round_robin", fee=10, prize="top2")
    players = {p.id: p for p in (ana, bo, cy, di)}
    order = [ana.id, bo.id, cy.id, di.id]
    assert await resign_matches(env, players, order) == 2  # Bo beats Cy or Di
    await env.tick()
    await org.slash("tournament remove", tournament=1, member=bo.member)
    while (await env.bot.shell.tournaments.picture(1)).tournament.status == "running":
        await resign_matches(env, players, order)
        await env.tick()
    final = h.last_message(h.channel).text
    bo_line = next(line for line in final.splitlines() if " Bo · " in line)
    assert bo_line.endswith(" · removed")
    assert not any(line.endswith("removed") for line in final.splitlines() if " Bo · " not in line)
    assert "💰 Prizes: Ana 28 chips · Cy 12 chips" in final


async def test_an_entry_fee_of_one_chip_is_one_chip(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana = await h.member("Ana")
    created = await org.slash("tournament create", game="sequences:standard", format="swiss", fee=1)
    await ana.click(created.message, "Join")
    assert "Entry fee 1 chip · prize pool 1 chip, all to the winner" in created.message.text
    bo = await h.member("Bo")
    await bo.click(created.message, "Join")
    assert "Entry fee 1 chip · prize pool 2 chips, all to the winner" in created.message.text


async def test_a_tournament_match_has_no_rematch(make_env: MakeEnv) -> None:
    """The Rematch of a best of 3's first game opened a casual lobby of the same two while
    the tournament opened their real game two in another thread: the press is refused,
    saying why, and no lobby opens."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    created = await org.slash(
        "tournament create", game="sequences:standard", format="elimination", best_of=3
    )
    for p in (ana, bo):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    await resign_matches(env, {ana.id: ana, bo.id: bo}, [ana.id, bo.id])
    await env.tick()
    first = await env.bot.tables.get(1)
    assert first.status == "finished" and first.row.message_id is not None
    again = await ana.click(h.message(first.row.message_id), "Rematch")
    assert again.ephemeral
    assert again.text == (
        "That was a match of tournament #1: the tournament opens its next games itself, so "
        "there is no rematch. `/tournament show` has the standings."
    )
    assert (await env.bot.tables.get(2)).status == "running"  # game two, by the tournament
    assert len(h.threads) == 2 and first.row.rematch_id is None


async def test_show_in_sign_up_says_where_to_join(make_env: MakeEnv) -> None:
    """/tournament show in sign-up drew the sign-up embed ("press **Join**") without its
    buttons: the copy now links to the message that has them."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana = await h.member("Ana")
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    shown = await ana.slash("tournament show")
    link = f"https://discord.com/channels/{h.guild.id}/{h.channel.id}/{created.message.id}"
    assert shown.content == f"Join on the tournament's sign-up message: {link}"
    assert "press **Join**" in shown.text and shown.buttons == []


async def test_a_bracket_match_with_no_result_names_who_went_through(make_env: MakeEnv) -> None:
    """A bracket match the organiser set as a draw sends the better seed through: the text
    said "**Di** beat Bo" of the final whose champion was Bo (the first-named side, not
    the one who went on), and "beat" of a match nobody won."""
    env = await make_env()
    org, (ana, bo, cy, di), standings = await started(env, FOUR, format="elimination")
    players = {p.id: p for p in (ana, bo, cy, di)}
    # Semi-finals Ana-Di and Bo-Cy: Di and Bo win.
    assert await resign_matches(env, players, [di.id, bo.id, ana.id, cy.id]) == 2
    await env.tick()
    (final,) = [m for m in (await env.bot.shell.tournaments.picture(1)).matches if m.round == 2]
    assert (final.a_id, final.b_id) == (di.id, bo.id)
    set_ = await org.slash("tournament result", table=final.game_id)  # Bo, seed 2, goes on
    assert set_.text == (
        f"Table #{final.game_id} of tournament #1 has no result: {bo.mention} goes through on"
        f" seed (set by {org.mention})."
    )  # not "is now a draw": a bracket has none
    await env.tick()
    text = standings.text
    assert "🏆 **Bo** won." in text
    assert "**Final**: **Bo** through on seed (no result against Di)" in text
    assert "**Di** beat Bo" not in text


async def test_a_bracket_match_with_no_result_puts_out_the_worse_seed(make_env: MakeEnv) -> None:
    """The worse seed of a semi-final with no result goes out (the better one goes on):
    the final places counted them as never out, so they took second place and its prize
    from the finalist who lost."""
    env = await make_env()
    h = env.h
    org, (ana, bo, cy, di), standings = await started(
        env, FOUR, format="elimination", fee=100, prize="top2"
    )
    players = {p.id: p for p in (ana, bo, cy, di)}
    semis = (await env.bot.shell.tournaments.picture(1)).matches
    ana_di = next(m for m in semis if ana.id in m.seated)
    assert set(ana_di.seated) == {ana.id, di.id}
    await org.slash("tournament result", table=ana_di.game_id)  # no result: Ana goes on
    assert await resign_matches(env, players, [ana.id, bo.id, cy.id, di.id]) == 1  # Bo-Cy
    await env.tick()
    assert await resign_matches(env, players, [ana.id, bo.id]) == 1  # the final: Ana
    await env.tick()
    picture = await env.bot.shell.tournaments.picture(1)
    assert picture.places == [ana.id, bo.id, cy.id, di.id]
    assert "💰 Prizes: Ana 280 chips · Bo 120 chips" in standings.text
    assert [await wallets.balance(env.bot.db, h.guild.id, p.id) for p in (ana, bo, cy, di)] == [
        1180, 1020, 900, 900,
    ]  # fmt: skip


async def test_a_best_of_three_in_the_bracket_text_has_its_score(make_env: MakeEnv) -> None:
    """The bracket's picture showed a best of 3's games won; its text said "Ana vs Bo" at
    1–1 and "**Ana** beat Bo" once over, as of a single game."""
    env = await make_env()
    _, (ana, bo), standings = await started(env, ("Ana", "Bo"), format="elimination", best_of=3)
    players = {ana.id: ana, bo.id: bo}
    assert "**Final**: Ana vs Bo" in standings.text  # nothing played yet
    await resign_matches(env, players, [ana.id, bo.id])
    await env.tick()
    await resign_matches(env, players, [bo.id, ana.id])
    await env.tick()
    assert "**Final**: Ana 1–1 Bo" in standings.text
    await resign_matches(env, players, [ana.id, bo.id])
    await env.tick()
    assert "**Final**: **Ana** beat Bo 2–1" in standings.text


async def test_changing_a_finished_result_redraws_the_standings(make_env: MakeEnv) -> None:
    """The organiser changes the result of a match that had ended (its round still being
    played): the reply said "now won by Bo" while the live standings kept Ana's win."""
    env = await make_env()
    org, (ana, bo, *_), standings = await started(env, FOUR, format="swiss")
    first = next(
        m for m in (await env.bot.shell.tournaments.picture(1)).matches if ana.id in m.seated
    )
    assert set(first.seated) == {ana.id, bo.id}
    await env.bot.peers.fair_play.resign(first.game_id or 0, bo.id)  # Ana wins
    await env.tick()
    assert "` 1.` Ana · **1** pt · 1-0-0" in standings.text
    await org.slash("tournament result", table=first.game_id, winner=bo.member)
    assert "` 1.` Bo · **1** pt · 1-0-0" in standings.text
    assert "Ana · **0** pts · 0-0-1" in standings.text


async def test_a_long_history_fits_one_message(make_env: MakeEnv) -> None:
    """Twenty-five finished tournaments won by a long, markdown-heavy name: with the
    winners named, the list outgrew Discord's 2,000 characters; it now stops at what fits
    (the newest first)."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    long_ = await h.member("_" * 15 + "*" * 15)
    bo = await h.member("Bo")
    for number in range(1, 26):
        created = await org.slash("tournament create", game="board", format="elimination")
        for p in (long_, bo):
            await p.click(created.message, "Join")
        await org.click(created.message, "Start")
        (match,) = (await env.bot.shell.tournaments.picture(number)).matches
        await org.slash("tournament result", table=match.game_id, winner=long_.member)
    listed = await bo.slash("tournament list")
    assert listed.ephemeral and len(listed.text) <= 2000
    lines = listed.text.splitlines()
    assert lines[0].startswith("**#25** · ") and len(lines) >= 10
    assert [line.split("**")[1] for line in lines] == [
        f"#{n}" for n in range(25, 25 - len(lines), -1)
    ]


async def test_a_full_field_with_long_names_fits_the_embed(make_env: MakeEnv) -> None:
    """Sixty-four players with 32-character names: the standings text outgrew an embed's
    4,096 characters, so the sign-up message could not be redrawn nor the round posted; and
    its 32 tables went past the five games a channel may run (a member's cap), so the
    sixth on waited for a claim to time out."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    members = [await h.member(f"{n:02d} " + "Long_Name_" * 3) for n in range(64)]
    for p in members:
        await p.click(created.message, "Join")
    assert "Players (64)" in created.message.text
    await org.click(created.message, "Start")
    text = created.message.embeds[0]["description"]
    assert "Round 1 of 6" in text and len(text) <= 4096
    assert text.splitlines()[-1].endswith("more: the picture shows everyone.")
    assert "` 1.` 00 Long" in text  # the best places first
    post = h.last_message(h.channel, ephemeral=False)
    assert "Round 1 of 6" in post.text and post.attachments
    assert len(h.threads) == 32  # every table of the round, past the channel caps


async def test_a_best_of_three_opens_its_next_game_under_the_start_cooldown(
    make_env: MakeEnv,
) -> None:
    """A member may open one table every ten seconds: the tournament opened game two of a
    best of 3 with the first-named player as host the moment game one ended, was refused
    by that cooldown, and the match waited five minutes for its claim to be taken over."""
    env = await make_env(start_cooldown_seconds=10)
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    created = await org.slash(
        "tournament create", game="sequences:standard", format="elimination", best_of=3
    )
    for p in (ana, bo):
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    await resign_matches(env, {ana.id: ana, bo.id: bo}, [ana.id, bo.id])
    await env.tick()
    (match,) = (await env.bot.shell.tournaments.picture(1)).matches
    assert (match.status, match.games, match.game_id) == ("playing", 1, 2)
    assert (await env.bot.tables.get(2)).status == "running"


async def test_a_tournament_is_run_from_a_channel_not_a_thread(make_env: MakeEnv) -> None:
    """Created in a game's thread, a tournament's matches could never open (a thread holds
    one game) and its every round stalled: /tournament create there is refused."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    lobby = await ana.slash("sequences start")
    await bo.click(lobby.message, "Join")
    await ana.click(lobby.message, "Start")
    [thread] = h.threads
    refused = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", _channel=thread
    )
    assert refused.ephemeral
    assert refused.text == (
        "Run a tournament from a text channel: each of its matches opens a thread there."
    )
    assert (await org.slash("tournament list")).text == "No tournament has been held here yet."


async def test_the_start_says_who_was_dropped_for_not_checking_in(make_env: MakeEnv) -> None:
    """Members who did not check in were dropped at the start and got their fee back with
    no word anywhere: they (and everyone) read the live standings and the start post, which
    now say who was dropped and that their fees went back; in the server's language."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo, cy, di, ed = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed")]
    created = await org.slash(
        "tournament create", game="sequences:standard", format="round_robin", fee=100,
        signup=30, checkin=10,
    )  # fmt: skip
    signup = created.message
    for p in (ana, bo, cy, di, ed):
        await p.click(signup, "Join")
    await env.tick(20 * 60 + 1)
    for p in (ana, bo, cy):
        await p.click(signup, "Check in")
    await env.tick(10 * 60)  # the start: Di and Ed did not check in
    line = "Dropped for not checking in, their entry fees refunded: Di, Ed"
    assert "Round 1 of 3" in signup.text and line in signup.text
    start_post = h.last_message(h.channel)
    assert start_post.id != signup.id and line in start_post.text
    assert "**1,000 chips**" in (await di.slash("wallet")).text

    french = await make_env()
    french.h.guild_locale = "fr"
    org = await french.h.member("Org", manage_guild=True)
    ana, bo, cy = [await french.h.member(n) for n in ("Ana", "Bo", "Cy")]
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", signup=30, checkin=10
    )
    for p in (ana, bo, cy):
        await p.click(created.message, "Rejoindre")
    await french.tick(20 * 60 + 1)
    for p in (ana, bo):
        await p.click(created.message, "Présent")
    await french.tick(10 * 60)
    assert "Retiré pour ne pas avoir confirmé sa présence\u00a0: Cy" in created.message.text
    assert "Dropped" not in created.message.text


async def test_the_bracket_text_names_its_rounds_as_the_picture_does(make_env: MakeEnv) -> None:
    """The bracket's picture heads its columns Semi-finals and Final; its text said
    "Round 1" and "Round 2" of the same matches."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    members = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    players = {p.id: p for p in members}
    created = await org.slash("tournament create", game="sequences:standard", format="elimination")
    for p in members:
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    assert "**Semi-finals**: " in created.message.text
    assert "**Round 1**" not in created.message.text
    await resign_matches(env, players, [p.id for p in members])
    await env.tick()
    text = created.message.text
    assert "**Semi-finals**: **Ana** beat " in text and "\n**Final**: Ana vs " in text
    assert "**Round" not in text

    german = await make_env()
    german.h.guild_locale = "de"
    org = await german.h.member("Org", manage_guild=True)
    two = [await german.h.member(n) for n in ("Ana", "Bo")]
    created = await org.slash("tournament create", game="sequences:standard", format="elimination")
    for p in two:
        await p.click(created.message, "Beitreten")
    await org.click(created.message, "Starten")
    assert "**Finale**: Ana gegen Bo" in created.message.text


async def test_a_best_of_three_after_a_drawn_game_says_how_it_goes_on(make_env: MakeEnv) -> None:
    """A drawn game of a best of 3 counts for nobody and the match plays on (up to five
    games): the notice read "game 4 of a best of 3", which a player took for a mistake."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    players = {ana.id: ana, bo.id: bo}
    created = await org.slash(
        "tournament create", game="sequences:standard", format="elimination", best_of=3
    )
    for p in players.values():
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")

    def last_notice() -> str:
        return [m.content for m in h.messages(h.channel) if m.content.startswith("⚔️")][-1]

    await org.slash("sequences end", game=1)  # game one ends with no result
    await env.tick()
    assert last_notice() == (
        "⚔️ Tournament #1, Final, game 2 (a best of 3: a drawn game is replayed, 5 games "
        f"at most): {ana.mention} 0–0 {bo.mention} · table #2"
    )
    await resign_matches(env, players, [ana.id, bo.id])  # Ana wins game two
    await env.tick()
    await resign_matches(env, players, [bo.id, ana.id])  # Bo wins game three
    await env.tick()
    notice = last_notice()
    assert notice == (
        "⚔️ Tournament #1, Final, game 4 (a best of 3: a drawn game is replayed, 5 games "
        f"at most): {ana.mention} 1–1 {bo.mention} · table #4"
    )
    assert "of a best of" not in notice


async def test_a_french_tournament_reads_in_its_own_words(make_env: MakeEnv) -> None:
    """A native reviewer: the tournament's round read "Manche 1 sur 1", a game's round
    (the games' catalogue held the same English and was read first), where a tournament's
    is a "ronde"; a chip count reads as French counts it ("cagnotte 0 jeton")."""
    env = await make_env()
    h = env.h
    h.guild_locale = "fr"
    org = await h.member("Org", manage_guild=True)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    created = await org.slash("tournament create", game="sequences:standard", format="swiss", fee=5)
    assert "Droit d’entrée 5 jetons · cagnotte 0 jeton, tout au vainqueur" in created.message.text
    for p in (ana, bo):
        await p.click(created.message, "Rejoindre")
    assert "cagnotte 10 jetons" in created.message.text
    await org.click(created.message, "Lancer")
    assert "Ronde 1 sur 1" in created.message.text
    assert "Manche" not in created.message.text


async def test_a_long_list_of_who_was_dropped_leaves_the_standings_room(make_env: MakeEnv) -> None:
    """Sixty of sixty-four who never checked in, each with a long name: the line naming
    them is cut, with how many more, so the standings still show their best places."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", signup=30, checkin=10
    )
    members = [await h.member(f"{n:02d} " + "Long_Name_" * 3) for n in range(64)]
    for p in members:
        await p.click(created.message, "Join")
    await env.tick(20 * 60 + 1)
    for p in members[:4]:
        await p.click(created.message, "Check in")
    await env.tick(10 * 60)
    text = created.message.embeds[0]["description"]
    assert "Round 1 of 2" in text and len(text) <= 4096
    [line] = [x for x in text.splitlines() if x.startswith("Dropped for not checking in")]
    assert line.startswith("Dropped for not checking in: 04 Long")
    assert line.endswith(" more") and len(line) < 700
    assert "` 4.` " in text  # every player left is in the standings

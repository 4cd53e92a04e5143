"""Issue 31, what players see wrong in lobbies and results (items 6, 7, 12-16, 21, 22), each
played through the real bot as a player meets it."""

from __future__ import annotations

import re

from tests.discord.conftest import Env, MakeEnv
from tests.discord.play import open_table, play_dice
from tests.discord.test_tournament_play import FOUR, started
from tests.harness import Message, Player
from tests.reliability.test_tournament_scenarios import resign_matches


def partners(lobby: Message, players: list[Player]) -> dict[str, set[str]]:
    """Each team's players as the lobby shows them: {"A": {"Ana", "Cy"}, ...}."""
    field = next(f for f in lobby.embeds[0]["fields"] if f["name"].startswith("Seats"))
    teams: dict[str, set[str]] = {}
    for line in str(field["value"]).splitlines():
        found = re.search(r"team (\w)", line)
        who = next((p.name for p in players if p.mention in line), None)
        if found and who:
            teams.setdefault(found.group(1), set()).add(who)
    return teams


def team_of(teams: dict[str, set[str]], name: str) -> set[str]:
    return next(members for members in teams.values() if name in members)


async def four_at_a_board(env: Env) -> tuple[list[Player], Message]:
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby = (await players[0].slash("board start", seats=4)).message
    for player in players[1:]:
        lobby = (await player.click(lobby, "Join")).message
    return players, lobby


async def test_switch_team_in_a_full_board_lobby_gives_other_partners(make_env: MakeEnv) -> None:
    env = await make_env()
    players, lobby = await four_at_a_board(env)
    ana, bo, cy, di = players
    assert partners(lobby, players) == {"A": {"Ana", "Cy"}, "B": {"Bo", "Di"}}
    for presser in (di, ana, cy, bo, di):
        before = partners(lobby, players)
        lobby = (await presser.click(lobby, "Switch team")).message
        after = partners(lobby, players)
        assert team_of(after, presser.name) != team_of(before, presser.name), presser.name
        assert sorted(map(len, after.values())) == [2, 2]  # still two teams of two
        assert "⚠️" not in lobby.text
        # Whoever was moved to make room is named in the lobby.
        named = rf"{presser.name} switched to team \w, so \w+ moves to team \w"
        assert re.search(named, lobby.text)
    shown = partners(lobby, players)
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    started: dict[str, set[str]] = {}
    for seat in table.seats:
        started.setdefault("AB"[seat.team or 0], set()).add(seat.name)
    assert started == shown  # Start seated the teams the lobby showed


async def test_a_staked_lobby_says_it_is_for_people_and_lists_no_bot_players(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for command in ("sequences start", "board start", "heartsdue start"):
        free = (await ana.slash(command)).message
        assert "Add bot" in " ".join(map(str, free.labels)), command
        levels = [b.label.split(": ")[1] for b in free.buttons if "Add bot" in str(b.label)]
        assert all(level in free.text for level in levels)
        await ana.click(free, "Cancel")
        staked = (await ana.slash(command, stake=10)).message
        assert not any("Add bot" in str(label) for label in staked.labels), command
        assert not any(level in staked.text for level in levels), (command, staked.text)
        assert "people only" in staked.text
        await ana.click(staked, "Cancel")


def team_marks(lobby: Message) -> list[bool]:
    """For each seat line of the lobby, whether it names a team."""
    field = next(f for f in lobby.embeds[0]["fields"] if f["name"].startswith("Seats"))
    return ["team" in line for line in str(field["value"]).splitlines()]


async def test_an_expired_team_lobby_shows_every_seats_team_or_none(make_env: MakeEnv) -> None:
    env = await make_env()
    players, lobby = await four_at_a_board(env)
    ana, bo, cy, di = players
    lobby = (await bo.click(lobby, "Switch team")).message
    assert team_marks(lobby) == [True] * 4
    lobby = (await di.click(lobby, "Leave")).message  # three play alone: no teams
    assert team_marks(lobby) == [False] * 3
    await env.tick(16 * 60)
    assert (await env.bot.tables.get(1)).status == "expired"
    assert "Nobody started this table in time." in lobby.text
    assert team_marks(lobby) == [False] * 3, lobby.text

    # Four seats, one of whom never picked a team: the lobby showed four teams, so does the
    # closed lobby.
    lobby = (await ana.slash("board start", seats=4)).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    lobby = (await di.click(lobby, "Join")).message
    lobby = (await bo.click(lobby, "Switch team")).message
    lobby = (await di.click(lobby, "Leave")).message
    lobby = (await di.click(lobby, "Join")).message  # Di's seat has no team picked
    shown = partners(lobby, players)
    assert team_marks(lobby) == [True] * 4
    await env.tick(16 * 60)
    assert team_marks(lobby) == [True] * 4, lobby.text
    assert partners(lobby, players) == shown


async def test_the_invitation_names_the_host_as_opener_and_goes_once_all_answered(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = (await ana.slash("sequences start", with_=f"{bo.mention} {cy.mention}")).message
    call = lobby.content
    # The host, alone, opened the table; the invited are called after it.
    opener = call.split(" opened a table")[0]
    assert opener == ana.mention, call
    assert bo.mention in call and cy.mention in call
    lobby = (await bo.click(lobby, "Join")).message
    assert lobby.content == call  # Cy has not answered yet: still called
    lobby = (await cy.click(lobby, "Join")).message
    assert lobby.content == "", lobby.content  # everyone invited sat down
    assert "Start" in lobby.labels and cy.mention in lobby.text
    # A decline answers as well; a join of someone not invited leaves the call alone.
    lobby = (await ana.slash("heartsdue start", with_=bo.mention)).message
    lobby = (await cy.click(lobby, "Join")).message
    assert bo.mention in lobby.content
    lobby = (await bo.click(lobby, "Leave")).message
    assert lobby.content == ""


async def test_start_with_held_seats_names_who_has_not_pressed_join(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = (await ana.slash("sequences start", with_=f"{bo.mention} {cy.mention}")).message
    refused = await ana.click(lobby, "Start")
    assert refused.ephemeral
    assert bo.mention in refused.text and cy.mention in refused.text, refused.text
    assert "Join" in refused.text and "the table has 1" not in refused.text
    assert (await env.bot.tables.get(1)).status == "lobby"
    lobby = (await bo.click(lobby, "Join")).message
    started = await ana.click(lobby, "Start")  # two are enough: Cy's seat is left out
    assert not started.ephemeral
    assert [s.user_id for s in (await env.bot.tables.get(1)).seats] == [ana.id, bo.id]


def score_block(message: Message) -> list[str]:
    """The names of the table message's Scores block, top to bottom."""
    text = message.text.split("Scores: ```", 1)[1].split("```", 1)[0]
    return [line.replace("🏆", "").split()[0] for line in text.strip("\n").splitlines()]


async def test_final_dice_scores_are_listed_by_place(make_env: MakeEnv) -> None:
    for command, options in (
        ("sequences start", {"rounds": 2}),
        ("heartsdue start", {"target": 30}),
    ):
        env = await make_env(seed=3)
        ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
        await open_table(env, command, ana, [bo, cy], **options)
        await play_dice(env, [ana, bo, cy], 1)
        table = await env.bot.tables.get(1)
        assert table.status == "finished"
        line = next(m.text for m in env.h.messages(env.h.channel) if "🏆 **" in m.text)
        # The channel line ranks them: "🏆 **Bo** won Sequences #1 (Bo 1, Cy 1, Ana 0)."
        ranked = [part.split()[0] for part in line.split(" (", 1)[1].split(")")[0].split(", ")]
        assert score_block(env.turn_message()) == ranked, (command, line)
        assert ranked[0] != "Ana"  # not simply the seating order (this seed's winner)


async def test_a_game_abandoned_by_timeouts_keeps_its_board_and_says_who_was_away(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo = [await env.h.member(n) for n in ("Ana", "Bo")]
    await open_table(env, "board start", ana, [bo])
    for _ in range(10):  # nobody moves: every turn runs out
        if (await env.bot.tables.get(1)).status != "running":
            break
        await env.tick(181)
    table = await env.bot.tables.get(1)
    assert table.status == "abandoned" and table.expiries == [3, 2]
    message = env.turn_message()
    assert message.attachments, "the board's picture is gone"
    assert "Sequences: " in message.text and "Draw pile" in message.text  # the scores stay
    closing = message.text.split("\n")[1]
    # The closing line is true: Ana forfeited after 3, Bo did not forfeit but missed 2.
    assert "No player is left" not in closing
    ana_part, bo_part = closing.split(", Bo ")
    assert ana_part.startswith("Ana") and "3" in ana_part and "forfeited" in ana_part
    assert "2" in bo_part and "forfeit" not in bo_part.split(":")[0], closing
    assert closing in env.h.message(env.h.messages(env.h.channel)[0].id).text  # the lobby too
    # The story is kept with the game: a restarted bot reads the same line.
    await env.restart()
    [closed] = (await env.bot.tables.get(1)).events[-1:]
    assert closed.missed == ((0, 3), (1, 2)) and closed.left == ((0, "timed_out"),)


async def test_a_game_ended_early_keeps_its_scores(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = [await env.h.member(n) for n in ("Ana", "Bo")]
    await open_table(env, "sequences start", ana, [bo])
    assert not (await ana.click(env.turn_message(), "Throw 5 dice")).ephemeral
    await ana.slash("sequences end")
    assert (await env.bot.tables.get(1)).status == "ended"
    message = env.turn_message()
    assert "Ended early by Ana." in message.text
    assert "Scores" in message.text and "Ana" in message.text.split("Scores", 1)[1]
    assert "▶" not in message.text and message.buttons == []

    env = await make_env(seed=3)
    ana, bo = [await env.h.member(n) for n in ("Ana", "Bo")]
    await open_table(env, "board start", ana, [bo])
    await ana.slash("board end")
    board = env.turn_message()
    assert "Ended early by Ana." in board.text and board.attachments
    assert "Sequences: " in board.text and board.buttons == []


async def test_a_bracket_round_has_one_name_in_its_notice_and_the_bracket(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    _org, (ana, bo, cy, di), standings = await started(env, FOUR, format="elimination")
    players = {p.id: p for p in (ana, bo, cy, di)}

    def notices() -> list[str]:
        return [m.text for m in env.h.messages(env.h.channel) if m.text.startswith("⚔️")]

    assert all(", Semi-finals:" in n for n in notices()), notices()
    assert "**Semi-finals**" in standings.text
    assert await resign_matches(env, players, [di.id, bo.id, ana.id, cy.id]) == 2
    await env.tick()
    final = notices()[-1]
    assert ", Final:" in final and "round 2" not in final, final
    assert "**Final**" in standings.text  # the bracket's name for the same round


async def test_a_fancy_name_is_shown_as_discord_shows_it(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, fancy = await env.h.member("Ana"), await env.h.member("𝕬𝖓𝖆")
    await open_table(env, "sequences start", ana, [fancy], rounds=1)
    table = await env.bot.tables.get(1)
    assert [s.name for s in table.seats] == ["Ana", "𝕬𝖓𝖆"]
    await play_dice(env, [ana, fancy], 1)
    text = env.turn_message().text
    assert "𝕬𝖓𝖆 won" in text and "Ana won" not in text, text  # this seed: 𝕬𝖓𝖆 wins
    scores = score_block(env.turn_message())
    assert sorted(scores) == sorted(["Ana", "𝕬𝖓𝖆"])  # two names, not Ana twice

"""What a finished game says about its result, wherever it is shown (issue 19): the final
message, the channel summary, the pot line, the replay's end, /stats."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_sequences_game import open_table, play_until_over


async def test_a_tie_break_shows_its_points_wherever_the_result_does(make_env: MakeEnv) -> None:
    # Seed 3: two rounds end 0-0; in the tie-break Ana busts and Bo banks 3.
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, rounds=2, stake=100)
    await ana.click(lobby, "Start")
    await play_until_over(env, {ana.id: ana, bo.id: bo})
    table = await env.bot.tables.get(1)
    assert table.rules.totals == (0, 0) and table.rules.outcome.reason == "tiebreak"

    [final] = [m for m in env.thread_messages() if m.embeds and "won the tie" in m.embed_text()]
    assert "Bo won the tie-break.\n**Tie-break: Ana 0 · Bo 3**" in final.embed_text()
    [summary] = [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    assert summary.content.startswith(
        "🏆 **Bo** won Sequences #1 (Bo 0, Ana 0). Tie-break: Ana 0 · Bo 3. <#"
    )
    assert summary.content.endswith("\n💰 Bo won the pot of 200 chips.")
    [pot] = [m.content for m in env.thread_messages() if m.content.startswith("💰")]
    assert pot == "💰 Bo won the pot of 200 chips. Tie-break: Ana 0 · Bo 3."

    replay = await ana.slash("replay", game=1, step=100_000)
    assert "Tie-break: Ana 0 · Bo 3\nWinner: Bo" in replay.text
    assert "best turn 3" in (await bo.slash("stats")).text
    assert "best turn 0" in (await ana.slash("stats")).text


async def test_team_dice_games_show_who_plays_with_whom(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, variant="team", target=10)
    for _ in range(2):
        lobby = (await ana.click(lobby, "Add bot: optimal")).message
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    a1, b1, a2, b2 = (s.name for s in table.seats)
    turn = env.turn_message().embed_text()
    assert f"{a1} (A)" in turn and f"{b1} (B)" in turn and f"{a2} (A)" in turn
    assert f"Team A ({a1} & {a2}): **0**\nTeam B ({b1} & {b2}): **0**" in turn

    await play_until_over(env, {ana.id: ana, bo.id: bo})
    table = await env.bot.tables.get(1)
    state = table.rules
    a, b = state.side_totals()
    won_a = state.outcome.winners[0] % 2 == 0
    [final] = [m for m in env.thread_messages() if m.embeds and "🏆" in m.embeds[0]["title"]]
    assert f"Team A ({a1} & {a2}): **{a}**\nTeam B ({b1} & {b2}): **{b}**" in final.embed_text()
    [summary] = [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    teams = [f"{a1} & {a2} {a}", f"{b1} & {b2} {b}"]
    winners, losers = teams if won_a else teams[::-1]
    assert f"won Sequences (Team) #1 ({winners}, {losers})." in summary.content


async def test_one_name_per_game_and_variant_everywhere(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana = await env.h.member("Ana")
    lobby = await open_table(env, ana, variant="reverse", rounds=1)
    lobby = (await ana.click(lobby, "Add bot: optimal")).message
    assert lobby.embeds[0]["title"] == "Sequences (Reverse) · table #1"
    await ana.click(lobby, "Start")
    [thread] = env.h.threads
    assert thread.name == "Sequences (Reverse) #1"
    assert env.turn_message().embeds[0]["title"].startswith("🎲 Sequences (Reverse) · Round 1")
    await play_until_over(env, {ana.id: ana})
    [final] = [m for m in env.thread_messages() if m.embeds and "🏆" in m.embeds[0]["title"]]
    assert final.embeds[0]["title"].endswith(" won Sequences (Reverse)!")
    [summary] = [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    assert " won Sequences (Reverse) #1 (" in summary.content
    stats = await ana.slash("stats")
    assert [f["name"] for f in stats.embeds[0]["fields"]] == ["Sequences (Reverse)"]
    assert (
        "Leaderboard · Sequences (Reverse)"
        in (await ana.slash("leaderboard", game="sequences:reverse")).text
    )

    board = await ana.slash("leaderboard", game="board")
    assert "No game of Sequence (board game) has finished on this server yet." in board.text
    assert "Leaderboard · Sequence (board game)" in board.text
    lobby = (await ana.slash("board start")).message
    assert lobby.embeds[0]["title"] == "Sequence (board game) · table #2"
    await ana.click(lobby, "Add bot: easy")
    await ana.click(lobby, "Start")
    board_thread = env.h.thread("Sequence (board game) #2")
    [turn] = [m for m in env.h.messages(board_thread) if m.components]
    assert turn.text.startswith("### Sequence (board game) · table #2\n")


async def test_a_stake_cap_of_zero_says_staked_tables_are_off(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, mod = await env.h.member("Ana"), await env.h.member("Mod", manage_guild=True)
    assert "no longer be staked" in (await mod.slash("settings max-stake", amount=0)).text
    refused = await ana.slash("board start", stake=50)
    assert refused.ephemeral
    assert refused.text == "Staked tables are off on this server: start one without a stake."
    assert not env.h.threads and (await ana.slash("board start")).message.embeds


async def test_a_bot_without_stakes_says_so(make_env: MakeEnv) -> None:
    env = await make_env(max_stake=0)
    ana = await env.h.member("Ana")
    refused = await ana.slash("sequences start", stake=10)
    assert refused.text == "Staked tables are off on this bot: start one without a stake."


async def test_the_target_picker_offers_what_the_rules_accept(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")

    def values(choices: list[dict[str, object]]) -> list[object]:
        return [c["value"] for c in choices]

    classic = await ana.autocomplete("sequences start", "target", "", rules="classic")
    assert values(classic) == [50, 100, 150, 200, 300, 500, 1000]
    assert classic[1]["name"] == "100 points (default)"
    assert values(await ana.autocomplete("sequences start", "target", "1", rules="classic")) == [
        100,
        150,
        1000,
    ]
    assert values(await ana.autocomplete("sequences start", "target", "25", rules="classic")) == [
        25
    ]
    push = await ana.autocomplete("sequences start", "target", "1")
    assert values(push) == [10, 15, 100]
    team = await ana.autocomplete("sequences start", "target", "", variant="team")
    assert "30 points (default)" in [c["name"] for c in team]
    assert await ana.autocomplete("sequences start", "target", "", variant="sudden") == []
    # Typed past the picker: one clear private line.
    typed = await ana.slash("sequences start", rules="classic", target=10)
    assert typed.ephemeral and typed.text == "A one-roll race needs a target of 20 to 1,000 points."


async def test_option_descriptions_name_every_accepted_count(make_env: MakeEnv) -> None:
    env = await make_env()
    [board] = [c for c in env.bot.tree.get_commands() if c.name == "board"]
    start = board.get_command("start")  # type: ignore[union-attr]
    teams = next(p for p in start.parameters if p.name == "teams")  # type: ignore[union-attr]
    assert teams.description == "2 teams (4, 6, 8, 10 or 12 players) or 3 teams (3, 6, 9 or 12)"


async def test_names_are_escaped_not_changed(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    knight = await env.h.member("dark_knight")
    loud = await env.h.member("*Bo* @here <@123456789012345678>")
    lobby = await open_table(env, knight, loud, rounds=1)
    await knight.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert [s.name for s in table.seats] == [
        "dark_knight",
        "*Bo* @here <@123456789012345678>",
    ]
    # Markdown shows each name as it is: every markdown or mention character escaped.
    assert "**dark\\_knight** to play." in env.turn_message().embed_text()
    await play_until_over(env, {knight.id: knight, loud.id: loud})
    shown = "\\*Bo\\* \\@here \\<\\@123456789012345678\\>"
    [summary] = [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    assert "dark\\_knight " in summary.content and f"{shown} " in summary.content
    assert "darkknight" not in summary.content
    board = await knight.slash("leaderboard")
    assert "dark\\_knight" in board.text and "\\<@\u200b123456789012345678>" in board.text
    # Plain text (a replay's story) shows the names unescaped.
    replay = await knight.slash("replay", game=1, step=100_000)
    assert "dark_knight" in replay.text and "*Bo* @here <@123456789012345678>" in replay.text

"""Fair play (RULINGS §4–§5): forfeits by timer and by resigning, the last side standing
wins the pot, ending a staked game early only with everyone's agreement, and the ledger
invariant after every path."""

from __future__ import annotations

from bot.games.words import event_lines
from bot.tables import wallets
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player


async def staked_table(env: Env, host: Player, *joiners: Player, **options: object) -> Message:
    lobby = (await host.slash("sequences start", stake=100, **options)).message
    for player in joiners:
        lobby = (await player.click(lobby, "Join")).message
    await host.click(lobby, "Start")
    return lobby


async def mover(env: Env, players: list[Player], table_id: int = 1) -> Player:
    table = await env.bot.tables.get(table_id)
    seat = table.game.current_seat(table.rules)
    assert seat is not None
    user = table.seats[seat].user_id
    return next(p for p in players if p.id == user)


async def balances(env: Env, *players: Player) -> list[int]:
    guild = env.h.guild.id
    return [await wallets.balance(env.bot.db, guild, p.id) for p in players]


async def invariant_holds(env: Env) -> bool:
    return (await wallets.check_invariant(env.bot.db)).ok


async def results(env: Env, table_id: int = 1) -> dict[int, tuple[int, bool]]:
    rows = await env.bot.db.fetchall(
        "SELECT user_id, place, won FROM game_results WHERE game_id = ?", (table_id,)
    )
    return {int(r[0]): (int(r[1]), bool(r[2])) for r in rows}


async def throw_and_bank(env: Env, player: Player) -> None:
    """The player to move throws, then banks (or the throw busted and the turn passed)."""
    reply = await player.click(env.turn_message(), "Throw 5 dice")
    assert not reply.ephemeral, reply.text
    message = env.turn_message()
    bank = next((lb for lb in message.labels if lb and lb.startswith("Bank")), None)
    if bank is not None and player.mention in env.ping_text():
        await player.click(message, bank)


async def test_three_missed_turns_forfeit_and_the_other_side_wins_the_pot(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=5)
    timeout = env.settings.turn_timeout_seconds + 1
    for missed in range(3):
        assert await mover(env, [ana, bo]) is ana
        await env.tick(timeout)  # Ana is away: the bot plays her turn
        table = await env.bot.tables.get(1)
        if missed < 2:
            assert table.status == "running"
            await throw_and_bank(env, bo)  # Bo is here and plays
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert any("Ana missed 3 turns in a row and forfeits" in e for e in event_lines(table))
    assert await results(env) == {bo.id: (1, True), ana.id: (2, False)}
    assert await balances(env, ana, bo) == [900, 1100]  # Bo took the pot of 200
    assert await invariant_holds(env)
    line = env.h.last_message(env.h.channel).content
    assert "**Bo** won" in line


async def test_resigning_is_confirmed_and_the_game_goes_on_among_the_rest(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=4)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    await staked_table(env, ana, bo, cy, rounds=3)

    # Bo resigns from the turn message's button: a private confirmation first.
    ask = await bo.click(env.turn_message(), "Resign")
    assert ask.ephemeral and "Resign from game #1?" in ask.text and "stake stays" in ask.text
    kept = await bo.click(ask.message, "Keep playing")
    assert "still in the game" in kept.text
    assert (await env.bot.tables.get(1)).playing(1)
    ask = await bo.click(env.turn_message(), "Resign")
    done = await bo.click(ask.message, "Resign")
    assert "You resigned from game #1." in done.text
    table = await env.bot.tables.get(1)
    assert table.status == "running" and not table.playing(1)
    assert any("Bo resigned" in e for e in event_lines(table))

    # A seat that left cannot resign again, nor play.
    again = await bo.slash("sequences resign")
    assert again.ephemeral and "already left" in again.text

    # Cy resigns by command: Ana is the last one standing and wins the whole pot.
    ask = await cy.slash("sequences resign")
    assert ask.ephemeral
    await cy.click(ask.message, "Resign")
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    placed = await results(env)
    assert placed[ana.id] == (1, True)
    assert placed[bo.id][0] == placed[cy.id][0] == 2 and not placed[bo.id][1]
    assert await balances(env, ana, bo, cy) == [1200, 900, 900]
    assert await invariant_holds(env)
    # Ratings: the forfeiters rank last, so the winner gains and both of them lose.
    rows = await env.bot.db.fetchall(
        "SELECT user_id, ordinal, rated_games FROM player_stats WHERE scope = ?",
        (env.h.guild.id,),
    )
    rating = {int(r[0]): float(r[1]) for r in rows if r[2] == 1}
    assert rating[ana.id] > 0 > rating[bo.id] and rating[cy.id] < 0


async def test_team_side_is_out_only_when_both_partners_resign(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    await staked_table(env, players[0], *players[1:], variant="team")
    table = await env.bot.tables.get(1)
    by_team: dict[int, list[Player]] = {}
    for seat in table.seats:
        assert seat.team is not None
        by_team.setdefault(seat.team, []).append(next(p for p in players if p.id == seat.user_id))
    first, second = by_team[0]
    for leaver in (first, second):
        ask = await leaver.slash("sequences resign")
        await leaver.click(ask.message, "Resign")
        if leaver is first:  # one partner left: the team plays on
            assert (await env.bot.tables.get(1)).status == "running"
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    placed = await results(env)
    winners = {p.id for p in by_team[1]}
    assert {u for u, (_, won) in placed.items() if won} == winners
    assert all(placed[p.id] == (2, False) for p in by_team[0])
    assert await balances(env, *by_team[1]) == [1100, 1100]
    assert await invariant_holds(env)


async def test_host_ends_a_staked_game_only_when_the_others_agree(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    await staked_table(env, ana, bo, cy, rounds=3)

    asked = await ana.slash("sequences end")
    assert asked.ephemeral and "2 minutes to agree" in asked.text
    assert (await env.bot.tables.get(1)).status == "running"  # nothing ended yet
    request = env.turn_message()
    assert "End the game early?" in request.text and "Waiting for: Bo, Cy." in request.text
    refused = await ana.click(request, "Agree to end")
    assert refused.ephemeral and "already agreed" in refused.text
    await bo.click(request, "Agree to end")
    assert "Waiting for: Cy." in request.text
    assert (await env.bot.tables.get(1)).status == "running"
    await cy.click(request, "Agree to end")
    table = await env.bot.tables.get(1)
    assert table.status == "ended" and "everyone agreed" in event_lines(table)[-1]
    assert await balances(env, ana, bo, cy) == [1000, 1000, 1000]  # every stake refunded
    assert await results(env) == {}
    assert await invariant_holds(env)


async def test_an_end_request_runs_out_after_two_minutes(make_env: MakeEnv) -> None:
    env = await make_env(seed=8)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=3)
    await ana.slash("sequences end")
    request = env.turn_message()
    env.clock.advance(121)
    late = await bo.click(request, "Agree to end")
    assert late.ephemeral and "no request to end" in late.text
    assert (await env.bot.tables.get(1)).status == "running"
    again = await ana.slash("sequences end")  # the host may ask again
    assert again.ephemeral and "2 minutes to agree" in again.text


async def test_manage_server_ends_any_game_and_refunds(make_env: MakeEnv) -> None:
    env = await make_env(seed=9)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    await staked_table(env, ana, bo, rounds=3)
    ended = await mod.slash("sequences end", game=1)
    assert not ended.ephemeral and "Game #1 ended" in ended.text
    table = await env.bot.tables.get(1)
    assert table.status == "ended" and "Ended early by Mod." in event_lines(table)[-1]
    assert await balances(env, ana, bo) == [1000, 1000]
    assert await invariant_holds(env)


async def test_host_ends_an_unstaked_game_at_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=10)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    ended = await ana.slash("sequences end")
    assert "Game #1 ended" in ended.text
    table = await env.bot.tables.get(1)
    assert table.status == "ended" and "Ended early by Ana." in event_lines(table)[-1]


async def test_no_member_left_abandons_without_a_result(make_env: MakeEnv) -> None:
    env = await make_env(seed=11)
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    lobby = (await ana.click(lobby, "Add bot: optimal")).message
    await ana.click(lobby, "Start")
    await env.run_bots()
    ask = await ana.slash("sequences resign")
    await ana.click(ask.message, "Resign")
    table = await env.bot.tables.get(1)
    assert table.status == "abandoned"
    assert await results(env) == {}
    rated = await env.bot.db.fetchall("SELECT * FROM player_stats")
    assert list(rated) == []  # no rating, no game counted


async def test_a_forfeit_when_the_others_are_away_too_abandons(make_env: MakeEnv) -> None:
    """Both players walked away: the one whose third miss comes first forfeits, but the
    other let their own last turn run out too, so nobody wins a rated game or the pot."""
    env = await make_env(seed=12)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=5)
    timeout = env.settings.turn_timeout_seconds + 1
    for _ in range(5):
        await env.tick(timeout)
        if (await env.bot.tables.get(1)).status != "running":
            break
    table = await env.bot.tables.get(1)
    assert table.status == "abandoned"
    assert await results(env) == {}
    assert await balances(env, ana, bo) == [1000, 1000]
    assert await invariant_holds(env)


async def test_rules_explain_forfeits_and_ending_early(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    rules = await ana.slash("rules", game="tables")
    assert rules.ephemeral and "Forfeit" in rules.text and "Agree to end" in rules.text
    choices = await ana.autocomplete("rules", "game", "forf")
    assert [c["value"] for c in choices] == ["tables"]

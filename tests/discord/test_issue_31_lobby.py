"""Issue 31, what players see wrong in lobbies and results (items 6, 7, 12-16, 21, 22), each
played through the real bot as a player meets it."""

from __future__ import annotations

import re

from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player


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

"""Issue 22, items 3 and 5: the lobby's host runs the lobby (removes a seat, hands the
table over, changes the settings, invites members, a server's lobby role), and spectators
watch a game from its thread. Driven through the real bot as players meet it."""

from __future__ import annotations

import re
from typing import Any

from bot.tables.wallets import START_CHIPS
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_forfeits import balances, invariant_holds, mover
from tests.discord.test_issue_12 import forge_component
from tests.harness import Message, Player
from tests.harness import payloads as P


def seats_text(lobby: Message) -> str:
    field = next(f for f in lobby.embeds[0]["fields"] if f["name"].startswith("Seats"))
    return str(field["value"])


async def open_panel(host: Player, lobby: Message) -> Message:
    reply = await host.click(lobby, "Manage")
    assert reply.ephemeral and reply.message.visible_to == host.id
    return reply.message


def last_body(env: Env, method: str, path: str) -> dict[str, Any]:
    request = [r for r in env.h.requests if r.method == method and re.search(path, r.path)][-1]
    return request.json or {}


async def test_the_host_removes_a_seat_and_its_stake_goes_back(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = (await ana.slash("sequences start", stake=50)).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    assert await balances(env, ana, bo, cy) == [START_CHIPS - 50] * 3
    # Only the host manages: anyone else is told so privately, and nothing opens.
    refused = await bo.click(lobby, "Manage")
    assert refused.ephemeral and refused.text == "Only the host can manage this table."
    panel = await open_panel(ana, lobby)
    [kick, _host] = panel.selects
    assert kick.values == [f"u{bo.id}", f"u{cy.id}"]  # never the host's own seat
    answer = await ana.select(panel, [f"u{bo.id}"], custom_id=kick.custom_id)
    assert answer.ephemeral and answer.text.startswith("Removed Bo's seat: their 50 chips")
    assert bo.mention not in seats_text(lobby) and cy.mention in seats_text(lobby)
    assert await balances(env, ana, bo, cy) == [START_CHIPS - 50, START_CHIPS, START_CHIPS - 50]
    assert await invariant_holds(env)
    # The panel now offers Cy only; a pick of a seat that is gone changes nothing.
    panel = answer.message
    assert panel.selects[0].values == [f"u{cy.id}"]
    table = await env.bot.tables.get(1)
    change, _ = await env.bot.peers.lobby_host.remove_seat(1, ana.id, f"u{cy.id}")
    assert len(change.table.seats) == 1 and len(table.seats) == 2
    stale = await ana.select(panel, [f"u{cy.id}"], custom_id=kick.custom_id)
    assert stale.ephemeral and stale.text == "That seat is no longer at this table."
    assert await balances(env, cy) == [START_CHIPS]
    # Bo, removed, may join again and pays once more.
    lobby = (await bo.click(lobby, "Join")).message
    assert await balances(env, bo) == [START_CHIPS - 50]
    assert await invariant_holds(env)


async def test_the_host_hands_the_table_to_another_member(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await ana.click(lobby, "Add bot: optimal")).message
    lobby = (await bo.click(lobby, "Join")).message
    panel = await open_panel(ana, lobby)
    second = await open_panel(ana, lobby)  # a panel left open
    host_select = panel.selects[1]
    assert host_select.values == [str(bo.id)]  # members only: bot players can't host
    answer = await ana.select(panel, [str(bo.id)], custom_id=host_select.custom_id)
    assert answer.text == "Bo is the host of table #1 now." and answer.message.selects == []
    assert f"{bo.mention} (host)" in seats_text(lobby)
    assert f"{ana.mention} (host)" not in seats_text(lobby)
    # The old host's panels no longer work; the new host runs the table.
    refused = await ana.select(second, [str(bo.id)], custom_id=host_select.custom_id)
    assert refused.ephemeral and refused.text == "Only the host can hand over the table."
    refused = await ana.click(lobby, "Manage")
    assert refused.ephemeral and refused.text == "Only the host can manage this table."
    refused = await ana.click(lobby, "Start")
    assert refused.text == "Only the host can start the game."
    await bo.click(lobby, "Start")
    assert (await env.bot.tables.get(1)).status == "running"


async def test_the_host_changes_the_settings_and_the_seated_see_it(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    assert "5 rounds" in lobby.text
    refused = await bo.click(lobby, "Manage")
    assert refused.ephemeral
    panel = await open_panel(ana, lobby)
    shown = await ana.click(panel, "Change settings")
    assert shown.response_type == 9  # a modal, filled with the lobby's values
    fields = {f["custom_id"]: f for f in shown.modal.fields}
    assert [f.get("value") or "" for f in fields.values()] == ["standard", "5", "", "no", "0"]
    # A typo is refused privately, naming the field; nothing changes.
    bad = await ana.submit_modal({"Rounds": "many"})
    assert bad.ephemeral and bad.text.startswith("Rounds: a whole number, 1 to")
    assert "5 rounds" in env.h.message(lobby.id).text
    await ana.click(panel, "Change settings")
    done = await ana.submit_modal({"Rounds": "3", "Soft last die": "yes"})
    assert done.ephemeral and "3 rounds" in done.text
    assert "3 rounds" in env.h.message(lobby.id).text
    table = await env.bot.tables.get(1)
    assert table.settings["rounds"] == 3 and table.settings["soft_last_die"] is True
    # Bo, seated, is told once in the channel, pinged by name only.
    [notice] = [m for m in done.created if not m.ephemeral]
    assert notice.content.startswith(bo.mention) and "3 rounds" in notice.content
    # The game starts with what the lobby shows.
    await ana.click(env.h.message(lobby.id), "Start")
    assert (await env.bot.tables.get(1)).rules.config.rounds == 3


async def test_a_new_stake_refunds_everyone_and_asks_again(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = [await env.h.member(n) for n in ("Ana", "Bo")]
    lobby = (await ana.slash("sequences start", stake=50)).message
    lobby = (await bo.click(lobby, "Join")).message
    panel = await open_panel(ana, lobby)
    await ana.click(panel, "Change settings")
    done = await ana.submit_modal({"Stake (chips each)": "80"})
    assert done.ephemeral and "stake 80 chips" in done.text
    # Everyone's 50 went back; the host pays 80 at once; Bo's seat is held until Bo joins.
    assert await balances(env, ana, bo) == [START_CHIPS - 80, START_CHIPS]
    assert await invariant_holds(env)
    lobby = env.h.message(lobby.id)
    assert f"{bo.mention} (seat held)" in seats_text(lobby) and "80 chips each" in lobby.text
    [notice] = [m for m in done.created if not m.ephemeral]
    assert notice.content.startswith(bo.mention)
    assert "Stakes of 50 chips went back. Seats held: press Join to play for 80" in notice.content
    lobby = (await bo.click(lobby, "Join")).message
    assert await balances(env, ana, bo) == [START_CHIPS - 80, START_CHIPS - 80]
    assert "(seat held)" not in seats_text(lobby)
    # A held seat may be given up with Leave; a stake the host can't pay changes nothing.
    await ana.click(panel, "Change settings")
    poor = await ana.submit_modal({"Stake (chips each)": str(START_CHIPS + 1)})
    assert poor.ephemeral and "this table's stake is" in poor.text
    assert await balances(env, ana, bo) == [START_CHIPS - 80, START_CHIPS - 80]
    table = await env.bot.tables.get(1)
    assert table.row.stake == 80 and [s.user_id for s in table.seats] == [ana.id, bo.id]
    assert await invariant_holds(env)


async def test_invited_members_are_called_and_their_seats_held(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    bad = await ana.slash("board start", with_="Bo")
    assert bad.ephemeral and bad.text == "Name the members to invite by mention: with: @Ana @Bo."
    reply = await ana.slash("board start", seats=2, with_=f"{bo.mention}")
    lobby = reply.message
    assert lobby.content.startswith(ana.mention) and "your seat is held" in lobby.content
    body = last_body(env, "POST", r"/callback$")
    allowed = body["data"]["allowed_mentions"]
    assert allowed["users"] == [bo.id] and not allowed.get("roles") and not allowed["parse"]
    assert f"{bo.mention} (seat held)" in seats_text(lobby)
    # The held seat is Bo's: Cy finds the table full; Bo takes it.
    refused = await cy.click(lobby, "Join")
    assert refused.text == "This table is full (2 seats, 1 held for members asked to join)."
    lobby = (await bo.click(lobby, "Join")).message
    assert "(seat held)" not in seats_text(lobby) and bo.mention in seats_text(lobby)
    # Once the game starts, the lobby no longer calls anyone to join.
    lobby = (await ana.click(lobby, "Start")).message
    assert lobby.content == "" and "Game on!" in lobby.text
    # An invitation can be declined with Leave, which frees the seat.
    lobby = (await ana.slash("board start", seats=2, with_=f"{cy.mention}")).message
    declined = await cy.click(lobby, "Leave")
    assert "(seat held)" not in seats_text(declined.message)
    assert (await bo.click(env.h.message(lobby.id), "Join")).message.id == lobby.id


async def test_the_lobby_role_is_called_and_only_that_role(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    mod = await env.h.member("Mod", manage_guild=True)
    players = await env.h.role("Players")
    refused = await ana.slash("settings lobby-role", role=players)
    assert refused.ephemeral and refused.text == "You need Manage Server to change game settings."
    everyone = await mod.slash("settings lobby-role", role=env.h.guild.default_role)
    assert everyone.ephemeral and everyone.text == "Lobbies never call everyone: choose a role."
    done = await mod.slash("settings lobby-role", role=players)
    assert done.ephemeral and players.mention in done.text
    env.h.fake.pingable_roles.add(players.id)  # this one ping is the point
    lobby = (await ana.slash("sequences start")).message
    assert players.mention in lobby.content and "press Join" in lobby.content
    allowed = last_body(env, "POST", r"/callback$")["data"]["allowed_mentions"]
    assert allowed["roles"] == [players.id] and allowed["parse"] == []
    # Later redraws ping nobody, and a cleared setting calls no role.
    lobby = (await mod.click(lobby, "Join")).message
    await mod.slash("settings lobby-role")
    quiet = (await ana.slash("heartsdue start")).message
    assert not quiet.content


async def test_spectators_watch_from_the_thread_and_hands_stay_private(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo, cy, di = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby = (await ana.slash("board start")).message
    lobby = (await bo.click(lobby, "Join")).message
    seated = await ana.click(lobby, "Watch")
    assert seated.ephemeral and seated.text.startswith("You're playing at this table")
    watched = await cy.click(lobby, "Watch")
    assert "👀 1 watching" in env.h.message(lobby.id).text
    [line] = watched.followups
    assert line.ephemeral and line.text == (
        "👀 You're watching table #1: you join its thread when the game starts. "
        "Press Watch again to stop."
    )
    # A watcher who sits down stops watching; Watch pressed again (a toggle) takes one off.
    ed = await env.h.member("Ed")
    await ed.click(env.h.message(lobby.id), "Watch")
    assert "👀 2 watching" in env.h.message(lobby.id).text
    again = await ed.click(env.h.message(lobby.id), "Watch")
    assert again.followups[0].ephemeral
    assert again.followups[0].text == "You stopped watching table #1."
    assert "👀 1 watching" in env.h.message(lobby.id).text
    await ed.click(env.h.message(lobby.id), "Watch")
    await ed.click(env.h.message(lobby.id), "Join")
    await ed.click(env.h.message(lobby.id), "Leave")
    assert "👀 1 watching" in env.h.message(lobby.id).text
    assert (await env.bot.tables.get(1)).watchers == [cy.id]
    await ana.click(env.h.message(lobby.id), "Start")
    [thread] = env.h.threads
    assert cy.id in env.h.fake.thread_members[thread.id]
    turn = env.turn_message()
    assert "1 watching" in turn.text
    version = (await env.bot.tables.get(1)).version
    # Di watches from the table message: into the thread, counted; the turn stays live.
    await di.click(turn, "Watch")
    assert di.id in env.h.fake.thread_members[thread.id]
    assert "2 watching" in env.turn_message().text
    assert (await env.bot.tables.get(1)).version == version
    hand = await di.click(env.turn_message(), "My hand")
    assert hand.ephemeral and "not playing" in hand.text.lower()
    player = await mover(env, [ana, bo])
    mine = await player.click(env.turn_message(), "My hand")
    assert mine.ephemeral and mine.message.visible_to == player.id
    # Watch again stops watching: out of the thread and the count.
    await di.click(env.turn_message(), "Watch")
    assert di.id not in env.h.fake.thread_members[thread.id]
    assert "1 watching" in env.turn_message().text
    # A seated player can't watch; a thread Discord refuses to add to is said privately.
    refused = await ana.click(env.turn_message(), "Watch")
    assert refused.ephemeral and "You're playing" in refused.text
    env.h.fail_next("PUT", r"/thread-members/\d+$", 403)
    failed = await di.click(env.turn_message(), "Watch")
    assert failed.ephemeral and f"open <#{thread.id}> instead" in failed.text
    assert "1 watching" in env.turn_message().text


async def test_the_host_panel_answers_after_a_restart(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    panel = await open_panel(ana, lobby)
    await env.restart()
    kick = panel.selects[0]
    answer = await ana.select(panel, [f"u{bo.id}"], custom_id=kick.custom_id)
    assert answer.content == "Removed Bo's seat."
    assert bo.mention not in seats_text(env.h.message(lobby.id))
    # A button carrying the select's id is not one of the bot's: refused, nothing changes.
    forged = await forge_component(env, ana, lobby, "lm:1:host", P.BUTTON)
    assert forged.ephemeral and forged.text == "That button isn't one of mine; nothing changed."
    # The panel's select forged onto the lobby message itself does not redraw the lobby.
    before = env.h.message(lobby.id).text
    forged = await forge_component(env, ana, lobby, "lm:1:kick", P.STRING_SELECT)
    assert forged.ephemeral and forged.text == "That button doesn't belong to this message."
    assert env.h.message(lobby.id).text == before


async def test_the_settings_forms_stake_names_this_servers_cap(make_env: MakeEnv) -> None:
    """Issue 31.10: the form's stake field and its refusal name this server's limits (the
    bot's 10,000 and the server's own /settings max-stake), not the option's 1,000,000,000."""
    env = await make_env()
    ana = await env.h.member("Ana")
    admin = await env.h.member("Admin", manage_guild=True)
    lobby = (await ana.slash("sequences start")).message
    panel = await open_panel(ana, lobby)
    shown = await ana.click(panel, "Change settings")
    stake = next(f for f in shown.modal.fields if f["label"] == "Stake (chips each)")
    assert "10,000" in stake["placeholder"] and "1,000,000,000" not in stake["placeholder"]
    bad = await ana.submit_modal({"Stake (chips each)": "20000"})
    assert bad.ephemeral and "10,000" in bad.text and "1,000,000,000" not in bad.text
    await admin.slash("settings max-stake", amount=500)
    await ana.click(panel, "Change settings")
    bad = await ana.submit_modal({"Stake (chips each)": "501"})
    assert bad.ephemeral and "500" in bad.text and "10,000" not in bad.text, bad.text
    assert (await env.bot.tables.get(1)).row.stake == 0
    await admin.slash("settings max-stake", amount=0)
    shown = await ana.click(panel, "Change settings")
    stake = next(f for f in shown.modal.fields if f["label"] == "Stake (chips each)")
    assert "no staked tables" in stake["placeholder"]
    bad = await ana.submit_modal({"Stake (chips each)": "5"})
    assert bad.ephemeral and "1,000,000,000" not in bad.text
    assert (await env.bot.tables.get(1)).row.stake == 0


async def test_watch_is_one_toggle_and_an_old_stop_watching_button_still_answers(
    make_env: MakeEnv,
) -> None:
    """Issue 31.19: Watch and Stop watching were two buttons on every message (a German dice
    turn had 8 buttons in 4 rows). One Watch button toggles; a table message drawn before
    still carries Stop watching, which still takes its presser out."""
    env = await make_env()
    env.h.speak("de")
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = (await ana.slash("sequences start")).message
    assert "Zuschauen" in lobby.labels and len(lobby.buttons) == len(set(lobby.labels))
    lobby = (await bo.click(lobby, "Beitreten")).message
    await ana.click(lobby, "Starten")
    turn = env.turn_message()
    # One watch button, and the turn fits three rows (a phone shows 5 buttons a row).
    assert [b.label for b in turn.buttons].count("Zuschauen") == 1
    assert not [b for b in turn.buttons if (b.custom_id or "").endswith(":unwatch")]
    assert len(turn.buttons) <= 7 and len({b.row for b in turn.buttons}) <= 3, turn.labels
    [thread] = env.h.threads
    on = await cy.click(turn, "Zuschauen")
    assert on.followups[0].ephemeral and "Zuschauen" in on.followups[0].text
    assert cy.id in env.h.fake.thread_members[thread.id]
    off = await cy.click(env.turn_message(), "Zuschauen")
    assert off.followups[0].ephemeral
    assert cy.id not in env.h.fake.thread_members[thread.id]
    assert (await env.bot.tables.get(1)).watchers == []
    # A message from before the toggle: its Stop watching button (unwatch) still works.
    await cy.click(env.turn_message(), "Zuschauen")
    [watch] = [b for b in env.turn_message().buttons if b.custom_id.endswith(":watch")]
    unwatch = watch.custom_id[: -len("watch")] + "unwatch"
    old = await forge_component(env, cy, env.turn_message(), unwatch, P.BUTTON)
    assert old.followups[0].ephemeral and (await env.bot.tables.get(1)).watchers == []

"""What a player reads from ``/odds``, ``/help`` and the Rules button of a turn (issue 19,
items 13 and 20): plain words, lines a phone shows without wrapping, admin commands only
for admins, clickable command mentions, each game's rules privately."""

from __future__ import annotations

import re

import pytest

from cogs.odds import CHOICES
from tests.discord.conftest import MakeEnv
from tests.harness import Message, Reply

PHONE = 50  # characters an embed line shows on a phone without wrapping


def visible_lines(embed: dict[str, object]) -> list[str]:
    """The lines of an embed's title, description and fields as a player sees them: bold
    marks and command mentions (``</name:id>`` shows as ``/name``) drawn, not typed."""
    parts = [str(embed.get("title") or ""), str(embed.get("description") or "")]
    for field in embed.get("fields") or []:  # type: ignore[attr-defined]
        parts += [field["name"], field["value"]]
    text = "\n".join(parts).replace("**", "")
    text = re.sub(r"</([^:>]+):\d+>", r"/\1", text)
    return text.splitlines()


def too_long(reply: Reply | Message) -> list[str]:
    """The lines of figures a phone would wrap; a whole sentence is prose, which Discord
    wraps to the screen (issue 31.23), so it may be longer."""
    return [
        line
        for e in reply.embeds
        for line in visible_lines(e)
        if len(line) > PHONE and not line.endswith(".")
    ]


async def test_odds_lead_with_advice_and_keep_the_table_behind_a_button(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for choice in CHOICES:
        reply = await ana.slash("odds", ruleset=choice.value)
        assert reply.ephemeral and reply.message.visible_to == ana.id
        assert not too_long(reply), (choice.value, too_long(reply))
        # Words a player reads: no fractions, no "EV", no Python dicts.
        assert not re.search(r"\d+/\d+|\bEV\b|\{|lock\{", reply.text), reply.text
        # Push-your-luck odds lead with advice; a one-roll game has no choice to advise on.
        lead = "No choices" if choice.value in ("classic", "heartsdue") else "Best play"
        assert lead in reply.text, (choice.value, reply.text)
        assert reply.message.labels == ["Full table"]
        table = await ana.click(reply.message, "Full table")
        assert table.ephemeral and table.message.visible_to == ana.id
        assert table.message.id != reply.message.id  # a new private message
        assert len(table.embeds[0]["description"].splitlines()) >= 8
        assert not too_long(table), (choice.value, too_long(table))
        assert not re.search(r"\d+/\d+|\bEV\b|\{", table.text), table.text


async def test_odds_say_the_plays_that_matter(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    standard = await ana.slash("odds", ruleset="standard")
    assert "Push on 1." in standard.text and "bank 5" in standard.text
    assert "a turn scores 1.26 on average" in standard.text
    sudden = await ana.slash("odds", ruleset="sudden")
    assert "never lock past the total" in sudden.text and "17.3 turns" in sudden.text
    table = await ana.click(sudden.message, "Full table")
    assert "**At 19** (needs 2)" in table.text and "Never lock past 1-2." in table.text
    assert "**At 20** (needs 1)" in table.text and "Lock only the 1." in table.text
    classic = await ana.slash("odds", ruleset="classic")
    assert "58.4 % of throws score nothing" in classic.text and "25.3 turns" in classic.text
    table = await ana.click(classic.message, "Full table")
    assert "60 points: 1 in 46,656" in table.text


async def test_the_full_table_button_answers_after_a_restart(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    reply = await ana.slash("odds", ruleset="extended")
    await env.restart()
    table = await ana.click(reply.message, "Full table")
    assert table.ephemeral and "**1-2-3-4-5-6**: the turn ends, 15 points" in table.text


def field_names(reply: Reply) -> list[str]:
    return [f["name"] for f in reply.embeds[0].get("fields", [])]


async def test_help_groups_commands_and_shows_admin_ones_to_admins_only(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    mod = await env.h.member("Mod", manage_guild=True)
    member = await ana.slash("help")
    assert member.ephemeral
    assert field_names(member) == ["Start here", "Play", "Your chips and stats"]
    assert "/settings" not in member.text and "/chips" not in member.text
    assert member.text.count("/sequences end") == 1  # not three copies of the long text
    assert member.text.count("End a game early") == 1
    assert "Others press **Join**; the host presses **Start**" in member.text
    admin = await mod.slash("help")
    assert field_names(admin) == [
        "Start here",
        "Play",
        "Your chips and stats",
        "Run tournaments",
        "Server admins",
    ]
    [admins] = [f["value"] for f in admin.embeds[0]["fields"] if f["name"] == "Server admins"]
    assert "`/settings turn-timer`" in admins and "`/chips grant`" in admins
    # Every command is in /help somewhere (for an admin), so it cannot drift from the tree.
    for command in env.bot.tree.walk_commands():
        if command.qualified_name != "help" and not hasattr(command, "walk_commands"):
            assert f"/{command.qualified_name}`" in admin.text, command.qualified_name


ORGANISER_COMMANDS = ("create", "cancel", "remove", "result")


async def test_help_shows_the_organisers_commands_to_those_who_may_run_them(
    make_env: MakeEnv,
) -> None:
    """Issue 31.11: /help listed /tournament create, cancel, remove and result to every
    member, who is refused each. They show to Manage Server and to the organiser role only;
    /tournament show and list, which anyone may run, show to everyone."""
    env = await make_env()
    organisers = await env.h.role("Organisers")
    ana, cy = await env.h.member("Ana"), await env.h.member("Cy", roles=[organisers])
    mod = await env.h.member("Mod", manage_guild=True)
    await mod.slash("settings organiser-role", role=organisers)
    member = await ana.slash("help")
    assert "/tournament show`" in member.text and "/tournament list`" in member.text
    for name in ORGANISER_COMMANDS:
        assert f"/tournament {name}`" not in member.text, name
    assert "Run tournaments" not in field_names(member)
    refused = await ana.slash("tournament create", game="sequences:standard", format="swiss")
    assert refused.ephemeral  # what it listed, she may not run
    for who in (cy, mod):
        shown = await who.slash("help")
        [run] = [f["value"] for f in shown.embeds[0]["fields"] if f["name"] == "Run tournaments"]
        assert all(f"/tournament {name}`" in run for name in ORGANISER_COMMANDS), run
        assert "/tournament show`" not in run
    assert "Server admins" not in field_names(await cy.slash("help"))


async def test_help_mentions_the_synced_commands(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    before = await ana.slash("help")  # not synced yet: plain names, no broken mentions
    assert "`/sequences start`" in before.text and "</" not in before.text
    synced = {c.name: c.id for c in await env.bot.tree.sync()}
    env.clock.advance(601)  # the miss is asked again after ten minutes
    after = await ana.slash("help")
    assert f"</sequences start:{synced['sequences']}>" in after.text
    assert f"</odds:{synced['odds']}>" in after.text
    assert "`/" not in after.text
    # A server the commands were synced to directly: its own ids win there.
    guild = env.h.guild
    env.bot.tree.copy_global_to(guild=guild)
    local = {c.name: c.id for c in await env.bot.tree.sync(guild=guild)}
    env.clock.advance(601)
    there = await ana.slash("help")
    assert f"</sequences start:{local['sequences']}>" in there.text
    gets = [r for r in env.h.requests if r.method == "GET" and "/commands" in r.path]
    await ana.slash("help")
    assert [r for r in env.h.requests if r.method == "GET" and "/commands" in r.path] == gets


GAMES = [
    # (command, options, words of the game's own page, words of its variant's page)
    ("sequences start", {"variant": "sudden", "soft_last_die": True}, "bonus throw", "exactly 21"),
    ("sequences start", {"variant": "reverse"}, "bonus throw", "starts at **6**"),
    ("sequences start", {"rules": "classic"}, "Four or more 1s", "race to 100"),
    ("heartsdue start", {}, "1 (5) + 1-2-3 (15) = 20", "race to 100"),
    ("board start", {}, "One-eyed jacks", "2 sequences win"),
]


@pytest.mark.parametrize(("command", "options", "page_words", "table_words"), GAMES)
async def test_every_turn_message_has_a_rules_button_answered_privately(
    make_env: MakeEnv, command: str, options: dict[str, object], page_words: str, table_words: str
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    onlooker = await env.h.member("Cy")
    lobby = (await ana.slash(command, **options)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    assert "Rules" in turn.labels, turn.labels
    shown = turn.payload
    for who in (onlooker, bo):  # anyone may read them, not only the player to move
        rules = await who.click(turn, "Rules")
        assert rules.ephemeral and rules.message.visible_to == who.id
        assert page_words in rules.text and table_words in rules.text, rules.text
        assert rules.message.id != turn.id
    assert turn.payload == shown  # the turn message did not change
    # Still there once the turn moves on, beside the game's own buttons.
    label = next(lb for lb in turn.labels if lb and lb.startswith(("Throw", "My hand")))
    if label.startswith("Throw"):
        await ana.click(turn, label)
        assert "Rules" in env.turn_message().labels

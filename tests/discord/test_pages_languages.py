"""The commands' answers in the reader's language (issue 23, the ``pages`` catalogue):
``/help``, the table rules page, ``/history``, ``/replay`` and ``/odds`` read in German or
French through the harness, and their persistent buttons still answer when the message was
drawn in one language and is pressed by a member reading another.

Each member's language is set as the interaction's edge sets it (``speaking``), around the
command or click, and as their Discord client says it (``locale``)."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot.i18n.speaking import speaking
from cogs.help import help_embed
from tests.discord.conftest import MakeEnv
from tests.discord.test_issue_12 import HEARTS_DUE_FACES
from tests.discord.test_replays import finish_hearts_due
from tests.fakes import ScriptedRandom
from tests.harness import Player

ENGLISH = re.compile(
    r"\b(Start here|Play|Your chips|Server admins|Open a table|Others press|Finished games|"
    r"Page|won by|moves|Step|At step|Replay of game|Exact figures|Full table)\b"
)


async def test_help_and_the_table_rules_page_in_german(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    ana.locale = "de"
    with speaking("de"):
        help_page = await ana.slash("help")
        embed = help_page.embeds[0]
        assert embed["title"] == "Sequences-Bot"
        assert [f["name"] for f in embed["fields"]] == [
            "So geht's los",
            "Spielen",
            "\u200b",  # /play's five commands carry the section on into a second field
            "Deine Chips und Statistiken",
        ]
        # The commands' descriptions are the ones the German client shows (commands domain).
        assert "– Die besten Spieler eines Spiels" in help_page.text
        assert "– Sequences, das Würfelspiel" in help_page.text
        assert "Die anderen drücken **Beitreten**" in help_page.text
        # Not synced yet (no ids, no clickable mentions): the names a German client shows.
        assert "`/regeln` – " in help_page.text and "`/sequences starten` – " in help_page.text
        assert "`/rules`" not in help_page.text
        assert not ENGLISH.search(help_page.text), help_page.text

        offered = await ana.autocomplete("rules", "game", "Zeit")
        assert [c["value"] for c in offered] == ["tables"]
        rules = await ana.slash("rules", game=offered[0]["value"])
    assert rules.ephemeral
    assert rules.embeds[0]["title"] == "Regeln · Züge, Zeitlimits, Aufgeben und vorzeitiges Ende"
    assert "drei verpasste Züge in Folge" in rules.text and "`/<spiel> beenden`" in rules.text


async def test_history_and_replay_in_german_and_french_buttons_across_languages(
    make_env: MakeEnv,
) -> None:
    """/history and /replay's shared message are public: in the server's language, whoever
    asks (issue 31.8); the copy a member steps is theirs, in their own."""
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 3))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    cy, dee = await env.h.member("Cy"), await env.h.member("Dee")
    for _ in range(2):
        await finish_hearts_due(env, ana, bo)
    cy.locale, dee.locale = "de", "fr"
    env.h.guild_locale = "de"  # a German server: its public pages are German (issue 31.8)

    with speaking("de"):
        page = (await cy.slash("history")).message
    assert not page.ephemeral and page.embeds[0]["title"] == "Beendete Spiele"
    assert "Ana, Bo · gewonnen von Ana · 4 Züge" in page.text
    assert "Seite 1/1 · 2 Spiele · ▶ öffnet die Wiederholung" in page.text
    assert page.labels[:2] == ["◀ Zurück", "Weiter ▶"]
    assert not ENGLISH.search(page.text), page.text

    # A French member opens a game from the German page: the page is still one of the bot's,
    # and the shared replay it opens is a public message, in the server's German.
    with speaking("fr"):
        opened = (await dee.click(page, "▶ #2")).message
    assert not opened.ephemeral
    assert opened.embeds[0]["title"].startswith("Wiederholung von Spiel #2")
    assert not ENGLISH.search(opened.embed_text().split("```")[0]), opened.text

    # The French member steps the German replay: a private copy, in French, and its own
    # buttons step it in place; the shared message stays at the start, in German.
    with speaking("fr"):
        copy = (await dee.click(opened, "Weiter ▶")).message  # as the German message says
        assert copy.ephemeral and copy.id != opened.id
        assert copy.embeds[0]["title"] == "Rediffusion de la partie #2\u00a0: Hearts Due"
        assert "Étape 1/4" in copy.text
        stepped = (await dee.click(copy, "Suivant ▶")).message
    assert stepped.id == copy.id and "Étape 2/4" in stepped.text
    assert opened.embeds[0]["title"].startswith("Wiederholung von Spiel #2")
    assert not ENGLISH.search(stepped.embed_text().split("```")[0]), stepped.text


async def test_odds_in_german_and_its_full_table_pressed_in_french(make_env: MakeEnv) -> None:
    env = await make_env()
    ana: Player = await env.h.member("Ana")
    ana.locale = "de"
    with speaking("de"):
        answer = (await ana.slash("odds", ruleset="standard")).message
    assert answer.embeds[0]["title"] == "Chancen · Sequences"
    assert answer.embeds[0]["footer"]["text"] == "Exakte Werte, keine Simulation."
    assert answer.labels == ["Ganze Tabelle"]
    ana.locale = "fr"  # the client's language changed since: the button still answers
    with speaking("fr"):
        table = await ana.click(answer, "Ganze Tabelle")
    assert table.ephemeral
    assert table.embeds[0]["title"] == "Probabilités · Sequences · tableau complet"
    assert table.embeds[0]["footer"]["text"] == "Chiffres exacts, pas une simulation."


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "pt-BR"])
async def test_help_fits_discord_in_every_language_with_clickable_mentions(
    make_env: MakeEnv, language: str
) -> None:
    """With the commands synced, each is a mention of some 40 characters: an admin's /help
    in the longest language still fits its fields (1,024) without a line cut off."""
    env = await make_env()
    mod = await env.h.member("Mod", manage_guild=True)
    admin = discord.Permissions.all()

    def mention(name: str) -> str:
        return f"</{name}:1234567890123456789>"

    with speaking(language):
        embed = help_embed(env.bot.tree, mention, admin, organiser=True)
        shown = (await mod.slash("help")).embeds[0]
    values = [f.value or "" for f in embed.fields]
    assert all(len(v) <= 1024 for v in values), [len(v) for v in values]
    lines = [line for v in values for line in v.splitlines()]
    assert all(line.count("</") == line.count(":1234567890123456789>") for line in lines)
    commands = [c for c in env.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    named = {m for line in lines for m in re.findall(r"</([^:]+):", line)}
    assert named == {c.qualified_name for c in commands} - {"help"}
    assert len(embed) <= 6000 and len(shown["fields"]) >= 4


async def test_a_game_is_found_by_its_english_name_or_the_members_own(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana", locale="de")
    for typed in ("one-roll", "ein wurf"):  # the English label, and the German one
        offered = await ana.autocomplete("stats", "game", typed)
        assert [(c["name"], c["value"]) for c in offered] == [("Sequences (Ein Wurf)", "classic")]

"""Who reads which language (issue 23, items 4 and 5), set once at each edge: every
interaction runs in the words of the member who acted (their client's ``locale``), and
every public message is drawn in the server's (``/settings language``, else the server's
Discord locale, else English), a timer's redraw and a restart's included; changing the
server's language redraws its live tables in the new one.

The words themselves are the catalogues' (tests/discord/test_pseudo_locale.py plays every
game in the pseudo-locale); here each drawing records the language it was drawn in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.games.sequences.game import SequencesGame
from bot.i18n.speaking import current
from bot.ui import compose
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """(what, language) of every table message, lobby and answer drawn or sent."""
    seen: list[tuple[str, str]] = []

    def spy(owner: Any, name: str, what: Any) -> None:
        real = getattr(owner, name)

        def recording(*args: Any, **kwargs: Any) -> Any:
            label = what(*args, **kwargs) if callable(what) else what
            seen.append((label, current().tag))
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, recording)

    spy(SequencesGame, "turn_view", "table message")
    spy(compose, "lobby_embed", "lobby")

    def answer(kind: str) -> Any:
        return lambda *a, **k: f"{kind}{' (private)' if k.get('ephemeral') else ''}"

    spy(discord.InteractionResponse, "send_message", answer("answer"))
    spy(discord.Webhook, "send", answer("followup"))
    yield seen


def press(message: Message, action: str) -> dict[str, str]:
    """The ``custom_id`` of the message's button for ``action`` (language-independent)."""
    [custom_id] = [b.custom_id for b in message.buttons if b.custom_id.endswith(f":{action}")]
    return {"custom_id": custom_id}


async def start_game(env: Env, ana: Player, bo: Player) -> Message:
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, **press(lobby, "join"))).message
    await ana.click(lobby, **press(lobby, "start"))
    return lobby


async def test_private_answers_in_the_members_language_public_ones_in_the_servers(
    make_env: MakeEnv, drawn: list[tuple[str, str]]
) -> None:
    env = await make_env(seed=3)
    env.h.guild_locale = "es-419"  # the server's Discord language: no es-419 catalogue, es
    ana = await env.h.member("Ana", locale="de")
    bo = await env.h.member("Bo", locale="fr")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    await bo.click(lobby, **press(lobby, "join"))
    refused = await bo.click(lobby, **press(lobby, "join"))  # a second Join: refused
    assert refused.ephemeral
    await ana.click(lobby, **press(lobby, "start"))
    table = await env.bot.tables.get(1)
    wrong = bo if table.game.current_seat(table.rules) == 0 else ana
    turn = env.turn_message()
    stale = await wrong.click(turn, **press(turn, "throw"))  # not their turn: refused
    assert stale.ephemeral
    refused = await ana.slash("settings language", language="fr")  # no Manage Server
    assert refused.ephemeral
    assert ("lobby", "es") in drawn and ("table message", "es") in drawn
    assert {tag for what, tag in drawn if what in ("lobby", "table message")} == {"es"}
    private = [(what, tag) for what, tag in drawn if "private" in what]
    assert ("answer (private)", "fr") in private  # Bo's refused Join
    assert private[-2:] == [("answer (private)", wrong.locale), ("answer (private)", "de")]


async def test_a_timer_draws_in_the_language_the_server_last_spoke(
    make_env: MakeEnv, drawn: list[tuple[str, str]]
) -> None:
    env = await make_env(seed=3)
    env.h.guild_locale = "pt-BR"
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_game(env, ana, bo)
    drawn.clear()
    await env.tick(env.settings.turn_timeout_seconds + 1)  # nobody moved: no interaction
    assert drawn and set(drawn) == {("table message", "pt-BR")}
    # A restart knows no interaction yet: the gateway's guild says nothing here either,
    # so the server's choice is what a restart's redraw reads (set before the restart).
    mod = await env.h.member("Mod", manage_guild=True)
    await mod.slash("settings language", language="de")
    await env.restart()
    async with env.bot.db.transaction() as conn:  # as if the last redraw was not recorded
        await conn.execute("UPDATE games SET shown_version = 0")
    drawn.clear()
    assert await env.bot.shell.publisher.restore() == 1
    assert set(drawn) == {("table message", "de")}


async def test_changing_the_servers_language_redraws_its_live_tables(
    make_env: MakeEnv, drawn: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The game's name as a language would write it (the catalogues' own are tested apart).
    monkeypatch.setattr(SequencesGame, "title", lambda self, settings: f"Seq-{current().tag}")
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    await start_game(env, ana, bo)  # table 1: a game
    cy = await env.h.member("Cy")
    lobby = (await cy.slash("sequences start", rounds=1)).message  # table 2: a lobby
    game = env.turn_message()
    edits = {m.id: len(m.history) for m in (game, lobby)}
    drawn.clear()
    since = len(env.h.requests)
    reply = await mod.slash("settings language", language="fr")
    assert reply.ephemeral  # the member is answered first, then the tables are redrawn
    assert ("table message", "fr") in drawn and ("lobby", "fr") in drawn
    assert {tag for what, tag in drawn if what in ("lobby", "table message")} == {"fr"}
    assert {m.id: len(env.h.message(m.id).history) for m in (game, lobby)} != edits
    redraws = [r for r in env.h.requests[since:] if r.method == "PATCH"]
    assert len(redraws) == 4  # the game's message, its lobby, its thread, the open lobby
    assert [t.name for t in env.h.threads] == ["Seq-fr #1"]  # was "Seq-en #1"
    # Again within ten minutes: the messages are redrawn, the thread keeps its name (Discord
    # allows two renames per ten minutes, and would hold the table's redraws until then).
    since = len(env.h.requests)
    await mod.slash("settings language", language="de")
    assert ("table message", "de") in drawn
    assert len([r for r in env.h.requests[since:] if r.method == "PATCH"]) == 3
    assert [t.name for t in env.h.threads] == ["Seq-fr #1"]


async def test_the_servers_language_is_read_once_not_at_every_click(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    reads: list[str] = []
    env.bot.db.on_statement = lambda sql: reads.append(sql) if "language" in sql else None
    try:
        await start_game(env, ana, bo)
        for _ in range(6):
            table = await env.bot.tables.get(1)
            if table.status != "running":
                break
            player = ana if table.game.current_seat(table.rules) == 0 else bo
            message = env.turn_message()
            action = next(
                a
                for a in ("throw", "bank", "push")
                if any(b.custom_id.endswith(f":{a}") for b in message.buttons)
            )
            await player.click(message, **press(message, action))
    finally:
        env.bot.db.on_statement = None
    assert len(reads) == 1, reads  # the first public message of the server reads it


async def test_a_tournaments_tables_and_standings_speak_the_servers_language(
    make_env: MakeEnv, drawn: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.ui import tournaments

    real = tournaments.picture_embed

    def standings(*args: Any, **kwargs: Any) -> Any:
        drawn.append(("tournament", current().tag))
        return real(*args, **kwargs)

    monkeypatch.setattr(tournaments, "picture_embed", standings)
    env = await make_env()
    env.h.guild_locale = "fr"
    org = await env.h.member("Org", manage_guild=True, locale="de")  # the organiser's German
    players = [await env.h.member(n) for n in ("Ana", "Bo")]
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    signup = created.message
    for p in players:
        await p.click(signup, **press(signup, "join"))
    drawn.clear()
    await org.click(signup, **press(signup, "start"))  # the first round's table is posted
    tables = [tag for what, tag in drawn if what == "table message"]
    posted = [tag for what, tag in drawn if what == "tournament"]
    assert tables and set(tables) == {"fr"}
    assert "fr" in posted  # the standings of the round just started, in the server's words


async def test_a_reminder_in_the_thread_speaks_the_servers_language_a_dm_the_members(
    make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.ui import reminders

    seen: list[tuple[str, str]] = []
    for name in ("thread_text", "dm_text"):
        real = getattr(reminders, name)

        def spy(reminder: Any, real: Any = real, name: str = name) -> str:
            seen.append((name, current().tag))
            return str(real(reminder))

        monkeypatch.setattr(reminders, name, spy)
    env = await make_env(seed=3, turn_timeout_seconds=180)
    env.h.guild_locale = "es-ES"
    ana = await env.h.member("Ana", locale="de")
    bo = await env.h.member("Bo", locale="pt-BR")
    await ana.slash("notify", where="dm")  # Ana's reminders come by DM, Bo's in the thread
    await start_game(env, ana, bo)
    for _ in range(2):  # two turns run out: each player is reminded once
        await env.tick(180 * 2 / 3)
        await env.tick(180 / 3 + 1)
    assert ("dm_text", "de") in seen and ("thread_text", "es") in seen
    assert set(seen) == {("dm_text", "de"), ("thread_text", "es")}


async def test_the_redraw_in_a_new_language_is_paced_as_the_restore(make_env: MakeEnv) -> None:
    from bot.ui.restore import RESTORE_BURST, RESTORE_PER_SECOND

    count = RESTORE_BURST + 10
    env = await make_env(
        seed=3, max_lobbies_per_channel=count, max_lobbies_per_guild=count,
        max_games_per_guild=count,
    )  # fmt: skip
    env.h.fake.rate_limits = False  # the pace is the bot's own, not discord.py's waits
    hosts = [await env.h.member(f"Host{i}") for i in range(count)]
    for host in hosts:
        await host.slash("sequences start", rounds=1)
    mod = await env.h.member("Mod", manage_guild=True)
    since = len(env.h.requests)
    await mod.slash("settings language", language="es")
    edits = [r for r in env.h.requests[since:] if r.method == "PATCH"]
    assert len(edits) == len(hosts)  # every open lobby, once
    # The first RESTORE_BURST at once, then RESTORE_PER_SECOND a second: the k-th edit
    # after the burst comes k / 25 s after the first at the soonest.
    early = [
        (k, round(r.at - edits[0].at, 3))
        for k, r in enumerate(edits)
        if r.at - edits[0].at < (k + 1 - RESTORE_BURST) / RESTORE_PER_SECOND * 0.9
    ]
    assert early == [], early


async def test_a_sign_up_message_is_drawn_in_the_servers_language_whoever_clicks(
    make_env: MakeEnv, drawn: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.ui import tournaments

    real = tournaments.picture_embed

    def signup(*args: Any, **kwargs: Any) -> Any:
        drawn.append(("tournament", current().tag))
        return real(*args, **kwargs)

    monkeypatch.setattr(tournaments, "picture_embed", signup)
    env = await make_env()
    env.h.guild_locale = "fr"
    org = await env.h.member("Org", manage_guild=True, locale="de")
    ana = await env.h.member("Ana", locale="pt-BR")
    created = await org.slash("tournament create", game="sequences:standard", format="swiss")
    await ana.click(created.message, **press(created.message, "join"))
    shown = [tag for what, tag in drawn if what == "tournament"]
    assert len(shown) >= 2 and set(shown) == {"fr"}  # posted by Org, redrawn by Ana's Join
    assert "Rejoindre" in env.h.message(created.message.id).labels


async def test_the_hosts_settings_notice_is_in_the_servers_language(make_env: MakeEnv) -> None:
    env = await make_env()
    env.h.guild_locale = "fr"
    ana, bo = await env.h.member("Ana", locale="en-US"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, **press(lobby, "join"))).message
    panel = (await ana.click(lobby, **press(lobby, "manage"))).message  # private: English
    await ana.click(panel, "Change settings")
    done = await ana.submit_modal({"Rounds": "3"})
    assert done.ephemeral and done.text.startswith("Table #1 now plays")  # Ana's own words
    [notice] = [m for m in env.h.messages(env.h.channel) if "⚙️" in m.content]
    assert notice.content.startswith(f"{bo.mention} ⚙️ L’hôte a modifié la table #1\u00a0:")


async def test_a_private_line_sent_while_a_public_message_is_drawn_is_in_the_members_words(
    make_env: MakeEnv,
) -> None:
    """The host's private "the others have 2 minutes" is sent from the block that posts the
    public request (drawn in the server's French): it is still in the host's own English."""
    env = await make_env(seed=7)
    env.h.guild_locale = "fr"
    ana = await env.h.member("Ana", locale="en-US")
    bo = await env.h.member("Bo", locale="fr")
    lobby = (await ana.slash("sequences start", rounds=3, stake=100)).message
    lobby = (await bo.click(lobby, **press(lobby, "join"))).message
    await ana.click(lobby, **press(lobby, "start"))
    asked = await ana.slash("sequences end")
    assert asked.ephemeral and "have 2 minutes to agree" in asked.text, asked.text
    request = env.turn_message()
    assert "Finir la partie plus tôt" in request.text, request.text  # the server's French

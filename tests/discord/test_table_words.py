"""Issue 23: the words around a game (the table domain) in the reader's language: a lobby,
its refusals, the host's Manage panel, a resignation and the result, played through the
real bot in German and French as their players read them. The language is set here around
the whole run (``speaking``), as the bot's edges set it for each interaction, and the
members' and the server's Discord language agree with it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from bot.i18n.pseudo import CLOSE, OPEN, TAG
from bot.i18n.speaking import _, pgettext, speaking
from bot.ui.pings import PING
from tests.discord.conftest import Env, MakeEnv
from tests.discord.words import pseudo_locale
from tests.harness import Message, Player


@contextmanager
def reading(env: Env, language: str, *players: Player) -> Iterator[None]:
    env.h.guild_locale = language
    for player in players:
        player.locale = language
    with speaking(language):
        yield


def field(message: Message, name: str) -> str:
    return str(next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == name))


async def test_a_german_table_reads_in_german_from_the_lobby_to_the_result(
    make_env: MakeEnv,
) -> None:
    with speaking("de"):
        env = await make_env()
        ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    with reading(env, "de", ana, bo, cy):
        lobby = (await ana.slash("sequences start", stake=50)).message
        assert lobby.embeds[0]["title"] == "Sequences · Tisch #1"
        assert "Spieler: 1 (braucht 2–4) · schließt <t:" in lobby.embed_text()
        assert field(lobby, "Plätze") == f"` 1.` {ana.mention} (Gastgeber)"
        assert field(lobby, "Einsatz") == "je 50 Chips · Pot 50 Chips"
        footer = lobby.embeds[0]["footer"]["text"]
        assert footer == "Tritt bei, dann drückt der Gastgeber auf Starten."
        assert lobby.labels == [
            "Beitreten",
            "Verlassen",
            "Starten",
            "Absagen",
            "Verwalten",
            "Zuschauen",
        ]
        lobby = (await bo.click(lobby, "Beitreten")).message
        # Refusals, privately, in German.
        again = await bo.click(lobby, "Beitreten")
        assert again.ephemeral and again.text == "Du sitzt schon an diesem Tisch."
        manage = await bo.click(lobby, "Verwalten")
        assert manage.ephemeral and manage.text == "Nur der Gastgeber kann diesen Tisch verwalten."
        [watching] = (await cy.click(lobby, "Zuschauen")).followups
        assert watching.ephemeral and watching.text == (
            "👀 Du schaust Tisch #1 zu: du kommst in seinen Thread, sobald das Spiel beginnt. "
            "Drück noch einmal auf Zuschauen, um aufzuhören."
        )
        assert "· 👀 1 schaut zu" in env.h.message(lobby.id).embed_text()
        # The host's panel: its title, its selects, a pick answered on the German panel.
        panel = (await ana.click(lobby, "Verwalten")).message
        assert panel.embeds[0]["title"] == "Tischverwaltung #1"
        assert [s.placeholder for s in panel.selects] == [
            "Platz entfernen…",
            "Zum Gastgeber machen…",
        ]
        assert panel.labels == ["Einstellungen ändern"]
        kick = panel.selects[0]
        removed = await ana.select(panel, [f"u{bo.id}"], custom_id=kick.custom_id)
        assert removed.text.startswith("Platz von Bo entfernt: die 50 Chips gingen zurück.")
        lobby = (await bo.click(lobby, "Beitreten")).message
        assert "Bot hinzufügen: vorsichtig" not in lobby.labels  # a staked table: no bots
        await ana.click(lobby, "Starten")
        started = env.h.message(lobby.id).embed_text()
        assert started.startswith("Sequences · Tisch #1\nDas Spiel läuft! Verfolge es in <#")
        assert env.turn_message().labels[-3:] == [
            "Regeln",
            "Aufgeben",
            "Zuschauen",
        ]
        pings = [m.content for m in env.thread_messages() if PING.match(m.content)]
        assert pings == [f"{ana.mention}, du bist dran."]
        # Bo resigns: the confirmation, the answer, the result in the thread and the channel.
        confirm = await bo.click(env.turn_message(), "Aufgeben")
        assert confirm.text == (
            "Spiel #1 aufgeben? Du verlässt das Spiel endgültig und landest auf dem letzten "
            "Platz. Dein Einsatz bleibt im Pot."
        )
        assert confirm.message.labels == ["Aufgeben", "Weiterspielen"]
        done = await bo.click(confirm.message, "Aufgeben")
        assert done.text == "Du hast Spiel #1 aufgegeben."
    final = env.turn_message()
    assert "🏳️ Bo hat aufgegeben.\n🏆 Sieg für Ana: Bo hat aufgegeben." in final.embed_text()
    assert final.labels == ["Revanche"]
    [summary] = [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    # Won by a resignation: said so, and no 0-0 "score" (nobody had scored).
    assert summary.content.startswith("🏆 Sieg für **Ana** in Sequences #1: Bo hat aufgegeben. <#")
    assert summary.content.endswith("\n💰 Der Pot von 100 Chips geht an Ana.")


async def test_a_french_lobby_writes_its_numbers_and_refusals_the_french_way(
    make_env: MakeEnv,
) -> None:
    with speaking("fr"):
        env = await make_env()
        ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    with reading(env, "fr", ana, bo):
        # Numbers grouped with a narrow no-break space, as CLDR writes French ones.
        short = await ana.slash("sequences start", stake=1500)
        assert short.ephemeral and short.text == (
            "Vous avez 1\u202f000 jetons\u00a0; la mise de cette table est de 1\u202f500."
        )
        lobby = (await ana.slash("sequences start", stake=1000)).message
        assert lobby.embeds[0]["title"] == "Sequences · table #1"
        assert field(lobby, "Places") == f"` 1.` {ana.mention} (hôte)"
        assert field(lobby, "Mise") == "1\u202f000 jetons chacun · pot 1\u202f000 jetons"
        assert lobby.labels[:4] == ["Rejoindre", "Quitter", "Lancer", "Annuler"]
        refused = await bo.click(lobby, "Gérer")
        assert refused.ephemeral and refused.text == "Seul l’hôte peut gérer cette table."
        left = await bo.click(lobby, "Quitter")
        assert left.ephemeral and left.text == "Vous n’êtes pas à cette table."


async def test_a_panel_drawn_in_one_language_answers_a_pick_made_in_another(
    make_env: MakeEnv,
) -> None:
    """The panel check reads the panel's title in any of the bot's languages: a host whose
    Discord language changed since the panel was drawn still picks from it."""
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    with reading(env, "de", ana, bo):
        panel = (await ana.click(lobby, "Manage")).message  # the lobby was drawn in English
        assert panel.embeds[0]["title"] == "Tischverwaltung #1"
    with reading(env, "fr", ana, bo):
        picked = await ana.select(panel, [str(bo.id)], custom_id=panel.selects[1].custom_id)
    assert picked.text == "Bo est maintenant l’hôte de la table #1."


async def test_the_settings_form_asks_and_answers_in_german(make_env: MakeEnv) -> None:
    with speaking("de"):
        env = await make_env()
        ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    with reading(env, "de", ana, bo):
        lobby = (await ana.slash("sequences start")).message
        lobby = (await bo.click(lobby, "Beitreten")).message
        panel = (await ana.click(lobby, "Verwalten")).message
        form = await ana.click(panel, "Einstellungen ändern")
        assert form.modal is not None and form.modal.raw["title"] == "Einstellungen von Tisch #1"
        shown = [row["components"][0] for row in form.modal.raw["components"]]
        # Each field is named in German as a form names it (nouns capitalised), and the
        # variant is shown in the choice's German word.
        assert [f["label"] for f in shown][:4] == [
            "Variante",
            "Runden",
            "Zielpunktzahl",
            "Milder letzter Würfel",
        ]
        assert shown[0]["value"] == "Standard"
        assert shown[-1]["label"] == "Einsatz (Chips pro Person)"
        assert shown[-1]["placeholder"] == "0 bis 10.000"  # this server's cap (issue 31.10)
        assert shown[2]["placeholder"] == "5 bis 500, oder leer für den Standard"
        assert shown[3]["placeholder"] == "ja oder nein" and shown[3]["value"] == "nein"
        # German answers are taken: "ja", and a number grouped the German way.
        labels = [f["label"] for f in shown]
        wrong = await ana.submit_modal({labels[3]: "vielleicht"})
        assert wrong.ephemeral and wrong.text == f"{labels[3]}: sag ja oder nein."
        await ana.click(panel, "Einstellungen ändern")
        saved = await ana.submit_modal({labels[3]: "ja", labels[-1]: "1.000"})
        assert saved.text.startswith("Tisch #1 spielt jetzt **")  # the settings: the game's words
        assert saved.text.endswith(" · Einsatz 1.000 Chips.")
        [notice] = [m for m in env.h.messages(env.h.channel) if "⚙️" in m.content]
        assert notice.content.startswith(f"{bo.mention} ⚙️ Der Gastgeber hat Tisch #1 geändert: **")
        assert notice.content.endswith(
            " · Einsatz 1.000 Chips. Plätze reserviert: drück auf Beitreten, um für 1.000 Chips "
            "mitzuspielen."
        )


def test_a_restarted_bot_finds_its_pings_in_every_language() -> None:
    for language in ("en", "de", "fr", "es", "pt-BR"):
        with speaking(language):
            ping = _("<@%(user)s>, your turn.", user=12)
            reminder = _("⏰ <@%(user)s>, your turn ends in %(when)s.", user=12, when="1")
        assert PING.match(ping) and PING.match(reminder), language


def unmarked(text: str, *names: str) -> list[str]:
    """The words of ``text`` outside the pseudo-locale's marks, names, mentions, channel
    links and timestamps left out: a word here escaped the catalogue."""
    while True:
        shorter = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", "", text)
        if shorter == text:
            break
        text = shorter
    text = re.sub(r"<(@|#|t:)[^>]*>", "", text)
    for name in names:
        text = text.replace(name, "")
    return re.findall("[A-Za-z]{2,}", text)


async def test_the_table_around_a_game_marks_every_word_in_the_pseudo_locale(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    names = ("Ana", "Bo", "Cy")
    # Every member and the server read en-XA; the test's own lookups of labels too.
    with pseudo_locale(env.h), speaking(TAG):
        join, manage, watch = pgettext("button", "Join"), pgettext("button", "Manage"), _("Watch")
        lobby = (await ana.slash("board start", stake=20)).message
        lobby = (await bo.click(lobby, join)).message
        seen = [lobby.text]
        seen += [(await bo.click(lobby, join)).text, (await bo.click(lobby, manage)).text]
        seen += [m.text for m in (await cy.click(lobby, watch)).followups]
        panel = (await ana.click(lobby, manage)).message
        seen += [panel.text, *[s.placeholder or "" for s in panel.selects]]
        labels = [*env.h.message(lobby.id).labels, *panel.labels]
        await ana.click(env.h.message(lobby.id), pgettext("button", "Start"))
        seen.append(env.h.message(lobby.id).text)
        table_buttons = env.turn_message().labels[-4:]
        confirm = await bo.click(env.turn_message(), _("Resign"))
        seen.append(confirm.text)
        labels += [*table_buttons, *confirm.message.labels]
        done = await bo.click(confirm.message, pgettext("button", "Resign"))
        seen.append(done.text)
        seen += [m.text for m in env.h.messages(env.h.channel) if not m.ephemeral][-2:]
        labels += env.turn_message().labels  # Rematch
    for text in seen:
        assert OPEN in text and unmarked(text, *names) == [], text
    assert all(x and x.startswith(OPEN) and len(x) <= 80 for x in labels), labels

"""The dice games' words in every language (issue 23): every word push-your-luck Sequences
(each variant), one-roll Sequences and Hearts Due show (turn messages, buttons, the Odds
answer, results, replay stories, /rules and /odds pages) comes from the catalogue, so the
pseudo-locale shows nothing outside its markers; and a game played through the harness
reads in German as a German player would read it."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from babel import Locale as BabelLocale

from bot.games.base import Game
from bot.games.oneroll import GAME as ONEROLL
from bot.games.sequences import GAME as SEQUENCES
from bot.games.sequences.odds import advice_text
from bot.i18n import Language
from bot.i18n.pseudo import CLOSE, OPEN, TAG, pseudo_catalogue
from bot.i18n.speaking import speaking
from bot.render.odds_text import PHONE_LINE
from bot.rules import odds
from bot.tables.model import Seat, TableSnapshot
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_dice_games import press, start_table
from tests.fakes import ScriptedRandom


class _Pseudo(Language):
    """en-XA, written with English's numbers (Babel knows no locale en-XA)."""

    @functools.cached_property
    def babel(self) -> BabelLocale:
        return BabelLocale.parse("en")


PSEUDO = _Pseudo(TAG, pseudo_catalogue())
SEATS = (Seat(1, "Ana"), Seat(2, "Bo"), Seat(3, "Cy"), Seat(4, "Di"))
# What may show outside the markers: the players' names, Discord's timestamps, the team
# letters (values), and no other Latin letter (the pseudo-locale accents every one).
VALUES = re.compile(r"<t:\d+:R>|\b(?:Ana|Bo|Cy|Di|Hearts Due)\b|\b(?:A|B)\b")


def escaped(text: str) -> list[str]:
    """The words of ``text`` that did not come through the catalogue."""
    return re.findall(r"[A-Za-z]{1,}", VALUES.sub("", text))


def embed_texts(embed: discord.Embed) -> list[str]:
    data = embed.to_dict()
    texts = [data.get("title", ""), data.get("description", "")]
    texts += [part for f in data.get("fields", []) for part in (f["name"], f["value"])]
    return [*texts, data.get("footer", {}).get("text", "")]


def snapshot(game: Game[Any], settings: dict[str, Any], seats: int, rules: Any,
             events: list[Any]) -> TableSnapshot:  # fmt: skip
    return TableSnapshot(
        id=7, kind=game.name, status="running", version=1,
        game_key=game.kind.game_key(settings), host_id=1, guild_id=1, stake=0, channel_id=1,
        thread_id=2, settings=settings, seats=SEATS[:seats], rules=rules,
        events=tuple(events[-5:]), deadline=None, turn_deadline=1_900_000_000.0,
        turn_started_at=None, notice=None, game=game.kind,
    )  # fmt: skip


def played(game: Game[Any], settings: dict[str, Any], seats: int, seed: int) -> Iterator[
    tuple[TableSnapshot, list[str]]
]:  # fmt: skip
    """Every moment of a game among random presses: its snapshot and the words shown then
    (turn message, buttons, the Odds answer), then the replay story at the end."""
    rng = random.Random(seed)
    table = list(SEATS[:seats])
    kind = game.kind
    state = kind.start(settings, table, rng)
    events: list[Any] = []
    moments: list[tuple[Any, Any]] = [(None, state)]
    for _ in range(400):
        shown = snapshot(game, settings, seats, state, events)
        texts = embed_texts(game.turn_view(shown).embed)
        texts += [b.label for b in game.turn_buttons(state)]
        texts += [line for e in events if (line := game.event_words(e, table)) is not None]
        if game is SEQUENCES and state.phase in ("lock", "decide"):
            texts.append(advice_text(odds.advice(state)))
        yield shown, texts
        if kind.current_seat(state) is None:
            break
        buttons = [a.action for a in kind.turn_actions(state) if not a.private]
        turn = kind.turn_index(state)
        for action in kind.resolve(state, rng.choice(buttons)):
            if kind.turn_index(state) != turn:
                break  # as the table service: a lock that ended the turn drops the rest
            state, detail, event = kind.apply(state, action, rng, table)
            moments.append((SimpleNamespace(detail=detail), state))
            events += [event] if event is not None else []
    yield snapshot(game, settings, seats, state, events), [game.replay_text(moments, table)]


GAMES = [
    *(
        (SEQUENCES, {"variant": v, "rounds": None if v == "sudden" else 2, "target": None,
                     "soft_last_die": soft}, 4 if v == "team" else 2)
        for v in ("standard", "reverse", "team", "sudden", "extended")
        for soft in (False, True)
    ),
    (SEQUENCES, {"variant": "team", "rounds": None, "target": 15, "soft_last_die": False}, 4),
    (ONEROLL, {"ruleset": "classic", "target": 100}, 3),
    (ONEROLL, {"ruleset": "heartsdue", "target": 100}, 2),
]  # fmt: skip


@pytest.mark.parametrize(("game", "settings", "seats"), GAMES)
def test_every_word_of_a_dice_game_is_in_the_catalogue(
    game: Game[Any], settings: dict[str, Any], seats: int
) -> None:
    seen: set[str] = set()
    with speaking(PSEUDO):
        for seed in range(6):
            for _, texts in played(game, settings, seats, seed):
                for text in texts:
                    assert not escaped(text), f"English outside the catalogue: {text!r}"
                    seen.add(text)
        pages = [*game.rules_pages, *game.table_rules(snapshot(game, settings, seats, None, []))]
        extra = [p.title for p in pages] + [p.text for p in pages]
        extra += [game.title(settings), game.describe_settings(settings)]
        extra += list(game.bot_level_texts.values())
        for page in game.odds_pages:
            figures = page.figures()
            extra += [*figures.summary, *figures.table]
    for text in extra:
        assert not escaped(text), f"English outside the catalogue: {text!r}"
    # (a sentence over two lines opens its markers on the first and closes them on the last)
    assert [t for t in extra if t != "Hearts Due" and OPEN not in t and CLOSE not in t] == []
    assert len(seen) > 20  # the sweep drew a real game


def test_wiped_totals_and_every_bust_are_worded() -> None:
    """The sweep above meets Hearts Due's wipe and the soft last die: their lines, in the
    pseudo-locale, are whole sentences from the catalogue."""
    wipes, softs = [], []
    with speaking(PSEUDO):
        for seed in range(40):
            for _shown, texts in played(ONEROLL, {"ruleset": "heartsdue", "target": 100}, 2, seed):
                wipes += [t for t in texts if "💥" in t]
            settings = {"variant": "standard", "rounds": 2, "target": None, "soft_last_die": True}
            for _shown, texts in played(SEQUENCES, settings, 2, seed):
                softs += [t for t in texts if "šöƒţ ļàšţ đîé ķééþš" in t]  # "soft last die keeps"
    assert wipes and softs
    assert not [t for t in wipes + softs if escaped(t)]


def test_odds_table_lines_fit_a_phone_in_every_language() -> None:
    """/odds' full table is read on a phone, which shows 45-50 characters of a line: each
    of its figures fits (the English ones keep to ``PHONE_LINE``, 46); a sentence is
    prose, which Discord wraps."""
    too_long = []
    for tag in ("en", "de", "fr", "es", "pt-BR"):
        with speaking(tag):
            for game in (SEQUENCES, ONEROLL):
                for page in game.odds_pages:
                    for line in page.figures().table:
                        if line.endswith("."):
                            continue
                        if len(line.replace("**", "")) > (PHONE_LINE if tag == "en" else 50):
                            too_long.append(f"{tag}: {line}")
    assert too_long == []


def test_odds_prose_is_whole_sentences_discord_wraps() -> None:
    """Issue 31.23: /odds' advice was broken by hand at about 40 characters ("... bank 5:
    the bonus" / "throw is worth ..."), ragged in an embed wider than a phone. Every line
    of the answer is a heading or a whole sentence, in every language: Discord wraps it."""
    broken = []
    for tag in ("en", "de", "fr", "es", "pt-BR"):
        with speaking(tag):
            for game in (SEQUENCES, ONEROLL):
                for page in game.odds_pages:
                    figures = page.figures()
                    # The summary, and the table's opening line (a heading or a sentence).
                    for line in (*figures.summary, figures.table[0]):
                        heading = line.startswith("**") and line.endswith(("**", ")"))
                        if not heading and not line.endswith((".", "!", ")")):
                            broken.append(f"{tag} {page.key}: {line}")
    assert broken == []


def test_buttons_fit_a_phone_row_in_every_language() -> None:
    """A turn button's label stays within 40 characters (a phone's row) in every language,
    as the English ones do (``test_dice_turns``)."""
    longest: dict[str, str] = {}
    for tag in ("en", "de", "fr", "es", "pt-BR"):
        with speaking(tag):
            labels = [
                b.label
                for game, settings, seats in GAMES
                for seed in range(3)
                for shown, _texts in played(game, settings, seats, seed)
                if game.kind.current_seat(shown.rules) is not None
                for b in game.turn_buttons(shown.rules)
            ]
        longest[tag] = max(labels, key=len)
    assert {tag: label for tag, label in longest.items() if len(label) > 40} == {}


async def german_turns(env: Env) -> list[str]:
    """The live table redrawn in German: its turn message, buttons and Odds answer."""
    table = await env.bot.tables.get(1)
    assert table is not None
    shown = table.snapshot()
    with speaking("de"):
        view = SEQUENCES.turn_view(shown)
        texts = embed_texts(view.embed) + [b.label for b in SEQUENCES.turn_buttons(shown.rules)]
        if shown.rules.phase in ("lock", "decide"):
            texts.append(advice_text(odds.advice(shown.rules)))
    return texts


async def test_a_push_your_luck_game_reads_in_german(make_env: MakeEnv) -> None:
    faces = [
        *(1, 2, 5, 5, 6),  # Ana: 1-2 extends the run
        *(3, 4, 6),  # she pushes: 3-4 extends it
        2,  # she pushes the last die: no 5, the soft last die keeps 2
        *(1, 2, 3, 6, 6),  # Bo banks 3 and wins
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", rounds=1, soft_last_die=True)
    seen = await german_turns(env)
    assert "**Ana** ist am Zug." in seen[1] and "5 Würfel werfen" in seen
    await press(env, ana, "Throw")
    seen = await german_turns(env)
    assert "Verlängert die Reihe: **1-2**" in seen[1]
    assert "2 Punkte sichern" in seen and "Weiterwürfeln (3 Würfel)" in seen
    assert "Chancen" in seen and seen[-1].startswith("Leg alle 2 verlängernden Würfel zurück")
    await press(env, ana, "Push")
    await press(env, ana, "Push")
    seen = await german_turns(env)
    bust = "Ana geht mit 2 leer aus, hatte 1-2-3-4, nötig war eine 5: milder letzter Würfel"
    assert any(bust in text for text in seen)
    assert "Hausregel: **milder letzter Würfel**" in seen[1]
    assert "Spiel #1 · Hausregel: milder letzter Würfel" in seen
    await press(env, bo, "Throw")
    await press(env, bo, "Bank")
    seen = await german_turns(env)
    assert seen[0] == "🏆 Sieg für Bo in Sequences!"
    assert "Bo hatte nach der letzten Runde die höchste Summe." in seen[1]
    assert "Bo sichert **3** (Reihe 1-2-3)" in seen[5]
    assert not [r for r in env.h.requests if r.failed_with]


async def test_a_hearts_due_wipe_reads_in_german_and_french(make_env: MakeEnv) -> None:
    faces = [6] * 6 + [1] * 6 + [1, 2, 3, 4, 5, 6] + [1, 1, 1, 1, 2, 3]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "heartsdue start")
    await press(env, ana, "Throw")
    await press(env, bo, "Throw")
    await press(env, ana, "Throw")  # Ana opened higher: 1-…-6 scores 30
    await press(env, bo, "Throw")  # Bo throws four 1s: his 0 is wiped
    table = await env.bot.tables.get(1)
    assert table is not None
    with speaking("de"):
        german = embed_texts(ONEROLL.turn_view(table.snapshot()).embed)
    with speaking("fr"):
        french = embed_texts(ONEROLL.turn_view(table.snapshot()).embed)
    assert german[0] == "🎲 Hearts Due · Rennen bis 100"
    assert "💥 **Bo wirft vier Einsen: Summe gelöscht!** (0 → 0)" in german[1]
    assert "Ana wirft 1-2-3-4-5-6: 1-2-3-4-5-6 = 30 (Summe 30)" in german[5]
    assert "💥 **Bo lance quatre 1\u00a0: total effacé\u202f!** (0 → 0)" in french[1]
    assert french[-1] == "Partie n°\u00a01 · quatre 1 dans un lancer effacent votre total"

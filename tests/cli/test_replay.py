"""`python -m bot replay GAME_ID` (issue 15, offline): a finished game rebuilt from its log,
as a text story, a board picture at a step or the whole board game animated; public
information only; bad ids refused with one line and exit 2."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.__main__ import main
from bot.games.registry import Games
from bot.games.terms import dice_text
from bot.rules import board as b
from bot.store import games
from bot.store.db import Database
from bot.tables.history import replay
from tests.fakes import FakeClock
from tests.tables.test_history import ANA, BO, CHANNEL, GUILD, SEQ, make_service, play_game

BOARD = {"seats": None, "teams": None, "first_sequence_wins": False}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """One database: a board game played to its end by two members, a push-your-luck and
    a one-roll game with a bot, a lobby never started and a game whose log lost its start."""
    path = tmp_path_factory.mktemp("replay") / "bot.sqlite3"

    async def play() -> dict[str, int]:
        async with await Database.open(path) as db:
            clock = FakeClock()
            ids = {
                "board": await play_game(make_service(db, clock, 4), clock, "board", BOARD, -1),
                "sequences": await play_game(
                    make_service(db, clock, 5), clock, "sequences", SEQ, 1
                ),
                "oneroll": await play_game(
                    make_service(db, clock, 6),
                    clock,
                    "oneroll",
                    {"ruleset": "classic", "target": 60},
                    1,
                ),
                "broken": await play_game(make_service(db, clock, 7), clock, "sequences", SEQ, 1),
            }
            lobby = await make_service(db, clock, 8).open_lobby(
                guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana",
                kind="sequences", settings=SEQ,
            )  # fmt: skip
            await make_service(db, clock, 8).join(lobby.id, BO, "Bo")
            ids["lobby"] = lobby.id
            return ids

    ids = asyncio.run(play())
    conn = sqlite3.connect(path)
    with conn:
        (raw,) = conn.execute(
            "SELECT detail_json FROM game_log WHERE game_id = ? AND kind = 'start'",
            (ids["broken"],),
        ).fetchone()
        detail = json.loads(raw)
        del detail["rules"]
        conn.execute(
            "UPDATE game_log SET detail_json = ? WHERE game_id = ? AND kind = 'start'",
            (json.dumps(detail), ids["broken"]),
        )
    conn.close()
    return path, ids


def entries_of(path: Path, game_id: int) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        async with await Database.open(path) as db:
            return await games.log_entries(db, game_id)

    return asyncio.run(read())


def steps_of(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [step for e in entries if e["kind"] != "start" for step in e["detail"].get("steps", ())]


def test_the_board_animation_has_a_frame_per_move_and_fits_the_upload_limit(
    played: tuple[Path, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = played
    moves = len(steps_of(entries_of(path, ids["board"])))
    for suffix in ("png", "gif"):
        out = tmp_path / f"game.{suffix}"
        assert main(["replay", str(ids["board"]), "--database", str(path), "--out", str(out)]) == 0
        assert f"{moves} steps animated" in capsys.readouterr().out
        with Image.open(out) as image:
            assert image.format == suffix.upper()
            assert image.n_frames == moves + 1
            assert image.info.get("loop") == 0
        assert out.stat().st_size < 8_000_000


def test_a_step_of_the_board_game_is_a_png_of_that_position(
    played: tuple[Path, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = played
    out = tmp_path / "step.png"
    assert main(["replay", str(ids["board"]), "--database", str(path), "--step", "5",
                 "--out", str(out)]) == 0  # fmt: skip
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as image:
        assert getattr(image, "n_frames", 1) == 1 and image.width > 800
    assert "step 5 of" in capsys.readouterr().out


def test_the_board_story_names_every_move_and_no_card_left_in_a_hand(
    played: tuple[Path, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = played
    entries = entries_of(path, ids["board"])
    assert main(["replay", str(ids["board"]), "--database", str(path)]) == 0
    text = capsys.readouterr().out
    states = [state for _, state in replay(Games()["board"], entries)]
    shown = Counter(
        s.last_move.action.card
        for before, s in pairwise(states)
        if s.last_move is not before.last_move and hasattr(s.last_move.action, "card")
    )
    assert shown
    # Every card is named exactly as often as it was played or traded: a card held (dealt
    # or drawn) and never shown is named nowhere, not even once more.
    held = {card for s in states for hand in s.hands for card in hand}
    for card in held | set(shown):
        assert text.count(b.card_label(card)) == shown[card], card
    assert len([line for line in text.splitlines() if line[:1].isdigit()]) == len(states) - 1
    assert "Sequences:" in text and ("Winner: " in text or "Drawn" in text)


@pytest.mark.parametrize("kind", ["sequences", "oneroll"])
def test_a_dice_story_shows_every_throw_from_the_log_and_the_scores(
    played: tuple[Path, dict[str, int]], capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path, ids = played
    assert main(["replay", str(ids[kind]), "--database", str(path)]) == 0
    text = capsys.readouterr().out
    throws = [
        step.get("event", step).get("dice")
        for step in steps_of(entries_of(path, ids[kind]))
        if "forfeit" not in step and step.get("event", {}).get("kind") != "lock"
    ]  # a lock's dice are the throw it locks from
    throws = [dice for dice in throws if dice]
    assert throws
    lines = iter(text.splitlines())
    for dice in throws:  # each throw, in order
        assert any(dice_text(dice) in line for line in lines), dice
    assert "Scores:" in text and "Winner: " in text

    # Step 2: the first two steps only, with the scores there; a step past the end is clamped.
    assert main(["replay", str(ids[kind]), "--database", str(path), "--step", "2"]) == 0
    short = capsys.readouterr().out
    assert len(short.splitlines()) < len(text.splitlines()) and "Scores:" in short
    assert main(["replay", str(ids[kind]), "--database", str(path), "--step", "99999"]) == 0
    clamped = capsys.readouterr()
    assert clamped.out == text and "out of range" in clamped.err


def test_bad_ids_get_one_line_and_exit_2(
    played: tuple[Path, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = played
    cases = {
        "99999": "no game 99999",
        str(ids["lobby"]): "is not finished",
        str(ids["broken"]): "is not replayable",
    }
    for game_id, why in cases.items():
        assert main(["replay", game_id, "--database", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and why in err, err
    # A dice game has no pictures.
    out_file = tmp_path / "dice.png"
    assert main(["replay", str(ids["sequences"]), "--database", str(path),
                 "--out", str(out_file)]) == 2  # fmt: skip
    assert len(capsys.readouterr().err.strip().splitlines()) == 1 and not out_file.exists()

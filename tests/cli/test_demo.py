"""``python -m bot demo``: whole offline games a newcomer can run without a token."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main


def test_demo_plays_a_bot_game_then_a_staked_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "won Sequences" in out
    assert "A staked game: 250 chips each" in out
    assert "Ana  before:  1,000 chips" in out
    assert ("Ana  after:   1,250 chips" in out) != ("Bo   after:   1,250 chips" in out)
    assert "Leaderboard" in out and "ledger check" in out and ": ok" in out


@pytest.mark.parametrize("game", ["classic", "heartsdue"])
def test_demo_one_roll_games(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", game, "--seed", "1", "--quiet"]) == 0
    assert "won" in capsys.readouterr().out


def test_demo_board_writes_the_final_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "final.png"
    assert main(["demo", "board", "--seed", "4", "--quiet", "--out", str(out)]) == 0
    assert "won Sequence" in capsys.readouterr().out or "drawn" in out.name
    with Image.open(out) as image:
        assert image.size[0] > 800 and image.format == "PNG"

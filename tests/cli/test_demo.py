"""``python -m bot demo``: whole offline games a newcomer can run without a token."""

from __future__ import annotations

import re
import subprocess
import sys
from itertools import pairwise
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


@pytest.mark.parametrize(
    ("game", "headline"),
    [
        ("classic", "== 🏆 Ada 🤖 won Sequences (One-roll)! =="),
        ("heartsdue", "== 🏆 Babbage 🤖 won Hearts Due! =="),
    ],
)
def test_demo_one_roll_games(game: str, headline: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", game, "--seed", "1", "--quiet"]) == 0
    assert headline in capsys.readouterr().out.splitlines()  # seed 1: that bot wins


def test_demo_board_writes_the_final_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "final.png"
    assert main(["demo", "board", "--seed", "4", "--quiet", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "== 🏆 Ada 🤖 won Sequence (board game)! ==" in lines  # seed 4: Ada wins
    with Image.open(out) as image:
        assert image.size[0] > 800 and image.format == "PNG"


def _play_and_recent(out: str) -> tuple[list[str], list[str]]:
    """The event lines the demo printed while the game ran (without the marks of where a
    round starts), and the ``Recent`` lines of the final table (its own last events)."""
    blocks = out.split("\n\n")
    played = [line for line in blocks[1].splitlines() if not line.startswith("-- ")]
    final = "\n\n".join(blocks[2:]).splitlines()
    start = final.index("-- Recent --") + 1
    recent = []
    for line in final[start:]:
        if line.startswith(("(", "--")) or not line:
            break
        recent.append(line)
    return played, recent


def test_demo_prints_every_board_move_once_up_to_the_winning_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "board", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    played, recent = _play_and_recent(out)
    # The demo's log ends exactly as the table's own last events do: the final turns, the
    # winning move (a sequence) and the result, none repeated, none missing.
    assert played[-len(recent) :] == recent
    assert played[-1].startswith("🏆") and played[-2].endswith("a sequence!")
    assert all(a != b for a, b in pairwise(played))
    # Every sequence on the final board was announced by one printed move.
    totals = re.search(r"Sequences: (.*)", out)
    assert totals is not None
    made = sum(int(n) for n in re.findall(r"(\d+)/\d+", totals.group(1)))
    assert sum(line.endswith("a sequence!") for line in played) == made
    # Every card played, removed with or traded went to the discards: with no reshuffle in
    # this game (hands of 7 and 6, as the winner did not draw, + draw pile + discards = 104),
    # one printed line per discard.
    piles = re.search(r"Draw pile: (\d+) cards · discards: (\d+)", out)
    assert piles is not None
    pile, discards = int(piles.group(1)), int(piles.group(2))
    assert pile + discards + 7 + 6 == 104
    moves = [line for line in played if re.search(r" (played|removed|traded) ", line)]
    assert len(moves) == discards


def test_demo_prints_every_dice_turn_once_up_to_the_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--seed", "3", "--stake", "0"]) == 0
    out = capsys.readouterr().out
    played, recent = _play_and_recent(out)
    assert played[-len(recent) :] == recent
    assert played[-1].startswith("🏆")
    # Three rounds, no tie at the end: each of the three bot players took three turns.
    names = out.split("\n", 1)[0].split(": ", 1)[1].split(", ")
    for name in names:
        assert sum(line.startswith(f"{name} ") for line in played) == 3, name


def test_demo_plays_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """``--language de``: the demo's own lines in German, its numbers as German writes them
    (issue 23); a language the bot does not speak is refused, with the ones it does."""
    assert main(["demo", "--seed", "3", "--language", "de"]) == 0
    out = capsys.readouterr().out
    assert "== Ein Spiel mit Einsatz: je 250 Chips ==" in out
    assert "Ana  vorher:   1.000 Chips" in out
    assert ("Ana  nachher:  1.250 Chips" in out) != ("Bo   nachher:  1.250 Chips" in out)
    assert "== Rangliste · " in out and " Spieler " in out and "Wertung" in out
    assert re.search(r"Kassenprüfung: Guthaben [\d.]+ \+ gebunden 0 = ausgegeben [\d.]+: ok", out)

    assert main(["demo", "--language", "xx"]) == 2
    err = capsys.readouterr().err
    assert "no catalogue for 'xx'" in err and "de" in err and "pt-BR" in err


@pytest.mark.parametrize("stake", ["1500", "-5"])
def test_a_stake_the_demo_players_cannot_pay_is_refused_in_the_language_asked(
    stake: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--stake 1500``: each demo member starts with 1,000 chips, so the staked game cannot
    open (it ended in a traceback after the bot game), and a negative one was skipped
    silently; both are refused before anything is played, in the language asked (found
    playing the demo in French, Spanish and Portuguese)."""
    assert main(["demo", "--seed", "3", "--language", "fr", "--stake", stake]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--stake doit être compris entre 0 et 1\u202f000" in captured.err
    assert "Traceback" not in captured.err


def test_demo_says_its_settings_and_marks_rounds_and_tie_breaks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 31.24: the demo played 3 rounds, and the Team demo to 15 (the README says Team
    plays to 30), without saying so, and nothing marked where a round or a tie-break began."""
    assert main(["demo", "--seed", "2", "--stake", "0"]) == 0  # seed 2: a three-way tie
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "Settings: 3 rounds · 5 dice"
    marks = [line for line in lines if line.startswith("-- ") and "Round" in line]
    assert marks == [f"-- Round {n} of 3 --" for n in (1, 2, 3)]
    tie = lines.index("-- Tie-break --")
    assert tie > lines.index("-- Round 3 of 3 --")
    # Each round mark stands before that round's three turns.
    first = lines.index("-- Round 1 of 3 --")
    assert lines[first + 1].startswith("Ada ") and lines[first + 4] == "-- Round 2 of 3 --"

    assert main(["demo", "sequences-team", "--seed", "2", "--stake", "0"]) == 0
    out = capsys.readouterr().out
    assert "Settings: first to 30 · 5 dice" in out
    totals = [int(t) for t in re.findall(r"^Team [AB] \(.*\): (\d+)$", out, flags=re.M)]
    assert len(totals) == 2 and max(totals) >= 30  # played to the README's 30
    assert "-- Race to 30 · round 1 --" in out

    assert main(["demo", "classic", "--seed", "1", "--stake", "0"]) == 0
    out = capsys.readouterr().out
    assert "-- Opening throws: the highest sum starts --" in out
    assert "-- Round 1 · race to 100 --" in out


def test_demo_into_a_pipe_closed_early_ends_quietly() -> None:
    """``demo | head``: the reader stops after a few lines; the demo stops too, without a
    BrokenPipeError traceback (and its --help says the default seed is random)."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", "board"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert demo.stdout is not None and demo.stderr is not None
    assert demo.stdout.readline().startswith(b"Sequence")
    demo.stdout.close()  # as head does after its lines
    err = demo.stderr.read().decode()
    assert demo.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err

    shown = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert "default: random" in " ".join(shown.stdout.split())

"""`python -m bot --help` lists every command once, in its group, in plain text; the README
documents every one; `python -m bot health` says whether the database is usable."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli import COMMANDS, GROUPS
from bot.cli.health import check
from bot.store.db import Database

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_every_command_once_by_group_in_plain_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "`" not in text
    listed = re.findall(r"^  ([a-z][a-z0-9-]*) {2,}\S", text, flags=re.MULTILINE)
    assert listed == [name for _, commands in GROUPS for name in commands]
    assert sorted(listed) == sorted(COMMANDS)
    titles = [line[:-1] for line in text.splitlines() if line.endswith(":") and line[0] != " "]
    assert [t for t in titles if t in {g for g, _ in GROUPS}] == [g for g, _ in GROUPS]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_help_is_plain(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert "`" not in text and "repeatable" not in text
    assert COMMANDS[command][1] in " ".join(text.split())


def test_readme_documents_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Offline tools", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z][a-z0-9-]*)", section, flags=re.MULTILINE))
    assert documented == set(COMMANDS)


def test_health_of_a_good_a_missing_and_a_broken_database(tmp_path: Path) -> None:
    async def create(path: Path) -> None:
        await (await Database.open(path)).close()

    good = tmp_path / "odd?#" / "bot.sqlite3"
    asyncio.run(create(good))
    healthy, line = check(good)
    assert healthy and "ok" in line
    assert check(tmp_path / "missing.sqlite3") == (
        False,
        f"no database at {tmp_path / 'missing.sqlite3'}",
    )
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 500)
    assert check(garbage)[0] is False
    newer = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    healthy, line = check(newer)
    assert not healthy and "999" in line


def test_health_command_exits_0_or_1_with_one_line(tmp_path: Path) -> None:
    def health(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "health", "--database", str(path)],
            cwd=tmp_path, capture_output=True, text=True, timeout=60,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip

    missing = health(tmp_path / "none.sqlite3")
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1
    good = tmp_path / "bot.sqlite3"
    sqlite3.connect(good).close()
    ok = health(good)
    assert ok.returncode == 0 and ok.stdout.strip().endswith("ok: schema 0"), ok.stderr


def test_dockerfile_pins_python_and_checks_health_with_the_health_command() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.\d+\.\d+-slim-\w+$", dockerfile, flags=re.MULTILINE)
    check_line = re.search(r"^HEALTHCHECK .*\\\n\s+CMD (.+)$", dockerfile, flags=re.MULTILINE)
    assert check_line and check_line[1] == '["python", "-m", "bot", "health"]'
    assert "health" in COMMANDS


def test_harness_readme_custom_ids_have_the_real_format() -> None:
    from bot.render.view import custom_id
    from bot.ui.buttons import GameButton

    text = (ROOT / "tests" / "harness" / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r'custom_id="([^"]+)"', text)
    template = GameButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    assert examples and all(template.fullmatch(example) for example in examples), examples
    assert "t:1:L:join" in examples and custom_id(1, "L", "join") == "t:1:L:join"

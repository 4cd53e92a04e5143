"""Installing the bot (issue 19, items 24 and 25): an editable install, as `make` does, says
nothing a newcomer takes for a broken setup (setuptools' "Editable installation ... folders
with the same name as your package"), and a real install, as the Docker image's
`pip install .`, carries every file the code reads beside it (the migrations of both engines,
the board's layout). Both are built from a copy of what the Dockerfile copies, in a fresh
environment, by pip itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "bot", "cogs")  # what the Dockerfile copies


def project_copy(into: Path) -> Path:
    into.mkdir()
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, into / name)
    return into


def pip(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pip", *args],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result


def test_an_editable_install_does_not_warn(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "checkout")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", tmp_path / "venv"], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    result = pip("--python", str(python), "install", "--no-deps", "-e", str(project))
    said = result.stdout + result.stderr
    assert "Editable installation" not in said, said
    assert "same name as your package" not in said, said
    # And it works: from anywhere, `bot` and `cogs` are the checkout's.
    where = subprocess.run(
        [python, "-c", "import bot, cogs; print(bot.__file__); print(cogs.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert where == [str(project / "bot" / "__init__.py"), str(project / "cogs" / "__init__.py")]


def test_a_real_install_carries_every_file_the_code_reads(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "checkout")
    pip("wheel", "--no-deps", "--wheel-dir", str(tmp_path / "dist"), str(project))
    [wheel] = (tmp_path / "dist").glob("*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        path.relative_to(project).as_posix()
        for package in ("bot", "cogs")
        for path in (project / package).rglob("*")
        if path.is_file() and path.suffix != ".pyc"
    }
    assert {"bot/store/migrations/sqlite/001_init.sql", "bot/data/sequence_board.json"} <= wanted
    assert wanted - shipped == set()

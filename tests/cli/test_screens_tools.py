"""``scripts/make_screens.py`` needs Chromium and the Noto fonts, colour emoji included
(issue 31.27): the README says so where the screens are described, with the one apt-get
line the script's own refusal gives, and the script stops with that line before it plays
anything when a font is missing, not after minutes with boxes for emoji."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def screens_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_screens", ROOT / "scripts/make_screens.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_screens"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_readme_names_chromium_and_the_emoji_font_with_the_scripts_apt_line() -> None:
    script = screens_script()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    where = readme.index("drawn by `scripts/make_screens.py`")
    about = readme[where : readme.index("\n## ", where)]
    assert "Chromium" in about and "Noto Color Emoji" in about
    [line] = re.findall(r"^sudo apt-get install .*$", about, flags=re.M)
    assert line == script.APT_LINE
    assert {"chromium", "fonts-noto-color-emoji", "fonts-noto-core"} <= set(line.split())


def test_a_missing_font_stops_the_script_with_the_apt_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = screens_script()
    assert script.missing_fonts("Noto Sans,Noto Sans Regular\nNoto Color Emoji\n") == []
    assert script.missing_fonts("DejaVu Sans\nNoto Sans\n") == ["Noto Color Emoji"]

    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if name in ("chromium", "fc-list") else None

    def fc_list(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, stdout="DejaVu Sans\n", stderr="")

    monkeypatch.setattr(shutil, "which", which)
    monkeypatch.setattr(subprocess, "run", fc_list)
    with pytest.raises(SystemExit, match="Noto Color Emoji") as stopped:
        script.check_tools()
    assert script.APT_LINE in str(stopped.value)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="Chromium not found") as stopped:
        script.check_tools()
    assert script.APT_LINE in str(stopped.value)

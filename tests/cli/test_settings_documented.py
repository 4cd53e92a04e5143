"""Every setting an operator is told about does something (issue 19, item 23): the names in
`.env.example` and in the README's configuration table are exactly the fields of Settings,
and each field is read somewhere in the bot besides its own definition. OWNER_IDS failed
this: documented in both, read by nothing."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings
from bot.tables.limits import TableLimits

ROOT = Path(__file__).resolve().parents[2]


def env_example_names() -> set[str]:
    text = (ROOT / ".env.example").read_text()
    return {m.group(1) for m in re.finditer(r"^([A-Z][A-Z0-9_]*)=", text, re.MULTILINE)}


def readme_names() -> set[str]:
    section = (ROOT / "README.md").read_text().split("## Configuration", 1)[1].split("\n## ")[0]
    return {m.group(1) for m in re.finditer(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, re.M)}


def test_the_documented_settings_are_the_settings() -> None:
    fields = {name.upper() for name in Settings.model_fields}
    assert env_example_names() == fields
    assert readme_names() == fields


def test_every_setting_is_read_by_the_bot() -> None:
    code = "\n".join(
        path.read_text()
        for folder in ("bot", "cogs")
        for path in (ROOT / folder).rglob("*.py")
        if path != ROOT / "bot" / "config.py"
    )
    config = (ROOT / "bot" / "config.py").read_text()
    # Read as an attribute (settings.x, self.x in config's own methods), or handed on whole
    # as a field of TableLimits (Settings.table_limits).
    unread = [
        name
        for name in Settings.model_fields
        if not re.search(rf"\.{name}\b", code + config)
        and name not in TableLimits.__dataclass_fields__
    ]
    assert unread == []

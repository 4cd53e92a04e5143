"""docs/architecture.md and the import-linter contracts in pyproject.toml say the same."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["contracts"])


def test_every_contract_is_described_in_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    found = contracts()
    assert {c["id"] for c in found} >= {
        "pure-rules",
        "pure-render",
        "storage-through-services",
        "sql-in-store",
        "shell-layers",
        "cogs-independent",
    }
    for contract in found:
        assert f"- `{contract['id']}`: {contract['name']}" in page, contract["id"]


def test_the_layer_order_is_the_same_on_the_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    [layers] = [c["layers"] for c in contracts() if c["type"] == "layers"]
    assert " > ".join(layers) in page  # type: ignore[arg-type]


def test_the_page_names_files_that_exist() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    for name in (
        "bot/ui/buttons.py",
        "bot/ui/router.py",
        "bot/ui/publisher.py",
        "bot/ui/checks.py",
        "bot/tables/service.py",
        "bot/store/games.py",
        "bot/games/registry.py",
        "bot/games/base.py",
        "tests/games/six.py",
    ):
        assert name in page and (ROOT / name).exists(), name


def test_every_cog_is_in_the_independence_contract() -> None:
    """A new cog joins ``cogs-independent`` (only the shared base ``game_group`` stays out)."""
    [independent] = [c for c in contracts() if c["id"] == "cogs-independent"]
    cogs = {
        f"cogs.{path.stem}"
        for path in (ROOT / "cogs").glob("*.py")
        if "\nasync def setup(" in path.read_text()
    }
    assert set(independent["modules"]) == cogs  # type: ignore[call-overload]

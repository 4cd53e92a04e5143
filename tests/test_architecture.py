"""docs/architecture.md and the import-linter contracts in pyproject.toml say the same."""

from __future__ import annotations

import ast
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
        "game-halves",
    }
    for contract in found:
        assert f"- `{contract['id']}`: {contract['name']}" in page, contract["id"]


def test_every_game_module_is_in_one_half() -> None:
    """Each module of a game's package is its logic half or its presentation in the
    `game-halves` contract, so a new words module cannot slip under the logic half."""
    [halves] = [c for c in contracts() if c["id"] == "game-halves"]
    logic, words = set(halves["source_modules"]), set(halves["forbidden_modules"])  # type: ignore[call-overload]
    for path in sorted((ROOT / "bot" / "games").glob("*/*.py")):
        if path.name == "__init__.py":
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        assert (module in logic) != (module in words), module


def test_the_layer_order_is_the_same_on_the_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    for layers in [c["layers"] for c in contracts() if c["type"] == "layers"]:
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


def _imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports: by statement, or by name through ``importlib.import_module``
    or ``__import__`` (import-linter sees only the statements)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append((node.lineno, node.args[0].value))
    return names


def test_the_runtime_imports_nothing_from_the_checkout() -> None:
    """bot/ and cogs/ (all the Docker image has) import neither tests/ nor bench/, not even by
    name at run time; the one door is `python -m bot bench` loading the bench package."""
    door = ROOT / "bot" / "cli" / "bench.py"
    found = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        for line, name in _imported_names(path):
            top = name.split(".")[0]
            if top == "tests" or (top == "bench" and not (path == door and name == "bench.run")):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert found == []


def test_every_cog_is_in_the_independence_contract() -> None:
    """A new cog joins ``cogs-independent`` (only the shared base ``game_group`` stays out)."""
    [independent] = [c for c in contracts() if c["id"] == "cogs-independent"]
    cogs = {
        f"cogs.{path.stem}"
        for path in (ROOT / "cogs").glob("*.py")
        if "\nasync def setup(" in path.read_text()
    }
    assert set(independent["modules"]) == cogs  # type: ignore[call-overload]

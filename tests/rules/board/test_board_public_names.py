"""The rules core, the simulations and the commands use one another by public names only
(issue 32): no module imports another's ``_private`` name or reaches into another object's
``_private`` attribute, so a private helper can change without breaking a caller it never
knew about."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("bot/rules", "bot/sim", "bot/cli")


def _private(name: str) -> bool:
    # ``_`` alone is gettext's marker (bot.i18n), a public convention, not a private name.
    return name.startswith("_") and not name.startswith("__") and name != "_"


def crossings(source: str) -> list[str]:
    """Private names ``source`` imports from another module or reads off an object other
    than ``self`` or ``cls``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found += [f"import {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(ast.unparse(node))
    return found


def test_the_check_sees_an_import_and_a_reach_in() -> None:
    source = "from bot.rules.board.bots import _greedy\nx = other._cache\ny = self._ok\n"
    assert crossings(source) == ["import _greedy", "other._cache"]


def test_no_module_uses_another_modules_private_names() -> None:
    bad = {
        str(path.relative_to(ROOT)): found
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if (found := crossings(path.read_text()))
    }
    assert bad == {}

"""The store's modules use one another by public names only (issue 32): none imports
another's ``_private`` name or reaches into another object's, but for aiosqlite's two
(``Connection._execute`` and ``._conn``, which have no public twin)."""

from __future__ import annotations

from pathlib import Path

from tests.rules.board.test_board_public_names import crossings

ROOT = Path(__file__).resolve().parents[2]
# aiosqlite's own: the one hop to its thread and its sqlite3 connection (bot/store/sqlite.py).
AIOSQLITE = {"self.conn._execute", "self.conn._conn"}


def test_no_store_module_uses_another_objects_private_names() -> None:
    bad = {
        path.name: found
        for path in sorted((ROOT / "bot/store").glob("*.py"))
        if (found := [name for name in crossings(path.read_text()) if name not in AIOSQLITE])
    }
    assert bad == {}

"""The table layer's modules use one another by public names only (issue 32): the kernel's
peers call its documented names, never a ``_private`` one, and import no private helper."""

from __future__ import annotations

from pathlib import Path

from tests.rules.board.test_board_public_names import crossings

TABLES = Path(__file__).resolve().parents[2] / "bot" / "tables"


def test_no_table_module_uses_another_modules_private_names() -> None:
    bad = {
        path.name: found
        for path in sorted(TABLES.glob("*.py"))
        if (found := crossings(path.read_text()))
    }
    assert bad == {}


def test_the_check_sees_a_peer_reaching_into_the_kernel() -> None:
    assert crossings("async with self.kernel._locked(1) as table: ...") == ["self.kernel._locked"]

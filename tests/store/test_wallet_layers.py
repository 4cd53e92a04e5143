"""bot/store/wallets.py keeps the chips' SQL and row mapping; the rules live above it."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.errors import UserError
from bot.tables import wallets

STORE = Path(__file__).resolve().parents[2] / "bot" / "store" / "wallets.py"


def test_the_wallet_store_decides_nothing() -> None:
    tree = ast.parse(STORE.read_text())
    classes = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    # Row shapes only (the invariant's report): no error classes, nothing derived.
    assert [(c.name, [ast.unparse(b) for b in c.bases]) for c in classes] == [
        ("InvariantReport", [])
    ]
    raises = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Raise)]
    assert raises == [], f"bot/store/wallets.py raises at lines {raises}: refusing is policy"
    constants = [
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
        and target.id.isupper()
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, int | float | str)
    ]
    assert constants == [], f"policy constants in bot/store/wallets.py: {constants}"


def test_the_wallet_service_holds_the_rules() -> None:
    assert (wallets.START_CHIPS, wallets.DAILY_CHIPS) == (1_000, 100)
    assert (wallets.MAX_AMOUNT, wallets.MAX_REASON) == (1_000_000_000, 200)
    for error in (wallets.InsufficientChips, wallets.DailyAlreadyClaimed, wallets.InvalidAmount):
        assert issubclass(error, wallets.WalletError) and issubclass(error, UserError)
        assert error.__module__ == "bot.tables.wallets"
    assert wallets.split_pot(301, [7, 8, 9]) == {7: 101, 8: 100, 9: 100}

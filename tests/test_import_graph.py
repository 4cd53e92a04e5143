"""No import circle between modules of bot, cogs and bench, counting every import: top level,
inside functions (lazy) and under ``TYPE_CHECKING``. Import-linter's contracts hold the
layers between packages; this holds the modules inside each package too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "bench")

# Circles allowed, each as its set of modules. The store's engine factory imports the
# engine it is asked for lazily, and each engine imports the factory's shared code.
ALLOWED: dict[frozenset[str], str] = {
    frozenset({"bot.store.db", "bot.store.sqlite", "bot.store.postgres"}): "the engine factory",
}
# Circles being cut (issue 32): take each out as it goes. A new circle fails the test.
BEING_CUT: dict[frozenset[str], str] = {}


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module of ours that ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def ours(dotted: str) -> str | None:
        parts = dotted.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()
        return ".".join(parts) or None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [ours(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from bot.ui import lobby_host`` imports the module lobby_host.
            targets = [ours(f"{base}.{alias.name}") for alias in node.names]
        else:
            continue
        yield from (t for t in targets if t is not None and t != name)


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_import_circle_but_those_allowed() -> None:
    """A circle allowed, or part of one being cut (half cut, it may be smaller)."""
    known = [*ALLOWED, *BEING_CUT]
    new = [sorted(c) for c in circles(graph()) if not any(c <= k for k in known)]
    assert new == []


def test_each_circle_being_cut_is_still_there() -> None:
    """A circle cut comes off the list, so that it cannot come back unseen."""
    found = circles(graph())
    assert [sorted(c) for c in BEING_CUT if not any(f <= c for f in found)] == []


def test_the_walk_sees_lazy_and_type_checking_imports() -> None:
    edges = graph()
    assert "bot.store.postgres" in edges["bot.store.db"]  # inside a function
    assert "bot.tables.service" in edges["bot.games.base"]  # under TYPE_CHECKING
    assert "bot.ui.lobby_host" in edges["bot.ui.router"]  # from bot.ui import lobby_host


def test_circles_finds_a_circle_and_only_it() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(edges) == [frozenset({"a", "b", "c"})]

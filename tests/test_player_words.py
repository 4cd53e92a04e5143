"""No sentence a player reads is made in the logic (issue 21 item 2).

The table layer (``bot/tables``) and the rules core (``bot/rules``) raise codes with values
(``UserError(code="lobby.full", high=6, held=1)``) and return values; the presentation
(``bot/ui/texts.py``, each game's ``texts.py``, ``words.py``, ``odds.py``) words them. This
scan is what the languages issue relies on: every string literal in those packages that
reads like a sentence (two words) must be a docstring, a log line, the message of an error
players never see (not a ``UserError``: the error path logs it and apologises), or one of
the few entries below, each with the reason it is not player text.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from pathlib import Path

from bot.errors import UserError
from bot.rules.board.kernel import CDEF

ROOT = Path(__file__).resolve().parents[1]
LOGIC = ("bot/tables", "bot/rules")
SENTENCE = re.compile(r"[A-Za-z]+ +[A-Za-z]")
LOGGERS = {"log", "logger", "logging"}

# (file, the literal with "{}" for each f-string field): why it is not player text.
NOT_PLAYER_TEXT: dict[tuple[str, str], str] = {
    ("bot/tables/history.py", "log entry {} ({}), step {}: {}"): (
        "a replayed step in an operator's verify-log report and in logs"
    ),
    ("bot/tables/history.py", "not replayable"): "a verify-log verdict (the operator's CLI)",
    ("bot/tables/history.py", "unknown game kind {}"): "a verify-log verdict",
    ("bot/tables/history.py", "first differing step: {}"): "a verify-log verdict",
    ("bot/tables/history.py", "{} has no replay"): "a verify-log verdict",
    ("bot/tables/history.py", "every step replays, but the final state differs in {}"): (
        "a verify-log verdict"
    ),
    ("bot/tables/history.py", "the results differ: stored {}, replayed {}"): (
        "a verify-log verdict"
    ),
    ("bot/rules/board/kernel.py", CDEF): "the C declarations cffi reads",
    ("bot/rules/board/kernel.py", "struct kstate *"): "a C type given to cffi",
    ("bot/rules/board/kernel.py", "struct kstate"): "a C type given to cffi",
    (
        "bot/rules/board/kernel_build.py",
        ("the board kernel could not be built (no C compiler, or a compile error)"),
    ): "the exit line of the kernel's build command (the Docker image's build stage)",
    ("bot/tables/kind.py", "{}: logged {}, the rules make {}"): (
        "ReplayMismatch's message, for verify-log and logs (not a UserError)"
    ),
}


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _resolve(module: object, node: ast.expr) -> object:
    """What a raised expression's callee names in its module (None: not a plain name)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None) or getattr(builtins, node.id, None)
    if isinstance(node, ast.Attribute):
        owner = _resolve(module, node.value)
        return getattr(owner, node.attr, None) if owner is not None else None
    return None


def _hidden_from_players(module: object, exc: ast.expr) -> bool:
    """A raise whose message no player reads: an exception class that is not a UserError."""
    raised = _resolve(module, exc)
    return (
        isinstance(raised, type)
        and issubclass(raised, BaseException)
        and not issubclass(raised, UserError)
    )


def _sentences(path: Path) -> list[tuple[int, str]]:
    """The sentence-like literals of one module that may reach a player."""
    rel = path.relative_to(ROOT).as_posix()
    module = importlib.import_module(
        rel.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    )
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        documented = isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        )
        if documented and body and isinstance(body[0], ast.Expr) and _text(body[0].value):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)  # judged whole
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in LOGGERS
        ):
            skip.update(id(n) for n in ast.walk(node))  # a log line
        if isinstance(node, ast.Raise) and node.exc and _hidden_from_players(module, node.exc):
            skip.update(id(n) for n in ast.walk(node.exc))
    found = []
    for node in ast.walk(tree):
        text = _text(node)
        if text is None or id(node) in skip or not SENTENCE.search(text):
            continue
        if (rel, text) not in NOT_PLAYER_TEXT:
            found.append((getattr(node, "lineno", 0), text))
    return found


def _modules() -> list[Path]:
    return sorted(p for folder in LOGIC for p in (ROOT / folder).rglob("*.py"))


def test_no_player_sentence_is_made_in_the_logic() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in _modules()
        for line, text in _sentences(path)
    ]
    assert not found, (
        "player-visible words in the logic: raise a code with values "
        "(UserError(code=..., **values)) and word it in the presentation "
        "(bot/ui/texts.py, the game's texts.py):\n" + "\n".join(found)
    )


def test_every_allowed_literal_is_still_there() -> None:
    """An entry whose literal is gone is removed, so the list stays the exceptions only."""
    literals = {
        (path.relative_to(ROOT).as_posix(), text)
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (text := _text(node)) is not None
    }
    assert not set(NOT_PLAYER_TEXT) - literals


def test_every_code_the_logic_raises_has_words() -> None:
    """Each literal ``code=`` of the logic names a text the presentation registered."""
    from bot.errors import _TEXTS

    codes = {
        (path.relative_to(ROOT).as_posix(), kw.value.value)
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        for kw in node.keywords
        if kw.arg == "code" and isinstance(kw.value, ast.Constant)
    }
    conditional = {
        (path.relative_to(ROOT).as_posix(), branch.value)
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        for kw in node.keywords
        if kw.arg == "code" and isinstance(kw.value, ast.IfExp)
        for branch in (kw.value.body, kw.value.orelse)
        if isinstance(branch, ast.Constant)
    }
    missing = sorted(f"{f}: {c}" for f, c in codes | conditional if c not in _TEXTS)
    assert len(codes | conditional) > 100
    assert not missing, missing

"""The 10x10 board: which card each space shows, coordinates and precomputed line tables. A space is
``(row, col)``, inside one cell index ``row * 10 + col`` so sets of spaces are integer bit masks;
players read ``"C5"``."""

from __future__ import annotations

import json
from importlib import resources

from bot.errors import IllegalAction
from bot.rules.board.cards import ONE_DECK, is_jack

SIZE = 10
CELLS = SIZE * SIZE
#: Code printed on the four wild corners of the board file.
CORNER_CODE = "XX"
#: Number of spaces in a sequence.
RUN = 5

_COLUMNS = "ABCDEFGHIJ"


def _load_board() -> tuple[str, ...]:
    text = resources.files("bot.data").joinpath("sequence_board.json").read_text("utf-8")
    rows = json.loads(text)["rows"]
    cells = tuple(code for row in rows for code in row)
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("sequence_board.json must hold 10 rows of 10 codes")
    expected = {code: 2 for code in ONE_DECK if not is_jack(code)}
    counts: dict[str, int] = {}
    for code in cells:
        counts[code] = counts.get(code, 0) + 1
    if counts.pop(CORNER_CODE, 0) != 4 or counts != expected:
        raise ValueError("sequence_board.json must hold 4 corners and every non-jack card twice")
    if any(cells[i] != CORNER_CODE for i in (0, 9, 90, 99)):
        raise ValueError("sequence_board.json must have its wild spaces in the corners")
    return cells


#: The code shown on each cell (``"XX"`` on the corners), indexed by ``row * 10 + col``.
BOARD: tuple[str, ...] = _load_board()
CORNER_CELLS: tuple[int, ...] = (0, 9, 90, 99)
CORNER_MASK: int = sum(1 << cell for cell in CORNER_CELLS)
#: All non-corner cells, as a mask.
PLAIN_MASK: int = ((1 << CELLS) - 1) & ~CORNER_MASK

#: The two cells showing each non-jack card.
CARD_CELLS: dict[str, tuple[int, int]] = {}
for _cell, _code in enumerate(BOARD):
    if _code != CORNER_CODE:
        _a = CARD_CELLS.get(_code)
        CARD_CELLS[_code] = (_cell, _cell) if _a is None else (_a[0], _cell)


def _lines() -> tuple[tuple[int, ...], ...]:
    """Every maximal straight line of at least 5 cells: rows, columns, both diagonals."""
    found: list[tuple[int, ...]] = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(SIZE):
            for c in range(SIZE):
                # A line starts where the previous cell in its direction is off the board.
                if 0 <= r - dr < SIZE and 0 <= c - dc < SIZE:
                    continue
                line = []
                rr, cc = r, c
                while 0 <= rr < SIZE and 0 <= cc < SIZE:
                    line.append(rr * SIZE + cc)
                    rr, cc = rr + dr, cc + dc
                if len(line) >= RUN:
                    found.append(tuple(line))
    return tuple(found)


#: The 42 maximal lines (10 rows, 10 columns, 11 + 11 diagonals of length >= 5).
LINES: tuple[tuple[int, ...], ...] = _lines()
#: For each cell, the ``(line index, position in line)`` pairs of the lines through it.
CELL_LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((li, line.index(cell)) for li, line in enumerate(LINES) if cell in line)
    for cell in range(CELLS)
)
#: Every 5-cell window of every line (192 of them), as cell tuples and as masks.
WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    line[i : i + RUN] for line in LINES for i in range(len(line) - RUN + 1)
)
WINDOW_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in w) for w in WINDOWS)
#: For each cell, the indexes of the windows that contain it.
CELL_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(wi for wi, w in enumerate(WINDOWS) if cell in w) for cell in range(CELLS)
)


def coord_label(row: int, col: int) -> str:
    """Player-facing name of a space: ``(0, 0)`` -> ``"A1"``, ``(4, 2)`` -> ``"C5"``."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalAction(code="board.off_coord", row=row, col=col)
    return f"{_COLUMNS[col]}{row + 1}"


def parse_coord(text: str) -> tuple[int, int]:
    """Parse a space name such as ``"C5"`` or ``"j10"`` into ``(row, col)``."""
    cleaned = text.strip().upper()
    if len(cleaned) >= 2 and cleaned[0] in _COLUMNS and cleaned[1:].isdigit():
        row = int(cleaned[1:]) - 1
        if 0 <= row < SIZE:
            return row, _COLUMNS.index(cleaned[0])
    raise IllegalAction(code="board.not_space", text=text)


def cell_label(cell: int) -> str:
    """Player-facing name of a cell index."""
    return coord_label(*divmod(cell, SIZE))

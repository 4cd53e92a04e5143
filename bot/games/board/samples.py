"""Fixed board positions for the docs pictures, the render benchmark and the renderer's tests: plain
data and a seeded ``random.Random``, so the docs pictures regenerate byte for byte."""

from __future__ import annotations

import random

from bot.games.board.picture import SIDES, SIZE, BoardPicture, Cell, load_layout
from bot.i18n.speaking import _


def _open_cells() -> list[Cell]:
    layout = load_layout()
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if layout[r][c] != "XX"]


def _line(start: Cell, step: Cell) -> tuple[Cell, ...]:
    return tuple((start[0] + i * step[0], start[1] + i * step[1]) for i in range(5))


def empty() -> BoardPicture:
    return BoardPicture(chips={})


def midgame() -> BoardPicture:
    """Two players, 40 chips, a one-eyed jack just used, the player choosing where a 7♥ goes."""
    rng = random.Random(2024)
    layout = load_layout()
    cells = _open_cells()
    rng.shuffle(cells)
    chips = {cell: i % 2 for i, cell in enumerate(cells[:40])}
    free = [cell for cell in cells[40:] if layout[cell[0]][cell[1]] != "7H"]
    seven_hearts = [(r, c) for r, c in _open_cells() if layout[r][c] == "7H"]
    for cell in seven_hearts:
        chips.pop(cell, None)
    return BoardPicture(
        chips=chips,
        last_move=cells[38],
        last_removed=free[0],
        highlight=frozenset(seven_hearts),
        side_names=("Ana", "Ben"),
    )


def sequences() -> BoardPicture:
    """Two players, one completed sequence each (one through a wild corner), some spares."""
    rng = random.Random(7)
    blue = _line((0, 0), (0, 1))  # row 1 from the corner A1: the corner counts for everyone
    orange = _line((2, 7), (1, -1))
    corners = {(0, 0), (0, 9), (9, 0), (9, 9)}
    chips = {cell: 0 for cell in blue if cell not in corners}
    chips |= {cell: 1 for cell in orange}
    rest = [cell for cell in _open_cells() if cell not in chips]
    rng.shuffle(rest)
    for i, cell in enumerate(rest[:24]):
        chips[cell] = i % 2
    return BoardPicture(
        chips=chips,
        locked=frozenset(chips.keys() & (set(blue) | set(orange))),
        sequences=((0, blue), (1, orange)),
        last_move=orange[2],
        n_sides=2,
        side_names=tuple(
            f"{_(SIDES[i].colour_name)} {SIDES[i].symbol} {n}" for i, n in enumerate(("Ana", "Ben"))
        ),
    )


# A three-side game that just ended, every space taken: green's last chip (row 3, column 6)
# made the only five in a row, since with three sides one sequence wins.
_THREE_TEAMS = (
    ".OBOBOGBO.",
    "BOGBBGOOBO",
    "BOOGGGGGBB",
    "OBOGOOBBGO",
    "BOBGBBOOBB",
    "OBOOBBOGOO",
    "GBOGGGBOOB",
    "GGOGGBOGGG",
    "GBBGOGBGBG",
    ".GOGOBGGB.",
)


def three_teams_full() -> BoardPicture:
    """Three teams and every space taken: the largest PNG the bot can produce, in a position
    a game can reach (see _THREE_TEAMS)."""
    chips = {
        (r, c): "BOG".index(mark)
        for r, row in enumerate(_THREE_TEAMS)
        for c, mark in enumerate(row)
        if mark != "."
    }
    green = _line((2, 3), (0, 1))
    return BoardPicture(
        chips=chips,
        locked=frozenset(green),
        sequences=((2, green),),
        last_move=(2, 5),
        n_sides=3,
        side_names=(_("Blue team"), _("Orange team"), _("Green team")),
    )


# name -> builder; the names are the docs file names, board-<name>.png
SAMPLES = {"empty": empty, "midgame": midgame, "sequences": sequences, "3-teams": three_teams_full}

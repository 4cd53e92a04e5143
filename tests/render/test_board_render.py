"""The board renderer: valid, small PNGs whose pixels say what the picture data says."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from bot.games.board import picture as board
from bot.games.board.picture import (
    BOARD_PX,
    CARD,
    CELL,
    CHIP_D,
    DARK,
    INSET,
    LEGEND_H,
    SIDES,
    BoardPicture,
    cell_origin,
    chip_centre,
    load_layout,
    render_board,
    side_style,
)
from bot.games.board.samples import SAMPLES, three_teams_full

RGB = tuple[int, int, int]


def _image(picture: BoardPicture) -> Image.Image:
    data = render_board(picture)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def _pixel(img: Image.Image, xy: tuple[int, int]) -> RGB:
    value = img.getpixel(xy)
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def _close(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    board.clear_cache()
    yield
    board.clear_cache()


def test_png_has_board_size_and_grows_by_the_legend() -> None:
    assert _image(BoardPicture(chips={})).size == (BOARD_PX, BOARD_PX)
    named = BoardPicture(chips={}, side_names=("Ana", "Ben"))
    assert _image(named).size == (BOARD_PX, BOARD_PX + LEGEND_H)


def test_full_three_side_board_is_at_most_300_kb() -> None:
    picture = three_teams_full()
    assert len(picture.chips) == 96  # every space but the corners
    assert len(render_board(picture)) <= 300 * 1024


@pytest.mark.parametrize("side", range(3))
def test_chip_shows_its_side_colour_at_its_cell(side: int) -> None:
    cell = (4, 6)
    cx, cy = chip_centre(*cell)
    # Between the mark in the middle and the rim: the chip's own colour, locked or not.
    body = (cx + CHIP_D * 3 // 10, cy)
    empty = _image(BoardPicture(chips={}, n_sides=3))
    with_chip = _image(BoardPicture(chips={cell: side}, n_sides=3))
    assert not _close(_pixel(empty, body), SIDES[side].colour)
    assert _close(_pixel(with_chip, body), SIDES[side].colour)
    # The mark in the middle is not the chip colour: sides differ without colour too.
    assert not _close(_pixel(with_chip, (cx, cy)), SIDES[side].colour)
    # Nothing else moved: the next cell's chip spot is unchanged.
    nx, ny = chip_centre(4, 7)
    assert _pixel(empty, (nx, ny)) == _pixel(with_chip, (nx, ny))


def test_sides_have_different_marks() -> None:
    cells = [(2, 2 + side) for side in range(3)]
    img = _image(BoardPicture(chips={c: s for s, c in enumerate(cells)}, n_sides=3))
    half = CHIP_D // 2
    shapes = []
    for cell in cells:
        cx, cy = chip_centre(*cell)
        chip = img.crop((cx - half, cy - half, cx + half, cy + half))
        # The mark alone: pixels far from the chip colour, as a black and white silhouette.
        shapes.append(chip.convert("L").point(lambda v: 255 if v > 200 or v < 40 else 0).tobytes())
    assert len(set(shapes)) == 3


def test_locked_chip_differs_from_unlocked() -> None:
    cell = (5, 5)
    cx, cy = chip_centre(*cell)
    unlocked = _image(BoardPicture(chips={cell: 0}))
    locked = _image(BoardPicture(chips={cell: 0}, locked=frozenset({cell})))
    ring = (cx + CHIP_D // 2 - 5, cy)
    assert _close(_pixel(unlocked, ring), SIDES[0].colour)
    assert _close(_pixel(locked, ring), DARK, tolerance=30)


def test_base_is_built_once_and_reused(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = board._build_assets

    def counting() -> board._Assets:
        nonlocal calls
        calls += 1
        return real()

    monkeypatch.setattr(board, "_build_assets", counting)
    for build in SAMPLES.values():
        render_board(build())
    render_board(BoardPicture(chips={(1, 1): 1}))
    assert calls == 1


def test_every_layout_card_is_drawn_where_the_layout_puts_it() -> None:
    img = _image(BoardPicture(chips={}))
    blank = Image.new("RGB", (CELL - 2 * INSET, CELL - 2 * INSET), CARD).tobytes()
    faces: dict[str, bytes] = {}
    for r, row in enumerate(load_layout()):
        for c, code in enumerate(row):
            x, y = cell_origin(r, c)
            face = img.crop((x + INSET, y + INSET, x + CELL - INSET, y + CELL - INSET)).tobytes()
            assert face != blank, f"nothing drawn for {code} at {(r, c)}"
            # Both copies of a card look the same; different cards never do.
            assert faces.setdefault(code, face) == face, f"two different faces for {code}"
    assert len(faces) == 49  # 48 cards and the wild corner
    assert len(set(faces.values())) == 49


def test_sequence_line_links_its_chips() -> None:
    cells = tuple((7, c) for c in range(2, 7))
    chips = dict.fromkeys(cells, 1)
    plain = _image(BoardPicture(chips=chips, locked=frozenset(cells)))
    outlined = _image(BoardPicture(chips=chips, locked=frozenset(cells), sequences=((1, cells),)))
    # Half-way between two chips, on the line through their centres.
    (ax, ay), (bx, _) = chip_centre(*cells[0]), chip_centre(*cells[1])
    between = ((ax + bx) // 2, ay)
    assert not _close(_pixel(plain, between), DARK, tolerance=30)
    assert _close(_pixel(outlined, between), DARK, tolerance=30)


MARKED = (
    BoardPicture(chips={}, last_move=(3, 3)),
    BoardPicture(chips={}, last_removed=(3, 3)),
    BoardPicture(chips={}, highlight=frozenset({(3, 3)})),
)


@pytest.mark.parametrize("marked", MARKED)
def test_markers_change_only_their_cell(marked: BoardPicture) -> None:
    empty = _image(BoardPicture(chips={}))
    after = _image(marked)
    x, y = cell_origin(3, 3)
    box = (x, y, x + CELL, y + CELL)
    assert empty.crop(box).tobytes() != after.crop(box).tobytes()
    ox, oy = cell_origin(6, 6)
    other = (ox, oy, ox + CELL, oy + CELL)
    assert empty.crop(other).tobytes() == after.crop(other).tobytes()


def test_last_move_removed_and_highlight_look_different() -> None:
    x, y = cell_origin(3, 3)
    crops = {_image(p).crop((x, y, x + CELL, y + CELL)).tobytes() for p in MARKED}
    assert len(crops) == 3


def test_legend_drops_characters_the_font_cannot_draw() -> None:
    # The swatch already shows the mark; a missing glyph would otherwise print as a box.
    with_symbol = _image(BoardPicture(chips={}, side_names=("Blue ●", "Orange ▲")))
    without = _image(BoardPicture(chips={}, side_names=("Blue", "Orange")))
    assert with_symbol.tobytes() == without.tobytes()


@pytest.mark.parametrize(
    "picture",
    [
        BoardPicture(chips={(10, 0): 0}),
        BoardPicture(chips={(0, 1): 2}),  # side 2 with only two sides
        BoardPicture(chips={}, sequences=((0, ((0, 1), (0, 2), (0, 3), (0, 4), (1, 5))),)),
        BoardPicture(chips={}, sequences=((0, ((0, 1), (0, 2), (0, 3))),)),
        BoardPicture(chips={}, last_move=(-1, 3)),
        BoardPicture(chips={}, side_names=("a", "b", "c", "d"), n_sides=3),
    ],
)
def test_malformed_pictures_are_refused(picture: BoardPicture) -> None:
    with pytest.raises(ValueError):
        render_board(picture)


def test_side_style_names_colour_and_mark() -> None:
    assert [side_style(s) for s in range(3)] == [
        ("Blue", "●"),
        ("Orange", "▲"),
        ("Green", "■"),
    ]
    with pytest.raises(ValueError):
        side_style(3)


def test_rendering_is_deterministic() -> None:
    for build in SAMPLES.values():
        assert render_board(build()) == render_board(build())


def test_bench_command_writes_docs_pictures(tmp_path: Path) -> None:
    assert main(["bench", "--write-pictures", str(tmp_path)]) == 0
    for name in SAMPLES:
        with Image.open(tmp_path / f"board-{name}.png") as img:
            assert img.format == "PNG"
            assert img.width == BOARD_PX


def test_bench_command_reports_each_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--only", "frame", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "base draw" in out
    for name in SAMPLES:
        assert f"board frame, {name}: p99" in out


def test_card_index_stays_on_top_of_a_sequence_line() -> None:
    cells = tuple((r, 0) for r in range(3, 8))  # A4-A8: the line crosses the "0" of 10♣
    chips = dict.fromkeys(cells, 0)
    empty = _image(BoardPicture(chips={}))
    outlined = _image(BoardPicture(chips=chips, locked=frozenset(cells), sequences=((0, cells),)))
    x, y = cell_origin(*cells[2])
    ink = [
        (px, py)
        for px in range(x + INSET + 2, x + CELL - INSET - 2)
        for py in range(y + INSET + 2, y + CELL // 3)
        if not _close(_pixel(empty, (px, py)), CARD, tolerance=100)
    ]
    assert ink, "the card index should have ink"
    assert all(_pixel(outlined, p) == _pixel(empty, p) for p in ink)


def test_legend_falls_back_to_colour_and_cuts_long_names() -> None:
    undrawable = _image(BoardPicture(chips={}, side_names=("🙂🙂", "Ben")))
    colour = _image(BoardPicture(chips={}, side_names=("Blue", "Ben")))
    assert undrawable.tobytes() == colour.tobytes()
    long = _image(BoardPicture(chips={}, side_names=("W" * 10_000, "Ben")))
    short = _image(BoardPicture(chips={}, side_names=("W" * 200, "Ben")))
    assert long.tobytes() == short.tobytes()  # both cut to the same width, the second name intact


def test_three_teams_sample_is_a_position_a_game_can_reach() -> None:
    """Three sides: the first sequence wins. So the picture holds exactly one, made by the
    last chip, and the sides took turns (no removals: equal counts, the last side moved last)."""
    picture = three_teams_full()
    corners = {(0, 0), (0, 9), (9, 0), (9, 9)}
    counts = [sum(1 for s in picture.chips.values() if s == side) for side in range(3)]
    assert counts == [32, 32, 32]
    full = []
    for r in range(10):
        for c in range(10):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                window = [(r + i * dr, c + i * dc) for i in range(5)]
                if not all(0 <= a < 10 and 0 <= b < 10 for a, b in window):
                    continue
                sides = {picture.chips.get(cell) for cell in window if cell not in corners}
                if len(sides) == 1 and None not in sides:  # corners are every side's
                    full.append((sides.pop(), tuple(window)))
    assert full == list(picture.sequences) and len(full) == 1
    side, cells = full[0]
    assert side == 2 and picture.last_move in cells  # the last chip made it; green moved last
    assert picture.locked == frozenset(cells)

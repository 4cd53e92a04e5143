"""A board game replayed as pictures (``python -m bot replay GAME_ID --out FILE``), from the
renderer's palette frames, each marked with its move number so a move that changes nothing is not
merged away (sizes: docs/performance.md, "Replays")."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.base import Moments
from bot.games.board import picture as pic
from bot.games.board.render import picture
from bot.rules import board as b
from bot.tables.model import Seat

START_MS = 1_500  # the empty board
MOVE_MS = 500
SEQUENCE_MS = 2_000  # a move that makes a sequence
LAST_MS = 5_000  # the last move (the GIF/APNG loops back to the start after it)
COUNTER_SIZE = 17


def side_names(state: b.BoardState, seats: Sequence[Seat]) -> list[str]:
    """Per side, who plays it: "Ana" or "Ana & Cy"."""
    sides = state.config.sides
    return [
        " & ".join(seats[s].name for s in range(len(seats)) if s % sides == side)
        for side in range(sides)
    ]


def still(moments: Moments, seats: Sequence[Seat]) -> bytes:
    """The position after the last of ``moments`` as a PNG, its move framed."""
    state: b.BoardState = moments[-1][1]
    return pic.render_board(picture(state, side_names(state, seats)))


def frames(moments: Moments, seats: Sequence[Seat]) -> tuple[list[Image.Image], list[int]]:
    """One palette frame per moment (the start, then every move) and its duration in ms."""
    names = side_names(moments[0][1], seats)
    images: list[Image.Image] = []
    durations: list[int] = []
    last = len(moments) - 1
    for index, (_, state) in enumerate(moments):
        frame = pic.render_frame(picture(state, names))
        _number(frame, index)
        images.append(frame)
        move = state.last_move
        if index == 0:
            durations.append(START_MS)
        elif index == last:
            durations.append(LAST_MS)
        elif move is not None and move.new_sequences and moments[index - 1][1].last_move != move:
            durations.append(SEQUENCE_MS)
        else:
            durations.append(MOVE_MS)
    return images, durations


def animation(moments: Moments, seats: Sequence[Seat], fmt: str = "png") -> bytes:
    """The whole game: "png" an animated PNG, "gif" a GIF; both loop."""
    images, durations = frames(moments, seats)
    out = io.BytesIO()
    if fmt == "gif":
        images[0].save(
            out, format="GIF", save_all=True, append_images=images[1:], duration=durations,
            loop=0, optimize=True,
        )  # fmt: skip
    elif fmt == "png":
        images[0].save(
            out, format="PNG", save_all=True, append_images=images[1:], duration=durations,
            loop=0, compress_level=6,
        )  # fmt: skip
    else:
        raise ValueError(f"unknown animation format {fmt!r}: png or gif")
    return out.getvalue()


def _number(frame: Image.Image, index: int) -> None:
    """The move number in the empty top-left corner, on the felt (0 for the start)."""
    draw = ImageDraw.Draw(frame)
    felt, ink = pic.KEY_COLOURS.index(pic.FELT), pic.KEY_COLOURS.index(pic.WHITE)
    draw.rectangle((0, 0, pic.LABEL - 1, pic.LABEL - 1), fill=felt)
    draw.text(
        (pic.LABEL // 2, pic.LABEL // 2), str(index), font=pic.builtin_font(COUNTER_SIZE), fill=ink,
        anchor="mm",
    )  # fmt: skip

"""A tournament as a picture: a single elimination's bracket, a Swiss or round robin's standings;
values and words in, PNG out. Narrow with large text, since Discord shows an attachment at the
screen's width: at most three rounds across."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import font

BACKGROUND = (47, 49, 54)  # Discord's dark embed grey
BOX = (64, 68, 75)
LINE = (114, 118, 125)
TEXT = (220, 221, 222)
DIM = (150, 152, 157)
WON = (87, 242, 135)
GOLD = (250, 200, 70)
HEAD = (88, 101, 242)

NAME_MAX = 14  # characters of a name drawn; a longer one ends in "…"
PAD = 16
GUTTER = 30  # between a bracket's columns, where its lines run


def _font(size: int) -> ImageFont.FreeTypeFont:
    return font(size)


def _clip(text: str, limit: int = NAME_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """``text`` cut (ending in "…") to ``room`` pixels wide."""
    text = _clip(text)
    while len(text) > 1 and draw.textlength(text, font=face) > room:
        text = text[:-2].rstrip() + "…"
    return text


def _title_width(face: ImageFont.FreeTypeFont, *lines: str | None) -> int:
    """Pixels a picture needs across for its title lines: none is cut at the right edge."""
    return PAD * 2 + max((int(face.getlength(line)) + 1 for line in lines if line), default=0)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.quantize(colors=64).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a bracket match: ``name`` None is a place not known yet, ``bye`` an
    empty place (the other side goes through)."""

    name: str | None
    seed: int | None = None
    won: bool = False
    bye: bool = False
    score: str = ""  # games won in a best of 3


@dataclass(frozen=True, slots=True)
class BracketMatch:
    top: Side
    bottom: Side


def bracket_png(
    title: str,
    round_names: list[str],
    rounds: list[list[BracketMatch]],
    bye: str = "bye",
    champion: str | None = None,
) -> bytes:
    """The bracket: ``rounds[0]`` the first round's matches in bracket order, each next
    round half as many (places not known yet have ``name`` None); ``champion``: a line
    in gold under the title once it is over (its words given)."""
    name_font, small, head_font = _font(22), _font(16), _font(24)
    box_w, line_h, gap = 200, 34, 18
    match_h = 2 * line_h
    columns = len(rounds)
    first = max(len(rounds[0]), 1)
    width = max(PAD * 2 + columns * box_w + (columns - 1) * GUTTER, 360)
    width = max(width, _title_width(head_font, title, champion))
    heading = PAD + 40 + (34 if champion else 0)
    top = heading + 30
    height = top + first * (match_h + gap) + PAD
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=head_font, fill=TEXT)
    if champion:
        draw.text((PAD, PAD + 38), champion, font=head_font, fill=GOLD)
    centres: list[list[float]] = []
    for c, matches in enumerate(rounds):
        x = PAD + c * (box_w + GUTTER)
        draw.text((x, heading), round_names[c], font=small, fill=DIM)
        if c == 0:
            ys = [top + i * (match_h + gap) + match_h / 2 for i in range(len(matches))]
        else:
            prev = centres[c - 1]
            ys = [(prev[2 * i] + prev[2 * i + 1]) / 2 for i in range(len(matches))]
        centres.append(ys)
        for i, match in enumerate(matches):
            y = ys[i] - match_h / 2
            draw.rounded_rectangle([x, y, x + box_w, y + match_h], radius=6, fill=BOX)
            draw.line([(x + 6, y + line_h), (x + box_w - 6, y + line_h)], fill=BACKGROUND)
            for row, side in enumerate((match.top, match.bottom)):
                ty = y + row * line_h + line_h / 2
                if side.bye:
                    label, colour = bye, DIM
                elif side.name is None:
                    continue  # not known yet: an empty place
                else:
                    room = box_w - 34 - (40 if side.score else 10)
                    label = _fit(draw, side.name, name_font, room)
                    colour = WON if side.won else TEXT
                if side.seed is not None and side.name is not None and not side.bye:
                    draw.text((x + 8, ty), str(side.seed), font=small, fill=DIM, anchor="lm")
                draw.text((x + 34, ty), label, font=name_font, fill=colour, anchor="lm")
                if side.score:
                    draw.text(
                        (x + box_w - 8, ty), side.score, font=name_font, fill=colour, anchor="rm"
                    )
            if c > 0:  # the lines from the two matches feeding this one
                px = PAD + (c - 1) * (box_w + GUTTER) + box_w
                mid = px + GUTTER // 2
                for feeder in (centres[c - 1][2 * i], centres[c - 1][2 * i + 1]):
                    draw.line([(px, feeder), (mid, feeder), (mid, ys[i])], fill=LINE, width=2)
                draw.line([(mid, ys[i]), (x, ys[i])], fill=LINE, width=2)
    return _png(image)


def table_png(title: str, header: list[str], rows: list[list[str]], leader: bool = False) -> bytes:
    """A standings table: ``header`` then ``rows`` of cells (the second column the name,
    left-aligned; the others right-aligned numbers); ``leader``: the first row is the
    winner, drawn in gold."""
    font, head_font, small = _font(22), _font(24), _font(18)
    row_h = 38
    name_w = 250
    number_w = [
        max(70, 14 * max(len(r[i]) for r in [header, *rows]) + 16) for i in range(2, len(header))
    ]
    width = max(PAD * 2 + 50 + name_w + sum(number_w), _title_width(head_font, title))
    height = PAD * 2 + 40 + row_h * (len(rows) + 1)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=head_font, fill=TEXT)
    y = PAD + 40
    lefts = [PAD, PAD + 50]
    for w in [name_w, *number_w]:
        lefts.append(lefts[-1] + w)
    for r, cells in enumerate([header, *rows]):
        ty = y + r * row_h + row_h / 2
        if r % 2 == 1:
            draw.rectangle([PAD - 6, y + r * row_h, width - PAD + 6, y + (r + 1) * row_h], fill=BOX)
        colour = DIM if r == 0 else GOLD if leader and r == 1 else TEXT
        face = small if r == 0 else font
        for c, cell in enumerate(cells):
            if c == 1:
                draw.text((lefts[1], ty), _clip(cell), font=face, fill=colour, anchor="lm")
            else:
                right = lefts[c + 1] - 10 if c else lefts[1] - 12
                draw.text((right, ty), cell, font=face, fill=colour, anchor="rm")
    if rows:
        draw.line([(PAD, y + row_h), (width - PAD, y + row_h)], fill=HEAD, width=2)
    return _png(image)

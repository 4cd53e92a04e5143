"""A member's rating over their last games as a small PNG, in the bot's own font
(``bot.render.fonts``)."""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw, ImageFont

from bot.i18n.speaking import _, number
from bot.render.fonts import font

WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 14, 30
BACKGROUND = (47, 49, 54)  # Discord's dark embed grey, so the chart sits in the embed
GRID = (78, 81, 88)
TEXT = (220, 221, 222)
LINE = (88, 101, 242)
LAST = (87, 242, 135)


def _font(size: int) -> ImageFont.FreeTypeFont:
    return font(size)


def _nice_step(span: float, ticks: int) -> int:
    """A round grid step (1, 2 or 5 times a power of ten) giving about ``ticks`` lines."""
    raw = max(span / ticks, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def _game(count: int) -> str:
    # TRANSLATORS: under the rating chart's x axis, the first and last game shown ("game 12").
    return _("game %(number)s", number=number(count))


def rating_chart(points: list[tuple[int, float]]) -> bytes:
    """PNG of (game number, rating) points, oldest first; an empty list draws a note. Its
    words and numbers are the reader's language (``bot.i18n.speaking``)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, normal = _font(12), _font(14)
    if not points:
        draw.text((WIDTH // 2, HEIGHT // 2), _("No rated games yet"), font=normal, fill=TEXT,
                  anchor="mm")  # fmt: skip
        return _png(image)
    xs = [x for x, _y in points]
    ys = [y for _x, y in points]
    # Padding keeps a flat line off the frame and gives it gridlines above and below.
    pad = max((max(ys) - min(ys)) * 0.1, 25.0)
    low, high = min(ys) - pad, max(ys) + pad
    step = _nice_step(high - low, 4)
    y0 = math.floor(low / step) * step
    y1 = max(math.ceil(high / step) * step, y0 + step)
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(x: float, y: float) -> tuple[float, float]:
        return (LEFT + (x - x0) / (x1 - x0) * plot_w, TOP + (1 - (y - y0) / (y1 - y0)) * plot_h)

    for value in range(y0, y1 + 1, step):
        _px, py = at(x0, value)
        draw.line([(LEFT, py), (WIDTH - RIGHT, py)], fill=GRID)
        draw.text((LEFT - 6, py), number(value), font=small, fill=TEXT, anchor="rm")
    for game in (xs[0], xs[-1]):
        px, _py = at(game, y0)
        draw.text((px, HEIGHT - BOTTOM + 8), _game(game), font=small, fill=TEXT,
                  anchor="ma" if len(xs) == 1 else ("la" if game == xs[0] else "ra"))  # fmt: skip
    line = [at(x, y) for x, y in points]
    if len(line) > 1:
        draw.line(line, fill=LINE, width=3, joint="curve")
    lx, ly = line[-1]
    draw.ellipse([lx - 4, ly - 4, lx + 4, ly + 4], fill=LAST)
    label_anchor = "rb" if lx > WIDTH / 2 else "lb"
    draw.text((lx + (-6 if label_anchor == "rb" else 6), ly - 6), number(round(ys[-1])),
              font=normal, fill=LAST, anchor=label_anchor)  # fmt: skip
    return _png(image)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # A palette image keeps the upload small; the chart has only a handful of colours.
    image.quantize(colors=32).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()

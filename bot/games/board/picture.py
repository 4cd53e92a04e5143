"""The Sequence board as a PNG: picture data in, bytes out. What does not depend on the position is
drawn once and cached as palette images, so a frame is a copy and a few pastes
(docs/board-render.md)."""

from __future__ import annotations

import asyncio
import functools
import io
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.i18n.catalogue import SOURCE, Language, catalogues
from bot.i18n.speaking import N_, _, current, speaking

Cell = tuple[int, int]
RGB = tuple[int, int, int]

SIZE = 10
CELL = 86  # one board space, in px; the board is ~900 px so a phone (~450 px) halves it
LABEL = 40  # band for the A-J / 1-10 coordinates
PAD = 8  # right and bottom margin
BOARD_PX = LABEL + SIZE * CELL + PAD
LEGEND_H = 58
MAX_NAME = 64  # characters of a legend name considered; a third of the width holds ~20
INSET = 3  # gap between a card and its cell edge: the felt shows between cards
SS = 4  # supersampling factor for anti-aliased shapes

# Geometry inside a cell. The card's index (rank + suit) sits in a strip along the top that a
# chip never covers, so the card under a chip stays readable; the chip takes the lower part.
RANK_SIZE = 36
TEXT_SIZE = 28  # coordinates and legend names
WILD_SIZE = 20  # the corners' label; smaller where a language's word is wider than the card
WILD_MIN = 14
INDEX_SUIT = 26
STRIP_H = 36
CHIP_D = 48
CHIP_CX = CELL // 2
CHIP_CY = CELL - INSET - CHIP_D // 2 - 1

FELT: RGB = (24, 84, 60)
FELT_TEXT: RGB = (240, 236, 214)
CARD: RGB = (252, 251, 246)
CARD_EDGE: RGB = (150, 150, 140)
INK_RED: RGB = (200, 20, 45)
INK_BLACK: RGB = (28, 28, 28)
PIP_RED: RGB = (246, 205, 211)  # the big faded pip: shows the suit, but a chip dominates it
PIP_BLACK: RGB = (214, 214, 210)
GHOST: RGB = (200, 200, 196)  # a cleared space: the grey of an empty hole
WILD_CARD: RGB = (40, 40, 44)
WILD_STAR: RGB = (240, 228, 66)
DARK: RGB = (20, 20, 20)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT_BG: RGB = (244, 200, 225)
HIGHLIGHT_EDGE: RGB = (204, 121, 167)  # reddish purple: unlike any chip colour
LAST_MOVE: RGB = (240, 228, 66)  # yellow, framed in black so it shows on white cards too


@dataclass(frozen=True)
class _SideStyle:
    colour_name: str
    symbol: str  # how text (embeds, buttons) shows the mark; Discord's fonts have these
    mark: str  # the shape drawn on the chip, matching the symbol
    colour: RGB
    mark_ink: RGB  # white on the darker chips, black on the light orange one, for contrast


# Okabe-Ito colours, told apart with every common colour-vision deficiency; the marks tell the
# sides apart without colour at all (greyscale screenshots, total colour blindness).
SIDES: tuple[_SideStyle, ...] = (
    # TRANSLATORS: a side's chip colour, shown with its mark: "Blue ●" (embeds, the legend).
    _SideStyle(N_("Blue"), "●", "circle", (0, 114, 178), WHITE),
    # TRANSLATORS: a side's chip colour, shown with its mark: "Orange ▲".
    _SideStyle(N_("Orange"), "▲", "triangle", (230, 159, 0), DARK),
    # TRANSLATORS: a side's chip colour, shown with its mark: "Green ■".
    _SideStyle(N_("Green"), "■", "square", (0, 158, 115), WHITE),
)

RED_SUITS = frozenset("HD")
RANK_TEXT = {"T": "10"}


@dataclass(frozen=True)
class BoardPicture:
    """What to draw. Plain data so the game engine does not depend on the renderer."""

    chips: Mapping[Cell, int]  # (row, col) -> side index 0..2
    locked: frozenset[Cell] = frozenset()  # chips that belong to a completed sequence
    sequences: tuple[tuple[int, tuple[Cell, ...]], ...] = ()  # (side, five cells) to outline
    last_move: Cell | None = None  # cell to highlight
    last_removed: Cell | None = None  # cell a one-eyed jack just cleared (mark it)
    n_sides: int = 2
    highlight: frozenset[Cell] = frozenset()  # e.g. open spaces for a card being chosen
    side_names: tuple[str, ...] = ()  # optional legend, e.g. ("Blue ●", "Orange ▲")


def side_style(side: int) -> tuple[str, str]:
    """(colour name, mark symbol) of a side, so text can say "Blue ●" next to the picture."""
    if not 0 <= side < len(SIDES):
        raise ValueError(f"side must be 0..{len(SIDES) - 1}, got {side}")
    style = SIDES[side]
    return style.colour_name, style.symbol


@functools.cache
def load_layout() -> tuple[tuple[str, ...], ...]:
    """The standard board: 10 rows of card codes (rank + suit, T = 10, XX = wild corner)."""
    text = resources.files("bot.data").joinpath("sequence_board.json").read_text("utf-8")
    rows = json.loads(text)["rows"]
    return tuple(tuple(row) for row in rows)


def cell_origin(row: int, col: int) -> tuple[int, int]:
    """Top-left pixel of a board space."""
    return LABEL + col * CELL, LABEL + row * CELL


def cell_centre(row: int, col: int) -> tuple[int, int]:
    x, y = cell_origin(row, col)
    return x + CELL // 2, y + CELL // 2


def chip_centre(row: int, col: int) -> tuple[int, int]:
    x, y = cell_origin(row, col)
    return x + CHIP_CX, y + CHIP_CY


# --- Shapes -------------------------------------------------------------------------------------
# Each shape is drawn white on black at SS times the size into an "L" image, then shrunk: the
# result is an anti-aliased mask to paste a colour through.

Draw = Callable[[ImageDraw.ImageDraw, float], None]


def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: int | RGB = 255) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _heart(d: ImageDraw.ImageDraw, s: float) -> None:
    _circle(d, 0.28 * s, 0.31 * s, 0.25 * s)
    _circle(d, 0.72 * s, 0.31 * s, 0.25 * s)
    d.polygon([(0.04 * s, 0.40 * s), (0.96 * s, 0.40 * s), (0.5 * s, 0.96 * s)], fill=255)


def _diamond(d: ImageDraw.ImageDraw, s: float) -> None:
    d.polygon([(0.5 * s, 0.0), (0.9 * s, 0.5 * s), (0.5 * s, s), (0.1 * s, 0.5 * s)], fill=255)


def _spade(d: ImageDraw.ImageDraw, s: float) -> None:
    _circle(d, 0.28 * s, 0.56 * s, 0.23 * s)
    _circle(d, 0.72 * s, 0.56 * s, 0.23 * s)
    d.polygon([(0.06 * s, 0.50 * s), (0.94 * s, 0.50 * s), (0.5 * s, 0.02 * s)], fill=255)
    d.polygon([(0.5 * s, 0.55 * s), (0.68 * s, s), (0.32 * s, s)], fill=255)


def _club(d: ImageDraw.ImageDraw, s: float) -> None:
    _circle(d, 0.5 * s, 0.27 * s, 0.22 * s)
    _circle(d, 0.26 * s, 0.58 * s, 0.22 * s)
    _circle(d, 0.74 * s, 0.58 * s, 0.22 * s)
    _circle(d, 0.5 * s, 0.52 * s, 0.12 * s)
    d.polygon([(0.5 * s, 0.5 * s), (0.68 * s, s), (0.32 * s, s)], fill=255)


def _star(d: ImageDraw.ImageDraw, s: float) -> None:
    points = []
    for i in range(10):
        r = s / 2 if i % 2 == 0 else s * 0.2
        angle = -90 + 36 * i
        points.append(_polar(s / 2, s * 0.54, r, angle))
    d.polygon(points, fill=255)


def _polar(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    rad = math.radians(degrees)
    return cx + r * math.cos(rad), cy + r * math.sin(rad)


SUIT_SHAPES: dict[str, Draw] = {"H": _heart, "D": _diamond, "S": _spade, "C": _club}


@functools.lru_cache(maxsize=64)
def _shape_mask(shape: Draw, size: int) -> Image.Image:
    big = Image.new("L", (size * SS, size * SS), 0)
    shape(ImageDraw.Draw(big), float(size * SS))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _paste_shape(img: Image.Image, shape: Draw, size: int, xy: tuple[int, int], ink: RGB) -> None:
    img.paste(ink, (xy[0], xy[1], xy[0] + size, xy[1] + size), _shape_mask(shape, size))


@functools.lru_cache(maxsize=16)
def builtin_font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        # Without FreeType Pillow falls back to a fixed-size bitmap font: unreadable here.
        raise RuntimeError("Pillow was built without FreeType; the board renderer needs it")
    return font


@functools.lru_cache(maxsize=16)
def _latin_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Sans (Latin letters): for the words the built-in font has no letters for."""
    data = resources.files("bot.data").joinpath("fonts/NotoSans-Latin.ttf").read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def _text_font(text: str, size: int) -> ImageFont.FreeTypeFont:
    """The built-in font where it has every letter of ``text`` (English, as before), else
    the Latin one: a text is drawn in one font, never a mix within a word."""
    if all(_in_font(ch, False) for ch in text):
        return builtin_font(size)
    return _latin_font(size)


# --- The cached base ----------------------------------------------------------------------------


def _draw_card(img: Image.Image, row: int, col: int, code: str, highlighted: bool) -> None:
    x, y = cell_origin(row, col)
    d = ImageDraw.Draw(img)
    box = (x + INSET, y + INSET, x + CELL - INSET - 1, y + CELL - INSET - 1)
    if code == "XX":
        d.rounded_rectangle(box, radius=8, fill=WILD_CARD)
        # Star high and WILD low: a sequence line through the corner runs between them.
        star = 40
        _paste_shape(img, _star, star, (x + (CELL - star) // 2, y + 7), WILD_STAR)
        word, font = _wild_label()
        d.text((x + CELL // 2, y + CELL - 7), word, font=font, fill=WHITE, anchor="ms")
        return
    face = HIGHLIGHT_BG if highlighted else CARD
    edge = HIGHLIGHT_EDGE if highlighted else CARD_EDGE
    d.rounded_rectangle(box, radius=8, fill=face, outline=edge, width=6 if highlighted else 1)
    rank, suit = code[0], code[1]
    red = suit in RED_SUITS
    ink = INK_RED if red else INK_BLACK
    # Rank on the left, suit on the right of the top strip; a faded big pip below fills the
    # space a chip will cover, so an empty space reads from afar by its suit too.
    _draw_tight(d, (x + INSET + 6, y + INSET + STRIP_H - 4), RANK_TEXT.get(rank, rank), ink)
    shape = SUIT_SHAPES[suit]
    _paste_shape(img, shape, INDEX_SUIT, (x + CELL - INSET - 5 - INDEX_SUIT, y + INSET + 6), ink)
    pip = 36
    _paste_shape(
        img,
        shape,
        pip,
        (x + CHIP_CX - pip // 2, y + CHIP_CY - pip // 2),
        PIP_RED if red else PIP_BLACK,
    )


def _wild_label() -> tuple[str, ImageFont.FreeTypeFont]:
    """The corners' word in the language being drawn, and a font size that fits it on the
    card (20 px as in English, smaller only for a longer word)."""
    # TRANSLATORS: printed on the four corner spaces of the board picture, in capitals: the
    # corner counts for every side. Short: at most about 5 capital letters fit in the space.
    word = _drawable(_("WILD")) or "WILD"
    room = CELL - 2 * INSET - 8
    size = WILD_SIZE
    while size > WILD_MIN and _text_font(word, size).getlength(word) > room:
        size -= 1
    return word, _text_font(word, size)


def _draw_tight(d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, ink: RGB) -> None:
    """Bold text whose ink starts at x, each glyph 3 px after the previous: set this tight, "10"
    fits beside its suit at the same size."""
    font = builtin_font(RANK_SIZE)
    x, y = xy
    for ch in text:
        mask, (ox, _) = font.getmask2(ch, stroke_width=1, anchor="ls")
        left, _, right, _ = mask.getbbox() or (0, 0, 0, 0)
        d.text(
            (x - ox - left, y),
            ch,
            font=font,
            fill=ink,
            anchor="ls",
            stroke_width=1,
            stroke_fill=ink,
        )
        x += right - left + 3


def _draw_base(highlighted: bool) -> Image.Image:
    """The whole board without chips, every card plain or every card highlighted (RGB)."""
    img = Image.new("RGB", (BOARD_PX, BOARD_PX), FELT)
    d = ImageDraw.Draw(img)
    label_font = builtin_font(TEXT_SIZE)
    for i in range(SIZE):
        cx, cy = cell_centre(i, i)
        d.text((cx, LABEL // 2 + 1), "ABCDEFGHIJ"[i], font=label_font, fill=FELT_TEXT, anchor="mm")
        d.text((LABEL // 2, cy), str(i + 1), font=label_font, fill=FELT_TEXT, anchor="mm")
    for r, row in enumerate(load_layout()):
        for c, code in enumerate(row):
            _draw_card(img, r, c, code, highlighted)
    return img


# --- Sprites ------------------------------------------------------------------------------------


def _chip_rgba(side: int, locked: bool, diameter: int = CHIP_D) -> Image.Image:
    """A chip: the side's colour, its own mark, and a thick dark ring once locked in a sequence."""
    style = SIDES[side]
    n = diameter * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, n - 1, n - 1), fill=DARK)
    ring = (0.16 if locked else 0.05) * n
    d.ellipse((ring, ring, n - 1 - ring, n - 1 - ring), fill=style.colour)
    if locked:
        # A thin light line between the dark ring and the colour: on the darker blue chip the
        # ring would otherwise read as a slightly bigger chip rather than a ring.
        lr = ring - 0.03 * n
        d.ellipse((lr, lr, n - 1 - lr, n - 1 - lr), outline=WHITE, width=max(1, int(0.025 * n)))
    c = n / 2
    m = 0.2 * n  # mark half-size; the three shapes are sized to look equally heavy
    if style.mark == "circle":
        _circle(d, c, c, m, style.mark_ink)
    elif style.mark == "triangle":
        d.regular_polygon((c, c + 0.05 * n, m * 1.3), 3, fill=style.mark_ink)
    else:
        s = m * 0.85
        d.rectangle((c - s, c - s, c + s, c + s), fill=style.mark_ink)
    return img.resize((diameter, diameter), Image.Resampling.LANCZOS)


def _removed_rgba() -> Image.Image:
    """Where a chip was: a grey ghost with a dashed rim, crossed out; the index stays clear."""
    n = CELL * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx, cy, r = CHIP_CX * SS, CHIP_CY * SS, (CHIP_D // 2) * SS
    _circle(d, cx, cy, r, GHOST)
    width = 5 * SS
    inner = r - width / 2
    for k in range(12):
        d.arc((cx - inner, cy - inner, cx + inner, cy + inner), k * 30, k * 30 + 18, DARK, width)
    # The dashed rim says "a chip was here"; a plain X reads better than a dashed one at this size.
    arm = r * 0.5
    d.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=DARK, width=width)
    d.line((cx - arm, cy + arm, cx + arm, cy - arm), fill=DARK, width=width)
    return img.resize((CELL, CELL), Image.Resampling.LANCZOS)


def _last_move_rgba() -> Image.Image:
    """A yellow frame edged in black around the whole space: the eye finds it first."""
    n = CELL * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, n - 1, n - 1), radius=10 * SS, outline=DARK, width=9 * SS)
    d.rounded_rectangle(
        (2 * SS, 2 * SS, n - 1 - 2 * SS, n - 1 - 2 * SS),
        radius=8 * SS,
        outline=LAST_MOVE,
        width=5 * SS,
    )
    return img.resize((CELL, CELL), Image.Resampling.LANCZOS)


DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


def _sequence_rgba(direction: Cell) -> Image.Image:
    """A line through five spaces from the first chip's centre to the last's, round-capped."""
    dr, dc = direction
    span = 4 * CELL
    w, h = span * abs(dc) + CELL, span * abs(dr) + CELL
    img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # Endpoints relative to the sprite: it covers the five cells' bounding box.
    x0 = (CHIP_CX if dc >= 0 else span + CHIP_CX) * SS
    y0 = CHIP_CY * SS
    x1, y1 = x0 + dc * span * SS, y0 + dr * span * SS
    for colour, width in ((WHITE, 16), (DARK, 9)):
        d.line((x0, y0, x1, y1), fill=colour, width=width * SS)
        for px, py in ((x0, y0), (x1, y1)):
            _circle(d, px, py, width * SS / 2, colour)
    return img.resize((w, h), Image.Resampling.LANCZOS)


# --- Palette and caching ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Sprite:
    image: Image.Image  # "P" mode, on the shared palette
    mask: Image.Image  # "L": where to paste


@dataclass(frozen=True)
class _Assets:
    base: Image.Image  # "P"
    index_ink: Image.Image  # "L", full board: the ink of every card's rank and suit index
    highlighted: Image.Image  # "P": the same board with every card highlighted
    palette: Image.Image  # a 1x1 "P" image carrying the shared palette
    chips: dict[tuple[int, bool], _Sprite]
    removed: _Sprite
    last_move: _Sprite
    sequences: dict[Cell, _Sprite]


# Colours that must come out exact (tests and players rely on the chip colours).
KEY_COLOURS: tuple[RGB, ...] = (
    FELT,
    CARD,
    INK_RED,
    INK_BLACK,
    DARK,
    WHITE,
    GHOST,
    LAST_MOVE,
    HIGHLIGHT_BG,
    HIGHLIGHT_EDGE,
    *(s.colour for s in SIDES),
)
_PALETTE_SIZE = 128  # plenty for anti-aliased edges; fewer colours keep the PNG small


def _over(sprite: Image.Image, background: RGB) -> Image.Image:
    """An RGBA sprite flattened onto a colour (its edges blend into what it will sit on)."""
    flat = Image.new("RGB", sprite.size, background)
    flat.paste(sprite, (0, 0), sprite)
    return flat


def _make_palette(samples: list[Image.Image]) -> Image.Image:
    """The key colours exactly, then the colours median cut finds in everything drawn."""
    width = max(s.width for s in samples)
    collage = Image.new("RGB", (width, sum(s.height for s in samples)))
    y = 0
    for s in samples:
        collage.paste(s, (0, y))
        y += s.height
    adaptive = collage.quantize(
        colors=_PALETTE_SIZE - len(KEY_COLOURS), method=Image.Quantize.MEDIANCUT
    )
    extra = adaptive.getpalette() or []
    flat: list[int] = [v for colour in KEY_COLOURS for v in colour]
    flat += extra[: 3 * (_PALETTE_SIZE - len(KEY_COLOURS))]
    flat += [0] * (768 - len(flat))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def _to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def _sprite(rgba: Image.Image, background: RGB, palette: Image.Image) -> _Sprite:
    # Pixels only faintly covered are left out, so no light fringe lands on dark neighbours.
    mask = rgba.getchannel("A").point(lambda a: 255 if a >= 48 else 0)
    return _Sprite(_to_palette(_over(rgba, background), palette), mask)


def _build_assets() -> _Assets:
    """Draw everything position-independent, with the words of the language being drawn.
    Slow (~0.25 s); called once per process and language."""
    base = _draw_base(highlighted=False)
    highlighted = _draw_base(highlighted=True)
    chips = {(side, lk): _chip_rgba(side, lk) for side in range(len(SIDES)) for lk in (False, True)}
    removed = _removed_rgba()
    last_move = _last_move_rgba()
    sequences = {d: _sequence_rgba(d) for d in DIRECTIONS}
    rgba_sprites = [*chips.values(), removed, last_move, *sequences.values()]
    if current().tag == SOURCE:
        palette = _make_palette([base, highlighted, *(_over(s, CARD) for s in rgba_sprites)])
    else:
        # English's palette (its corner word has the same colours): every pixel but the
        # corners' word comes out as in English, and frames of two languages share colours.
        palette = _assets_in(catalogues().language(SOURCE)).palette
    # Chip, mark and line edges blend towards the card face they nearly always sit on; the
    # last-move frame sits mostly on the felt between cards.
    return _Assets(
        base=_to_palette(base, palette),
        index_ink=_index_ink(base),
        highlighted=_to_palette(highlighted, palette),
        palette=palette,
        chips={k: _sprite(v, CARD, palette) for k, v in chips.items()},
        removed=_sprite(removed, CARD, palette),
        last_move=_sprite(last_move, FELT, palette),
        sequences={k: _sprite(v, CARD, palette) for k, v in sequences.items()},
    )


def _index_box(row: int, col: int) -> tuple[int, int, int, int]:
    x, y = cell_origin(row, col)
    return x + INSET + 2, y + INSET + 2, x + CELL - INSET - 2, y + INSET + STRIP_H + 2


def _index_ink(base: Image.Image) -> Image.Image:
    """Where the card indices have ink: pasted back over sequence lines to keep them legible."""
    ink = Image.new("L", base.size, 0)
    for r in range(SIZE):
        for c in range(SIZE):
            box = _index_box(r, c)
            # Distance from the card colour; anything clearly not card face is ink.
            size = (box[2] - box[0], box[3] - box[1])
            faded = ImageChops.difference(base.crop(box), Image.new("RGB", size, CARD))
            ink.paste(faded.convert("L").point(lambda v: 255 if v > 40 else 0), box[:2])
    return ink


def _assets() -> _Assets:
    """The base of the language being drawn (its corners' word): drawn once per language."""
    return _assets_in(current())


@functools.lru_cache(maxsize=8)
def _assets_in(language: Language) -> _Assets:
    # Keyed by the language's tag (a Language compares by it), drawn in its very words.
    with speaking(language):
        return _build_assets()


def prepare() -> None:
    """Draw and cache the base now (~0.3 s), e.g. at bot start, not in the first interaction."""
    _assets()


def clear_cache() -> None:
    """Forget every cached drawing, so the next frame pays for the base again (benchmarks)."""
    for cached in (_assets_in, _legend_in, _shape_mask, builtin_font, _latin_font, _in_font):
        cached.cache_clear()


# --- Legend -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _in_font(ch: str, latin: bool) -> bool:
    # A font draws every missing character as the same box; compare against one.
    font = _latin_font(TEXT_SIZE) if latin else builtin_font(TEXT_SIZE)
    return ch.isspace() or bytes(font.getmask(ch)) != bytes(font.getmask("\ue000"))


def _has_glyph(ch: str) -> bool:
    """The built-in font or the Latin one can draw ``ch``."""
    return _in_font(ch, False) or _in_font(ch, True)


def _drawable(text: str) -> str:
    """``text`` without the characters neither font can draw (emoji, other scripts)."""
    return " ".join("".join(ch for ch in text if _has_glyph(ch)).split())


def _legend_text(side: int, name: str, max_width: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """The name as the fonts can draw it, cut with "…" to fit, and its font; the colour name
    (in the language being drawn) if nothing is left."""
    # A name is user input: only its start can ever fit, so look at no more than that.
    text = _drawable(name[:MAX_NAME])
    if not text:
        text = _drawable(_(SIDES[side].colour_name)) or SIDES[side].colour_name
    font = _text_font(text, TEXT_SIZE)
    if font.getlength(text) <= max_width:
        return text, font
    while text and font.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…", font


def _legend(names: tuple[str, ...]) -> Image.Image:
    """A strip under the board: each side's chip and name."""
    return _legend_in(names, current().tag)


@functools.lru_cache(maxsize=64)
def _legend_in(names: tuple[str, ...], language: str) -> Image.Image:
    """The legend of ``names`` in ``language`` (its fallback colour names). Cached: names
    rarely change."""
    assets = _assets()
    strip = Image.new("RGB", (BOARD_PX, LEGEND_H), FELT)
    d = ImageDraw.Draw(strip)
    slot = (BOARD_PX - LABEL - PAD) // max(1, len(names))
    swatch = 40
    for side, name in enumerate(names):
        x = LABEL + side * slot
        chip = _chip_rgba(side, locked=False, diameter=swatch)
        strip.paste(chip, (x, (LEGEND_H - swatch) // 2), chip)
        text, font = _legend_text(side, name, slot - swatch - 20)
        d.text((x + swatch + 10, LEGEND_H // 2), text, font=font, fill=FELT_TEXT, anchor="lm")
    return _to_palette(strip, assets.palette)


# --- Frames -------------------------------------------------------------------------------------


def _check_cell(cell: Cell, what: str) -> None:
    r, c = cell
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise ValueError(f"{what} {cell} is off the board")


def _sequence_direction(cells: tuple[Cell, ...]) -> tuple[Cell, Cell]:
    """(first cell, direction) of five cells in a straight line; ValueError otherwise."""
    ordered = sorted(cells)
    if len(ordered) != 5:
        raise ValueError(f"a sequence has five cells, got {len(ordered)}")
    (r0, c0), (r1, c1) = ordered[0], ordered[1]
    step = (r1 - r0, c1 - c0)
    if step not in DIRECTIONS or any(
        ordered[i] != (r0 + i * step[0], c0 + i * step[1]) for i in range(5)
    ):
        raise ValueError(f"sequence cells {cells} are not five in a line")
    return ordered[0], step


def _paste(frame: Image.Image, sprite: _Sprite, xy: tuple[int, int]) -> None:
    frame.paste(sprite.image, xy, sprite.mask)


def render_frame(picture: BoardPicture) -> Image.Image:
    """The picture as a "P" mode image on the shared palette."""
    if not 1 <= picture.n_sides <= len(SIDES):
        raise ValueError(f"n_sides must be 1..{len(SIDES)}, got {picture.n_sides}")
    assets = _assets()
    layout = load_layout()
    frame = assets.base.copy()

    # Bottom to top: highlighted card faces, the removed mark, sequence lines, chips, last move.
    # Lines go under the chips so they link them like beads without hiding any chip's mark.
    for cell in picture.highlight:
        _check_cell(cell, "highlighted cell")
        x, y = cell_origin(*cell)
        frame.paste(assets.highlighted.crop((x, y, x + CELL, y + CELL)), (x, y))
    if picture.last_removed is not None:
        _check_cell(picture.last_removed, "removed cell")
        _paste(frame, assets.removed, cell_origin(*picture.last_removed))
    for _side, cells in picture.sequences:
        for cell in cells:
            _check_cell(cell, "sequence cell")
        (r, c), step = _sequence_direction(cells)
        # The sprite covers the five cells' bounding box; an anti-diagonal starts top-right.
        x, y = cell_origin(r, c - 4 if step[1] < 0 else c)
        _paste(frame, assets.sequences[step], (x, y))
        for cell in cells:
            if layout[cell[0]][cell[1]] == "XX":
                continue  # a wild card has no index; its whole face would cover the line
            box = _index_box(*cell)
            frame.paste(assets.base.crop(box), box[:2], assets.index_ink.crop(box))
    for cell, side in picture.chips.items():
        _check_cell(cell, "chip")
        if not 0 <= side < picture.n_sides:
            raise ValueError(f"chip at {cell} has side {side}; n_sides is {picture.n_sides}")
        x, y = cell_origin(*cell)
        sprite = assets.chips[side, cell in picture.locked]
        _paste(frame, sprite, (x + CHIP_CX - CHIP_D // 2, y + CHIP_CY - CHIP_D // 2))
    if picture.last_move is not None:
        _check_cell(picture.last_move, "last move")
        _paste(frame, assets.last_move, cell_origin(*picture.last_move))

    if picture.side_names:
        if len(picture.side_names) > picture.n_sides:
            raise ValueError(f"{len(picture.side_names)} side names for {picture.n_sides} sides")
        legend = _legend(picture.side_names)
        tall = Image.new("P", (BOARD_PX, BOARD_PX + LEGEND_H))
        tall.putpalette(assets.palette.getpalette() or [])
        tall.paste(frame, (0, 0))
        tall.paste(legend, (0, BOARD_PX))
        frame = tall
    return frame


def render_board(picture: BoardPicture) -> bytes:
    """The picture as PNG bytes, about 900 px wide."""
    out = io.BytesIO()
    # Level 3: encoding is most of a frame's cost, and higher levels save few bytes for their
    # time (docs/board-render.md, "Using it from the bot").
    render_frame(picture).save(out, format="PNG", compress_level=3)
    return out.getvalue()


# --- Frames drawn ahead -------------------------------------------------------------------------

FrameKey = tuple[Hashable, ...]


def frame_key(picture: BoardPicture) -> FrameKey:
    """Everything a frame is drawn from, as one hashable value: equal keys, equal PNG bytes.
    The language being drawn is the key's first part: its words are in the picture."""
    return (
        current().tag,
        tuple(sorted(picture.chips.items())),
        picture.locked,
        picture.sequences,
        picture.last_move,
        picture.last_removed,
        picture.n_sides,
        picture.highlight,
        picture.side_names,
    )


class Frames:
    """PNG frames drawn ahead on one worker thread, the recent ones kept (``draw_ahead``, ``get``),
    keyed by what a frame is drawn from, never a table's version, so a stale table can only miss
    (docs/board-render.md, "Using it from the bot")."""

    def __init__(self, max_bytes: int = 8 << 20, max_ahead: int = 64) -> None:
        self.max_bytes = max_bytes
        self.max_ahead = max_ahead
        self._lock = threading.Lock()
        self._kept: OrderedDict[FrameKey, bytes] = OrderedDict()
        self._kept_bytes = 0
        self._ahead: dict[FrameKey, Future[bytes]] = {}
        self._owners: dict[Hashable, list[FrameKey]] = {}
        self._executor: ThreadPoolExecutor | None = None
        # How each ``get`` was served: kept, waited for (drawn ahead, still drawing), drawn.
        self.served = {"kept": 0, "waited": 0, "drawn": 0}

    @property
    def kept(self) -> tuple[int, int]:
        """(frames kept, their PNG bytes)."""
        with self._lock:
            return len(self._kept), self._kept_bytes

    def busy(self) -> int:
        """How many frames are waiting to be drawn or being drawn."""
        with self._lock:
            return len(self._ahead)

    def draw_ahead(self, owner: Hashable, pictures: Iterable[BoardPicture]) -> None:
        """Start drawing ``pictures`` on the worker, in order, unless kept or under way."""
        with self._lock:
            for key in self._owners.pop(owner, ()):
                future = self._ahead.get(key)
                if future is not None and future.cancel():  # queued, not started: dropped
                    del self._ahead[key]
            keys = []
            for picture in pictures:
                key = frame_key(picture)
                if key in self._kept or key in self._ahead:
                    continue
                if len(self._ahead) >= self.max_ahead:
                    break
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(1, thread_name_prefix="board-frames")
                # The worker thread has no context of its own: it draws in the asker's language.
                self._ahead[key] = self._executor.submit(self._draw, key, picture, current())
                keys.append(key)
            if keys:
                self._owners[owner] = keys
            if len(self._owners) > self.max_ahead:  # forget owners with nothing waiting
                self._owners = {
                    o: ks for o, ks in self._owners.items() if any(k in self._ahead for k in ks)
                }

    async def get(self, picture: BoardPicture) -> bytes:
        """The PNG of ``picture``: kept, or the worker's once it is done, or drawn now."""
        key = frame_key(picture)
        with self._lock:
            data = self._kept.get(key)
            if data is not None:
                self._kept.move_to_end(key)
                self.served["kept"] += 1
                return data
            future = self._ahead.get(key)
            if future is not None and future.cancel():  # still queued: quicker to draw here
                del self._ahead[key]
                future = None
        if future is not None:
            self.served["waited"] += 1
            return await asyncio.wrap_future(future)
        self.served["drawn"] += 1
        data = render_board(picture)
        with self._lock:
            self._keep(key, data)
        return data

    def clear(self) -> None:
        """Forget every kept frame and drop those not started (tests, benchmarks)."""
        with self._lock:
            for future in self._ahead.values():
                future.cancel()
            self._ahead = {k: f for k, f in self._ahead.items() if not f.cancelled()}
            self._owners.clear()
            self._kept.clear()
            self._kept_bytes = 0

    def _draw(self, key: FrameKey, picture: BoardPicture, language: Language) -> bytes:
        try:
            with speaking(language):
                data = render_board(picture)
            with self._lock:
                self._keep(key, data)
            return data
        finally:
            with self._lock:
                self._ahead.pop(key, None)

    def _keep(self, key: FrameKey, data: bytes) -> None:
        """Keep ``data`` (the lock held), dropping the least recently used past the budget."""
        old = self._kept.pop(key, None)
        if old is not None:
            self._kept_bytes -= len(old)
        if len(data) > self.max_bytes:
            return
        self._kept[key] = data
        self._kept_bytes += len(data)
        while self._kept_bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._kept_bytes -= len(dropped)

"""The font of the words drawn in the bot's pictures (the rating chart's axes).

Noto Sans cut down to the Latin letters the bot's languages use (``bot/data/fonts``, SIL
Open Font License; the board picture draws with the same file), so no system font is
needed: Pillow's built-in scalable font has no accented letters (a French "classée" drew
a box for its "é").
"""

from __future__ import annotations

import functools
import io
from importlib import resources

from PIL import ImageFont

FONT = "fonts/NotoSans-Latin.ttf"  # in the package bot.data


@functools.cache
def _data() -> bytes:
    return resources.files("bot.data").joinpath(FONT).read_bytes()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels; a new object each call, as Pillow's own fonts are, so
    pictures drawn in threads at once never share one FreeType face."""
    return ImageFont.truetype(io.BytesIO(_data()), size)

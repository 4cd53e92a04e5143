"""The font of the words drawn in the bot's pictures (the rating chart's axes).

Source Sans Pro (SIL Open Font License), from the ``font-source-sans-pro`` package, so no
system font is needed: Pillow's built-in scalable font has no accented letters (a French
"classée" drew a box for its "é"), and the pictures speak every language of the bot.
"""

from __future__ import annotations

import functools
import io
from importlib import resources

from PIL import ImageFont

PACKAGE = "font_source_sans_pro"
REGULAR = "SourceSansPro-Regular.ttf"
SEMIBOLD = "SourceSansPro-Semibold.ttf"


@functools.cache
def _data(name: str) -> bytes:
    return (resources.files(PACKAGE) / "files" / name).read_bytes()


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels; a new object each call, as Pillow's own fonts are, so
    pictures drawn in threads at once never share one FreeType face."""
    return ImageFont.truetype(io.BytesIO(_data(SEMIBOLD if bold else REGULAR)), size)

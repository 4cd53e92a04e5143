"""The rating chart is a small valid PNG for any number of points."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.chart import HEIGHT, WIDTH, rating_chart


@pytest.mark.parametrize(
    "points",
    [
        [],
        [(1, 1000.0)],
        [(1, 1000.0), (2, 1000.0)],
        [(i, 1000 + 37.5 * i - (i % 3) * 60) for i in range(41, 91)],
        [(1, 0.0), (2, 3000.0)],
    ],
)
def test_chart_is_a_small_png(points: list[tuple[int, float]]) -> None:
    data = rating_chart(points)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert len(data) < 30_000

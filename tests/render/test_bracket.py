"""The tournament pictures (issue 25.5): a bracket and a standings table, PNGs sized for a
phone: a three-round bracket is under 700 px wide, so its names read at a phone's width."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.bracket import BracketMatch, Side, bracket_png, table_png


def size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def test_a_bracket_of_eight_is_three_rounds_narrow_enough_for_a_phone() -> None:
    first = [
        BracketMatch(Side("Ana", 1, won=True), Side(None, bye=True)),
        BracketMatch(Side("Dmitri Alexandrovich", 4, won=True, score="2"), Side("Zoë", 5)),
        BracketMatch(Side("Cy", 3, won=True), Side("Fay", 6)),
        BracketMatch(Side("Bo", 2, won=True), Side(None, bye=True)),
    ]
    semis = [BracketMatch(Side("Ana", 1), Side("Dmitri", 4)), BracketMatch(Side(None), Side(None))]
    final = [BracketMatch(Side(None), Side(None))]
    png = bracket_png("Tournoi n° 1", ["Quarts", "Demi-finales", "Finale"], [first, semis, final])
    width, height = size(png)
    assert width < 700 and height < 600
    champion = bracket_png("T", ["Finale"], [final], champion="Vainqueur : Zoë")
    assert size(champion)[1] > size(bracket_png("T", ["Finale"], [final]))[1]


def test_a_standings_table_grows_with_its_rows() -> None:
    header = ["", "Player", "Pts", "W-D-L", "Buchholz"]
    rows = [[str(i), f"P{i}", "1", "1-0-0", "2.5"] for i in range(1, 9)]
    eight = size(table_png("Standings", header, rows, leader=True))
    four = size(table_png("Standings", header, rows[:4]))
    assert eight[0] == four[0] and eight[1] > four[1] and eight[0] < 700

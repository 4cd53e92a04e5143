"""Tournaments as pictures (issue 25): a bracket (single elimination) or a standings
table, drawn from the tournament's values in the reader's language."""

from __future__ import annotations

from bot.games.registry import Games
from bot.i18n.speaking import _
from bot.render.bracket import BracketMatch, Side, bracket_png, table_png
from bot.tables.tournament_rounds import table_places
from bot.tables.tournaments import Match, Picture
from bot.ui.tournament_words import points_value, round_name

PICTURE = "tournament.png"
BRACKET_COLUMNS = 3


def picture_png(picture: Picture, games: Games) -> bytes | None:
    """The tournament as a picture once it has started: its bracket (single elimination)
    or its standings table; None in sign-up or once cancelled."""
    t = picture.tournament
    if t.status in ("signup", "cancelled") or not picture.entries:
        return None
    if t.format == "elimination":
        title = _("Tournament #%(id)s · %(game)s", id=t.id, game=games.label(t.game_key))
        return _bracket_png(picture, title)
    head, header, rows = standings_table(picture, games)
    return table_png(head, header, rows, leader=t.status == "finished")


def standings_table(picture: Picture, games: Games) -> tuple[str, list[str], list[list[str]]]:
    """The standings picture's title, header and rows (a Swiss or a round robin). A column
    of byes when anyone had one: a bye is a point the W-D-L does not show."""
    t = picture.tournament
    title = _("Tournament #%(id)s · %(game)s", id=t.id, game=games.label(t.game_key))
    if t.status == "finished":
        head = _("%(title)s · final standings", title=title)
    else:
        head = _(
            "%(title)s · round %(round)s of %(rounds)s", title=title, round=t.round,
            rounds=t.rounds,
        )  # fmt: skip
    multi = t.seats > 2
    byes = not multi and any(s.byes for s in picture.standings)
    header = ["", _("Player"), _("Pts"), _("Places") if multi else _("W-D-L")]
    if byes:
        header.append(_("Byes"))
    if t.format == "swiss":
        header.append(_("Buchholz"))
    rows = []
    for s in picture.standings:
        if multi:
            places = [
                next(p for u, p in table_places(m) if u == s.id)
                for m in picture.matches
                if m.status == "done" and s.id in m.players
            ]
            record = " ".join(map(str, places)) or "—"
        else:
            record = f"{s.wins}-{s.draws}-{s.losses}"
        row = [str(s.place), name_plain(picture, s.id), points_value(s.points), record]
        if byes:
            row.append(str(s.byes))
        if t.format == "swiss":
            row.append(points_value(s.buchholz))
        rows.append(row)
    return head, header, rows


def name_plain(picture: Picture, user_id: int) -> str:
    entry = next((e for e in picture.entries if e.user_id == user_id), None)
    return entry.name if entry else _("Player")


def _bracket_png(picture: Picture, title: str) -> bytes:
    t = picture.tournament
    seed = {e.user_id: e.seed for e in picture.entries}
    size = 1 << max(len(picture.entries) - 1, 1).bit_length()
    rounds = max(t.rounds, 1)

    def side(user_id: int | None, m: Match, is_a: bool) -> Side:
        if user_id is None:
            return Side(None, bye=True)
        through = picture.through(m)  # with no result, the better seed
        score = ""
        if m.b_id is not None and (t.best_of > 1 or t.final_best_of > 1) and m.games:
            score = str(m.a_wins if is_a else m.b_wins)
        return Side(
            name_plain(picture, user_id), seed.get(user_id),
            won=m.status == "done" and through == user_id, score=score,
        )  # fmt: skip

    columns: list[list[BracketMatch]] = []
    for round_number in range(1, rounds + 1):
        played = sorted(
            (m for m in picture.matches if m.round == round_number), key=lambda m: m.slot
        )
        count = max(size >> round_number, 1)
        column = [BracketMatch(side(m.a_id, m, True), side(m.b_id, m, False)) for m in played]
        column += [BracketMatch(Side(None), Side(None))] * (count - len(column))
        columns.append(column)
    names = [round_name(n, rounds) for n in range(1, rounds + 1)]
    # A phone shows the picture at its screen's width: at most three rounds across, from
    # the round being played (the last three once they are reached).
    start = max(0, min(t.round - 1, rounds - BRACKET_COLUMNS))
    columns, names = (
        columns[start : start + BRACKET_COLUMNS],
        names[start : start + BRACKET_COLUMNS],
    )
    champion = None
    if t.status == "finished" and picture.places:
        champion = _("Champion: %(name)s", name=name_plain(picture, picture.places[0]))
    return bracket_png(title, names, columns, bye=_("bye"), champion=champion)

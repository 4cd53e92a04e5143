"""The words and pictures of the board game's coach (``bot.rules.board.coach``): Suggest in the
private hand and a finished game's Review, drawn from one seat's view and sent to that member only.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image, ImageDraw

from bot.errors import add_texts
from bot.games.base import place_of
from bot.games.board.picture import CELL, cell_origin, render_board
from bot.games.board.render import hand_text, picture, side_names
from bot.i18n.speaking import N_, _, number, pgettext, plural
from bot.records import Button
from bot.render.common import COLOUR
from bot.rules import board as b
from bot.rules.board.coach import Mistake, Reason, Suggestion, review_job, suggest_job
from bot.tables.coaching import ask_suggestion
from bot.tables.model import Seat, Table, TableSnapshot
from bot.tables.names import md_name

if TYPE_CHECKING:
    from bot.games.base import ClickContext
    from bot.tables.service import TableService

Cell = tuple[int, int]

SUGGEST_LABEL = N_("Suggest")
SUGGEST_EMOJI = "💡"
REVIEW_EMOJI = "🔍"

# The refusals of ``bot.tables.coaching``, in the reader's language when they are shown.
add_texts(
    {
        "coach.off": lambda: _("Suggestions are turned off on this server."),
        "coach.staked": lambda: _("Suggestions are for games without a stake."),
        "coach.turn": lambda: _("A suggestion is for your own turn: wait for it."),
    }
)


def suggest_button() -> Button:
    """Suggest, in the private hand on the member's turn (games without a stake)."""
    return Button("suggest", _(SUGGEST_LABEL), "secondary", row=4, emoji=SUGGEST_EMOJI)


def line_text(cells: Sequence[Cell]) -> str:
    """Where five spaces lie: "row 6 (C6–G6)", "column C (C2–C6)", "the diagonal C2–G6"."""
    first, last = b.coord_label(*cells[0]), b.coord_label(*cells[-1])
    if all(r == cells[0][0] for r, _c in cells):
        return _("row %(row)s (%(first)s–%(last)s)", row=cells[0][0] + 1, first=first, last=last)
    if all(c == cells[0][1] for _r, c in cells):
        return _("column %(column)s (%(first)s–%(last)s)", column=first[0], first=first, last=last)
    return _("the diagonal %(first)s–%(last)s", first=first, last=last)


def reason_text(reason: Reason, names: Sequence[str]) -> str:
    """One reason in a player's words; ``names``: who plays each side ("Bo", "Bo & Cy")."""
    who = names[reason.side] if reason.side is not None and reason.side < len(names) else ""
    cells = reason.cells
    kind = reason.kind
    space = b.coord_label(*cells[0]) if cells else ""
    span = f"{space}–{b.coord_label(*cells[-1])}" if cells else ""
    line = line_text(cells) if len(cells) == 5 else ""
    if kind == "wins":
        return _("wins the game: a sequence at %(span)s", span=span)
    if kind == "completes":
        return _("completes a sequence at %(span)s", span=span)
    if kind == "blocks":
        return _("blocks %(who)s's four on %(line)s", who=who, line=line)
    if kind == "breaks":
        return _("breaks %(who)s's four on %(line)s", who=who, line=line)
    if kind == "four":
        return _("makes a four of yours on %(line)s: one more is a sequence", line=line)
    if kind == "builds":
        return _("gives you %(count)s on %(line)s", count=number(reason.count), line=line)
    if kind == "removes":
        return _("takes %(who)s's chip off %(space)s", who=who, space=space)
    if kind == "keeps_jack":
        return _("keeps your two-eyed jack for later")
    if kind == "wild":
        return _("uses your two-eyed jack: %(space)s is worth it", space=space)
    if kind == "trade":
        return _("trades your dead %(card)s for a new card", card=b.card_label(reason.card))
    if kind == "pass":
        return _("no card of yours can be played: pass")
    if kind == "only":
        return _("your only move")
    return _("starts a new line at %(space)s", space=space)


def move_text(action: b.Action) -> str:
    """A move as a player names it: "7♥ on D4", "J♠ off E5", "trade 3♣", "pass"."""
    if isinstance(action, b.PlayCard):
        return _(
            "%(card)s on %(space)s",
            card=b.card_label(action.card),
            space=b.coord_label(action.row, action.col),
        )
    if isinstance(action, b.RemoveChip):
        return _(
            "%(card)s off %(space)s",
            card=b.card_label(action.card),
            space=b.coord_label(action.row, action.col),
        )
    if isinstance(action, b.TradeDeadCard):
        return _("trade %(card)s", card=b.card_label(action.card))
    return _("pass")


def reasons_text(reasons: Sequence[Reason], names: Sequence[str]) -> str:
    """A move's reasons as one list, with the separator the reader's language writes."""
    # TRANSLATORS: between two reasons for a move ("blocks Bo's four; keeps your jack");
    # keep the space after it (French: a no-break space before ";").
    return pgettext("between reasons", "; ").join(reason_text(r, names) for r in reasons)


def suggestion_lines(suggestions: Sequence[Suggestion], names: Sequence[str]) -> list[str]:
    lines = []
    for i, s in enumerate(suggestions, 1):
        why = reasons_text(s.reasons, names)
        lines.append(
            _(
                "**%(index)s. %(move)s**: %(why)s (about %(chance)s%% to win)",
                index=i,
                move=move_text(s.action),
                why=why,
                chance=number(round(s.value * 100)),
            )
        )
    return lines


def suggestion_text(suggestions: Sequence[Suggestion], names: Sequence[str]) -> str:
    head = _("**Suggested moves** (from your cards and the board only):")
    tail = _("This game is not rated now: you asked for a suggestion.")
    return "\n".join([head, *suggestion_lines(suggestions, names), tail])


#: The marks' colours (Okabe-Ito, told apart by every colour vision): the move played,
#: the better move (and a suggestion's numbers).
PLAYED_COLOUR = (213, 94, 0)
BETTER_COLOUR = (0, 114, 178)
#: A mark's badge, in px of the ~900 px board: a phone shows the board at about 400 px, so
#: the badge is ~23 px there and its sign ~14 px, as tall as the card's own rank.
MARK = CELL * 3 // 5
FRAME = 5  # the marked space's border, in the mark's colour


def mark_box(row: int, col: int) -> tuple[int, int, int, int]:
    """Where a space's mark is drawn: its bottom left, over the card's faint pip and clear
    of its rank (a chip there is half covered; the frame still shows the space)."""
    x, y = cell_origin(row, col)
    return (x + 3, y + CELL - MARK - 3, x + 3 + MARK, y + CELL - 3)


def _draw_sign(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str) -> None:
    """✗, ✓ or a number, white in the badge. The signs are drawn as strokes: the picture's
    font (Latin letters only) has no ✗ or ✓."""
    left, top, right, bottom = box
    inset = MARK // 4
    lft, t, r, btm = left + inset, top + inset, right - inset, bottom - inset
    width = max(4, MARK // 9)
    white = (255, 255, 255)
    if label == "✗":
        draw.line([(lft, t), (r, btm)], fill=white, width=width)
        draw.line([(lft, btm), (r, t)], fill=white, width=width)
    elif label == "✓":
        mid = (lft + (r - lft) * 2 // 5, btm)
        draw.line([(lft, t + (btm - t) // 2), mid, (r, t)], fill=white, width=width, joint="curve")
    else:
        centre = ((left + right) / 2, (top + bottom) / 2)
        draw.text(centre, label, fill=white, anchor="mm", font_size=MARK * 3 // 4)


def numbered_board(
    view: b.SeatView, names: Sequence[str], marks: Sequence[tuple[Cell, str]]
) -> bytes:
    """The board as ``view`` shows it, each of ``marks`` (a space and its label, "1", "2",
    "✗" or "✓") in a badge on its space, the space highlighted and framed in the badge's
    colour: orange for the move played (✗), blue for a better or suggested move."""
    png = render_board(picture(view, names, [cell for cell, _label in marks]))
    img = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(img)
    for (row, col), label in marks:
        colour = PLAYED_COLOUR if label == "✗" else BETTER_COLOUR
        x, y = cell_origin(row, col)
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=colour, width=FRAME)
        box = mark_box(row, col)
        draw.ellipse(box, fill=colour, outline=(255, 255, 255), width=2)
        _draw_sign(draw, box, label)
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def suggestion_picture(
    view: b.SeatView, names: Sequence[str], suggestions: Sequence[Suggestion]
) -> bytes:
    marks = [
        ((s.action.row, s.action.col), str(i))
        for i, s in enumerate(suggestions, 1)
        if isinstance(s.action, b.PlayCard | b.RemoveChip)
    ]
    return numbered_board(view, names, marks)


def review_intro(game_id: int, mistakes: Sequence[Mistake]) -> str:
    if not mistakes:
        return _(
            "**Your review of game #%(game)s**: no move of yours lost much against the best "
            "one. Well played.",
            game=game_id,
        )
    return _(
        "**Your review of game #%(game)s**: the moves where your chances dropped most, "
        "each with the board and your cards at that moment. On each board, the orange ✗ "
        "marks the space you played and the blue ✓ the better move. Only you see this.",
        game=game_id,
    )


def played_text(number_: str, action: b.Action) -> str:
    """The reviewed move, one whole sentence for each kind of move (a removal is not a
    card "played on" a space: issue 31, item 9)."""
    card = b.card_label(getattr(action, "card", ""))
    if isinstance(action, b.RemoveChip):
        return _(
            "**Your move %(number)s**: you took the chip off %(space)s with %(card)s (✗).",
            number=number_,
            card=card,
            space=b.coord_label(action.row, action.col),
        )
    assert isinstance(action, b.PlayCard)  # a review never names a trade or a pass
    return _(
        "**Your move %(number)s**: you played %(card)s on %(space)s (✗).",
        number=number_,
        card=card,
        space=b.coord_label(action.row, action.col),
    )


def better_text(action: b.Action, why: str) -> str:
    """The better move and its reasons, one whole sentence for each kind of move."""
    if isinstance(action, b.PlayCard):
        return _(
            "Better was **%(card)s on %(space)s** (✓): %(why)s.",
            card=b.card_label(action.card),
            space=b.coord_label(action.row, action.col),
            why=why,
        )
    if isinstance(action, b.RemoveChip):
        return _(
            "Better was to take the chip off **%(space)s** with **%(card)s** (✓): %(why)s.",
            card=b.card_label(action.card),
            space=b.coord_label(action.row, action.col),
            why=why,
        )
    if isinstance(action, b.TradeDeadCard):
        return _(
            "Better was to trade **%(card)s**: %(why)s.", card=b.card_label(action.card), why=why
        )
    return _("Better was to pass: %(why)s.", why=why)


def gain_text(drop: float) -> str:
    """What the better move was worth: percentage points of the chance to win, not points
    of the game (issue 31, item 17)."""
    points = round(drop * 100)
    return plural(
        "With it your chance to win would have been about %(count)s percentage point higher.",
        "With it your chance to win would have been about %(count)s percentage points higher.",
        points,
    )


def mistake_text(mistake: Mistake, names: Sequence[str]) -> str:
    why = reasons_text(mistake.reasons, names)
    played = played_text(number(mistake.index + 1), mistake.played)
    better = better_text(mistake.better, why)
    cards = _("Your cards then: %(cards)s", cards=hand_text(mistake.view))
    return f"{played} {better} {gain_text(mistake.drop)}\n{cards}"


def mistake_picture(mistake: Mistake, names: Sequence[str]) -> bytes:
    marks: list[tuple[Cell, str]] = []
    if isinstance(mistake.played, b.PlayCard | b.RemoveChip):
        marks.append(((mistake.played.row, mistake.played.col), "✗"))
    if isinstance(mistake.better, b.PlayCard | b.RemoveChip):
        marks.append(((mistake.better.row, mistake.better.col), "✓"))
    return numbered_board(mistake.view, names, marks)


def suggestion_payload(
    table: TableSnapshot, seat: int, suggestions: Sequence[Suggestion]
) -> dict[str, Any]:
    """The private answer to Suggest: the moves, their reasons, the board with them
    numbered (drawn from ``seat``'s view only)."""
    state: b.BoardState = table.rules
    view = b.view_for(state, seat)
    names = side_names(table, state)
    embed = discord.Embed(
        title=_("%(emoji)s Suggested moves", emoji=SUGGEST_EMOJI),
        description=suggestion_text(suggestions, [md_name(n) for n in names]),
        colour=COLOUR,
    )
    name = "suggested.png"
    embed.set_image(url=f"attachment://{name}")
    png = suggestion_picture(view, names, suggestions)
    return {"embed": embed, "file": discord.File(io.BytesIO(png), filename=name)}


async def answer_suggest(
    ctx: ClickContext, interaction: discord.Interaction[Any], table: Table, version: int, seat: int
) -> None:
    """Suggest pressed in the private hand: noted on the table (the game is not rated
    now), the suggestions worked out off the event loop, answered privately."""
    if ctx.tables.busy(table.id):  # answer before waiting for the change under way
        await interaction.response.defer(ephemeral=True, thinking=True)
    marked = await ask_suggestion(
        ctx.tables.kernel, table.id, interaction.user.id, version, place_of(interaction)
    )
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    snapshot = marked.snapshot()
    view = b.view_for(marked.rules, seat)
    seed = ctx.tables.rng.getrandbits(64)  # the service's: the OS's, seeded in tests
    found = await ctx.tables.bots.run(partial(suggest_job, view, seed))
    await interaction.followup.send(**suggestion_payload(snapshot, seat, found), ephemeral=True)


def seat_moves(moments: Sequence[tuple[Any, Any]], seat: int) -> list[tuple[b.SeatView, b.Action]]:
    """``seat``'s moves in a replayed game: its view before each (its own hand and the public
    facts, never another hand) and the move it made."""
    moves: list[tuple[b.SeatView, b.Action]] = []
    for (_step, before), (_later, after) in pairwise(moments):
        record = after.last_move
        if (
            before.outcome is None
            and before.turn == seat
            and record is not None
            and record.seat == seat
            and after is not before
        ):
            moves.append((b.view_for(before, seat), record.action))
    return moves


async def review_payload(
    tables: TableService,
    game_id: int,
    moments: Sequence[tuple[Any, Any]],
    seats: Sequence[Seat],
    seat: int,
) -> dict[str, Any]:
    """The private review of ``seat``'s moves: an embed a reviewed move, each with the board
    and the member's own cards at that moment, worked out off the event loop."""
    sides = moments[0][1].config.sides
    names = [
        " & ".join(s.name for i, s in enumerate(seats) if i % sides == side)
        for side in range(sides)
    ]
    moves = seat_moves(moments, seat)
    mistakes = await tables.bots.run(partial(review_job, moves)) if moves else []
    md = [md_name(n) for n in names]
    head = discord.Embed(
        title=_("%(emoji)s Review", emoji=REVIEW_EMOJI),
        description=review_intro(game_id, mistakes),
        colour=COLOUR,
    )
    embeds = [head]
    files = []
    for i, mistake in enumerate(mistakes, 1):
        name = f"review-{i}.png"
        embed = discord.Embed(description=mistake_text(mistake, md), colour=COLOUR)
        embed.set_image(url=f"attachment://{name}")
        embeds.append(embed)
        png = mistake_picture(mistake, names)
        files.append(discord.File(io.BytesIO(png), filename=name))
    return {"embeds": embeds, "files": files}

"""The words and pictures of the board game's coach (``bot.rules.board.coach``): Suggest in
the private hand, and a finished game's Review.

Everything here is drawn from one seat's view (its own hand and what is public) and sent
to that member only, privately.
"""

from __future__ import annotations

import io
import random
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
from bot.records import Button
from bot.render.common import COLOUR
from bot.rules import board as b
from bot.rules.board.coach import Mistake, Reason, Suggestion, review_job, suggest_job
from bot.tables.coaching import ask_suggestion
from bot.tables.model import Table, TableSnapshot
from bot.tables.names import md_name

if TYPE_CHECKING:
    from bot.games.base import ClickContext
    from bot.tables.service import TableService

Cell = tuple[int, int]

SUGGEST_LABEL = "Suggest"
SUGGEST_EMOJI = "💡"
REVIEW_LABEL = "Review"
REVIEW_EMOJI = "🔍"

# The refusals of ``bot.tables.coaching``.
add_texts(
    {
        "coach.off": "Suggestions are turned off on this server.",
        "coach.staked": "Suggestions are for games without a stake.",
        "coach.turn": "A suggestion is for your own turn: wait for it.",
    }
)
NOT_A_PLAYER = "You didn't play in this game, so there is nothing of yours to review."
NOT_BOARD = "Only board games have a review."


def suggest_button() -> Button:
    """Suggest, in the private hand on the member's turn (games without a stake)."""
    return Button("suggest", SUGGEST_LABEL, "secondary", row=4, emoji=SUGGEST_EMOJI)


def line_text(cells: Sequence[Cell]) -> str:
    """Where five spaces lie: "row 6 (C6–G6)", "column C (C2–C6)", "the diagonal C2–G6"."""
    first, last = b.coord_label(*cells[0]), b.coord_label(*cells[-1])
    if all(r == cells[0][0] for r, _ in cells):
        return f"row {cells[0][0] + 1} ({first}–{last})"
    if all(c == cells[0][1] for _, c in cells):
        return f"column {first[0]} ({first}–{last})"
    return f"the diagonal {first}–{last}"


def reason_text(reason: Reason, names: Sequence[str]) -> str:
    """One reason in a player's words; ``names``: who plays each side ("Bo", "Bo & Cy")."""
    who = names[reason.side] if reason.side is not None and reason.side < len(names) else ""
    cells = reason.cells
    kind = reason.kind
    if kind == "wins":
        return (
            f"wins the game: a sequence at {b.coord_label(*cells[0])}–{b.coord_label(*cells[-1])}"
        )
    if kind == "completes":
        return f"completes a sequence at {b.coord_label(*cells[0])}–{b.coord_label(*cells[-1])}"
    if kind == "blocks":
        return f"blocks {who}'s four on {line_text(cells)}"
    if kind == "breaks":
        return f"breaks {who}'s four on {line_text(cells)}"
    if kind == "four":
        return f"makes four of yours on {line_text(cells)}: one more is a sequence"
    if kind == "builds":
        return f"gives you {reason.count} on {line_text(cells)}"
    if kind == "removes":
        return f"takes {who}'s chip off {b.coord_label(*cells[0])}"
    if kind == "keeps_jack":
        return "keeps your two-eyed jack for later"
    if kind == "wild":
        return f"uses your two-eyed jack: {b.coord_label(*cells[0])} is worth it"
    if kind == "trade":
        return f"trades your dead {b.card_label(reason.card)} for a new card"
    if kind == "pass":
        return "no card of yours can be played: pass"
    if kind == "only":
        return "your only move"
    return f"starts a new line at {b.coord_label(*cells[0])}"


def move_text(action: b.Action) -> str:
    """A move as a player names it: "7♥ on D4", "J♠ off E5", "trade 3♣", "pass"."""
    if isinstance(action, b.PlayCard):
        return f"{b.card_label(action.card)} on {b.coord_label(action.row, action.col)}"
    if isinstance(action, b.RemoveChip):
        return f"{b.card_label(action.card)} off {b.coord_label(action.row, action.col)}"
    if isinstance(action, b.TradeDeadCard):
        return f"trade {b.card_label(action.card)}"
    return "pass"


def suggestion_lines(suggestions: Sequence[Suggestion], names: Sequence[str]) -> list[str]:
    lines = []
    for i, s in enumerate(suggestions, 1):
        why = "; ".join(reason_text(r, names) for r in s.reasons)
        chance = round(s.value * 100)
        lines.append(f"**{i}. {move_text(s.action)}**: {why} (about {chance}% to win)")
    return lines


def suggestion_text(suggestions: Sequence[Suggestion], names: Sequence[str]) -> str:
    head = "**Suggested moves** (from your cards and the board only):"
    tail = "This game won't be rated, as it said when you asked."
    return "\n".join([head, *suggestion_lines(suggestions, names), tail])


def numbered_board(
    view: b.SeatView, names: Sequence[str], marks: Sequence[tuple[Cell, str]]
) -> bytes:
    """The board as ``view`` shows it, each of ``marks`` (a space and its label, "1", "2",
    or "✗") written in a badge on its space, the spaces highlighted."""
    png = render_board(picture(view, names, [cell for cell, _ in marks]))
    img = Image.open(io.BytesIO(png)).convert("RGB")
    draw = ImageDraw.Draw(img)
    size = CELL * 2 // 5
    for (row, col), label in marks:
        x, y = cell_origin(row, col)
        # Bottom left: over the card's faint pip, clear of its rank and of a chip.
        box = (x + 4, y + CELL - size - 8, x + 4 + size, y + CELL - 8)
        bad = label == "✗"
        draw.ellipse(box, fill=(213, 94, 0) if bad else (0, 114, 178), outline=(255, 255, 255))
        draw.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            "x" if bad else ("+" if label == "✓" else label),
            fill=(255, 255, 255),
            anchor="mm",
            font_size=size - 8,
        )
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
        return (
            f"**Your review of game #{game_id}**: no move of yours lost much against the best "
            "one. Well played."
        )
    return (
        f"**Your review of game #{game_id}**: the moves where your chances dropped most, "
        "each with the board and your cards at that moment. Only you see this."
    )


def mistake_text(mistake: Mistake, names: Sequence[str]) -> str:
    why = "; ".join(reason_text(r, names) for r in mistake.reasons)
    drop = round(mistake.drop * 100)
    return (
        f"**Your move {mistake.index + 1}**: you played {move_text(mistake.played)} (x); "
        f"better was **{move_text(mistake.better)}** (+): {why} "
        f"(about {drop} points more to win).\n"
        f"Your cards then: {hand_text(mistake.view)}"
    )


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
        title=f"{SUGGEST_EMOJI} Suggested moves",
        description=suggestion_text(suggestions, [md_name(n) for n in names]),
        colour=COLOUR,
    )
    name = "suggested.png"
    embed.set_image(url=f"attachment://{name}")
    png = suggestion_picture(view, names, suggestions)
    return {"embed": embed, "file": discord.File(io.BytesIO(png), filename=name)}


async def answer_suggest(
    ctx: ClickContext,
    interaction: discord.Interaction[Any],
    table: Table,
    version: int,
    seat: int,
) -> None:
    """Suggest pressed in the private hand: noted on the table (the game is not rated
    now), the suggestions worked out off the event loop, answered privately."""
    marked = await ask_suggestion(
        ctx.tables, table.id, interaction.user.id, version, place_of(interaction)
    )
    await interaction.response.defer(ephemeral=True, thinking=True)
    snapshot = marked.snapshot()
    view = b.view_for(marked.rules, seat)
    seed = random.SystemRandom().getrandbits(64) if ctx.tables.bots.workers else version
    found = await ctx.tables.bots.run(partial(suggest_job, view, seed))
    await interaction.followup.send(**suggestion_payload(snapshot, seat, found), ephemeral=True)


def seat_moves(moments: Sequence[tuple[Any, Any]], seat: int) -> list[tuple[b.SeatView, b.Action]]:
    """``seat``'s moves in a replayed game: its view before each (its own hand and the public
    facts, never another hand) and the move it made."""
    moves: list[tuple[b.SeatView, b.Action]] = []
    for (_, before), (_, after) in pairwise(moments):
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
    names: list[str],
    seat: int,
) -> dict[str, Any]:
    """The private review of ``seat``'s moves: an embed a reviewed move, each with the board
    and the member's own cards at that moment, worked out off the event loop."""
    moves = seat_moves(moments, seat)
    mistakes = await tables.bots.run(partial(review_job, moves)) if moves else []
    md = [md_name(n) for n in names]
    head = discord.Embed(
        title=f"{REVIEW_EMOJI} Review", description=review_intro(game_id, mistakes), colour=COLOUR
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

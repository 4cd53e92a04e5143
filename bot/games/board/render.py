"""The board game in Discord terms: the public board embed and the private hand embed.

Pure presentation: a table (or a seat's view) in, embeds and PNG bytes out.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.games.board.coach_texts import unrated_note
from bot.games.board.picture import SIDES, BoardPicture, render_board, side_style
from bot.games.board.texts import TITLE
from bot.games.words import event_lines
from bot.render.common import COLOUR_DONE, relative_time
from bot.rules import board as b
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES

Cell = tuple[int, int]


def side_label(side: int) -> str:
    colour, symbol = side_style(side)
    return f"{colour} {symbol}"


def draw_reason(outcome: b.BoardOutcome) -> str:
    """Why a drawn game ended (RULINGS §3 "Blocked game"), as a sentence."""
    if outcome.reason == "stalled":
        return "The cards went round twice with no chip placed or removed."
    return "No card left in the game can be played."


def side_names(table: TableSnapshot, state: b.BoardState) -> list[str]:
    """Per side, who plays it: "Ana" or "Ana & Cy"."""
    sides = state.config.sides
    return [
        " & ".join(table.seats[s].name for s in range(len(table.seats)) if s % sides == side)
        for side in range(sides)
    ]


def picture(
    state: b.BoardState | b.SeatView, names: Iterable[str] = (), highlight: Iterable[Cell] = ()
) -> BoardPicture:
    chips = {divmod(i, 10): side for i, side in enumerate(state.chips) if side != b.EMPTY}
    locked = frozenset(divmod(i, 10) for i in range(100) if state.locked >> i & 1)
    last_move = last_removed = None
    move = state.last_move
    if move is not None and isinstance(move.action, b.PlayCard):
        last_move = (move.action.row, move.action.col)
    elif move is not None and isinstance(move.action, b.RemoveChip):
        last_removed = (move.action.row, move.action.col)
    return BoardPicture(
        chips=chips,
        locked=locked,
        sequences=tuple((seq.side, tuple(seq.cells)) for seq in state.sequences),
        last_move=last_move,
        last_removed=last_removed,
        n_sides=state.config.sides,
        highlight=frozenset(highlight),
        side_names=tuple(names),
    )


def board_file(
    state: b.BoardState | b.SeatView,
    names: Iterable[str] = (),
    highlight: Iterable[Cell] = (),
    name: str = "board.png",
) -> discord.File:
    import io

    return discord.File(io.BytesIO(render_board(picture(state, names, highlight))), filename=name)


def board_embed(table: TableSnapshot) -> tuple[discord.Embed, discord.File]:
    state: b.BoardState = table.rules
    plain_names = side_names(table, state)  # the picture draws them as they are
    names = [md_name(n) for n in plain_names]
    sides = state.config.sides
    lines = []
    if state.outcome is None:
        seat = table.seats[state.turn]
        lines.append(f"**{md_name(seat.name)}** ({side_label(state.turn % sides)}) to play.")
        if table.turn_deadline is not None and not seat.is_bot:
            lines.append(f"Turn timer: ends {relative_time(table.turn_deadline)}")
        lines.append("Press **My hand** to see your cards and play.")
        # The accent of the side to move (the table message's container, or the embed's bar).
        colour = discord.Colour.from_rgb(*SIDES[state.turn % sides].colour)
        title = f"{TITLE} · table #{table.id}"
    else:
        if state.outcome.side is None:
            title = f"🤝 {TITLE} · the game is drawn"
            lines.append(f"{draw_reason(state.outcome)} Nobody wins.")
        else:
            title = f"🏆 {names[state.outcome.side]} won {TITLE}!"
        colour = COLOUR_DONE
        if table.coached:  # the coach's rule (bot.games.board.coach)
            lines.append(unrated_note())
    counts = state.sequence_counts()
    need = state.config.sequences_to_win
    score = " · ".join(f"{side_label(s)} {names[s]}: **{counts[s]}**/{need}" for s in range(sides))
    lines.append(f"Sequences: {score}")
    lines.append(f"Draw pile: {len(state.draw_pile)} cards · discards: {len(state.discards)}")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-4:]))
        embed.add_field(name="Recent", value=recent[:1024], inline=False)
    if len(table.seats) >= 4:
        teams = []
        for side in range(sides):
            teams.append(f"Team {TEAM_NAMES[side]} {side_label(side)}: {names[side]}")
        embed.add_field(name="Teams", value="\n".join(teams)[:1024], inline=False)
    filename = f"board-{table.id}-{table.version}.png"
    embed.set_image(url=f"attachment://{filename}")
    embed.set_footer(
        text="Columns A–J, rows 1–10 · ★ corners are wild for every side · "
        "yellow frame: the last move"
    )
    return embed, board_file(state, plain_names, name=filename)


def hand_text(view: b.SeatView, drawn: str | None = None) -> str:
    parts = []
    for card in sorted(view.hand, key=card_order):
        label = b.card_label(card)
        if card in b.TWO_EYED_JACKS:
            label += " (wild)"
        elif card in b.ONE_EYED_JACKS:
            label += " (remove)"
        elif b.is_dead(card, view.chips):
            label += " (dead)"
        if card == drawn:
            label += " 🆕"
        parts.append(label)
    return " · ".join(parts) or "no cards"


def card_order(card: str) -> tuple[int, int]:
    ranks = "A23456789TJQK"
    return ("SHDC".index(card[1]), ranks.index(card[0]))

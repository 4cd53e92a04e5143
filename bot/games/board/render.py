"""The board game in Discord terms, pure presentation: a table or a seat's view in, the board and
hand embeds and PNG bytes out."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.games.board.coach_texts import unrated_note
from bot.games.board.picture import SIDES, BoardPicture, render_board, side_style
from bot.games.board.texts import TITLE
from bot.games.words import event_lines
from bot.i18n.speaking import _, number, plural
from bot.render.common import COLOUR_DONE, relative_time
from bot.rules import board as b
from bot.tables.model import TableSnapshot
from bot.tables.names import md_name
from bot.tables.teams import TEAM_NAMES

Cell = tuple[int, int]


def side_label(side: int) -> str:
    colour, symbol = side_style(side)
    return f"{_(colour)} {symbol}"


def draw_reason(outcome: b.BoardOutcome) -> str:
    """Why a drawn game ended (RULINGS §3 "Blocked game"), as a sentence."""
    if outcome.reason == "stalled":
        return _("The cards went round twice with no chip placed or removed.")
    if outcome.reason == "passed":
        return _(
            "Everyone still playing passed in turn with nothing changing, so the same round "
            "would repeat for ever."
        )
    return _("No card left in the game can be played.")


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


def score_lines(table: TableSnapshot) -> list[str]:
    """Where the game stands: each side's sequences made of those needed, and the piles."""
    state: b.BoardState = table.rules
    names = [md_name(n) for n in side_names(table, state)]
    sides = state.config.sides
    counts = state.sequence_counts()
    lines: list[str] = []
    need = state.config.sequences_to_win
    # TRANSLATORS: one side's sequences made of those needed: "Blue ● Ana & Cy: **1**/2".
    score = " · ".join(
        _(
            "%(side)s %(names)s: **%(made)s**/%(need)s",
            side=side_label(s),
            names=names[s],
            made=number(counts[s]),
            need=number(need),
        )
        for s in range(sides)
    )
    # TRANSLATORS: %(score)s is each side's sequences made of those needed: "Blue ● Ana: **1**/2".
    lines.append(_("Sequences: %(score)s", score=score))
    lines.append(
        plural(
            "Draw pile: %(count)s card · discards: %(discards)s",
            "Draw pile: %(count)s cards · discards: %(discards)s",
            len(state.draw_pile),
            discards=number(len(state.discards)),
        )
    )
    return lines


def board_embed(table: TableSnapshot) -> tuple[discord.Embed, discord.File]:
    state: b.BoardState = table.rules
    plain_names = side_names(table, state)  # the picture draws them as they are
    names = [md_name(n) for n in plain_names]
    sides = state.config.sides
    lines = []
    game = _(TITLE)
    if state.outcome is None:
        seat = table.seats[state.turn]
        # TRANSLATORS: %(side)s is the side's colour and mark: "Blue ●".
        lines.append(
            _(
                "**%(who)s** (%(side)s) to play.",
                who=md_name(seat.name),
                side=side_label(state.turn % sides),
            )
        )
        if table.turn_deadline is not None and not seat.is_bot:
            # TRANSLATORS: %(when)s is Discord's relative time, shown as "in 5 minutes".
            lines.append(_("Turn timer: ends %(when)s", when=relative_time(table.turn_deadline)))
        # TRANSLATORS: **My hand** is the button's label: use its translation.
        lines.append(_("Press **My hand** to see your cards and play."))
        # The accent of the side to move (the table message's container, or the embed's bar).
        colour = discord.Colour.from_rgb(*SIDES[state.turn % sides].colour)
        title = _("%(game)s · table #%(table)s", game=game, table=table.id)
    else:
        if state.outcome.side is None:
            title = _("🤝 %(game)s · the game is drawn", game=game)
            # TRANSLATORS: %(reason)s is why the game was drawn, a whole sentence.
            lines.append(_("%(reason)s Nobody wins.", reason=draw_reason(state.outcome)))
        else:
            # TRANSLATORS: %(who)s is the winning side's players, "Ana & Cy".
            title = _("🏆 %(who)s won %(game)s!", who=names[state.outcome.side], game=game)
        colour = COLOUR_DONE
        if table.coached:  # the coach's rule (bot.games.board.coach)
            lines.append(unrated_note())
    lines += score_lines(table)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    if table.events:
        recent = "\n".join(event_lines(table, table.events[-4:]))
        # TRANSLATORS: the heading of the board message's last few moves.
        embed.add_field(name=_("Recent"), value=recent[:1024], inline=False)
    if len(table.seats) >= 4:
        teams = []
        for side in range(sides):
            # TRANSLATORS: "Team A Blue ●: Ana & Cy" (A, B, C name the teams).
            teams.append(
                _(
                    "Team %(team)s %(side)s: %(names)s",
                    team=TEAM_NAMES[side],
                    side=side_label(side),
                    names=names[side],
                )
            )
        embed.add_field(name=_("Teams"), value="\n".join(teams)[:1024], inline=False)
    filename = f"board-{table.id}-{table.version}.png"
    embed.set_image(url=f"attachment://{filename}")
    # TRANSLATORS: under the board picture; ★ is the star on the corners, "yellow frame" the
    # frame around the last move's space. At most 2048 characters, but keep it one line.
    embed.set_footer(
        text=_(
            "Columns A–J, rows 1–10 · ★ corners are wild for every side · "
            "yellow frame: the last move"
        )
    )
    return embed, board_file(state, plain_names, name=filename)


def hand_text(view: b.SeatView, drawn: str | None = None) -> str:
    parts = []
    for card in sorted(view.hand, key=card_order):
        label = b.card_label(card)
        if card in b.TWO_EYED_JACKS:
            # TRANSLATORS: a two-eyed jack in the hand: it goes on any open space.
            label = _("%(card)s (wild)", card=label)
        elif card in b.ONE_EYED_JACKS:
            # TRANSLATORS: a one-eyed jack in the hand: it removes a chip.
            label = _("%(card)s (remove)", card=label)
        elif b.is_dead(card, view.chips):
            # TRANSLATORS: a dead card in the hand (both its spaces are taken).
            label = _("%(card)s (dead)", card=label)
        if card == drawn:
            label += " 🆕"
            drawn = None  # one card was drawn: with both copies in hand, only one is new
        parts.append(label)
    return " · ".join(parts) or _("no cards")


def card_order(card: str) -> tuple[int, int]:
    ranks = "A23456789TJQK"
    return ("SHDC".index(card[1]), ranks.index(card[0]))

"""The private hand for the board game: card, then space (a jack with many: card, row, space). "My
hand" opens a fresh private message any time; its buttons carry the table version, so an old copy
changes nothing."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import StaleAction, UserError
from bot.games.base import answer_update, defer_update, place_of
from bot.games.board import coach
from bot.games.board.kind import move_action
from bot.games.board.picture import BoardPicture, Frames, render_board
from bot.games.board.render import card_order, hand_text, picture, side_label, side_names
from bot.i18n.speaking import N_, _, pgettext
from bot.records import Button
from bot.render.common import COLOUR
from bot.render.view import build_view
from bot.rules import board as b
from bot.tables.model import Table, TableSnapshot
from bot.tables.names import md_name

if TYPE_CHECKING:
    from bot.games.base import ClickContext

log = logging.getLogger(__name__)

# TRANSLATORS: "My hand" is the board message's button: use its label's translation.
STALE = N_("That move is over: press My hand for your current cards.")
MAX_SPACE_BUTTONS = 20  # beyond this, choose the row first (Discord allows 25 per message)


class BoardHands:
    """The private hand's clicks: every action of the board game's buttons."""

    def __init__(self) -> None:
        self.frames = Frames()  # the card clicks' boards, drawn while the hand is read

    async def on_click(
        self,
        ctx: ClickContext,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        action: str,
    ) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You're not playing in this game, so you have no hand."))
        if not table.playing(seat):  # resigned or forfeited: the cards went with the seat
            raise UserError(_("You have left this game, so you have no hand."))
        if table.rules is None:
            raise StaleAction(_("This game has not started."))
        if action != "hand" and version != table.version:
            raise StaleAction(_(STALE))
        private = _is_private(interaction)
        snapshot = table.snapshot()
        if action == "suggest":  # the coach (bot.games.board.coach)
            await coach.answer_suggest(ctx, interaction, table, version, seat)
            return
        if action == "hand":
            payload = self.hand_payload(snapshot, seat)
            if private:
                await interaction.response.edit_message(**payload)
            else:
                payload["files"] = payload.pop("attachments")
                await interaction.response.send_message(**payload, ephemeral=True)
            self.draw_ahead(snapshot, seat)
            return
        if action.startswith(("c_", "r_")):
            payload, choices = self._hand(snapshot, seat, action)
            if choices is not None:  # drawn ahead while the hand was read, as a rule
                _attach(payload, await self.frames.get(choices))
            await interaction.response.edit_message(**payload)
            if action.startswith("c_"):
                self.draw_ahead(snapshot, seat, action[2:].upper())
            return
        if ctx.tables.busy(table.id):  # answer before waiting for the table's change under way
            await defer_update(interaction)
        change = await ctx.tables.act(
            table.id,
            interaction.user.id,
            version,
            action,
            stale_text=_(STALE),
            place=place_of(interaction),
        )
        after = change.table.snapshot()
        try:
            await answer_update(interaction, **self.hand_payload(after, seat))
        except discord.HTTPException as exc:
            # The move is committed: a dead token only costs the private hand's redraw
            # ("My hand" opens a fresh one), never the public board's.
            log.info("game %s: hand not redrawn (%s)", table.id, exc.code)
        else:
            self.draw_ahead(after, seat)  # a trade leaves the turn with the seat
        await ctx.publisher.publish(change)

    def draw_ahead(self, table: TableSnapshot, seat: int, card: str | None = None) -> None:
        """While ``seat`` reads its hand, draw the board each playable card's click shows
        (or, with ``card`` chosen and its spaces split by row, each row's click)."""
        state: b.BoardState = table.rules
        if state.outcome is not None or state.turn != seat:
            return
        choices: dict[Any, list[tuple[int, int]]] = {}
        for a in b.legal_actions(state):
            if isinstance(a, b.PlayCard | b.RemoveChip) and card in (None, a.card):
                choices.setdefault(a.row if card else a.card, []).append((a.row, a.col))
        if card is not None and sum(map(len, choices.values())) <= MAX_SPACE_BUTTONS:
            return  # the spaces are buttons already: no row to choose
        # In the order of the buttons, so the first one's frame is ready first.
        order = sorted(choices) if card else sorted(choices, key=card_order)
        names = side_names(table, state)
        # The table's frames not started yet are of an older hand: this one replaces them.
        self.frames.draw_ahead(table.id, [picture(state, names, choices[k]) for k in order])

    def hand_payload(
        self, table: TableSnapshot, seat: int, stage: str | None = None
    ) -> dict[str, Any]:
        """The private message for ``seat``: its cards, and buttons for the next choice."""
        payload, choices = self._hand(table, seat, stage)
        if choices is not None:
            _attach(payload, render_board(choices))
        return payload

    def _hand(
        self, table: TableSnapshot, seat: int, stage: str | None
    ) -> tuple[dict[str, Any], BoardPicture | None]:
        """The private message without its picture, and the board picture to attach (the
        choices of ``stage`` highlighted), if any."""
        state: b.BoardState = table.rules
        view = b.view_for(state, seat)
        my_turn = state.outcome is None and state.turn == seat
        legal = b.legal_actions(state) if my_turn else []
        drawn = view.last_move.drawn if view.last_move and view.last_move.seat == seat else None
        sides = state.config.sides
        # TRANSLATORS: %(cards)s is the hand: "7♥ · J♠ (remove) · Q♦ (dead)".
        lines = [_("**Your cards:** %(cards)s", cards=hand_text(view, drawn))]
        if state.outcome is not None:
            lines.append(_("The game is over."))
        elif not my_turn:
            lines.append(
                _(
                    "It's %(who)s's turn; you can look, not play.",
                    who=md_name(table.seats[state.turn].name),
                )
            )
        buttons: list[Button] = []
        highlight: list[tuple[int, int]] = []
        if my_turn and stage is None:
            buttons, note = self._card_buttons(legal, view)
            lines.append(note)
        elif my_turn and stage is not None:
            buttons, highlight, note = self._space_buttons(legal, stage)
            lines.append(note)
            # TRANSLATORS: a button of the private hand: back to the cards (at most 80).
            buttons.append(
                Button("hand", pgettext("button", "Back"), "secondary", row=4, emoji="↩️")
            )
        if stage is None:
            # TRANSLATORS: a button of the private hand: redraw it (at most 80).
            buttons.append(
                Button("hand", pgettext("button", "Refresh"), "secondary", row=4, emoji="🔄")
            )
        if my_turn and stage is None and table.stake == 0:
            buttons.append(coach.suggest_button())
        embed = discord.Embed(
            # TRANSLATORS: the private hand's title; %(side)s is the side's colour and mark.
            title=_("Your hand · %(side)s", side=side_label(seat % sides)),
            description="\n".join(lines),
            colour=COLOUR,
        )
        payload = {
            "embed": embed,
            "view": build_view(table.id, table.version, buttons),
            "attachments": [],
        }
        choices = picture(state, side_names(table, state), highlight) if highlight else None
        return payload, choices

    def _card_buttons(self, legal: list[b.Action], view: b.SeatView) -> tuple[list[Button], str]:
        if legal == [b.Pass()]:
            # TRANSLATORS: a button (at most 80 characters).
            label = pgettext("button", "Pass (no playable card)")
            return [Button("pass", label, "danger")], _(
                "None of your cards can be played: you must pass."
            )
        # A hand holds at most 7 distinct cards: plays fill rows 0-1, trades rows 2-3, five
        # a row, so even seven of either fit beside Refresh on row 4.
        plays: list[Button] = []
        trades: list[Button] = []
        seen: set[str] = set()
        for card in sorted(view.hand, key=card_order):
            if card in seen:
                continue
            seen.add(card)
            label = b.card_label(card)
            if b.TradeDeadCard(card) in legal:
                trades.append(
                    Button(
                        f"t_{card.lower()}",
                        # TRANSLATORS: a button: trade the dead card 7♥ (at most 80).
                        pgettext("button", "Trade %(card)s (dead)", card=label),
                        "danger",
                        row=2 + len(trades) // 5,
                    )
                )
            elif any(isinstance(a, b.PlayCard | b.RemoveChip) and a.card == card for a in legal):
                if card in b.TWO_EYED_JACKS:
                    # TRANSLATORS: a button: a two-eyed jack, played on any space (at most 80).
                    label = pgettext("button", "%(card)s · wild", card=label)
                elif card in b.ONE_EYED_JACKS:
                    # TRANSLATORS: a button: a one-eyed jack, removes a chip (at most 80).
                    label = pgettext("button", "%(card)s · remove", card=label)
                plays.append(Button(f"c_{card.lower()}", label, "primary", row=len(plays) // 5))
            else:  # listed all the same, disabled, with the reason it can't be played now
                plays.append(
                    Button(
                        f"c_{card.lower()}",
                        _unplayable(card, label),
                        "secondary",
                        row=len(plays) // 5,
                        disabled=True,
                    )
                )
        if not any(isinstance(a, b.PlayCard | b.RemoveChip) for a in legal):
            # RULINGS §3: a seat that can't play trades first; it may pass only after that.
            return plays + trades, _("No card can be played: trade a dead card for a new one.")
        return plays + trades, _("Your turn: choose a card.")

    def _space_buttons(
        self, legal: list[b.Action], stage: str
    ) -> tuple[list[Button], list[tuple[int, int]], str]:
        parts = stage.split("_")
        card = parts[1].upper() if len(parts) > 1 else ""
        row_filter = (
            int(parts[2])
            if stage.startswith("r_") and len(parts) > 2 and parts[2].isdigit()
            else None
        )
        moves = [a for a in legal if isinstance(a, b.PlayCard | b.RemoveChip) and a.card == card]
        if not moves:
            # TRANSLATORS: "My hand" is the board message's button: use its label's translation.
            raise StaleAction(_("That card can't be played now: press My hand."))
        label = b.card_label(card)
        verb = "remove" if card in b.ONE_EYED_JACKS else "play"
        cells = [(a.row, a.col) for a in moves]
        if row_filter is None and len(moves) > MAX_SPACE_BUTTONS:
            rows = sorted({a.row for a in moves})
            buttons = [
                Button(
                    f"r_{card.lower()}_{r}",
                    # TRANSLATORS: a button: a row of the board, 1 to 10 (at most 80).
                    pgettext("button", "Row %(row)s", row=r + 1),
                    "primary",
                    row=i // 5,
                )
                for i, r in enumerate(rows)
            ]
            text = (
                _("%(card)s: choose the row of a chip to remove (highlighted).", card=label)
                if verb == "remove"
                else _("%(card)s: choose the row of an open space (highlighted).", card=label)
            )
            return buttons, cells, text
        if row_filter is not None:
            moves = [a for a in moves if a.row == row_filter]
            cells = [(a.row, a.col) for a in moves]
        buttons = [
            Button(
                move_action(a),
                b.coord_label(a.row, a.col),
                "danger" if verb == "remove" else "success",
                row=i // 5,
            )
            for i, a in enumerate(moves[:MAX_SPACE_BUTTONS])
        ]
        text = (
            _("%(card)s: choose the chip to remove.", card=label)
            if verb == "remove"
            else _("%(card)s: choose where to put your chip.", card=label)
        )
        return buttons, cells, text


def _unplayable(card: str, label: str) -> str:
    """A card's disabled button: the card and why it has no move this turn (it is in the
    hand, so it is not a two-eyed jack, which always has an open space until the board is
    full)."""
    if card in b.ONE_EYED_JACKS:
        # TRANSLATORS: a disabled button: a one-eyed jack with no chip to remove (at most 80).
        return pgettext("button", "%(card)s · remove (no chip can be removed now)", card=label)
    if card in b.TWO_EYED_JACKS:
        # TRANSLATORS: a disabled button: a two-eyed jack with no open space (at most 80).
        return pgettext("button", "%(card)s · wild (no open space)", card=label)
    # TRANSLATORS: a disabled button: a dead card, when a dead card was already traded this
    # turn (at most 80).
    return pgettext("button", "%(card)s (dead: one trade a turn)", card=label)


def _attach(payload: dict[str, Any], frame: bytes) -> None:
    """Show ``frame`` (the board with the choices highlighted) in the hand's embed."""
    name = "choices.png"
    payload["attachments"] = [discord.File(io.BytesIO(frame), filename=name)]
    payload["embed"].set_image(url=f"attachment://{name}")


def _is_private(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)

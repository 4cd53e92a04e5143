"""What a review says (``bot.ui.review``), its Review button, and ``/settings suggestions``'s
answer. Kept apart from ``bot.ui.review`` (the button's callback, which reaches the shell) so
that the result message and ``/replay`` can draw the button without importing the shell."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n.speaking import N_, _

# rv:<finished game id>: ``ReviewButton`` answers it, after a restart too.
CUSTOM_ID = "rv:{game}"
LABEL = N_("Review")
EMOJI = "🔍"

NOT_A_PLAYER = N_("You didn't play in this game, so there is nothing of yours to review.")
NO_REVIEW = N_("This game has no review.")
OUTSIDE = N_("Reviews belong to a server's games.")


def review_button(game_id: int, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=_(LABEL),
        emoji=EMOJI,
        style=discord.ButtonStyle.secondary,
        custom_id=CUSTOM_ID.format(game=game_id),
        row=row,
    )


def suggestions_set(allowed: bool) -> str:
    """``/settings suggestions``'s answer."""
    if allowed:
        return _(
            "Players here may press Suggest in the board game's hand (games without a stake; "
            "a game with a suggestion is not rated)."
        )
    return _("Suggestions are off here: the board game's hand offers none.")

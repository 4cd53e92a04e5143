"""Permission checks, in one place: who may do what, and what the bot may do where."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import Forbidden, UserError
from bot.i18n.speaking import N_, _
from bot.render.common import every_language
from bot.tables.limits import MAX_ID
from bot.ui.errors import reply_private

# TRANSLATORS: Discord's own names of its permissions, as its client shows them.
PERMISSION_LABELS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}


# A command only tournament organisers may run (``extras=ORGANISERS``): /help lists it to
# them only; the check in the command is what counts.
ORGANISERS = {"who": "organisers"}


def for_organisers(command: Any) -> bool:
    """Whether an app command is marked ``ORGANISERS``."""
    extras = getattr(command, "extras", None) or {}
    return bool(extras.get("who") == ORGANISERS["who"])


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def require_admin(interaction: discord.Interaction[Any], refusal: str) -> None:
    """Manage Server or ``Forbidden(refusal)``: ``default_permissions`` only hides a command,
    the check in code is what counts."""
    if not is_admin(interaction):
        raise Forbidden(refusal)


# Permissions denied with the one they hang on: only the root is named, since granting it
# may be all it takes.
IMPLIED_BY = {"send_messages": ("embed_links", "attach_files")}


def lacking(perms: discord.Permissions, names: list[str]) -> list[str]:
    """The labels of the permissions in ``names`` that ``perms`` does not grant, leaving
    out those denied only because View Channel or Send Messages is."""
    missing = [name for name in names if not getattr(perms, name, False)]
    if "view_channel" in missing:
        missing = ["view_channel"]
    for root, implied in IMPLIED_BY.items():
        if root in missing:
            missing = [name for name in missing if name not in implied]
    return [PERMISSION_LABELS[name] for name in missing]


def missing_permissions(channel: Any) -> list[str]:
    """The permissions a game needs that the bot lacks in ``channel`` (a channel or thread)."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None or not hasattr(channel, "permissions_for"):
        return []
    perms = channel.permissions_for(guild.me)
    needed = ["view_channel", "embed_links", "attach_files"]
    needed.append(
        "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    )
    return lacking(perms, needed)


def require_game_permissions(interaction: discord.Interaction[Any]) -> None:
    """The bot must be able to post a game where the command was used."""
    needed = ["view_channel", "send_messages", "embed_links", "attach_files"]
    missing = lacking(interaction.app_permissions, needed)
    if missing:
        raise UserError(
            _(
                "I can't run a game here: I'm missing %(missing)s in this channel.",
                missing=", ".join(_(name) for name in missing),
            )
        )


def fits_id(*numbers: int) -> bool:
    """Whether every number is a usable id (0 for "none"): custom_ids and options can be
    forged, and a number past 64 bits makes the SQLite driver raise."""
    return all(0 <= n <= MAX_ID for n in numbers)


async def on_own_message(interaction: discord.Interaction[Any], title: str) -> bool:
    """Whether the clicked message is the bot's own with an embed titled ``title``, else the presser
    is told privately: a persistent button pressed on another message (forged or copied) would
    redraw it as something else."""
    message = interaction.message
    # The message was drawn in its reader's language (a public one in the server's, which
    # need not be the presser's): ``title`` (a catalogue message) in any language.
    titles = every_language(title)
    if message is not None and any(
        (embed.title or "").startswith(titles) for embed in message.embeds
    ):
        return True
    await reply_private(interaction, _("That button doesn't belong to this message."))
    return False

"""Permission checks, in one place: who may do what, and what the bot may do where."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import Forbidden, UserError

PERMISSION_LABELS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def require_admin(interaction: discord.Interaction[Any], refusal: str) -> None:
    """Manage Server or ``Forbidden(refusal)``: ``default_permissions`` only hides a command,
    the check in code is what counts."""
    if not is_admin(interaction):
        raise Forbidden(refusal)


def lacking(perms: discord.Permissions, names: list[str]) -> list[str]:
    """The labels of the permissions in ``names`` that ``perms`` does not grant."""
    return [PERMISSION_LABELS[name] for name in names if not getattr(perms, name, False)]


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
            "I can't run a game here: I'm missing " + ", ".join(missing) + " in this channel."
        )

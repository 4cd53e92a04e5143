"""A finished game replayed step by step in one public message (``/replay``), with
persistent buttons: first, back, next, last, ten steps back and forward, and for the board
game "Download animation".

The custom_id carries everything needed to draw a step: ``rp:<game id>:<step>:<button>``,
so the buttons keep working after a restart. Anyone in the server may step; each press
edits the message. The states come from the replay service's in-memory cache, so a press
renders one step and replays nothing. Public information only: the games' replay text and
pictures never show a hand.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.base import Game
from bot.render.common import NO_PINGS
from bot.tables.replays import Replay
from bot.ui.buttons import is_button
from bot.ui.errors import handle_error
from bot.ui.shell import Shell, shell_of

UPLOAD_LIMIT = 8 * 1024 * 1024  # Discord's upload limit for bots
PICTURE = "replay.png"
COLOUR = 0x5865F2
STORY_CHARS = 1_500  # the end of the story shown above the picture or scores

# code -> (label, target step given the replay and the step shown); the target goes into
# the custom_id, so a button drawn before a restart still goes where it said.
_MOVES: dict[str, tuple[str, Any]] = {
    "f": ("⏮ First", lambda replay, step: 0),
    "m": ("⏪ Round", lambda replay, step: replay.round_back(step)),
    "b": ("◀ Back", lambda replay, step: step - 1),
    "n": ("Next ▶", lambda replay, step: step + 1),
    "p": ("Round ⏩", lambda replay, step: replay.round_forward(step)),
    "l": ("Last ⏭", lambda replay, step: replay.last),
}


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<game>[0-9]{1,12}):(?P<step>[0-9]{1,6}):(?P<code>[fmbnplao])",
):
    def __init__(
        self,
        game_id: int,
        step: int,
        code: str,
        *,
        label: str,
        disabled: bool = False,
        row: int = 0,
    ) -> None:
        style = discord.ButtonStyle.primary if code == "a" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"rp:{game_id}:{step}:{code}",
            )
        )
        self.game_id = game_id
        self.step = step
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        return cls(
            int(match["game"]),
            int(match["step"]),
            match["code"],
            label=getattr(item, "label", None) or "",
        )

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return is_button(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.guild_id is None:
                raise UserError("Replays belong to a server.")
            shell = shell_of(interaction)
            replay = await shell.replays.load(self.game_id, interaction.guild_id)
            if self.code == "a":
                await send_animation(shell, interaction, replay)
                return
            if self.code == "o":  # opened from /history: a new replay message, at the end
                payload = replay_message(shell, replay, replay.last)
                await interaction.response.send_message(**payload, allowed_mentions=NO_PINGS)
                return
            payload = replay_message(shell, replay, self.step)
            if "file" in payload:
                payload["attachments"] = [payload.pop("file")]
            await interaction.response.edit_message(**payload)
        except Exception as exc:
            await handle_error(interaction, exc, f"on replay of game {self.game_id}")


def replay_message(shell: Shell, replay: Replay, step: int) -> dict[str, Any]:
    """The message showing ``replay`` after ``step`` (clamped): an embed, the board
    picture for a game with pictures, and the buttons."""
    game: Game[Any] = shell.games[replay.kind]
    step = replay.clamp(step)
    shown = replay.moments[: step + 1]
    embed = discord.Embed(
        title=f"Replay of game #{replay.game_id}: {shell.games.label(replay.game_key)}",
        colour=COLOUR,
    )
    text = game.replay_text(shown, replay.seats) or ""
    story, _, scores = text.rpartition("\n\n")
    if not _:
        story, scores = text, ""
    events = [line for line in story.splitlines() if line.strip()]
    tail: list[str] = []
    size = 0
    for line in reversed(events):
        size += len(line) + 1
        if size > STORY_CHARS:
            break
        tail.append(line)
    tail.reverse()
    where = "the start" if step == 0 else f"step {step} of {replay.last}"
    parts = [f"**At {where}**"]
    if step == 0:
        parts.append("Nothing played yet.")
    elif tail:
        parts.append("```\n" + "\n".join(tail)[-STORY_CHARS:] + "\n```")
    if scores.strip():
        parts.append("```\n" + scores.strip()[:1_500] + "\n```")
    embed.description = "\n".join(parts)
    embed.set_footer(text=f"Step {step}/{replay.last} · anyone here can step through it")
    png = game.replay_picture(shown, replay.seats)
    payload: dict[str, Any] = {"embed": embed, "view": _view(replay, step, png is not None)}
    if png is not None:
        embed.set_image(url=f"attachment://{PICTURE}")
        payload["file"] = discord.File(io.BytesIO(png), filename=PICTURE)
    return payload


def _view(replay: Replay, step: int, pictures: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, (code, (label, target)) in enumerate(_MOVES.items()):
        to = replay.clamp(target(replay, step))
        view.add_item(
            ReplayButton(replay.game_id, to, code, label=label, disabled=to == step, row=index // 3)
        )
    if pictures:
        view.add_item(ReplayButton(replay.game_id, 0, "a", label="Download animation", row=2))
    return view


async def send_animation(
    shell: Shell, interaction: discord.Interaction[Any], replay: Replay
) -> None:
    """The whole game as an animated PNG, privately (it takes a moment: deferred)."""
    game: Game[Any] = shell.games[replay.kind]
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await asyncio.to_thread(game.replay_animation, replay.moments, replay.seats, "png")
    if data is None:
        raise UserError("This game has no pictures to animate.")
    if len(data) > UPLOAD_LIMIT:
        raise UserError(
            f"The animation of game #{replay.game_id} is too large to upload "
            f"({len(data) / 1_048_576:.1f} MB)."
        )
    await interaction.followup.send(
        f"Game #{replay.game_id}, {replay.last} steps:",
        file=discord.File(io.BytesIO(data), filename=f"game-{replay.game_id}.png"),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )

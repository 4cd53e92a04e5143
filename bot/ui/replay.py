"""A finished game replayed step by step (``/replay``), with persistent buttons: first,
back, next, last, a round back and forward, and for the board game "Download animation".

``/replay`` posts one public message, the shared one, at the start (or at the step asked
for); it never moves. Its buttons give whoever presses them a private copy at that step,
and the copy's buttons step that copy in place: viewers never fight over one message, and
nobody sees the ending before they step to it.

The custom_id carries everything needed to draw a step: ``rp:<game id>:<step>:<button>``,
so the buttons keep working after a restart. The states come from the replay service's
in-memory cache, so a press renders one step and replays nothing. Public information only:
the games' replay text and pictures never show a hand.
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
from bot.tables.names import md_name
from bot.tables.replays import Replay
from bot.ui.buttons import is_button
from bot.ui.checks import on_own_message
from bot.ui.errors import handle_error
from bot.ui.review_texts import review_button
from bot.ui.shell import Shell, shell_of

UPLOAD_LIMIT = 8 * 1024 * 1024  # Discord's upload limit for bots
PICTURE = "replay.png"
COLOUR = 0x5865F2
TITLE = "Replay of game #"  # every replay message's title starts so (see on_own_message)
HISTORY_TITLE = "Finished games"  # and every /history page's, where "▶ #id" buttons live
STORY_LINES = 6  # the last moves above the picture: the message stays one phone screen tall
STORY_CHARS = 600  # and never more text than this (a dice game's lines are longer)

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
        if not is_button(interaction):
            return False
        # "Open" lives on a /history page, every other button on this game's replay.
        home = HISTORY_TITLE if self.code == "o" else f"{TITLE}{self.game_id}:"
        return await on_own_message(interaction, home)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.guild_id is None:
                raise UserError("Replays belong to a server.")
            shell = shell_of(interaction)
            replay = await shell.replays.load(self.game_id, interaction.guild_id)
            if self.code == "a":
                await send_animation(shell, interaction, replay)
                return
            if self.code == "o":  # opened from /history: a new shared replay, at the start
                payload = replay_message(shell, replay, 0)
                await interaction.response.send_message(**payload, allowed_mentions=NO_PINGS)
                return
            payload = replay_message(shell, replay, self.step, private=True)
            message = interaction.message
            if message is None or not message.flags.ephemeral:
                # The shared message stays put: the presser gets a copy of their own.
                shared = _redrawn(shell, replay, message)
                if shared is None:
                    await interaction.response.send_message(
                        **payload, ephemeral=True, allowed_mentions=NO_PINGS
                    )
                    return
                await interaction.response.edit_message(**shared)
                await interaction.followup.send(
                    **payload, ephemeral=True, allowed_mentions=NO_PINGS
                )
                return
            if "file" in payload:
                payload["attachments"] = [payload.pop("file")]
            await interaction.response.edit_message(**payload)
        except Exception as exc:
            await handle_error(interaction, exc, f"on replay of game {self.game_id}")


def replay_message(
    shell: Shell, replay: Replay, step: int, *, private: bool = False
) -> dict[str, Any]:
    """The message showing ``replay`` after ``step`` (clamped): an embed with the last few
    moves, the board picture for a game with pictures, and the buttons; ``private`` for a
    viewer's own copy."""
    game: Game[Any] = shell.games[replay.kind]
    step = replay.clamp(step)
    shown = replay.moments[: step + 1]
    embed = discord.Embed(
        title=f"{TITLE}{replay.game_id}: {shell.games.label(replay.game_key)}",
        colour=COLOUR,
    )
    text = game.replay_text(shown, replay.seats) or ""
    story, _, scores = text.rpartition("\n\n")
    if not _:
        story, scores = text, ""
    events = [line for line in story.splitlines() if line.strip()]
    tail = _tail(events)
    where = "the start" if step == 0 else f"step {step} of {replay.last}"
    parts = [f"**At {where}**"]
    if step == 0:
        players = ", ".join(md_name(seat.name) for seat in replay.seats)
        parts.append(f"Nothing played yet. Players: {players}.")
    elif tail:
        parts.append("```\n" + "\n".join(tail) + "\n```")
    if scores.strip():
        parts.append("```\n" + scores.strip()[:1_500] + "\n```")
    embed.description = "\n".join(parts)
    whose = "your own copy: only you see it" if private else "the buttons open your own copy"
    embed.set_footer(text=f"Step {step}/{replay.last} · {whose}")
    png = game.replay_picture(shown, replay.seats)
    view = _view(replay, step, png is not None)
    if game.reviewable:  # each player's own review, privately (bot.ui.review)
        view.add_item(review_button(replay.game_id, row=2))
    payload: dict[str, Any] = {"embed": embed, "view": view}
    if png is not None:
        embed.set_image(url=f"attachment://{PICTURE}")
        payload["file"] = discord.File(io.BytesIO(png), filename=PICTURE)
    return payload


def _redrawn(
    shell: Shell, replay: Replay, message: discord.Message | None
) -> dict[str, Any] | None:
    """The shared message drawn again at its step if what it shows is out of date (a
    member forgotten since it was posted: their name goes from it too), else None."""
    embed = message.embeds[0] if message is not None and message.embeds else None
    found = re.search(r"Step (\d+)/", (embed.footer.text or "") if embed else "")
    if embed is None or found is None:
        return None
    payload = replay_message(shell, replay, int(found[1]))
    if payload["embed"].description == embed.description:
        return None
    if "file" in payload:
        payload["attachments"] = [payload.pop("file")]
    return payload


def _tail(events: list[str]) -> list[str]:
    """The last few lines of the story (a line a move), with a note of how many came
    before: the whole story is a step back or ⏮ First away."""
    tail: list[str] = []
    size = 0
    for line in reversed(events[-STORY_LINES:]):
        line = line if len(line) <= STORY_CHARS else line[: STORY_CHARS - 1] + "…"
        size += len(line) + 1
        if size > STORY_CHARS and tail:
            break
        tail.append(line)
    tail.reverse()
    hidden = len(events) - len(tail)
    return [f"… {hidden} earlier", *tail] if hidden else tail


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
    """The whole game as a GIF, privately (it takes a moment: deferred). Discord animates a
    GIF inline but shows an animated PNG as a still; frames that keep only what changed
    make a long game's GIF a few hundred KB."""
    game: Game[Any] = shell.games[replay.kind]
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await asyncio.to_thread(game.replay_animation, replay.moments, replay.seats, "gif")
    if data is None:
        raise UserError("This game has no pictures to animate.")
    if len(data) > UPLOAD_LIMIT:
        raise UserError(
            f"The animation of game #{replay.game_id} is too large to upload "
            f"({len(data) / 1_048_576:.1f} MB)."
        )
    await interaction.followup.send(
        f"Game #{replay.game_id}, {replay.last} steps:",
        file=discord.File(io.BytesIO(data), filename=f"game-{replay.game_id}.gif"),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )

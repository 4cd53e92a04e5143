"""``/replay`` with persistent buttons (``rp:<game id>:<step>:<button>``): the public message never
moves, each press gives its presser a private copy stepped in place, so nobody sees the ending
early; never a hand."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.base import Game
from bot.i18n import catalogues
from bot.i18n.speaking import N_, _, number, plural, speaking
from bot.render.common import NO_PINGS, every_language
from bot.tables.names import md_name
from bot.tables.replays import Replay
from bot.ui import pages
from bot.ui.buttons import is_button
from bot.ui.errors import handle_error
from bot.ui.i18n import locale_for
from bot.ui.review_texts import review_button
from bot.ui.shell import Shell, shell_of

UPLOAD_LIMIT = 8 * 1024 * 1024  # Discord's upload limit for bots
PICTURE = "replay.png"
COLOUR = 0x5865F2
# Every replay message's title starts so, in the language it was drawn in (on_own_message).
# TRANSLATORS: the start of a /replay message's title, followed by the game's name.
TITLE = N_("Replay of game #%(id)s:")
# And every /history page's, where "▶ #id" buttons live.
# TRANSLATORS: /history's title; every longer title of that page must start with it.
HISTORY_TITLE = N_("Finished games")
STORY_LINES = 6  # the last moves above the picture: the message stays one phone screen tall
STORY_CHARS = 600  # and never more text than this (a dice game's lines are longer)

# code -> (label, target step given the replay and the step shown); the target goes into
# the custom_id, so a button drawn before a restart still goes where it said.
# TRANSLATORS: the replay's buttons (keep them short: a phone shows three a row).
_MOVES: dict[str, tuple[str, Any]] = {
    "f": (N_("⏮ First"), lambda replay, step: 0),
    "m": (N_("⏪ Round"), lambda replay, step: replay.round_back(step)),
    "b": (N_("◀ Back"), lambda replay, step: step - 1),
    "n": (N_("Next ▶"), lambda replay, step: step + 1),
    "p": (N_("Round ⏩"), lambda replay, step: replay.round_forward(step)),
    "l": (N_("Last ⏭"), lambda replay, step: replay.last),
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
        if self.code == "o":
            home = every_language(HISTORY_TITLE)
        else:
            home = tuple(t % {"id": self.game_id} for t in every_language(TITLE))
        return await pages.on_own_page(interaction, home)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.guild_id is None:
                raise UserError(_("Replays belong to a server."))
            shell = shell_of(interaction)
            replay = await shell.replays.load(self.game_id, interaction.guild_id)
            if self.code == "a":
                await send_animation(shell, interaction, replay)
                return
            if self.code == "o":  # opened from /history: a new shared replay, at the start
                with speaking(await locale_for(interaction, public=True)):
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
    game: Game[Any] = shell.games.shown(replay.kind)
    step = replay.clamp(step)
    shown = replay.moments[: step + 1]
    embed = discord.Embed(
        title=f"{_(TITLE, id=replay.game_id)} {shell.games.label(replay.game_key)}", colour=COLOUR
    )
    text = game.replay_text(shown, replay.seats) or ""
    story, cut, scores = text.rpartition("\n\n")
    if not cut:
        story, scores = text, ""
    events = [line for line in story.splitlines() if line.strip()]
    tail = _tail(events)
    if step == 0:
        parts = [_("**At the start**")]
        players = ", ".join(md_name(seat.name) for seat in replay.seats)
        parts.append(_("Nothing played yet. Players: %(players)s.", players=players))
    else:
        # TRANSLATORS: above the last moves of a replay, e.g. "At step 12 of 40".
        parts = [_("**At step %(step)s of %(last)s**", step=number(step), last=number(replay.last))]
    if step != 0 and tail:
        parts.append("```\n" + "\n".join(tail) + "\n```")
    if scores.strip():
        parts.append("```\n" + scores.strip()[:1_500] + "\n```")
    embed.description = "\n".join(parts)
    # TRANSLATORS: the replay's footer; keep "%(step)s/%(last)s" together (a redraw reads it).
    footer = (
        _("Step %(step)s/%(last)s · your own copy: only you see it", step=step, last=replay.last)
        if private
        else _(
            "Step %(step)s/%(last)s · the buttons open your own copy", step=step, last=replay.last
        )
    )
    embed.set_footer(text=footer)
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
    found = re.search(r"(\d+)/\d+", (embed.footer.text or "") if embed else "")
    if embed is None or found is None:
        return None
    # Drawn again in the language it was drawn in, not the presser's: else every press by
    # a member reading another language would rewrite the shared message in theirs.
    with speaking(_language_of(embed.title or "", replay.game_id)):
        payload = replay_message(shell, replay, int(found[1]))
    if payload["embed"].description == embed.description:
        return None
    if "file" in payload:
        payload["attachments"] = [payload.pop("file")]
    return payload


def _language_of(title: str, game_id: int) -> str | None:
    """The language a replay message's ``title`` is in (None: none of the bot's)."""
    books = catalogues()
    for tag in books.tags:
        if title.startswith(books.language(tag).gettext(TITLE) % {"id": game_id}):
            return tag
    return None


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
    # TRANSLATORS: the first line of a replay's story when earlier moves are left out.
    return [plural("… %(count)s earlier", "… %(count)s earlier", hidden), *tail] if hidden else tail


def _view(replay: Replay, step: int, pictures: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, (code, (label, target)) in enumerate(_MOVES.items()):
        to = replay.clamp(target(replay, step))
        view.add_item(
            ReplayButton(
                replay.game_id, to, code, label=_(label), disabled=to == step, row=index // 3
            )
        )
    if pictures:
        view.add_item(ReplayButton(replay.game_id, 0, "a", label=_("Download animation"), row=2))
    return view


async def send_animation(
    shell: Shell, interaction: discord.Interaction[Any], replay: Replay
) -> None:
    """The whole game as a GIF, privately (it takes a moment: deferred). Discord animates a
    GIF inline but shows an animated PNG as a still; frames that keep only what changed
    make a long game's GIF a few hundred KB."""
    game: Game[Any] = shell.games.shown(replay.kind)
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await asyncio.to_thread(game.replay_animation, replay.moments, replay.seats, "gif")
    if data is None:
        raise UserError(_("This game has no pictures to animate."))
    if len(data) > UPLOAD_LIMIT:
        raise UserError(
            _(
                "The animation of game #%(id)s is too large to upload (%(size)s MB).",
                id=replay.game_id,
                size=number(round(len(data) / 1_048_576, 1)),
            )
        )
    await interaction.followup.send(
        plural(
            "Game #%(id)s, %(count)s step:",
            "Game #%(id)s, %(count)s steps:",
            replay.last,
            id=replay.game_id,
        ),
        file=discord.File(io.BytesIO(data), filename=f"game-{replay.game_id}.gif"),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )

"""The fake Discord checks the bot's channel permissions as Discord does.

A tiny bot does one REST call per command and reports what Discord answered, so each test
shows a check catching a bot that assumes a permission it lacks:

* View Channel: a send, edit, delete, fetch or history read in a channel the bot cannot see
  is 403 with code 50001 (Missing Access); a permission missing in a channel it sees
  (Send Messages, Attach Files) is 403 with code 50013 (Missing Permissions).
* Read Message History: fetching one message is 403/50001; reading the history is not an
  error, it just answers no messages.
* Embed Links: Discord drops the embeds of a bot's message, silently (the message is still
  sent or edited), in channels and threads; interaction responses keep theirs.
"""

from __future__ import annotations

import io

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import Harness

EMBED = discord.Embed(title="The board", description="Whose turn it is")


class Perm(commands.GroupCog, group_name="perm"):
    async def _report(self, interaction: discord.Interaction, call: object) -> None:
        try:
            result = await call  # type: ignore[misc]
        except discord.HTTPException as exc:
            text = f"Refused ({exc.status}, {exc.code})."
        else:
            text = f"OK: {result}"
        await interaction.response.send_message(text, ephemeral=True)

    def _channel(self, interaction: discord.Interaction) -> discord.TextChannel:
        assert isinstance(interaction.channel, discord.TextChannel)
        return interaction.channel

    @app_commands.command(description="Post a message with an embed (and a file)")
    async def post(self, interaction: discord.Interaction, file: bool = False) -> None:
        files = [discord.File(io.BytesIO(b"png"), filename="board.png")] if file else []

        async def send() -> int:
            message = await self._channel(interaction).send("Game", embed=EMBED, files=files)
            return message.id

        await self._report(interaction, send())

    @app_commands.command(description="Edit a message to show an embed (and a file)")
    async def edit(
        self, interaction: discord.Interaction, message: str, file: bool = False
    ) -> None:
        partial = self._channel(interaction).get_partial_message(int(message))
        files = [discord.File(io.BytesIO(b"png"), filename="board.png")] if file else []
        await self._report(
            interaction, partial.edit(content="Edited", embed=EMBED, attachments=files)
        )

    @app_commands.command(description="Delete a message")
    async def delete(self, interaction: discord.Interaction, message: str) -> None:
        partial = self._channel(interaction).get_partial_message(int(message))
        await self._report(interaction, partial.delete())

    @app_commands.command(description="Fetch a message")
    async def fetch(self, interaction: discord.Interaction, message: str) -> None:
        async def fetch() -> str:
            return (await self._channel(interaction).fetch_message(int(message))).content

        await self._report(interaction, fetch())

    @app_commands.command(description="Count the channel's last messages")
    async def history(self, interaction: discord.Interaction) -> None:
        async def count() -> int:
            return len([m async for m in self._channel(interaction).history(limit=20)])

        await self._report(interaction, count())

    @app_commands.command(description="Fetch the channel")
    async def channel(self, interaction: discord.Interaction) -> None:
        async def fetch() -> str:
            fetched = await interaction.client.fetch_channel(self._channel(interaction).id)
            return str(getattr(fetched, "name", ""))

        await self._report(interaction, fetch())

    @app_commands.command(description="Answer with an embed")
    async def answer(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=EMBED)

    @app_commands.command(description="Open a thread and post an embed in it")
    async def thread(self, interaction: discord.Interaction) -> None:
        async def post() -> int:
            start = await self._channel(interaction).send("A game")
            thread = await start.create_thread(name="game")
            return (await thread.send(embed=EMBED)).id

        await self._report(interaction, post())


class PermBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(Perm(self))


@pytest.fixture
async def h(make_harness: MakeHarness) -> Harness:
    return await make_harness(PermBot())


async def _posted(h: Harness) -> int:
    reply = await (h.players.get("Alice") or await h.member("Alice")).slash("perm post")
    assert reply.content.startswith("OK: "), reply.content
    return int(reply.content[4:])


# --------------------------------------------------------------------------- Embed Links


async def test_without_embed_links_a_sent_embed_is_dropped(h: Harness) -> None:
    await h.set_bot_permissions(embed_links=False)
    mid = await _posted(h)  # no error: Discord says nothing
    message = h.message(mid)
    assert message.content == "Game" and message.embeds == []
    assert h.fake.dropped_embeds == [f"POST /channels/{h.channel.id}/messages"]


async def test_without_embed_links_an_edit_loses_its_embed(h: Harness) -> None:
    mid = await _posted(h)
    assert h.message(mid).embeds[0]["title"] == "The board"
    await h.set_bot_permissions(embed_links=False)
    alice = h.players["Alice"]
    assert (await alice.slash("perm edit", message=str(mid))).content.startswith("OK")
    assert h.message(mid).content == "Edited" and h.message(mid).embeds == []


async def test_without_embed_links_in_the_parent_a_thread_drops_embeds(h: Harness) -> None:
    await h.set_bot_permissions(embed_links=False)
    reply = await (await h.member("Alice")).slash("perm thread")
    assert h.message(int(reply.content[4:])).embeds == []


async def test_interaction_answers_keep_their_embeds(h: Harness) -> None:
    await h.set_bot_permissions(embed_links=False)
    reply = await (await h.member("Alice")).slash("perm answer")
    assert reply.embeds[0]["title"] == "The board" and h.fake.dropped_embeds == []


async def test_with_embed_links_nothing_is_dropped(h: Harness) -> None:
    mid = await _posted(h)
    assert h.message(mid).embeds[0]["title"] == "The board" and h.fake.dropped_embeds == []


# --------------------------------------------------------------------------- View Channel


@pytest.mark.parametrize("command", ["edit", "delete", "fetch"])
async def test_a_message_in_a_channel_the_bot_cannot_see_is_missing_access(
    h: Harness, command: str
) -> None:
    mid = await _posted(h)
    await h.set_bot_permissions(view_channel=False)
    reply = await h.players["Alice"].slash(f"perm {command}", message=str(mid))
    assert reply.content == "Refused (403, 50001)."
    assert not h.message(mid).deleted and h.message(mid).content == "Game"


@pytest.mark.parametrize("command", ["post", "history", "channel"])
async def test_a_channel_the_bot_cannot_see_is_missing_access(h: Harness, command: str) -> None:
    await h.set_bot_permissions(view_channel=False)
    reply = await (await h.member("Alice")).slash(f"perm {command}")
    assert reply.content == "Refused (403, 50001)."
    assert [m for m in h.messages() if not m.ephemeral] == []


async def test_a_permission_missing_where_the_bot_sees_is_missing_permissions(
    h: Harness,
) -> None:
    alice = await h.member("Alice")
    await h.set_bot_permissions(attach_files=False)
    assert (await alice.slash("perm post", file=True)).content == "Refused (403, 50013)."
    mid = await _posted(h)
    edited = await alice.slash("perm edit", message=str(mid), file=True)
    assert edited.content == "Refused (403, 50013)." and h.message(mid).files == []
    await h.set_bot_permissions(attach_files=None, send_messages=False)
    assert (await alice.slash("perm post")).content == "Refused (403, 50013)."
    # Editing its own message needs no Send Messages.
    assert (await alice.slash("perm edit", message=str(mid))).content.startswith("OK")


# --------------------------------------------------------------------------- Read Message History


async def test_without_read_message_history_a_fetch_is_missing_access(h: Harness) -> None:
    mid = await _posted(h)
    await h.set_bot_permissions(read_message_history=False)
    reply = await h.players["Alice"].slash("perm fetch", message=str(mid))
    assert reply.content == "Refused (403, 50001)."
    await h.set_bot_permissions(read_message_history=None)
    assert (await h.players["Alice"].slash("perm fetch", message=str(mid))).content == "OK: Game"


async def test_without_read_message_history_the_history_is_empty(h: Harness) -> None:
    await _posted(h)
    alice = h.players["Alice"]
    assert (await alice.slash("perm history")).content == "OK: 1"
    await h.set_bot_permissions(read_message_history=False)
    assert (await alice.slash("perm history")).content == "OK: 0"

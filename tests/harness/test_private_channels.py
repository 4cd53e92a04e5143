"""DMs and group DMs in the harness: what Discord enforces where a user-installed app is no
member (it answers interactions; it cannot post or read there)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import HarnessError
from tests.harness import payloads as P


class PrivateBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.seen: list[Any] = []

    async def setup_hook(self) -> None:
        @app_commands.command(name="hello", description="Say hello")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def hello(interaction: discord.Interaction) -> None:
            self.seen.append(
                (
                    interaction.guild_id,
                    interaction.context.dm_channel,
                    interaction.context.private_channel,
                    interaction.is_user_integration(),
                )
            )
            await interaction.response.send_message("hi")
            try:
                await interaction.channel.send("and by REST")  # type: ignore[union-attr]
            except discord.Forbidden as exc:
                self.seen.append(exc.code)

        @app_commands.command(name="server", description="Servers only")
        @app_commands.guild_only()
        async def server(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("in a server")

        self.tree.add_command(hello)
        self.tree.add_command(server)


async def test_a_group_dm_is_answered_through_the_interaction_only(
    make_harness: MakeHarness,
) -> None:
    bot = PrivateBot()
    h = await make_harness(bot)
    ana, bo, cy = [await h.member(n) for n in ("Ana", "Bo", "Cy")]
    chat = h.private_channel(ana, bo, cy, group=True)
    reply = await bo.slash("hello", _channel=chat)
    assert reply.text == "hi" and reply.message.channel_id == chat
    assert bot.seen == [(None, False, True, True), 50001]  # the REST send was Missing Access
    with pytest.raises(HarnessError, match="would not offer /server"):
        await ana.slash("server", _channel=chat)
    with pytest.raises(HarnessError, match="not in the private channel"):
        await (await h.member("Dee")).slash("hello", _channel=chat)


async def test_the_dm_with_the_bot_is_context_one(make_harness: MakeHarness) -> None:
    bot = PrivateBot()
    h = await make_harness(bot)
    ana = await h.member("Ana")
    reply = await ana.slash("hello", _channel=h.bot_dm(ana))
    assert reply.text == "hi"
    assert bot.seen == [(None, True, False, True)]
    assert [m.text for m in ana.dms] == ["hi", "and by REST"]  # the bot may post there


async def test_a_press_on_another_members_ephemeral_message_is_never_delivered(
    make_harness: MakeHarness,
) -> None:
    """Issue 31 item 5: Discord shows an ephemeral message to one member, so only that member
    can press its buttons. ``click`` refused another member, but a press built by hand (as
    the hostile-input tests forge theirs) reached the bot; the fake now refuses every press
    and modal on it from anyone else, before the bot sees it."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    pressed: list[str] = []

    class Secret(discord.ui.View):
        @discord.ui.button(label="Mine", custom_id="secret:mine")
        async def mine(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
            pressed.append(interaction.user.name)
            await interaction.response.send_message("yours", ephemeral=True)

    @bot.tree.command(name="secret", description="Something for you alone")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", view=Secret(), ephemeral=True)

    h = await make_harness(bot)
    ana, bo = await h.member("Ana"), await h.member("Bo")
    mine = (await ana.slash("secret")).message
    data = P.component_data("secret:mine", component_type=P.BUTTON)
    for kind in (P.MESSAGE_COMPONENT, P.MODAL_SUBMIT):
        with pytest.raises(HarnessError, match="another member's ephemeral message"):
            await h._interact(bo, kind, data, mine.channel_id, message=mine)  # private: forged
    with pytest.raises(HarnessError, match="cannot see"):
        await bo.click(mine, "Mine")
    assert pressed == [] and not [r for r in h.requests if r.path.endswith("/callback")][1:]
    await h._interact(ana, P.MESSAGE_COMPONENT, data, mine.channel_id, message=mine)
    assert (await ana.click(mine, "Mine")).text == "yours"
    assert pressed == ["Ana", "Ana"]

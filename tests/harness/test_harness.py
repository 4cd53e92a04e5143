"""Tests of the harness itself, against a small toy bot, all through real dispatch."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import struct
import time
import zlib
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import BotErrorLogged, Harness, HarnessError, NoResponse, SettleTimeout
from tests.harness.harness import ANSWER_DEADLINE, BotClock, Unanswered

log = logging.getLogger("tests.toy")


def tiny_png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


PNG = tiny_png()


# --------------------------------------------------------------------------- the toy bot


class ToyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"toy:(?P<game>\d+):(?P<action>[a-z]+)",
):
    """Persistent button: all state needed to answer is in the custom_id (and the store)."""

    def __init__(self, game: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=action.title(),
                custom_id=f"toy:{game}:{action}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game = game
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ToyButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, ToyBot)
        await bot.toy.on_button(interaction, self.game, self.action)


def game_view(game: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("join", "peek", "thread", "name", "board", "boom"):
        view.add_item(ToyButton(game, action))
    return view


def game_embed(game: int, store: dict[str, Any]) -> discord.Embed:
    state = store[f"game:{game}"]
    embed = discord.Embed(
        title=f"Game {game}", description=f"{state['rounds']} rounds, {state['variant']}"
    )
    embed.add_field(name="Players", value=", ".join(state["players"]) or "nobody yet")
    embed.set_footer(text=f"served by bot #{store.get('instance', 1)}")
    return embed


class NameModal(discord.ui.Modal, title="Name your team"):
    team: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Team name", custom_id="team", max_length=20
    )
    motto: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Motto", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Team {self.team.value} ({self.motto.value or 'no motto'})"
        )


class ConfirmView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.answer: bool | None = None

    @discord.ui.button(label="Yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.answer = True
        await interaction.response.edit_message(content="Confirmed.", view=None)
        self.stop()


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="toy-pick",
        placeholder="Pick a colour",
        options=[discord.SelectOption(label=c, value=c.lower()) for c in ("Red", "Blue", "Green")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"Picked {', '.join(select.values)}")


class ExpiringView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=300)
        self.message: discord.InteractionMessage | None = None

    @discord.ui.button(label="Sit down")
    async def sit(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("Seated.", ephemeral=True)

    async def on_timeout(self) -> None:
        if self.message is not None:
            await self.message.edit(content="The table closed.", view=None)


class Toy(commands.Cog):
    toy = app_commands.Group(name="toy", description="A toy game")
    admin = app_commands.Group(name="admin", description="Toy admin", parent=toy)

    def __init__(self, bot: ToyBot) -> None:
        self.bot = bot
        self.store = bot.store

    @toy.command(description="Start a game")
    @app_commands.describe(rounds="How many rounds")
    @app_commands.choices(
        variant=[
            app_commands.Choice(name="Solo", value="solo"),
            app_commands.Choice(name="Team", value="team"),
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 10],
        variant: str = "solo",
    ) -> None:
        game = self.store["next_game"] = self.store.get("next_game", 0) + 1
        self.store[f"game:{game}"] = {"rounds": rounds, "variant": variant, "players": []}
        await interaction.response.send_message(
            embed=game_embed(game, self.store), view=game_view(game)
        )
        await interaction.followup.send(
            f"Good luck, {interaction.user.display_name}!", ephemeral=True
        )
        assert interaction.channel is not None and isinstance(
            interaction.channel, discord.TextChannel
        )
        await interaction.channel.send(f"Game {game} is open: press Join.")

    @toy.command(description="A slow command that defers then edits")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        await interaction.edit_original_response(content="Done thinking.")

    @toy.command(description="Think, then answer with a followup")
    async def roll(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("You rolled 4.")
        await interaction.followup.send("Roll again?")

    @toy.command(description="Send your hand by DM")
    async def hand(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your hand: 3 7 9")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"Open your DMs ({exc.code}).", ephemeral=True)
            return
        await interaction.response.send_message("Sent you your hand.", ephemeral=True)

    @toy.command(description="Close this game thread")
    async def close(self, interaction: discord.Interaction) -> None:
        thread = interaction.channel
        if not isinstance(thread, discord.Thread):
            await interaction.response.send_message("Not a thread.", ephemeral=True)
            return
        await interaction.response.send_message("Closing.")
        await thread.edit(archived=True, locked=True)

    @toy.command(description="Invite someone")
    async def invite(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        where: discord.TextChannel | None = None,
        role: discord.Role | None = None,
    ) -> None:
        place = where.mention if where else "here"
        extra = f" as {role.name}" if role else ""
        await interaction.response.send_message(f"Invited {player.display_name} {place}{extra}")

    @toy.command(description="A notice that deletes itself")
    async def notice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Short-lived notice.", delete_after=30)

    @toy.command(description="Rename via a modal")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @toy.command(description="A table that closes after 5 minutes")
    async def table(self, interaction: discord.Interaction) -> None:
        view = ExpiringView()
        await interaction.response.send_message("Table open.", view=view)
        view.message = await interaction.original_response()

    @toy.command(description="Post text in this channel")
    async def say(self, interaction: discord.Interaction, text: str) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.send(text)
        except discord.Forbidden as exc:
            await interaction.response.send_message(
                f"Cannot post here ({exc.code}).", ephemeral=True
            )
            return
        except discord.NotFound as exc:
            await interaction.response.send_message(
                f"Channel is gone ({exc.code}).", ephemeral=True
            )
            return
        await interaction.response.send_message("Posted.", ephemeral=True)

    @toy.command(description="Open a lobby thread")
    async def lobby(self, interaction: discord.Interaction, name: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread
        )
        await thread.send(f"Welcome to {name}")
        await interaction.response.send_message(f"Lobby {thread.mention}", ephemeral=True)

    @toy.command(description="Confirm something")
    async def confirm(self, interaction: discord.Interaction) -> None:
        view = ConfirmView()
        await interaction.response.send_message("Are you sure?", view=view)
        await view.wait()  # waits for a click: the harness must not wait for this forever
        await interaction.followup.send(f"Answer: {view.answer}")

    @toy.command(description="Pick colours")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose:", view=PickView())

    @toy.command(description="Something happens later")
    async def later(self, interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)

        async def announce() -> None:
            await asyncio.sleep(0.02)
            await channel.send("Later has come.")

        self.bot.spawn(announce())
        await interaction.response.send_message("Wait for it.")

    @toy.command(description="Choose a board")
    async def board(self, interaction: discord.Interaction, layout: str) -> None:
        await interaction.response.send_message(f"Board {layout}")

    @board.autocomplete("layout")
    async def board_layouts(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        layouts = ["classic", "cross", "spiral"]
        return [app_commands.Choice(name=x.title(), value=x) for x in layouts if current in x]

    @admin.command(description="Reset everything (Manage Server)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction, confirm: bool) -> None:
        await interaction.response.send_message(f"Reset (confirm={confirm}).", ephemeral=True)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("You need Manage Server.", ephemeral=True)
            return
        raise error

    async def on_button(self, interaction: discord.Interaction, game: int, action: str) -> None:
        state = self.store.get(f"game:{game}")
        if state is None:
            await interaction.response.send_message("This game is over.", ephemeral=True)
            return
        if action == "join":
            state["players"].append(interaction.user.display_name)
            await interaction.response.edit_message(embed=game_embed(game, self.store))
        elif action == "peek":
            await interaction.response.send_message(
                f"Secret for {interaction.user.display_name}", ephemeral=True
            )
        elif action == "thread":
            await interaction.response.defer()
            assert interaction.message is not None
            thread = await interaction.message.create_thread(name=f"game-{game}")
            await thread.send(f"Game {game} is played here.")
            await interaction.followup.send("Thread opened.", ephemeral=True)
        elif action == "name":
            await interaction.response.send_modal(NameModal())
        elif action == "board":
            await interaction.response.send_message(
                "The board:", file=discord.File(io.BytesIO(PNG), filename="board.png")
            )
        elif action == "boom":
            raise RuntimeError(f"boom in game {game}")


@app_commands.context_menu(name="Toy profile")
async def toy_profile(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"Profile of {member.display_name}", ephemeral=True)


@app_commands.context_menu(name="Toy quote")
async def toy_quote(interaction: discord.Interaction, message: discord.Message) -> None:
    await interaction.response.send_message(f"> {message.content}")


class ToyBot(commands.Bot):
    def __init__(
        self,
        store: dict[str, Any] | None = None,
        *,
        instance: int = 1,
        intents: discord.Intents | None = None,
        **client_options: Any,
    ) -> None:
        super().__init__(
            command_prefix="!", intents=intents or discord.Intents.default(), **client_options
        )
        self.store: dict[str, Any] = {} if store is None else store
        self.store["instance"] = instance
        self.background: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    @property
    def toy(self) -> Toy:
        cog = self.get_cog("Toy")
        assert isinstance(cog, Toy)
        return cog

    async def setup_hook(self) -> None:
        await self.add_cog(Toy(self))
        self.tree.add_command(toy_profile)
        self.tree.add_command(toy_quote)
        self.add_dynamic_items(ToyButton)


@pytest.fixture
async def h(make_harness: MakeHarness) -> Harness:
    return await make_harness(ToyBot())


# --------------------------------------------------------------------------- tests


async def test_slash_command_group_with_options_posts_persistent_buttons(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy start", rounds=3, variant="team")

    assert reply.response_type == 4
    assert not reply.ephemeral
    assert reply.embeds[0]["title"] == "Game 1"
    assert "3 rounds, team" in reply.embed_text()
    assert "Players: nobody yet" in reply.text
    assert [b.label for b in reply.buttons] == ["Join", "Peek", "Thread", "Name", "Board", "Boom"]
    assert reply.message.button("Join").custom_id == "toy:1:join"
    assert reply.message.author_id == h.bot.user.id  # type: ignore[union-attr]


async def test_followup_and_channel_send_are_recorded_in_order(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy start", rounds=2)

    [followup] = reply.followups
    assert followup.content == "Good luck, Alice!"
    assert followup.ephemeral and followup.visible_to == alice.id
    assert [m.content for m in reply.sent] == ["Game 1 is open: press Join."]
    assert [m.text.splitlines()[0] for m in h.messages(h.channel)] == [
        "Game 1",
        "Good luck, Alice!",
        "Game 1 is open: press Join.",
    ]
    assert h.last_message(h.channel).content == "Game 1 is open: press Join."


async def test_click_updates_message_in_place_and_keeps_history(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob")
    game = (await alice.slash("toy start", rounds=3)).message

    await alice.click(game, "Join")
    reply = await bob.click(game, custom_id="toy:1:join")

    assert reply.response_type == 7
    assert reply.message == game
    assert "Players: Alice, Bob" in game.embed_text()
    assert len(game.history) == 2
    assert "nobody yet" in game.history[0]["embeds"][0]["fields"][0]["value"]


async def test_latency_delays_every_call_and_answered_at_times_the_callback(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=3)).message
    h.set_latency(0.03)
    loop = asyncio.get_running_loop()
    started = loop.time()
    clicked = time.perf_counter()
    reply = await alice.click(game, "Join")
    assert loop.time() - started >= 0.03
    assert reply.answered_at is not None and reply.answered_at - clicked >= 0.03
    h.set_latency(0)
    assert (await alice.click(game, "Peek")).answered_at is not None


async def test_ephemeral_reply_visible_only_to_clicker(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob")
    game = (await alice.slash("toy start", rounds=3)).message

    reply = await bob.click(game, "Peek")

    assert reply.ephemeral and reply.content == "Secret for Bob"
    assert reply.message in h.visible_to(bob)
    assert reply.message not in h.visible_to(alice)
    with pytest.raises(HarnessError, match="cannot see"):
        await alice.click(reply.message, "Anything")


async def test_deferred_then_edit_original_response(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy slow")

    assert reply.response_type == 5 and reply.deferred
    assert reply.content == "Done thinking."
    assert not reply.message.loading
    assert reply.message.edited


async def test_thread_from_message_and_post_in_it(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message

    reply = await alice.click(game, "Thread")

    assert reply.response_type == 6
    assert reply.content == "Thread opened." and reply.ephemeral
    thread = h.thread("game-1")
    assert thread.id == game.id  # a thread started from a message shares its id
    assert h.bot.get_channel(thread.id) is thread
    assert game.thread is thread
    assert [m.content for m in h.messages(thread)] == ["Game 1 is played here."]
    # Buttons are clickable in the thread too (channel taken from the message).
    await thread.send("a board", view=game_view(1))
    await h.settle()
    in_thread = h.last_message(thread)
    assert (await alice.click(in_thread, "Peek")).content == "Secret for Alice"


async def test_thread_without_message_via_slash(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy lobby", name="Lobby 1")

    thread = h.thread("Lobby 1")
    assert thread.type is discord.ChannelType.public_thread
    assert reply.content == f"Lobby <#{thread.id}>"
    assert h.last_message(thread).content == "Welcome to Lobby 1"


async def test_modal_round_trip(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message

    opened = await alice.click(game, "Name")
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal.title == "Name your team"
    assert opened.modal.labels == ["Team name", "Motto"]
    with pytest.raises(NoResponse, match="modal"):
        _ = opened.message

    reply = await alice.submit_modal({"Team name": "Owls"})
    assert reply.content == "Team Owls (no motto)"


async def test_modal_required_field_enforced(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message
    await alice.click(game, "Name")
    with pytest.raises(ValueError, match="required"):
        await alice.submit_modal({"motto": "hoot"})


async def test_file_attachment_bytes_are_stored(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message

    reply = await alice.click(game, "Board")

    [png] = reply.files
    assert png.filename == "board.png" and png.content_type == "image/png"
    assert png.data == PNG and png.data.startswith(b"\x89PNG")
    fetched = await h.channel.fetch_message(reply.message.id)
    assert await fetched.attachments[0].read() == PNG


async def test_select_menu_on_a_view_bound_by_response_message_id(h: Harness) -> None:
    alice = await h.member("Alice")
    menu = (await alice.slash("toy pick")).message
    assert menu.selects[0].values == ["red", "blue", "green"]

    reply = await alice.select(menu, ["red", "green"])

    assert reply.content == "Picked red, green"
    with pytest.raises(HarnessError, match="not options"):
        await alice.select(menu, ["purple"])


async def test_view_wait_in_command_does_not_block_and_resumes_on_click(h: Harness) -> None:
    alice = await h.member("Alice")
    asked = await alice.slash("toy confirm")
    assert asked.content == "Are you sure?"
    assert asked.followups == []

    reply = await alice.click(asked.message, "Yes")

    assert reply.content == "Confirmed." and reply.buttons == []
    # The command resumed after view.wait() and answered through its own interaction.
    assert [m.content for m in asked.followups] == ["Answer: True"]
    assert reply.created == []  # attributed to the slash command, not to the click


async def test_settle_waits_for_background_tasks_the_bot_spawns(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy later")
    assert reply.content == "Wait for it."
    assert h.last_message().content == "Later has come."


async def test_settle_times_out_on_a_stuck_task(h: Harness) -> None:
    stuck = asyncio.Event()

    async def wait_forever() -> None:
        await stuck.wait()

    task = asyncio.create_task(wait_forever(), name="toy-stuck")
    with pytest.raises(SettleTimeout, match="toy-stuck"):
        await h.settle(timeout=0.05)
    h.ignore_tasks("toy-stuck")
    await h.settle()
    task.cancel()


async def test_autocomplete_choices(h: Harness) -> None:
    alice = await h.member("Alice")
    choices = await alice.autocomplete("toy board", "layout", "cr")
    assert choices == [{"name": "Cross", "value": "cross"}]


async def test_subcommand_group_and_member_permissions(h: Harness) -> None:
    alice = await h.member("Alice")
    admin = await h.member("Admin", manage_guild=True)

    refused = await alice.slash("toy admin reset", confirm=True)
    allowed = await admin.slash("toy admin reset", confirm=True)

    assert refused.ephemeral and refused.content == "You need Manage Server."
    assert allowed.content == "Reset (confirm=True)."


async def test_options_are_checked_against_the_real_signature(h: Harness) -> None:
    alice = await h.member("Alice")
    with pytest.raises(TypeError, match="has no option"):
        await alice.slash("toy start", rounds=1, colour="red")
    with pytest.raises(TypeError, match="integer"):
        await alice.slash("toy start", rounds="3")
    with pytest.raises(TypeError, match="requires option 'rounds'"):
        await alice.slash("toy start")
    with pytest.raises(ValueError, match="above max_value"):
        await alice.slash("toy start", rounds=11)
    with pytest.raises(ValueError, match="not one of the choices"):
        await alice.slash("toy start", rounds=1, variant="duo")
    with pytest.raises(LookupError, match="has no 'stop'"):
        await alice.slash("toy stop")


async def test_unvalidated_values_reach_the_command(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy start", rounds=1, variant="duo", _validate=False)
    assert "1 rounds, duo" in reply.embed_text()


async def test_error_in_callback_fails_the_interaction(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message

    with pytest.raises(BotErrorLogged, match="boom in game 1"):
        await alice.click(game, "Boom")


async def test_expected_errors_can_be_allowed(h: Harness) -> None:
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message

    with h.expect_errors("boom") as records, h.expect_unanswered():
        reply = await alice.click(game, "Boom")
    assert reply.failed
    assert "RuntimeError" in repr(records[0].exc_info)
    with pytest.raises(NoResponse, match="never acknowledged"):
        _ = reply.content


async def test_error_log_from_bot_logger_fails_too(h: Harness) -> None:
    log.error("the toy store is corrupt")
    with pytest.raises(BotErrorLogged, match="corrupt"):
        await h.settle()


async def test_fault_injection_403_on_channel_send(h: Harness) -> None:
    alice = await h.member("Alice")
    h.fail_next("POST", r"/channels/\d+/messages$", 403)

    reply = await alice.slash("toy say", text="hello")

    assert reply.content == "Cannot post here (50013)."
    assert h.requests[-2].failed_with == 403
    assert (await alice.slash("toy say", text="hello")).content == "Posted."
    assert h.last_message().content == "Posted."


async def test_fault_injection_404_with_code(h: Harness) -> None:
    alice = await h.member("Alice")
    h.fail_next("POST", "/messages", 404, 10003)
    reply = await alice.slash("toy say", text="hello")
    assert reply.content == "Channel is gone (10003)."


async def test_fault_on_interaction_callback_surfaces_as_logged_error(h: Harness) -> None:
    alice = await h.member("Alice")
    h.fail_next("POST", r"/interactions/.*/callback", 404, 10062)
    with pytest.raises(BotErrorLogged, match="10062"):
        await alice.slash("toy slow")


async def test_real_permission_missing_gives_403(h: Harness) -> None:
    alice = await h.member("Alice")
    await h.set_bot_permissions(send_messages=False)
    reply = await alice.slash("toy say", text="hello")
    assert reply.content == "Cannot post here (50013)."


async def test_expired_interaction_token(h: Harness) -> None:
    alice = await h.member("Alice")
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    h.bot.add_listener(on_interaction)
    reply = await alice.slash("toy slow")
    h.expire_interactions()  # 15 minutes later

    with pytest.raises(discord.HTTPException) as err:
        await seen[0].edit_original_response(content="late")

    assert err.value.status == 401 and err.value.code == 50027
    assert reply.content == "Done thinking."


async def test_restart_second_instance_answers_click_on_old_message(
    make_harness: MakeHarness,
) -> None:
    store: dict[str, Any] = {}
    h = await make_harness(ToyBot(store))
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=4)).message
    await alice.click(game, "Join")
    old_bot = h.bot

    await h.restart(ToyBot(store, instance=2))

    assert old_bot.is_closed()
    assert h.bot is not old_bot
    bob = await h.member("Bob")
    reply = await bob.click(game, "Join")
    assert reply.message == game
    assert "Players: Alice, Bob" in game.embed_text()
    assert "served by bot #2" in game.embed_text()
    # No members intent: the new instance caches no member, as in Discord; Alice's clicks
    # and commands still reach it with her member data (her start below).
    assert h.guild.get_member(alice.id) is None
    # Slash commands reach the new instance as well.
    assert (await alice.slash("toy start", rounds=1)).embeds[0]["title"] == "Game 2"


class ShardedToyBot(ToyBot, commands.AutoShardedBot):
    """The toy bot as one process of a sharded bot (``shard_count``, ``shard_ids``)."""


SHARD_1_OF_2 = (4321 << 22) | 7  # (id >> 22) % 2 == 1


async def test_a_sharded_bot_answers_slash_and_clicks_and_restarts(
    make_harness: MakeHarness,
) -> None:
    store: dict[str, Any] = {}
    h = await make_harness(
        ShardedToyBot(store, shard_count=2, shard_ids=[1]), guild_id=SHARD_1_OF_2
    )
    assert isinstance(h.bot, discord.AutoShardedClient)
    assert h.guild.id == SHARD_1_OF_2 and h.guild.shard_id == 1
    alice, bob = await h.member("Alice"), await h.member("Bob")
    game = (await alice.slash("toy start", rounds=3)).message
    reply = await bob.click(game, "Join")
    assert reply.response_type == 7 and "Players: Bob" in game.embed_text()

    await h.restart(ShardedToyBot(store, instance=2, shard_count=2, shard_ids=[1]))
    assert h.guild.shard_id == 1
    await alice.click(game, "Join")
    assert "Players: Bob, Alice" in game.embed_text() and "bot #2" in game.embed_text()


async def test_a_sharded_bot_is_refused_a_guild_of_another_shard(
    make_harness: MakeHarness,
) -> None:
    with pytest.raises(HarnessError, match="on shard 1 of 2, which this bot does not run"):
        await make_harness(ShardedToyBot({}, shard_count=2, shard_ids=[0]), guild_id=SHARD_1_OF_2)


async def test_restart_keeps_threads(make_harness: MakeHarness) -> None:
    store: dict[str, Any] = {}
    h = await make_harness(ToyBot(store))
    alice = await h.member("Alice")
    game = (await alice.slash("toy start", rounds=1)).message
    await alice.click(game, "Thread")

    await h.restart(ToyBot(store, instance=2))

    thread = h.bot.get_channel(game.id)
    assert isinstance(thread, discord.Thread)
    await thread.send("still here")
    await h.settle()
    assert h.last_message(thread).content == "still here"


async def test_on_message_user_messages_and_gateway_echo(h: Harness) -> None:
    seen: list[str] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(f"{message.author.name}: {message.content}")

    h.bot.add_listener(on_message)
    alice = await h.member("Alice")
    await alice.send("hello bot")
    await alice.slash("toy say", text="hi")
    # The ephemeral "Posted." is not echoed through the gateway, as on Discord.
    assert seen == ["Alice: hello bot", "FakeApp: hi"]


async def test_unknown_route_fails_loudly(h: Harness) -> None:
    with pytest.raises(NotImplementedError, match="no route"):
        await h.bot.http.request(
            discord.http.Route("POST", "/guilds/{guild_id}/emojis", guild_id=1)
        )


async def test_ordinary_rest_edit_fetch_delete(h: Harness) -> None:
    sent = await h.channel.send("v1", view=game_view(7))
    await sent.edit(content="v2", attachments=[discord.File(io.BytesIO(PNG), "b.png")])
    await h.settle()
    stored = h.message(sent.id)
    assert stored.content == "v2" and stored.history[0]["content"] == "v1"
    assert [a.filename for a in stored.attachments] == ["b.png"]
    assert stored.buttons[0].custom_id == "toy:7:join"
    fetched = await h.channel.fetch_message(sent.id)
    assert fetched.content == "v2"
    await fetched.delete()
    with pytest.raises(discord.NotFound):
        await h.channel.fetch_message(sent.id)
    assert h.messages(h.channel) == []
    assert h.messages(h.channel, include_deleted=True)[0].deleted


async def test_thinking_defer_then_followups(h: Harness) -> None:
    alice = await h.member("Alice")
    reply = await alice.slash("toy roll")

    assert reply.response_type == 5
    # The first followup replaces the "thinking" message and keeps its ephemerality.
    assert reply.content == "You rolled 4." and reply.ephemeral
    assert [m.content for m in reply.followups] == ["You rolled 4.", "Roll again?"]
    assert not reply.followups[1].ephemeral
    assert len(h.messages()) == 2


async def test_simultaneous_clicks(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob")
    game = (await alice.slash("toy start", rounds=2)).message

    r1, r2 = await h.together(alice.click(game, "Join"), bob.click(game, "Peek"))

    assert r1.response_type == 7 and r1.edited == [game]
    assert r2.content == "Secret for Bob" and r2.created == [r2.message]
    assert "Players: Alice" in game.embed_text()


async def test_dm_and_blocked_dms(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob")
    assert (await alice.slash("toy hand")).content == "Sent you your hand."
    assert [m.content for m in alice.dms] == ["Your hand: 3 7 9"]
    assert alice.dms[0] in h.visible_to(alice) and alice.dms[0] not in h.visible_to(bob)

    h.block_dms(bob)
    assert (await bob.slash("toy hand")).content == "Open your DMs (50007)."
    assert bob.dms == []


async def test_user_and_message_context_menus(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob")
    reply = await alice.context_menu("Toy profile", bob)
    assert reply.content == "Profile of Bob" and reply.ephemeral

    said = await bob.send("sequences are fun")
    quoted = await alice.context_menu("Toy quote", said)
    assert quoted.content == "> sequences are fun"


async def test_role_and_permission_overwrite_for_members(h: Harness) -> None:
    mods = await h.role("Mods", manage_guild=True)
    carol = await h.member("Carol", roles=[mods])
    assert (await carol.slash("toy admin reset", confirm=False)).content == "Reset (confirm=False)."
    await h.set_permissions(mods, manage_guild=False)
    assert (
        await carol.slash("toy admin reset", confirm=False)
    ).content == "You need Manage Server."


async def test_slash_in_a_thread_and_archiving(h: Harness) -> None:
    alice = await h.member("Alice")
    await alice.slash("toy lobby", name="Table 1")
    thread = h.thread("Table 1")

    reply = await alice.slash("toy close", _channel=thread)

    assert reply.content == "Closing." and reply.message.channel_id == thread.id
    closed = h.thread("Table 1")
    assert closed.archived and closed.locked
    with pytest.raises(discord.Forbidden):
        await closed.send("too late")


async def test_restart_loses_non_persistent_views(make_harness: MakeHarness) -> None:
    store: dict[str, Any] = {}
    h = await make_harness(ToyBot(store))
    alice = await h.member("Alice")
    menu = (await alice.slash("toy pick")).message

    await h.restart(ToyBot(store, instance=2))

    with h.expect_unanswered():
        reply = await alice.select(menu, ["red"])
    assert reply.failed  # the View lived in the old process: "This interaction failed"


async def test_tree_sync_is_accepted_and_schema_checked(h: Harness) -> None:
    synced = await h.bot.tree.sync()
    assert sorted(c.name for c in synced) == ["Toy profile", "Toy quote", "toy"]

    @app_commands.command(name="bad", description="x" * 101)
    async def bad(interaction: discord.Interaction) -> None: ...

    h.bot.tree.add_command(bad)
    with h.expect_rejected("PUT commands"), pytest.raises(discord.HTTPException) as err:
        await h.bot.tree.sync()
    assert (err.value.status, err.value.code) == (400, 50035)
    assert "bad: description must be 1-100 characters" in str(err.value.__cause__ or err.value.text)


def test_error_collector_used_by_fail_on_error_logs() -> None:
    from tests.harness.harness import DEFAULT_ERROR_LOGGERS, ErrorCollector

    collector = ErrorCollector(DEFAULT_ERROR_LOGGERS)
    collector.install()
    try:
        logging.getLogger("discord.ui.view").error("ignored exception")
        logging.getLogger("bot.games").warning("only a warning")
        logging.getLogger("unrelated").error("not ours")
    finally:
        collector.uninstall()
    records = collector.take()
    assert [r.getMessage() for r in records] == ["ignored exception"]
    with pytest.raises(BotErrorLogged, match="ignored exception"):
        raise BotErrorLogged(records)


async def test_member_channel_and_role_options_are_resolved(h: Harness) -> None:
    alice, bob = await h.member("Alice"), await h.member("Bob", nick="Bobby")
    mods = await h.role("Mods")
    reply = await alice.slash("toy invite", player=bob, where=h.channel, role=mods)
    assert reply.content == f"Invited Bobby <#{h.channel.id}> as Mods"


async def test_long_sleeps_such_as_delete_after_do_not_block_settle(h: Harness) -> None:
    alice = await h.member("Alice")
    loop = asyncio.get_running_loop()
    started = loop.time()
    reply = await alice.slash("toy notice")
    assert loop.time() - started < 0.5
    assert reply.content == "Short-lived notice." and not reply.message.deleted


async def test_modal_from_slash_command(h: Harness) -> None:
    alice = await h.member("Alice")
    opened = await alice.slash("toy rename")
    reply = await alice.submit_modal({"team": "Larks", "Motto": "sing"}, modal=opened)
    assert reply.response_type == 4 and reply.content == "Team Larks (sing)"
    with pytest.raises(HarnessError, match="has not shown"):
        await alice.submit_modal({"team": "again"})


async def test_rest_history_fetch_channel_and_bulk_delete(h: Harness) -> None:
    alice = await h.member("Alice")
    await alice.slash("toy lobby", name="T")
    thread = h.thread("T")
    fetched = await h.bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.name == "T"

    for text in ("one", "two", "three"):
        await h.channel.send(text)
    history = [m.content async for m in h.channel.history(limit=2)]
    assert history == ["three", "two"]  # newest first, ephemeral replies excluded

    ids = [m.id for m in h.messages(h.channel) if m.content in ("one", "two")]
    with pytest.raises(discord.Forbidden):  # needs Manage Messages
        await h.channel.delete_messages([discord.Object(i) for i in ids])
    await h.set_bot_permissions(manage_messages=True)
    await h.channel.delete_messages([discord.Object(i) for i in ids])
    assert [m.content for m in h.messages(h.channel, ephemeral=False)] == ["three"]


async def test_bot_cannot_edit_a_members_message(h: Harness) -> None:
    alice = await h.member("Alice")
    said = await alice.send("my message")
    message = await h.channel.fetch_message(said.id)
    with pytest.raises(discord.Forbidden) as err:
        await message.edit(content="changed")
    assert err.value.code == 50005


async def test_expire_views_runs_on_timeout(h: Harness) -> None:
    alice = await h.member("Alice")
    table = (await alice.slash("toy table")).message
    assert (await alice.click(table, "Sit down")).content == "Seated."

    assert await h.expire_views() == 1

    assert table.content == "The table closed." and table.buttons == []
    assert table.history[-1]["components"]  # the buttons were there before


async def test_with_privileged_intents_members_are_cached(make_harness: MakeHarness) -> None:
    h = await make_harness(ToyBot(intents=discord.Intents.all()), channels=("lobby", "games"))
    alice = await h.member("Alice", nick="Al")
    assert h.guild.get_member(alice.id) is alice.member
    assert [c.name for c in h.guild.text_channels] == ["lobby", "games"]
    reply = await alice.slash("toy say", text="hi", _channel="games")
    assert reply.content == "Posted."
    assert h.last_message("games").content == "Posted."  # ephemeral messages are stored too
    assert h.last_message("games", ephemeral=False).content == "hi"
    assert h.messages("lobby") == []


# --------------------------------------------------------------------------- the deadline

# How each deliberately wrong (or right) handler of the slow bot answers.
SLOW_MODES = ("silent", "sleepy", "stepped", "patient", "quick")


async def answer_slowly(interaction: discord.Interaction, mode: str) -> None:
    """``silent`` never answers; ``sleepy`` answers after one awaited sleep of 30 s (which
    the settle counts as idle; long after the test is over, so its late answer never races
    the teardown: with 3.5 s, a loaded machine let it wake and log its 10062 first);
    ``stepped`` after 3.5 s of work in short steps, the loop yielding between them (which
    the settle waits for); ``patient`` after one sleep of 1 s (in time); ``quick`` at once.

    A step blocks the loop's thread (``time.sleep``), as CPU-bound work does: short awaited
    sleeps were measured as 2.7 s of the bot's time in 2 of 15 runs under ``-n 2`` on a
    loaded machine, most likely because the run-queue wait the bot's clock subtracts also
    overlapped those sleeps (the loop woken early by other tasks, then kept waiting for a
    CPU until past the sleep's end)."""
    if mode == "silent":
        return
    if mode == "sleepy":
        await asyncio.sleep(30.0)
    elif mode == "stepped":
        for _ in range(35):
            time.sleep(0.1)  # the bot's own work (deliberately slow)
            await asyncio.sleep(0)
    elif mode == "patient":
        await asyncio.sleep(1.0)
    await interaction.response.send_message(f"{mode} answer", ephemeral=True)


class SlowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"slow:(?P<mode>[a-z]+)"):
    def __init__(self, mode: str) -> None:
        super().__init__(discord.ui.Button(label=mode.title(), custom_id=f"slow:{mode}"))
        self.mode = mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SlowButton:
        return cls(match["mode"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_slowly(interaction, self.mode)


slow_group = app_commands.Group(name="slow", description="Answers slowly, or never")


@slow_group.command(name="run", description="Answer as the mode says")
@app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in SLOW_MODES])
async def slow_run(interaction: discord.Interaction, mode: str) -> None:
    await answer_slowly(interaction, mode)


@slow_group.command(name="buttons", description="A button per mode")
async def slow_buttons(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    for mode in SLOW_MODES:
        view.add_item(SlowButton(mode))
    await interaction.response.send_message("Pick one.", view=view)


class SlowBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.tree.add_command(slow_group)
        self.add_dynamic_items(SlowButton)


@pytest.fixture
async def slow(make_harness: MakeHarness, monkeypatch: pytest.MonkeyPatch) -> Harness:
    monkeypatch.delenv("HARNESS_ANSWERS", raising=False)  # the check fails, never records
    # "stepped" keeps a task busy for 3.5 s: the settle must wait that long for it.
    return await make_harness(SlowBot(), settle_timeout=10)


async def test_a_command_the_bot_never_answers_fails_naming_it(slow: Harness) -> None:
    alice = await slow.member("Alice")
    with pytest.raises(Unanswered, match=r"- /slow run: not answered"):
        await alice.slash("slow run", mode="silent")


async def test_a_button_the_bot_never_answers_fails_naming_it(slow: Harness) -> None:
    alice = await slow.member("Alice")
    menu = await alice.slash("slow buttons")
    with pytest.raises(Unanswered, match=r"- button 'Silent' \(slow:silent\): not answered"):
        await alice.click(menu, "Silent")


async def test_an_answer_after_a_long_sleep_fails(slow: Harness) -> None:
    alice = await slow.member("Alice")
    menu = await alice.slash("slow buttons")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(Unanswered, match=r"button 'Sleepy' \(slow:sleepy\): not answered"):
        await alice.click(menu, "Sleepy")
    # The settle counts the long sleep as idle; the check waited out the deadline.
    assert loop.time() - started >= ANSWER_DEADLINE


async def test_an_answer_after_3_5_s_of_work_is_refused_and_fails(slow: Harness) -> None:
    alice = await slow.member("Alice")
    with pytest.raises(Unanswered, match=r"/slow run: answered after 3\.\d\d s, refused \(10062\)"):
        await alice.slash("slow run", mode="stepped")
    # Discord refused the late callback: nothing was posted.
    assert slow.messages() == []


async def test_an_answer_within_the_deadline_passes_even_after_a_long_sleep(
    slow: Harness,
) -> None:
    alice = await slow.member("Alice")
    menu = await alice.slash("slow buttons")
    reply = await alice.click(menu, "Patient")
    assert reply.content == "patient answer"
    # The second of sleep is the bot's time (less what a loaded machine took from it).
    assert reply.answer_seconds is not None and 0.5 < reply.answer_seconds < ANSWER_DEADLINE
    quick = await alice.slash("slow run", mode="quick")
    assert quick.answer_seconds is not None and quick.answer_seconds < 0.5


async def test_only_the_unanswered_one_of_two_together_is_named(slow: Harness) -> None:
    alice, bob = await slow.member("Alice"), await slow.member("Bob")
    menu = await alice.slash("slow buttons")
    with pytest.raises(Unanswered, match=r"^1 interaction.*\n- button 'Silent'[^\n]*$"):
        await slow.together(alice.click(menu, "Quick"), bob.click(menu, "Silent"))


async def test_a_test_may_say_it_leaves_an_interaction_unanswered(slow: Harness) -> None:
    alice = await slow.member("Alice")
    menu = await alice.slash("slow buttons")
    with slow.expect_unanswered() as unanswered:
        silent = await alice.click(menu, "Silent")
        await alice.click(menu, "Quick")
    assert unanswered == [silent] and silent.failed
    with (
        pytest.raises(HarnessError, match="expected an unanswered interaction"),
        slow.expect_unanswered(),
    ):
        await alice.click(menu, "Quick")


async def test_the_bot_clock_leaves_out_time_spent_waiting_for_a_cpu(
    tmp_path: Any,
) -> None:
    schedstat = tmp_path / "schedstat"
    schedstat.write_text("100 0 1\n")
    clock = BotClock(asyncio.get_running_loop())
    clock._path = str(schedstat)
    before = clock()
    # 0.2 s pass on the loop's clock, 5 s of which the thread (say) waited for a CPU.
    await asyncio.sleep(0.2)
    schedstat.write_text(f"100 {5 * 10**9} 2\n")
    assert clock() - before == pytest.approx(0.2 - 5, abs=0.15)
    # Where the OS has no such file, the clock is the loop's.
    clock._path = None
    start, loop_start = clock(), clock.loop.time()
    assert clock() - start == pytest.approx(clock.loop.time() - loop_start, abs=0.01)


async def test_several_servers_each_with_its_members_channels_and_threads(
    make_harness: MakeHarness,
) -> None:
    """``more_guilds``: servers beside the first, each with the same channels; a member acts
    in their own server (its interactions carry its id), a thread belongs to the server of
    its channel, and a member may act in a server only once they are in it."""
    h = await make_harness(ToyBot(), more_guilds=("North", "South"))
    first, north, south = h.guilds
    assert [g.name for g in h.guilds] == ["Test Guild", "North", "South"]
    assert {g.text_channels[0].name for g in h.guilds} == {"general"}
    alice = await h.member("Alice")
    nora = await h.member("Nora", guild="North")
    assert nora.guild_id == north.id and nora.member.guild.id == north.id
    game = (await nora.slash("toy start", rounds=1)).message
    assert game.channel_id == north.text_channels[0].id
    await nora.click(game, "Thread")
    [thread] = h.threads_of(north)
    assert thread.guild.id == north.id and h.threads_of(first) == []
    assert game.thread is thread and h.bot.get_channel(thread.id) is thread
    peek = (await nora.click(game, "Peek")).message
    assert peek.ephemeral and peek.content == "Secret for Nora"
    with pytest.raises(HarnessError, match="not in the server"):
        await alice.slash("toy start", rounds=1, _channel=north.text_channels[0])
    await h.add_to_guild(alice, south, nick="Ally")
    there = await alice.slash("toy start", rounds=1, _channel=south.text_channels[0])
    assert there.message.channel_id == south.text_channels[0].id
    joined = await alice.click(there.message, "Join")
    assert "Ally" in joined.embed_text()  # her name in that server
    assert alice.member_in(south).display_name == "Ally" and alice.member.display_name == "Alice"
    home = await alice.slash("toy start", rounds=1)
    assert home.message.channel_id == h.channel.id

"""The fake Discord refuses what real Discord would: oversized messages and pings.

A toy bot sends a chosen payload by every route a message can take (interaction response,
update, followup, edit of the response, channel send, message edit) and swallows the
HTTPException: the harness must still fail the test, naming the limit.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import Harness, HarnessError, MessageRejected
from tests.harness import payloads as P


def _embed(**fields: Any) -> discord.Embed:
    return discord.Embed(**fields)


def _with_fields(n: int, value: str = "v", name: str = "n") -> discord.Embed:
    embed = discord.Embed(title="t")
    for _ in range(n):
        embed.add_field(name=name, value=value)
    return embed


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# Each maker gives send/edit keyword arguments that break exactly one limit, and the words
# the refusal must use to name it.
BAD: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "content": (lambda: {"content": "x" * 2001}, "message content holds at most 2,000"),
    "title": (lambda: {"embed": _embed(title="t" * 257)}, "title holds at most 256"),
    "description": (
        lambda: {"embed": _embed(description="d" * 4097)},
        "description holds at most 4,096",
    ),
    "field_value": (
        lambda: {"embed": _with_fields(1, value="v" * 1025)},
        r"fields\[0\].value is 1,025 characters; a field value holds at most 1,024",
    ),
    "field_name": (
        lambda: {"embed": _with_fields(1, name="n" * 257)},
        "field name holds at most 256",
    ),
    "fields": (lambda: {"embed": _with_fields(26)}, "26 fields; an embed holds at most 25"),
    "footer": (
        lambda: {"embed": _embed(title="t").set_footer(text="f" * 2049)},
        "footer holds at most 2,048",
    ),
    "author": (
        lambda: {"embed": _embed(title="t").set_author(name="a" * 257)},
        "author name holds at most 256",
    ),
    "total": (
        lambda: {"embeds": [_embed(description="d" * 3000), _embed(description="d" * 3001)]},
        "embeds total 6,001 characters",
    ),
    "label": (
        lambda: {"view": _view(discord.ui.Button(label="L" * 81, custom_id="ok"))},
        "button label holds at most 80",
    ),
    "custom_id": (
        lambda: {"view": _view(discord.ui.Button(label="ok", custom_id="c" * 101))},
        "custom_id holds at most 100",
    ),
    "options": (
        lambda: {
            "view": _view(
                discord.ui.Select(
                    custom_id="pick",
                    options=[discord.SelectOption(label=str(i)) for i in range(26)],
                )
            )
        },
        "26 options; a select holds at most 25",
    ),
    "duplicate_ids": (
        lambda: {
            "view": _view(
                discord.ui.Button(label="A", custom_id="same"),
                discord.ui.Button(label="B", custom_id="same"),
            )
        },
        "custom_id 'same' is used by 2 components",
    ),
    "empty": (lambda: {"content": ""}, "the message would be empty"),
    "field_name_empty": (
        lambda: {"embed": _with_fields(1, name="")},
        r"fields\[0\].name is empty",
    ),
    "field_value_empty": (
        lambda: {"embed": _with_fields(1, value=" ")},
        r"fields\[0\].value is empty",
    ),
    "select_no_options": (
        lambda: {"view": _view(discord.ui.Select(custom_id="pick", options=[]))},
        "has no options; a string select needs at least 1",
    ),
    "select_min_values": (
        lambda: {
            "view": _view(
                discord.ui.Select(
                    custom_id="pick",
                    min_values=3,
                    max_values=3,
                    options=[discord.SelectOption(label=str(i)) for i in range(2)],
                )
            )
        },
        r"min_values 3 is above its 2 option\(s\)",
    ),
    "everyone": (
        lambda: {"content": "Hello @everyone", "allowed_mentions": None},
        "would ping @everyone",
    ),
    "here": (
        lambda: {
            "content": "Hello @here",
            "allowed_mentions": discord.AllowedMentions(users=True),  # everyone: unset = True
        },
        "would ping @here",
    ),
    "role": (
        lambda: {
            "content": "Hello <@&123456>",
            "allowed_mentions": discord.AllowedMentions(everyone=False, users=True),
        },
        r"would ping the role\(s\) <@&123456>",
    ),
}
GOOD: dict[str, Callable[[], dict[str, Any]]] = {
    "at_limits": lambda: {
        "content": "x" * 2000,
        "embeds": [
            _embed(title="t" * 256, description="d" * 3000).add_field(
                name="n" * 256, value="v" * 1024
            ),
            _embed(description="d" * (6000 - 256 - 3000 - 256 - 1024)),
        ],
    },
    "quiet_pings": lambda: {
        "content": "Hello @everyone, @here and <@&123456>",
        "allowed_mentions": discord.AllowedMentions.none(),
    },
    "embed_mentions": lambda: {"embed": _embed(description="@everyone <@&1>")},  # never ping
}


def payload(what: str) -> dict[str, Any]:
    kwargs = GOOD[what]() if what in GOOD else BAD[what][0]()
    if kwargs.get("allowed_mentions", False) is None:
        kwargs.pop("allowed_mentions")  # no allowed_mentions at all
    return kwargs


class Limits(commands.Cog):
    lim = app_commands.Group(name="lim", description="Send a payload by some route")

    @lim.command(description="Answer with it")
    async def reply(self, interaction: discord.Interaction, what: str) -> None:
        # Each route swallows the 400: the harness must still fail the test.
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(**payload(what))

    @lim.command(description="Defer, then a followup")
    async def followup(self, interaction: discord.Interaction, what: str) -> None:
        await interaction.response.defer()
        try:
            await interaction.followup.send(**payload(what))
        except discord.HTTPException:
            await interaction.followup.send("It failed.")

    @lim.command(description="Answer, then edit the answer")
    async def edit(self, interaction: discord.Interaction, what: str) -> None:
        await interaction.response.send_message("Soon.")
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(**payload(what))

    @lim.command(description="Post in the channel")
    async def post(self, interaction: discord.Interaction, what: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        with contextlib.suppress(discord.HTTPException):
            await interaction.channel.send(**payload(what))
        await interaction.response.send_message("Done.", ephemeral=True)

    @lim.command(description="Post in the channel, then edit that message")
    async def repost(self, interaction: discord.Interaction, what: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Soon.")
        with contextlib.suppress(discord.HTTPException):
            await message.edit(**payload(what))
        await interaction.response.send_message("Done.", ephemeral=True)

    @lim.command(description="A button that updates its message with it")
    async def button(self, interaction: discord.Interaction, what: str) -> None:
        view = discord.ui.View(timeout=None)
        press: discord.ui.Button[Any] = discord.ui.Button(label="Update")

        async def update(inter: discord.Interaction) -> None:
            kwargs = payload(what)
            kwargs.setdefault("view", None)
            with contextlib.suppress(discord.HTTPException):
                await inter.response.edit_message(**kwargs)

        press.callback = update  # type: ignore[method-assign]
        view.add_item(press)
        await interaction.response.send_message("Press it.", view=view)

    @lim.command(description="Offer autocomplete choices")
    async def choose(self, interaction: discord.Interaction, pick: str) -> None:
        await interaction.response.send_message(pick)

    @choose.autocomplete("pick")
    async def choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"{current}{i}", value=str(i)) for i in range(26)]


class LimitBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(Limits())


@pytest.fixture
async def h(make_harness: MakeHarness) -> Harness:
    return await make_harness(LimitBot())


ROUTES = ["reply", "followup", "edit", "post", "repost", "button"]


async def _run(h: Harness, route: str, what: str) -> None:
    alice = h.players.get("Alice") or await h.member("Alice")
    if route == "button":
        shown = await alice.slash("lim button", what=what)
        await alice.click(shown.message, "Update")
    else:
        await alice.slash(f"lim {route}", what=what)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("what", sorted(BAD))
async def test_a_message_discord_would_refuse_fails_the_test(
    h: Harness, route: str, what: str
) -> None:
    with pytest.raises(MessageRejected, match=BAD[what][1]) as err:
        await _run(h, route, what)
    assert len(err.value.problems) == 1
    refused = [r for r in h.requests if r.failed_with == 400]
    assert len(refused) == 1  # the bot got its 400 at the call, as from Discord


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("what", sorted(GOOD))
async def test_messages_at_the_limits_and_silenced_pings_pass(
    h: Harness, route: str, what: str
) -> None:
    await _run(h, route, what)
    assert not [r for r in h.requests if r.failed_with]


async def test_the_refused_message_is_not_stored(h: Harness) -> None:
    alice = await h.member("Alice")
    with h.expect_rejected("message content") as refused, h.expect_unanswered():
        reply = await alice.slash("lim reply", what="content")
    assert reply.failed and h.messages() == []
    assert len(refused) == 1 and refused[0].startswith("POST /interactions/")


async def test_followup_failure_is_seen_by_the_bot(h: Harness) -> None:
    alice = await h.member("Alice")
    with h.expect_rejected("field value"):
        reply = await alice.slash("lim followup", what="field_value")
    assert reply.message.content == "It failed."  # the bot caught a real HTTPException


async def test_teardown_fails_if_nothing_reported_the_refusal(make_harness: MakeHarness) -> None:
    h = await make_harness(LimitBot())
    with pytest.raises(discord.HTTPException) as err:
        await h.channel.send("y" * 2001)  # outside any interaction: nothing settles after it
    assert (err.value.status, err.value.code) == (400, 50035)
    assert "at most 2,000" in err.value.text
    with pytest.raises(MessageRejected, match="message content holds at most 2,000"):
        await h.stop()


async def test_autocomplete_with_too_many_choices_fails(h: Harness) -> None:
    alice = await h.member("Alice")
    with pytest.raises(MessageRejected, match="26 autocomplete choices"):
        await alice.autocomplete("lim choose", "pick", "a")


async def test_expect_rejected_needs_a_refusal(h: Harness) -> None:
    alice = await h.member("Alice")
    with pytest.raises(HarnessError, match="expected a refused message"), h.expect_rejected():
        await alice.slash("lim reply", what="at_limits")


async def test_raw_rows_buttons_and_embeds_over_the_limits_are_refused(h: Harness) -> None:
    def row(n: int) -> dict[str, Any]:
        buttons = [{"type": 2, "style": 1, "label": "b", "custom_id": f"b{i}"} for i in range(n)]
        return {"type": 1, "components": buttons}

    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel.id)
    for body, limit in (
        ({"components": [row(1)] * 6}, "6 action rows; a message holds at most 5"),
        ({"components": [row(6)]}, "6 buttons; an action row holds at most 5"),
        # discord.py itself refuses more than 10 embeds before sending; Discord would too.
        ({"embeds": [{"title": str(i)} for i in range(11)]}, "11 embeds; a message holds"),
    ):
        with h.expect_rejected(limit):
            with pytest.raises(discord.HTTPException):
                await h.bot.http.request(route, json=body)
            await h.settle()


# --------------------------------------------------------------------------- the checks alone


def test_message_problems_name_each_limit() -> None:
    for what, (make, words) in BAD.items():
        if what in ("everyone", "here", "role", "empty"):  # pings; 50006 is checked apart
            continue
        kwargs = make()
        embeds = [e.to_dict() for e in kwargs.get("embeds", [kwargs.get("embed")]) if e]
        body: dict[str, Any] = {"content": kwargs.get("content"), "embeds": embeds}
        if "view" in kwargs:
            body["components"] = kwargs["view"].to_components()
        problems = P.message_problems(body)
        assert len(problems) == 1, (what, problems)
        assert re.search(words, problems[0]), (what, problems)


@pytest.mark.parametrize(
    ("allowed", "content", "pings"),
    [
        (None, "@everyone", ["@everyone"]),
        (None, "hi <@123>", []),  # a member mention is fine
        ({"parse": []}, "@everyone @here <@&5>", []),
        ({"parse": ["users"]}, "@here", []),
        ({"parse": ["everyone"]}, "@here", ["@here"]),
        ({"parse": ["roles"]}, "<@&5> and @everyone", ["<@&5>"]),
        ({"parse": [], "roles": ["5"]}, "<@&5> <@&6>", ["<@&5>"]),
    ],
)
def test_mention_problems(allowed: dict[str, Any] | None, content: str, pings: list[str]) -> None:
    body: dict[str, Any] = {"content": content}
    if allowed is not None:
        body["allowed_mentions"] = allowed
    problems = P.mention_problems(body)
    assert len(problems) == len(pings) and all(p in q for p, q in zip(pings, problems, strict=True))


def test_components_v2_text_displays_can_ping() -> None:
    body = {"flags": P.COMPONENTS_V2_FLAG, "components": [{"type": 10, "content": "@everyone"}]}
    assert P.mention_problems(body) and not P.message_problems(body)


def test_files_over_the_upload_limit_are_refused() -> None:
    assert P.file_problems([("a.png", b"x" * (P.UPLOAD_MAX - 1)), ("b.png", b"y")]) == []
    [problem] = P.file_problems([("a.png", b"x" * P.UPLOAD_MAX), ("b.png", b"y")])
    assert "a.png, b.png" in problem and "over the upload limit of 8,388,608" in problem


def _files(n: int) -> list[discord.File]:
    return [discord.File(io.BytesIO(b"x"), filename=f"{i}.txt") for i in range(n)]


class Files(commands.Cog):
    """Ten files pass, an eleventh is refused, by each route that can carry files."""

    @app_commands.command(description="Send n files by a route")
    async def files(self, interaction: discord.Interaction, route: str, n: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            if route == "reply":
                await interaction.response.send_message("Files.", files=_files(n))
                return
            if route == "post":
                assert isinstance(interaction.channel, discord.TextChannel)
                await interaction.channel.send("Files.", files=_files(n))
            elif route == "edit":  # a message with one file, edited to add n more
                assert isinstance(interaction.channel, discord.TextChannel)
                message = await interaction.channel.send("One.", files=_files(1))
                await message.edit(attachments=[*message.attachments, *_files(n)])
        await interaction.response.send_message("Done.", ephemeral=True)


class FilesBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(Files())


@pytest.mark.parametrize(("route", "n"), [("reply", 10), ("post", 10), ("edit", 9)])
async def test_ten_files_pass(make_harness: MakeHarness, route: str, n: int) -> None:
    h = await make_harness(FilesBot())
    await (await h.member("Alice")).slash("files", route=route, n=n)
    assert len(h.messages(ephemeral=False)[-1].files) == 10


@pytest.mark.parametrize(("route", "n"), [("reply", 11), ("post", 11), ("edit", 10)])
async def test_an_eleventh_file_is_refused(make_harness: MakeHarness, route: str, n: int) -> None:
    h = await make_harness(FilesBot())
    with pytest.raises(MessageRejected, match="11 files; a message holds at most 10"):
        await (await h.member("Alice")).slash("files", route=route, n=n)
    assert [r.failed_with for r in h.requests if r.files][-1] == 400


@pytest.mark.parametrize(
    ("body", "files", "base", "empty"),
    [
        ({}, 0, None, True),
        ({"content": " \n"}, 0, None, True),
        ({"content": "hi"}, 0, None, False),
        ({"embeds": [{"title": "t"}]}, 0, None, False),
        ({"components": [{"type": 1, "components": []}]}, 0, None, False),  # 50035 says why
        ({}, 1, None, False),
        ({"content": ""}, 0, {"content": "was", "embeds": [{"title": "kept"}]}, False),
        ({"content": "", "embeds": []}, 0, {"content": "was", "embeds": [{"title": "t"}]}, True),
        ({"content": ""}, 0, {"content": "was", "attachments": [{"id": "5"}]}, False),
        ({"content": "", "attachments": []}, 0, {"attachments": [{"id": "5"}]}, True),
        ({"content": "", "attachments": [{"id": "5"}]}, 0, {"attachments": [{"id": "5"}]}, False),
    ],
)
def test_empty_messages_and_edits(
    body: dict[str, Any], files: int, base: dict[str, Any] | None, empty: bool
) -> None:
    assert P.is_empty_message(body, files=files, base=base) is empty


def test_duplicate_custom_ids_are_found_inside_containers_too() -> None:
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "x"}
    section = {"type": 9, "components": [{"type": 10, "content": "t"}], "accessory": button}
    body = {
        "flags": P.COMPONENTS_V2_FLAG,
        "components": [{"type": 17, "components": [section, {"type": 1, "components": [button]}]}],
    }
    [problem] = P.message_problems(body)
    assert "custom_id 'x' is used by 2 components" in problem


def test_select_ranges() -> None:
    def select(kind: int, n: int, low: int, high: int) -> list[str]:
        options = [{"label": str(i), "value": str(i)} for i in range(n)]
        comp = {"type": kind, "custom_id": "s", "min_values": low, "max_values": high}
        body = {"components": [{"type": 1, "components": [comp | {"options": options}]}]}
        return P.message_problems(body)

    assert select(3, 2, 2, 2) == [] and select(3, 1, 0, 1) == []
    assert select(5, 0, 1, 3) == []  # a user select has no options of its own
    assert "above its 2 option(s)" in select(3, 2, 3, 3)[0]
    assert "min_values 2 is above its max_values 1" in select(5, 0, 2, 1)[0]
    assert "has no options" in select(3, 0, 1, 1)[0]

"""Unit tests of the payload builders (no bot running, no event loop needed)."""

from __future__ import annotations

import enum
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.harness import payloads as P


class Colour(enum.Enum):
    red = "r"
    blue = "b"


def build_tree() -> app_commands.CommandTree[Any]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    seq = app_commands.Group(name="sequences", description="Sequences")
    admin = app_commands.Group(name="admin", description="Admin", parent=seq)

    @seq.command(description="Start")
    @app_commands.choices(
        variant=[
            app_commands.Choice(name="Solo", value="solo"),
            app_commands.Choice(name="Team", value="team"),
        ]
    )
    @app_commands.rename(rounds="round-count")
    async def start(
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 10],
        variant: str = "solo",
        stake: float = 1.0,
        public: bool = True,
        colour: Colour = Colour.red,
        title: app_commands.Range[str, 2, 5] = "ab",
    ) -> None: ...

    @admin.command(description="Reset")
    async def reset(interaction: discord.Interaction, hard: bool) -> None: ...

    @app_commands.command(description="Flat")
    async def ping(interaction: discord.Interaction) -> None: ...

    bot.tree.add_command(seq)
    bot.tree.add_command(ping)
    return bot.tree


@pytest.fixture
def tree() -> app_commands.CommandTree[Any]:
    return build_tree()


def test_flat_command_has_no_options(tree: app_commands.CommandTree[Any]) -> None:
    data = P.command_data(tree, "ping", {})
    assert data["name"] == "ping" and data["type"] == 1 and data["options"] == []


def test_subcommand_nesting_and_option_types(tree: app_commands.CommandTree[Any]) -> None:
    data = P.command_data(
        tree, "sequences start", {"rounds": 3, "variant": "team", "stake": 2, "public": False}
    )
    assert data["name"] == "sequences"
    [sub] = data["options"]
    assert sub["name"] == "start" and sub["type"] == 1
    assert sub["options"] == [
        {"name": "round-count", "type": 4, "value": 3},  # renamed: the Discord name is used
        {"name": "variant", "type": 3, "value": "team"},
        {"name": "stake", "type": 10, "value": 2},
        {"name": "public", "type": 5, "value": False},
    ]


def test_subcommand_group_nesting(tree: app_commands.CommandTree[Any]) -> None:
    data = P.command_data(tree, "sequences admin reset", {"hard": True})
    [group] = data["options"]
    assert (group["name"], group["type"]) == ("admin", 2)
    [sub] = group["options"]
    assert (sub["name"], sub["type"]) == ("reset", 1)
    assert sub["options"] == [{"name": "hard", "type": 5, "value": True}]


def test_options_by_display_name_choice_and_enum(tree: app_commands.CommandTree[Any]) -> None:
    data = P.command_data(
        tree,
        "sequences start",
        {
            "round-count": 1,
            "variant": app_commands.Choice(name="Team", value="team"),
            "colour": Colour.blue,
        },
    )
    opts = {o["name"]: o["value"] for o in data["options"][0]["options"]}
    assert opts == {"round-count": 1, "variant": "team", "colour": "b"}


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({}, TypeError, "requires option 'round-count'"),
        ({"rounds": 1, "speed": 2}, TypeError, "has no option"),
        ({"rounds": "1"}, TypeError, "is an integer"),
        ({"rounds": True}, TypeError, "is an integer"),
        ({"rounds": 1, "public": 1}, TypeError, "is a boolean"),
        ({"rounds": 1, "stake": "x"}, TypeError, "is a number"),
        ({"rounds": 0}, ValueError, "below min_value"),
        ({"rounds": 11}, ValueError, "above max_value"),
        ({"rounds": 1, "variant": "duo"}, ValueError, "not one of the choices"),
        ({"rounds": 1, "title": "x"}, ValueError, "shorter than min_length"),
        ({"rounds": 1, "title": "toolong"}, ValueError, "longer than max_length"),
    ],
)
def test_option_errors(
    tree: app_commands.CommandTree[Any], options: dict[str, Any], error: type, match: str
) -> None:
    with pytest.raises(error, match=match):
        P.command_data(tree, "sequences start", options)


def test_validation_can_be_disabled(tree: app_commands.CommandTree[Any]) -> None:
    data = P.command_data(tree, "sequences start", {"rounds": 99, "variant": "duo"}, validate=False)
    assert [o["value"] for o in data["options"][0]["options"]] == [99, "duo"]


@pytest.mark.parametrize(
    ("path", "match"),
    [
        ("nope", "no slash command 'nope'"),
        ("sequences", "is a group"),
        ("sequences stop", "has no 'stop'"),
        ("ping extra", "has no subcommands"),
    ],
)
def test_unknown_commands(tree: app_commands.CommandTree[Any], path: str, match: str) -> None:
    with pytest.raises(LookupError, match=match):
        P.command_data(tree, path, {})


def test_autocomplete_marks_focused_option_and_skips_validation(
    tree: app_commands.CommandTree[Any],
) -> None:
    data = P.command_data(tree, "sequences start", {"variant": "te"}, focused="variant")
    [opt] = data["options"][0]["options"]
    assert opt == {"name": "variant", "type": 3, "value": "te", "focused": True}


def test_command_ids_are_stable(tree: app_commands.CommandTree[Any]) -> None:
    first = P.command_data(tree, "ping", {})["id"]
    assert P.command_data(tree, "ping", {})["id"] == first


def test_interaction_payload_has_fields_discord_py_requires() -> None:
    channel = {"id": "5", "type": 0}
    member = {"user": {"id": "7", "username": "a", "discriminator": "0"}, "roles": []}
    payload = P.interaction_payload(
        type=P.APPLICATION_COMMAND,
        application_id=1,
        guild_id=2,
        channel=channel,
        member=member,
        data={"name": "x"},
    )
    for key in ("id", "application_id", "token", "version", "attachment_size_limit", "guild_id"):
        assert key in payload
    assert payload["channel_id"] == "5" and payload["type"] == 2 and "message" not in payload


def test_component_data_for_button_and_select() -> None:
    assert P.component_data("a:1") == {"custom_id": "a:1", "component_type": 2}
    assert P.component_data("s", component_type=3, values=["x", 2]) == {
        "custom_id": "s",
        "component_type": 3,
        "values": ["x", "2"],
    }


MODAL = {
    "custom_id": "m1",
    "title": "Name",
    "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "team", "label": "Team", "style": 1}]},
        {
            "type": 18,
            "label": "Motto",
            "component": {"type": 4, "custom_id": "motto", "style": 2, "required": False},
        },
        {
            "type": 18,
            "label": "Colour",
            "component": {"type": 3, "custom_id": "colour", "options": []},
        },
    ],
}


def test_modal_submit_mirrors_rows_and_labels() -> None:
    data = P.modal_submit_data(MODAL, {"Team": "Owls", "Colour": "red"})
    assert data == {
        "custom_id": "m1",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "team", "value": "Owls"}]},
            {"type": 18, "component": {"type": 4, "custom_id": "motto", "value": ""}},
            {"type": 18, "component": {"type": 3, "custom_id": "colour", "values": ["red"]}},
        ],
    }


def test_modal_submit_errors() -> None:
    with pytest.raises(ValueError, match="required"):
        P.modal_submit_data(MODAL, {"motto": "x"})
    with pytest.raises(KeyError, match="no fields"):
        P.modal_submit_data(MODAL, {"team": "x", "nickname": "y"})


def test_find_component_by_label_or_custom_id() -> None:
    rows = [
        {"type": 1, "components": [{"type": 2, "label": "Join", "custom_id": "g:1:join"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "pick", "placeholder": "Pick"}]},
    ]
    assert P.find_component(rows, label="Join")["custom_id"] == "g:1:join"
    assert P.find_component(rows, custom_id="g:1:join")["label"] == "Join"
    assert P.find_component(rows, label="Pick", types=P.SELECT_TYPES)["custom_id"] == "pick"
    with pytest.raises(LookupError, match=r"the message has \[\('Join', 'g:1:join'\)\]"):
        P.find_component(rows, label="Leave")


def test_ids_are_unique_and_increasing() -> None:
    ids = [P.next_id() for _ in range(100)]
    assert ids == sorted(ids) and len(set(ids)) == 100


def test_thread_payload_parses_as_a_discord_thread() -> None:
    data = P.thread_payload(thread_id=10, guild_id=1, parent_id=2, owner_id=3, name="t")
    assert data["thread_metadata"]["archived"] is False
    assert data["type"] == 11 and data["id"] == "10"

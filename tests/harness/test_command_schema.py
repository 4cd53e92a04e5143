"""Self-tests of the fake's command-sync checks (issue 31 item 0): each rule of Discord's
command schema refuses a tree that breaks it, both as a raw payload and, for the bound that
reached main, through discord.py's own ``tree.sync()``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness.commands import command_problems, tree_problems

Command = dict[str, Any]


def good() -> Command:
    """A chat-input command Discord accepts: a group, a subcommand, options of each kind."""
    return {
        "type": 1,
        "name": "game",
        "description": "Play a game",
        "name_localizations": {"de": "spiel"},
        "description_localizations": {"de": "Ein Spiel"},
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Open a table",
                "options": [
                    {
                        "type": 4,
                        "name": "table",
                        "description": "Its number",
                        "required": True,
                        "min_value": 1,
                        "max_value": 2**53 - 1,
                    },
                    {
                        "type": 3,
                        "name": "variant",
                        "description": "Which one",
                        "choices": [{"name": "Classic", "value": "classic"}],
                        "min_length": 1,
                        "max_length": 20,
                    },
                    {
                        "type": 10,
                        "name": "odds",
                        "description": "A number",
                        "min_value": -0.5,
                        "max_value": 0.5,
                    },
                ],
            },
            {
                "type": 2,
                "name": "admin",
                "description": "For admins",
                "options": [{"type": 1, "name": "reset", "description": "Start over"}],
            },
        ],
    }


def start(cmd: Command) -> list[Command]:
    options: list[Command] = cmd["options"][0]["options"]
    return options


def table(cmd: Command) -> Command:
    return start(cmd)[0]


def edit(change: Callable[[Command], object]) -> Command:
    cmd = copy.deepcopy(good())
    change(cmd)
    return cmd


def test_the_good_command_passes() -> None:
    assert command_problems(good()) == []
    assert tree_problems([good(), {"type": 2, "name": "Player Card"}]) == []


BREACHES: list[tuple[str, Callable[[Command], object], str]] = [
    ("max past 2^53 - 1", lambda c: table(c).update(max_value=2**53), "max_value 9007199254740992"),
    ("min past -(2^53 - 1)", lambda c: table(c).update(min_value=-(2**53)), "min_value"),
    ("min above max", lambda c: table(c).update(min_value=5, max_value=4), "min_value 5 is above"),
    ("a float bound on an integer", lambda c: table(c).update(max_value=1.5), "max_value 1.5"),
    ("an endless number bound", lambda c: start(c)[2].update(max_value=float("inf")), "finite"),
    ("a range on a string", lambda c: start(c)[1].update(min_value=1), "no number"),
    ("a length on an integer", lambda c: table(c).update(max_length=3), "no string"),
    ("max_length 0", lambda c: start(c)[1].update(max_length=0), "max_length 0"),
    ("min_length past 6000", lambda c: start(c)[1].update(min_length=6001), "min_length 6001"),
    ("min_length above max", lambda c: start(c)[1].update(min_length=30), "above max_length"),
    ("required after optional", lambda c: start(c)[2].update(required=True), "required option"),
    ("no description", lambda c: table(c).update(description=""), "description must be 1-100"),
    ("a long description", lambda c: c.update(description="x" * 101), "description must be"),
    (
        "a long localised description",
        lambda c: table(c).update(description_localizations={"fr": "x" * 101}),
        "description [fr] must be 1-100",
    ),
    (
        "an empty localised description",
        lambda c: c["description_localizations"].update(de=""),
        "description [de] must be 1-100 characters (is 0)",
    ),
    ("a name with a space", lambda c: c.update(name="my game"), "characters Discord refuses"),
    ("an upper-case name", lambda c: table(c).update(name="Table"), "not lowercase"),
    ("a long name", lambda c: c.update(name="g" * 33), "is 33 characters"),
    (
        "an upper-case localised name",
        lambda c: table(c).update(name_localizations={"de": "Tisch"}),
        "name [de] 'Tisch' is not lowercase",
    ),
    (
        "a long localised name",
        lambda c: c["name_localizations"].update(de="s" * 33),
        "name [de]",
    ),
    ("no locale", lambda c: c["name_localizations"].update(german="spiel"), "no Discord locale"),
    (
        "two options of one name in a language",
        lambda c: [o.update(name_localizations={"de": "zahl"}) for o in (table(c), start(c)[2])],
        "two options named 'zahl' [de]",
    ),
    (
        "a long choice name",
        lambda c: start(c)[1]["choices"][0].update(name="c" * 101),
        "name must be 1-100",
    ),
    (
        "a long localised choice name",
        lambda c: start(c)[1]["choices"][0].update(name_localizations={"de": "c" * 101}),
        "name [de] must be 1-100",
    ),
    (
        "an integer choice past 2^53 - 1",
        lambda c: table(c).update(choices=[{"name": "Big", "value": 2**53}]),
        "value 9007199254740992",
    ),
    (
        "choices with autocomplete",
        lambda c: start(c)[1].update(autocomplete=True),
        "choices and autocomplete",
    ),
    (
        "26 choices",
        lambda c: start(c)[1].update(
            choices=[{"name": f"c{n}", "value": f"{n}"} for n in range(26)]
        ),
        "26 choices",
    ),
    (
        "26 options",
        lambda c: start(c).extend(
            {"type": 5, "name": f"flag{n}", "description": "A flag"} for n in range(23)
        ),
        "26 options",
    ),
    ("no option type", lambda c: table(c).update(type=12), "option type 12"),
    (
        "a subcommand beside an option",
        lambda c: c["options"].append({"type": 5, "name": "flag", "description": "A flag"}),
        "subcommands mixed",
    ),
    (
        "a group inside a group",
        lambda c: c["options"][1]["options"].append(
            {"type": 2, "name": "deeper", "description": "Too deep", "options": []}
        ),
        "subcommand group may only sit in a command",
    ),
    (
        "a subcommand inside a subcommand",
        lambda c: start(c).append({"type": 1, "name": "deeper", "description": "Too deep"}),
        "subcommand may only sit",
    ),
    ("over 4,000 characters", lambda c: c.update(options=subcommands(25, 100, 1)), "4,000"),
]


@pytest.mark.parametrize(("rule", "change", "match"), BREACHES, ids=[b[0] for b in BREACHES])
def test_each_command_rule_bites(
    rule: str, change: Callable[[Command], object], match: str
) -> None:
    problems = command_problems(edit(change))
    assert any(match in p for p in problems), problems


def subcommands(count: int, described: int, options: int, **localised: int) -> list[Command]:
    """``count`` subcommands described in ``described`` characters (and in each of
    ``localised``'s locales in that many), each with ``options`` string options like it."""

    def texts(n: int) -> Command:
        return {
            "description": "d" * n,
            "description_localizations": {
                k.replace("_", "-"): "l" * v for k, v in localised.items()
            },
        }

    return [
        {"type": 1, "name": f"s{n:02}", **texts(described), "options": [
            {"type": 3, "name": f"o{k}", **texts(described)} for k in range(options)
        ]} for n in range(count)
    ]  # fmt: skip


def test_the_4000_characters_count_each_field_at_its_longest_locale() -> None:
    """Discord counts a field once, at its longest text over the default and each locale:
    25 subcommands with an option each, described in 70 characters and in 75 in German and
    French, are 1 + 1 + 25 * (3 + 75 + 2 + 75) = 3,877 characters (summed over the languages,
    11,127); at 78 in French, 4,027."""
    cmd = {"type": 1, "name": "x", "description": "y"}
    assert command_problems(cmd | {"options": subcommands(25, 70, 1, de=75, fr=75)}) == []
    [too_long] = command_problems(cmd | {"options": subcommands(25, 70, 1, de=75, fr=78)})
    assert "4,027 characters" in too_long


def test_context_menus_and_tree_rules() -> None:
    menu = {"type": 2, "name": "Player Card"}  # spaces and capitals are fine here
    assert command_problems(menu) == []
    assert command_problems(menu | {"name": "P" * 33})
    assert command_problems(menu | {"options": [table(good())]})
    assert any("share this name" in p for p in tree_problems([good(), good()]))
    assert command_problems({"type": 4, "name": "primary"})  # an entry point is not ours


async def test_discord_py_syncing_a_2_53_bound_is_refused(make_harness: MakeHarness) -> None:
    """The defect that reached main, through discord.py's own payload: ``Range[int, 1,
    2**53]`` sends max_value 2^53, which the PUT of the tree may not carry."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.tree.command(name="show", description="A tournament")
    async def show(
        interaction: discord.Interaction, tournament: app_commands.Range[int, 1, 2**53]
    ) -> None: ...

    h = await make_harness(bot)
    with (
        h.expect_rejected("max_value 9007199254740992"),
        pytest.raises(discord.HTTPException) as refused,
    ):
        await bot.tree.sync()
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert h.fake.commands == {}  # nothing registered
    show._params["tournament"].max_value = 2**53 - 1  # private: the parameter's bound
    assert [c.name for c in await bot.tree.sync()] == ["show"]

"""Self-tests of the fake's Components V2 layout rules (issue 31 item 0): each rule of
Discord's schema refuses a message that breaks it, and a message laid out as the bot's
table is (``bot.ui.compose``) passes."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import ui
from discord.ext import commands

from tests.conftest import MakeHarness
from tests.harness import payloads as P

Body = dict[str, Any]


def button(n: int) -> Body:
    return {"type": 2, "style": 1, "label": f"b{n}", "custom_id": f"b{n}"}


def good() -> Body:
    """A table message: a container with an accent, text, a picture, rows of buttons."""
    picture = {"media": {"url": "attachment://board.png"}}
    section = {"type": 9, "components": [{"type": 10, "content": "Ana"}], "accessory": button(9)}
    return {
        "flags": P.COMPONENTS_V2_FLAG,
        "components": [
            {
                "type": 17,
                "accent_color": 0xFFFFFF,
                "components": [
                    {"type": 10, "content": "### Sequence #1"},
                    {"type": 12, "items": [picture]},
                    {"type": 1, "components": [button(n) for n in range(5)]},
                    section,
                    {"type": 14},
                    {"type": 1, "components": [button(5)]},
                ],
            },
            {"type": 10, "content": "below the box"},
        ],
    }


def box(body: Body) -> list[Body]:
    inner: list[Body] = body["components"][0]["components"]
    return inner


def edit(change: Callable[[Body], object]) -> Body:
    body = copy.deepcopy(good())
    change(body)
    return body


def test_the_good_layout_passes() -> None:
    assert P.message_problems(good()) == []


BREACHES: list[tuple[str, Callable[[Body], object], str]] = [
    ("an empty text display", lambda b: box(b)[0].update(content=""), "empty text display"),
    (
        "an empty text display at the top",
        lambda b: b["components"][1].update(content=""),
        "components[1] is an empty text display",
    ),
    ("a section without text", lambda b: box(b)[3].update(components=[]), "1-3 text displays"),
    (
        "a section of four texts",
        lambda b: box(b)[3].update(components=[{"type": 10, "content": "t"}] * 4),
        "1-3 text displays",
    ),
    (
        "a section holding a button",
        lambda b: box(b)[3].update(components=[button(7)]),
        "text displays only",
    ),
    (
        "an empty text in a section",
        lambda b: box(b)[3]["components"][0].update(content=""),
        "empty text display",
    ),
    ("a section without accessory", lambda b: box(b)[3].pop("accessory"), "as accessory"),
    (
        "a section with a text as accessory",
        lambda b: box(b)[3].update(accessory={"type": 10, "content": "x"}),
        "as accessory",
    ),
    ("an empty media gallery", lambda b: box(b)[1].update(items=[]), "1-10 items (has 0)"),
    (
        "eleven pictures",
        lambda b: box(b)[1].update(items=box(b)[1]["items"] * 11),
        "1-10 items (has 11)",
    ),
    (
        "a container in a container",
        lambda b: box(b).append({"type": 17, "components": [{"type": 10, "content": "x"}]}),
        "type 17 may not sit in a container",
    ),
    ("an empty container", lambda b: b["components"].append({"type": 17}), "empty container"),
    (
        "an empty action row in a container",
        lambda b: box(b)[2].update(components=[]),
        "empty action row",
    ),
    (
        "an empty action row at the top",
        lambda b: b["components"].append({"type": 1, "components": []}),
        "components[2] is an empty action row",
    ),
    (
        "six buttons in a row in a container",
        lambda b: box(b)[2]["components"].append(button(8)),
        "has 6 buttons",
    ),
    (
        "a select beside a button in a container",
        lambda b: box(b)[5]["components"].append(
            {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
        ),
        "a select takes a whole action row",
    ),
    (
        "an accent past 0xFFFFFF",
        lambda b: b["components"][0].update(accent_color=1 << 24),
        "accent",
    ),
    ("a negative accent", lambda b: b["components"][0].update(accent_color=-1), "accent"),
    (
        "a thumbnail at the top",
        lambda b: b["components"].append({"type": 11, "media": {"url": "attachment://x.png"}}),
        "type 11 may not sit in a message",
    ),
]


@pytest.mark.parametrize(("rule", "change", "match"), BREACHES, ids=[b[0] for b in BREACHES])
def test_each_layout_rule_bites(rule: str, change: Callable[[Body], object], match: str) -> None:
    problems = P.message_problems(edit(change))
    assert any(match in p for p in problems), problems


def test_the_rules_are_components_v2_only() -> None:
    """Without the flag a message holds action rows only, checked as before."""
    body = {"components": [{"type": 1, "components": [button(n) for n in range(6)]}]}
    [problem] = P.message_problems(body)
    assert "has 6 buttons" in problem


async def test_discord_py_sending_a_bad_layout_is_refused(make_harness: MakeHarness) -> None:
    """discord.py builds these layouts without a complaint; Discord refuses them (400)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    h = await make_harness(bot)
    for bad, match in (
        (ui.Container(ui.TextDisplay("x"), accent_colour=1 << 24), "accent colour"),
        (ui.Container(ui.Container(ui.TextDisplay("x"))), "may not sit in a container"),
        (ui.TextDisplay(""), "empty text display"),
        (ui.Container(), "empty container"),
    ):
        layout = ui.LayoutView()
        layout.add_item(bad)
        with h.expect_rejected(match), pytest.raises(discord.HTTPException) as refused:
            await h.channel.send(view=layout)
        assert (refused.value.status, refused.value.code) == (400, 50035)
    good_layout = ui.LayoutView()
    good_layout.add_item(ui.Container(ui.TextDisplay("x"), accent_colour=0xFFFFFF))
    await h.channel.send(view=good_layout)

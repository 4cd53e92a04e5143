"""Issue 7.5: forged, truncated, oversized and replayed custom_ids; out-of-range options
(sent with ``_validate=False``, as Discord never would); hostile names. Nothing changes on a
refusal, every refusal is one private line, nothing can ping @everyone or a role."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store.games import GameRow, insert
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.reliability.helpers import forge_click, snapshot, table_row


def one_private_line(reply: Reply) -> bool:
    return reply.ephemeral and "\n" not in reply.text and 0 < len(reply.text) <= 200


async def running_game(env: Env) -> tuple[Player, Player, Message]:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    return ana, bo, lobby


async def other_guild_game(env: Env) -> int:
    """A live lobby on another server, in the same database."""
    now = time.time()
    row = GameRow(
        id=0, guild_id=999, channel_id=998, thread_id=None, lobby_message_id=None,
        message_id=None, game_key="sequences:standard", status="lobby", host_id=1, stake=0,
        state={"kind": "sequences", "settings": {"variant": "standard", "rounds": 1,
               "target": None, "soft_last_die": False}, "seats": [], "rules": None},
        version=0, deadline=now + 900, created_at=now, updated_at=now, finished_at=None,
    )  # fmt: skip
    async with env.bot.db.transaction() as conn:
        return await insert(conn, row)


async def test_forged_and_replayed_custom_ids_are_refused(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo, _ = await running_game(env)
    foreign = await other_guild_game(env)
    second = (await (await env.h.member("Cy")).slash("sequences start")).message
    turn = env.turn_message()
    version = (await table_row(env))["version"]
    before = await snapshot(env.bot.db)
    table = await env.bot.tables.get(1)
    mover, waiting = (ana, bo) if table.seats[table.rules.current].user_id == ana.id else (bo, ana)
    not_yours = f"It's {mover.name}'s turn, not yours."
    # The refusal each player hears: one text for both, or (the mover's, the other's).
    attempts: dict[str, str | tuple[str, str]] = {
        f"t:{foreign}:L:join": "somewhere else",  # another server's lobby
        f"t:{foreign}:0:throw": "somewhere else",
        "t:1:0:throw": "That throw is over.",  # an old turn counter (replayed)
        f"t:1:{version}:bank": ("That move is not possible now.", not_yours),  # not this phase
        f"t:1:{version}:lock9": ("There is nothing to lock now.", not_yours),
        # A lobby button pressed on the table message (issue 31.1): not its message.
        "t:1:L:start": "doesn't belong to this message",
        "t:1:L:bogus": "doesn't belong to this message",
        "t:99:1:throw": "That game no longer exists.",  # no such game
        "t:9999999999999999999:1:throw": "That game no longer exists.",  # beyond SQLite's
        "t:1:5": "isn't one of mine",  # truncated
        "t:1:" + "9" * 90 + ":throw": "isn't one of mine",  # oversized
        "garbage": "isn't one of mine",
        "": "isn't one of mine",
    }
    for custom_id, why in attempts.items():
        for player in (mover, waiting):
            reply = await forge_click(env, player, turn, custom_id)
            assert one_private_line(reply), (custom_id, reply.text)
            expected = why if isinstance(why, str) else why[player is waiting]
            assert expected in reply.text, (custom_id, player.name, reply.text)
    # Another game's lobby button, clicked in this game's thread: not its channel.
    reply = await forge_click(env, ana, turn, "t:2:L:join")
    assert one_private_line(reply) and "somewhere else" in reply.text
    assert await snapshot(env.bot.db) == before
    assert ana.mention not in env.h.message(second.id).text


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # seeded: the same examples every run
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    custom_id=st.one_of(
        st.text(max_size=120),
        st.builds(
            lambda table, version, action: f"t:{table}:{version}:{action}",
            st.integers(min_value=-5, max_value=2**70),
            st.one_of(st.just("L"), st.integers(min_value=-1, max_value=10**10)),
            st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", max_size=40),
        ),
    )
)
async def test_fuzzed_custom_ids_never_crash_or_change_anything(
    make_env: MakeEnv, custom_id: str
) -> None:
    shared = await shared_env(make_env)
    env = shared.env
    before = await snapshot(env.bot.db)
    for player in shared.players:
        reply = await forge_click(env, player, shared.message, custom_id)
        assert not reply.failed
        if reply.ephemeral:
            assert one_private_line(reply), reply.text
            assert await snapshot(env.bot.db) == before
        else:  # a legal click (the fuzzer found the current button): applied once
            after = await snapshot(env.bot.db)
            assert len(after["game_log"]) == len(before["game_log"]) + 1
            shared.message = env.turn_message()
            before = after


class _Shared:
    env: Env
    players: list[Player]
    message: Message


_SHARED: dict[int, _Shared] = {}


async def shared_env(make_env: MakeEnv) -> _Shared:
    """One bot for all examples of a fuzz test (hypothesis calls the test many times with
    the same function-scoped fixture)."""
    key = id(make_env)
    if key not in _SHARED:
        _SHARED.clear()
        shared = _Shared()
        shared.env = await make_env(seed=9)
        ana, bo, _ = await running_game(shared.env)
        shared.players = [ana, bo]
        shared.message = shared.env.turn_message()
        _SHARED[key] = shared
    return _SHARED[key]


BAD_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("sequences start", {"rounds": 0}),
    ("sequences start", {"rounds": -3}),
    ("sequences start", {"rounds": 10**12}),
    ("sequences start", {"target": -1}),
    ("sequences start", {"target": 10**30}),
    ("sequences start", {"variant": "chaos"}),
    ("sequences start", {"rules": "poker"}),
    ("sequences start", {"rules": "classic", "target": 10**9}),
    ("sequences start", {"rounds": 3, "target": 30}),
    ("heartsdue start", {"target": 0}),
    ("heartsdue start", {"target": -(10**20)}),
    ("board start", {"seats": 0}),
    ("board start", {"seats": 13}),
    ("board start", {"seats": 5}),
    ("board start", {"seats": 10**20}),
    ("board start", {"teams": 7}),
    ("board start", {"seats": 4, "teams": 3}),
    ("sequences end", {"game": -1}),
    ("heartsdue end", {"game": 2**70}),
    ("sequences end", {"game": 2**64}),
    ("board end", {"game": 0}),
    ("sequences start", {"stake": -1}),
    ("sequences start", {"stake": 10**12}),
    ("heartsdue start", {"stake": -(2**70)}),
    ("board start", {"stake": 2**63}),
    ("leaderboard", {"game": "'; DROP TABLE games; --"}),
    ("leaderboard", {"scope": "universe"}),
    ("leaderboard", {"sort": "id; --"}),
    ("stats", {"game": "nope"}),
    ("chips grant", {"member": None, "amount": -5, "reason": "x"}),
    ("settings turn-timer", {"seconds": 1}),
    ("settings turn-timer", {"seconds": 10**9}),
    ("rules", {"game": "<@&1> @everyone"}),
]


async def test_out_of_range_options_are_refused_privately(make_env: MakeEnv) -> None:
    env = await make_env()
    mod = await env.h.member("Mod", manage_guild=True)
    before = await snapshot(env.bot.db)
    for command, raw in BAD_OPTIONS:
        options = {k: (mod if v is None else v) for k, v in raw.items()}
        reply = await mod.slash(command, _validate=False, **options)
        if command == "rules":  # an unknown game shows the default rules, never the input
            assert "<@&1>" not in reply.text and "@everyone" not in reply.text
            continue
        if command == "stats":  # an unknown game matches nothing; the input is not echoed
            assert "nope" not in reply.text
            continue
        assert one_private_line(reply), (command, options, reply.text)
    after = await snapshot(env.bot.db)
    # The wallet and stats commands note the caller's display name as last seen (members):
    # not a game or chip change. Everything else is as before.
    assert {k: v for k, v in after.items() if k != "members"} == {
        k: v for k, v in before.items() if k != "members"
    }


HOSTILE_NAMES = [
    "@everyone",
    "@here free chips",
    "<@&123456789012345678> ping the role",
    "**bold** __under__ ~~strike~~ `code` ||spoiler||",
    "Ana\u200b\u200d\u2060\ufeff",
    "\u202eevil",
    "x" * 500,
    "[link](https://example.com)",
]


def message_bodies(env: Env) -> list[dict[str, Any]]:
    """Every message the bot sent or edited, as Discord received it."""
    out = []
    for req in env.h.requests:
        body = req.json if isinstance(req.json, dict) else {}
        if "callback" in req.path:
            body = body.get("data") or {}
        if req.method in ("POST", "PATCH") and ("content" in body or "embeds" in body):
            out.append(body)
    return out


async def test_hostile_names_are_cleaned_and_nothing_pings_everyone(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    players = [await env.h.member(name) for name in HOSTILE_NAMES]
    lobby = (await players[0].slash("board start", first_sequence_wins=True)).message
    for player in players[1:]:
        await player.click(lobby, "Join")
    await players[0].click(lobby, "Start")
    await env.tick(env.settings.turn_timeout_seconds + 1)
    table = await env.bot.tables.get(1)
    names = {seat.name for seat in table.seats}
    for name in names:
        assert len(name) <= 32
        assert not any(c in name for c in "\u200b\u200d\u2060\ufeff\u202e")
    # Names are kept as typed (issue 19: escaped, not changed), invisible characters aside.
    assert {"@everyone", "@here free chips", "Ana", "evil"} <= names
    # Wherever markdown is read (outside code blocks), a name's mention is escaped text.
    for message in env.h.messages():
        shown = re.sub(r"```.*?```", "", message.text, flags=re.DOTALL)
        assert not re.search(r"(?<!\\)(@everyone|@here|<@&)", shown), shown
    bodies = message_bodies(env)
    assert len(bodies) >= 10  # lobby, joins, start, turns: the check saw real traffic
    for body in bodies:
        mentions = body.get("allowed_mentions")
        assert mentions is not None, body
        assert "everyone" not in mentions.get("parse", []) and "roles" not in mentions.get(
            "parse", []
        )
        assert not mentions.get("roles")


_ints = st.one_of(st.none(), st.integers(min_value=-(2**70), max_value=2**70))
_texts = st.text(max_size=300)
COMMANDS = {
    "sequences start": st.fixed_dictionaries(
        {},
        optional={
            "variant": _texts,
            "rounds": _ints,
            "target": _ints,
            "soft_last_die": st.booleans(),
            "rules": st.one_of(_texts, st.sampled_from(["classic", "pushluck"])),
        },
    ),
    "heartsdue start": st.fixed_dictionaries({}, optional={"target": _ints}),
    "board start": st.fixed_dictionaries(
        {}, optional={"seats": _ints, "teams": _ints, "first_sequence_wins": st.booleans()}
    ),
    "sequences end": st.fixed_dictionaries({}, optional={"game": _ints}),
    "board end": st.fixed_dictionaries({}, optional={"game": _ints}),
    "settings turn-timer": st.fixed_dictionaries(
        {"seconds": _ints.filter(lambda x: x is not None)}
    ),
    "leaderboard": st.fixed_dictionaries(
        {}, optional={"game": _texts, "scope": _texts, "sort": _texts, "season": _texts}
    ),
    "settings season": st.fixed_dictionaries(
        {"name": _texts.filter(lambda x: x is not None)},
        optional={"last_day": _texts, "soft_reset": st.booleans()},
    ),
    "stats": st.fixed_dictionaries({}, optional={"game": _texts}),
    "rules": st.fixed_dictionaries({}, optional={"game": _texts}),
    "odds": st.fixed_dictionaries({}, optional={"ruleset": _texts}),
    "pay": st.fixed_dictionaries({"amount": _ints.filter(lambda x: x is not None)}),
    "daily": st.just({}),
    "wallet": st.just({}),
}


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_fuzzed_commands_never_crash(make_env: MakeEnv, data: st.DataObject) -> None:
    shared = await shared_env(make_env)
    env = shared.env
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    options = {k: v for k, v in data.draw(COMMANDS[command]).items() if v is not None}
    player = shared.players[data.draw(st.integers(0, 1))]
    if command == "pay":
        options["member"] = shared.players[0]
    before = await snapshot(env.bot.db)
    reply = await player.slash(command, _validate=False, **options)
    assert not reply.failed and "went wrong" not in reply.text, (command, options, reply.text)
    if reply.ephemeral and command not in ("odds", "rules", "stats", "wallet"):
        assert one_private_line(reply), (command, options, reply.text)
    if reply.ephemeral:
        changed = await snapshot(env.bot.db) != before
        # A refused command changes nothing (some private answers are successes).
        private_ok = ("settings turn-timer", "daily", "wallet", "pay", "stats", "odds", "rules")
        assert not changed or command in private_ok, (command, options)


async def test_known_buttons_of_other_features_are_not_refused(make_env: MakeEnv) -> None:
    """The refusal for unknown custom_ids must not answer a leaderboard page button."""
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    for _ in range(8):
        await env.tick(env.settings.turn_timeout_seconds + 1)
    board = await ana.slash("leaderboard")
    pages = [x for x in board.message.buttons if x.custom_id and x.custom_id.startswith("lb:")]
    assert pages  # one page only, so they are disabled: press one as a client could
    reply = await forge_click(env, ana, board.message, pages[0].custom_id)
    assert not reply.failed and "isn't one of mine" not in reply.text
    assert not any("isn't one of mine" in m.text for m in reply.followups)


async def test_ids_past_64_bits_in_history_and_replay_are_refused(make_env: MakeEnv) -> None:
    """Issue 19.26: a forged /history button with a 20-digit member id, or /replay of game
    2**63, reached the store and made the SQLite driver raise (an ERROR, an apology)."""
    from tests.discord.test_issue_12 import HEARTS_DUE_FACES
    from tests.discord.test_replays import finish_hearts_due
    from tests.fakes import ScriptedRandom

    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 2))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_hearts_due(env, ana, bo)
    page = (await ana.slash("history")).message
    before = await snapshot(env.bot.db)
    big = "9" * 20
    for custom_id in (
        f"hi:{ana.id}:1:{big}:-",  # the member filter
        f"hi:{ana.id}:1:{2**63}:heartsdue",
        f"hi:{big}:1:0:-",  # the owner
    ):
        reply = await forge_click(env, ana, page, custom_id)
        assert one_private_line(reply), (custom_id, reply.text)
        assert "went wrong" not in reply.text
    cases = (
        {"game": 2**63}, {"game": 2**64}, {"game": 0}, {"game": 1, "step": 10**9},
        {"game": 1, "step": 100_000},
    )  # fmt: skip
    for options in cases:
        reply = await ana.slash("replay", _validate=False, **options)
        if options.get("step") == 100_000:  # a step past the end is clamped, in range
            assert not reply.ephemeral and "Replay of game #1" in reply.text
            continue
        # Outside the declared range (game 0, step 10⁹) or past Discord's bound (issue
        # 31.2): the option's range is named.
        assert one_private_line(reply) and "must be between" in reply.text, (options, reply.text)
    assert await snapshot(env.bot.db) == before


async def test_persistent_buttons_refuse_another_kind_of_message(make_env: MakeEnv) -> None:
    """Issue 19.27: a replay, history or leaderboard button id pressed on a live turn
    message or a lobby redrew that message as a replay (or a page), and the game's buttons
    were gone. Each persistent button answers only on its own kind of message."""
    from tests.discord.test_issue_12 import HEARTS_DUE_FACES
    from tests.discord.test_replays import finish_hearts_due
    from tests.fakes import ScriptedRandom

    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 4))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_hearts_due(env, ana, bo)  # game 1: something to replay
    lobby = (await ana.slash("heartsdue start", target=20)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    turn = [m for m in env.h.messages(env.h.threads[-1]) if m.components][-1]  # not the ping
    waiting = (await ana.slash("heartsdue start", target=20)).message  # a lobby, open
    history = (await ana.slash("history")).message
    replay = (await ana.slash("replay", game=1)).message
    ids = [
        "rp:1:1:n", "rp:1:4:l", "rp:1:0:o", "rp:1:0:a",
        f"hi:{ana.id}:1:0:-", f"lb:{ana.id}:1:s:r:heartsdue", "od:heartsdue",
    ]  # fmt: skip
    before = await snapshot(env.bot.db, with_messages=True)
    for message in (turn, waiting, lobby):
        shown = (message.text, message.components)
        for custom_id in ids:
            reply = await forge_click(env, ana, message, custom_id)
            assert one_private_line(reply), (custom_id, reply.text)
            assert (message.text, message.components) == shown, custom_id
    # Each kind's own message still answers, and a replay button is not a history one.
    assert not (await forge_click(env, ana, replay, "rp:1:1:n")).failed
    refused = await forge_click(env, ana, replay, f"hi:{ana.id}:1:0:-")
    assert one_private_line(refused) and "Replay of game #1" in replay.text
    refused = await forge_click(env, ana, history, "rp:1:1:n")
    assert one_private_line(refused) and "Finished games" in history.text
    assert await snapshot(env.bot.db, with_messages=True) == before
    await ana.click(turn, "Throw 6 dice")  # the game goes on


def _filler(param: Any, member: Player, env: Env) -> Any:
    """A value of ``param``'s type that the command could take (the other options)."""
    from discord import AppCommandOptionType as T

    if param.choices:
        return param.choices[0].value
    return {
        T.string: "x",
        T.integer: 1 if param.min_value is None else int(param.min_value),
        T.number: 1.0 if param.min_value is None else float(param.min_value),
        T.boolean: False,
        T.user: member,
        T.mentionable: member,
        T.role: env.h.guild.default_role,
        T.channel: env.h.guild.text_channels[0],
    }[param.type]


def _past_the_bounds(param: Any) -> list[int]:
    """One past each bound an option declares (within Discord's 2⁵³ − 1)."""
    past = [
        *([int(param.max_value) + 1] if param.max_value is not None else []),
        *([int(param.min_value) - 1] if param.min_value is not None else []),
    ]
    return [v for v in past if abs(v) < 2**53]


async def _each_number_option_refuses(
    env: Any, mod: Any, values: Callable[[Any], Iterable[int]]
) -> int:
    """Send each of ``values(option)`` to every integer and number option of the command
    tree (the required options filled in); each must be refused in one private line naming
    the option's range. How many were sent."""
    from discord import AppCommandOptionType as T
    from discord import app_commands

    sent = 0
    for command in env.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for param in (p for p in command.parameters if p.type in (T.integer, T.number)):
            for value in values(param):
                options = {
                    p.name: (value if p.name == param.name else _filler(p, mod, env))
                    for p in command.parameters
                    if p.required or p.name == param.name
                }
                reply = await mod.slash(command.qualified_name, _validate=False, **options)
                where = (command.qualified_name, param.name, value)
                assert one_private_line(reply), (where, reply.text)
                assert "must be between" in reply.text, (where, reply.text)
                sent += 1
    return sent


async def test_numbers_past_discords_bound_are_refused_on_every_option(
    make_env: MakeEnv,
) -> None:
    """Issue 31.2: `/tournament create rounds:` 2⁶³ and `/tournament show|cancel|result` with
    2⁶³ or 10³⁰ reached the store and crashed (an apology and a logged error). Every integer
    option of the command tree, given a value no Discord client sends, is refused in one
    private line naming the option's range, and nothing changes."""

    env = await make_env()
    mod = await env.h.member("Mod", manage_guild=True)
    before = await snapshot(env.bot.db)
    sent = await _each_number_option_refuses(
        env, mod, lambda param: (2**53, 2**63, -(2**63) - 1, 10**30)
    )
    assert sent >= 4 * 20  # the tree's integer options, each tried (about 30 of them)
    after = await snapshot(env.bot.db)
    assert {k: v for k, v in after.items() if k != "members"} == {
        k: v for k, v in before.items() if k != "members"
    }


async def test_numbers_outside_the_declared_range_are_refused_on_every_option(
    make_env: MakeEnv,
) -> None:
    """`/tournament create rounds:50` opened a 50-round Swiss though the option declares 1 to
    20: discord.py does not check a ``Range`` of numbers (it trusts Discord's clients), so any
    value up to 2⁵³ − 1 reached the command. Every integer option with a declared bound,
    given one past it, is refused in the same one private line as any other out-of-range
    number, naming the range, and nothing changes."""

    env = await make_env()
    mod = await env.h.member("Mod", manage_guild=True)
    before = await snapshot(env.bot.db)
    rounds = await mod.slash(
        "tournament create", _validate=False, game="sequences:standard", format="swiss", rounds=50
    )
    assert one_private_line(rounds), rounds.text
    assert "must be between 1 and 20" in rounds.text, rounds.text
    sent = await _each_number_option_refuses(env, mod, _past_the_bounds)
    assert sent >= 20
    after = await snapshot(env.bot.db)
    assert {k: v for k, v in after.items() if k != "members"} == {
        k: v for k, v in before.items() if k != "members"
    }

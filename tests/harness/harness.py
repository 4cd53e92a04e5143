"""Drive a real ``commands.Bot`` through discord.py's own interaction dispatch, offline.

    h = await Harness.start(bot)              # dpytest guild + channel, fakes wired
    alice = await h.member("Alice")
    reply = await alice.slash("toy start", rounds=3, variant="team")
    reply = await alice.click(reply.message, "Join")
    assert "Alice" in reply.message.text
    await h.stop()

Inbound: payloads from :mod:`.payloads` are fed to the gateway parser
(``ConnectionState.parsers["INTERACTION_CREATE"]``), so the ``CommandTree`` and the
``ViewStore`` (views, ``DynamicItem``\\ s, modals) run exactly as in production.
Outbound: see :mod:`.fake`.

discord.py internals are private; this module targets discord.py 2.7.x (pinned in
pyproject). Each use of a private name carries a ``# private:`` comment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any
from unittest import mock

import discord
import discord.ext.test as dpytest
import discord.webhook.async_ as webhook_async
from discord.ext import commands
from discord.ext.test import backend as dpytest_backend
from discord.ext.test import runner as dpytest_runner
from discord.ext.test import state as dpytest_state
from discord.ext.test import websocket as dpytest_websocket

from . import payloads as P
from .fake import CURRENT_INTERACTION, FakeDiscord, HarnessHttp, InteractionRecord, RecordedRequest
from .model import HarnessError, Message, Modal, Reply

JsonDict = dict[str, Any]

DEFAULT_ERROR_LOGGERS = ("discord", "bot", "cogs", "tests")
TASK_LOGGER = "tests.harness.tasks"  # name of records made for tasks that died with an exception

# What @everyone may do in the fake guild: dpytest's default role permissions plus threads.
EVERYONE_PERMISSIONS = discord.Permissions(104324161) | discord.Permissions(
    create_public_threads=True,
    create_private_threads=True,
    send_messages_in_threads=True,
    use_application_commands=True,
)


class BotErrorLogged(AssertionError):
    """The bot (or discord.py on its behalf) logged an ERROR while handling something."""

    def __init__(self, records: Sequence[logging.LogRecord]) -> None:
        self.records = list(records)
        fmt = logging.Formatter("%(name)s: %(message)s")
        text = "\n\n".join(
            fmt.format(r) + ("\n" + fmt.formatException(r.exc_info) if r.exc_info else "")
            for r in self.records
        )
        super().__init__(f"{len(self.records)} error(s) logged while handling:\n{text}")


class MessageRejected(AssertionError):
    """The bot sent a message Discord would reject (a size limit) or that could ping
    @everyone, @here or a role. The fake Discord answered 400 at the call; this fails the
    test even if the bot caught that error."""

    def __init__(self, problems: Sequence[str], records: Sequence[logging.LogRecord] = ()) -> None:
        self.problems = list(problems)
        self.records = list(records)
        text = "\n".join(f"- {p}" for p in self.problems)
        if self.records:
            text += "\n(and the bot logged: " + str(BotErrorLogged(self.records)) + ")"
        super().__init__(f"{len(self.problems)} message(s) refused by the fake Discord:\n{text}")


class SettleTimeout(AssertionError):
    """Dispatch or bot tasks did not finish within the settle timeout."""


# Discord's deadline for an interaction's first answer (a message, a defer, a modal or
# autocomplete choices); later, the token is dead (10062) and the member sees "This
# interaction failed".
ANSWER_DEADLINE = 3.0


class Unanswered(AssertionError):
    """An interaction the harness delivered was not answered within :data:`ANSWER_DEADLINE`
    of the bot's time (:class:`BotClock`). Wrap what means to leave one unanswered in
    ``with h.expect_unanswered():``."""

    def __init__(self, problems: Sequence[str], cause: BaseException | None = None) -> None:
        self.problems = list(problems)
        text = "\n".join(f"- {p}" for p in self.problems)
        if cause is not None:
            text += f"\n(and while handling it: {type(cause).__name__}: {cause})"
        super().__init__(
            f"{len(self.problems)} interaction(s) not answered within {ANSWER_DEADLINE:g} s "
            f"(the member sees 'This interaction failed'):\n{text}"
        )


class BotClock:
    """The bot's own time, in seconds: the event loop's clock (``loop.time()``) minus the
    time the OS kept the loop's thread waiting for a CPU (its run-queue wait, from
    ``/proc/self/task/<tid>/schedstat``; nothing is subtracted where that file is missing).

    What the deadline measures is then what the bot spends from an interaction's delivery
    to its callback: its own work on the loop, awaited sleeps and locks, the fake Discord's
    latency, waits for the database or a drawing thread. What it leaves out is a loaded
    machine (other test workers, other jobs) taking the CPU away, which would make a
    wall-clock deadline flaky without the bot being any slower."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._path: str | None = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        if self._queued() is None:
            self._path = None

    def _queued(self) -> float | None:
        if self._path is None:
            return None
        try:
            with open(self._path) as f:
                return int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return None

    def __call__(self) -> float:
        return self.loop.time() - (self._queued() or 0.0)


class AnswerLog:
    """Every answer time the harness measured in this process, for the end-of-session line
    (``tests/conftest.py``): the slowest ones, and (with ``HARNESS_ANSWERS=record``) the
    unanswered or late interactions, recorded instead of failing."""

    KEPT = 5

    def __init__(self) -> None:
        self.slowest: list[tuple[float, str, str]] = []  # seconds, interaction, test
        self.answered = 0
        self.problems: list[tuple[str, str]] = []  # test, problem

    @property
    def recording(self) -> bool:
        return os.environ.get("HARNESS_ANSWERS") == "record"

    @staticmethod
    def test_name() -> str:
        return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]

    def answered_in(self, seconds: float, what: str) -> None:
        self.answered += 1
        if len(self.slowest) < self.KEPT or seconds > self.slowest[-1][0]:
            self.slowest.append((seconds, what, self.test_name()))
            self.slowest = sorted(self.slowest, reverse=True)[: self.KEPT]


ANSWERS = AnswerLog()


class ErrorCollector(logging.Handler):
    """Collects ERROR records from the given logger prefixes."""

    def __init__(self, prefixes: Sequence[str]) -> None:
        super().__init__(level=logging.ERROR)
        self.prefixes = tuple(prefixes)
        self.records: list[logging.LogRecord] = []
        self.expecting: list[tuple[re.Pattern[str] | None, list[logging.LogRecord]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        prefixes = (*self.prefixes, TASK_LOGGER)
        if not any(record.name == p or record.name.startswith(p + ".") for p in prefixes):
            return
        for pattern, sink in self.expecting:
            if pattern is None or pattern.search(_record_text(record)):
                sink.append(record)
                return
        self.records.append(record)

    def install(self) -> None:
        for name in self.prefixes:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in self.prefixes:
            logging.getLogger(name).removeHandler(self)

    def take(self) -> list[logging.LogRecord]:
        records, self.records = self.records, []
        return records


def _record_text(record: logging.LogRecord) -> str:
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        text += f"\n{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
    return text


def _awaiting_frames(task: asyncio.Task[Any]) -> Iterator[Any]:
    """The chain of coroutine frames a task is suspended in, outermost first."""
    coro: Any = task.get_coro()
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            yield frame
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)


def _is_framework_task(task: asyncio.Task[Any]) -> bool:
    code = getattr(task.get_coro(), "cr_code", None)
    return code is not None and (
        "_pytest" in code.co_filename or "pytest_asyncio" in code.co_filename
    )


def _is_pool_task(coro: Any) -> bool:
    """A PostgreSQL pool's (psycopg_pool's) workers and scheduler, and the waits they start
    (on Python 3.11 ``asyncio.wait_for`` runs its awaitable as a task), live as long as the
    pool; a click that waits for a connection is busy in its own task all the same."""
    code = getattr(coro, "cr_code", None)
    if code is None:
        return False
    if "/psycopg_pool/" in code.co_filename:
        return True
    frame = getattr(coro, "cr_frame", None)
    owner = frame.f_locals.get("self") if frame is not None else None
    return type(owner).__module__.startswith("psycopg_pool")


class TaskTracker:
    """Records every task created on the loop while installed (via the task factory)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: set[asyncio.Task[Any]] = set()
        self.finished: list[asyncio.Task[Any]] = []
        # The interaction (token) each live task was created while handling, if any.
        self.interaction_of: dict[asyncio.Task[Any], str | None] = {}
        self._previous = loop.get_task_factory()

    def install(self) -> None:
        previous = self._previous

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
            task: asyncio.Task[Any]
            if previous is not None:
                task = previous(loop, coro, **kwargs)  # type: ignore[assignment]
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            self.tasks.add(task)
            self.interaction_of[task] = CURRENT_INTERACTION.get()
            task.add_done_callback(self._done)
            return task

        self.loop.set_task_factory(factory)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        self.interaction_of.pop(task, None)
        self.finished.append(task)

    def unretrieved_failures(self) -> list[asyncio.Task[Any]]:
        """Finished tasks whose exception nobody retrieved (asyncio would later log "Task
        exception was never retrieved"); marks them retrieved."""
        failed = []
        for task in self.finished:
            # private: asyncio sets _log_traceback until someone retrieves the exception
            if not task.cancelled() and getattr(task, "_log_traceback", False):
                task.exception()
                failed.append(task)
        self.finished.clear()
        return failed

    def uninstall(self) -> None:
        self.loop.set_task_factory(self._previous)


@contextlib.contextmanager
def _dpytest_accepts_shards(guild_id: int | None) -> Iterator[None]:
    """Around ``dpytest.configure``: let it take an ``AutoShardedClient``, and give the
    guild it makes ``guild_id`` (so a test can put it on a chosen shard).

    dpytest refuses sharded clients outright ("not yet supported"), yet what it installs (a
    fake state, HTTP client and websocket) serves one as well as a plain client: the events
    of every shard come through the one fake connection, and the state keeps the client's
    ``shard_count`` (``guild.shard_id`` is right). Both patches last only for the
    synchronous ``configure`` call."""

    class NeverSharded:  # what runner.configure's isinstance check sees instead
        pass

    make_guild = dpytest_backend.make_guild
    with contextlib.ExitStack() as patches:
        # private: dpytest.runner looks discord.AutoShardedClient up at call time
        patches.enter_context(mock.patch.object(discord, "AutoShardedClient", NeverSharded))
        if guild_id is not None:
            patches.enter_context(
                mock.patch.object(  # private: runner.configure calls back.make_guild(name)
                    dpytest_backend, "make_guild", lambda name: make_guild(name, id_num=guild_id)
                )
            )
        yield


def _check_shard(bot: commands.Bot, guild: discord.Guild) -> None:
    """Discord sends a guild's events only to the connection of its shard: a sharded bot
    that does not run that shard would never see this guild."""
    shard_ids = (
        getattr(bot, "shard_ids", None) if isinstance(bot, discord.AutoShardedClient) else None
    )
    if shard_ids is not None and guild.shard_id not in shard_ids:
        raise HarnessError(
            f"the guild {guild.id} is on shard {guild.shard_id} of {bot.shard_count}, "
            f"which this bot does not run ({shard_ids}): pass a guild_id on its shards"
        )


async def _close_bot(bot: commands.Bot) -> None:
    # dpytest's FakeWebSocket has no socket; Client.close() would trip over ``ws.open``.
    bot.ws = None  # type: ignore[assignment]
    await bot.close()


class Player:
    """A guild member acting through the Discord client: slash commands, clicks, modals."""

    def __init__(self, harness: Harness, user_id: int, name: str, guild_id: int = 0) -> None:
        self.h = harness
        self.id = user_id
        self.name = name
        # The server the member was added to: their commands run in its first text
        # channel unless ``_channel`` says another (whose server is then the one used).
        self.guild_id = guild_id or harness.guild_id
        self.locale = harness.locale  # the language of this member's Discord client

    def __repr__(self) -> str:
        return f"<Player {self.name} {self.id}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def member(self) -> discord.Member:
        """This member as the current bot instance sees it (in their own server)."""
        return self.h._member_object(self.id, self.guild_id)

    def member_in(self, guild: Any) -> discord.Member:
        """This member in another server they were added to (``Harness.add_to_guild``)."""
        return self.h._member_object(self.id, self.h._guild_id(guild))

    async def slash(
        self,
        command: str,
        /,
        *,
        _channel: Any = None,
        _validate: bool = True,
        **options: Any,
    ) -> Reply:
        """Run ``/command`` (``"group sub"`` for subcommands) with ``options`` as keywords.

        Options are checked against the command's signature; with ``_validate`` (default)
        values outside choices/min/max raise as Discord would never send them.
        """
        channel = self.h._channel(_channel, self)
        if channel in self.h.fake.private_channels or channel in self.h.fake.dm_channels:
            self.h._require_user_install(command, 1 if channel in self.h.fake.dm_channels else 2)
        data = P.command_data(
            self.h.bot.tree, command, options, guild=self.h._guild_at(channel), validate=_validate
        )
        return await self.h._interact(self, P.APPLICATION_COMMAND, data, channel)

    async def autocomplete(
        self, command: str, option: str, value: str, /, *, _channel: Any = None, **options: Any
    ) -> list[JsonDict]:
        """Type ``value`` into ``option`` of ``/command``; returns the offered choices."""
        channel = self.h._channel(_channel, self)
        data = P.command_data(
            self.h.bot.tree,
            command,
            {**options, option: value},
            guild=self.h._guild_at(channel),
            focused=option,
        )
        reply = await self.h._interact(self, P.AUTOCOMPLETE, data, channel)
        if reply.choices is None:
            raise HarnessError(f"/{command} answered no autocomplete choices for {option!r}")
        return reply.choices

    async def context_menu(self, name: str, target: Any, /, *, _channel: Any = None) -> Reply:
        """Use a user (target: Player/Member) or message (target: Message) context menu."""
        channel = self.h._channel(_channel, self)
        msg_payload = target.payload if isinstance(target, Message) else None
        data = P.context_menu_data(
            self.h.bot.tree, name, target, guild=self.h._guild_at(channel), message=msg_payload
        )
        return await self.h._interact(self, P.APPLICATION_COMMAND, data, channel)

    async def click(
        self, message: Message | Reply, label: str | None = None, /, *, custom_id: str | None = None
    ) -> Reply:
        """Click the button with this ``label`` (or ``custom_id``) on ``message``."""
        msg = self._target(message)
        comp = P.find_component(msg.components, label=label, custom_id=custom_id)
        if comp.get("disabled"):
            raise HarnessError(f"button {label or custom_id!r} is disabled on {msg}")
        if "custom_id" not in comp:
            raise HarnessError(
                f"button {label!r} is a link button; clicking it opens {comp.get('url')}"
            )
        data = P.component_data(comp["custom_id"], component_type=P.BUTTON)
        return await self.h._interact(self, P.MESSAGE_COMPONENT, data, msg.channel_id, message=msg)

    async def click_stale(self, message: Message | Reply, custom_id: str, /) -> Reply:
        """Click ``custom_id`` on the latest earlier version of ``message`` that showed it:
        what a client holding an old copy of the message sends (Discord includes the message
        as that client saw it)."""
        msg = self._target(message)
        versions = [*msg.history, msg.payload]
        for version in reversed(versions):
            shown = P.walk_components(version.get("components", []))
            if any(c.get("custom_id") == custom_id for c in shown):
                break
        else:
            raise HarnessError(f"{msg} never showed a button {custom_id!r}")
        snapshot = _Snapshot(msg.id, msg.channel_id, {**msg.payload, **version})
        data = P.component_data(custom_id, component_type=P.BUTTON)
        return await self.h._interact(
            self,
            P.MESSAGE_COMPONENT,
            data,
            msg.channel_id,
            message=snapshot,  # type: ignore[arg-type]
        )

    async def select(
        self,
        message: Message | Reply,
        values: Sequence[str],
        /,
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> Reply:
        """Pick ``values`` in a select menu (the only one, or by custom_id/placeholder)."""
        msg = self._target(message)
        selects = msg.selects
        if custom_id is not None or placeholder is not None:
            comp = P.find_component(
                msg.components, label=placeholder, custom_id=custom_id, types=P.SELECT_TYPES
            )
            select = next(s for s in selects if s.custom_id == comp["custom_id"])
        elif len(selects) == 1:
            select = selects[0]
        else:
            raise HarnessError(f"{msg} has {len(selects)} selects; pass custom_id=")
        if select.disabled:
            raise HarnessError(f"select {select.custom_id!r} is disabled")
        values = [str(v) for v in values]
        if select.type == P.STRING_SELECT:
            unknown = [v for v in values if v not in select.values]
            if unknown:
                raise HarnessError(f"{unknown} are not options of {select.custom_id!r}")
        if not select.min_values <= len(values) <= select.max_values:
            raise HarnessError(
                f"select {select.custom_id!r} takes {select.min_values}..{select.max_values} values"
            )
        data = P.component_data(select.custom_id, component_type=select.type, values=values)
        return await self.h._interact(self, P.MESSAGE_COMPONENT, data, msg.channel_id, message=msg)

    async def submit_modal(
        self, values: dict[str, Any] | None = None, /, *, modal: Modal | Reply | None = None
    ) -> Reply:
        """Submit the last modal the bot showed this member (or ``modal``), with ``values``
        keyed by each field's custom_id or label."""
        if isinstance(modal, Reply):
            modal = modal.modal
        opened = self.h._modals.get(self.id)
        if modal is None:
            if opened is None:
                raise HarnessError(f"the bot has not shown {self.name} a modal")
            raw, channel_id, message_id = opened
        else:
            raw = modal.raw
            channel_id = opened[1] if opened else self.h._channel(None, self)
            message_id = opened[2] if opened else None
        data = P.modal_submit_data(raw, values or {})
        self.h._modals.pop(self.id, None)
        msg = Message(self.h, self.h.fake.messages[message_id]) if message_id else None
        return await self.h._interact(self, P.MODAL_SUBMIT, data, channel_id, message=msg)

    async def send(self, content: str, /, *, channel: Any = None) -> Message:
        """Post an ordinary message as this member (dispatches ``on_message``)."""
        cid = self.h._channel(channel, self)
        stored = self.h.fake.create_message(
            channel_id=cid,
            author=self.h.fake.members[self.id]["user"],
            fields={"content": content},
            files=[],
        )
        await self.h.settle()
        return Message(self.h, stored)

    @property
    def dms(self) -> list[Message]:
        """Direct messages the bot sent this member, in order."""
        fake = self.h.fake
        return [
            Message(self.h, m)
            for m in fake.messages.values()
            if fake.dm_channels.get(m.channel_id) == self.id and not m.deleted
        ]

    def visible_messages(self, channel: Any = None) -> list[Message]:
        return [m for m in self.h.messages(channel) if m.visible_for(self.id)]

    def _target(self, message: Message | Reply) -> Message:
        msg = message.message if isinstance(message, Reply) else message
        if msg.deleted:
            raise HarnessError(f"{msg} was deleted")
        if not msg.visible_for(self.id):
            raise HarnessError(f"{self.name} cannot see the ephemeral message {msg}")
        return msg


def _describe(kind: int, data: JsonDict, message: Any) -> str:
    """What the member used, for a failure message: ``/board start``, ``button 'Join'
    (t:1:L:join)``, ``select t:..``, ``modal name``."""
    if kind in (P.APPLICATION_COMMAND, P.AUTOCOMPLETE):
        parts = [str(data.get("name", "?"))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # a subcommand (group)
            parts.append(str(options[0].get("name")))
            options = options[0].get("options") or []
        name = " ".join(parts)
        if kind == P.AUTOCOMPLETE:
            return f"autocomplete of /{name}"
        return f"/{name}" if data.get("type", 1) == 1 else f"context menu {name!r}"
    custom_id = str(data.get("custom_id", "?"))
    if kind == P.MODAL_SUBMIT:
        return f"modal {custom_id}"
    if data.get("component_type") != P.BUTTON:
        return f"select {custom_id}"
    shown = P.walk_components(
        (message.payload if message is not None else {}).get("components", [])
    )
    label = next((c.get("label") for c in shown if c.get("custom_id") == custom_id), None)
    return f"button {label!r} ({custom_id})" if label else f"button {custom_id}"


class _Snapshot:
    """An earlier version of a message, as a stale client would send it."""

    def __init__(self, message_id: int, channel_id: int, payload: JsonDict) -> None:
        self.id = message_id
        self.channel_id = channel_id
        self.payload = payload


def running_in_ci() -> bool:
    """Whether the ``CI`` variable is set (true, 1, yes: as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


# How much slower than a developer's machine this one may be: HARNESS_TIME_SCALE, else 2 in
# CI (a shared runner), else 1. Only the ceilings below scale; a green test never waits.
TIME_SCALE = float(os.environ.get("HARNESS_TIME_SCALE") or (2 if running_in_ci() else 1))
# How long settle() waits for busy tasks before failing. Measured on a two-core machine at
# load 6-8 (one pytest process among others): the slowest settle of a normal test 1.4 s (a
# 65-move board animation), a burst of 1000 clicks 4.4 s.
DEFAULT_SETTLE_TIMEOUT = 10.0 * TIME_SCALE
# Seconds of settle time each interaction of ``Harness.together`` adds to the timeout.
PER_INTERACTION_SETTLE = 0.05 * TIME_SCALE


class Harness:
    """A fake Discord guild around one (or, after :meth:`restart`, successive) bot(s)."""

    def __init__(
        self,
        bot: commands.Bot,
        *,
        settle_timeout: float,
        long_sleep: float,
        error_loggers: Sequence[str],
    ) -> None:
        self.bot = bot
        self.settle_timeout = settle_timeout
        self.long_sleep = long_sleep
        self.errors = ErrorCollector(error_loggers)
        self.tracker = TaskTracker(asyncio.get_running_loop())
        self.fake: FakeDiscord = None  # type: ignore[assignment]  # set in start()
        self.guild_id = 0  # the first server: where members are added unless told otherwise
        self.guild_ids: list[int] = []  # every server, the first one first (``more_guilds``)
        self.guild_locale = "en-US"  # the server's Discord language (guild_locale)
        self.guild_locales: dict[int, str] = {}  # a server's own, where it differs
        self.locale = "en-US"  # the Discord client language of members added from now on
        self.channel_id = 0
        self.players: dict[str, Player] = {}
        self._modals: dict[int, tuple[JsonDict, int, int | None]] = {}
        self._ignored: list[Callable[[asyncio.Task[Any]], bool]] = []
        self._saved_adapter_request: Any = None
        self._stopped = False
        self._batch: list[tuple[Player, Reply]] | None = None  # delivered, not yet settled
        self._building: list[tuple[Player, Reply, JsonDict]] | None = None  # together()
        self._expected_rejections: list[tuple[re.Pattern[str] | None, list[str]]] = []
        self._expected_unanswered: list[list[Reply]] = []
        self._what: dict[str, str] = {}  # interaction token -> what the member used
        self.clock = BotClock(asyncio.get_running_loop())
        self.answer_deadline: float | None = ANSWER_DEADLINE

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def start(
        cls,
        bot: commands.Bot,
        *,
        channels: Sequence[str] = ("general",),
        guild_name: str = "Test Guild",
        more_guilds: Sequence[str] = (),
        settle_timeout: float = DEFAULT_SETTLE_TIMEOUT,
        long_sleep: float = 0.5,
        error_loggers: Sequence[str] = DEFAULT_ERROR_LOGGERS,
        gateway_echo: bool = True,
        guild_id: int | None = None,
        answer_deadline: float | None = ANSWER_DEADLINE,
        locale: str = "en-US",
        guild_locale: str = "en-US",
    ) -> Harness:
        """Configure dpytest around ``bot`` (one guild with ``channels``), wire the fakes, run
        ``setup_hook`` and mark the bot ready. ``bot`` may be an ``AutoShardedBot``: it must
        run the guild's shard (``guild_id`` puts the guild on one; dpytest's ids are random).

        ``settle_timeout``: how long :meth:`settle` waits for busy tasks before failing
        (default :data:`DEFAULT_SETTLE_TIMEOUT`, scaled by ``HARNESS_TIME_SCALE`` or CI).
        ``long_sleep``: sleeps (and ``asyncio.wait_for`` timeouts) longer than this count as
        idle, e.g. ``delete_after`` or "wait 60 s for players"; keep bot delays configurable.
        ``error_loggers``: logger prefixes whose ERROR records fail the test.
        ``gateway_echo``: echo MESSAGE_*/THREAD_* gateway events for the bot's own changes.
        ``answer_deadline``: every interaction must be answered within this many seconds of
        the bot's time (:class:`BotClock`), or the test fails (:class:`Unanswered`) and the
        late callback gets 10062; None only where answer times are measured, not held to
        Discord's deadline (``python -m bot bench``'s bursts).
        ``locale``, ``guild_locale``: the members' Discord language and the server's, as
        every interaction carries them (``speak`` changes both later).
        ``more_guilds``: names of more servers beside the first, each with the same
        ``channels`` (``h.guilds``; ``h.member(name, guild=...)`` adds a member to one).
        """
        h = cls(
            bot, settle_timeout=settle_timeout, long_sleep=long_sleep, error_loggers=error_loggers
        )
        h.locale, h.guild_locale = locale, guild_locale
        h.tracker.install()
        h.errors.install()
        try:
            if guild_id is not None and more_guilds:
                raise HarnessError("guild_id= names the one server; more_guilds= makes several")
            with _dpytest_accepts_shards(guild_id):
                dpytest.configure(bot, guilds=[guild_name, *more_guilds],
                                  text_channels=list(channels), voice_channels=0,
                                  members=0)  # fmt: skip
            guild = bot.guilds[0]
            h.guild_id = guild.id
            h.guild_ids = [g.id for g in bot.guilds]
            h.channel_id = guild.text_channels[0].id
            h.fake = FakeDiscord(guild.id, h.guild_ids)
            h.fake.gateway_echo = gateway_echo
            h.fake.bot_clock = h.clock
            h.answer_deadline = answer_deadline
            # Recording (HARNESS_ANSWERS=record) leaves late answers served, as before.
            recording = answer_deadline is None or ANSWERS.recording
            h.fake.answer_deadline = float("inf") if recording else (answer_deadline or 0.0)
            for each in bot.guilds:
                dpytest_backend.update_role(
                    each.default_role, permissions=EVERYONE_PERMISSIONS.value
                )
            h._patch_webhooks()
            await h._wire(bot)
        except BaseException:
            await h._teardown()
            raise
        return h

    async def _wire(self, bot: commands.Bot) -> None:
        """Common wiring after a bot got its (dpytest) connection state."""
        self.bot = bot
        self.fake.client = bot
        # dpytest's FakeHttp instance gets our subclass: REST goes to the fake Discord
        bot.http.__class__ = HarnessHttp
        bot.http.fake = self.fake  # type: ignore[attr-defined]
        state = bot._connection  # private: the ConnectionState dpytest installed
        state._command_tree = bot.tree  # private: dpytest's state has none, slash would drop
        # private: the tree captured the client's original http/state at construction
        bot.tree._http = bot.http
        bot.tree._state = state
        assert bot.user is not None
        state.application_id = bot.user.id  # private-ish: normally set by READY
        for guild_id in self.guild_ids:
            guild = bot.get_guild(guild_id)
            assert guild is not None
            _check_shard(bot, guild)
            if guild.me is None:  # without the members intent dpytest's bot member is not cached
                me = discord.Member._from_client_user(
                    user=bot.user, guild=guild, state=state
                )  # private
                guild._add_member(me)  # private
        await bot._async_setup_hook()  # private: creates bot._ready, binds the loop
        await bot.setup_hook()  # cogs, DynamicItems, persistent views on the *new* view store
        bot._ready.set()  # private: what READY does
        bot.dispatch("ready")
        await self.settle()

    def _patch_webhooks(self) -> None:
        harness = self
        cls = webhook_async.AsyncWebhookAdapter
        self._saved_adapter_request = cls.__dict__["request"]

        async def request(
            adapter: Any,
            route: Any,
            session: Any = None,
            *,
            payload: JsonDict | None = None,
            multipart: Any = None,
            files: Any = None,
            params: JsonDict | None = None,
            **_: Any,
        ) -> Any:
            return await harness.fake.handle_webhook(
                route, payload=payload, multipart=multipart, files=files, params=params
            )

        # private: AsyncWebhookAdapter is discord.py's internal webhook transport; every
        # interaction callback, followup and original-response call goes through request()
        cls.request = request  # type: ignore[method-assign,assignment]

    async def stop(self) -> None:
        """Settle, close the bot, cancel leftover tasks, undo every patch. Raises
        :class:`BotErrorLogged` if errors were logged since the last check."""
        if self._stopped:
            return
        try:
            await self.settle()
        finally:
            await self._teardown()
        self._raise_logged_errors()

    async def _teardown(self) -> None:
        self._stopped = True
        with contextlib.suppress(Exception):
            await _close_bot(self.bot)
        await self._cancel_leftovers()
        if self._saved_adapter_request is not None:
            webhook_async.AsyncWebhookAdapter.request = self._saved_adapter_request  # type: ignore[method-assign]
            self._saved_adapter_request = None
        self.tracker.uninstall()
        self.errors.uninstall()

    async def _cancel_leftovers(self) -> None:
        current = asyncio.current_task()
        leftovers = [
            t
            for t in self.tracker.tasks
            if t is not current
            and not t.done()
            and not _is_framework_task(t)
            # A pool belongs to its database, which the test closes (the new bot's, after a
            # restart, lives on): cancelling its workers would break its close.
            and not _is_pool_task(t.get_coro())
        ]
        for t in leftovers:
            t.cancel()
        if leftovers:
            await asyncio.gather(*leftovers, return_exceptions=True)

    async def restart(self, new_bot: commands.Bot) -> Harness:
        """Replace the bot with ``new_bot`` (a fresh instance, as after a process restart):
        same guild, channels, threads, members and messages; the old bot is closed and its
        in-memory views die with it. Returns ``self``."""
        await self.settle()
        old = self.bot
        assert old.user is not None
        user_data = P.user_payload(old.user)
        guilds_data = []
        for guild in self.guilds:
            threads = [
                t
                for t in self.fake.threads.values()
                if not t["thread_metadata"]["archived"] and int(t["guild_id"]) == guild.id
            ]
            guild_data = P.guild_create_payload(guild, threads=threads, owner_id=guild.owner_id)
            known = {int(m["user"]["id"]) for m in guild_data["members"]}
            members = self.fake.memberships.get(guild.id, {})
            guild_data["members"] += [d for uid, d in members.items() if uid not in known]
            guilds_data.append(guild_data)
        await _close_bot(old)
        await self._cancel_leftovers()

        loop = asyncio.get_running_loop()
        http = dpytest_backend.FakeHttp(loop=loop)
        new_bot.http = http  # private-ish: the client's HTTPClient
        new_bot.ws = dpytest_websocket.FakeWebSocket(None, loop=loop)
        state = dpytest_state.FakeState(new_bot, http=http, loop=loop)
        state.user = discord.ClientUser(state=state, data=user_data)  # type: ignore[arg-type]
        http.state = state
        new_bot._connection = state  # type: ignore[assignment]  # private: as dpytest.configure
        old_config = dpytest_backend._cur_config  # private: dpytest's global backend state
        assert old_config is not None
        dpytest_backend._cur_config = dpytest_backend.BackendState(old_config.messages, state)
        for guild_data in guilds_data:
            state.parse_guild_create(guild_data)
        new_guilds = [new_bot.get_guild(g) for g in self.guild_ids]
        assert all(g is not None for g in new_guilds)
        dpytest_runner._cur_config = dpytest_runner.RunnerConfig(  # private: dpytest runner state
            new_bot,
            new_guilds,
            [c for g in new_guilds if g for c in g.channels],
            [m for g in new_guilds if g for m in g.members],
        )
        await self._wire(new_bot)
        return self

    swap_bot = restart

    # ------------------------------------------------------------------ settle & errors

    def ignore_tasks(self, match: str | Callable[[asyncio.Task[Any]], bool]) -> None:
        """Do not wait for tasks whose name starts with ``match`` (or matching a predicate),
        e.g. a bot's own endless background loop."""
        if isinstance(match, str):
            prefix = match
            self._ignored.append(lambda t: t.get_name().startswith(prefix))
        else:
            self._ignored.append(match)

    def _is_idle(self, task: asyncio.Task[Any]) -> bool:
        """Tasks that wait for something a test cannot advance: view timeouts, ext.tasks
        loops, long sleeps (``delete_after``), waits for user input (``View.wait``,
        ``Client.wait_for``), and the test framework's own tasks."""
        if any(pred(task) for pred in self._ignored):
            return True
        coro = task.get_coro()
        qualname = getattr(coro, "__qualname__", "")
        # private: discord.py's view timeout watcher and discord.ext.tasks' loop coroutine
        if qualname.endswith("__timeout_task_impl") or qualname == "Loop._loop":
            return True
        if _is_framework_task(task):
            return True
        if _is_pool_task(coro):
            return True
        for frame in _awaiting_frames(task):
            name = frame.f_code.co_name
            filename = frame.f_code.co_filename
            if "/psycopg_pool/" in filename:
                return False  # waiting for a database connection: the pool's timeout bounds it
            if filename.endswith(("asyncio/tasks.py", "asyncio/timeouts.py")):
                # A long sleep or a long bounded wait (asyncio.wait_for(..., timeout=60)) is
                # waiting for time to pass or for players: the test cannot advance it.
                if name == "sleep" and frame.f_locals.get("delay", 0) > self.long_sleep:
                    return True
                if name == "wait_for":
                    timeout = frame.f_locals.get("timeout")
                    if timeout is None or timeout > self.long_sleep:
                        return True
            if "discord" in filename and (
                (name == "wait" and filename.endswith(("view.py", "modal.py")))
                or name == "wait_for"
            ):
                return True
        return False

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every dispatch task and every task the bot spawned has finished (or is
        idle, see :meth:`_is_idle`), then raise :class:`BotErrorLogged` if anything was
        logged at ERROR. Fails with :class:`SettleTimeout` after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.settle_timeout if timeout is None else timeout)
        current = asyncio.current_task()
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            busy = [
                t
                for t in list(self.tracker.tasks)
                if t is not current and not t.done() and not self._is_idle(t)
            ]
            if not busy:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = ", ".join(f"{t.get_name()} ({t.get_coro()!r})" for t in busy)
                raise SettleTimeout(
                    f"tasks still running after the settle timeout: {names}. If this is an "
                    "endless background task, call h.ignore_tasks(name)."
                )
            await asyncio.wait(busy, timeout=min(remaining, 0.02))
        self._raise_logged_errors()

    def _raise_logged_errors(self) -> None:
        for task in self.tracker.unretrieved_failures():
            if _is_framework_task(task):
                continue
            exc = task.exception()
            assert exc is not None
            record = logging.LogRecord(
                TASK_LOGGER, logging.ERROR, __file__, 0,
                "Task %r raised and nobody retrieved the exception", (task.get_name(),),
                (type(exc), exc, exc.__traceback__),
            )  # fmt: skip
            self.errors.handle(record)
        rejected = self._take_rejected()
        records = self.errors.take()
        if rejected:
            raise MessageRejected(rejected, records)
        if records:
            raise BotErrorLogged(records)

    def _take_rejected(self) -> list[str]:
        if self.fake is None:
            return []
        rejected = self.fake.rejected
        self.fake.rejected = []
        for pattern, sink in self._expected_rejections:
            sink += [r for r in rejected if pattern is None or pattern.search(r)]
            rejected = [r for r in rejected if not (pattern is None or pattern.search(r))]
        return rejected

    @contextlib.contextmanager
    def expect_rejected(self, match: str | None = None) -> Iterator[list[str]]:
        """Allow messages the fake Discord refuses (limits, pings) matching ``match`` inside
        the block; yields their descriptions and fails if none was refused. The bot still
        got its 400 at the call."""
        sink: list[str] = []
        entry = (re.compile(match) if match else None, sink)
        self._expected_rejections.append(entry)
        try:
            yield sink
            # Sort what was refused in the block; the rest stays to fail the test.
            self.fake.rejected[:0] = self._take_rejected()
        finally:
            self._expected_rejections.remove(entry)
        if not sink:
            raise HarnessError(f"expected a refused message matching {match!r}, none was")

    @contextlib.contextmanager
    def expect_errors(self, match: str | None = None) -> Iterator[list[logging.LogRecord]]:
        """Allow ERROR logs (matching ``match``) inside the block; yields the records and
        fails if none was logged."""
        sink: list[logging.LogRecord] = []
        entry = (re.compile(match) if match else None, sink)
        self.errors.expecting.append(entry)
        try:
            yield sink
        finally:
            self.errors.expecting.remove(entry)
        if not sink:
            raise HarnessError(f"expected an error log matching {match!r}, none was logged")

    # ------------------------------------------------------------------ members & guild

    @property
    def guild(self) -> discord.Guild:
        """The first server (the only one unless ``more_guilds`` made others)."""
        guild = self.bot.get_guild(self.guild_id)
        assert guild is not None
        return guild

    @property
    def guilds(self) -> list[discord.Guild]:
        """Every server, the first one first."""
        found = [self.bot.get_guild(g) for g in self.guild_ids]
        return [g for g in found if g is not None]

    def guild_of(self, guild: Any) -> discord.Guild:
        """A server by object, id or name."""
        found = self.bot.get_guild(self._guild_id(guild))
        assert found is not None
        return found

    def _guild_id(self, guild: Any) -> int:
        if guild is None:
            return self.guild_id
        if isinstance(guild, str):
            for each in self.guilds:
                if each.name == guild:
                    return each.id
            raise HarnessError(f"no server {guild!r}")
        return int(getattr(guild, "id", guild))

    def _guild_at(self, channel_id: int) -> discord.Guild | None:
        """The server a channel or thread belongs to (None: a DM or private channel)."""
        gid = self.fake._guild_id_for(channel_id) if self.fake is not None else None
        return None if gid is None else self.bot.get_guild(gid)

    @property
    def channel(self) -> discord.TextChannel:
        """The default text channel."""
        channel = self.guild.get_channel(self.channel_id)
        assert isinstance(channel, discord.TextChannel)
        return channel

    def text_channel(self, name: str, guild: Any = None) -> discord.TextChannel:
        """A text channel of the first server (or of ``guild``) by name."""
        channel = discord.utils.get(self.guild_of(guild).text_channels, name=name)
        if channel is None:
            raise HarnessError(f"no text channel {name!r}")
        return channel

    async def member(
        self,
        name: str,
        *,
        roles: Sequence[discord.Role] = (),
        nick: str | None = None,
        locale: str | None = None,
        guild: Any = None,
        **permissions: bool,
    ) -> Player:
        """Add a member. Keyword permissions (``manage_guild=True``) give them a role with
        those permissions; ``False`` values are accepted and ignored (the default).
        ``locale``: their Discord client's language (default ``h.locale``). ``guild``: the
        server (object, id or name) they join, by default the first."""
        if name in self.players:
            raise HarnessError(f"member {name!r} exists already")
        guild = self.guild_of(guild)
        role_ids = [r.id for r in roles]
        granted = {k: v for k, v in permissions.items() if v}
        if granted:
            role = dpytest_backend.make_role(
                f"{name}-perms", guild, permissions=discord.Permissions(**granted).value
            )
            role_ids.append(role.id)
        uid = P.next_id()
        discrim = f"{len(self.players) + 1:04}"
        user = {"id": str(uid), "username": name, "discriminator": discrim,
                "global_name": name, "avatar": None, "bot": False}  # fmt: skip
        data = {"user": user, "roles": [str(r) for r in role_ids], "nick": nick,
                "joined_at": P.iso_now(), "deaf": False, "mute": False, "flags": 0,
                "avatar": None, "pending": False, "premium_since": None,
                "communication_disabled_until": None}  # fmt: skip
        self.fake.members[uid] = data
        self.fake.memberships.setdefault(guild.id, {})[uid] = data
        event: Any = data | {"guild_id": str(guild.id)}
        self.bot._connection.parse_guild_member_add(event)  # private: gateway GUILD_MEMBER_ADD
        player = Player(self, uid, name, guild.id)
        if locale is not None:
            player.locale = locale
        self.players[name] = player
        await self.settle()
        return player

    async def add_to_guild(self, player: Player, guild: Any, *, nick: str | None = None) -> None:
        """The member joins another server too (a member of two servers), with no role
        there; ``nick``: their name in it. Their commands there use its channels."""
        target = self.guild_of(guild)
        data = {**self.fake.members[player.id], "roles": [], "nick": nick}
        self.fake.memberships.setdefault(target.id, {})[player.id] = data
        event: Any = data | {"guild_id": str(target.id)}
        self.bot._connection.parse_guild_member_add(event)  # private: gateway GUILD_MEMBER_ADD
        await self.settle()

    def speak(self, locale: str, guild_locale: str | None = None) -> None:
        """From now on every member's client is in ``locale`` (those to come too) and the
        server's Discord language is ``guild_locale`` (default: the same)."""
        self.locale = locale
        self.guild_locale = guild_locale or locale
        for player in self.players.values():
            player.locale = locale

    async def role(self, name: str, **permissions: bool) -> discord.Role:
        """Create a role with these permissions (pass it to ``member(roles=[...])``)."""
        value = discord.Permissions(**permissions).value
        role = dpytest_backend.make_role(name, self.guild, permissions=value)
        await self.settle()
        return role

    def private_channel(self, *players: Player, group: bool = False) -> int:
        """A DM between two members (or, with ``group``, a group DM of several) where the
        bot is no member: commands of its user install work there, answered through the
        interaction only (every REST call in it is 403). Returns the channel id."""
        if not group and len(players) != 2:
            raise HarnessError("a DM is between two members; pass group=True for more")
        channel_id = P.next_id()
        recipients = [P.user_payload(p.member) for p in players]
        payload: JsonDict = {"id": str(channel_id), "type": 3 if group else 1}
        payload["recipients"] = recipients
        if group:
            payload |= {"name": None, "owner_id": str(players[0].id), "icon": None}
        self.fake.private_channels[channel_id] = {
            "payload": payload,
            "members": {p.id for p in players},
        }
        return channel_id

    def bot_dm(self, player: Player) -> int:
        """The member's own DM with the bot (where the bot may post, unlike a private
        channel); commands of the user install used there come with context 1."""
        channel_id = next((c for c, u in self.fake.dm_channels.items() if u == player.id), None)
        if channel_id is None:
            channel_id = P.next_id()
            self.fake.dm_channels[channel_id] = player.id
        return channel_id

    def _require_user_install(self, command: str, context: int) -> None:
        """Discord offers a command in a DM or group DM only if the app's user install has
        it (integration type 1) and it is allowed there (``context`` 1, the DM with the
        bot, or 2, private channels)."""
        root = self.bot.tree.get_command(command.split(" ", 1)[0])
        if root is None:
            raise HarnessError(f"no command /{command}")
        schema = root.to_dict(self.bot.tree)
        if 1 not in (schema.get("integration_types") or []) or context not in (
            schema.get("contexts") or []
        ):
            raise HarnessError(
                f"Discord would not offer /{command} in a DM or group DM "
                f"(integration_types {schema.get('integration_types')}, "
                f"contexts {schema.get('contexts')})"
            )

    def block_dms(self, player: Player) -> None:
        """``player`` does not accept DMs: sending them one fails with 403/50007."""
        self.fake.dm_blocked.add(player.id)

    def _member_object(self, user_id: int, guild_id: int | None = None) -> discord.Member:
        guild = self.guild_of(guild_id)
        member = guild.get_member(user_id)
        if member is None:  # not cached (no members intent): build it as Interaction would
            data = self.fake.memberships.get(guild.id, {}).get(user_id)
            if data is None:
                raise HarnessError(f"member {user_id} is not in the server {guild.name!r}")
            state = self.bot._connection  # private
            member = discord.Member(data=data, guild=guild, state=state)  # type: ignore[arg-type]
        return member

    async def set_permissions(self, target: Any, channel: Any = None, **perms: bool | None) -> None:
        """Channel permission overwrite for ``target`` (a Player, Member or Role) in
        ``channel`` (default channel): ``True`` allows, ``False`` denies, ``None`` resets."""
        guild = self.guild
        chan = guild.get_channel(self._channel(channel))
        if not isinstance(chan, discord.abc.GuildChannel):
            raise HarnessError("permission overwrites apply to guild channels (threads inherit)")
        obj = target.member if isinstance(target, Player) else target
        overwrite = chan.overwrites_for(obj)
        overwrite.update(**perms)
        allow, deny = overwrite.pair()
        data = P.channel_payload(chan)
        data["permission_overwrites"] = [
            o for o in data["permission_overwrites"] if o["id"] != str(obj.id)
        ] + [{"id": str(obj.id), "type": 0 if isinstance(obj, discord.Role) else 1,
              "allow": str(allow.value), "deny": str(deny.value)}]  # fmt: skip
        self.bot._connection.parse_channel_update(data)  # private: gateway CHANNEL_UPDATE
        await self.settle()

    async def set_bot_permissions(self, channel: Any = None, **perms: bool | None) -> None:
        """Overwrite the bot's own permissions in ``channel``, e.g. ``send_messages=False``
        to make the bot unable to post there (REST calls then fail with 403/50013)."""
        await self.set_permissions(self.guild.me, channel, **perms)

    # ------------------------------------------------------------------ interactions

    def _channel(self, channel: Any, player: Player | None = None) -> int:
        if channel is None:
            if player is not None and player.guild_id != self.guild_id:
                return self.guild_of(player.guild_id).text_channels[0].id
            return self.channel_id
        if isinstance(channel, int):
            return channel
        if isinstance(channel, str):
            return self.text_channel(channel).id
        return int(channel.id)

    def _channel_payload(
        self, channel_id: int, member: discord.Member
    ) -> tuple[JsonDict, int, int]:
        record = self.fake.threads.get(channel_id)
        guild = self._guild_at(channel_id) or self.guild
        if record is not None:
            parent = guild.get_channel(int(record["parent_id"]))
            assert parent is not None
            perms_member = parent.permissions_for(member).value
            perms_bot = parent.permissions_for(guild.me).value
            return dict(record), perms_member, perms_bot
        channel = guild.get_channel(channel_id)
        if channel is None:
            raise HarnessError(f"no channel {channel_id} in the fake servers")
        perms_member = channel.permissions_for(member).value
        perms_bot = channel.permissions_for(guild.me).value
        return P.channel_payload(channel, permissions=perms_member), perms_member, perms_bot

    async def _interact(
        self,
        player: Player,
        kind: int,
        data: JsonDict,
        channel_id: int,
        *,
        message: Message | None = None,
    ) -> Reply:
        member = player.member
        if message is not None and kind in (P.MESSAGE_COMPONENT, P.MODAL_SUBMIT):
            self._require_visible(player, message.id)
        private = self.fake.private_channels.get(channel_id)
        bot_dm = self.fake.dm_channels.get(channel_id)
        if private is not None or bot_dm is not None:  # the user's install answers
            if private is not None and player.id not in private["members"]:
                raise HarnessError(f"{player.name} is not in the private channel {channel_id}")
            if bot_dm is not None and bot_dm != player.id:
                raise HarnessError(f"{player.name} cannot use another member's DM with the bot")
            user = P.user_payload(member)
            channel = (
                private["payload"]
                if private is not None
                else {"id": str(channel_id), "type": 1, "recipients": [user]}
            )
            payload = P.interaction_payload(
                type=kind,
                application_id=self.bot.application_id or 0,
                guild_id=None,
                channel=channel,
                user=user,
                data=data,
                message=message.payload if message is not None else None,
                app_permissions=P.USER_INSTALL_PERMISSIONS,
                locale=player.locale,
                # BOT_DM (the member's DM with the bot), else PRIVATE_CHANNEL (a DM or
                # group DM of members, where the bot is no member)
                context=1 if bot_dm is not None else 2,
            )
        else:
            guild = self._guild_at(channel_id) or self.guild
            if guild.id != player.guild_id:
                member = self._member_object(player.id, guild.id)  # raises if not a member
            channel, perms, app_perms = self._channel_payload(channel_id, member)
            channel["permissions"] = str(perms)
            payload = P.interaction_payload(
                type=kind,
                application_id=self.bot.application_id or 0,
                guild_id=guild.id,
                channel=channel,
                member=P.member_payload(member, permissions=perms),
                data=data,
                message=message.payload if message is not None else None,
                app_permissions=app_perms,
                locale=player.locale,
                guild_locale=self.guild_locales.get(guild.id, self.guild_locale),
            )
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=kind,
            channel_id=channel_id,
            guild_id=int(payload["guild_id"]) if "guild_id" in payload else None,
            user_id=player.id,
            source_message_id=message.id if message is not None else None,
        )
        self.fake.interactions[record.token] = record
        reply = Reply(self, record, len(self.fake.events))
        self._what[record.token] = _describe(kind, data, message)
        if self._building is not None:  # delivered by together(), once every one is built
            self._building.append((player, reply, payload))
            return reply
        self._deliver(record, payload)
        if self._batch is not None:
            self._batch.append((player, reply))
            return reply
        await self._settle_and_finish([(player, reply)])
        return reply

    def _require_visible(self, player: Player, message_id: int) -> None:
        """Discord shows an ephemeral message to one member only, so it never delivers
        another member's press on it, however the press was built (issue 31 item 5: a forged
        click reached the bot)."""
        stored = self.fake.messages.get(message_id)
        if stored is not None and stored.visible_to not in (None, player.id):
            raise HarnessError(
                f"{player.name} cannot press anything on another member's ephemeral message "
                f"{message_id}: Discord shows it to that member only and never delivers it"
            )

    def _deliver(self, record: InteractionRecord, payload: JsonDict) -> None:
        token = CURRENT_INTERACTION.set(record.token)
        record.delivered_clock = self.clock()  # the deadline runs from here
        try:
            self.bot._connection.parsers["INTERACTION_CREATE"](payload)  # private: gateway parsers
        finally:
            CURRENT_INTERACTION.reset(token)

    async def _settle_and_finish(
        self, delivered: list[tuple[Player, Reply]], timeout: float | None = None
    ) -> None:
        """Settle, then check that every delivered interaction was answered in time."""
        replies = [r for _, r in delivered]
        try:
            await self.settle(timeout)
        except AssertionError as exc:
            # What went wrong while handling is the failure; an unanswered interaction is
            # said with it, unless the bot's answer came too late (then that is the cause).
            problems = self._answer_problems(replies) if self.answer_deadline is not None else []
            late = [r for r in replies if r._rec.late_clock is not None]
            if problems and self._expected_unanswered:
                self._expected_unanswered[-1] += [r for r, _ in problems]
            elif problems and late:
                raise Unanswered([p for _, p in problems], exc) from exc
            elif problems:
                exc.add_note(str(Unanswered([p for _, p in problems])))
            raise
        await self._check_answers(replies)
        for player, reply in delivered:
            self._finish(player, reply)

    async def _check_answers(self, replies: list[Reply]) -> None:
        """Fail with :class:`Unanswered` naming each interaction the bot did not answer
        within :data:`ANSWER_DEADLINE` of its own time (:class:`BotClock`), unless inside
        :meth:`expect_unanswered`. One still unanswered after the settle (the bot may be in a
        sleep the settle counts as idle) is waited for until its deadline has passed."""
        deadline = self.answer_deadline
        if deadline is None:
            return
        unanswered = [r for r in replies if not r.acknowledged]
        if unanswered and not self._expected_unanswered:
            waiting = unanswered
            while waiting and min(self._age(r) for r in waiting) <= deadline:
                handling = [t for r in waiting for t in self._handling(r)]
                if not handling:
                    break  # nothing is left that could still answer
                # Few wake-ups: on a loaded machine each costs run-queue time (not counted).
                await asyncio.wait(handling, timeout=0.1, return_when=asyncio.FIRST_COMPLETED)
                waiting = [r for r in waiting if not r.acknowledged]
            if len(waiting) < len(unanswered):
                await self.settle()  # an answer came: let what follows it finish too
        problems = self._answer_problems(replies)
        if not problems:
            return
        if self._expected_unanswered:
            self._expected_unanswered[-1] += [r for r, _ in problems]
            return
        if ANSWERS.recording:
            ANSWERS.problems += [(ANSWERS.test_name(), p) for _, p in problems]
            return
        raise Unanswered([p for _, p in problems])

    def _answer_problems(self, replies: list[Reply]) -> list[tuple[Reply, str]]:
        """Each reply not answered in time, with a line naming its interaction; records the
        answer times of the others."""
        problems: list[tuple[Reply, str]] = []
        for reply in replies:
            rec = reply._rec
            what = self._what.get(rec.token, "an interaction")
            seconds = reply.answer_seconds
            if seconds is not None:
                ANSWERS.answered_in(seconds, what)
                if seconds > (self.answer_deadline or ANSWER_DEADLINE):
                    problems.append((reply, f"{what}: answered after {seconds:.2f} s"))
            elif rec.late_clock is not None and rec.delivered_clock is not None:
                after = rec.late_clock - rec.delivered_clock
                problems.append((reply, f"{what}: answered after {after:.2f} s, refused (10062)"))
            else:
                problems.append((reply, f"{what}: not answered"))
        return problems

    def _handling(self, reply: Reply) -> list[asyncio.Task[Any]]:
        """The live tasks created while handling ``reply``'s interaction."""
        token = reply._rec.token
        owners = self.tracker.interaction_of
        return [t for t in list(self.tracker.tasks) if owners.get(t) == token and not t.done()]

    def _age(self, reply: Reply) -> float:
        """Bot-clock seconds since ``reply``'s interaction was delivered."""
        delivered = reply._rec.delivered_clock
        return 0.0 if delivered is None else self.clock() - delivered

    def _finish(self, player: Player, reply: Reply) -> None:
        reply._close(len(self.fake.events))
        record = reply._rec
        if record.modal is not None:
            self._modals[player.id] = (record.modal, record.channel_id, record.source_message_id)

    @contextlib.contextmanager
    def expect_unanswered(self) -> Iterator[list[Reply]]:
        """Inside the block, interactions may go unanswered or be answered late (a click
        that reaches no handler, a callback made to fail on purpose); yields their replies
        and fails if every interaction in it was answered in time."""
        sink: list[Reply] = []
        self._expected_unanswered.append(sink)
        try:
            yield sink
        finally:
            self._expected_unanswered.remove(sink)
        if not sink:
            raise HarnessError("expected an unanswered interaction, every one was answered")

    async def together(self, *actions: Awaitable[Reply]) -> list[Reply]:
        """Deliver several interactions back to back before any handler runs, as when two
        people press the same button within milliseconds; then settle once.

            r1, r2 = await h.together(alice.click(msg, "Join"), bob.click(msg, "Join"))
        """
        if self._batch is not None:
            raise HarnessError("h.together() cannot be nested")
        self._batch, self._building = [], []
        try:
            replies = list(await asyncio.gather(*actions))
            built = self._building
        finally:
            self._batch = self._building = None
        # Built first, then delivered back to back: each deadline runs from its own delivery,
        # not from while the harness was still building the others.
        for _, reply, payload in built:
            self._deliver(reply._rec, payload)
        # Every delivered interaction gets its share of the wait: a burst of a thousand
        # clicks is work, not a hang, on a loaded two-core machine.
        await self._settle_and_finish(
            [(player, reply) for player, reply, _ in built],
            timeout=self.settle_timeout + PER_INTERACTION_SETTLE * len(actions),
        )
        return replies

    async def expire_views(self) -> int:
        """Time out every live ``View`` with a timeout (as if its timeout elapsed): their
        ``on_timeout`` runs, and their buttons stop answering. Returns how many expired."""
        store = self.bot._connection._view_store  # private: the ConnectionState's ViewStore
        views: dict[int, Any] = {}
        for items in list(store._views.values()):  # private: {message_id: {key: item}}
            for item in items.values():
                if item.view is not None:
                    views[id(item.view)] = item.view
        for view in list(store._synced_message_views.values()):  # private
            views[id(view)] = view
        expiring = [v for v in views.values() if v.timeout is not None and not v.is_finished()]
        for view in expiring:
            view._dispatch_timeout()  # private: what the view's timeout task calls
        await self.settle()
        return len(expiring)

    def expire_interactions(self) -> None:
        """Age every interaction token past 15 minutes: followups and edits through them
        now fail with 401 (50027 Invalid Webhook Token), as on Discord."""
        for record in self.fake.interactions.values():
            record.expired = True

    # ------------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str | None,
        path_regex: str,
        status: int,
        code: int | None = None,
        *,
        message: str | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` REST or webhook calls matching ``method`` (None/"*": any)
        and ``path_regex`` (searched in e.g. ``/channels/123/messages``) raise the
        ``discord.HTTPException`` for ``status`` (403 -> Forbidden, 404 -> NotFound, ...)
        with Discord error ``code`` (default 50013 for 403, 10008 for 404)."""
        self.fake.add_fault(method, path_regex, status, code, message, times)

    def set_latency(self, seconds: float) -> None:
        """Every later REST and webhook call (interaction callbacks included) waits
        ``seconds`` before it is served, as when Discord answers slowly (0: instant)."""
        self.fake.latency = seconds

    # ------------------------------------------------------------------ queries

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every outbound REST/webhook call, in order (including failed ones)."""
        return self.fake.requests

    def message(self, message_id: int) -> Message:
        return Message(self, self.fake.messages[message_id])

    def messages(
        self,
        channel: Any = None,
        *,
        ephemeral: bool | None = None,
        include_deleted: bool = False,
    ) -> list[Message]:
        """Messages in creation order; in ``channel`` (object, id or name) if given;
        ``ephemeral=False``: public ones only, ``True``: ephemeral ones only."""
        cid = None if channel is None else self._channel(channel)
        return [
            Message(self, m)
            for m in self.fake.messages.values()
            if (cid is None or m.channel_id == cid)
            and (include_deleted or not m.deleted)
            and (ephemeral is None or m.ephemeral == ephemeral)
        ]

    def last_message(self, channel: Any = None, *, ephemeral: bool | None = None) -> Message:
        msgs = self.messages(channel, ephemeral=ephemeral)
        if not msgs:
            raise HarnessError(f"no messages in {channel or 'any channel'}")
        return msgs[-1]

    def visible_to(self, member: Any, channel: Any = None) -> list[Message]:
        """Messages ``member`` (Player, Member or id) can see: public ones and their own
        ephemeral ones."""
        uid = getattr(member, "id", member)
        return [m for m in self.messages(channel) if m.visible_for(uid)]

    @property
    def threads(self) -> list[discord.Thread]:
        """Threads created in the fake servers (and not deleted), as the bot sees them."""
        return [self.thread_object(tid) for tid in self.fake.threads]

    def thread_object(self, thread_id: int) -> discord.Thread:
        data = self.fake.threads[thread_id]
        guild = self.guild_of(int(data["guild_id"]))
        thread = guild.get_thread(thread_id)
        if thread is None:  # archived threads leave discord.py's cache
            state = self.bot._connection  # private
            thread = discord.Thread(guild=guild, state=state, data=data)  # type: ignore[arg-type]
        return thread

    def threads_of(self, guild: Any) -> list[discord.Thread]:
        """The threads of one server."""
        gid = self._guild_id(guild)
        return [t for t in self.threads if t.guild.id == gid]

    def thread(self, name: str) -> discord.Thread:
        for t in self.threads:
            if t.name == name:
                return t
        raise HarnessError(f"no thread {name!r}; threads: {[t.name for t in self.threads]}")


__all__ = [
    "ANSWER_DEADLINE",
    "BotClock",
    "BotErrorLogged",
    "Harness",
    "MessageRejected",
    "Player",
    "SettleTimeout",
    "Unanswered",
]

"""The fake Discord server: one message store behind both REST and interaction webhooks.

Two choke points carry every outbound call discord.py makes:

* ``discord.http.HTTPClient.request`` (ordinary REST: ``channel.send``, ``message.edit``,
  threads, fetches). dpytest installs ``FakeHttp``, which overrides many high-level
  ``HTTPClient`` methods with its own frame-inspecting fakes; :class:`HarnessHttp` puts the
  real ``HTTPClient`` methods back for messages/channels/threads so they all reach
  ``request``, and answers them here. Anything else reaching ``request`` raises.
* ``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks, followups,
  get/edit/delete of the original response), patched on the class by the harness.

Both record a :class:`RecordedRequest`, honour injected faults, update the one store of
:class:`StoredMessage` and echo MESSAGE_CREATE/UPDATE/DELETE and THREAD_* gateway events
to the bot's connection state, as Discord does.

discord.py internals are private: this module is written against discord.py 2.7.x (pinned
in pyproject). Each use of a private name carries a ``# private:`` comment.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import json
import math
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
import discord.http
import discord.webhook.async_ as webhook_async
from discord.ext.test import backend as dpytest_backend
from multidict import CIMultiDict

from . import payloads as P
from .commands import tree_problems as command_tree_problems

if TYPE_CHECKING:
    from discord.ext import commands

JsonDict = dict[str, Any]

API_BASE = discord.http.Route.BASE

# Token of the interaction being dispatched; set by the harness around the gateway parser so
# every task discord.py (or the bot) creates while handling it inherits it.
CURRENT_INTERACTION: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "CURRENT_INTERACTION", default=None
)


class FakeResponse:
    """Enough of an aiohttp response for ``discord.HTTPException``."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
_REASONS |= {429: "Too Many Requests", 500: "Internal Server Error"}
_DEFAULT_CODES = {403: 50013, 404: 10008, 429: 0, 400: 50035, 401: 50027}
_CODE_TEXT = {
    50013: "Missing Permissions",
    50006: "Cannot send an empty message",
    50001: "Missing Access",
    10008: "Unknown Message",
    10003: "Unknown Channel",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    50007: "Cannot send messages to this user",
    40060: "Interaction has already been acknowledged.",
    50027: "Invalid Webhook Token",
    50005: "Cannot edit a message authored by another user",
    50083: "Thread is archived",
    160004: "A thread has already been created for this message",
    0: "You are being rate limited.",
}


def http_error(status: int, code: int | None = None, message: str | None = None) -> Exception:
    """The ``discord.HTTPException`` subclass discord.py raises for this status/code."""
    code = _DEFAULT_CODES.get(status, 0) if code is None else code
    body = {"code": code, "message": message or _CODE_TEXT.get(code, "error")}
    if status == 429:
        body |= {"retry_after": 0.0, "global": False}
    response = FakeResponse(status, _REASONS.get(status, "Error"))
    exc: discord.HTTPException
    if status == 403:
        exc = discord.Forbidden(response, body)
    elif status == 404:
        exc = discord.NotFound(response, body)
    elif status >= 500:
        exc = discord.DiscordServerError(response, body)
    else:
        exc = discord.HTTPException(response, body)
    # What the fake's HTTP layer answers for it (see FakeSession): the body and headers
    exc.fake_body = body  # type: ignore[attr-defined]
    exc.fake_headers = {}  # type: ignore[attr-defined]
    return exc


def rate_limited(
    retry_after: float, *, scope: str = "user", bucket: _Bucket | None = None, now: float = 0.0
) -> Exception:
    """Discord's 429: ``retry_after`` in the body and in ``Retry-After``, the bucket's headers,
    and ``Via`` (without it discord.py takes the 429 for a Cloudflare ban and does not retry)."""
    exc = http_error(429, 0, "You are being rate limited.")
    body: JsonDict = exc.fake_body  # type: ignore[attr-defined]
    body.pop("code")
    # Rounded up to the millisecond: rounded down, discord.py would wake a hair early.
    body |= {"retry_after": math.ceil(retry_after * 1000) / 1000, "global": scope == "global"}
    headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after))}
    headers["X-RateLimit-Scope"] = scope
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    elif bucket is not None:
        headers |= bucket.headers(now) | {"X-RateLimit-Remaining": "0"}
    exc.fake_headers = headers  # type: ignore[attr-defined]
    exc.retry_after = retry_after  # type: ignore[attr-defined]
    return exc


# ---------------------------------------------------------------------- rate limits & time

# Discord's per-route limits for the routes the bot uses, as its headers report them (Discord
# does not publish them; these are the observed ones, and thread creation is assumed to share
# the message-create pace). Each counts per channel (the route's major parameter); every
# other REST call counts only toward the global limit. Interaction callbacks and followups
# (/interactions, /webhooks) are exempt from the global limit, as on Discord.
ROUTE_LIMITS: tuple[tuple[str, re.Pattern[str], str, int, float], ...] = (
    ("POST", re.compile(r"^/channels/(\d+)/messages$"), "message-create", 5, 5.0),
    ("PATCH", re.compile(r"^/channels/(\d+)/messages/\d+$"), "message-edit", 5, 5.0),
    ("DELETE", re.compile(r"^/channels/(\d+)/messages/\d+$"), "message-delete", 5, 1.0),
    ("POST", re.compile(r"^/channels/(\d+)/(?:messages/\d+/)?threads$"), "thread-create", 5, 5.0),
    ("*", re.compile(r"^/channels/(\d+)/messages/\d+/reactions/"), "reaction", 1, 0.25),
)
GLOBAL_LIMIT = (50, 1.0)  # requests a second over all REST routes


@dataclass
class _Bucket:
    """One rate-limit bucket: ``limit`` requests per ``per`` seconds of the fake's clock."""

    name: str
    limit: int
    per: float
    used: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> float | None:
        """Count one request; None if it may pass, else the seconds until the bucket resets.
        A request within a microsecond of the reset counts as after it (float sums of the
        clock, as for a 429's retry_after)."""
        if now >= self.resets_at - 1e-6:
            self.used, self.resets_at = 0, now + self.per
        if self.used >= self.limit:
            return self.resets_at - now
        self.used += 1
        return None

    def headers(self, now: float) -> dict[str, str]:
        # Rounded up to the millisecond, as a 429's retry_after is: rounded to the nearest,
        # discord.py's pre-emptive wait on a spent bucket could end up to half a millisecond
        # before the reset, and the next request got a 429 whenever the bot took less than
        # that between the answer and the wait (issue 31 item 28: one run in a few).
        after = math.ceil(max(0.0, self.resets_at - now) * 1000) / 1000
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.used)),
            "X-RateLimit-Reset": f"{math.ceil((time.time() + after) * 1000) / 1000:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


class DiscordClock:
    """The time discord.py's HTTP layer waits on in tests: the loop's time plus every wait
    it skipped. A rate-limit wait of ``d`` seconds lasts at most ``REAL_WAIT`` seconds of real
    time (so work already under way goes first, as it would during a real wait); then the
    clock jumps to its end. Buckets and ``Reply`` timings read this clock, so a five-second
    wait shows as five seconds while the suite stays fast. The bot's own clock (timers) does
    not move with it."""

    REAL_WAIT = 0.05

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.skipped = 0.0

    def now(self) -> float:
        return self.loop.time() + self.skipped

    async def sleep(self, delay: float) -> None:
        if delay <= 0:
            await asyncio.sleep(0)
            return
        target = self.now() + delay
        await asyncio.sleep(min(delay, self.REAL_WAIT))
        self.skipped += max(0.0, target - self.now())

    async def until(self, target: float) -> None:
        """Wait until the clock reaches ``target`` without making it jump: a timed wait for an
        event (discord.py's bucket queue) ends when the event comes, or when others' waits
        have moved the clock, or in real time."""
        while (left := target - self.now()) > 0:
            await asyncio.sleep(min(left, self.REAL_WAIT))


class _LoopView:
    """The running loop with the fake's clock as ``time()`` (for discord.py's ``Ratelimit``)."""

    def __init__(self, clock: DiscordClock) -> None:
        self._clock = clock

    def time(self) -> float:
        return self._clock.now()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._clock.loop, name)


_ACTIVE_CLOCK: list[DiscordClock] = []  # the clock of the harness running now, if any


def _clock() -> DiscordClock | None:
    if _ACTIVE_CLOCK:
        clock = _ACTIVE_CLOCK[-1]
        try:
            if clock.loop is asyncio.get_running_loop():
                return clock
        except RuntimeError:
            pass
    return None


class _ClockedAsyncio:
    """``asyncio`` as discord.py's HTTP modules see it: sleeps and timed waits (the 429 retry,
    a bucket's pre-emptive wait) run on the harness's :class:`DiscordClock`. Outside a harness
    it is plain asyncio."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        clock = _clock()
        if clock is None:
            return await asyncio.sleep(delay, result)
        await clock.sleep(delay)
        return result

    @staticmethod
    async def wait(
        fs: Any, *, timeout: float | None = None, return_when: str = "ALL_COMPLETED"
    ) -> Any:
        clock = _clock()
        futures = [asyncio.ensure_future(f) for f in fs]
        if (
            clock is None
            or timeout is None
            or (len(futures) > 1 and return_when != "FIRST_COMPLETED")
        ):
            return await asyncio.wait(futures, timeout=timeout, return_when=return_when)  # type: ignore[arg-type]
        timer = asyncio.ensure_future(clock.until(clock.now() + timeout))
        try:
            await asyncio.wait([*futures, timer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        return {f for f in futures if f.done()}, {f for f in futures if not f.done()}

    @staticmethod
    def get_running_loop() -> Any:
        clock = _clock()
        return _LoopView(clock) if clock is not None else asyncio.get_running_loop()


# private: discord.py's REST client and webhook adapter call ``asyncio.sleep``/``wait`` through
# their module's ``asyncio`` name; outside a harness the shim is plain asyncio.
discord.http.asyncio = _ClockedAsyncio()  # type: ignore[assignment]
webhook_async.asyncio = _ClockedAsyncio()  # type: ignore[assignment]
# private: the real webhook transport, kept before the harness patches the class, so that
# interaction calls run discord.py's own retry loop against FakeSession.
_REAL_WEBHOOK_REQUEST = webhook_async.AsyncWebhookAdapter.__dict__["request"]

# The call discord.py is making, as it was made (before it serialised body and files).
_PENDING: contextvars.ContextVar[tuple[str, Any, JsonDict] | None] = contextvars.ContextVar(
    "_PENDING", default=None
)


class _FakeHTTPResponse:
    """Enough of an ``aiohttp.ClientResponse`` for discord.py's request loops."""

    def __init__(self, status: int, data: Any, headers: dict[str, str]) -> None:
        self.status = status
        self.reason = _REASONS.get(status, "OK" if status < 300 else "Error")
        self.headers: CIMultiDict[str] = CIMultiDict(headers)
        self._text = "" if data is None else json.dumps(data)
        if data is not None:
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _FakeHTTPResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _FakeCall:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.response: _FakeHTTPResponse | None = None

    async def __aenter__(self) -> _FakeHTTPResponse:
        pending = _PENDING.get()
        assert pending is not None, "a request reached the fake session outside the harness"
        source, route, kwargs = pending
        headers: dict[str, str] = {}
        try:
            if source == "rest":
                data = await self.fake.handle_rest(route, response_headers=headers, **kwargs)
            else:
                data = await self.fake.serve_webhook(route, response_headers=headers, **kwargs)
            status = 200 if data is not None else 204
        except discord.HTTPException as exc:
            status = exc.status
            data = getattr(exc, "fake_body", {"code": exc.code, "message": exc.text})
            headers |= getattr(exc, "fake_headers", {})
        self.response = _FakeHTTPResponse(status, data, headers)
        return self.response

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeSession:
    """The ``aiohttp.ClientSession`` discord.py sends through in tests: each attempt of its
    request loops is served by :class:`FakeDiscord` (faults, rate limits, routes)."""

    closed = False

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def request(self, method: str, url: str, **_: Any) -> _FakeCall:
        return _FakeCall(self.fake)

    async def close(self) -> None:
        return None


@dataclass
class Fault:
    method: str | None
    pattern: re.Pattern[str]
    status: int
    code: int | None
    message: str | None
    times: int
    retry_after: float = 1.0  # for a 429
    scope: str = "user"  # for a 429: "user" (the route's bucket), "shared" or "global"

    def matches(self, method: str, path: str) -> bool:
        method_ok = self.method in (None, "*") or self.method.upper() == method
        return method_ok and self.pattern.search(path) is not None


@dataclass
class RecordedRequest:
    """One outbound call the bot made. ``source`` is ``"rest"`` or ``"webhook"``."""

    source: str
    method: str
    path: str
    json: JsonDict | list[Any] | None
    files: list[tuple[str, bytes]]
    failed_with: int | None = None
    at: float = 0.0  # when it reached the fake, on the fake's clock (DiscordClock.now)


@dataclass
class StoredFile:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str


@dataclass
class StoredMessage:
    """A message as the fake Discord holds it. ``payload`` is what Discord would serve."""

    id: int
    channel_id: int
    payload: JsonDict
    author_id: int
    visible_to: int | None = None  # set for ephemeral messages
    interaction_token: str | None = None
    files: dict[int, StoredFile] = field(default_factory=dict)
    history: list[JsonDict] = field(default_factory=list)
    deleted: bool = False

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags", 0))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & P.EPHEMERAL)


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    channel_id: int
    guild_id: int | None  # None outside a server (a DM or group DM)
    user_id: int
    source_message_id: int | None = None
    response_type: int | None = None
    original_id: int | None = None
    loading: bool = False
    followup_ids: list[int] = field(default_factory=list)
    modal: JsonDict | None = None
    choices: list[JsonDict] | None = None
    expired: bool = False
    # time.perf_counter() when the callback (the interaction's answer) was served
    answered_at: float | None = None
    # The harness's bot clock (``FakeDiscord.bot_clock``) at delivery and at the answer:
    # what Discord's 3-second deadline is measured in (see ``Harness`` and its README).
    delivered_clock: float | None = None
    answered_clock: float | None = None
    late_clock: float | None = None  # when a callback came too late and was refused


@dataclass
class Event:
    """Something visible happened. ``kind``: create, edit, delete, modal, choices, thread."""

    kind: str
    id: int | None
    token: str | None = None


Handler = Callable[..., Awaitable[Any]]


def _route(method: str, template: str, handler: Handler) -> tuple[str, re.Pattern[str], Handler]:
    """``/channels/{c}/messages/{m}``: each ``{x}`` matches one path segment (passed to the
    handler positionally)."""
    pattern = re.sub(
        r"\{\w+\}", "([^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
    )
    return method, re.compile(f"^{pattern}$"), handler


class FakeDiscord:
    """Server-side state shared by every bot instance of one harness."""

    def __init__(self, guild_id: int, guild_ids: Sequence[int] = ()) -> None:
        self.guild_id = guild_id  # the first server
        self.guild_ids = list(guild_ids) or [guild_id]  # every server, the first first
        self.client: commands.Bot | None = None
        self.messages: dict[int, StoredMessage] = {}
        self.threads: dict[int, JsonDict] = {}
        self.thread_members: dict[int, set[int]] = {}
        # Roles a test lets the bot ping on purpose (a server's chosen lobby role); every
        # other role, @everyone and @here a body lets Discord ping is refused.
        self.pingable_roles: set[int] = set()
        self.dm_channels: dict[int, int] = {}
        self.dm_blocked: set[int] = set()
        # DMs between members and group DMs, where a user-installed app is no member: it
        # answers interactions there (their webhook) but every REST call is 403 50001.
        self.private_channels: dict[int, JsonDict] = {}
        self.members: dict[int, JsonDict] = {}  # member payloads (with "user") by user id
        # Who is a member of which server: guild id -> user id -> their member payload there.
        self.memberships: dict[int, dict[int, JsonDict]] = {}
        self.commands: dict[int | None, list[JsonDict]] = {}  # synced, by guild id (None: global)
        self.interactions: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.events: list[Event] = []
        self.faults: list[Fault] = []
        self.files_by_url: dict[str, bytes] = {}
        # Messages refused for breaking Discord's limits or for pinging @everyone/a role:
        # the harness fails the test with these even if the bot swallowed the 400.
        self.rejected: list[str] = []
        # Sends and edits whose embeds Discord dropped because the bot lacks Embed Links.
        self.dropped_embeds: list[str] = []
        self.gateway_echo = True
        # Seconds every REST and webhook call takes before it is served (0: instant), to
        # measure what players wait for when Discord is slow; see ``Harness.set_latency``.
        self.latency = 0.0
        # Rate limits (on by default): the buckets of ROUTE_LIMITS and GLOBAL_LIMIT, on a
        # clock whose waits are skipped (DiscordClock). ``rate_limit_breaches`` are requests
        # sent while a 429's retry_after was still running: the harness fails the test.
        self.rate_limits = True
        self.clock = DiscordClock(asyncio.get_running_loop())
        _ACTIVE_CLOCK[:] = [self.clock]
        self.session = FakeSession(self)
        self._buckets: dict[str, _Bucket] = {}
        self._global = _Bucket("global", *GLOBAL_LIMIT)
        self._retry_at: dict[str, float] = {}  # route key -> end of its last 429's wait
        self.deleted_channels: set[int] = set()
        self.answered_on_http_clock: dict[str, float] = {}  # token -> when answered (DiscordClock)
        self._webhook_adapter = webhook_async.AsyncWebhookAdapter()
        # The bot's own time (set by the harness) and Discord's deadline for an
        # interaction's first answer in it: a later callback gets 404/10062, as on Discord.
        self.bot_clock: Callable[[], float] | None = None
        self.answer_deadline = 3.0
        R = _route
        self._rest_routes: list[tuple[str, re.Pattern[str], Handler]] = [
            R("POST", "/channels/{c}/messages", self._rest_send),
            R("GET", "/channels/{c}/messages", self._rest_history),
            R("GET", "/channels/{c}/messages/{m}", self._rest_get),
            R("PATCH", "/channels/{c}/messages/{m}", self._rest_edit),
            R("DELETE", "/channels/{c}/messages/{m}", self._rest_delete),
            R("POST", "/channels/{c}/messages/bulk-delete", self._rest_bulk),
            R("POST", "/channels/{c}/messages/{m}/threads", self._thread_msg),
            R("POST", "/channels/{c}/threads", self._thread_plain),
            R("GET", "/channels/{c}", self._get_channel),
            R("PATCH", "/channels/{c}", self._edit_channel),
            R("DELETE", "/channels/{c}", self._delete_channel),
            R("GET", "/guilds/{g}/members/{u}", self._get_member),
            R("PUT", "/channels/{c}/thread-members/{u}", self._t_member),
            R("DELETE", "/channels/{c}/thread-members/{u}", self._t_member),
            R("POST", "/channels/{c}/typing", self._typing),
            R("PUT", "/channels/{c}/messages/pins/{m}", self._pin),
            R("DELETE", "/channels/{c}/messages/pins/{m}", self._pin),
            R("PUT", "/channels/{c}/messages/{m}/reactions/{e}/@me", self._react),
            R("DELETE", "/channels/{c}/messages/{m}/reactions/{e}/@me", self._react),
            R("POST", "/users/@me/channels", self._create_dm),
            R("PUT", "/applications/{a}/commands", self._sync_commands),
            R("GET", "/applications/{a}/commands", self._get_commands),
            R("PUT", "/applications/{a}/guilds/{g}/commands", self._sync_commands),
            R("GET", "/applications/{a}/guilds/{g}/commands", self._get_commands),
        ]

    # ------------------------------------------------------------------ plumbing

    @property
    def bot(self) -> commands.Bot:
        assert self.client is not None, "no bot attached to the fake Discord"
        return self.client

    @property
    def state(self) -> Any:
        return self.bot._connection  # private: the client's ConnectionState (dpytest FakeState)

    @property
    def bot_user_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    @property
    def guild(self) -> discord.Guild:
        guild = self.bot.get_guild(self.guild_id)
        assert guild is not None
        return guild

    def add_fault(
        self,
        method: str | None,
        path_regex: str,
        status: int,
        code: int | None,
        message: str | None,
        times: int,
        *,
        retry_after: float = 1.0,
        scope: str = "user",
    ) -> None:
        """A 429 is answered as Discord does (see :func:`rate_limited`): discord.py waits
        ``retry_after`` and tries again, up to five times, before the bot sees it."""
        fault = Fault(method, re.compile(path_regex), status, code, message, times)
        fault.retry_after, fault.scope = retry_after, scope
        self.faults.append(fault)

    def _check_fault(self, req: RecordedRequest) -> None:
        for fault in self.faults:
            if fault.matches(req.method, req.path):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                req.failed_with = fault.status
                if fault.status == 429:
                    self._retry_at[self._route_key(req)] = req.at + fault.retry_after
                    raise rate_limited(fault.retry_after, scope=fault.scope)
                raise http_error(fault.status, fault.code, fault.message)

    # ------------------------------------------------------------------ rate limits

    @staticmethod
    def _route_key(req: RecordedRequest) -> str:
        for method, pattern, name, _, _ in ROUTE_LIMITS:
            if method in ("*", req.method) and (m := pattern.match(req.path)):
                return f"{name}:{m.group(1)}"
        return f"{req.method} {req.path}"

    def _bucket(self, req: RecordedRequest) -> _Bucket | None:
        for method, pattern, name, limit, per in ROUTE_LIMITS:
            if method in ("*", req.method) and (m := pattern.match(req.path)):
                key = f"{name}:{m.group(1)}"
                if key not in self._buckets:
                    self._buckets[key] = _Bucket(name, limit, per)
                return self._buckets[key]
        return None

    def _rate_limit(self, req: RecordedRequest, headers: dict[str, str]) -> None:
        """Count ``req`` in its buckets, or answer 429 as Discord would. A request sent before
        the retry_after of the route's (or the global) last 429 is a breach: Discord counts it
        toward the invalid-request ban, so the harness fails the test (discord.py itself
        always waits; a bot retrying by hand does not)."""
        now = req.at
        webhook = req.source == "webhook"
        for key in ("global", self._route_key(req)):
            if key == "global" and webhook:
                continue
            until = self._retry_at.get(key, 0.0)
            if now < until - 1e-6:
                self.rejected.append(
                    f"{req.method} {req.path}: sent {until - now:.2f} s before the retry_after "
                    "of its last 429 ran out (retry by hand? let discord.py wait)"
                )
                req.failed_with = 429
                raise rate_limited(until - now, scope="global" if key == "global" else "user")
        if not self.rate_limits:
            return
        bucket = None if webhook else self._bucket(req)
        if bucket is not None:
            wait = bucket.take(now)
            if wait is not None:
                self._retry_at[self._route_key(req)] = now + wait
                req.failed_with = 429
                raise rate_limited(wait, bucket=bucket, now=now)
            headers |= bucket.headers(now)
        if not webhook and (wait := self._global.take(now)) is not None:
            self._retry_at["global"] = now + wait
            req.failed_with = 429
            raise rate_limited(wait, scope="global")

    def _refuse(self, req: RecordedRequest, problems: list[str], code: int = 50035) -> None:
        """Fail the call as Discord would (400, 50035) and remember why for the harness."""
        if not problems:
            return
        text = "; ".join(problems)
        self.rejected.append(f"{req.method} {req.path}: {text}")
        req.failed_with = 400
        what = "Invalid Form Body" if code == 50035 else _CODE_TEXT[code]
        raise http_error(400, code, f"{what} (refused by the test harness): {text}")

    def check_message(
        self, req: RecordedRequest, body: JsonDict | None, base: StoredMessage | None = None
    ) -> None:
        """Refuse a message body Discord would reject (sizes, duplicate custom_ids, more than
        10 files) or that could ping @everyone, @here or a role, or files over the upload
        limit (see :func:`payloads.message_problems` / ``mention_problems`` /
        ``file_problems``); then one that would show nothing (50006). ``base``: the message
        an edit changes (what the edit leaves out stays)."""
        body = P.v2_edit(body or {}, base.payload if base is not None else None)
        old = base.payload if base is not None else None
        problems = P.message_problems(body) + P.mention_problems(body, self.pingable_roles)
        kept = P.kept_attachments(body, old)
        self._refuse(req, problems + P.file_problems(req.files, kept=kept))
        if P.is_empty_message(body, files=len(req.files), base=old):
            self._refuse(req, ["the message would be empty"], 50006)

    def _event(self, kind: str, id: int | None, token: str | None = None) -> None:
        # Without an explicit token, attribute the event to the interaction whose handling
        # caused it: dispatch tasks (and tasks they spawn) inherit CURRENT_INTERACTION.
        self.events.append(Event(kind, id, token or CURRENT_INTERACTION.get()))

    def _echo(self, parser: str, data: JsonDict) -> None:
        if self.gateway_echo:
            getattr(self.state, parser)(copy.deepcopy(data))

    # ------------------------------------------------------------------ bodies & files

    @staticmethod
    def _read_files(files: Sequence[discord.File] | None) -> list[tuple[str, bytes]]:
        out = []
        for f in files or ():
            f.reset()
            out.append((f.filename or "file", f.fp.read()))
        return out

    @staticmethod
    def _form_json(form: Sequence[JsonDict] | None) -> JsonDict | None:
        for part in form or ():
            if part.get("name") == "payload_json":
                value = part["value"]
                parsed: JsonDict = json.loads(value) if isinstance(value, str | bytes) else value
                return parsed
        return None

    def _apply(
        self,
        msg: StoredMessage,
        fields: JsonDict,
        files: list[tuple[str, bytes]],
        *,
        creating: bool,
    ) -> None:
        """Apply message fields (content/embeds/components/attachments/flags) to ``msg``."""
        data = msg.payload
        if not creating:
            msg.history.append(copy.deepcopy(data))
            data["edited_timestamp"] = P.iso_now()
        if "content" in fields:
            data["content"] = fields["content"] or ""
        for key in ("embeds", "components", "poll"):
            if key in fields:
                data[key] = fields[key] or []
        if "flags" in fields and not creating:
            server = P.EPHEMERAL | P.HAS_THREAD | P.LOADING
            keep = server | P.COMPONENTS_V2_FLAG  # an edit may set it, never remove it
            data["flags"] = (data.get("flags", 0) & keep) | (int(fields["flags"] or 0) & ~server)
        new_files: list[StoredFile] = []
        for filename, raw in files:
            att_id = P.next_id()
            ctype = mimetypes.guess_type(filename)[0]
            att = P.attachment_payload(
                attachment_id=att_id,
                channel_id=msg.channel_id,
                filename=filename,
                size=len(raw),
                content_type=ctype,
            )
            new_files.append(StoredFile(att_id, filename, raw, ctype, att["url"]))
            self.files_by_url[att["url"]] = raw
        if "attachments" in fields and not creating:
            keep_ids = {str(a.get("id")) for a in fields["attachments"] or ()}
            msg.files = {k: v for k, v in msg.files.items() if str(k) in keep_ids}
        for f in new_files:
            msg.files[f.id] = f
        data["attachments"] = [
            P.attachment_payload(
                attachment_id=f.id,
                channel_id=msg.channel_id,
                filename=f.filename,
                size=len(f.data),
                content_type=f.content_type,
            )
            for f in msg.files.values()
        ]

    # ------------------------------------------------------------------ message store

    def _channel(self, channel_id: int) -> Any:
        """The channel as the server knows it: a guild channel, a thread record or a DM."""
        if channel_id in self.deleted_channels:
            raise http_error(404, 10003)
        if channel_id in self.threads:
            return self.threads[channel_id]
        if channel_id in self.dm_channels:
            return {"id": str(channel_id), "type": 1}
        if channel_id in self.private_channels:
            raise http_error(403, 50001, "Missing Access: the app is not in this channel")
        channel = self._guild_channel(channel_id)
        if channel is None:
            raise http_error(404, 10003)
        return channel

    def _guild_channel(self, channel_id: int) -> Any:
        """A guild channel (not a thread) of any of the servers, or None."""
        for guild_id in self.guild_ids:
            guild = self.bot.get_guild(guild_id)
            channel = guild.get_channel(channel_id) if guild is not None else None
            if channel is not None:
                return channel
        return None

    def _guild_id_for(self, channel_id: int) -> int | None:
        """The server of a channel or thread (None: a DM or a private channel)."""
        private = channel_id in self.dm_channels or channel_id in self.private_channels
        if private:
            return None
        if channel_id in self.threads:
            return int(self.threads[channel_id]["guild_id"])
        channel = self._guild_channel(channel_id) if self.client is not None else None
        return channel.guild.id if channel is not None else self.guild_id

    def _echoes(self, msg: StoredMessage) -> bool:
        """Whether the bot gets a gateway event for this message (not in DMs, nor in a
        private channel it is no member of)."""
        private = msg.channel_id in self.dm_channels or msg.channel_id in self.private_channels
        return not msg.ephemeral and not private

    def create_message(
        self,
        *,
        channel_id: int,
        author: JsonDict,
        fields: JsonDict,
        files: list[tuple[str, bytes]],
        flags: int = 0,
        visible_to: int | None = None,
        token: str | None = None,
        msg_type: int = 0,
        webhook_id: int | None = None,
    ) -> StoredMessage:
        mid = P.next_id()
        if channel_id in self.dm_channels:
            visible_to = self.dm_channels[channel_id]  # a DM is seen by its recipient only
        payload = P.message_payload(
            message_id=mid,
            channel_id=channel_id,
            guild_id=self._guild_id_for(channel_id),
            author=author,
            flags=flags,
            type=msg_type,
            webhook_id=webhook_id,
            application_id=webhook_id,
        )
        msg = StoredMessage(
            id=mid,
            channel_id=channel_id,
            payload=payload,
            author_id=int(author["id"]),
            visible_to=visible_to,
            interaction_token=token,
        )
        self._apply(msg, fields, files, creating=True)
        self.messages[mid] = msg
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            thread["message_count"] += 1
            thread["total_message_sent"] += 1
            thread["last_message_id"] = str(mid)
        self._event("create", mid, token)
        if self._echoes(msg):
            self._echo("parse_message_create", msg.payload)
        return msg

    def edit_message(
        self,
        msg: StoredMessage,
        fields: JsonDict,
        files: list[tuple[str, bytes]],
        token: str | None,
    ) -> StoredMessage:
        if msg.deleted:
            raise http_error(404, 10008)
        self._apply(msg, fields, files, creating=False)
        self._event("edit", msg.id, token)
        if self._echoes(msg):
            self._echo("parse_message_update", msg.payload)
        return msg

    def delete_message(self, msg: StoredMessage, token: str | None = None) -> None:
        if msg.deleted:
            raise http_error(404, 10008)
        msg.deleted = True
        self._event("delete", msg.id, token)
        if self._echoes(msg):
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            data["guild_id"] = str(self._guild_id_for(msg.channel_id) or self.guild_id)
            self._echo("parse_message_delete", data)

    def delete_thread(self, thread_id: int, *, echo: bool = True) -> JsonDict:
        """Delete a thread as a moderator would: it and its messages are gone (every later
        call on them answers 404, 10003 Unknown Channel or 10008 Unknown Message). ``echo``:
        send THREAD_DELETE; False models an event the bot missed (or not yet received), so
        its cache still holds the thread."""
        data = self.threads.pop(thread_id)
        self.thread_members.pop(thread_id, None)
        self._gone(thread_id)
        self._event("thread", thread_id)
        if echo:
            self._echo(
                "parse_thread_delete",
                {"id": str(thread_id), "guild_id": data["guild_id"], "type": data["type"]}
                | {"parent_id": data["parent_id"]},
            )
        return data

    def delete_channel(self, channel_id: int, *, echo: bool = True) -> None:
        """Delete a guild channel with its threads and messages, as a moderator would.
        Discord sends one CHANNEL_DELETE (``echo``), none for the threads."""
        channel = self._guild_channel(channel_id)
        if channel is None or channel_id in self.deleted_channels:
            raise http_error(404, 10003)
        for thread_id in [t for t, d in self.threads.items() if int(d["parent_id"]) == channel_id]:
            self.delete_thread(thread_id, echo=False)
        self._gone(channel_id)
        if echo:
            dpytest_backend.delete_channel(channel)

    def _gone(self, channel_id: int) -> None:
        self.deleted_channels.add(channel_id)
        for msg in self.messages.values():
            if msg.channel_id == channel_id:
                msg.deleted = True

    def _message(self, channel_id: int | None, message_id: int) -> StoredMessage:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
            raise http_error(404, 10008)
        return msg

    def bot_author(self) -> JsonDict:
        """The bot as a message's author (the bench and the rate-limit test post as it)."""
        assert self.bot.user is not None
        return P.user_payload(self.bot.user)

    def _bot_permissions(self, channel: Any) -> Callable[[str], bool] | None:
        """Whether the bot has a permission in a guild channel or thread (a thread has its
        parent's, Send Messages being Send Messages in Threads); None in a DM, where none
        apply."""
        if isinstance(channel, dict):  # a thread record or a DM
            if channel.get("type") == 1:
                return None
            parent = self._guild_channel(int(channel["parent_id"]))
            if parent is None:
                raise http_error(404, 10003)
            # As discord.py's Thread.permissions_for: the parent's overwrites, with Discord's
            # implicit denials (embeds, files) hanging on Send Messages in Threads instead.
            perms = discord.abc.GuildChannel.permissions_for(parent, parent.guild.me)
            if not perms.send_messages_in_threads:
                perms.embed_links = perms.attach_files = False
            threaded = {"send_messages": "send_messages_in_threads"}
            return lambda name: bool(getattr(perms, threaded.get(name, name)))
        perms = channel.permissions_for(channel.guild.me)
        return lambda name: bool(getattr(perms, name))

    def _has(self, channel: Any, perm: str) -> bool:
        have = self._bot_permissions(channel)
        return have is None or have(perm)

    def _require(self, channel: Any, *perms: str, missing_code: int = 50013) -> None:
        """As Discord: a channel the bot cannot see is 403 50001 Missing Access; a missing
        permission in one it sees is 403 50013 Missing Permissions (``missing_code``: reads
        of history answer 50001 too)."""
        have = self._bot_permissions(channel)
        if have is None:
            return
        if not have("view_channel"):
            raise http_error(403, 50001, "Missing Access: View Channel")
        missing = [p for p in perms if not have(p)]
        if missing:
            text = _CODE_TEXT[missing_code]
            raise http_error(403, missing_code, f"{text}: {', '.join(missing)}")

    def _embeds_allowed(self, channel: Any, req_body: JsonDict, where: str) -> JsonDict:
        """The body as Discord keeps it: without Embed Links a bot's embeds are dropped,
        silently (the message is still sent or edited); noted in ``dropped_embeds``."""
        if not req_body.get("embeds") or self._has(channel, "embed_links"):
            return req_body
        self.dropped_embeds.append(where)
        return {**req_body, "embeds": []}

    # ------------------------------------------------------------------ REST

    async def handle_rest(
        self, route: discord.http.Route, *, response_headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        """Serve one attempt of a REST call (``kwargs`` as the bot passed them to
        ``HTTPClient.request``); the bucket headers go to ``response_headers``."""
        path = route.url[len(API_BASE) :]
        body = kwargs.pop("json", None)
        form = kwargs.pop("form", None)
        if body is None and form:
            body = self._form_json(form)
        files = self._read_files(kwargs.pop("files", None))
        req = RecordedRequest("rest", route.method, path, body, files, at=self.clock.now())
        self.requests.append(req)
        if self.latency:
            await asyncio.sleep(self.latency)
        self._rate_limit(req, {} if response_headers is None else response_headers)
        self._check_fault(req)
        if route.method in ("POST", "PATCH") and (m := _MESSAGE_PATH.match(path)):
            edited = self.messages.get(int(m[1][1:])) if m[1] and route.method == "PATCH" else None
            self.check_message(req, body, edited)
        elif route.method == "POST" and _THREADS_PATH.match(path) and (body or {}).get("message"):
            self.check_message(req, body["message"])  # a forum post's first message
        for method, pattern, handler in self._rest_routes:
            if method == route.method and (m := pattern.match(path)):
                try:
                    return await handler(*m.groups(), body=body or {}, files=files, **kwargs)
                except discord.HTTPException as exc:
                    req.failed_with = exc.status  # e.g. 404 for a deleted thread
                    raise
        raise NotImplementedError(
            f"the fake Discord has no route for {route.method} {path} "
            "(add it in tests/harness/fake.py rather than letting it pass silently)"
        )

    async def _rest_send(self, cid: str, *, body: JsonDict, files: Any, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if self.dm_channels.get(int(cid)) in self.dm_blocked:
            raise http_error(403, 50007)
        self._require(channel, "send_messages", *(["attach_files"] if files else []))
        body = self._embeds_allowed(channel, body, f"POST /channels/{cid}/messages")
        if isinstance(channel, dict) and channel.get("thread_metadata", {}).get("archived"):
            meta = channel["thread_metadata"]
            if meta.get("locked"):
                raise http_error(403, 50083)
            meta["archived"] = False  # sending unarchives an unlocked thread
            self._echo("parse_thread_update", channel)
        flags = int(body.get("flags") or 0) & ~P.EPHEMERAL
        msg = self.create_message(
            channel_id=int(cid), author=self.bot_author(), fields=body, files=files, flags=flags
        )
        return copy.deepcopy(msg.payload)

    async def _rest_history(self, cid: str, **kwargs: Any) -> list[JsonDict]:
        channel = self._channel(int(cid))
        self._require(channel)
        if not self._has(channel, "read_message_history"):
            return []  # as Discord: no error, just no messages
        params = kwargs.get("params") or {}
        msgs = [
            m
            for m in self.messages.values()
            if m.channel_id == int(cid) and not m.deleted and not m.ephemeral
        ]
        if "before" in params:
            msgs = [m for m in msgs if m.id < int(params["before"])]
        if "after" in params:
            msgs = [m for m in msgs if m.id > int(params["after"])]
        limit = int(params.get("limit", 50))
        newest_first = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return [copy.deepcopy(m.payload) for m in newest_first]

    async def _rest_get(self, cid: str, mid: str, **_: Any) -> JsonDict:
        self._require(self._channel(int(cid)), "read_message_history", missing_code=50001)
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        return copy.deepcopy(msg.payload)

    async def _rest_edit(self, cid: str, mid: str, *, body: JsonDict, files: Any, **_: Any) -> Any:
        channel = self._channel(int(cid))
        self._require(channel, *(["attach_files"] if files else []))  # the bot's own: no Send
        body = self._embeds_allowed(channel, body, f"PATCH /channels/{cid}/messages/{mid}")
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        if msg.author_id != self.bot_user_id:
            raise http_error(403, 50005)
        return copy.deepcopy(self.edit_message(msg, body, files, None).payload)

    async def _rest_delete(self, cid: str, mid: str, **_: Any) -> None:
        self._require(self._channel(int(cid)))
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        if msg.author_id != self.bot_user_id:
            self._require(self._channel(int(cid)), "manage_messages")
        self.delete_message(msg)

    async def _rest_bulk(self, cid: str, *, body: JsonDict, **_: Any) -> None:
        self._require(self._channel(int(cid)), "manage_messages")
        for mid in body.get("messages", []):
            self.delete_message(self._message(int(cid), int(mid)))

    def _new_thread(self, parent_id: int, thread_id: int, body: JsonDict, type: int) -> JsonDict:
        data = P.thread_payload(
            thread_id=thread_id,
            guild_id=self._guild_id_for(parent_id) or self.guild_id,
            parent_id=parent_id,
            owner_id=self.bot_user_id,
            name=body.get("name") or "thread",
            type=type,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True),
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        self.threads[thread_id] = data
        self.thread_members[thread_id] = {self.bot_user_id}
        member: JsonDict = {"id": str(thread_id), "user_id": str(self.bot_user_id)}
        member |= {"join_timestamp": P.iso_now(), "flags": 0}
        self._event("thread", thread_id)
        self._echo("parse_thread_create", data | {"newly_created": True, "member": member})
        return copy.deepcopy(data)

    async def _thread_msg(self, cid: str, mid: str, *, body: JsonDict, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if isinstance(channel, dict):
            raise http_error(400, 50024, "Cannot execute action on this channel type")
        self._require(channel, "create_public_threads", "read_message_history")
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        if msg.id in self.threads:
            raise http_error(400, 160004)
        data = self._new_thread(int(cid), msg.id, body, 11)  # the thread id is the message id
        msg.payload["flags"] = msg.flags | P.HAS_THREAD
        msg.payload["thread"] = copy.deepcopy(data)
        return data

    async def _thread_plain(self, cid: str, *, body: JsonDict, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if isinstance(channel, dict):
            raise http_error(400, 50024, "Cannot execute action on this channel type")
        type = int(body.get("type") or 12)
        perm = "create_public_threads" if type == 11 else "create_private_threads"
        self._require(channel, perm)
        return self._new_thread(int(cid), P.next_id(), body, type)

    async def _get_channel(self, cid: str, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        self._require(channel)
        if isinstance(channel, dict):
            return copy.deepcopy(channel)
        return P.channel_payload(channel)

    async def _edit_channel(self, cid: str, *, body: JsonDict, **_: Any) -> JsonDict:
        self._channel(int(cid))  # deleted: 10003
        if int(cid) not in self.threads:
            raise NotImplementedError("the fake Discord only edits threads (PATCH /channels/{id})")
        data = self.threads[int(cid)]
        meta = data["thread_metadata"]
        for key in ("archived", "locked", "auto_archive_duration", "invitable"):
            if key in body:
                meta[key] = body[key]
        for key in ("name", "rate_limit_per_user", "flags"):
            if key in body:
                data[key] = body[key]
        starter = self.messages.get(int(cid))  # a thread from a message has its id
        if starter is not None and "thread" in starter.payload:  # as Discord serves it now
            starter.payload["thread"] = copy.deepcopy(data)
        self._event("thread", int(cid))
        self._echo("parse_thread_update", data)
        return copy.deepcopy(data)

    async def _delete_channel(self, cid: str, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if isinstance(channel, dict) and channel.get("type") in (10, 11, 12):
            self._require(self._guild_channel(int(channel["parent_id"])), "manage_threads")
            return self.delete_thread(int(cid))
        if isinstance(channel, dict):
            raise NotImplementedError("deleting a DM channel is not faked")
        data = P.channel_payload(channel)
        self.delete_channel(int(cid))
        return data

    async def _get_member(self, gid: str, uid: str, **_: Any) -> JsonDict:
        member = self.memberships.get(int(gid), {}).get(int(uid))
        if member is None:
            raise http_error(404, 10007)
        return member

    async def _t_member(self, cid: str, uid: str, **kwargs: Any) -> None:
        if int(cid) not in self.threads or int(cid) in self.deleted_channels:
            raise http_error(404, 10003)
        user_id = self.bot_user_id if uid == "@me" else int(uid)
        members = self.thread_members.setdefault(int(cid), set())
        if kwargs.get("route_method") == "DELETE":
            members.discard(user_id)
        else:
            members.add(user_id)

    async def _typing(self, cid: str, **_: Any) -> None:
        self._channel(int(cid))

    async def _pin(self, cid: str, mid: str, **_: Any) -> None:
        self._channel(int(cid))
        msg = self._message(int(cid), int(mid))
        msg.payload["pinned"] = not msg.payload.get("pinned", False)

    async def _react(self, cid: str, mid: str, emoji: str, **_: Any) -> None:
        self._channel(int(cid))
        msg = self._message(int(cid), int(mid))
        reactions = msg.payload.setdefault("reactions", [])
        reactions.append({"emoji": {"id": None, "name": emoji}, "count": 1, "me": True})

    async def _create_dm(self, *, body: JsonDict, **_: Any) -> JsonDict:
        user_id = int(body["recipient_id"])
        member = self.members.get(user_id)
        if member is None:
            raise http_error(400, 50033, "Invalid Recipient(s)")
        cid = next((c for c, u in self.dm_channels.items() if u == user_id), None)
        if cid is None:
            cid = P.next_id()
            self.dm_channels[cid] = user_id
        return {
            "id": str(cid),
            "type": 1,
            "last_message_id": None,
            "recipients": [member["user"]],
        }

    async def _sync_commands(self, app: str, guild: str | None = None, **kw: Any) -> Any:
        body = kw["body"]
        problems = command_tree_problems(body)
        if problems:
            # A refused PUT registers no command at all: the test fails even if the bot
            # caught the 400 (as for a refused message; h.expect_rejected to mean it).
            self.rejected.append("PUT commands: " + "; ".join(problems))
            raise http_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        synced = [
            {"description": ""}  # Discord returns "" for context menus
            | dict(cmd, id=str(P.next_id()), application_id=app, version="1")
            | ({"guild_id": guild} if guild else {})
            for cmd in body
        ]
        self.commands[int(guild) if guild else None] = synced
        return copy.deepcopy(synced)

    async def _get_commands(self, app: str, guild: str | None = None, **_: Any) -> Any:
        return copy.deepcopy(self.commands.get(int(guild) if guild else None, []))

    # ------------------------------------------------------------------ webhooks

    async def handle_webhook(
        self,
        route: discord.http.Route,
        *,
        payload: JsonDict | None = None,
        multipart: Sequence[JsonDict] | None = None,
        files: Sequence[discord.File] | None = None,
        params: JsonDict | None = None,
    ) -> Any:
        """An interaction call (callback, followup, @original): run through discord.py's own
        webhook transport (its 429 retry loop and per-token lock) against :class:`FakeSession`."""
        call = {"payload": payload, "multipart": multipart, "files": files, "params": params}
        reset = _PENDING.set(("webhook", route, call))
        try:
            return await _REAL_WEBHOOK_REQUEST(
                self._webhook_adapter, route, self.session, payload=payload,
                multipart=list(multipart) if multipart else None, files=files, params=params,
            )  # fmt: skip
        finally:
            _PENDING.reset(reset)

    async def serve_webhook(
        self,
        route: discord.http.Route,
        *,
        payload: JsonDict | None = None,
        multipart: Sequence[JsonDict] | None = None,
        files: Sequence[discord.File] | None = None,
        params: JsonDict | None = None,
        response_headers: dict[str, str] | None = None,
    ) -> Any:
        path = route.url[len(API_BASE) :]
        body = payload if payload is not None else self._form_json(multipart) or {}
        raw_files = self._read_files(files)
        req = RecordedRequest("webhook", route.method, path, body, raw_files, at=self.clock.now())
        self.requests.append(req)
        if self.latency:
            await asyncio.sleep(self.latency)
        self._rate_limit(req, {} if response_headers is None else response_headers)
        self._check_fault(req)
        try:
            return self._webhook_route(req, route, body, raw_files, payload)
        except discord.HTTPException as exc:
            req.failed_with = exc.status
            raise

    def _webhook_route(
        self,
        req: RecordedRequest,
        route: discord.http.Route,
        body: JsonDict,
        raw_files: list[tuple[str, bytes]],
        payload: JsonDict | None,
    ) -> Any:
        path = req.path
        token = str(route.webhook_token)
        rec = self.interactions.get(token)
        if rec is None:
            raise http_error(404, 10015)
        if rec.expired:
            raise http_error(401, 50027)
        if route.method == "POST" and path.endswith("/callback"):
            if self._past_deadline(rec):
                rec.late_clock = self.bot_clock() if self.bot_clock is not None else None
                raise http_error(404, 10062)
            kind = int(body.get("type") or 0)
            if kind in (4, 7):
                source = rec.source_message_id if kind == 7 else None
                self.check_message(req, body.get("data"), self.messages.get(source or 0))
            elif kind == 8:
                self._refuse(req, P.choices_problems((body.get("data") or {}).get("choices") or []))
        elif route.method in ("POST", "PATCH"):  # a followup, or an edit of a response
            self.check_message(req, body, self._edited_response(rec, route.method, path))
        if m := re.match(r"^/interactions/\d+/[^/]+/callback$", path):
            return self._callback(rec, body, raw_files)
        if re.match(r"^/webhooks/\d+/[^/]+$", path) and route.method == "POST":
            return self._followup(rec, body, raw_files)
        if m := re.match(r"^/webhooks/\d+/[^/]+/messages/(@original|\d+)$", path):
            return self._webhook_message(rec, route.method, m.group(1), body, raw_files, payload)
        raise NotImplementedError(f"the fake Discord has no webhook route {route.method} {path}")

    def _edited_response(self, rec: InteractionRecord, method: str, path: str) -> Any:
        """The response message a webhook PATCH edits (None for a followup or unknown)."""
        m = re.search(r"/messages/(@original|\d+)$", path)
        if method != "PATCH" or m is None:
            return None
        return self.messages.get((rec.original_id or 0) if m[1] == "@original" else int(m[1]))

    def _interaction_echo(self, rec: InteractionRecord, msg: StoredMessage | None) -> JsonDict:
        return {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_id": str(msg.id) if msg else None,
            "response_message_loading": bool(msg and msg.flags & P.LOADING),
            "response_message_ephemeral": bool(msg and msg.ephemeral),
        }

    def _past_deadline(self, rec: InteractionRecord) -> bool:
        if self.bot_clock is None or rec.delivered_clock is None or rec.response_type is not None:
            return False
        return self.bot_clock() - rec.delivered_clock > self.answer_deadline

    def _callback(self, rec: InteractionRecord, body: JsonDict, files: Any) -> JsonDict:
        if rec.response_type is not None:
            raise http_error(400, 40060)
        kind = int(body["type"])
        data = body.get("data") or {}
        if rec.channel_id in self.deleted_channels:
            raise http_error(404, 10003)  # nothing acknowledged: the click is lost
        if kind in (6, 7) and rec.source_message_id is not None:
            self._message(None, rec.source_message_id)  # deleted: 10008, not acknowledged
        rec.response_type = kind
        rec.answered_at = time.perf_counter()
        self.answered_on_http_clock[rec.token] = self.clock.now()
        rec.answered_clock = self.bot_clock() if self.bot_clock is not None else None
        if kind in (4, 5):  # CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            eph = int(data.get("flags") or 0) & P.EPHEMERAL
            flags = (int(data.get("flags") or 0) & ~P.LOADING) | (P.LOADING if kind == 5 else 0)
            msg = self.create_message(
                channel_id=rec.channel_id,
                author=self.bot_author(),
                fields=data if kind == 4 else {},
                files=files,
                flags=flags,
                visible_to=rec.user_id if eph else None,
                token=rec.token,
                msg_type=20 if rec.type == P.APPLICATION_COMMAND else 0,
                webhook_id=self.bot.application_id,
            )
            rec.original_id = msg.id
            rec.loading = kind == 5
            resource = {"type": kind, "message": copy.deepcopy(msg.payload)}
            return {"interaction": self._interaction_echo(rec, msg), "resource": resource}
        if kind in (6, 7):  # DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE
            if rec.source_message_id is None:
                raise http_error(400, 50035, "Interaction has no message to update")
            msg = self._message(None, rec.source_message_id)
            rec.original_id = msg.id
            if kind == 7:
                self.edit_message(msg, data, files, rec.token)
                resource = {"type": 7, "message": copy.deepcopy(msg.payload)}
                return {"interaction": self._interaction_echo(rec, msg), "resource": resource}
            return {"interaction": self._interaction_echo(rec, msg)}
        if kind == 9:  # MODAL
            rec.modal = data
            self._event("modal", None, rec.token)
            return {"interaction": self._interaction_echo(rec, None), "resource": {"type": 9}}
        if kind == 8:  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
            rec.choices = list(data.get("choices") or [])
            self._event("choices", None, rec.token)
            return {"interaction": self._interaction_echo(rec, None), "resource": {"type": 8}}
        raise NotImplementedError(f"interaction callback type {kind} is not faked")

    def _followup(self, rec: InteractionRecord, body: JsonDict, files: Any) -> JsonDict:
        if rec.response_type is None:
            raise http_error(404, 10015)
        if rec.loading and rec.original_id is not None:
            # The first followup after a "thinking" defer replaces the loading message.
            msg = self._message(None, rec.original_id)
            rec.loading = False
            msg.payload["flags"] = msg.flags & ~P.LOADING
            self.edit_message(msg, body, files, rec.token)
            rec.followup_ids.append(msg.id)
            return copy.deepcopy(msg.payload)
        eph = int(body.get("flags") or 0) & P.EPHEMERAL
        msg = self.create_message(
            channel_id=rec.channel_id,
            author=self.bot_author(),
            fields=body,
            files=files,
            flags=int(body.get("flags") or 0),
            visible_to=rec.user_id if eph else None,
            token=rec.token,
            webhook_id=self.bot.application_id,
        )
        rec.followup_ids.append(msg.id)
        return copy.deepcopy(msg.payload)

    def _webhook_message(
        self,
        rec: InteractionRecord,
        method: str,
        which: str,
        body: JsonDict,
        files: Any,
        payload: JsonDict | None,
    ) -> JsonDict | None:
        if which == "@original":
            if rec.original_id is None:
                raise http_error(404, 10008)
            msg = self._message(None, rec.original_id)
        else:
            msg = self._message(None, int(which))
            if msg.id not in (rec.original_id, *rec.followup_ids):
                raise http_error(404, 10008)
        if method == "GET":
            return copy.deepcopy(msg.payload)
        if method == "DELETE":
            self.delete_message(msg, rec.token)
            return None
        if method == "PATCH":
            if which == "@original" and rec.loading:
                rec.loading = False
                msg.payload["flags"] = msg.flags & ~P.LOADING
            self.edit_message(msg, body, files, rec.token)
            return copy.deepcopy(msg.payload)
        raise NotImplementedError(f"webhook message method {method}")

    # ------------------------------------------------------------------ CDN

    def cdn(self, url: str) -> bytes:
        try:
            return self.files_by_url[url]
        except KeyError:
            raise http_error(404, 0, "Not Found") from None


_MESSAGE_PATH = re.compile(r"^/channels/\d+/messages(/\d+)?$")
_THREADS_PATH = re.compile(r"^/channels/\d+/threads$")


class HarnessHttp(dpytest_backend.FakeHttp):
    """dpytest's ``FakeHttp`` with message/channel/thread calls routed to :class:`FakeDiscord`.

    The harness swaps the class of the instance dpytest created (``bot.http.__class__``) so
    dpytest's guild/member/role fakes keep working.
    """

    fake: FakeDiscord

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        # discord.py's own request loop (buckets, 429 retries, the global lock) runs, sending
        # through FakeSession, which hands the call as made here to FakeDiscord.handle_rest.
        # private: HTTPClient's session and global-limit event (set by static_login)
        self._HTTPClient__session = self.fake.session
        if not isinstance(getattr(self, "_global_over", None), asyncio.Event):
            self._global_over = asyncio.Event()
            self._global_over.set()
        reset = _PENDING.set(("rest", route, dict(kwargs, route_method=route.method)))
        try:
            return await discord.http.HTTPClient.request(self, route, **kwargs)
        finally:
            _PENDING.reset(reset)

    async def get_from_cdn(self, url: str) -> bytes:
        return self.fake.cdn(url)


# Put the real HTTPClient implementations back (dpytest replaces them with fakes that read their
# caller's frame) so that these calls reach request() and the fake Discord.
RESTORED_HTTP_METHODS = (
    "get_member",
    "send_message",
    "edit_message",
    "delete_message",
    "get_message",
    "logs_from",
    "get_channel",
    "delete_channel",
    "send_typing",
    "start_private_message",
    "pin_message",
    "unpin_message",
    "add_reaction",
    "remove_own_reaction",
)
for _name in RESTORED_HTTP_METHODS:
    setattr(HarnessHttp, _name, getattr(discord.http.HTTPClient, _name))

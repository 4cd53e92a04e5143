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
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
import discord.http
from discord.ext.test import backend as dpytest_backend

from . import payloads as P

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
        body["retry_after"] = 0.0
    response = FakeResponse(status, _REASONS.get(status, "Error"))
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)


@dataclass
class Fault:
    method: str | None
    pattern: re.Pattern[str]
    status: int
    code: int | None
    message: str | None
    times: int

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
    guild_id: int
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

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        self.client: commands.Bot | None = None
        self.messages: dict[int, StoredMessage] = {}
        self.threads: dict[int, JsonDict] = {}
        self.thread_members: dict[int, set[int]] = {}
        self.dm_channels: dict[int, int] = {}
        self.dm_blocked: set[int] = set()
        self.members: dict[int, JsonDict] = {}  # member payloads (with "user") by user id
        self.commands: dict[int | None, list[JsonDict]] = {}  # synced, by guild id (None: global)
        self.interactions: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.events: list[Event] = []
        self.faults: list[Fault] = []
        self.files_by_url: dict[str, bytes] = {}
        # Messages refused for breaking Discord's limits or for pinging @everyone/a role:
        # the harness fails the test with these even if the bot swallowed the 400.
        self.rejected: list[str] = []
        self.gateway_echo = True
        # Seconds every REST and webhook call takes before it is served (0: instant), to
        # measure what players wait for when Discord is slow; see ``Harness.set_latency``.
        self.latency = 0.0
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
    ) -> None:
        self.faults.append(Fault(method, re.compile(path_regex), status, code, message, times))

    def _check_fault(self, req: RecordedRequest) -> None:
        for fault in self.faults:
            if fault.matches(req.method, req.path):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                req.failed_with = fault.status
                raise http_error(fault.status, fault.code, fault.message)

    def _refuse(self, req: RecordedRequest, problems: list[str]) -> None:
        """Fail the call as Discord would (400, 50035) and remember why for the harness."""
        if not problems:
            return
        text = "; ".join(problems)
        self.rejected.append(f"{req.method} {req.path}: {text}")
        req.failed_with = 400
        raise http_error(400, 50035, f"Invalid Form Body (refused by the test harness): {text}")

    def check_message(self, req: RecordedRequest, body: JsonDict | None) -> None:
        """Refuse a message body Discord would reject (sizes) or that could ping @everyone,
        @here or a role, or files over the upload limit (see :func:`payloads.message_problems`
        / ``mention_problems`` / ``file_problems``)."""
        body = body or {}
        problems = P.message_problems(body) + P.mention_problems(body)
        self._refuse(req, problems + P.file_problems(req.files))

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
            keep = P.EPHEMERAL | P.HAS_THREAD | P.LOADING
            data["flags"] = (data.get("flags", 0) & keep) | (int(fields["flags"] or 0) & ~keep)
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
        if channel_id in self.threads:
            return self.threads[channel_id]
        if channel_id in self.dm_channels:
            return {"id": str(channel_id), "type": 1}
        channel = self.guild.get_channel(channel_id)
        if channel is None:
            raise http_error(404, 10003)
        return channel

    def _guild_id_for(self, channel_id: int) -> int | None:
        return None if channel_id in self.dm_channels else self.guild_id

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
        if not msg.ephemeral and channel_id not in self.dm_channels:
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
        if not msg.ephemeral and msg.channel_id not in self.dm_channels:
            self._echo("parse_message_update", msg.payload)
        return msg

    def delete_message(self, msg: StoredMessage, token: str | None = None) -> None:
        if msg.deleted:
            raise http_error(404, 10008)
        msg.deleted = True
        self._event("delete", msg.id, token)
        if not msg.ephemeral and msg.channel_id not in self.dm_channels:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            data["guild_id"] = str(self.guild_id)
            self._echo("parse_message_delete", data)

    def _message(self, channel_id: int | None, message_id: int) -> StoredMessage:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
            raise http_error(404, 10008)
        return msg

    def _bot_author(self) -> JsonDict:
        assert self.bot.user is not None
        return P.user_payload(self.bot.user)

    def _require(self, channel: Any, *perms: str) -> None:
        if isinstance(channel, dict):  # a thread record or a DM
            if channel.get("type") == 1:
                return
            parent = self.guild.get_channel(int(channel["parent_id"]))
            if parent is None:
                raise http_error(404, 10003)
            perms = tuple("send_messages_in_threads" if p == "send_messages" else p for p in perms)
            channel = parent
        have = channel.permissions_for(self.guild.me)
        missing = [p for p in ("view_channel", *perms) if not getattr(have, p)]
        if missing:
            raise http_error(403, 50013, f"Missing Permissions: {', '.join(missing)}")

    # ------------------------------------------------------------------ REST

    async def handle_rest(self, route: discord.http.Route, **kwargs: Any) -> Any:
        path = route.url[len(API_BASE) :]
        body = kwargs.pop("json", None)
        form = kwargs.pop("form", None)
        if body is None and form:
            body = self._form_json(form)
        files = self._read_files(kwargs.pop("files", None))
        req = RecordedRequest("rest", route.method, path, body, files)
        self.requests.append(req)
        if self.latency:
            await asyncio.sleep(self.latency)
        self._check_fault(req)
        if route.method in ("POST", "PATCH") and _MESSAGE_PATH.match(path):
            self.check_message(req, body)
        elif route.method == "POST" and _THREADS_PATH.match(path) and (body or {}).get("message"):
            self.check_message(req, body["message"])  # a forum post's first message
        for method, pattern, handler in self._rest_routes:
            if method == route.method and (m := pattern.match(path)):
                return await handler(*m.groups(), body=body or {}, files=files, **kwargs)
        raise NotImplementedError(
            f"the fake Discord has no route for {route.method} {path} "
            "(add it in tests/harness/fake.py rather than letting it pass silently)"
        )

    async def _rest_send(self, cid: str, *, body: JsonDict, files: Any, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if self.dm_channels.get(int(cid)) in self.dm_blocked:
            raise http_error(403, 50007)
        self._require(channel, "send_messages", *(["attach_files"] if files else []))
        if isinstance(channel, dict) and channel.get("thread_metadata", {}).get("archived"):
            meta = channel["thread_metadata"]
            if meta.get("locked"):
                raise http_error(403, 50083)
            meta["archived"] = False  # sending unarchives an unlocked thread
            self._echo("parse_thread_update", channel)
        flags = int(body.get("flags") or 0) & ~P.EPHEMERAL
        msg = self.create_message(
            channel_id=int(cid), author=self._bot_author(), fields=body, files=files, flags=flags
        )
        return copy.deepcopy(msg.payload)

    async def _rest_history(self, cid: str, **kwargs: Any) -> list[JsonDict]:
        self._channel(int(cid))
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
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        return copy.deepcopy(msg.payload)

    async def _rest_edit(self, cid: str, mid: str, *, body: JsonDict, files: Any, **_: Any) -> Any:
        msg = self._message(int(cid), int(mid))
        if msg.ephemeral:
            raise http_error(404, 10008)
        if msg.author_id != self.bot_user_id:
            raise http_error(403, 50005)
        return copy.deepcopy(self.edit_message(msg, body, files, None).payload)

    async def _rest_delete(self, cid: str, mid: str, **_: Any) -> None:
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
            guild_id=self.guild_id,
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
        if isinstance(channel, dict):
            return copy.deepcopy(channel)
        return P.channel_payload(channel)

    async def _edit_channel(self, cid: str, *, body: JsonDict, **_: Any) -> JsonDict:
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
        self._event("thread", int(cid))
        self._echo("parse_thread_update", data)
        return copy.deepcopy(data)

    async def _delete_channel(self, cid: str, **_: Any) -> JsonDict:
        channel = self._channel(int(cid))
        if isinstance(channel, dict) and channel.get("type") in (10, 11, 12):
            self._require(self.guild.get_channel(int(channel["parent_id"])), "manage_threads")
            data = self.threads.pop(int(cid))
            self._event("thread", int(cid))
            self._echo(
                "parse_thread_delete",
                {"id": cid, "guild_id": data["guild_id"], "parent_id": data["parent_id"]}
                | {"type": data["type"]},
            )
            return data
        if isinstance(channel, dict):
            raise NotImplementedError("deleting a DM channel is not faked")
        data = P.channel_payload(channel)
        dpytest_backend.delete_channel(channel)
        return data

    async def _t_member(self, cid: str, uid: str, **kwargs: Any) -> None:
        if int(cid) not in self.threads:
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
        msg = self._message(int(cid), int(mid))
        msg.payload["pinned"] = not msg.payload.get("pinned", False)

    async def _react(self, cid: str, mid: str, emoji: str, **_: Any) -> None:
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
        problems = [p for cmd in body for p in command_schema_problems(cmd)]
        if problems:
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
        path = route.url[len(API_BASE) :]
        body = payload if payload is not None else self._form_json(multipart) or {}
        raw_files = self._read_files(files)
        req = RecordedRequest("webhook", route.method, path, body, raw_files)
        self.requests.append(req)
        if self.latency:
            await asyncio.sleep(self.latency)
        self._check_fault(req)
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
                self.check_message(req, body.get("data"))
            elif kind == 8:
                self._refuse(req, P.choices_problems((body.get("data") or {}).get("choices") or []))
        elif route.method in ("POST", "PATCH"):  # a followup, or an edit of a response
            self.check_message(req, body)
        if m := re.match(r"^/interactions/\d+/[^/]+/callback$", path):
            return self._callback(rec, body, raw_files)
        if re.match(r"^/webhooks/\d+/[^/]+$", path) and route.method == "POST":
            return self._followup(rec, body, raw_files)
        if m := re.match(r"^/webhooks/\d+/[^/]+/messages/(@original|\d+)$", path):
            return self._webhook_message(rec, route.method, m.group(1), body, raw_files, payload)
        raise NotImplementedError(f"the fake Discord has no webhook route {route.method} {path}")

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
        rec.response_type = kind
        rec.answered_at = time.perf_counter()
        rec.answered_clock = self.bot_clock() if self.bot_clock is not None else None
        if kind in (4, 5):  # CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            eph = int(data.get("flags") or 0) & P.EPHEMERAL
            flags = (int(data.get("flags") or 0) & ~P.LOADING) | (P.LOADING if kind == 5 else 0)
            msg = self.create_message(
                channel_id=rec.channel_id,
                author=self._bot_author(),
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
            author=self._bot_author(),
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


_NAME = re.compile(r"^[-_\w]{1,32}$")
_MESSAGE_PATH = re.compile(r"^/channels/\d+/messages(/\d+)?$")
_THREADS_PATH = re.compile(r"^/channels/\d+/threads$")


def command_schema_problems(cmd: JsonDict, where: str = "") -> list[str]:
    """What Discord's command schema validation would reject in one synced command."""
    name = str(cmd.get("name", ""))
    here = f"{where}{name}"
    problems = []
    chat_input = cmd.get("type", 1) == 1
    if chat_input and (not _NAME.match(name) or name != name.lower()):
        problems.append(f"{here}: invalid name")
    desc = cmd.get("description", "")
    if chat_input and not 1 <= len(desc) <= 100:
        problems.append(f"{here}: description must be 1-100 characters (is {len(desc)})")
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append(f"{here}: more than 25 options")
    for choice_list in [o.get("choices") or [] for o in options]:
        if len(choice_list) > 25:
            problems.append(f"{here}: more than 25 choices")
    for option in options:
        problems += command_schema_problems(option | {"type": 1}, f"{here} ")
    return problems


class HarnessHttp(dpytest_backend.FakeHttp):
    """dpytest's ``FakeHttp`` with message/channel/thread calls routed to :class:`FakeDiscord`.

    The harness swaps the class of the instance dpytest created (``bot.http.__class__``) so
    dpytest's guild/member/role fakes keep working.
    """

    fake: FakeDiscord

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        return await self.fake.handle_rest(route, route_method=route.method, **kwargs)

    async def get_from_cdn(self, url: str) -> bytes:
        return self.fake.cdn(url)


# Put the real HTTPClient implementations back (dpytest replaces them with fakes that read their
# caller's frame) so that these calls reach request() and the fake Discord.
RESTORED_HTTP_METHODS = (
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

"""The web companion's own process: the pages never run on the bot's event loop, nor hold
its interpreter's lock, nor wait behind its database connection (issue 33: 200 page
requests at once must not slow a click down).

The bot starts it (``WebProcess.start``, in ``setup_hook``) and stops it (``stop``, in
``close``). The process opens its own connection to the database (SQLite: a second reader
beside the bot's writer, which WAL allows; PostgreSQL: a small pool of its own), serves the
pages on ``WEB_HOST:WEB_PORT`` at a lower priority than the bot (``nice``: when both want a
core, the clicks have it), and asks the bot over a socket for the little only the bot knows:
a server's name and language, whether every member may read a channel (Discord's cache),
and the operator's answers (alive, ready, the metrics). Those answers are kept a few seconds,
so the bot answers a few calls a second however many pages are read. The process ends when
the socket closes: when the bot stops, or dies.

Run as ``python -m bot.web_process FD`` by ``WebProcess``, never by hand."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

from bot import metrics
from bot.games.registry import Games
from bot.i18n import catalogues
from bot.i18n.catalogue import Language
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.limits import TableLimits
from bot.tables.peers import TablePeers
from bot.tables.replays import Replays
from bot.tables.stats import Stats
from bot.tables.tournaments import Tournaments
from bot.tables.web import GUILD_SECONDS, WebDirectory
from bot.web.guard import RateLimit
from bot.web.pages import Site
from bot.web.server import WebServer, build_app

log = logging.getLogger(__name__)

START_SECONDS = 60.0  # for the process to import, open the database and listen
STOP_SECONDS = 10.0  # for it to end once told, before it is killed
CALL_SECONDS = 5.0  # for the bot to answer a call


@dataclass(frozen=True)
class WebOptions:
    """What the process is told when it starts (over the socket: the database's address
    may hold a password, which a command line would show to every user of the machine)."""

    target: str  # the database: a SQLite file or a postgresql:// URL
    host: str
    port: int
    public_url: str | None = None
    token: str | None = None  # METRICS_TOKEN
    per_second: float = 10.0  # the rate limit per address
    burst: float = 40.0
    nice: int = 10  # below the bot's priority
    log_level: str = "INFO"


@dataclass
class BotSide:
    """What the bot answers the process: each is quick, on the bot's loop."""

    guild: Callable[[int], Awaitable[tuple[str | None, str]]]  # (name, language tag)
    public: Callable[[int, int], bool]  # (guild, channel or thread): every member reads it
    ready: Callable[[], Awaitable[dict[str, bool]]]
    exposition: Callable[[], Awaitable[bytes]]  # the bot's metrics, the pages' left out


# --- the bot's side --------------------------------------------------------------------


class WebProcess:
    """The pages' process while the bot runs."""

    def __init__(self, options: WebOptions, side: BotSide) -> None:
        self.options = options
        self.side = side
        self.port: int | None = None  # the port listened on, once started
        self._process: subprocess.Popen[bytes] | None = None
        self._end: _BotEnd | None = None
        self._calls: set[asyncio.Task[None]] = set()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self) -> None:
        """Start the process and wait until it listens; OSError when it cannot."""
        ours, theirs = socket.socketpair()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "bot.web_process", str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
            )
        finally:
            theirs.close()
        loop = asyncio.get_running_loop()
        _transport, self._end = await loop.create_unix_connection(
            lambda: _BotEnd(self._called, loop.create_future()), sock=ours
        )
        self._end.send(asdict(self.options))
        try:
            first = await asyncio.wait_for(asyncio.shield(self._end.first), START_SECONDS)
        except TimeoutError:
            first = {}
        if "port" not in first:
            await self.stop()
            raise OSError(first.get("failed", "the web pages' process did not start"))
        self.port = int(first["port"])

    def _called(self, call: dict[str, Any]) -> None:
        task = asyncio.create_task(self._answer(call), name="web-pages-call")
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _answer(self, call: dict[str, Any]) -> None:
        name, args = call["call"], call.get("args", [])
        result: Any
        try:
            if name == "alive":
                result = True
            elif name == "guild":
                result = list(await self.side.guild(int(args[0])))
            elif name == "public":
                result = self.side.public(int(args[0]), int(args[1]))
            elif name == "ready":
                result = await self.side.ready()
            elif name == "metrics":
                result = (await self.side.exposition()).decode()
            else:
                result = None
            answer = {"id": call["id"], "result": result}
        except Exception:
            log.exception("the web pages' call %s failed", name)
            answer = {"id": call["id"], "error": True}
        if self._end is not None:
            self._end.send(answer)

    async def stop(self) -> None:
        """Close the socket (the process ends when it sees it closed) and wait for it."""
        if self._end is not None:
            self._end.close()
            self._end = None
        calls = list(self._calls)
        for task in calls:
            task.cancel()
        await asyncio.gather(*calls, return_exceptions=True)
        if self._process is not None:
            process, self._process = self._process, None
            try:
                await asyncio.to_thread(process.wait, STOP_SECONDS)
            except subprocess.TimeoutExpired:
                log.warning("the web pages' process did not end; killed")
                process.kill()
                await asyncio.to_thread(process.wait)


class _BotEnd(asyncio.Protocol):
    """The bot's end of the socket: lines of JSON, read as they come (no task waits on it:
    the first line says the process listens, each next one is a call to answer)."""

    def __init__(
        self, called: Callable[[dict[str, Any]], None], first: asyncio.Future[dict[str, Any]]
    ) -> None:
        self.called = called
        self.first = first
        self._transport: asyncio.Transport | None = None
        self._buffer = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if not self.first.done():
                self.first.set_result(message)
            else:
                self.called(message)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.first.done():
            self.first.set_result({})
        self._transport = None

    def send(self, value: Any) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(_line(value))

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


def _line(value: Any) -> bytes:
    return (json.dumps(value) + "\n").encode()


# --- the process's side ------------------------------------------------------------------


class Calls:
    """Calls to the bot over the socket, and the bot's answers, kept ``GUILD_SECONDS``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.closed = asyncio.Event()
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._kept: dict[tuple[Any, ...], tuple[float, Any]] = {}

    async def read(self) -> None:
        try:
            while line := await self.reader.readline():
                answer = json.loads(line)
                future = self._waiting.pop(answer["id"], None)
                if future is not None and not future.done():
                    if answer.get("error"):
                        future.set_exception(RuntimeError("the bot's answer failed"))
                    else:
                        future.set_result(answer["result"])
        finally:
            self.closed.set()
            for future in self._waiting.values():
                future.cancel()

    async def call(self, name: str, *args: Any) -> Any:
        if self.closed.is_set():
            raise ConnectionError("the bot is gone")
        self._next += 1
        number = self._next
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self.writer.write(_line({"id": number, "call": name, "args": list(args)}))
        try:
            return await asyncio.wait_for(future, CALL_SECONDS)
        finally:
            self._waiting.pop(number, None)

    async def kept(self, name: str, *args: Any) -> Any:
        """``call``, answered from what the bot said less than ``GUILD_SECONDS`` ago."""
        key = (name, *args)
        now = time.monotonic()
        found = self._kept.get(key)
        if found is not None and now - found[0] < GUILD_SECONDS:
            return found[1]
        result = await self.call(name, *args)
        if len(self._kept) > 10_000:
            self._kept.clear()
        self._kept[key] = (now, result)
        return result


@dataclass
class RemoteOperator:
    """The operator's answers, asked of the bot; the pages' own metrics added to its."""

    calls: Calls
    token: str | None = None

    async def alive(self) -> bool:
        return bool(await self.calls.call("alive"))

    async def ready(self) -> dict[str, bool]:
        found = await self.calls.call("ready")
        return {"database": bool(found["database"]), "gateway": bool(found["gateway"])}

    async def exposition(self) -> bytes:
        theirs = str(await self.calls.call("metrics")).encode()
        return theirs + metrics.exposition(metrics.is_web)


@dataclass
class PageServices:
    """The services the pages read, over the process's own database connection."""

    games: Games
    stats: Stats
    replays: Replays
    tournaments: Tournaments


def site_over(db: Database, games: Games, calls: Calls, public_url: str | None) -> Site:
    clock = time.time
    # The tournaments' reads need a table service; this one never plays (no write is made).
    kernel = TableKernel(db, games, TableLimits(), clock, random.Random())
    services = PageServices(
        games,
        Stats(db, clock),
        Replays(db, games),
        Tournaments(db, TablePeers.of(kernel).tables, clock),
    )

    async def name(guild_id: int) -> str | None:
        found = await calls.kept("guild", guild_id)
        return None if found[0] is None else str(found[0])

    async def language(guild_id: int) -> Language:
        return catalogues().language(str((await calls.kept("guild", guild_id))[1]))

    async def public(guild_id: int, channel_id: int) -> bool:
        return bool(await calls.kept("public", guild_id, channel_id))

    return Site(
        services,
        WebDirectory(db, clock),
        language,
        guild_name=name,
        public_url=public_url,
        channel_public=public,
    )


async def serve(sock: socket.socket) -> None:
    reader, writer = await asyncio.open_unix_connection(sock=sock)
    options = WebOptions(**json.loads(await reader.readline()))
    level = logging.getLevelName(options.log_level.upper())
    logging.basicConfig(  # as the bot's (bot.app.configure_logging), never below INFO
        level=max(level if isinstance(level, int) else logging.INFO, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    os.nice(options.nice)
    calls = Calls(reader, writer)
    reading = asyncio.create_task(calls.read())
    db: Database | None = None
    server: WebServer | None = None
    try:
        db = await Database.open(options.target)
        games = Games()
        for game in games.presentations():
            await asyncio.to_thread(game.prepare)  # e.g. the board's base picture, as the bot
        limit = RateLimit(per_second=options.per_second, burst=options.burst)
        app = build_app(
            site_over(db, games, calls, options.public_url),
            RemoteOperator(calls, options.token),
            limit,
        )
        server = WebServer(app, options.host, options.port)
        await server.start()
    except Exception as exc:  # the port is taken, the database does not open: the bot says
        writer.write(_line({"failed": f"the web pages cannot start: {exc}"}))
        await writer.drain()
    else:
        writer.write(_line({"port": server.port_bound()}))
        await calls.closed.wait()
    finally:
        if server is not None:
            await server.stop()
        if db is not None:
            await db.close()
        reading.cancel()
        writer.close()


def main() -> None:
    # Ctrl-C in a terminal reaches the whole group: the bot stops, and this process with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(serve(socket.socket(fileno=int(sys.argv[1]))))


if __name__ == "__main__":
    main()

"""The bot: settings, database, table service and Discord client wired together."""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.config import Settings
from bot.errors import DatabaseUnavailable, UserError
from bot.games.registry import Games
from bot.i18n.catalogue import Language
from bot.i18n.speaking import _
from bot.store.db import Database, DatabaseUnusable
from bot.tables.clock import Clock
from bot.tables.guild_settings import GuildSettings
from bot.tables.kernel import TableHooks, TableKernel
from bot.tables.locks import KeyedLocks
from bot.tables.model import Change
from bot.tables.peers import TablePeers
from bot.tables.replays import Replays
from bot.tables.shards import EVERY_GUILD, Shards
from bot.tables.stats import Stats
from bot.tables.thinking import BotPool
from bot.tables.tournaments import Tournaments
from bot.tables.wallet_hooks import WalletHooks
from bot.tables.web import WebDirectory
from bot.ui.buttons import GameButton, is_known_custom_id
from bot.ui.errors import handle_error, reply_private
from bot.ui.i18n import CommandTranslator, ServerLanguages, tree_refusals
from bot.ui.manage import ManageSelect
from bot.ui.numbers import CommandTree
from bot.ui.publisher import PACE_LIMIT, Publisher
from bot.ui.quickplay import QuickButton
from bot.ui.rematch import RematchButton
from bot.ui.reminders import ReminderPoster
from bot.ui.router import Router
from bot.ui.shell import Shell
from bot.web.discord_links import public_channel
from bot.web.guard import RateLimit
from bot.web.pages import Site
from bot.web.server import LocalOperator, build_app
from bot.web_process import BotSide, WebOptions, WebProcess

log = logging.getLogger("bot")

COGS = "cogs"
SHOW_CONCURRENCY = 32  # timer changes shown at once (each is one or two Discord requests)
# Timer changes shown: one change at a time per channel (its message buckets are 5 per 5 s:
# discord.py waits them out, but many requests queued in one bucket at once still meet
# 429s); each request they send waits its turn in the publisher's pace, shared with what
# follows a click (bot.ui.pacing.RequestPace: 40 in any second, under the global 50).

# What discord.client logs at every start when its optional voice libraries are missing. The
# bot has no voice; a newcomer reads these as a broken install. Only these two are dropped.
VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)


class _NoVoiceWarnings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.WARNING and record.getMessage() in VOICE_WARNINGS)


def quiet_voice_warnings() -> None:
    """Drop discord.py's two voice warnings (on its logger, so on whatever handler prints
    them, the last-resort one of a tool that sets no logging up included); idempotent."""
    logger = logging.getLogger("discord.client")
    if not any(isinstance(f, _NoVoiceWarnings) for f in logger.filters):
        logger.addFilter(_NoVoiceWarnings())


def discord_problem(exc: BaseException, doing: str = "the bot logged in") -> str | None:
    """One line for a failure of Discord while ``doing`` (logging in for ``run``, syncing
    for ``sync``): a refused token, no network, an HTTP error, a closed gateway; None for
    anything else, which is a bug and keeps its traceback."""
    if isinstance(exc, discord.LoginFailure):
        return (
            "Discord refused the token: check DISCORD_TOKEN in .env "
            "(Developer Portal > your app > Bot > Reset Token)"
        )
    if isinstance(exc, aiohttp.ClientConnectionError | OSError):  # TimeoutError included
        return f"cannot reach Discord ({type(exc).__name__}): check the network"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the intents this bot asked for"
    if isinstance(exc, discord.HTTPException):  # 403, 429, 5xx: not the token's fault
        advice = (
            "try again later (discordstatus.com)"
            if exc.status >= 500
            else "check the application in the Developer Portal"
        )
        answer = f"{exc.status} {getattr(exc.response, 'reason', '') or ''}".strip()
        return f"Discord answered {answer} when {doing}: {advice}"
    if isinstance(exc, discord.ConnectionClosed):  # e.g. 4011: more shards needed
        why = f"code {exc.code}, {exc.reason}" if exc.reason else f"code {exc.code}"
        return f"Discord closed the connection ({why})"
    return None


def extensions() -> list[str]:
    """Every module of the ``cogs`` package that is an extension (has ``setup``)."""
    package = importlib.import_module(COGS)
    names = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{COGS}.{info.name}")
        if hasattr(module, "setup"):
            names.append(module.__name__)
    return names


def pace_share(shards: Shards) -> int:
    """This process's part of the publisher's pace: as many of its 40 requests a second as
    it runs of the shards (every process on one token shares Discord's global 50)."""
    return max(1, PACE_LIMIT * len(set(shards.ids)) // shards.count)


class SequencesBot(commands.Bot):
    """The bot as one process that owns every guild (one connection, no sharding)."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        *,
        clock: Clock = time.time,
        rng: random.Random | None = None,
        run_timers: bool = True,
        hooks: TableHooks | None = None,
        games: Games | None = None,
    ) -> None:
        intents = discord.Intents.default()  # slash commands and buttons need no privileged intent
        quiet_voice_warnings()  # discord.Client.__init__ logs them
        shards = self.shards_of(settings)
        super().__init__(
            **self.shard_options(settings),
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=CommandTree,
            # Nothing a user types can ping @everyone or a role through the bot.
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            # Clicks are answered from the database: no message cache that grows with games.
            max_messages=None,
            http_trace=metrics.discord_trace(),  # Discord requests and 429s for /metrics
        )
        self.settings = settings
        self.db = db
        self.clock = clock
        self.games = games or Games()
        # Work each timer tick does after the tables' timers (cogs add theirs).
        self.tick_steps: list[Callable[[], Awaitable[None]]] = []
        # Players stake chips on these dice: the OS's randomness unless a test injects a seed.
        kernel = TableKernel(
            db,
            self.games,
            settings.table_limits(),
            clock,
            rng or random.SystemRandom(),
            hooks or WalletHooks(clock),
            shards=shards,
            bots=BotPool(settings.bot_workers),
        )
        self.peers = TablePeers.of(kernel)
        self.tables = self.peers.tables
        guild_settings = GuildSettings(db, clock)
        self.languages = ServerLanguages(guild_settings, self)
        publisher = Publisher(
            self,
            self.tables,
            self.languages,
            fair_play=self.peers.fair_play,
            lobby_host=self.peers.lobby_host,
        )
        # Discord's global limit is the token's, shared by every process of the bot: each
        # paces its share, the part of the shards it runs (docs/scaling.md).
        publisher.pace.limit = pace_share(shards)
        reminders = self.peers.reminders
        self.reminders = ReminderPoster(
            self, reminders, publisher.pings, self.languages, publisher.everywhere
        )
        self.shell = Shell(
            games=self.games,
            tables=self.tables,
            stats=Stats(db, clock),
            guild_settings=guild_settings,
            publisher=publisher,
            router=Router(self.games, self.peers, publisher, guild_settings),
            clock=clock,
            replays=Replays(db, self.games),
            reminders=reminders,
            rematches=self.peers.rematches,
            tournaments=Tournaments(db, self.tables, clock),
            shards=shards,
            web=WebDirectory(db, clock),
            public_url=settings.public_url,
        )
        self.run_timers = run_timers
        self._timer_task: asyncio.Task[None] | None = None
        self._templates: list[tuple[re.Pattern[str], int]] = []
        self.web_server: WebProcess | None = None

    @staticmethod
    def shards_of(settings: Settings) -> Shards:
        """The guilds this bot owns: every one, unsharded."""
        return EVERY_GUILD

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        """What the Discord client is told about shards: nothing, unsharded."""
        return {}

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        # Remembered so that a click on a custom_id nobody answers gets a refusal.
        for item in items:
            template = getattr(item, "__discord_ui_compiled_template__", None)
            kind = getattr(item, "persistent_kind", discord.ComponentType.button)
            if template is not None:
                self._templates.append((template, kind.value))
        super().add_dynamic_items(*items)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on a custom_id no item of ours matches (forged, truncated,
        oversized): discord.py would drop it and the user would see "interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not is_known_custom_id(custom_id, self._templates, data.get("component_type")):
            await reply_private(interaction, _("That button isn't one of mine; nothing changed."))

    def _dispatch_in_members_language(self) -> None:
        """Every interaction handled in the words of the member who acted (their Discord
        client's ``locale``): its private answers and refusals (``bot.ui.errors``) in theirs,
        while ``in_public_language`` draws public messages in the server's. discord.py
        creates every task of an interaction (the command tree's invoker, a view's or a
        DynamicItem's callback, a modal's submit, the ``on_interaction`` event) inside its
        INTERACTION_CREATE parser, and a task starts with a copy of the context it was
        created in: so the language is set once, around that parser, and each of those
        tasks keeps it whatever it awaits. The payload's ``guild_locale`` is remembered
        for the messages a timer draws, which have no interaction."""
        parsers = self._connection.parsers  # private: discord.py's gateway dispatch table
        parse = parsers["INTERACTION_CREATE"]
        if getattr(parse, "in_members_language", False):
            return
        languages = self.languages

        def parse_interaction_create(data: Any) -> None:
            with languages.acting(data):
                parse(data)

        parse_interaction_create.in_members_language = True  # type: ignore[attr-defined]
        parsers["INTERACTION_CREATE"] = parse_interaction_create

    async def setup_hook(self) -> None:
        self._dispatch_in_members_language()
        self.add_dynamic_items(GameButton, RematchButton, ManageSelect, QuickButton)
        for game in self.games.presentations():
            await asyncio.to_thread(game.prepare)  # e.g. the board's base picture (~0.3 s)
        for extension in extensions():
            await self.load_extension(extension)
        # The commands' names, descriptions and choices in the members' languages (sync).
        await self.tree.set_translator(CommandTranslator())
        self.tree.error(self.on_tree_error)
        refused = await tree_refusals(self.tree) if self.settings.dev_guild_id else []
        if refused:
            log.error("commands not synced, Discord would refuse: %s", "; ".join(refused))
        elif self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to dev guild %s", self.settings.dev_guild_id)
        self.tables.bots.start()
        if self.settings.web_port:
            await self.start_web(self.settings.web_host, self.settings.web_port)
        if self.run_timers:
            self._timer_task = asyncio.create_task(self._timer_loop(), name="table-timers")

    def web_operator(self, families: Callable[[str], bool] | None = None) -> LocalOperator:
        """What ``/healthz``, ``/readyz`` and ``/metrics`` say of this bot."""
        assert self.shell.web is not None
        token = self.settings.metrics_token
        return LocalOperator(
            self.shell.web,
            self.games,
            gateway=lambda: self.is_ready() and not self.is_closed(),
            latency=lambda: self.latency,
            token=None if token is None else token.get_secret_value(),
            families=families,
        )

    def web_app(self, limit: RateLimit | None = None) -> web.Application:
        """The web companion's pages and operator routes on this bot's own event loop and
        services (the tests'; a running bot serves them from ``start_web``'s process)."""
        assert self.shell.web is not None
        public = public_channel(self)

        async def language_of(guild_id: int) -> Language:
            return await self.languages.of_guild(guild_id)

        async def guild_name(guild_id: int) -> str | None:
            return getattr(self.get_guild(guild_id), "name", None)

        async def channel_public(guild_id: int, channel_id: int) -> bool:
            return public(guild_id, channel_id)

        site = Site(
            self.shell,
            self.shell.web,
            language_of,
            guild_name=guild_name,
            public_url=self.settings.public_url,
            channel_public=channel_public,
        )
        return build_app(site, self.web_operator(), limit)

    async def start_web(self, host: str, port: int, limit: RateLimit | None = None) -> WebProcess:
        """The pages served on ``host:port`` by a process of their own (``bot.web_process``),
        which asks this bot only what Discord's cache and its metrics know."""
        operator = self.web_operator(lambda family: not metrics.is_web(family))
        public = public_channel(self)

        async def guild(guild_id: int) -> tuple[str | None, str]:
            name = getattr(self.get_guild(guild_id), "name", None)
            return name, (await self.languages.of_guild(guild_id)).tag

        limit = limit or RateLimit()
        options = WebOptions(
            str(self.db.target),
            host,
            port,
            public_url=self.settings.public_url,
            token=operator.token,
            per_second=limit.per_second,
            burst=limit.burst,
            log_level=self.settings.log_level,
        )
        self.web_server = WebProcess(
            options, BotSide(guild, public, operator.ready, operator.exposition)
        )
        await self.web_server.start()
        return self.web_server

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        original = getattr(error, "original", None) or error
        refused = isinstance(original, UserError | app_commands.CheckFailure)
        metrics.COMMANDS.labels(command, "refused" if refused else "error").inc()
        await handle_error(interaction, error, f"in /{command}")

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        metrics.COMMANDS.labels(command.qualified_name, "ok").inc()

    async def on_ready(self) -> None:
        restored = await self.shell.publisher.restore()
        shards = self.shell.shards
        log.info(
            "ready as %s in %d guilds%s; %d tables redrawn; database %s",
            self.user,
            len(self.guilds),
            "" if shards.subset() is None else f" (shards {list(shards.ids)} of {shards.count})",
            restored,
            self.db.target,
        )

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        try:
            await self.shell.publisher.message_deleted(payload.message_id)
        except Exception:
            log.exception("reposting deleted message %s failed", payload.message_id)

    async def tick(self) -> int:
        """Fire due timers once and show what they changed; returns how many fired. Each
        change is shown as soon as it is committed, several at a time (a slow Discord holds
        up no other table), and the versions shown are recorded at the end."""
        showing: set[asyncio.Task[None]] = set()
        limit = asyncio.Semaphore(SHOW_CONCURRENCY)
        channels = KeyedLocks()

        async def show(change: Change) -> None:
            async with channels.hold(change.table.game_channel_id), limit:
                await self._show_timer_change(change)

        def committed(change: Change) -> None:
            showing.add(asyncio.create_task(show(change)))

        fired = len(await self.peers.timers.run_due(committed))
        metrics.TIMERS_FIRED.inc(fired)
        if showing:
            await asyncio.wait(showing)
        # After the timers: a turn that ran out has its next player's reminder by now.
        try:
            await self.reminders.run()
        except DatabaseUnavailable as exc:
            log.warning("turn reminders wait for the database: %s", exc)
        except Exception:
            log.exception("turn reminders failed; the next tick retries")
        for step in self.tick_steps:  # e.g. a tournament's next round
            try:
                await step()
            except Exception:
                log.exception("a tick step failed; the next tick retries")
        try:
            await self.shell.publisher.flush_shown()
        except Exception:
            log.exception("could not record the versions shown; the next tick retries")
        return fired

    async def _show_timer_change(self, change: Change) -> None:
        try:
            await self.shell.publisher.publish(change)
        except discord.HTTPException as exc:
            log.warning("game %s: could not show a timer change (%s)", change.table.id, exc.status)
        except Exception:
            # The change is committed; showing it failed. The other tables' changes still
            # get shown, and the next start redraws this one.
            log.exception("game %s: showing a timer change failed", change.table.id)

    async def _timer_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            await self._timer_step()

    async def _timer_step(self) -> None:
        """One tick, then the wait for the next deadline (at most a second). Neither ends the
        loop: a database that is down for a while makes the timers wait, not stop."""
        upcoming = None
        try:
            await self.tick()
            upcoming = min(
                (
                    t
                    for t in (
                        await self.peers.timers.next_deadline(),
                        await self.reminders.next_due(),
                    )
                    if t is not None
                ),
                default=None,
            )
        except DatabaseUnavailable as exc:
            log.warning("timers wait for the database: %s", exc)
        except Exception:
            log.exception("timer loop failed; retrying")
        delay = 1.0 if upcoming is None else min(1.0, max(0.05, upcoming - self.clock()))
        await asyncio.sleep(delay)

    async def close(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
        if self.web_server is not None:
            await self.web_server.stop()
            self.web_server = None
        await self.tables.bots.close()
        try:
            await self.shell.publisher.flush_shown()
        except Exception:  # a closed database at shutdown: the next start redraws a little more
            log.info("versions shown not recorded at shutdown", exc_info=True)
        await super().close()


class ShardedSequencesBot(SequencesBot, commands.AutoShardedBot):
    """The bot over the shards SHARD_COUNT and SHARD_IDS name, one connection per shard
    (discord.py's AutoShardedBot); other processes run the other shards on the same
    database, so this one fires the timers and redraws the tables of its own guilds only.
    Without SHARD_COUNT, Discord's recommended count, all run here."""

    @staticmethod
    def shards_of(settings: Settings) -> Shards:
        return settings.shards()

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        if settings.shard_count is None:
            return {}
        shards = settings.shards()
        return {"shard_count": shards.count, "shard_ids": list(shards.ids)}


def make_bot(settings: Settings, db: Database, **options: Any) -> SequencesBot:
    """The bot these settings ask for: sharded when SHARD_COUNT is set, else one plain
    connection as a small bot needs."""
    kind = SequencesBot if settings.shard_count is None else ShardedSequencesBot
    return kind(settings, db, **options)


# Loggers of the libraries under the bot. At DEBUG, aiosqlite logs every SQL parameter (the
# state_json with every hand), discord.http every request body (private replies included).
THIRD_PARTY_LOGGERS = ("aiosqlite", "discord", "asyncio", "aiohttp", "websockets", "PIL")
# psycopg_pool logs every connection handed out at INFO; its warnings (a connection lost, a
# reconnection failed) are what an operator needs.
QUIET_LOGGERS = ("psycopg",)


def configure_logging(level: str) -> None:
    """The bot's own loggers at ``level``; everything else at INFO or above, whatever it is."""
    wanted = logging.getLevelName(level.upper())
    if not isinstance(wanted, int):  # Settings refuses such a name; be safe all the same
        wanted = logging.INFO
    logging.basicConfig(
        level=max(wanted, logging.INFO), format="%(asctime)s %(levelname)-7s %(name)s: %(message)s"
    )
    logging.getLogger().setLevel(max(wanted, logging.INFO))  # basicConfig skips it if set up
    for name in ("bot", "cogs"):
        logging.getLogger(name).setLevel(wanted)
    for name in THIRD_PARTY_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(wanted, logging.INFO))
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(wanted, logging.WARNING))


async def _main(settings: Settings) -> int:
    assert settings.discord_token is not None
    try:
        db = await Database.open(settings.database_target())
    except DatabaseUnusable as exc:  # too new, corrupt, not a database: one line, no traceback
        log.error("%s", exc)
        return 2
    async with db, make_bot(settings, db) as bot:
        try:
            await bot.start(settings.discord_token.get_secret_value())
        except (OSError, aiohttp.ClientError, discord.DiscordException) as exc:
            problem = discord_problem(exc)
            if problem is None:
                raise
            log.error("%s", problem)
            return 2
    return 0


@contextmanager
def logging_configured(level: str) -> Iterator[None]:
    """:func:`configure_logging` while the block runs; the levels it set and the handler it
    added are put back after, so a bot run inside another program (a test, a shell) leaves
    that program's logging as it found it."""
    root = logging.getLogger()
    names = ("", "bot", "cogs", *THIRD_PARTY_LOGGERS, *QUIET_LOGGERS)
    levels = {name: logging.getLogger(name).level for name in names}
    handlers = list(root.handlers)
    configure_logging(level)
    try:
        yield
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        for name, saved in levels.items():
            logging.getLogger(name).setLevel(saved)


def run_bot(settings: Settings) -> int:
    with logging_configured(settings.log_level):
        try:
            return asyncio.run(_main(settings))
        except KeyboardInterrupt:
            return 0

"""The command tree's words for the catalogue: a Babel extraction method (the ``commands`` domain's)
that reads the bot's own tree through discord.py's translation path, so the catalogue holds exactly
what ``python -m bot sync`` translates."""

from __future__ import annotations

import asyncio
import functools
import inspect
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import discord
from discord import app_commands

from bot.ui.i18n import CONTEXTS, NAME_LIMIT, TEXT_LIMIT, CommandTranslator

_LIMITS = {
    "command": f"a command name: one lowercase word (- and _ allowed), at most {NAME_LIMIT}",
    "option": f"an option name: one lowercase word (- and _ allowed), at most {NAME_LIMIT}",
    "description": f"a description: at most {TEXT_LIMIT} characters",
    "choice": f"a choice in a menu: at most {TEXT_LIMIT} characters",
}


@dataclass(frozen=True)
class Entry:
    file: str  # resolved path of the source file that declares it
    line: int
    context: str
    message: str
    where: str  # "/sequences start · variant"


async def build_tree() -> app_commands.CommandTree[Any]:
    """The bot's command tree with its translator, as ``setup_hook`` makes it, without
    Discord (no login) and on a throw-away database."""
    from bot.app import SequencesBot, extensions
    from bot.config import Settings
    from bot.store.db import Database

    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "tree.sqlite3"))
        async with db:
            bot = SequencesBot(Settings(_env_file=None), db, run_timers=False)  # type: ignore[call-arg]
            for extension in extensions():
                await bot.load_extension(extension)
            await bot.tree.set_translator(CommandTranslator())
            return bot.tree


def _source(obj: Any) -> tuple[str, int]:
    """Where a command (its callback) or a cog's group (its class) is written."""
    if isinstance(obj, app_commands.Group):
        module = sys.modules[obj.module or ""]
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if getattr(cls, "__cog_group_name__", None) == obj.name:
                obj = cls
                break
        target = obj if isinstance(obj, type) else module
    else:
        target = inspect.unwrap(obj.callback)
    file = inspect.getsourcefile(target) or "?"
    line = (
        target.__code__.co_firstlineno
        if hasattr(target, "__code__")
        else inspect.getsourcelines(target)[1]
    )
    return str(Path(file).resolve()), line


class _Recorder(app_commands.Translator):
    """Writes down every string discord.py asks to translate, with where it is."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self._at: tuple[str, int, str] = ("?", 0, "")

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.american_english:  # once per string is enough
            return None
        if string.extras.get("verbatim"):
            return None
        data: Any = context.data
        if isinstance(data, app_commands.Command | app_commands.Group):
            file, line = _source(data)
            self._at = (file, line, f"/{data.qualified_name}")
        elif isinstance(data, app_commands.Parameter):
            file, line = _source(data.command)
            self._at = (file, line, f"/{data.command.qualified_name} · {data.display_name}")
        file, line, where = self._at
        kind = CONTEXTS.get(context.location)
        if kind is not None:
            self.entries.append(Entry(file, line, kind, string.message, where))
        return None


async def tree_entries() -> list[Entry]:
    tree = await build_tree()
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return recorder.entries


@functools.cache
def _entries() -> tuple[Entry, ...]:
    return tuple(asyncio.run(tree_entries()))


def extract_tree(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """Babel's extraction method interface (line, function, messages, comments): the
    ``commands`` domain's, the tree's strings declared in this file and nothing else (the
    file's own ``_()`` calls are another domain's)."""
    here = str(Path(getattr(fileobj, "name", "")).resolve())
    for entry in _entries():
        if entry.file == here:
            comment = f"{entry.where}: {_LIMITS[entry.context]}"
            yield entry.line, "pgettext", (entry.context, entry.message), [comment]

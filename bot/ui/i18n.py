"""The slash commands in the member's language, and which language a message is drawn in:
``CommandTranslator`` (discord.py's translator over the catalogue), ``tree_problems`` (what Discord
would refuse at sync) and ``locale_for`` (a private answer in the member's, a public one in the
server's)."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import SOURCE, Catalogues, Language, catalogues
from bot.i18n.speaking import current, speaking
from bot.records import NO_GUILD
from bot.tables.guild_settings import GuildSettings
from bot.tables.model import Change, Table

# The catalogue's msgctxt of each kind of string the tree asks for: names (Discord's name
# rules) apart from the texts, as a name is one lowercase word and a text is a phrase.
CONTEXTS: dict[Where, str] = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.command_description: "description",
    Where.group_description: "description",
    Where.parameter_description: "description",
    Where.choice_name: "choice",
}

NAME_LIMIT = 32
TEXT_LIMIT = 100  # a description or a choice's name


def verbatim(text: str) -> app_commands.locale_str:
    """A string of the tree that is the same in every language (a language's own name)."""
    return app_commands.locale_str(text, verbatim=True)


class CommandTranslator(app_commands.Translator):
    """The command tree in every Discord locale a catalogue serves (es-ES and es-419 read
    ``es``); None (Discord shows the English) where none does. ``locales`` maps Discord
    locales to catalogues by hand (the pseudo-locale's test)."""

    def __init__(
        self, books: Catalogues | None = None, locales: Mapping[discord.Locale, str] | None = None
    ) -> None:
        self.books = books or catalogues()
        self.locales = dict(locales or {})

    def catalogue_of(self, locale: discord.Locale) -> str | None:
        tag = self.locales.get(locale) or self.books.resolve(locale.value)
        return None if tag == SOURCE else tag

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        tag = self.catalogue_of(locale)
        where = CONTEXTS.get(context.location)
        if tag is None or where is None or string.extras.get("verbatim"):
            return None
        return self.books.lookup(tag, where, string.message)


async def translated_tree(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """What ``tree.sync()`` sends (discord.py's own translation path), command by command."""
    translator = tree.translator
    commands = tree.get_commands()
    if translator is None:
        payload = [c.to_dict(tree) for c in commands]
    else:
        payload = [await c.get_translated_payload(tree, translator) for c in commands]
    return sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))


def _name_character(c: str) -> bool:
    # Discord's ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Devanagari and Thai by block)
    return (
        c in "-_"
        or unicodedata.category(c)[0] in "LN"
        or "\u0900" <= c <= "\u097f"
        or "\u0e00" <= c <= "\u0e7f"
    )


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` as a command, option or localised name, or None."""
    if not 1 <= len(name) <= NAME_LIMIT:
        return f"{len(name)} characters (1-{NAME_LIMIT})"
    bad = sorted({c for c in name if not _name_character(c)})
    if bad:
        return "characters Discord refuses in a name: " + " ".join(repr(c) for c in bad)
    if name != name.lower():
        return "not lowercase"
    return None


def _text_problem(text: str) -> str | None:
    return None if 1 <= len(text) <= TEXT_LIMIT else f"{len(text)} characters (1-{TEXT_LIMIT})"


def tree_problems(payload: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every name, description and choice of a translated tree Discord would refuse, as
    ``/path [locale] name "text": why`` lines; empty when the tree is valid."""
    problems: list[str] = []

    def check(item: Mapping[str, Any], path: str, siblings: dict[str, dict[str, str]]) -> None:
        here = f"{path} {item['name']}".strip()
        names = {"": item["name"], **item.get("name_localizations", {})}
        for locale, name in names.items():
            why = name_problem(name)
            if why is not None:
                problems.append(f"/{here} [{locale or 'default'}] name {name!r}: {why}")
            # Two options of one command may not share a name in any language.
            other = siblings.setdefault(locale, {}).setdefault(name, here)
            if other != here:
                problems.append(f"/{here} [{locale or 'default'}] name {name!r}: also /{other}'s")
        texts = {"": item.get("description", "-"), **item.get("description_localizations", {})}
        for locale, text in texts.items():
            why = _text_problem(text)
            if why is not None:
                problems.append(f"/{here} [{locale or 'default'}] description {text!r}: {why}")
        for choice in item.get("choices", []):
            labels = {"": choice["name"], **choice.get("name_localizations", {})}
            for locale, label in labels.items():
                why = _text_problem(label)
                if why is not None:
                    problems.append(f"/{here} [{locale or 'default'}] choice {label!r}: {why}")
        below: dict[str, dict[str, str]] = {}
        for option in item.get("options", []):
            check(option, here, below)

    top: dict[str, dict[str, str]] = {}
    for command in payload:
        check(command, "", top)
    return problems


async def tree_refusals(tree: app_commands.CommandTree[Any]) -> list[str]:
    """What Discord would refuse in the tree ``tree.sync()`` sends (``tree_problems``)."""
    return tree_problems(await translated_tree(tree))


def public_tag(books: Catalogues, chosen: str | None, guild_locale: str | None) -> str:
    """The language of a server's public messages: the one ``/settings language`` chose,
    else the server's Discord locale, else English; each through the fallbacks."""
    if chosen:
        return books.resolve(chosen)
    return books.resolve(guild_locale)


class _Settings(Protocol):
    guild_settings: GuildSettings


class _HasSettings(Protocol):
    """The bot, as far as the server's language goes: the shell (``bot.ui.shell``) sits
    above this module, which its publisher uses."""

    shell: _Settings


async def locale_for(
    interaction: discord.Interaction[Any], public: bool, books: Catalogues | None = None
) -> Language:
    """The language of an answer to ``interaction``: a private one in the member's own
    (``interaction.locale``); a public one in the server's. Outside servers (DMs, group
    DMs) a public message is read by the people there: the member who acted decides."""
    books = books or catalogues()
    if not public or interaction.guild_id is None:
        return books.language(interaction.locale.value)
    chosen = await cast(_HasSettings, interaction.client).shell.guild_settings.language(
        interaction.guild_id
    )
    guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
    return books.language(public_tag(books, chosen, guild_locale))


class ServerLanguages:
    """The language of each server's public messages without a database round trip: ``/settings
    language``, else the server's Discord locale, else English. Members' locales are kept too, for
    the DMs the bot sends by itself."""

    MEMBERS_REMEMBERED = 100_000

    def __init__(
        self,
        settings: GuildSettings | None = None,
        client: discord.Client | None = None,
        books: Catalogues | None = None,
    ) -> None:
        self.settings = settings
        self.client = client
        self._books = books
        self.guild_locales: dict[int, str] = {}
        self.member_locales: dict[int, str] = {}

    @property
    def books(self) -> Catalogues:
        return self._books or catalogues()  # read when drawn: a test may add a language

    def heard(self, data: Mapping[str, Any]) -> None:
        """What an interaction's payload says of its server's and its member's locale."""
        guild_id, guild_locale = data.get("guild_id"), data.get("guild_locale")
        if guild_id and guild_locale:
            self.guild_locales[int(guild_id)] = str(guild_locale)
        user = (data.get("member") or {}).get("user") or data.get("user") or {}
        if user.get("id") and data.get("locale"):
            if len(self.member_locales) >= self.MEMBERS_REMEMBERED:
                self.member_locales.pop(next(iter(self.member_locales)))
            self.member_locales[int(user["id"])] = str(data["locale"])

    def guild_locale(self, guild_id: int) -> str | None:
        heard = self.guild_locales.get(guild_id)
        if heard:
            return heard
        guild = self.client.get_guild(guild_id) if self.client is not None else None
        locale = getattr(guild, "preferred_locale", None)
        return None if locale is None else str(locale.value)

    async def of_guild(self, guild_id: int) -> Language:
        chosen = None if self.settings is None else await self.settings.language(guild_id)
        return self.books.language(public_tag(self.books, chosen, self.guild_locale(guild_id)))

    def of_member(self, user_id: int) -> Language:
        return self.books.language(self.member_locales.get(user_id))

    @contextmanager
    def acting(self, data: Mapping[str, Any]) -> Iterator[Language]:
        """Handle an interaction (its INTERACTION_CREATE payload) in its member's words,
        remembering what it says of its server's and member's locale (``heard``)."""
        self.heard(data)
        with speaking(data.get("locale")) as words:
            yield words

    @contextmanager
    def to_member(self, user_id: int) -> Iterator[Language]:
        """Draw a message the bot sends a member by itself (a DM) in their own words."""
        with speaking(self.of_member(user_id)) as words:
            yield words

    async def of(self, table: Table) -> Language:
        """A table's public language; outside servers, the words of whoever is acting
        there now (the interaction's member: such a table is shown through interactions)."""
        if table.row.guild_id == NO_GUILD:
            return current()
        return await self.of_guild(table.row.guild_id)

    @asynccontextmanager
    async def public(self, table: Table) -> AsyncIterator[Language]:
        """Draw the block's words in the table's public language."""
        with speaking(await self.of(table)) as words:
            yield words

    @asynccontextmanager
    async def in_guild(self, guild_id: int) -> AsyncIterator[Language]:
        """Draw the block's words in a server's public language."""
        with speaking(await self.of_guild(guild_id)) as words:
            yield words


class _Speaks(Protocol):
    languages: ServerLanguages


S = TypeVar("S", bound=_Speaks)
P = ParamSpec("P")
R = TypeVar("R")


def _table_in(values: Iterable[object]) -> Table:
    for value in values:
        if isinstance(value, Table):
            return value
        if isinstance(value, Change):
            return value.table
    raise TypeError("a public message is drawn for a table: none given")


@contextmanager
def privately(interaction: discord.Interaction[Any]) -> Iterator[Language]:
    """Draw a private answer in the words of the member who acted, where it is sent from a
    block that draws public messages in the server's (``in_public_language``)."""
    with speaking(interaction.locale.value) as words:
        yield words


@asynccontextmanager
async def publicly(interaction: discord.Interaction[Any]) -> AsyncIterator[Language]:
    """Draw a command's public answer (a line or a page everyone in the channel reads) in
    the server's language, whoever asked (``locale_for``); refusals raised before the block
    stay in the member's."""
    with speaking(await locale_for(interaction, public=True)) as words:
        yield words


def in_public_language(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """A method that draws a table's public messages, run in that table's public language whoever's
    interaction it answers; the table is its first ``Table`` or ``Change`` argument."""

    @functools.wraps(method)
    async def drawn(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.languages.public(_table_in([*args, *kwargs.values()])):
            return await method(self, *args, **kwargs)

    return cast(Callable[Concatenate[S, P], Coroutine[Any, Any, R]], drawn)

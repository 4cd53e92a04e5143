"""What Discord's application-command schema refuses in a synced command tree (issue 31 item 0).

A refused PUT of the tree registers no command at all, so the fake checks every command and
option as Discord's published API schema (and its docs) do: names and descriptions in every
locale, option ranges and lengths, choices, required options before optional ones,
subcommand nesting, and the 4,000 characters of a whole command. The checks are the fake's
own, independent of the bot's (``bot.ui.i18n.tree_problems``), so each can catch the other.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord

NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100  # a string choice's value
OPTIONS_MAX = 25
CHOICES_MAX = 25
STRING_LENGTH_MAX = 6000  # an option's min_length / max_length
COMMAND_TOTAL_MAX = 4000  # names, descriptions and choice names and values of one command
INT53 = 2**53 - 1  # Discord's Int53Type: integers (option bounds, choice values) in ±(2^53 - 1)
LOCALES = frozenset(locale.value for locale in discord.Locale)

CHAT_INPUT, USER, MESSAGE = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
OPTION_TYPES = range(1, 12)


def _name_character(c: str) -> bool:
    # Discord's ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Devanagari and Thai by block)
    return (
        c in "-_"
        or unicodedata.category(c)[0] in "LN"
        or "\u0900" <= c <= "\u097f"
        or "\u0e00" <= c <= "\u0e7f"
    )


def _slash_name_problem(name: str) -> str | None:
    if not 1 <= len(name) <= NAME_MAX:
        return f"is {len(name)} characters (1-{NAME_MAX})"
    if not all(_name_character(c) for c in name):
        return "has characters Discord refuses in a name"
    if name != name.lower():
        return "is not lowercase"
    return None


def _localised(item: Mapping[str, Any], key: str) -> Iterator[tuple[str, Any]]:
    """``item[key]`` as ("", default) and (locale, text) for each of its localisations."""
    yield "", item.get(key)
    yield from (item.get(f"{key}_localizations") or {}).items()


def _locale_problems(here: str, item: Mapping[str, Any], key: str) -> list[str]:
    return [
        f"{here}: {key}_localizations has {locale!r}, which is no Discord locale"
        for locale in item.get(f"{key}_localizations") or {}
        if locale not in LOCALES
    ]


def _text_problems(here: str, item: Mapping[str, Any], key: str, limit: int) -> list[str]:
    problems = _locale_problems(here, item, key)
    for locale, text in _localised(item, key):
        n = len(text) if isinstance(text, str) else 0
        if not 1 <= n <= limit:
            where = f" [{locale}]" if locale else ""
            problems.append(f"{here}: {key}{where} must be 1-{limit} characters (is {n})")
    return problems


def _name_problems(here: str, item: Mapping[str, Any], slash: bool) -> list[str]:
    problems = _locale_problems(here, item, "name")
    for locale, name in _localised(item, "name"):
        name = name if isinstance(name, str) else ""
        why = _slash_name_problem(name) if slash else None
        if why is None and not 1 <= len(name) <= NAME_MAX:
            why = f"is {len(name)} characters (1-{NAME_MAX})"
        if why is not None:
            problems.append(f"{here}: name{f' [{locale}]' if locale else ''} {name!r} {why}")
    return problems


def _int53(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= INT53


def _value_problems(here: str, option: Mapping[str, Any]) -> list[str]:
    """Bounds, lengths and choices of one value option (not a subcommand)."""
    kind, problems = option.get("type"), []
    low, high = option.get("min_value"), option.get("max_value")
    for key, bound in (("min_value", low), ("max_value", high)):
        if bound is None:
            continue
        if kind == INTEGER and not _int53(bound):
            problems.append(f"{here}: {key} {bound} is outside ±(2^53 - 1)")
        elif kind == NUMBER and not (isinstance(bound, int | float) and math.isfinite(bound)):
            problems.append(f"{here}: {key} {bound} is not a finite number")
        elif kind not in (INTEGER, NUMBER):
            problems.append(f"{here}: {key} on an option that is no number")
    if low is not None and high is not None and low > high:
        problems.append(f"{here}: min_value {low} is above max_value {high}")
    short, long = option.get("min_length"), option.get("max_length")
    if (short, long) != (None, None) and kind != STRING:
        problems.append(f"{here}: min_length/max_length on an option that is no string")
    if short is not None and not 0 <= short <= STRING_LENGTH_MAX:
        problems.append(f"{here}: min_length {short} is outside 0-{STRING_LENGTH_MAX}")
    if long is not None and not 1 <= long <= STRING_LENGTH_MAX:
        problems.append(f"{here}: max_length {long} is outside 1-{STRING_LENGTH_MAX}")
    if short is not None and long is not None and short > long:
        problems.append(f"{here}: min_length {short} is above max_length {long}")
    choices = option.get("choices") or []
    if choices and kind not in (STRING, INTEGER, NUMBER):
        problems.append(f"{here}: choices on an option that is no string or number")
    if choices and option.get("autocomplete"):
        problems.append(f"{here}: choices and autocomplete together")
    if len(choices) > CHOICES_MAX:
        problems.append(f"{here}: {len(choices)} choices (at most {CHOICES_MAX})")
    for choice in choices:
        at = f"{here} choice {choice.get('name')!r}"
        problems += _text_problems(at, choice, "name", CHOICE_NAME_MAX)
        value = choice.get("value")
        if kind == INTEGER and not _int53(value):
            problems.append(f"{at}: value {value!r} is no integer within ±(2^53 - 1)")
        elif kind == STRING and not (isinstance(value, str) and len(value) <= CHOICE_VALUE_MAX):
            problems.append(f"{at}: value must be a string of at most {CHOICE_VALUE_MAX}")
    return problems


def _options_problems(here: str, options: Sequence[Mapping[str, Any]], depth: int) -> list[str]:
    """The options of a command (depth 0), a subcommand group (1) or a subcommand."""
    problems: list[str] = []
    if len(options) > OPTIONS_MAX:
        problems.append(f"{here}: {len(options)} options (at most {OPTIONS_MAX})")
    subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs and len(subs) != len(options):
        problems.append(f"{here}: subcommands mixed with other options")
    optional_seen = None
    for option in options:
        at = f"{here} {option.get('name')}"
        kind = option.get("type")
        if kind not in OPTION_TYPES:
            problems.append(f"{at}: option type {kind!r} does not exist")
            continue
        problems += _name_problems(at, option, slash=True)
        problems += _text_problems(at, option, "description", DESCRIPTION_MAX)
        if kind == SUB_COMMAND_GROUP and depth > 0:
            problems.append(f"{at}: a subcommand group may only sit in a command")
        elif kind == SUB_COMMAND and depth > 1:
            problems.append(f"{at}: a subcommand may only sit in a command or a group")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            inner = list(option.get("options") or [])
            if kind == SUB_COMMAND_GROUP and any(o.get("type") != SUB_COMMAND for o in inner):
                problems.append(f"{at}: a subcommand group holds subcommands only")
            problems += _options_problems(at, inner, 2 if kind == SUB_COMMAND else 1)
            continue
        problems += _value_problems(at, option)
        if not option.get("required"):
            optional_seen = optional_seen or option.get("name")
        elif optional_seen is not None:
            problems.append(
                f"{at}: a required option after the optional {optional_seen!r} "
                "(required options come first)"
            )
    return problems + _duplicate_problems(here, options)


def _duplicate_problems(here: str, options: Sequence[Mapping[str, Any]]) -> list[str]:
    """Two options of one command may not share a name, in any language."""
    problems, seen = [], {}
    for option in options:
        for locale, name in _localised(option, "name"):
            key = (locale, name)
            if key in seen and seen[key] != option.get("name"):
                where = f" [{locale}]" if locale else ""
                problems.append(f"{here}: two options named {name!r}{where}")
            seen.setdefault(key, option.get("name"))
    return problems


def _longest(item: Mapping[str, Any], key: str) -> int:
    """A field's size as Discord counts it: its longest text over the default and locales."""
    return max((len(t) for _, t in _localised(item, key) if isinstance(t, str)), default=0)


def command_length(item: Mapping[str, Any]) -> int:
    """The characters Discord counts towards a command's 4,000: name, description, and each
    option's and choice's (choice values too), each field at its longest localisation."""
    n = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or ():
        n += _longest(choice, "name")
        n += len(str(choice.get("value", "")))
    return n + sum(command_length(option) for option in item.get("options") or ())


def command_problems(cmd: Mapping[str, Any]) -> list[str]:
    """What Discord's command schema validation would refuse in one synced command."""
    kind = cmd.get("type") or CHAT_INPUT
    here = str(cmd.get("name", ""))
    if kind not in (CHAT_INPUT, USER, MESSAGE):
        return [f"{here}: command type {kind!r} is not one this bot may sync"]
    problems = _name_problems(here, cmd, slash=kind == CHAT_INPUT)
    if kind != CHAT_INPUT:
        if cmd.get("options"):
            problems.append(f"{here}: a context menu takes no options")
        return problems
    problems += _text_problems(here, cmd, "description", DESCRIPTION_MAX)
    problems += _options_problems(here, list(cmd.get("options") or []), 0)
    total = command_length(cmd)
    if total > COMMAND_TOTAL_MAX:
        problems.append(
            f"{here}: {total:,} characters over its names, descriptions and choices "
            f"(at most {COMMAND_TOTAL_MAX:,} a command)"
        )
    return problems


def tree_problems(body: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every refusal in a whole tree's PUT, and two commands of one type sharing a name."""
    problems = [p for cmd in body for p in command_problems(cmd)]
    seen: set[tuple[Any, Any]] = set()
    for cmd in body:
        key = (cmd.get("type") or CHAT_INPUT, cmd.get("name"))
        if key in seen:
            problems.append(f"{key[1]}: two commands of one type share this name")
        seen.add(key)
    return problems

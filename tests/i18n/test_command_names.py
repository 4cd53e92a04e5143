"""A command or option a message names is named as the reader's client shows it: the slash
commands are localised (``commands.po``), so a Spanish player types ``/probabilidades``, not
``/odds``, and picks the option ``partida``, not ``game``. A translation that copied the
English name out of its message (`/odds`, `/rules game:tables`, "the `game` option") sends the
reader looking for a command their client does not list (found in a play-through in es, fr,
pt-BR and de)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from bot.i18n import po_of
from bot.i18n.domains import ALL

FOLDERS = ("de", "es", "fr", "pt_BR")
COMMAND = re.compile(r"/([a-z][\w-]*)")
OPTION = re.compile(r"(?:`|\b)([a-z][\w-]*)(?::|`)")


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value if v)
    return (str(value),) if value else ()


def _names(folder: str) -> tuple[dict[str, str], dict[str, set[str]]]:
    """English command name -> the language's, English option name -> the language's."""
    commands: dict[str, str] = {}
    options: dict[str, set[str]] = {}
    with po_of(folder, "commands").open("rb") as source:
        for message in read_po(source):
            if message.context == "command" and message.string:
                commands[str(message.id)] = str(message.string)
            elif message.context == "option" and message.string:
                options.setdefault(str(message.id), set()).add(str(message.string))
    return commands, options


def english_names(folder: str) -> Iterator[str]:
    """One line per translation that names a command or option in English where the
    language has its own name for it (and the English message names it too)."""
    commands, options = _names(folder)
    for domain in ALL:
        if domain.name == "commands":
            continue
        with po_of(folder, domain.name).open("rb") as source:
            catalog = read_po(source)
        for message in catalog:
            english = " ".join(_strings(message.id))
            for text in _strings(message.string):
                for name in COMMAND.findall(text):
                    own = commands.get(name)
                    if own and own != name and f"/{name}" in english:
                        yield f"{folder} {domain.name}: /{name} (is /{own}) in {text[:80]!r}"
                for name in OPTION.findall(text):
                    own_options = options.get(name, set())
                    if (
                        own_options
                        and name not in own_options
                        and re.search(rf"[` ]{re.escape(name)}[:`]", english)
                    ):
                        yield (
                            f"{folder} {domain.name}: option {name} (is {sorted(own_options)}) "
                            f"in {text[:80]!r}"
                        )


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_message_names_commands_and_options_as_the_readers_client_shows_them(
    folder: str,
) -> None:
    found = list(english_names(folder))
    assert not found, "\n".join(found)

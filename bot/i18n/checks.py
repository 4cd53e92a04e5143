"""What ``make test`` holds every catalogue to: every message of the source, the same placeholders,
the language's plural forms, nothing stale or fuzzy; one line a problem."""

from __future__ import annotations

import re
from collections.abc import Iterable

from babel.messages.catalog import Catalog, Message

# Named and positional printf placeholders, and brace fields: what a translation must keep.
PLACEHOLDER = re.compile(r"%\((\w+)\)[a-z]|%([a-z])|\{(\w*)\}")
COUNT = "count"  # the number of a plural message: a singular form may say it in words


def key(message: Message) -> tuple[str | None, str]:
    text = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, str(text)


def label(message: Message) -> str:
    context, text = key(message)
    return f"{text!r}" if context is None else f"{text!r} ({context})"


def placeholders(text: str) -> list[str]:
    return sorted("".join(groups) or "{}" for groups in PLACEHOLDER.findall(text))


def _forms(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    if value is None:
        return []
    return list(value) if isinstance(value, tuple | list) else [value]


def translated(message: Message) -> bool:
    """Every form of ``message`` has its translation (a plural's each form)."""
    forms = _forms(message.string)
    return bool(forms) and all(forms)


def messages(catalog: Catalog) -> dict[tuple[str | None, str], Message]:
    return {key(m): m for m in catalog if m.id}


def missing(source: Catalog, target: Catalog) -> list[str]:
    """The source's messages ``target`` lacks or leaves empty (the list a contributor
    translates after adding a message in English)."""
    have = messages(target)
    lacking = []
    for k, message in messages(source).items():
        found = have.get(k)
        if found is None or not translated(found):
            lacking.append(label(message))
    return lacking


def problems(source: Catalog, tag: str, target: Catalog, domain: str | None = None) -> list[str]:
    """Every way ``target`` (the language ``tag``, its ``domain``'s catalogue) falls short
    of ``source``."""
    if domain is not None:
        tag = f"{tag} {domain}.po"
    found = [f"{tag}: missing {m}" for m in missing(source, target)]
    wanted = messages(source)
    expected = Catalog(locale=target.locale).plural_forms if target.locale else None
    if expected is not None and target.plural_forms != expected:
        found.append(f"{tag}: Plural-Forms {target.plural_forms!r}, CLDR says {expected!r}")
    for k, message in messages(target).items():
        if k not in wanted:
            found.append(f"{tag}: stale {label(message)} (no longer in the source)")
            continue
        if message.fuzzy:
            found.append(f"{tag}: fuzzy {label(message)} (review it, then drop the flag)")
        source_forms = _forms(wanted[k].id)
        forms = _forms(message.string)
        if not any(forms):
            continue  # reported as missing
        if len(source_forms) > 1 and len(forms) != target.num_plurals:
            found.append(
                f"{tag}: {label(message)} has {len(forms)} plural forms, not {target.num_plurals}"
            )
        expected_names = sorted({p for form in source_forms for p in placeholders(form)})
        for form in forms:
            names = placeholders(form)
            lacking = [p for p in expected_names if p not in names]
            if len(source_forms) > 1 and lacking == [COUNT]:
                lacking = []
            extra = [p for p in names if p not in expected_names]
            if lacking or extra:
                found.append(
                    f"{tag}: {label(message)} placeholders {names}, the source has {expected_names}"
                )
    for message in target.obsolete.values():
        found.append(f"{tag}: stale {label(message)} (obsolete entry: make i18n-update drops it)")
    return found


def template_problems(source: Catalog, template: Catalog, domain: str = "commands") -> list[str]:
    """The committed template against what the code says now (``make i18n-extract``)."""
    now, then = set(messages(source)), set(messages(template))
    return [
        *(f"{domain}.pot lacks {t!r}: run make i18n-extract" for t in sorted(now - then, key=str)),
        *(
            f"{domain}.pot still has {t!r}: run make i18n-extract"
            for t in sorted(then - now, key=str)
        ),
    ]


def all_problems(
    source: Catalog, languages: Iterable[tuple[str, Catalog]], domain: str = "commands"
) -> list[str]:
    return [line for tag, catalog in languages for line in problems(source, tag, catalog, domain)]

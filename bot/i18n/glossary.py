"""The glossary check (issue 31 item 25): one translation per term and language, checked both ways
against ``docs/i18n.md``'s "## Glossary" tables; one line a problem."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog

from bot.i18n.checks import key

DOC = Path(__file__).resolve().parents[2] / "docs" / "i18n.md"
HEADING = "## Glossary"
PLACEHOLDER = re.compile(r"%\(\w+\)[a-z]|`[^`]*`")  # names and commands say no term


@dataclass(frozen=True)
class Term:
    """One glossary row. ``english`` and ``translation`` are word starts (a term's
    inflections and compounds match: "Button" finds "Buttons"); ``avoid``, the words the
    translation replaced; ``domains``, where the term is checked (empty: every domain)."""

    english: str
    translation: str
    avoid: tuple[str, ...]
    domains: tuple[str, ...]
    avoid_only: bool = False  # the English word means other things too ("five in a row")

    def in_english(self, text: str) -> bool:
        """Whether ``text`` has the term as a word of its own or its plural ("stake",
        "stakes"; not "staked", "max-stake" or "--stake")."""
        if self.avoid_only:
            return False
        word = r"(?<![\w-])" + re.escape(self.english) + r"s?(?![\w-])"
        return re.search(word, PLACEHOLDER.sub(" ", text)) is not None

    def said(self, text: str) -> bool:
        return any(_finds(word, text) for word in self.translation.split(" / "))

    def avoided(self, text: str) -> list[str]:
        return [word for word in self.avoid if _finds(word, text)]

    def checks(self, domain: str) -> bool:
        return not self.domains or domain in self.domains


def _finds(word: str, text: str) -> bool:
    """Whether ``word`` starts a word of ``text``, in any case (placeholders and `commands`
    left out)."""
    found = re.search(r"(?<!\w)" + re.escape(word), PLACEHOLDER.sub(" ", text), re.IGNORECASE)
    return found is not None


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def glossaries(doc: str | None = None) -> dict[str, list[Term]]:
    """Each language's terms, read from ``docs/i18n.md``'s "## Glossary" section: a
    ``### <language>`` heading, then a table of term | translation | not | domains."""
    text = DOC.read_text(encoding="utf-8") if doc is None else doc
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[Term]] = {}
    language = ""
    for line in section.splitlines():
        if line.startswith("### "):
            language = line[4:].split()[0].strip("`")
            found[language] = []
        elif line.startswith("|") and language and not set(line) <= set("|-: "):
            english, translation, avoid, domains, *_where = _cells(line)
            if english.lower() == "term":
                continue
            found[language].append(
                Term(
                    english=english.strip("*"),
                    translation=translation.strip("*"),
                    avoid=tuple(w.strip() for w in avoid.split(",") if w.strip() not in ("", "—")),
                    domains=tuple(d.strip("` ") for d in domains.split(",") if d.strip("` —")),
                    avoid_only=english.startswith("*") and not english.startswith("**"),
                )
            )
    return found


def _strings(value: object) -> list[str]:
    if isinstance(value, tuple | list):
        return [str(v) for v in value]
    return [str(value)] if value else []


def glossary_problems(
    terms: Iterable[Term], books: Iterable[tuple[str, Catalog]], language: str
) -> list[str]:
    """Every message of ``books`` (domain, catalogue) that translates a term another way."""
    problems = []
    terms = list(terms)
    for domain, catalogue in books:
        for message in catalogue:
            if not message.id or not message.string:
                continue
            english = " ".join(_strings(message.id))
            texts = _strings(message.string)
            for term in terms:
                if not term.checks(domain):
                    continue
                where = f"{language} {domain} {key(message)[1]!r}"
                for text in texts:
                    for word in term.avoided(text):
                        problems.append(f"{where}: {word!r} for {term.english!r}: {text!r}")
                if term.in_english(english) and not any(term.said(t) for t in texts):
                    problems.append(f"{where}: {term.english!r} is not {term.translation!r}")
    return problems

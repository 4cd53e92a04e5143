"""French writes a no-break space before : ; ! ? and inside « » (docs/i18n.md), so a phone
never wraps the sign onto a line of its own: a plain space there is a typo the eye misses
(a play-through found 18 of them: the coach, the wallet's movements, the rating chart)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.i18n import po_of
from bot.i18n.domains import ALL

PLAIN = re.compile(r"\S [:;!?»%]|« ")


@pytest.mark.parametrize("domain", [d.name for d in ALL])
def test_french_puts_a_no_break_space_before_its_high_signs(domain: str) -> None:
    with po_of("fr", domain).open("rb") as source:
        catalog = read_po(source)
    plain = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in strings:
            text = re.sub(r"%\([^)]*\)s", "x", str(text or ""))  # a placeholder is no sign
            if PLAIN.search(text):
                plain.append(f"{message.id!r}: {text!r}")
    assert not plain, "\n".join(plain)

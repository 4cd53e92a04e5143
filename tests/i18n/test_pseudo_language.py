"""The pseudo-locale en-XA is a language like the others once added: its words are the
marked ones, and its numbers (CLDR has no en-XA) are its base language's."""

from __future__ import annotations

from bot.i18n import Catalogues
from bot.i18n.pseudo import CLOSE, OPEN, TAG, pseudo_catalogue

HERE = "Language of public game messages here: %(language)s."


def test_the_pseudo_locale_counts_and_groups_numbers_as_english() -> None:
    books = Catalogues.load()
    books.add(TAG, pseudo_catalogue())
    words = books.language(TAG)
    assert words.tag == TAG
    marked = words.gettext(HERE)
    assert marked.startswith(OPEN) and marked.endswith(CLOSE) and "%(language)s" in marked
    assert words.number(12_345) == "12,345" and words.number(0.5) == "0.5"
    assert "1,500" in words.plural("%(count)s chip", "%(count)s chips", 1500)

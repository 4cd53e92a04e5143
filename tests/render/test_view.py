"""The view builder refuses more buttons than a message holds instead of dropping them."""

from __future__ import annotations

import pytest

from bot.records import Button
from bot.render.view import MAX_BUTTONS, build_view


def buttons(n: int) -> list[Button]:
    return [Button(f"a{i}", f"A{i}", "secondary", row=i // 5) for i in range(n)]


def test_twenty_five_buttons_are_all_drawn() -> None:
    view = build_view(1, 3, buttons(20), [Button("resign", "Resign", "danger", row=4)])
    assert [item.custom_id for item in view.children][-1] == "t:1:T:resign"  # type: ignore[attr-defined]
    assert len(build_view(1, 3, buttons(MAX_BUTTONS)).children) == MAX_BUTTONS


def test_a_button_past_the_limit_is_refused_not_hidden() -> None:
    # A table button (Resign) past 25 used to be cut off silently: the player could not
    # resign and nothing said why.
    with pytest.raises(ValueError, match=r"26 buttons for table 7, over 25: .*resign"):
        build_view(7, 3, buttons(25), [Button("resign", "Resign", "danger")])

"""Issue 22's lobby host on both engines: the stake change moves chips in one transaction
with the lobby's save, and the lobby role is a server setting of migration 005."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_issue_22_lobby import (
    test_a_new_stake_refunds_everyone_and_asks_again as stake_change,
)
from tests.discord.test_issue_22_lobby import (
    test_the_host_removes_a_seat_and_its_stake_goes_back as remove_seat,
)
from tests.discord.test_issue_22_lobby import (
    test_the_lobby_role_is_called_and_only_that_role as lobby_role,
)


async def test_a_new_stake_on_each_engine(make_env: MakeEnv) -> None:
    await stake_change(make_env)


async def test_a_removed_seat_on_each_engine(make_env: MakeEnv) -> None:
    await remove_seat(make_env)


async def test_the_lobby_role_on_each_engine(make_env: MakeEnv) -> None:
    await lobby_role(make_env)

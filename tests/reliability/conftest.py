"""The reliability tests drive the real bot through the harness, like tests/discord, on both
database engines (``[sqlite]`` and ``[postgresql]``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.backends import DbTarget
from tests.discord.conftest import MakeEnv, close_envs, env_factory


@pytest.fixture
async def make_env(db_target: DbTarget, make_harness: Any) -> AsyncIterator[MakeEnv]:
    make, opened = env_factory(lambda n: db_target(f"bot{n}"), make_harness)
    yield make
    await close_envs(opened)

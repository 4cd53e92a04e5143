"""What one process keeps in memory about tables: a lock per table while it is in use.
Nothing here may grow with every table ever played: another process on the same database may
close a table this one never looks at again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class KeyedLocks:
    """One asyncio lock per key (a table id; a channel and route for the publisher's pace),
    kept only while a task holds it or waits for it."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def busy(self, key: Hashable) -> bool:
        """Whether a task holds ``key``'s lock now (one taking it would wait)."""
        entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

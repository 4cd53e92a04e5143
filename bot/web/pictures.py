"""Pictures the pages draw (a replay's board at a step, a rating chart, a tournament's
bracket), made off the event loop and kept in a small cache: drawing a board takes tens of
milliseconds, which the loop that answers clicks must not spend."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable

from bot.i18n.speaking import current, speaking


class PictureCache:
    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, bytes | None] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes | None]] = {}

    async def get(self, key: Hashable, draw: Callable[[], bytes | None]) -> bytes | None:
        """The picture ``key`` names, drawn by ``draw`` in a worker thread (in the words of
        the caller's language) the first time; one drawing at a time per key."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        words = current()

        def drawn() -> bytes | None:
            with speaking(words):
                return draw()

        future: asyncio.Future[bytes | None] = asyncio.ensure_future(asyncio.to_thread(drawn))
        self._drawing[key] = future
        try:
            data = await asyncio.shield(future)
        finally:
            self._drawing.pop(key, None)
        self._kept[key] = data
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return data

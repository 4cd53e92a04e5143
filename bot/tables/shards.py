"""Which guilds this process owns when the bot runs as several processes, by Discord's shard
formula: timers and redraws touch only those, or two processes would fire one timer."""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to, out of ``count``."""
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """``count`` shards in all, ``ids`` of them run here. The default, one shard run here,
    owns every guild: a bot that is not sharded."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a shard count is at least 1, not {self.count}")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be 0 to {self.count - 1}, not {list(self.ids)}")

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def subset(self) -> tuple[int, tuple[int, ...]] | None:
        """(count, sorted ids) when this process owns only some guilds, for the store's
        queries; None when it owns them all (no filter)."""
        ids = tuple(sorted(set(self.ids)))
        return None if ids == tuple(range(self.count)) else (self.count, ids)


EVERY_GUILD = Shards()  # a bot that is not sharded owns every guild

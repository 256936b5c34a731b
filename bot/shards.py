"""Which guilds this process looks after, when the bot runs as several Discord shards.

Discord sends each guild's events to one shard only: `(guild_id >> 22) % shard_count`. A
process running some of the shards must also resume, time and post only the games of those
guilds, or two processes would play the same AI turns and post the same boards. This is the
one place that says which games are ours, in Python (`owns`) and in SQL (`owned`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, literal, true

# Discord's snowflakes keep their creation time above bit 22; the shard uses those bits.
TIMESTAMP_SHIFT = 22


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends this guild's events to."""
    return (guild_id >> TIMESTAMP_SHIFT) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """`0-1`, `0,2` or `0-1,4` as sorted shard ids; ValueError naming what is wrong."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True)
class Shards:
    """The shards this process runs: `count` None means unsharded (every guild is ours)."""

    count: int | None = None
    ids: tuple[int, ...] = ()

    @property
    def sharded(self) -> bool:
        return self.count is not None

    @property
    def processes(self) -> int:
        """How many processes run the bot, each running as many shards as this one."""
        if self.count is None or not self.ids:
            return 1
        return math.ceil(self.count / len(self.ids))

    def owns(self, guild_id: int) -> bool:
        return self.count is None or shard_of(guild_id, self.count) in self.ids

    def owned(self, guild_id: Any) -> Any:
        """A SQL condition on a guild id column: true for the guilds this process owns."""
        if self.count is None:
            return true()
        # PostgreSQL shifts a bigint by an integer only, so the shift is typed as one.
        shift = literal(TIMESTAMP_SHIFT, Integer)
        return (guild_id.bitwise_rshift(shift) % self.count).in_(self.ids)

    def __str__(self) -> str:
        if self.count is None:
            return "unsharded"
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"


ALL = Shards()

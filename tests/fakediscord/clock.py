"""Test-controlled clock and Discord snowflake generation.

The fake's clock follows real time but can be pushed forward by a test
(``fake.clock.advance(minutes=16)``) to make interaction tokens expire without
waiting. Snowflakes are derived from the clock, so they always increase and their
embedded timestamps agree with message timestamps.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time

DISCORD_EPOCH_MS = 1420070400000


class FakeClock:
    """Wall clock = real time + an offset that only the test moves (never backwards)."""

    def __init__(self) -> None:
        self._offset = dt.timedelta()

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + self._offset

    def advance(self, delta: dt.timedelta | None = None, **kwargs: float) -> dt.datetime:
        """Move the clock forward, e.g. ``advance(minutes=16)``; returns the new time."""
        step = (delta or dt.timedelta()) + dt.timedelta(**kwargs)
        if step < dt.timedelta():
            raise ValueError("the fake clock cannot go backwards")
        self._offset += step
        return self.now()

    @property
    def offset(self) -> dt.timedelta:
        return self._offset


class Snowflakes:
    """Strictly increasing Discord snowflakes whose timestamp part follows the clock."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self._last = 0
        self._increment = itertools.count()

    def next(self) -> int:
        ms = int(self._clock.now().timestamp() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._increment) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose timestamp puts it on this shard (Discord routes a guild
        by ``(guild_id >> 22) % shard_count``): a millisecond or a few past the clock."""
        value = self.next()
        ms = value >> 22
        while ms % shard_count != shard_id:
            ms += 1
        value = max(value, (ms << 22) | (1 << 17))
        self._last = value
        return value


def iso(moment: dt.datetime) -> str:
    """Timestamp format Discord uses in payloads (ISO 8601 with +00:00)."""
    return moment.astimezone(dt.UTC).isoformat()


def monotonic() -> float:
    """Real monotonic seconds, used for the 3-second interaction deadline."""
    return time.monotonic()

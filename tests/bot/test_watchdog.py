"""The event-loop watchdog the capacity benchmark turns on (LOOP_WATCHDOG_MS): a callback
that holds the loop longer than the threshold is logged with how long it held it."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.__main__ import watch_the_loop


async def test_a_blocked_loop_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A 200 ms block with a 50 ms threshold is logged, as at least 150 ms."""
    watching = asyncio.create_task(watch_the_loop(50))
    await asyncio.sleep(0.05)  # the watchdog is sleeping its tick
    time.sleep(0.2)  # holds the event loop, as a slow render on it would
    await asyncio.sleep(0.05)
    watching.cancel()
    blocked = [
        int(m[1]) for r in caplog.records if (m := re.search(r"blocked (\d+) ms", r.message))
    ]
    assert blocked and max(blocked) >= 150


async def test_a_free_loop_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Short sleeps and quick callbacks stay under a generous threshold."""
    watching = asyncio.create_task(watch_the_loop(5000))
    for _ in range(10):
        await asyncio.sleep(0.01)
    watching.cancel()
    assert not [r for r in caplog.records if r.name == "bot.watchdog"]

"""The event-loop watchdog the capacity benchmark turns on (LOOP_WATCHDOG_MS): a callback
that holds the loop longer than the threshold is logged with how long it held it."""

from __future__ import annotations

import asyncio
import gc
import re
import subprocess
import sys
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


def hold_the_loop_for(seconds: float) -> None:
    time.sleep(seconds)  # as a simulation run inline on the loop would


async def test_a_block_is_logged_with_where_the_loop_was(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With stacks on (LOOP_WATCHDOG_STACKS=1, the capacity benchmark's --stacks) the
    block's log line names the function that held the loop."""
    watching = asyncio.create_task(watch_the_loop(50, stacks=True))
    await asyncio.sleep(0.05)
    hold_the_loop_for(0.3)
    await asyncio.sleep(0.05)
    watching.cancel()
    await asyncio.gather(watching, return_exceptions=True)
    blocks = [r.getMessage() for r in caplog.records if r.name == "bot.watchdog"]
    assert blocks and "the loop was at" in blocks[0]
    assert "in hold_the_loop_for" in blocks[0]


async def test_a_long_garbage_collection_is_named(caplog: pytest.LogCaptureFixture) -> None:
    """A full collection that holds the loop is named in the block's line with how long
    the collector took (a collector callback stands in for a large heap's walk)."""

    def slow_walk(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            time.sleep(0.1)

    watching = asyncio.create_task(watch_the_loop(50, stacks=True))
    await asyncio.sleep(0.05)  # the sampler's callback is in place before ours
    gc.callbacks.append(slow_walk)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(slow_walk)
    await asyncio.sleep(0.05)
    watching.cancel()
    await asyncio.gather(watching, return_exceptions=True)
    blocks = [r.getMessage() for r in caplog.records if r.name == "bot.watchdog"]
    assert any(
        re.search(r"gc generation 2 took \d+ ms \(\d+ ms CPU, \d+ collected\)", b) for b in blocks
    )


def test_the_bots_process_freezes_its_start_up_heap() -> None:
    """Issue 16: `python -m bot` imports every cog and freezes what start-up made, so a full
    garbage collection under load walks only what serving games made since. Run in a
    process of its own: a frozen object is never collected, which pytest's must be."""
    script = (
        "import gc, sys; from bot.__main__ import settle_the_heap; settle_the_heap(); "
        "print(gc.get_freeze_count(), 'cogs.toss' in sys.modules, len(gc.get_objects()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    frozen, cogs_loaded, still_tracked = done.stdout.split()
    assert cogs_loaded == "True"
    assert int(frozen) > 50 * int(still_tracked)

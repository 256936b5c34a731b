"""The event-loop watchdog the capacity benchmark turns on (LOOP_WATCHDOG_MS and, asked for,
LOOP_WATCHDOG_STEPS_MS): a loop that runs late is logged with how late, and a task step
that holds the loop longer than the threshold is logged with how long and which task it
was."""

from __future__ import annotations

import asyncio
import gc
import re
import subprocess
import sys
import time

import pytest

from bot.watchdog import time_each_step, watch_the_loop


async def test_a_blocked_loop_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A 200 ms block with a 50 ms threshold is logged, as at least 150 ms."""
    watching = asyncio.create_task(watch_the_loop(50))
    await asyncio.sleep(0.05)  # the watchdog is sleeping its tick
    time.sleep(0.2)  # holds the event loop, as a slow render on it would
    await asyncio.sleep(0.05)
    watching.cancel()
    blocked = [
        int(m[1]) for r in caplog.records if (m := re.search(r"ran (\d+) ms late", r.message))
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
    garbage collection under load walks only what serving games made since; and it makes
    full collections three times as frequent (each a third as long) as Python's default,
    leaving the younger generations' thresholds alone. Run in a process of its own: a
    frozen object is never collected, which pytest's must be."""
    script = (
        "import gc, sys; default = gc.get_threshold(); "
        "from bot.__main__ import settle_the_heap; settle_the_heap(); "
        "print(gc.get_freeze_count(), 'cogs.toss' in sys.modules, len(gc.get_objects()), "
        "*default, *gc.get_threshold())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    frozen, cogs_loaded, still_tracked, *thresholds = done.stdout.split()
    assert cogs_loaded == "True"
    assert int(frozen) > 50 * int(still_tracked)
    young, middle, full, *now = (int(n) for n in thresholds)
    assert (young, middle, full) == (700, 10, 10)  # Python's own
    assert now == [young, middle, 3]


def held_steps(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [
        (int(m[1]), m[2])
        for r in caplog.records
        if (m := re.search(r"a task step held the event loop (\d+) ms .*?: (\S+)", r.getMessage()))
    ]


async def test_a_step_that_holds_the_loop_is_logged_with_its_task(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A task whose step (the code between two awaits) holds the loop 500 ms is logged as
    such, named by its coroutine; its quick steps are not. The threshold is far above a
    quick step, so a busy machine cannot log one."""
    loop = asyncio.get_running_loop()
    time_each_step(loop, 300)
    try:

        async def render_on_the_loop() -> str:
            await asyncio.sleep(0)
            time.sleep(0.5)  # as a picture drawn on the loop would
            await asyncio.sleep(0)
            return "drawn"

        assert await asyncio.create_task(render_on_the_loop()) == "drawn"
    finally:
        loop.set_task_factory(None)
    ((took, name),) = held_steps(caplog)
    assert took >= 450 and "render_on_the_loop" in name
    (line,) = [r.getMessage() for r in caplog.records if "task step" in r.getMessage()]
    on_a_core = int(re.findall(r"(\d+) ms on a core", line)[0])
    assert on_a_core < 250  # a sleep holds the loop without running on a core


async def test_many_quick_steps_make_the_loop_late_but_hold_it_in_no_step(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Eighty tasks ready at once, 5 ms of work each: the loop runs some 400 ms late, and
    the watchdog says so, yet no one step held it over 250 ms. The two measures differ by
    the loop's queue. The threshold is fifty times a step, so a busy machine cannot make
    one step pass it."""
    loop = asyncio.get_running_loop()
    time_each_step(loop, 250)
    watching = asyncio.create_task(watch_the_loop(250))
    try:
        await asyncio.sleep(0.05)  # the watchdog is sleeping its tick

        async def press() -> None:
            time.sleep(0.005)

        await asyncio.gather(*(asyncio.create_task(press()) for _ in range(80)))
        await asyncio.sleep(0.05)
    finally:
        watching.cancel()
        loop.set_task_factory(None)
    late = [int(m[1]) for r in caplog.records if (m := re.search(r"ran (\d+) ms late", r.message))]
    assert late and max(late) >= 250
    assert held_steps(caplog) == []


async def test_a_long_step_names_its_garbage_collection(caplog: pytest.LogCaptureFixture) -> None:
    """A step whose time went to a full garbage collection says how long the collector took
    (a collector callback stands in for a large heap's walk)."""
    loop = asyncio.get_running_loop()
    time_each_step(loop, 50)

    def slow_walk(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            time.sleep(0.1)

    async def collects() -> None:
        gc.callbacks.append(slow_walk)  # after the watchdog's: inside the collection it times
        try:
            gc.collect()
        finally:
            gc.callbacks.remove(slow_walk)

    try:
        await asyncio.create_task(collects())
    finally:
        loop.set_task_factory(None)
    (line,) = [r.getMessage() for r in caplog.records if "task step" in r.getMessage()]
    collecting = int(re.findall(r"(\d+) ms collecting garbage", line)[0])
    assert collecting >= 90


async def test_timed_tasks_return_raise_and_cancel_as_before() -> None:
    """The timing wrapper changes nothing a task does: its result, its exception and its
    cancellation come through as they would without it."""
    loop = asyncio.get_running_loop()
    time_each_step(loop, 50)
    try:

        async def fails() -> None:
            await asyncio.sleep(0)
            raise ValueError("bad move")

        with pytest.raises(ValueError, match="bad move"):
            await asyncio.create_task(fails())
        sleeper = asyncio.create_task(asyncio.sleep(10), name="a turn timer")
        await asyncio.sleep(0)
        sleeper.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sleeper
        assert sleeper.get_name() == "a turn timer"
    finally:
        loop.set_task_factory(None)


@pytest.mark.parametrize(
    ("environment", "steps_timed", "late_watched"),
    [
        ({}, False, False),
        ({"LOOP_WATCHDOG_MS": "40"}, False, True),
        ({"LOOP_WATCHDOG_MS": "40", "LOOP_WATCHDOG_STEPS_MS": "50"}, True, True),
    ],
)
async def test_each_step_is_timed_only_when_asked_for(
    monkeypatch: pytest.MonkeyPatch,
    environment: dict[str, str],
    steps_timed: bool,
    late_watched: bool,
) -> None:
    """`python -m bot` wraps every task to time its steps only with LOOP_WATCHDOG_STEPS_MS:
    the wrapper costs the loop CPU on every step, so the benchmark's usual runs (and a
    deployed bot) go without it; LOOP_WATCHDOG_MS alone watches how late the loop runs."""
    import bot.__main__ as entry

    for name in ("LOOP_WATCHDOG_MS", "LOOP_WATCHDOG_STEPS_MS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    seen: dict[str, bool] = {}

    async def bot_runs(_settings: object) -> None:
        loop = asyncio.get_running_loop()
        seen["steps_timed"] = loop.get_task_factory() is not None
        coroutines = [task.get_coro() for task in asyncio.all_tasks()]
        unwrapped = [getattr(coro, "_coro", coro) for coro in coroutines]  # if timed
        seen["late_watched"] = any(c.__qualname__ == "watch_the_loop" for c in unwrapped)

    monkeypatch.setattr(entry, "run", bot_runs)
    loop = asyncio.get_running_loop()
    try:
        await entry.run_watched(None)  # type: ignore[arg-type]
    finally:
        loop.set_task_factory(None)
    assert seen == {"steps_timed": steps_timed, "late_watched": late_watched}

"""The event loop's watchdog: diagnostics for the capacity benchmark (bench/capacity.py),
off unless asked for. Two measures, each logged when over its threshold:

- how late the loop ran (LOOP_WATCHDOG_MS): a 10 ms sleep that wakes late. It counts
  everything ahead of the sleep in the loop's queue: one slow callback, or a burst of many
  quick ones (a gateway read that dispatches a dozen presses at once), and the time the
  loop's thread waited for a core. A step that holds the loop B ms makes the sleep at least
  B - 10 ms late, so no late run over T ms means no block over T + 10;
- how long one step of a task held the loop (LOOP_WATCHDOG_STEPS_MS, `time_each_step`):
  the code between two awaits, run without a break, which is what asyncio's debug mode
  reports as a slow callback. A step over the threshold is work that blocks every other
  game. It says which task blocked, at a price: every task's coroutine is wrapped, about
  4 % of the loop's CPU under load.

A late loop is not necessarily a blocked one: under the capacity benchmark's load a late
loop is usually many different tasks' short steps in turn, which is why the step timer is
there to tell the two apart.
"""

from __future__ import annotations

import asyncio
import collections.abc
import gc
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Coroutine, Generator
from types import FrameType, TracebackType
from typing import Any

log = logging.getLogger("bot.watchdog")


HEARTBEAT_SECONDS = 0.01  # the sleep whose lateness is measured; a block of B makes it B - this


async def watch_the_loop(threshold_ms: int, stacks: bool = False) -> None:
    """Log each time a short sleep wakes over `threshold_ms` late. With `stacks`
    (LOOP_WATCHDOG_STACKS=1) the line also says where the loop was once it passed the
    threshold, any garbage collection meanwhile that took over 10 ms, and how long the
    loop's thread waited for a core."""
    loop, tick = asyncio.get_running_loop(), HEARTBEAT_SECONDS
    sampler = StackSampler(threading.get_ident(), threshold_ms / 1000 + tick) if stacks else None
    try:
        while True:
            before = loop.time()
            if sampler:
                sampler.beat()
            await asyncio.sleep(tick)
            late_ms = (loop.time() - before - tick) * 1000
            where = sampler.take() if sampler else ""  # taken each time: no stale stack
            if late_ms > threshold_ms:
                log.warning("event loop ran %d ms late%s", late_ms, where)
    finally:
        if sampler:
            sampler.close()


class StackSampler:
    """A daemon thread that looks at the event loop's thread when its heartbeat is older
    than `after` seconds and keeps that stack for the watchdog to log, and a garbage
    collector callback that notes long collections. The thread wakes every 10 ms and only
    reads a clock; still, it is for benchmarks and off unless asked for."""

    def __init__(self, loop_thread: int, after: float) -> None:
        self.loop_thread, self.after = loop_thread, after
        self.last_beat = time.monotonic()
        self.notes: list[str] = []
        self.stack = ""
        self._gc_started = self._gc_cpu = 0.0
        # The loop thread's time spent ready to run but waiting for a core (another process
        # on the machine had it): a block with a long wait is the machine's, not the bot's.
        self._schedstat = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", 0)
        self._waited_at_beat = self._waited()
        gc.callbacks.append(self._gc)
        self._stopped = threading.Event()
        threading.Thread(target=self._watch, name="loop-stack-sampler", daemon=True).start()

    def close(self) -> None:
        self._stopped.set()
        gc.callbacks.remove(self._gc)
        os.close(self._schedstat)

    def beat(self) -> None:
        self.last_beat = time.monotonic()
        self._waited_at_beat = self._waited()

    def _waited(self) -> int:
        return int(os.pread(self._schedstat, 100, 0).split()[1])  # nanoseconds

    def take(self) -> str:
        """What was noted since the last beat; called from the loop's thread."""
        notes, stack = self.notes, self.stack
        self.notes, self.stack = [], ""
        waited_ms = (self._waited() - self._waited_at_beat) / 1e6
        if waited_ms >= 5:
            notes.append(f"the loop's thread waited {waited_ms:.0f} ms for a core")
        return "".join(f"; {note}" for note in notes) + (
            f"; {self.after * 1000:.0f} ms in, the loop was at:\n{stack}" if stack else ""
        )

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu = time.perf_counter(), time.thread_time()
        elif (took := time.perf_counter() - self._gc_started) > 0.01:
            cpu = time.thread_time() - self._gc_cpu
            self.notes.append(
                f"gc generation {info['generation']} took {took * 1000:.0f} ms"
                f" ({cpu * 1000:.0f} ms CPU, {info['collected']} collected)"
            )

    def _watch(self) -> None:
        sampled_beat = 0.0
        while not self._stopped.wait(0.01):
            beat = self.last_beat
            if beat != sampled_beat and time.monotonic() - beat > self.after:
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    self.stack = "".join(traceback.format_stack(frame)[-12:])
                sampled_beat = beat  # one stack per block


def time_each_step(loop: asyncio.AbstractEventLoop, threshold_ms: int) -> None:
    """Time every step of every task made on `loop` from now on, and log each that held the
    loop over `threshold_ms`, with how much of it the loop's thread ran on a core (the rest
    it waited for one: the machine's other work) and spent collecting garbage. A task
    factory wraps each task's coroutine; the wrapper costs about a microsecond a step."""
    over = threshold_ms / 1000
    if _collector.note not in gc.callbacks:
        gc.callbacks.append(_collector.note)

    def make_task(
        loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **options: Any
    ) -> asyncio.Task[Any]:
        return asyncio.Task(TimedSteps(coro, over), loop=loop, **options)

    loop.set_task_factory(make_task)  # type: ignore[arg-type]


class _Collections:
    """The seconds garbage collection has taken in this process, summed."""

    def __init__(self) -> None:
        self.total = self._started = 0.0

    def note(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.total += time.perf_counter() - self._started


_collector = _Collections()


class TimedSteps(collections.abc.Coroutine[Any, Any, Any]):
    """A task's coroutine, each `send` and `throw` (one step) timed."""

    __slots__ = ("_coro", "_over")

    def __init__(self, coro: Coroutine[Any, Any, Any], over: float) -> None:
        self._coro, self._over = coro, over

    def send(self, value: Any) -> Any:
        started = time.perf_counter(), time.thread_time(), _collector.total
        try:
            return self._coro.send(value)
        finally:
            self._check(*started)

    def throw(  # type: ignore[override]
        self,
        kind: type[BaseException] | BaseException,
        value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> Any:
        started = time.perf_counter(), time.thread_time(), _collector.total
        try:
            return self._coro.throw(kind, value, traceback)  # type: ignore[arg-type]
        finally:
            self._check(*started)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Generator[Any, None, Any]:
        return self._coro.__await__()

    def _check(self, started: float, cpu: float, collecting: float) -> None:
        took = time.perf_counter() - started
        if took > self._over:
            log.warning(
                "a task step held the event loop %d ms (%d ms on a core, %d ms collecting"
                " garbage): %s, now at %s",
                took * 1000,
                (time.thread_time() - cpu) * 1000,
                (_collector.total - collecting) * 1000,
                getattr(self._coro, "__qualname__", type(self._coro).__name__),
                _where(self._coro),
            )


def _where(coro: Any) -> str:
    """Where a task waits now: its innermost coroutine's line (`file:line name`)."""
    frame: FrameType | None = None
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or frame
        coro = getattr(coro, "cr_await", None)
    if frame is None:
        return "its end"
    path = "/".join(frame.f_code.co_filename.split("/")[-2:])
    return f"{path}:{frame.f_lineno} {frame.f_code.co_name}"

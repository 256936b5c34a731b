"""The worker pool: pictures, AI decisions and simulated moves on every core.

One event loop runs the whole bot, and Python threads share one core, so drawing a board or
letting the AI think in a thread still holds up every other channel. With `WORKERS` above
0 those jobs run in a pool of worker processes instead, created once per bot process and
shut down on close, and the event loop only does I/O. `WORKERS=0` runs them in a thread,
as a small host (or a test) wants.

A job is a module-level function (or a bound method of an object that pickles, such as a
presenter) and plain data: observations, names, legal actions, a seed tuple, a game's
state. It returns PNG bytes (pictures), an action string or a game's next state. No Discord
object, database session or lock ever crosses to a worker.

A game whose moves simulate physics (`Game.heavy`, Toss It) has its start and moves run on
one more worker of their own (`run_quick`): a move takes milliseconds, and queued behind
the AI's choices (up to seconds for Toss It) its player would wait for nothing.

A worker that dies (the OOM killer, say) breaks the whole pool: every job in it fails with
`BrokenProcessPool`. The pool is then replaced and each of those jobs is tried once more in
the new one; a job that fails again fails to its caller (the poster retries a board with
backoff).

Workers are forked from a fork server started from the bot before it has work to do, never
from the bot itself: forking a process that holds threads and an event loop copies locks
in whatever state they are in. The fork server imports the game modules once, so a worker
(or its replacement) starts in milliseconds.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait as wait_for_sentinels
from typing import Any, TypeVar

from bot.games import GAMES
from bot.memory import keep_freed_memory
from rules.base import JSON, Applied, rng_for

log = logging.getLogger(__name__)

START_METHOD = "forkserver"
# What a worker needs to run any job: the AI's engines (imported by this module) and, named
# by the caller, the modules whose objects jobs are pickled from (the cogs' presenters).
BASE_PRELOAD = ("bot.workers",)

Result = TypeVar("Result")


def ai_choice(kind: str, observation: JSON, legal: list[str], seed: tuple[Any, ...]) -> str:
    """The AI's pick for one seat, from that seat's own observation. `seed` holds the
    arguments of `rng_for` (the game's seed, "ai", the step, the seat), so the pick is
    exactly the one the same call makes in the bot's own process."""
    return GAMES[kind].choose(observation, legal, rng_for(*seed))


def new_state(kind: str, seats: int, options: dict[str, str], seed: int) -> Any:
    """A new game's state (a Toss It bin is pre-filled by simulating every piece)."""
    return GAMES[kind].new_game(seats, options, seed)


def apply_action(kind: str, state: Any, seat: int, action: str) -> Applied[Any]:
    """`engine.apply` for a game whose `apply` may simulate (`Game.heavy`). An
    `IllegalAction` it raises reaches the caller as it is."""
    return GAMES[kind].apply(state, seat, action)


def _start_worker() -> None:
    """Runs first in every worker."""
    keep_freed_memory()  # pictures reuse the heap instead of faulting in fresh pages
    _exit_with_the_bot()


def _exit_with_the_bot() -> None:
    """End this worker when the bot process ends, however it ends (a kill -9 leaves no one
    to shut the pool down, and a worker waiting for jobs would wait for ever)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait_for_sentinels([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-the-bot", daemon=True).start()


class Lane:
    """One pool of worker processes, replaced as a whole when a worker dies."""

    def __init__(self, size: int, preload: list[str]) -> None:
        self.size, self.preload = size, preload
        self.pool: ProcessPoolExecutor | None = None
        self.replaced = 0  # pools replaced after a worker died, for logs and tests

    def current(self) -> ProcessPoolExecutor:
        return self.pool or self.replace(None)

    def replace(self, broken: ProcessPoolExecutor | None) -> ProcessPoolExecutor:
        """A new pool in place of `broken`, unless another job has replaced it already
        (every job of a broken pool fails at once; one new pool is enough for them all)."""
        if self.pool is broken or self.pool is None:
            if broken is not None:
                log.warning("a worker process died; starting %d new ones", self.size)
                broken.shutdown(wait=False, cancel_futures=True)
                self.replaced += 1
            context = multiprocessing.get_context(START_METHOD)
            context.set_forkserver_preload(self.preload)
            self.pool = ProcessPoolExecutor(
                self.size, mp_context=context, initializer=_start_worker
            )
        return self.pool

    def start_processes(self) -> None:
        # The pool starts a process per job while none is idle: `size` jobs start them all.
        pool = self.current()
        wait([pool.submit(os.getpid) for _ in range(self.size)])

    def pids(self) -> list[int]:
        return sorted(getattr(self.pool, "_processes", None) or {})

    def shutdown(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class Workers:
    """`size` worker processes for pictures and AI decisions, and one more for quick jobs
    (`run_quick`); 0 runs every job in a thread."""

    def __init__(self, size: int, preload: Iterable[str] = ()) -> None:
        self.size = size
        modules = [*BASE_PRELOAD, *preload]
        self._lane = Lane(size, modules)
        # A Toss It drop takes milliseconds, an AI's Toss It choice up to seconds: a drop
        # queued behind AI choices and pictures would keep its player waiting, so quick jobs
        # have a worker of their own.
        self._quick_lane = Lane(1, modules)
        self._closed = False  # after close a late job (a board drawn while stopping) uses a thread

    @property
    def replaced(self) -> int:
        """Pools replaced after a worker died, for logs and tests."""
        return self._lane.replaced + self._quick_lane.replaced

    async def start(self) -> None:
        """Start every worker now, off the event loop, so the first press does not wait
        for the fork server to import the game modules."""
        if self.size and self._lane.pool is None:
            await asyncio.to_thread(self._lane.start_processes)
            await asyncio.to_thread(self._quick_lane.start_processes)

    async def run(self, job: Callable[..., Result], *args: Any) -> Result:
        """`job(*args)` in a worker (or a thread when the pool is off); tried once more in a
        new pool if a worker died while it was queued or running."""
        return await self._run(self._lane, job, *args)

    async def run_quick(self, job: Callable[..., Result], *args: Any) -> Result:
        """`run` for a job of a few milliseconds that a player is waiting for (a drop
        simulated), on the quick worker: it never queues behind the AI's long choices."""
        return await self._run(self._quick_lane, job, *args)

    async def _run(self, lane: Lane, job: Callable[..., Result], *args: Any) -> Result:
        if not self.size or self._closed:
            return await asyncio.to_thread(job, *args)
        pool = lane.current()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, job, *args)
        except BrokenProcessPool:
            pool = lane.replace(pool)
            return await loop.run_in_executor(pool, job, *args)

    def pids(self) -> list[int]:
        """The pool's worker processes running now, the quick worker aside (a test kills
        one)."""
        return self._lane.pids()

    async def close(self) -> None:
        """Cancel queued jobs, let running ones finish, and end the workers."""
        self._closed = True
        await asyncio.to_thread(self._lane.shutdown)
        await asyncio.to_thread(self._quick_lane.shutdown)

"""`python -m bot`: read the settings, set up logging and run until stopped.

`python -m bot migrate` only brings the database schema up to date (the bot also does it at
start-up), for an admin who wants to upgrade before starting the new version.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sys
import threading
import time
import traceback

import discord
import uvloop

from bot.client import run
from bot.database import Database
from bot.extensions import walk_extensions
from bot.memory import keep_freed_memory
from bot.settings import Settings, load_database_settings, load_settings


async def migrate(url: str) -> None:
    database = Database(url)
    try:
        await database.wait_until_reachable()
        await database.migrate()
    finally:
        await database.close()


async def watch_the_loop(threshold_ms: int, stacks: bool = False) -> None:
    """Diagnostics for the capacity benchmark (tests/capacity.py), on when LOOP_WATCHDOG_MS is
    set: a short sleep that wakes late means something held the event loop that long. With
    `stacks` (LOOP_WATCHDOG_STACKS=1) the block's line also says where the loop was once it
    passed the threshold, and any garbage collection in it that took over 10 ms."""
    loop, tick = asyncio.get_running_loop(), 0.01
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
                logging.getLogger("bot.watchdog").warning(
                    "event loop blocked %d ms%s", late_ms, where
                )
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


async def run_watched(settings: Settings) -> None:
    watchdog = os.environ.get("LOOP_WATCHDOG_MS")
    if not watchdog:
        return await run(settings)
    stacks = os.environ.get("LOOP_WATCHDOG_STACKS") == "1"
    watching = asyncio.create_task(watch_the_loop(int(watchdog), stacks))
    try:
        await run(settings)
    finally:
        watching.cancel()


def settle_the_heap(extra_extensions: tuple[str, ...] = ()) -> None:
    """Import everything the bot loads (the cogs, and through them the games and pictures),
    then move it out of the garbage collector's sight. A full collection walks every object
    it tracks: under the capacity benchmark one took 100-300 ms of the event loop
    (tests/capacity.py --stacks). Frozen objects are never walked again, so full
    collections see only what serving games made since. Collected first, so no garbage is
    frozen. Only for the bot's own process: tests start bots inside pytest, whose objects
    must stay collectable."""
    try:
        walk_extensions("cogs", extra_extensions)
    except (ImportError, ValueError) as error:
        print(f"Setting EXTRA_EXTENSIONS is invalid: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    gc.collect()
    gc.freeze()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Trash Table")
    parser.add_argument("command", nargs="?", choices=["run", "migrate"], default="run")
    if parser.parse_args().command == "migrate":
        logging.basicConfig(level=logging.INFO, format="%(levelname)-7s %(name)s: %(message)s")
        asyncio.run(migrate(load_database_settings().database_url))
        return
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    # discord.py's own chatter stays at INFO or quieter.
    logging.getLogger("discord").setLevel(
        max(logging.INFO, logging.getLevelName(settings.log_level))
    )
    settle_the_heap(settings.extra_extensions)
    keep_freed_memory()  # WORKERS=0 draws here; uploads and pickles are megabytes too
    try:
        # uvloop (libuv's event loop) does the same work as asyncio's own loop in about
        # half the CPU: sockets, timers and callbacks are most of what the loop's thread
        # spends on a press besides the database (docs/performance.md, "uvloop").
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(run_watched(settings))
    except discord.LoginFailure:
        raise SystemExit("Setting DISCORD_TOKEN is invalid: Discord refused it") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

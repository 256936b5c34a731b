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

The bot talks to each worker over a socket of its own, read and written by the event loop
itself, rather than through `concurrent.futures.ProcessPoolExecutor`. That executor keeps
two threads in the bot (one pickling and sending jobs, one receiving results), and every
job woke both: each took the GIL from the loop, and on a busy machine the loop waited for
a thread that held the GIL but waited for a core. The loop pickles a job and unpickles its
answer itself; both are small (observations in, PNG bytes or an action out).

A worker that dies (the OOM killer, say) closes its socket: the job it was running is tried
once more on another worker, and a new process takes its place. A job whose worker dies
again fails to its caller with `BrokenProcessPool` (the poster retries a board with
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
import pickle
import socket
import struct
import threading
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_for_sentinels
from multiprocessing.process import BaseProcess
from typing import Any, Final, TypeVar

from bot.games import GAMES
from bot.memory import keep_freed_memory
from rules.base import JSON, Applied, rng_for

log = logging.getLogger(__name__)

START_METHOD: Final = "forkserver"
# What a worker needs to run any job: the AI's engines (imported by this module) and, named
# by the caller, the modules whose objects jobs are pickled from (the cogs' presenters).
BASE_PRELOAD = ("bot.workers",)

Result = TypeVar("Result")
FRAME = struct.Struct("!Q")  # each message on a worker's socket: its length, then a pickle
TRIES = 2  # a job is tried once more when its worker dies under it


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
    to shut the pool down; a worker in the middle of a long job would run it out)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait_for_sentinels([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-the-bot", daemon=True).start()


def _serve(connection: socket.socket) -> None:
    """A worker's whole life: run each job the bot sends, send back its answer (or the
    exception it raised), until the bot closes the socket."""
    _start_worker()
    with connection:
        while True:
            try:
                job, args = pickle.loads(_receive(connection))
            except EOFError:
                return
            try:
                answer = pickle.dumps((True, job(*args)), pickle.HIGHEST_PROTOCOL)
            except BaseException as error:  # the caller gets whatever the job raised
                answer = _pickled_error(error)
            try:
                connection.sendall(FRAME.pack(len(answer)) + answer)
            except OSError:  # the bot has gone
                return


def _pickled_error(error: BaseException) -> bytes:
    """The exception a job raised, as the bot will rebuild it; an exception that does not
    survive the trip (its class takes other arguments than it keeps, say) goes as its
    text, so the caller still learns what went wrong."""
    try:
        pickled = pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
        pickle.loads(pickled)
    except Exception:
        return pickle.dumps((False, RuntimeError(repr(error))), pickle.HIGHEST_PROTOCOL)
    return pickled


def _receive(connection: socket.socket) -> bytes:
    (length,) = FRAME.unpack(_receive_exactly(connection, FRAME.size))
    return _receive_exactly(connection, length)


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    data = bytearray(size)
    view, got = memoryview(data), 0
    while got < size:
        read = connection.recv_into(view[got:])
        if not read:
            raise EOFError
        got += read
    return bytes(data)


@dataclass
class Job:
    payload: bytes  # the pickled function and arguments
    answer: asyncio.Future[Any]
    tries: int = 0


@dataclass
class Worker:
    """One worker process and the bot's end of its socket."""

    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    async def run(self, job: Job) -> bytes:
        """Send `job`, wait for its pickled answer. Raises ConnectionError if the worker
        died."""
        self.writer.write(FRAME.pack(len(job.payload)) + job.payload)
        try:
            await self.writer.drain()
            (length,) = FRAME.unpack(await self.reader.readexactly(FRAME.size))
            return await self.reader.readexactly(length)
        except asyncio.IncompleteReadError as closed:
            raise ConnectionResetError("the worker closed its socket") from closed

    def close(self) -> None:
        self.writer.close()  # the worker reads the end of its socket and exits


@dataclass
class Lane:
    """`size` worker processes taking jobs in turn from one queue. Each has a task on the
    event loop that sends it a job, waits for the answer, and takes the next."""

    size: int
    preload: list[str]
    replaced: int = 0  # workers replaced after one died, for logs and tests
    queue: asyncio.Queue[Job] = field(default_factory=asyncio.Queue)
    workers: list[Worker] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    busy: set[int] = field(default_factory=set)  # the slots whose worker runs a job now
    starting: asyncio.Future[None] | None = None
    closing: bool = False

    async def start(self) -> None:
        if self.starting is None:  # the first caller starts the workers, the others wait
            self.starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self.starting)

    async def _start(self) -> None:
        self.workers = [await self._start_process() for _ in range(self.size)]
        self.tasks = [asyncio.create_task(self._serve(slot)) for slot in range(self.size)]

    async def run(self, job: Callable[..., Result], *args: Any) -> Result:
        await self.start()
        pickled = pickle.dumps((job, args), pickle.HIGHEST_PROTOCOL)
        answer: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(Job(pickled, answer))
        done, result = await answer
        if not done:
            raise result
        return result  # type: ignore[no-any-return]

    async def _serve(self, slot: int) -> None:
        """Slot `slot`'s task: its worker's jobs, one at a time, until the lane closes."""
        while not self.closing:
            job = await self.queue.get()
            if job.answer.done():  # its caller gave up (cancelled) while it was queued
                continue
            self.busy.add(slot)
            try:
                answer = await self._run_on(slot, job)
            except Exception as error:  # never lose the task: every queued job needs it
                log.exception("the worker pool failed a job")
                answer = (False, error)
            finally:
                self.busy.discard(slot)
            if answer is not None and not job.answer.done():
                job.answer.set_result(answer)

    async def _run_on(self, slot: int, job: Job) -> tuple[bool, Any] | None:
        """The job's answer from this slot's worker, or None when the job went back in
        the queue because the worker died under it."""
        try:
            data = await self.workers[slot].run(job)
        except ConnectionError:
            job.tries += 1
            if self.closing:
                return (False, BrokenProcessPool("the pool is closing"))
            await self._replace(slot)
            if job.tries < TRIES:
                self.queue.put_nowait(job)
                return None
            return (False, BrokenProcessPool("a worker died under this job twice"))
        try:
            answer: tuple[bool, Any] = pickle.loads(data)
        except Exception as error:  # an exception whose class will not rebuild, say
            return (False, error)
        return answer

    async def _replace(self, slot: int) -> None:
        log.warning("a worker process died; starting a new one")
        dead = self.workers[slot]
        dead.close()
        await asyncio.to_thread(dead.process.join, 5)
        self.workers[slot] = await self._start_process()
        self.replaced += 1

    async def _start_process(self) -> Worker:
        """A new worker, forked by the fork server (which preloads the game modules)."""
        context = multiprocessing.get_context(START_METHOD)
        context.set_forkserver_preload(self.preload)
        ours, theirs = socket.socketpair()
        process = context.Process(target=_serve, args=(theirs,), daemon=True)
        try:
            await asyncio.to_thread(process.start)  # talks to the fork server: blocking
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        return Worker(process, reader, writer)

    def pids(self) -> list[int]:
        return sorted(w.process.pid for w in self.workers if w.process.pid and w.process.is_alive())

    async def shutdown(self) -> None:
        """Let the jobs running finish, cancel the queued ones, end the workers."""
        self.closing = True
        while not self.queue.empty():
            self.queue.get_nowait().answer.cancel()
        for slot, task in enumerate(self.tasks):
            if slot not in self.busy:
                task.cancel()  # waiting for a job that will not come
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for worker in self.workers:
            worker.close()
        await asyncio.to_thread(_join, [w.process for w in self.workers])


def _join(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()


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
        """Workers replaced after one died, for logs and tests."""
        return self._lane.replaced + self._quick_lane.replaced

    async def start(self) -> None:
        """Start every worker now, so the first press does not wait for the fork server to
        import the game modules."""
        if self.size:
            await self._lane.start()
            await self._quick_lane.start()

    async def run(self, job: Callable[..., Result], *args: Any) -> Result:
        """`job(*args)` in a worker (or a thread when the pool is off); tried once more on
        another worker if its worker died while running it."""
        return await self._run(self._lane, job, *args)

    async def run_quick(self, job: Callable[..., Result], *args: Any) -> Result:
        """`run` for a job of a few milliseconds that a player is waiting for (a drop
        simulated), on the quick worker: it never queues behind the AI's long choices."""
        return await self._run(self._quick_lane, job, *args)

    async def _run(self, lane: Lane, job: Callable[..., Result], *args: Any) -> Result:
        if not self.size or self._closed:
            return await asyncio.to_thread(job, *args)
        return await lane.run(job, *args)

    def pids(self) -> list[int]:
        """The worker processes running now, the quick worker aside (a test kills one)."""
        return self._lane.pids()

    async def close(self) -> None:
        """Cancel queued jobs, let running ones finish, and end the workers."""
        self._closed = True
        await self._lane.shutdown()
        await self._quick_lane.shutdown()

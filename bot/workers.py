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

Each worker holds two jobs at a time: the one it runs and the next. A worker given one job
at a time finished it, then idled until the loop came round to read the answer and send
another; under load that turn-around took longer than the job itself, and jobs queued for
a tenth of a second while the workers were a third busy (docs/performance-log.md,
"Workers that never wait for the loop"). A job that may take seconds (`long`: a Toss It AI choice,
a hard AI's search) has nothing sent behind it.

A worker that dies (the OOM killer, say) closes its socket: the job it was running is tried
once more on another worker, the one waiting behind it goes back in the queue, and a new
process takes its place. A job whose worker dies again fails to its caller with
`BrokenProcessPool` (the poster retries a board with backoff).

A worker's memory grows with the pictures it has cached (sprites, backgrounds, text
masks; each cache bounded by count, not by bytes): 84 MB at start, 269 MB five minutes into
a soak and still growing (docs/performance.md, "Worker memory"). With `max_jobs`
(WORKER_MAX_JOBS) a worker that has been given that many jobs is given no more; its
successor is forked at once and takes its place as soon as the old one has answered
everything it holds: no job is lost, failed or run twice, and the fork (milliseconds) is
done by the time the old worker's last job is.

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
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_for_sentinels
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Final, TypeVar

from bot.games import GAMES
from bot.memory import keep_freed_memory
from rules.base import JSON, Applied, Level, rng_for

log = logging.getLogger(__name__)

START_METHOD: Final = "forkserver"
# What a worker needs to run any job: the AI's engines (imported by this module) and, named
# by the caller, the modules whose objects jobs are pickled from (the cogs' presenters).
BASE_PRELOAD = ("bot.workers",)

Result = TypeVar("Result")
FRAME = struct.Struct("!Q")  # each message on a worker's socket: its length, then a pickle
TRIES = 2  # a job is tried once more when its worker dies under it
DEPTH = 2  # jobs a worker holds at once: the one it runs and the next, already sent


def ai_choice(
    kind: str,
    observation: JSON,
    legal: list[str],
    seed: tuple[Any, ...],
    level: Level = "normal",
) -> str:
    """The AI's pick for one seat at `level`, from that seat's own observation. `seed` holds
    the arguments of `rng_for` (the game's seed, "ai", the step, the seat), so the pick is
    exactly the one the same call makes in the bot's own process."""
    return GAMES[kind].choose(observation, legal, rng_for(*seed), level)


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
    long: bool = False  # may run for seconds (a Toss It AI choice): nothing queues behind it
    tries: int = 0


@dataclass
class Worker:
    """One worker process, the bot's end of its socket, and the jobs sent to it whose
    answers have not come back yet, in the order it runs them."""

    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    sent: deque[Job] = field(default_factory=deque)
    given: int = 0  # jobs sent to it, ever
    # Forked once it has been given its `max_jobs`: it takes no more, and this one takes
    # its place when it holds none.
    successor: asyncio.Task[Worker] | None = None

    def takes(self, job: Job) -> bool:
        """Whether `job` may go to this worker now: its socket is open (closed once it
        is found dead, by its reader or by a write that failed before the reader saw it;
        on uvloop another write would raise), and it holds fewer than `DEPTH` jobs, none
        that may run for seconds."""
        return (
            not self.writer.is_closing()
            and self.successor is None
            and len(self.sent) < DEPTH
            and not any(j.long for j in self.sent)
        )

    def owes(self) -> bool:
        """Whether a caller still waits for one of the answers it holds (a job cancelled
        while it waited behind another is run, but nobody waits for it)."""
        return any(not job.answer.done() for job in self.sent)

    def send(self, job: Job) -> None:
        self.sent.append(job)
        self.given += 1
        self.writer.write(FRAME.pack(len(job.payload)) + job.payload)

    async def answer(self) -> bytes:
        """The pickled answer to `sent[0]`, once it comes. Raises ConnectionError if the
        worker died."""
        try:
            (length,) = FRAME.unpack(await self.reader.readexactly(FRAME.size))
            return await self.reader.readexactly(length)
        except asyncio.IncompleteReadError as closed:
            raise ConnectionResetError("the worker closed its socket") from closed

    def close(self) -> None:
        self.writer.close()  # the worker reads the end of its socket and exits


@dataclass
class Lane:
    """`size` worker processes taking jobs from one queue. A dispatching task on the event
    loop sends each job to the worker holding the fewest, up to `DEPTH` each, so a worker
    finds its next job waiting when it finishes one instead of waiting for the loop to
    read the answer and send another; a task per worker reads its answers."""

    size: int
    preload: list[str]
    max_jobs: int = 0  # jobs a worker is given before it is retired; 0: never retired
    replaced: int = 0  # workers replaced after one died, for logs and tests
    retired: int = 0  # workers replaced after `max_jobs`, for logs and tests
    jobs: int = 0  # answers received, for logs and benchmarks
    queue: asyncio.Queue[Job] = field(default_factory=asyncio.Queue)
    workers: list[Worker] = field(default_factory=list)
    dispatcher: asyncio.Task[None] | None = None
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    room: asyncio.Event = field(default_factory=asyncio.Event)  # a worker may take a job
    dispatched: int = 0  # jobs sent so far, which picks the next worker among equals
    starting: asyncio.Future[None] | None = None
    closing: bool = False
    reaping: set[asyncio.Task[None]] = field(default_factory=set)  # retired, not yet ended

    async def start(self) -> None:
        if self.starting is None:  # the first caller starts the workers, the others wait
            self.starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self.starting)

    async def _start(self) -> None:
        self.workers = [await self._start_process() for _ in range(self.size)]
        self.readers = [asyncio.create_task(self._read(slot)) for slot in range(self.size)]
        self.dispatcher = asyncio.create_task(self._dispatch())

    async def run(self, job: Callable[..., Result], *args: Any, long: bool = False) -> Result:
        await self.start()
        pickled = pickle.dumps((job, args), pickle.HIGHEST_PROTOCOL)
        answer: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(Job(pickled, answer, long))
        done, result = await answer
        if not done:
            raise result
        return result  # type: ignore[no-any-return]

    async def _dispatch(self) -> None:
        """Send each queued job, in order, to an open worker holding the fewest."""
        while True:
            job = await self.queue.get()
            try:
                while not (open_ := [w for w in self.workers if w.takes(job)]):
                    self.room.clear()
                    await self.room.wait()
            except asyncio.CancelledError:
                job.answer.cancel()  # the lane is closing: as for the jobs still queued
                raise
            if job.answer.done():  # its caller gave up (cancelled) while it waited
                continue
            # The fewest held; among equals, the workers in turn (each gets its share).
            self.dispatched += 1
            turn = self.dispatched % len(open_)
            chosen = min(open_[turn:] + open_[:turn], key=lambda worker: len(worker.sent))
            chosen.send(job)
            if self.max_jobs and chosen.given >= self.max_jobs:
                # Its successor starts now, while it finishes what it holds.
                chosen.successor = asyncio.create_task(self._start_process())

    async def _read(self, slot: int) -> None:
        """Slot `slot`'s answers, each to its job's caller, for as long as the lane runs
        (and, once it closes, until the jobs begun have their answers)."""
        while not (self.closing and not self.workers[slot].owes()):
            worker = self.workers[slot]
            try:
                data = await worker.answer()
            except ConnectionError:
                try:
                    await self._replace(slot)
                except Exception:  # the fork server failed, say: the other workers go on
                    log.exception("could not replace a worker; trying again")
                    await asyncio.sleep(1)
                continue
            job = worker.sent.popleft()
            self.jobs += 1
            self.room.set()
            if not job.answer.done():
                job.answer.set_result(_unpickled(data))
            if worker.successor is not None and not worker.sent and not self.closing:
                await self._retire(slot)

    async def _retire(self, slot: int) -> None:
        """The worker in `slot` has answered every job it was given: its successor takes
        its place and it ends. If the successor could not start, it serves on."""
        old = self.workers[slot]
        assert old.successor is not None
        try:
            new = await asyncio.shield(old.successor)  # a stop meanwhile ends it itself
        except Exception:  # the fork server failed, say: the old worker is still sound
            log.exception("could not start a worker to retire one; keeping it for now")
            old.successor, old.given = None, 0
            self.room.set()
            return
        self.workers[slot] = new
        self.retired += 1
        self.room.set()
        log.info(
            "worker %s retired after %d jobs at %s MB; worker %s takes its place",
            old.process.pid,
            old.given,
            _rss_mb(old.process.pid),
            new.process.pid,
        )
        old.close()  # it reads the end of its socket and exits
        reaping = asyncio.create_task(asyncio.to_thread(_join, [old.process]))
        self.reaping.add(reaping)
        reaping.add_done_callback(self.reaping.discard)

    async def _replace(self, slot: int) -> None:
        """The worker in `slot` died: the job it was running is tried once more (twice
        dead, it fails to its caller), the ones waiting behind it go back in the queue,
        and a new process takes its place."""
        dead = self.workers[slot]
        failed = []
        for index, job in enumerate(dead.sent):
            job.tries += index == 0
            if self.closing:
                job.answer.cancel()  # nothing runs it now; the caller learns at once
            elif job.tries < TRIES:
                self.queue.put_nowait(job)
            else:
                failed.append(job)
        dead.sent.clear()
        dead.close()
        if not self.closing:
            log.warning("a worker process died; starting a new one")
            await asyncio.to_thread(dead.process.join, 5)
            self.workers[slot] = await self._successor_of(dead)
            self.replaced += 1
            self.room.set()
        for job in failed:  # once the pool is whole again
            if not job.answer.done():
                job.answer.set_result((False, BrokenProcessPool("a worker died under it twice")))

    async def _successor_of(self, dead: Worker) -> Worker:
        """The process to take a dead worker's place: the successor already forked for it
        when it was being retired, or a new one."""
        if dead.successor is not None:
            try:
                return await asyncio.shield(dead.successor)
            except Exception:
                log.exception("its successor had not started either")
        return await self._start_process()

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
        """Let the jobs running finish, cancel the queued ones (those sent to a worker but
        not begun too), end the workers."""
        self.closing = True
        if self.dispatcher is not None:
            self.dispatcher.cancel()
        while not self.queue.empty():
            self.queue.get_nowait().answer.cancel()
        for slot, worker in enumerate(self.workers):
            for job in list(worker.sent)[1:]:
                job.answer.cancel()  # not begun: the worker may run it, nobody waits
            if not worker.owes():
                self.readers[slot].cancel()  # waiting for an answer nobody wants
        await asyncio.gather(*self.readers, return_exceptions=True)
        successors = [w.successor for w in self.workers if w.successor is not None]
        spare = await asyncio.gather(*successors, return_exceptions=True)
        ending = [*self.workers, *(s for s in spare if isinstance(s, Worker))]
        for worker in ending:
            worker.close()
        await asyncio.to_thread(_join, [w.process for w in ending])
        await asyncio.gather(*self.reaping, return_exceptions=True)


def _unpickled(data: bytes) -> tuple[bool, Any]:
    """A worker's answer: (True, the job's result) or (False, the exception it raised)."""
    try:
        answer: tuple[bool, Any] = pickle.loads(data)
    except Exception as error:  # an exception whose class will not rebuild, say
        return (False, error)
    return answer


def _rss_mb(pid: int | None) -> str:
    """A process's resident memory in MB (for the log), or "?"."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return str(int(line.split()[1]) // 1024)
    except (OSError, ValueError):
        pass
    return "?"


def _join(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()


class Workers:
    """`size` worker processes for pictures and AI decisions, and one more for quick jobs
    (`run_quick`); 0 runs every job in a thread."""

    def __init__(self, size: int, preload: Iterable[str] = (), max_jobs: int = 0) -> None:
        self.size = size
        modules = [*BASE_PRELOAD, *preload]
        self._lane = Lane(size, modules, max_jobs)
        # A Toss It drop takes milliseconds, an AI's Toss It choice up to seconds: a drop
        # queued behind AI choices and pictures would keep its player waiting, so quick jobs
        # have a worker of their own.
        self._quick_lane = Lane(1, modules, max_jobs)
        self._closed = False  # after close a late job (a board drawn while stopping) uses a thread

    @property
    def replaced(self) -> int:
        """Workers replaced after one died, for logs and tests."""
        return self._lane.replaced + self._quick_lane.replaced

    @property
    def retired(self) -> int:
        """Workers replaced after `max_jobs` jobs, for logs and tests."""
        return self._lane.retired + self._quick_lane.retired

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (none while the pool is off: threads take them)."""
        return self._lane.queue.qsize() + self._quick_lane.queue.qsize()

    async def start(self) -> None:
        """Start every worker now, so the first press does not wait for the fork server to
        import the game modules."""
        if self.size:
            await self._lane.start()
            await self._quick_lane.start()

    async def run(self, job: Callable[..., Result], *args: Any, long: bool = False) -> Result:
        """`job(*args)` in a worker (or a thread when the pool is off); tried once more on
        another worker if its worker died while running it. A `long` job (one that may
        take seconds) never has another queued behind it on its worker."""
        return await self._run(self._lane, job, *args, long=long)

    async def run_quick(self, job: Callable[..., Result], *args: Any) -> Result:
        """`run` for a job of a few milliseconds that a player is waiting for (a drop
        simulated), on the quick worker: it never queues behind the AI's long choices."""
        return await self._run(self._quick_lane, job, *args)

    async def _run(
        self, lane: Lane, job: Callable[..., Result], *args: Any, long: bool = False
    ) -> Result:
        if not self.size or self._closed:
            return await asyncio.to_thread(job, *args)
        return await lane.run(job, *args, long=long)

    def pids(self) -> list[int]:
        """The worker processes running now, the quick worker aside (a test kills one)."""
        return self._lane.pids()

    async def close(self) -> None:
        """Cancel queued jobs, let running ones finish, and end the workers."""
        self._closed = True
        await self._lane.shutdown()
        await self._quick_lane.shutdown()
        if self.size:
            lanes = (self._lane, self._quick_lane)
            log.info(
                "the worker pool ran %d jobs; %d workers retired, %d replaced after dying",
                sum(lane.jobs for lane in lanes),
                self.retired,
                self.replaced,
            )

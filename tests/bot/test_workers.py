"""The worker pool (bot/workers.py): the AI's picks are the same in a worker process as in
the bot's own, and a worker that dies is replaced with the job tried once more.

These start real worker processes (WORKERS is 0 for the rest of the suite).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections import Counter
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, cast

import pytest
import uvloop
from pydantic import ValidationError
from sqlmodel import col, select

from bot.database import Database
from bot.games import GAMES
from bot.models import ActionRecord, GameRecord, Status
from bot.requests import Player, UserError
from bot.sessions import SessionService
from bot.settings import Settings
from bot.workers import Job, Worker, Workers
from rules.base import rng_for

CHANNEL, GUILD = 500, 900
ALICE = Player(1, "alice")
PRESSES = {"rumble": 25, "trashwar": 25, "brawl": 12, "toss": 6}


@pytest.fixture
async def pool():
    workers = Workers(2)
    await workers.start()
    yield workers
    await workers.close()


async def replacements(pool: Workers, count: int) -> None:
    """Wait until `count` dead workers have been replaced, then check no more were. A
    job's retry can be answered by the other worker while the new process is still
    starting (on a busy machine it was), so its answer does not mean the pool is whole."""
    for _ in range(600):  # 30 s: a bound for a stuck pool, not a speed
        if pool.replaced >= count:
            break
        await asyncio.sleep(0.05)
    assert pool.replaced == count


async def play(db: Database, workers: Workers, kind: str, seed: int) -> list[tuple]:
    """Alice and two AI seats play `kind`, Alice always taking her first legal action; the
    action log, after checking every AI action is the one the engine picks with the rng
    `rng_for(seed, "ai", step, seat)` in this process (what the bot did before the pool)."""
    service = SessionService(db, workers=workers)
    game = await service.open_lobby(GUILD, CHANNEL, kind, ALICE, {}, seed=seed)
    for _ in range(2):
        game = await service.add_ai(CHANNEL, game.id, ALICE)
    engine = GAMES[kind]
    update = await service.play_ai(await service.start(CHANNEL, game.id, ALICE))
    for _ in range(PRESSES[kind]):
        game = update.game
        if game.status != Status.PLAYING:
            break
        state = engine.from_json(game.state)
        assert 0 in engine.to_act(state), "the AI seats have had their turns"
        action = engine.legal_actions(state, 0)[0]
        update = await service.play_ai(
            await service.act(CHANNEL, game.id, ALICE.user_id, game.step, action)
        )
    async with db.reading() as session:
        game = (await session.exec(select(GameRecord))).one()
        records = (await session.exec(select(ActionRecord).order_by(col(ActionRecord.id)))).all()
    state = engine.new_game(len(game.seats), dict(game.options), game.seed)
    for record in records:
        if record.actor == "ai":
            seat = record.seat
            rng = rng_for(game.seed, "ai", record.step, seat)
            expected = engine.choose(
                engine.observe(state, seat), engine.legal_actions(state, seat), rng
            )
            assert record.action == expected, f"AI at step {record.step}"
        state = engine.apply(state, record.seat, record.action).state
    return [(r.step, r.seat, r.actor, r.action) for r in records]


@pytest.mark.parametrize("kind", sorted(PRESSES))
async def test_the_ai_picks_the_same_actions_with_and_without_the_pool(
    tmp_path: Path, pool: Workers, kind: str
) -> None:
    """Issue 16: the AI's rng is built in the worker from the same seed arguments, so a
    game plays out action for action as it does with the AI in the bot's own process."""
    logs = []
    for name, workers in (("thread", Workers(0)), ("pool", pool)):
        db = Database(f"sqlite+aiosqlite:///{tmp_path / name}.db")
        await db.migrate()
        try:
            logs.append(await play(db, workers, kind, seed=11))
        finally:
            await db.close()
    in_thread, in_pool = logs
    assert any(actor == "ai" for _step, _seat, actor, _action in in_pool)
    assert in_pool == in_thread


def die_once(marker: str) -> int:
    """A job that kills its own worker the first time it runs (as the OOM killer would),
    then answers with its process id."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def die() -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


async def test_a_killed_worker_is_replaced_and_the_next_job_runs(pool: Workers) -> None:
    """Issue 16: a worker killed from outside while idle is noticed when a job is sent to
    it; the job is run by a worker that lives, and a new process takes the dead one's
    place."""
    before = pool.pids()
    assert len(before) == 2
    os.kill(before[0], signal.SIGKILL)
    answers = {await pool.run(os.getpid) for _ in range(4)}  # each worker gets one
    assert before[0] not in answers
    await replacements(pool, 1)
    assert len(pool.pids()) == 2 and answers <= set(pool.pids())


def test_a_worker_whose_socket_closed_takes_no_more_jobs() -> None:
    """A worker that died is sent nothing more once a write has found its socket closed,
    even before its reader has noticed: on uvloop, the bot's loop, a second write to a
    closed socket raises, and it would end the task that sends every job. The job already
    sent is the reader's to put back in the queue."""

    async def scenario() -> bool:
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        worker = Worker(cast(Any, None), reader, writer)  # no process: only its socket
        theirs.close()  # the worker is gone, and its end of the socket with it
        job = Job(b"a job", asyncio.get_running_loop().create_future())
        worker.send(job)  # the write that finds the socket closed
        return worker.takes(job)

    assert not uvloop.run(scenario())


async def test_a_job_whose_worker_dies_is_tried_once_more(pool: Workers, tmp_path) -> None:
    """A job running when its worker died gets one more try on another worker."""
    first = pool.pids()
    answer = await pool.run(die_once, str(tmp_path / "died"))
    await replacements(pool, 1)
    (dead,) = set(first) - set(pool.pids())
    assert answer in pool.pids() and answer != dead


async def test_a_job_that_kills_every_worker_fails_after_one_retry(pool: Workers) -> None:
    """Only once: a job that kills its worker each time fails to its caller (the poster
    then retries the delivery later), and the pool still works for the next job."""
    with pytest.raises(BrokenProcessPool):
        await pool.run(die)
    await replacements(pool, 2)  # the worker it ran on, then the one it was tried again on
    assert await pool.run(os.getpid) in pool.pids()
    assert pool.replaced == 2 and len(pool.pids()) == 2


class Unpicklable(Exception):
    def __init__(self, code: int, why: str) -> None:  # two arguments, one kept: no rebuild
        super().__init__(why)


def refuse() -> None:
    raise Unpicklable(7, "refused")


def sleep_then_answer(seconds: float) -> str:
    time.sleep(seconds)
    return "finished"


async def test_an_error_that_cannot_cross_back_still_fails_its_job_alone(pool: Workers) -> None:
    """A job's exception reaches its caller even when it cannot be rebuilt in the bot, and
    the worker and its slot go on serving."""
    with pytest.raises(Exception, match="refused"):
        await pool.run(refuse)
    assert sorted({await pool.run(os.getpid) for _ in range(4)}) == pool.pids()
    assert pool.replaced == 0


async def test_workers_start_once_when_the_first_jobs_come_together() -> None:
    """Jobs sent before the pool was started start it once, not once each."""
    workers = Workers(2)
    try:
        answers = await asyncio.gather(*(workers.run(os.getpid) for _ in range(6)))
        assert set(answers) <= set(workers.pids()) and len(workers.pids()) == 2
    finally:
        await workers.close()


async def test_closing_lets_a_running_job_finish_and_cancels_the_queued() -> None:
    """Stopping the bot: a job a worker is running gets its answer; jobs not begun are
    cancelled, whether sent to the worker behind it, waiting for room, or still queued;
    and every worker process ends."""
    workers = Workers(1)
    await workers.start()
    running = asyncio.ensure_future(workers.run(sleep_then_answer, 0.5))
    waiting = [asyncio.ensure_future(workers.run(sleep_then_answer, 0.5)) for _ in range(3)]
    await asyncio.sleep(0.2)  # the first is in the worker, the others wait behind it
    pids = workers.pids()
    await workers.close()
    assert await asyncio.wait_for(running, 30) == "finished"
    for job in waiting:
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(job, 30)
    assert not [pid for pid in pids if running_process(pid)]


async def test_closing_does_not_wait_for_a_cancelled_job_behind_the_running_one() -> None:
    """A job sent behind the running one and cancelled by the stop is not waited for:
    the stop ends its worker (which would run it for a minute) instead."""
    workers = Workers(1)
    await workers.start()
    running = asyncio.ensure_future(workers.run(sleep_then_answer, 0.3))
    behind = asyncio.ensure_future(workers.run(sleep_then_answer, 60))
    await asyncio.sleep(0.1)  # both are in the worker's hands
    pids = workers.pids()
    await asyncio.wait_for(workers.close(), 40)
    assert running.result() == "finished" and behind.cancelled()
    assert not [pid for pid in pids if running_process(pid)]


def mark_then_answer(marker: str, seconds: float) -> int:
    """A job that notes it has begun (a file), works `seconds`, and answers its pid."""
    Path(marker).touch()
    time.sleep(seconds)
    return os.getpid()


def wait_for_file(path: str, seconds: float) -> int:
    """A job that runs until `path` exists (or `seconds` pass), then answers its pid."""
    deadline = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


async def test_a_worker_starts_its_next_job_without_waiting_for_the_loop(tmp_path) -> None:
    """Issue 16: a worker holds its next job while it runs one, so it starts that job as
    soon as it finishes, even while the event loop is busy elsewhere (here: blocked) and
    has not yet read the first answer. Otherwise a worker idles for as long as the loop
    takes to come round, and under load its jobs queue behind that."""
    workers = Workers(1)
    await workers.start()
    try:
        first = asyncio.ensure_future(workers.run(mark_then_answer, str(tmp_path / "a"), 0.2))
        second = asyncio.ensure_future(workers.run(mark_then_answer, str(tmp_path / "b"), 0))
        while not (tmp_path / "a").exists():
            await asyncio.sleep(0.01)  # the first has begun; both have been sent
        began = False
        for _ in range(300):  # the loop blocked for up to 30 s: nothing is sent or read
            if began := (tmp_path / "b").exists():
                break
            time.sleep(0.1)
        assert began, "the second job waited for the loop"
        assert await first == await second == workers.pids()[0]
    finally:
        await workers.close()


async def test_nothing_queues_behind_a_long_job(pool: Workers, tmp_path) -> None:
    """A job that may take seconds (a Toss It AI choice) keeps its worker to itself:
    quick jobs sent meanwhile all go to the other worker, not behind it."""
    release = str(tmp_path / "release")
    long = asyncio.ensure_future(pool.run(wait_for_file, release, 60.0, long=True))
    await asyncio.sleep(0.2)  # sent
    quick = await asyncio.wait_for(
        asyncio.gather(*(pool.run(os.getpid) for _ in range(6))), timeout=30
    )
    assert not long.done()
    Path(release).touch()
    held = await long
    assert len(set(quick)) == 1 and held not in quick


def note_and_answer(folder: str, token: int) -> tuple[int, int]:
    """A job that leaves a file named for its token (a second run of it would find the
    file there and fail), works briefly, and answers its token and its worker's pid."""
    Path(folder, str(token)).touch(exist_ok=False)
    time.sleep(0.005)
    return token, os.getpid()


async def test_a_worker_is_retired_after_its_jobs_and_no_job_is_lost(tmp_path: Path) -> None:
    """Issue 37: with `max_jobs` a worker is given that many jobs and then none; once it
    has answered them a new process takes its place. Every job, including those each
    worker held when it was given its last, runs once and gets its own answer."""
    workers = Workers(2, preload=[__name__], max_jobs=3)  # each new worker has the job at hand
    await workers.start()
    try:
        first = workers.pids()
        answers = await asyncio.wait_for(
            asyncio.gather(*(workers.run(note_and_answer, str(tmp_path), n) for n in range(40))),
            timeout=60,
        )
        assert [token for token, _ in answers] == list(range(40))
        assert sorted(int(p.name) for p in tmp_path.iterdir()) == list(range(40))
        by_worker = Counter(pid for _, pid in answers)
        assert max(by_worker.values()) <= 3 and len(by_worker) >= 40 // 3
        assert workers.retired >= 40 // 3 - 2 and workers.replaced == 0
        assert len(workers.pids()) == 2 and not set(first) & set(workers.pids())
        for _ in range(600):  # the retired processes end: 30 s is a bound, not a speed
            if not [pid for pid in by_worker if pid not in workers.pids() and running_process(pid)]:
                break
            await asyncio.sleep(0.05)
        assert not [pid for pid in by_worker if pid not in workers.pids() and running_process(pid)]
    finally:
        await workers.close()


async def test_jobs_one_after_another_go_to_each_successor_in_turn() -> None:
    """A lone worker (the quick one) retired after 2 jobs: the next job goes to its
    successor, forked while it ran its last; none waits for a fork or fails. A worker's
    retirement is counted once its successor has taken its place, which the job after
    its last one waits for: so the count is read after that job."""
    workers = Workers(1, max_jobs=2)
    await workers.start()
    try:
        pids = [await workers.run_quick(os.getpid) for _ in range(7)]
        assert pids[0:6:2] == pids[1:6:2] and len(set(pids)) == 4
        assert workers.retired == 3
    finally:
        await workers.close()


async def test_closing_ends_a_successor_still_waiting_to_take_over() -> None:
    """Stopping while a retiring worker runs its last job: that job finishes, and the
    successor forked for it ends with the rest."""
    workers = Workers(1, preload=[__name__], max_jobs=1)
    await workers.start()
    running = asyncio.ensure_future(workers.run(sleep_then_answer, 0.5))
    await asyncio.sleep(0.2)
    successor = workers._lane.workers[0].successor
    assert successor is not None
    pids = workers.pids()
    await workers.close()
    assert running.result() == "finished"
    assert not [pid for pid in [*pids, (await successor).process.pid] if running_process(pid)]


async def test_a_worker_that_dies_on_its_last_job_is_replaced_and_the_job_retried(
    tmp_path: Path,
) -> None:
    """A worker killed while running the last job it was given (its successor already
    forking): the successor takes its place and the job is run again there, once."""
    workers = Workers(1, preload=[__name__], max_jobs=1)
    await workers.start()
    try:
        first = workers.pids()
        answer = await asyncio.wait_for(workers.run(die_once, str(tmp_path / "died")), 60)
        assert answer not in first and workers.replaced == 1
        assert await workers.run(os.getpid) not in (*first, answer)  # that one was retired
        assert len(workers.pids()) == 1
    finally:
        await workers.close()


def test_workers_end_with_a_killed_bot(tmp_path: Path) -> None:
    """A bot killed with SIGKILL cannot shut its pool down: its workers (and the fork
    server they came from) end on their own instead of waiting for jobs for ever."""
    script = textwrap.dedent(
        """
        import asyncio
        from bot.workers import Job, Worker, Workers

        async def main():
            workers = Workers(2)
            await workers.start()
            print(*workers.pids(), flush=True)
            await asyncio.sleep(120)

        asyncio.run(main())
        """
    )
    bot = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 2
        fork_server = int(Path(f"/proc/{workers[0]}/stat").read_text().rsplit(")")[1].split()[1])
        assert fork_server != bot.pid
    finally:
        bot.kill()
        bot.wait()
    left = [*workers, fork_server]
    deadline = time.monotonic() + 30
    while any(map(running_process, left)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in left if running_process(pid)]


def running_process(pid: int) -> bool:
    """The process exists and has not ended (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")")[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, it was read
        return False
    return state not in ("Z", "X")


def test_the_workers_setting_defaults_to_one_per_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """WORKERS: one worker per core the bot may use unless set; 0 (a thread) is allowed,
    a negative count is refused."""
    monkeypatch.delenv("WORKERS", raising=False)
    assert Settings(discord_token="x", _env_file=None).workers == len(os.sched_getaffinity(0))
    assert Settings(discord_token="x", workers=0, _env_file=None).workers == 0
    with pytest.raises(ValidationError, match="workers"):
        Settings(discord_token="x", workers=-1, _env_file=None)


class Recording(Workers):
    """The pool, noting the name of every job it was given."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.jobs: list[str] = []

    async def run(self, job: Any, *args: Any, long: bool = False) -> Any:
        self.jobs.append(job.__name__)
        return await super().run(job, *args, long=long)

    async def run_quick(self, job: Any, *args: Any) -> Any:
        self.jobs.append(f"quick {job.__name__}")
        return await super().run_quick(job, *args)


@pytest.mark.parametrize("kind", ["toss", "trashwar"])
async def test_a_heavy_games_start_and_moves_run_in_the_pool(tmp_path: Path, kind: str) -> None:
    """Issue 16: Toss It simulates its bin for a start (the pre-fill) and for every drop
    (`Game.heavy`), so those run on the quick worker (never queued behind the AI's choices)
    and the event loop stays free; a refused
    action raised in the worker is refused as usual, changing nothing. A light game's
    moves stay in the bot's process (a worker's round trip would cost more than them)."""
    workers = Recording(1)
    await workers.start()
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'heavy'}.db")
    await db.migrate()
    try:
        service = SessionService(db, workers=workers)
        game = await service.open_lobby(GUILD, CHANNEL, kind, ALICE, {}, seed=5)
        game = await service.add_ai(CHANNEL, game.id, ALICE)
        update = await service.play_ai(await service.start(CHANNEL, game.id, ALICE))
        game = update.game
        with pytest.raises(UserError, match="not a move"):
            await service.act(CHANNEL, game.id, ALICE.user_id, game.step, "juggle 3")
        state = GAMES[kind].from_json(game.state)
        action = GAMES[kind].legal_actions(state, 0)[0]
        await service.play_ai(await service.act(CHANNEL, game.id, ALICE.user_id, game.step, action))
        async with db.reading() as session:
            actions = (await session.exec(select(ActionRecord))).all()
    finally:
        await db.close()
        await workers.close()
    assert actions and all(a.action != "juggle 3" for a in actions)
    if GAMES[kind].heavy:
        assert workers.jobs.count("quick new_state") == 1
        assert workers.jobs.count("quick apply_action") == len(actions) + 1  # and the refused
    else:
        assert not [job for job in workers.jobs if job.startswith("quick")]
    assert "ai_choice" in workers.jobs  # the AI's long choices stay in the main pool

"""Capacity at human pace: how many games one bot process serves before players feel it.

`python -m bench.capacity --game trashwar --max-channels 200 --seconds 60` (part of
`make bench`; `--help` lists the options). Open-loop load, as a server sees it: in each of N
channels two people and an AI seat play games of one kind back to back, and a person whose
turn it is thinks for a time drawn from an exponential distribution (4 s mean, fixed seed)
before each press (opening "My hand" aside: that is only looking). The bot runs as its own
process (`python -m bot`) against the fake Discord in this process, with a SQLite file; or,
with `--shards 2`, as two processes (SHARD_COUNT=2, SHARD_IDS 0 and 1) sharing a PostgreSQL
server started for the run, the tables dealt between a guild on each shard
(`--database postgresql` runs one process on PostgreSQL too). On PostgreSQL the server's
CPU counts in the CPU per press (and is shown apart as "db cores"). The fake Discord holds
the bot to Discord's rate limits, and the bot keeps to its default share of the global one
(BOT_TOKEN_REQUESTS_PER_SECOND unset). The players are in `bench/capacity_tables.py`.

For N = 25, 50, 100, 150, 200, ... (each step a fresh bot, a warm-up, then a fixed window)
it prints press-to-result p50/p95/p99 (from the press to the private reply or the board that
shows its result, timed where the fake Discord received it), press to the board that shows
the move (the first version of a board, new or edited, with a line naming the player), then
on a line of its own what the bot asked of Discord (`bench/capacity_discord.py`): requests
on the bot token a second and a press, on the presses' interaction tokens a press, tokens
whose bucket a request emptied, 429s by scope, boards a turn and messages a finished game,
and issue 34's targets (no 429 but `shared`, the board within 1 s at p95 and 2 s at p99, the
bot token under 10 requests a second). Then the bot's CPU milliseconds per press (the
process and its children, from /proc), what the bot's watchdog logged (bot/watchdog.py): how
late its event loop ran at most and how often over 40 ms (a step holding the loop B ms makes
it at least B - 10 late, so none over 40 means no block over 50), and stops once p95 passes
250 ms. With `--time-steps` the bot also times every step of every task and each step that
held the loop over 50 ms is listed; that costs the loop about 4 % of its CPU, so it is off
unless asked for. With `--stacks` each late loop is listed with where the loop was 50 ms
into it (the innermost project frame and the innermost frame), any garbage collection over
10 ms meanwhile, and how long the loop's thread waited for a core (a late loop that is
mostly waiting is the machine's: other processes had the cores). The ceiling the CPU cost
implies is cores * 1000 ms / (CPU ms per press * presses per second per game); "left" is the
same for the cores the load driver and the fake Discord (this process) leave the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_discord import UNLIMITED
from bench.capacity_discord import (
    TURNS_SQL,
    DiscordUse,
    messages_in,
    requests_in,
    turns_in_sqlite,
)
from bench.capacity_step import (
    DECIDED,
    HEADER,
    HELD,
    LATE,
    LATE_MS,
    TARGET_P95_MS,
    WATCHDOG_MS,
    Step,
    causes,
    keep_stacks,
    row,
)
from bench.capacity_tables import WAIT, Measured, Table, Watch
from bench.games import keys
from bench.proc import (
    cpu_seconds,
    cpu_wait_seconds,
    process_tree,
    thread_cpu_seconds,
    thread_wait_seconds,
)
from rules.base import LEVELS, Level
from tests.fakediscord import FakeDiscord
from tests.fakediscord.guilds import FakeGuild
from tests.postgres import Postgres

ROOT = Path(__file__).resolve().parents[1]
THINK_MEAN = 4.0  # seconds a person takes to decide, on average
STEPS = (25, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650, 700, 800)
LAG_SLEEP = 0.01  # seconds the driver's lag watch sleeps between samples


@dataclass(frozen=True)
class Setup:
    """How the bot runs: `shards` processes (1: one unsharded process; more: one process
    per shard, SHARD_COUNT and SHARD_IDS, each with a guild of its own) on PostgreSQL
    (`postgres`) or a SQLite file."""

    shards: int = 1
    postgres: Postgres | None = None  # the server, on PostgreSQL; None: a SQLite file
    # Discord's rate limits in the fake and the bot's default share of the global one; off
    # (`--no-rate-limits`): neither, the bot's own speed
    rate_limits: bool = True
    # The level of each table's AI seat; given (`--ai-level`), the bot logs at INFO and its
    # decisions are timed. None: normal, untimed, the bot logging warnings only.
    ai_level: Level | None = None

    def database_url(self, folder: Path) -> str:
        if self.postgres is not None:
            return self.postgres.create_database()
        return f"sqlite:///{folder}/capacity.db"

    def turns(self, url: str) -> int:
        """The turns played in the run's database (`capacity_discord.TURNS_SQL`)."""
        if self.postgres is None:
            return turns_in_sqlite(url.removeprefix("sqlite:///"))
        name = url.split("?", 1)[0].rsplit("/", 1)[1]
        return int(self.postgres.psql(TURNS_SQL, database=name).strip() or 0)

    def __str__(self) -> str:
        processes = "one process" if self.shards == 1 else f"{self.shards} shard processes"
        limits = "" if self.rate_limits else ", no rate limits"
        level = f", {self.ai_level} AI seats" if self.ai_level else ""
        return f"{processes}, {'PostgreSQL' if self.postgres else 'SQLite'}{limits}{level}"

    def server_pids(self) -> list[int]:
        """The database server's processes (PostgreSQL's postmaster and its backends): the
        database's CPU is part of what a press costs."""
        if self.postgres is None:
            return []
        postmaster = int((self.postgres.folder / "postmaster.pid").read_text().split()[0])
        return process_tree(postmaster)


@contextlib.asynccontextmanager
async def running_bots(fake: FakeDiscord, folder: Path, setup: Setup) -> Any:
    """The bot process(es) under test, logging to one file: one process, or one per shard
    sharing one database (as the compose file runs them)."""
    log = folder / "bot.log"
    url = setup.database_url(folder)
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": url,
        "DISCORD_API_BASE": fake.api_base,
        # The AI's decision times are DEBUG lines (bot/metrics.py), read by capacity_step.
        "LOG_LEVEL": "DEBUG" if setup.ai_level else "WARNING",
        "LOOP_WATCHDOG_MS": str(LATE_MS),
    }
    if not setup.rate_limits:
        env["BOT_TOKEN_REQUESTS_PER_SECOND"] = UNLIMITED
    shards = (
        [{}]
        if setup.shards == 1
        else [
            {"SHARD_COUNT": str(setup.shards), "SHARD_IDS": str(shard)}
            for shard in range(setup.shards)
        ]
    )
    bots = []
    try:
        for shard in shards:
            with log.open("a") as out:
                bots.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        "bot",
                        env={**env, **shard},
                        cwd=ROOT,
                        stdin=asyncio.subprocess.DEVNULL,
                        stderr=out,
                    )
                )
            if len(bots) == 1 and len(shards) > 1:
                # The first process migrates the database; the others find it done.
                await fake.wait_for(
                    lambda: fake.state.command_syncs > 0, timeout=60, what="the first shard"
                )
        yield bots, log, url
    finally:
        for bot in bots:
            with contextlib.suppress(ProcessLookupError):
                bot.terminate()
            await bot.wait()


def guilds_for(fake: FakeDiscord, names: tuple[str, ...], shards: int) -> list[FakeGuild]:
    """The default guild, and with several shards one more guild on each other shard; the
    tables are dealt out among them in turn."""
    guilds = [fake.guilds[0]]
    taken = {guilds[0].shard(shards)}
    for shard in range(shards):
        if shard not in taken:
            tables = names[len(guilds) :: shards]
            guilds.append(fake.add_guild(f"shard {shard}", channels=tables, shard=(shard, shards)))
    return guilds


async def boards_shown(tables: list[Table], most: float = 10.0) -> None:
    """Give the moves of the window's last presses up to `most` seconds to show on a board
    (a player whose time is up stops without waiting for it)."""
    until = time.monotonic() + most
    while time.monotonic() < until and any(table.unshown() for table in tables):
        await asyncio.sleep(1.0)


async def driver_lag(measured: Measured) -> None:
    """Samples how late the load driver's loop runs, through the measuring window."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(LAG_SLEEP)
        if measured.counts(asleep):
            measured.driver_lags.append((time.monotonic() - asleep - LAG_SLEEP) * 1000)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Discord never pauses, but this process, which plays it, would: it keeps every message
    and interaction of a step (900,000 objects at 450 tables), and a full pass of the
    garbage collector over them held its loop up to 430 ms, with no press delivered and no
    result timed meanwhile. A pass frees a few dozen objects here, so the collector is off
    for the step and runs once after it."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


async def measure(
    kind: str,
    channels: int,
    seconds: float,
    warmup: float,
    seed: int,
    think_mean: float,
    setup: Setup = Setup(),
) -> Step:
    """One step of the curve: fresh bots, N tables, `warmup` seconds, then the window."""
    names = tuple(f"table-{i}" for i in range(channels))
    # Discord's rate limits on, as a real bot meets them: the boards a press causes go on
    # its interaction's webhook, outside the bot token's 50 requests a second.
    fake = FakeDiscord(
        channels=names[:: setup.shards],
        thread=None,
        settle_timeout=120,
        rate_limits=setup.rate_limits,  # off only to compare: what did Discord's limits cost?
    )
    await fake.start()
    watch = Watch(fake)
    guilds = guilds_for(fake, names, setup.shards)
    # Members before the bot connects, as in a guild.
    users = {guild.id: [guild.user("alice"), guild.user("bob")] for guild in guilds}
    with tempfile.TemporaryDirectory() as folder, collector_paused():
        try:
            async with running_bots(fake, Path(folder), setup) as (bots, log, url):
                await fake.wait_for(
                    lambda: all(guild.connected for guild in guilds),
                    timeout=60,
                    what="every shard to connect",
                )
                await fake.settle(timeout=60)
                await asyncio.sleep(2.5)  # discord.py waits for its guilds before it is ready
                start = time.monotonic() + warmup
                measured = Measured((start, start + seconds))
                tables = [
                    Table(
                        fake,
                        watch,
                        guild.channels[name],
                        kind,
                        seed,
                        measured,
                        think_mean,
                        users[guild.id],
                        setup.ai_level or "normal",
                    )
                    for guild in guilds
                    for name in guild.channels
                ]
                tasks = [asyncio.create_task(table.run()) for table in tables]
                lag_watch = asyncio.create_task(driver_lag(measured))
                await asyncio.sleep(max(0.0, start - time.monotonic()))
                log_from, bench0 = log.stat().st_size, time.process_time()
                pids = [pid for bot in bots for pid in process_tree(bot.pid)]
                servers = setup.server_pids()
                cpu0, waited0 = cpu_seconds(pids), cpu_wait_seconds(pids)
                loop0 = sum(thread_cpu_seconds(bot.pid) for bot in bots)
                loop_waited0 = sum(thread_wait_seconds(bot.pid) for bot in bots)
                db0 = cpu_seconds(servers)
                await asyncio.sleep(max(0.0, measured.window[1] - time.monotonic()))
                pids = [pid for bot in bots for pid in process_tree(bot.pid)]
                cpu1, waited1 = cpu_seconds(pids), cpu_wait_seconds(pids)
                loop1 = sum(thread_cpu_seconds(bot.pid) for bot in bots)
                loop_waited1 = sum(thread_wait_seconds(bot.pid) for bot in bots)
                db1 = cpu_seconds(setup.server_pids())
                bench_cpu, log_to = time.process_time() - bench0, log.stat().st_size
                load = os.getloadavg()[0]
                lag_watch.cancel()
                # the presses sent just before the end get their results
                _, late = await asyncio.wait(tasks, timeout=WAIT)
                for task in late:
                    task.cancel()
                await boards_shown(tables)
                with log.open("rb") as text:
                    text.seek(log_from)
                    window_log = text.read(log_to - log_from).decode(errors="replace")
                if measured.stalls:  # keep the bots' whole log to find out why
                    kept = Path(tempfile.gettempdir()) / f"capacity-{kind}-{channels}-bot.log"
                    kept.write_bytes(log.read_bytes())
                    measured.stalls.append(f"(the bots' log: {kept})")
            # after the bots stopped: every action they saved is in
            turns = setup.turns(url)
        finally:
            await fake.stop()
    sent = [rec for rec in fake.state.interactions.values() if measured.counts(rec.sent_at)]
    use = DiscordUse(seconds, len(sent), turns=turns)
    requests_in(fake, measured.window, use)
    messages_in(fake, [table.channel for table in tables], tables[0].is_board, use)
    waits = [table.board_waits() for table in tables]
    return Step(
        channels=channels,
        seconds=seconds,
        processes=len(bots),
        presses=len(sent),
        results=measured.results,
        boards=[wait for shown, _ in waits for wait in shown],
        unshown=sum(missing for _, missing in waits),
        passed=[wait for table in tables for wait in table.turns_passed()],
        discord=use,
        bot_cpu=cpu1 - cpu0 + max(0.0, db1 - db0),
        db_cpu=max(0.0, db1 - db0),
        loop_cpu=loop1 - loop0,
        driver_lags=measured.driver_lags,
        bench_cpu=bench_cpu,
        bot_waited=waited1 - waited0,
        loop_waited=loop_waited1 - loop_waited0,
        late=[int(ms) for ms in LATE.findall(window_log)],
        held=[(int(ms), task) for ms, task in HELD.findall(window_log)],
        causes=causes(window_log) if os.environ.get("LOOP_WATCHDOG_STACKS") == "1" else [],
        stacks_log=keep_stacks(kind, channels, window_log),
        stalls=measured.stalls,
        failed=sum(rec.failed for rec in sent),
        load=load,
        steps_timed=bool(os.environ.get("LOOP_WATCHDOG_STEPS_MS")),
        decisions=[
            float(ms) for level, ms in DECIDED.findall(window_log) if level == setup.ai_level
        ]
        if setup.ai_level
        else None,
    )


async def curve(
    kind: str,
    steps: list[int],
    seconds: float,
    warmup: float,
    seed: int,
    think_mean: float,
    whole: bool = False,
    report: Callable[[str], None] = print,
    setup: Setup = Setup(),
    runs: int = 1,
    refine: int = 0,
) -> list[Step]:
    """Step N up until p95 passes the target (or through every step, `whole`), then, given
    `refine`, halve the gap between the last step that passed and the first that failed
    until it is at most `refine` games; returns every step measured, by N."""
    report(
        f"{kind}: {seconds:g} s per step after {warmup:g} s warm-up, think mean {think_mean:g} s,"
        f" {setup}"
    )
    report(HEADER)

    async def step_at(channels: int) -> Step:
        tries = []
        for _ in range(runs):
            tries.append(await measure(kind, channels, seconds, warmup, seed, think_mean, setup))
            report(row(tries[-1]))
        # A run at a curve's knee moves by hundreds of milliseconds with whatever else the
        # machine does: with several runs a step counts by its median run (of an even
        # number, the worse of the middle two).
        step = sorted(tries, key=lambda t: t.p(95) if t.results else float("inf"))[runs // 2]
        if runs > 1:
            report(f"{channels:>4} the median of {runs} runs: p95 {step.p(95):.0f} ms")
        return step

    done: list[Step] = []
    for channels in steps:
        done.append(await step_at(channels))
        if not whole and not fits_target(done[-1]):
            break
    # The capacity is read at a step that passed, so the gap to the next step is the
    # reading's error: halve it down to `refine` games.
    failed = next((s.channels for s in done if not fits_target(s)), None)
    passed = [s.channels for s in done if fits_target(s) and failed and s.channels < failed]
    low = max(passed, default=0)
    while refine and failed and passed and failed - low > refine:
        middle = low + max(1, (failed - low) // 2 // refine) * refine
        done.append(await step_at(middle))
        low, failed = (middle, failed) if fits_target(done[-1]) else (low, middle)
    done.sort(key=lambda s: s.channels)
    fits = [s for s in done if fits_target(s)]
    capacity = f"{fits[-1].channels} games" if fits else f"fewer than {steps[0]} games"
    costed = (fits or done)[-1]  # the CPU cost at the busiest load that still fit
    shares = (
        f" ({share(costed.channels, costed.ceiling)}, {share(costed.channels, costed.ceiling_left)}"
        f" and {share(costed.channels, costed.ceiling_loop)} of them)"
        if fits
        else ""
    )
    report(
        f"{kind}: capacity {capacity} at p95 <= {TARGET_P95_MS:g} ms ({setup}); "
        f"the CPU cost at N={costed.channels} ({costed.cpu_ms_per_press:.1f} ms a press, "
        f"{costed.loop_ms_per_press:.1f} of them on the event loop, "
        f"{costed.presses_per_game_second:.3f} presses/s a game) implies a ceiling of "
        f"{costed.ceiling:.0f} on {os.cpu_count()} cores, {costed.ceiling_left:.0f} on what "
        f"the load driver leaves, {costed.ceiling_loop:.0f} on the event loop{shares}"
    )
    return done


def fits_target(step: Step) -> bool:
    return bool(step.results) and step.p(95) <= TARGET_P95_MS


def share(games: int, ceiling: float) -> str:
    return f"{100 * games / ceiling:.0f} %" if ceiling else "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=keys(), required=True)
    parser.add_argument(
        "--max-channels", type=int, default=200, help="the largest of the usual N to try"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window per N")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1, help="think times and choices")
    parser.add_argument("--think", type=float, default=THINK_MEAN, help="mean think seconds")
    parser.add_argument(
        "--steps", help="comma-separated N values to try instead of 25,50,100,150,200,..."
    )
    parser.add_argument(
        "--stacks",
        action="store_true",
        help="the bot notes where its event loop was each time it ran late; printed per step",
    )
    parser.add_argument(
        "--time-steps",
        action="store_true",
        help=f"the bot times every task step and logs each over {WATCHDOG_MS} ms (it costs "
        "the loop about 4 %% of its CPU)",
    )
    parser.add_argument(
        "--whole-curve", action="store_true", help="measure every step, past the target too"
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="runs of each step; a step counts by its median run"
    )
    parser.add_argument(
        "--refine",
        type=int,
        default=25,
        help="then halve the gap between the last N that passed and the first that failed "
        "down to this many games (0: no more steps)",
    )
    parser.add_argument(
        "--shards", type=int, default=1, help="bot processes, one per shard (default 1: unsharded)"
    )
    parser.add_argument(
        "--no-rate-limits",
        dest="rate_limits",
        action="store_false",
        help="the fake without Discord's rate limits, the bot without a share of the global "
        "one: the bot's own speed",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        help="a SQLite file (one process only) or a PostgreSQL server started for the run; "
        "default: SQLite for one process, PostgreSQL for shards",
    )
    parser.add_argument(
        "--ai-level",
        choices=LEVELS,
        help="the level of each table's AI seat (default normal); given, the bot logs each "
        "AI decision and the step prints their median and p95 time",
    )
    args = parser.parse_args(argv)
    if args.steps:
        steps = [int(n) for n in args.steps.split(",")]
    else:
        steps = [n for n in STEPS if n <= args.max_channels]
    if not steps:
        parser.error("no N to try: give --steps, or a --max-channels of 25 or more")
    database = args.database or ("sqlite" if args.shards == 1 else "postgresql")
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    if args.refine < 0:
        parser.error("--refine must be 0 or more")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.shards > 1 and database == "sqlite":
        parser.error("shard processes share one PostgreSQL database: use --database postgresql")
    if args.stacks:
        os.environ["LOOP_WATCHDOG_STACKS"] = "1"  # the bot processes inherit it
    if args.time_steps:
        os.environ["LOOP_WATCHDOG_STEPS_MS"] = str(WATCHDOG_MS)
    with tempfile.TemporaryDirectory() as folder:
        postgres = Postgres(Path(folder)) if database == "postgresql" else None
        try:
            setup = Setup(
                args.shards, postgres, rate_limits=args.rate_limits, ai_level=args.ai_level
            )
            asyncio.run(
                curve(
                    args.game,
                    steps,
                    args.seconds,
                    args.warmup,
                    args.seed,
                    args.think,
                    args.whole_curve,
                    setup=setup,
                    runs=args.runs,
                    refine=args.refine,
                )
            )
        finally:
            if postgres is not None:
                postgres.cleanup()


if __name__ == "__main__":
    main()

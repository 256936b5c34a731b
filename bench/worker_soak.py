"""Worker memory over a soak: does a worker process's RSS level off? (part of `make bench`)

    python -m bench.worker_soak [--minutes 8] [--tables 8] [--max-jobs N] [--probe]

The bot runs as its own process (`python -m bot`) against the fake Discord in this process,
with a SQLite file. In each of `--tables` channels two people and an AI seat play games of
one kind back to back (every game in turn, the capacity benchmark's players from
`bench/capacity_tables.py`), each press after a short think, for `--minutes`. Discord's
rate limits are off, so the workers draw and think as fast as the players press.

Every `--sample` seconds the RSS of each worker process (VmRSS in /proc/<pid>/status: the
fork server's children, the quick worker among them) is printed. At the end: the jobs the
pool ran (the bot logs them when it stops), the workers' CPU a job, the largest worker's
peak each minute, and the verdict: the largest worker after the warm-up against the largest
during it, flat if at most 10 % more. The warm-up is `--warmup` seconds, and lasts at least
until the first worker is retired (a new pid appears), so that a worker's whole first life
is compared with the lives after it. `--max-jobs` sets WORKER_MAX_JOBS for the bot (0: no
worker is retired). `--probe` also writes, from inside each worker, what fills it
(`bench/worker_probe.py`) and prints its last sample and what each cache held.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.bench_discord import UNLIMITED
from bench.capacity_tables import WAIT, Measured, Table, Watch
from bench.games import keys
from bench.proc import children, cpu_seconds
from tests.e2e.process import BotProcess
from tests.fakediscord import FakeDiscord

FLAT = 0.10  # the target: the end within 10 % of the warm-up
JOBS = re.compile(r"worker pool ran (\d+) jobs; (\d+) workers retired")


def rss_mb(pid: int) -> float | None:
    """A process's resident memory in MB (VmRSS), or None once it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def fork_server(bot: int) -> int | None:
    """The bot's fork server, whose children are the workers."""
    for child in children(bot):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if b"forkserver" in command:
            return child
    return None


@dataclass
class Samples:
    """RSS in MB of each worker (by pid) at each sample time (seconds into the soak)."""

    bot: int
    rows: list[tuple[float, dict[int, float]]] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the workers' CPU seconds so far

    def take(self, at: float) -> None:
        server = fork_server(self.bot)
        pids = children(server) if server else []
        found = {pid: rss for pid in pids if (rss := rss_mb(pid)) is not None}
        self.rows.append((at, found))
        # The fork server reaps its workers: its children's times count the retired ones.
        self.cpu.append(cpu_seconds([server, *pids]) if server else 0.0)
        listed = "  ".join(f"{pid}:{rss:4.0f}" for pid, rss in sorted(found.items()))
        print(f"{at:5.0f} s  worker pid:MB  {listed}", flush=True)

    def warm(self, seconds: float) -> float:
        """When the warm-up ends: after `seconds`, and not before the first worker was
        retired (a new pid): a worker's memory is compared with a whole first life's."""
        first = set(self.rows[0][1])
        retired = next((at for at, found in self.rows if set(found) - first), 0.0)
        return max(seconds, retired)

    def peak(self, since: float, until: float = float("inf")) -> float:
        """The largest worker's RSS in the samples from `since` to `until`."""
        return max(
            (max(found.values(), default=0.0) for at, found in self.rows if since <= at < until),
            default=0.0,
        )


async def soak(options: argparse.Namespace) -> None:
    names = tuple(f"table-{i}" for i in range(options.tables))
    seconds = options.minutes * 60
    with tempfile.TemporaryDirectory() as folder:
        settings = {
            "WORKERS": str(options.workers),
            "LOG_LEVEL": "INFO",  # the pool's count of jobs is logged at INFO when it stops
            "BOT_TOKEN_REQUESTS_PER_SECOND": UNLIMITED,
        }
        if options.max_jobs is not None:
            settings["WORKER_MAX_JOBS"] = str(options.max_jobs)
        probe = Path(folder) / "probe"
        if options.probe:
            probe.mkdir()
            settings |= {
                "EXTRA_EXTENSIONS": ",".join(
                    filter(None, (os.environ.get("EXTRA_EXTENSIONS"), "bench.worker_probe"))
                ),
                "WORKER_PROBE_DIR": str(probe),
                "WORKER_PROBE_SECONDS": str(options.sample),
            }
        async with FakeDiscord(
            channels=names, thread=None, rate_limits=False, settle_timeout=120
        ) as fake:
            watch = Watch(fake)
            guild = fake.guilds[0]
            users = [guild.user("alice"), guild.user("bob")]  # members before the bot connects
            log = Path(folder) / "bot.log"
            bot = await BotProcess.start(
                fake, Path(folder) / "soak.db", log, as_pid_1=False, **settings
            )
            try:
                await bot.connected(fake, syncs=0)
                start = time.monotonic()
                measured = Measured((start, start + seconds))
                tables = [
                    Table(
                        fake,
                        watch,
                        guild.channels[name],
                        keys()[index % len(keys())],
                        options.seed,
                        measured,
                        options.think,
                        users,
                    )
                    for index, name in enumerate(names)
                ]
                tasks = [asyncio.create_task(table.run()) for table in tables]
                samples, load = Samples(bot.process.pid), [os.getloadavg()[0]]
                while (now := time.monotonic()) < start + seconds:
                    samples.take(now - start)
                    load.append(os.getloadavg()[0])
                    await asyncio.sleep(min(options.sample, start + seconds - now))
                samples.take(time.monotonic() - start)
                if options.probe:
                    (probe / "clear").touch()
                    await asyncio.sleep(options.sample + 5)  # each worker's probe looks
                _, late = await asyncio.wait(tasks, timeout=WAIT)
                for task in late:
                    task.cancel()
            finally:
                os.kill(bot.process.pid, signal.SIGTERM)
                try:
                    await bot.exit_code()
                finally:
                    await bot.end()
            report(options, samples, tables, measured, bot.text(), load, len(fake.interactions))
            if options.probe:
                print_probe(probe)


def report(
    options: argparse.Namespace,
    samples: Samples,
    tables: list[Table],
    measured: Measured,
    log: str,
    load: list[float],
    presses: int,
) -> None:
    counted = JOBS.search(log)
    jobs, retired = (int(counted[1]), int(counted[2])) if counted else (0, 0)
    seen = {pid for _, found in samples.rows for pid in found}
    cpu = samples.cpu[-1] - samples.cpu[0]
    print(
        f"\n{options.minutes:g} min, {options.tables} tables, think mean {options.think:g} s, "
        f"WORKERS={options.workers}, WORKER_MAX_JOBS="
        f"{'default' if options.max_jobs is None else options.max_jobs}: "
        f"{presses} presses, {sum(len(t.lobbies) for t in tables)} games begun, "
        f"{jobs} jobs run ({jobs / (options.minutes * 60):.1f} a second), {retired} workers "
        f"retired, {len(seen)} worker processes seen; the workers' CPU "
        f"{1000 * cpu / max(jobs, 1):.1f} ms a job; load average "
        f"{min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores"
    )
    if measured.stalls:
        print(f"stalled tables: {len(measured.stalls)}: {measured.stalls[0]}")
    end = samples.rows[-1][0]
    print("minute  largest worker (peak MB)  all workers at its end (MB)")
    for minute in range(max(1, round(end / 60))):  # the last sample comes a little late
        rows = [found for at, found in samples.rows if at < (minute + 1) * 60]
        print(
            f"{minute + 1:6d}  {samples.peak(minute * 60, (minute + 1) * 60):24.0f}  "
            f"{sum(rows[-1].values()):27.0f}"
        )
    warm = samples.warm(options.warmup)
    base, after = samples.peak(0, warm), samples.peak(warm)
    last = samples.rows[-1][1]
    change = (after - base) / base if base else 0.0
    print(
        f"warm-up {warm:.0f} s: largest worker {base:.0f} MB; after it, peak {after:.0f} MB "
        f"({change:+.0%}): {'flat' if change <= FLAT else 'NOT flat'} (target: within "
        f"{FLAT:.0%}); at the end "
        + ", ".join(f"{rss:.0f}" for rss in sorted(last.values(), reverse=True))
        + " MB"
    )


def print_probe(folder: Path) -> None:
    """Each worker's last sample from inside: heap in use and kept free, fullest caches."""
    for path in sorted(folder.glob("*.jsonl")):
        lines = path.read_text().splitlines()
        if not lines:
            continue
        freed = json.loads(lines[-1]).get("freed", []) if lines else []
        lines = [line for line in lines if '"freed"' not in line]
        first, last = json.loads(lines[0]), json.loads(lines[-1])
        mb = 1024 * 1024
        heap = last["heap"]
        print(
            f"\nworker {path.stem}: RSS {first['rss_kb'] / 1024:.0f} -> "
            f"{last['rss_kb'] / 1024:.0f} MB over {last['seconds']:.0f} s; heap in use "
            f"{heap.get('in_use', 0) / mb:.0f} MB, free but kept {heap.get('free', 0) / mb:.0f}"
            f" MB, mmapped {heap.get('mmapped', 0) / mb:.0f} MB; {last['objects']} objects"
        )
        print("  objects: " + ", ".join(f"{name} {count}" for name, count in last["types"]))
        print(f"  Pillow images alive: {last['image_bytes'] / mb:.0f} MB of pixels")
        for name, entries, bound in last["caches"][:12]:
            print(f"  {entries:6d}/{bound:<6d} {name}")
        for name, held in freed[:12]:
            print(f"  {held / mb:6.1f} MB held by {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=8.0, help="how long the tables play")
    parser.add_argument(
        "--warmup", type=float, default=60.0, help="seconds before the RSS compared against"
    )
    parser.add_argument("--tables", type=int, default=8, help="channels, the kinds in turn")
    parser.add_argument("--think", type=float, default=0.5, help="mean think seconds")
    parser.add_argument("--sample", type=float, default=15.0, help="seconds between samples")
    parser.add_argument("--workers", type=int, default=2, help="WORKERS for the bot")
    parser.add_argument("--max-jobs", type=int, help="WORKER_MAX_JOBS for the bot")
    parser.add_argument("--seed", type=int, default=1, help="think times and choices")
    parser.add_argument("--probe", action="store_true", help="what fills each worker, too")
    options = parser.parse_args()
    if options.workers < 1:
        parser.error("--workers must be at least 1: WORKERS=0 has no worker processes")
    if options.warmup >= options.minutes * 60:
        parser.error("--warmup must end before the soak does")
    asyncio.run(soak(options))


if __name__ == "__main__":
    main()

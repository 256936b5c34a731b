"""The bot while another process holds its SQLite file's write lock (issue 35).

`python -m bench.lock_bench` (part of `make bench`; `--help` lists the options). The bot
runs as its own process on a SQLite file against the fake Discord in this process, with
`/healthz` on. In each of N channels (25 by default) a lobby is open; there, every second or
so, one person asks `/game status` (a press that only reads) and another presses Join or
Leave in turn (a press that writes). Meanwhile `/healthz` is asked four times a second.
After `--before` seconds another process takes the file's write lock (`BEGIN EXCLUSIVE`,
as a backup or an admin's `sqlite3` shell would) for `--lock` seconds, then the run goes
on for `--after` seconds.

For each period it prints `/healthz`'s latency and answers, how long reads took to be
answered, and how writes ended: answered with their result, answered with the reason
(the database out of service), or not answered within Discord's 3 s ("This interaction
failed"). `--bot-root` runs another checkout's bot (an older commit, for a before/after).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bench import capacity
from bench.capacity import Setup, running_bots
from bench.stats import percentile
from bot.database import DATABASE_DOWN
from tests.e2e.process import free_port
from tests.e2e.sqlite_faults import write_lock_held
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.state import Channel, InteractionRecord

HEALTH_EVERY = 0.25  # seconds between two `/healthz` requests
ANSWER_WAIT = 10.0  # seconds a press's outcome is waited for
PERIODS = ("before", "locked", "after")


@dataclass
class Sample:
    period: str
    kind: str  # "health", "read" or "write"
    ms: float  # until answered (health: the whole request)
    outcome: str  # health: the status; a press: "answered", "reason", "failed"


@dataclass
class Clock:
    """The run's periods, by monotonic time."""

    start: float
    before: float
    lock: float
    after: float

    def period(self, at: float) -> str | None:
        if at < self.start:
            return None
        for name, end in zip(PERIODS, self.ends(), strict=True):
            if at < end:
                return name
        return None

    def ends(self) -> list[float]:
        locked = self.start + self.before
        return [locked, locked + self.lock, locked + self.lock + self.after]


async def health(port: int, clock: Clock, samples: list[Sample]) -> None:
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < clock.ends()[-1]:
            asked = time.monotonic()
            period = clock.period(asked)
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    await response.read()
                    status = str(response.status)
            except aiohttp.ClientError as error:
                status = type(error).__name__
            if period is not None:
                samples.append(Sample(period, "health", (time.monotonic() - asked) * 1000, status))
            await asyncio.sleep(max(0.0, asked + HEALTH_EVERY - time.monotonic()))


async def outcome(fake: FakeDiscord, rec: InteractionRecord) -> tuple[float, str]:
    """How long the press took to be answered in Discord's eyes, and how it ended."""
    await fake.wait_for(
        lambda: rec.callback_type is not None or rec.failed, timeout=ANSWER_WAIT, what="answer"
    )
    if rec.failed or rec.callback_at is None:
        return ANSWER_WAIT * 1000, "failed"
    answered = (rec.callback_at - rec.sent_at) * 1000

    def told() -> bool:
        messages = [fake.state.messages.get(rec.response_message_id or 0)]
        messages += [fake.state.messages.get(i) for i in rec.followup_ids]
        return any(m is not None and m.text == str(DATABASE_DOWN) for m in messages)

    if rec.callback_type in (4, 5, 6):  # an answer of its own, or one still to come
        try:
            await fake.wait_for(told, timeout=3.0, what="the reason")
        except TimeoutError:
            return answered, "answered"
        return answered, "reason"
    return answered, "answered"


async def channel_load(
    fake: FakeDiscord,
    channel: Channel,
    reader: FakeUser,
    writer: FakeUser,
    clock: Clock,
    samples: list[Sample],
    rng: random.Random,
) -> None:
    """A read and a write about every second, until the run is over."""
    joined = False
    pending: list[asyncio.Task[None]] = []

    async def timed(kind: str, sent: float, rec: InteractionRecord) -> None:
        ms, how = await outcome(fake, rec)
        period = clock.period(sent)
        if period is not None:
            samples.append(Sample(period, kind, ms, how))

    await asyncio.sleep(rng.uniform(0, 1))
    while time.monotonic() < clock.ends()[-1]:
        sent = time.monotonic()
        read = await reader.slash("/game status", channel=channel, settle=False)
        pending.append(asyncio.create_task(timed("read", sent, read.interaction)))
        await asyncio.sleep(rng.uniform(0.3, 0.7))
        sent = time.monotonic()
        label = "Leave" if joined else "Join"
        write = await writer.click(label, channel=channel, settle=False)
        pending.append(asyncio.create_task(timed("write", sent, write.interaction)))
        await asyncio.sleep(rng.uniform(0.3, 0.7))
        lobby = fake.messages(channel)[0]
        seat = rf"^\d+\. {re.escape(writer.name)}\b"  # "2. Bob" among the lobby's players
        joined = re.search(seat, lobby.text, re.MULTILINE | re.IGNORECASE) is not None
    await asyncio.gather(*pending)


def report(samples: list[Sample]) -> None:
    by: dict[tuple[str, str], list[Sample]] = defaultdict(list)
    for sample in samples:
        by[(sample.period, sample.kind)].append(sample)
    print(f"{'period':8} {'what':7} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  outcomes")
    for period in PERIODS:
        for kind in ("health", "read", "write"):
            group = by[(period, kind)]
            ms = [s.ms for s in group if s.outcome != "failed"]
            counts: dict[str, int] = defaultdict(int)
            for sample in group:
                counts[sample.outcome] += 1
            told = ", ".join(f"{how} {n}" for how, n in sorted(counts.items()))
            median = statistics.median(ms) if ms else 0.0
            print(
                f"{period:8} {kind:7} {len(group):>5} {median:>8.0f} "
                f"{percentile(ms, 95) if ms else 0.0:>8.0f} {max(ms, default=0):>8.0f}  {told}"
            )


async def run(channels: int, before: float, lock: float, after: float, seed: int) -> None:
    names = tuple(f"table-{i}" for i in range(channels))
    fake = FakeDiscord(channels=names, thread=None, settle_timeout=120)
    await fake.start()
    port = free_port()
    os.environ["HEALTH_PORT"] = str(port)  # the bot process inherits it
    os.environ["HEALTH_HOST"] = "127.0.0.1"
    guild = fake.guilds[0]
    alice, bob = guild.user("alice"), guild.user("bob")
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with running_bots(fake, Path(folder), Setup()) as (_bots, log, url):
                await fake.wait_for(lambda: guild.connected, timeout=60, what="the bot")
                await fake.settle(timeout=60)
                await asyncio.sleep(2.5)  # discord.py waits for its guilds before it is ready
                for name in names:
                    await alice.slash("/rumble new", channel=guild.channels[name], seed=seed)
                clock = Clock(time.monotonic() + 3.0, before, lock, after)
                samples: list[Sample] = []
                rng = random.Random(seed)
                loads = [
                    asyncio.create_task(
                        channel_load(fake, guild.channels[name], alice, bob, clock, samples, rng)
                    )
                    for name in names
                ]
                watching = asyncio.create_task(health(port, clock, samples))
                await asyncio.sleep(clock.ends()[0] - time.monotonic())
                path = url.removeprefix("sqlite:///")
                locking = asyncio.create_task(hold(path, lock))
                await asyncio.gather(*loads, watching, locking)
                print(
                    f"{channels} lobbies, SQLite; another process holds the write lock "
                    f"{lock:.0f} s after {before:.0f} s; the bot from {capacity.ROOT}"
                )
                report(samples)
                errors = [line for line in log.read_text().splitlines() if "Traceback" in line]
                print(f"tracebacks in the bot's log: {len(errors)}")
    finally:
        await fake.stop()


async def hold(path: str, seconds: float) -> None:
    async with write_lock_held(path):
        await asyncio.sleep(seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=25, help="lobbies pressed in")
    parser.add_argument("--before", type=float, default=10.0, help="seconds before the lock")
    parser.add_argument("--lock", type=float, default=10.0, help="seconds the lock is held")
    parser.add_argument("--after", type=float, default=10.0, help="seconds after the lock")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-root", type=Path, help="the checkout whose bot runs")
    args = parser.parse_args(argv)
    if args.bot_root is not None:
        capacity.ROOT = args.bot_root.resolve()
    asyncio.run(run(args.channels, args.before, args.lock, args.after, args.seed))


if __name__ == "__main__":
    main()

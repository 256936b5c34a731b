"""Storage over a soak with retention (part of `make bench`): what 1,000 finished games take,
and a database that stops growing once the retention period has passed.

The bot runs as its own process on a SQLite file, connected to the fake Discord in this
process, with Discord's rate limits off. Two users and an AI seat play games back to back in
each channel (the four games in turn over the channels) for the whole run. Time is a test
clock: every round (`--seconds` of play), the finished and stopped games are made
`--days-per-round` days older and the clean-up runs as the bot runs it every hour
(`bot.keeping.sweep`, GAME_RETENTION_DAYS 90). After each round it prints the games finished
so far, those kept and removed, the database's size (its pages in use) and that size per 1,000
finished games kept.

    python -m tests.storage_bench --channels 8 --rounds 7 --seconds 60 --days-per-round 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from bot import keeping
from bot.database import Database
from bot.models import utcnow
from tests.bench_discord import PLAYERS, UNLIMITED
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("rumble", "trashwar", "brawl", "toss")
RETENTION = timedelta(days=90)
GRACE = timedelta(days=30)
MB = 1_000_000


def database_size(path: Path) -> int:
    """The database's bytes as a reader sees it (its pages, the write-ahead log's newest
    included, the free ones not: SQLite gives those back to the disk)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as connection:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        free = connection.execute("PRAGMA freelist_count").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


async def age_and_sweep(db: Database, days: int) -> keeping.Swept:
    """Move the test clock `days` on: every game that is over ended that much earlier."""
    games = keeping.GAMES
    async with db.writing() as connection:
        await connection.execute(
            update(games)
            .where(games.c.status.in_(keeping.OVER))
            .values(finished_at=games.c.finished_at - timedelta(days=days))
        )
    return await keeping.sweep(db, utcnow(), RETENTION, GRACE)


async def count_over(db: Database) -> int:
    async with db.connected() as connection:
        query = select(func.count()).where(keeping.GAMES.c.status == "finished")
        return int((await connection.execute(query)).scalar() or 0)


async def soak(channels: int, rounds: int, seconds: float, days: int) -> None:
    names = tuple(f"table-{i}" for i in range(channels))
    fake = FakeDiscord(channels=names, thread=None, settle_timeout=120, rate_limits=False)
    await fake.start()
    users = [fake.user("alice"), fake.user("bob")]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "soak.db"
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": f"sqlite:///{path}",
            "DISCORD_API_BASE": fake.api_base,
            "LOG_LEVEL": "WARNING",
            "BOT_TOKEN_REQUESTS_PER_SECOND": UNLIMITED,
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL
        )
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await fake.wait_ready(timeout=60)
            await asyncio.sleep(2.5)
            stop_at = time.monotonic() + rounds * seconds
            playing = asyncio.gather(
                *(
                    PLAYERS[KINDS[i % len(KINDS)]](fake, fake.channels[name], users, stop_at)
                    for i, name in enumerate(names)
                )
            )
            removed = 0
            print("round  day  finished  kept  removed  size MB  MB per 1,000 kept")
            for index in range(1, rounds + 1):
                round_ends = stop_at - (rounds - index) * seconds
                await asyncio.sleep(max(0.0, round_ends - time.monotonic()))
                removed += (await age_and_sweep(db, days)).games
                kept = await count_over(db)
                finished = kept + removed  # no game is stopped here
                size = await asyncio.to_thread(database_size, path)
                per_thousand = size / MB / kept * 1000 if kept else 0.0
                print(
                    f"{index:>5} {index * days:>4} {finished:>9} {kept:>5} {removed:>8} "
                    f"{size / MB:>8.1f} {per_thousand:>18.1f}",
                    flush=True,
                )
            await playing
        finally:
            await db.close()
            process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
            await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=8, help="games at once")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=60.0, help="play between sweeps")
    parser.add_argument("--days-per-round", type=int, default=30, help="the test clock's step")
    args = parser.parse_args()
    asyncio.run(soak(args.channels, args.rounds, args.seconds, args.days_per_round))


if __name__ == "__main__":
    main()

"""Storage over a soak with retention (part of `make bench`): what 1,000 finished games take,
and a database that stops growing once the retention period has passed.

The bot runs as its own process on a SQLite file, connected to the fake Discord in this
process, with Discord's rate limits off. In each channel two users and an AI seat play one
game back to back (every game in turn over the channels), as the capacity benchmark's
tables do (bench/capacity_tables.py), with a shorter think, for the whole run. Time is a test
clock: every round (`--seconds` of play), the finished and stopped games are made
`--days-per-round` days older and the clean-up runs as the bot runs it every hour
(`bot.keeping.sweep`, GAME_RETENTION_DAYS 90). After each round it prints the games finished
so far, those kept and removed, the database's size (its pages in use) and that size per 1,000
finished games kept.

    python -m bench.storage_bench --channels 8 --rounds 7 --seconds 60 --days-per-round 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError

from bench.capacity import Setup, running_bots
from bench.capacity_tables import Measured, Table, Watch
from bench.games import engine, keys
from bot import keeping
from bot.database import Database
from bot.models import Status, utcnow
from bot.requests import Player
from bot.sessions import SessionService
from tests.fakediscord import FakeDiscord

RETENTION = timedelta(days=90)
GRACE = timedelta(days=30)
MB = 1_000_000
T = TypeVar("T")


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
        # Row by row, through the column's own type: date arithmetic in SQL differs by
        # database, and SQLite keeps these as text.
        ended = await connection.execute(
            select(games.c.id, games.c.finished_at).where(games.c.status.in_(keeping.OVER))
        )
        rows: list[Any] = list(ended.all())  # (id, finished_at)
        for game_id, finished_at in rows:
            await connection.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(finished_at=finished_at - timedelta(days=days))
            )
    return await keeping.sweep(db, utcnow(), RETENTION, GRACE)


async def when_free(work: Callable[[], Awaitable[T]]) -> T:
    """Run `work`, again while the bot process holds SQLite's write lock past this
    process's wait (the bot itself queues its clean-up behind its own writes)."""
    while True:
        try:
            return await work()
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(0.2)


async def count_over(db: Database) -> int:
    async with db.connected() as connection:
        query = select(func.count()).where(keeping.GAMES.c.status == "finished")
        return int((await connection.execute(query)).scalar() or 0)


async def soak(channels: int, rounds: int, seconds: float, days: int, think: float) -> None:
    names = tuple(f"table-{i}" for i in range(channels))
    fake = FakeDiscord(channels=names, thread=None, settle_timeout=120, rate_limits=False)
    await fake.start()
    watch = Watch(fake)
    guild = fake.guilds[0]
    users = [guild.user("alice"), guild.user("bob")]
    setup = Setup(rate_limits=False)
    with tempfile.TemporaryDirectory() as folder:
        async with running_bots(fake, Path(folder), setup) as (_bots, _log, url):
            path = Path(url.removeprefix("sqlite:///"))
            await fake.wait_for(lambda: guild.connected, timeout=60, what="the bot")
            await fake.settle(timeout=60)
            await asyncio.sleep(2.5)
            start = time.monotonic()
            measured = Measured((start, start + rounds * seconds))
            tables = [
                Table(
                    fake,
                    watch,
                    guild.channels[name],
                    keys()[i % len(keys())],
                    1,
                    measured,
                    think,
                    users,
                )
                for i, name in enumerate(names)
            ]
            playing = [asyncio.create_task(table.run()) for table in tables]
            db = Database(f"sqlite+aiosqlite:///{path}")
            removed = 0
            print("round  day  finished  kept  removed  size MB  MB per 1,000 kept", flush=True)
            try:
                for index in range(1, rounds + 1):
                    await asyncio.sleep(max(0.0, start + index * seconds - time.monotonic()))
                    removed += (await when_free(lambda: age_and_sweep(db, days))).games
                    kept = await count_over(db)
                    size = await asyncio.to_thread(database_size, path)
                    per_thousand = size / MB / kept * 1000 if kept else 0.0
                    print(
                        f"{index:>5} {index * days:>4} {kept + removed:>9} {kept:>5} "
                        f"{removed:>8} {size / MB:>8.1f} {per_thousand:>18.1f}",
                        flush=True,
                    )
            finally:
                await db.close()
                await asyncio.wait(playing, timeout=60)
            if measured.stalls:
                print(f"stalled tables: {len(measured.stalls)} ({measured.stalls[0]})")
    await fake.stop()


async def per_thousand(games_per_kind: int, seed: int) -> None:
    """Finished games played straight through the session service (two people choosing at
    random and an AI seat), every board marked shown, then the day-old clean-up (logs packed
    into their rows): the database's growth per 1,000 finished games kept."""
    rng = random.Random(seed)
    alice, bob = Player(1, "alice"), Player(2, "bob")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        db = Database(f"sqlite+aiosqlite:///{path}")
        await db.migrate()
        empty = database_size(path)
        service, played, actions = SessionService(db), 0, 0
        for kind in keys():
            game_engine = engine(kind)
            for _ in range(games_per_kind):
                channel = 1000 + played
                game = await service.open_lobby(
                    1, channel, kind, alice, {}, seed=rng.randrange(2**30)
                )
                await service.join(channel, game.id or 0, bob)
                await service.add_ai(channel, game.id or 0, alice)
                update_ = await service.play_ai(await service.start(channel, game.id or 0, alice))
                game = update_.game
                while game.status == Status.PLAYING:
                    seat = service.humans_to_act(game)[0]
                    legal = game_engine.legal_actions(service.state_of(game), seat)
                    user = game.seats[seat].user_id or 0
                    pressed = await service.act(
                        channel, game.id or 0, user, game.step, rng.choice(legal)
                    )
                    game = (await service.play_ai(pressed)).game
                played, actions = played + 1, actions + game.step
        async with db.writing() as connection:  # as the poster would have shown them
            await connection.execute(
                update(keeping.OUTBOX).values(delivered_at=utcnow(), payload={})
            )
        await keeping.sweep(db, utcnow() + 2 * keeping.ARCHIVE_AFTER, RETENTION, GRACE)
        after = database_size(path)
        await db.close()
    per_game = (after - empty) / played
    print(
        f"{played} finished games ({games_per_kind} of each kind, {actions / played:.0f} "
        f"actions a game): {per_game / 1000:.1f} kB a game once packed, "
        f"{per_game * 1000 / MB:.1f} MB per 1,000 kept",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=8, help="games at once")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=60.0, help="play between sweeps")
    parser.add_argument("--days-per-round", type=int, default=30, help="the test clock's step")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds before a press")
    parser.add_argument("--games", type=int, default=25, help="of each kind, for the per-1,000")
    args = parser.parse_args()
    asyncio.run(per_thousand(args.games, 1))
    asyncio.run(soak(args.channels, args.rounds, args.seconds, args.days_per_round, args.think))


if __name__ == "__main__":
    main()

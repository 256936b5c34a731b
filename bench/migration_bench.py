"""Revision 0004's outbox index on a big outbox while a shard process goes on writing
(issue 37, item 4).

`python -m bench.migration_bench` (in `make bench`; `--help` lists the options). An embedded
PostgreSQL server (tests/postgres.py, with the suite's settings: no fsync) gets a database
at revision 0003 whose outbox holds `--rows` entries (2 M by default, all but the last of each
channel delivered, a payload of `--payload` bytes each). A writer on a connection of its own
inserts an outbox row every `--every` ms throughout, as a running bot would. Then, `--runs`
times each, the index is built:

- plain: `CREATE INDEX` inside a transaction, as revision 0004 did before issue 37 (the index
  is dropped again afterwards);
- concurrent: the bot's own migration to head (`Database.migrate`), which builds it
  CONCURRENTLY; migrated back to 0003 afterwards.

For each it prints how long the build took and the writer's inserts meanwhile: how many,
their median and their longest wait in ms. "idle" is the writer over a quiet second before.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
from sqlalchemy import text

from bot.database import Database
from bot.settings import async_database_url
from tests.postgres import Postgres

CHANNELS = 1000  # games and channels the rows are spread over
PLAIN = "CREATE INDEX ix_outbox_undelivered ON outbox (channel_id, id) WHERE delivered_at IS NULL"
INSERT = (
    "INSERT INTO outbox (game_id, channel_id, kind, step, payload, ready, created_at)"
    " VALUES (1, 1000, 'board', 0, '{\"shown\": []}', true, now())"
)


@dataclass
class Writer:
    """Inserts a row every `every` seconds on its own thread, loop and connection (so the
    migration in the main thread cannot delay it); keeps (start, seconds) of each."""

    dsn: str
    every: float
    samples: list[tuple[float, float]] = field(default_factory=list)
    # Inserts PostgreSQL aborted to break a deadlock with a migration (the downgrade back to
    # 0003 can lock the tables the other way round): a bot would try its write again.
    deadlocks: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=lambda: asyncio.run(self._write()), daemon=True)

    async def _write(self) -> None:
        connection = await asyncpg.connect(self.dsn)
        try:
            while not self.stopping.is_set():
                start = time.monotonic()
                try:
                    await connection.execute(INSERT)
                except asyncpg.DeadlockDetectedError:
                    self.deadlocks += 1
                    continue
                self.samples.append((start, time.monotonic() - start))
                await asyncio.sleep(self.every)
        finally:
            await connection.close()

    def waits(self, start: float, end: float) -> list[float]:
        """Milliseconds of each insert under way at some moment between start and end."""
        return [
            1000 * took for began, took in self.samples if began <= end and began + took >= start
        ]


def line(what: str, seconds: float, waits: list[float]) -> str:
    if not waits:  # a build over before the writer's next insert (a small --rows)
        return f"| {what} | {seconds:.2f} | 0 | - | - |"
    return (
        f"| {what} | {seconds:.2f} | {len(waits)} | {statistics.median(waits):.1f} "
        f"| {max(waits):,.0f} |"
    )


async def fill(dsn: str, rows: int, payload: int) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(
            "INSERT INTO games (guild_id, channel_id, kind, status, host_id, seed, step,"
            " turn_timer, created_at, updated_at) SELECT 1, 1000 + n, 'rumble', 'finished', 1,"
            f" n, 0, 0, now(), now() FROM generate_series(0, {CHANNELS - 1}) AS n"
        )
        await connection.execute(
            "INSERT INTO outbox (game_id, channel_id, kind, step, payload, ready, message_id,"
            " created_at, delivered_at) SELECT 1 + n % $1, 1000 + n % $1, 'board', n / $1,"
            " json_build_object('shown', repeat('x', $3), 'step', n), true, n, now(),"
            " CASE WHEN n < $2 - $1 THEN now() END FROM generate_series(0, $2 - 1) AS n",
            CHANNELS,
            rows,
            payload,
        )
        await connection.execute("VACUUM ANALYZE outbox")
    finally:
        await connection.close()


async def measure(url: str, rows: int, payload: int, every: float, runs: int) -> None:
    dsn = url  # asyncpg takes the server's link as it is
    db = Database(async_database_url(url))
    await db.migrate("0003")
    began = time.monotonic()
    await fill(dsn, rows, payload)
    async with db.engine.connect() as connection:
        size = await connection.scalar(
            text("SELECT pg_size_pretty(pg_total_relation_size('outbox'))")
        )
    print(f"outbox: {rows:,} rows, {size}, filled in {time.monotonic() - began:.0f} s")
    writer = Writer(dsn, every)
    writer.thread.start()
    await asyncio.sleep(1.0)
    print("| build | seconds | inserts meanwhile | median ms | longest ms |")
    print("|---|---|---|---|---|")
    start = time.monotonic()
    await asyncio.sleep(1.0)
    print(line("idle", 1.0, writer.waits(start, time.monotonic())), flush=True)
    plain = await asyncpg.connect(dsn)
    try:
        for _ in range(runs):
            await plain.execute("CHECKPOINT")
            start = time.monotonic()
            async with plain.transaction():
                await plain.execute(PLAIN)
                await plain.execute("UPDATE alembic_version SET version_num = '0004'")
            end = time.monotonic()
            await asyncio.sleep(0.2)  # the insert it held up finishes and is counted
            print(line("plain", end - start, writer.waits(start, end)), flush=True)
            async with plain.transaction():
                await plain.execute("DROP INDEX ix_outbox_undelivered")
                await plain.execute("UPDATE alembic_version SET version_num = '0003'")
            await asyncio.sleep(0.5)

            await plain.execute("CHECKPOINT")
            start = time.monotonic()
            await db.migrate()
            end = time.monotonic()
            await asyncio.sleep(0.2)
            print(line("concurrent", end - start, writer.waits(start, end)), flush=True)
            await db.migrate("0003")
            await asyncio.sleep(0.5)
    finally:
        writer.stopping.set()
        writer.thread.join()
        if writer.deadlocks:
            print(f"inserts aborted by a deadlock and tried again: {writer.deadlocks}")
        await plain.close()
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.migration_bench", description=__doc__)
    parser.add_argument("--rows", type=int, default=2_000_000, help="outbox rows (2 M)")
    parser.add_argument("--payload", type=int, default=300, help="bytes of payload a row")
    parser.add_argument("--every", type=float, default=5, help="ms between two inserts")
    parser.add_argument("--runs", type=int, default=2, help="builds of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        postgres = Postgres(Path(folder) / "data")
        try:
            url = postgres.create_database()
            asyncio.run(measure(url, args.rows, args.payload, args.every / 1000, args.runs))
        finally:
            postgres.cleanup()


if __name__ == "__main__":
    main()

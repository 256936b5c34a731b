"""The database connection against a real PostgreSQL (issue 12, item 5): waiting for it at
start-up, surviving its restart, `sslmode=` links, and two lobbies opened at once."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.database import Database, out_of_service
from bot.models import GameRecord
from bot.requests import Player, UserError
from bot.sessions import SessionService
from bot.settings import async_database_url
from tests.e2e.sqlite_faults import write_lock_held
from tests.postgres import Postgres

GUILD, CHANNEL = 900, 500
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


async def answers(db: Database) -> bool:
    async with db.engine.connect() as connection:
        return (await connection.execute(text("SELECT 1"))).scalar() == 1


async def test_start_up_waits_for_the_database_with_backoff(
    own_postgres: Postgres, caplog: pytest.LogCaptureFixture
) -> None:
    """Unreachable at start: one log line per try naming the host (never the password, no
    traceback), waits doubling up to a cap, and on as soon as the database answers."""
    url = own_postgres.create_database().replace("postgres:@", "postgres:hunter2@")
    socket_dir = make_url(url).query["host"]
    own_postgres.stop()
    db = Database(async_database_url(url))
    caplog.set_level(logging.WARNING, logger="bot.database")
    waiting = asyncio.create_task(db.wait_until_reachable(first_wait=0.05, longest_wait=0.2))
    async with asyncio.timeout(60):
        while len(caplog.records) < 4:
            await asyncio.sleep(0.05)
    assert not waiting.done()
    await asyncio.to_thread(own_postgres.start)
    await asyncio.wait_for(waiting, timeout=60)
    assert await answers(db)
    await db.close()

    lines = [record.getMessage() for record in caplog.records]
    assert all(socket_dir in line and "hunter2" not in line for line in lines), lines
    assert all(record.exc_info is None for record in caplog.records)
    waits = [re.search(r"again in ([\d.]+) s", line).group(1) for line in lines]  # type: ignore[union-attr]
    assert waits[:4] == ["0.05", "0.1", "0.2", "0.2"]


async def test_a_database_restart_costs_no_player_an_error(own_postgres: Postgres) -> None:
    """Pooled connections are checked before use: after PostgreSQL restarts under a running
    service, the next request simply works."""
    db = Database(async_database_url(own_postgres.create_database()))
    await db.migrate()
    service = SessionService(db)
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {})
    await asyncio.to_thread(own_postgres.restart)
    game = await service.join(CHANNEL, game.id, BOB)
    assert [seat.user_id for seat in game.seats] == [ALICE.user_id, BOB.user_id]
    await db.close()


async def test_a_read_on_postgresql_holds_no_transaction(postgresql_url: str) -> None:
    """Issue 16: a read (`Database.connected`, what a press reads its game through) runs
    each statement on its own, without a BEGIN and a ROLLBACK around it: two more round
    trips to the server a read. Seen from the server: `now()` is the start of the
    transaction, so two statements of one transaction would see the same instant."""
    db = Database(async_database_url(postgresql_url))
    async with db.connected() as connection:
        first = (await connection.execute(text("SELECT now()"))).scalar()
        await asyncio.sleep(0.01)
        second = (await connection.execute(text("SELECT now()"))).scalar()
    async with db.writing() as connection:  # a save is one transaction still
        saved = [(await connection.execute(text("SELECT now()"))).scalar() for _ in range(2)]
    await db.close()
    assert first != second
    assert saved[0] == saved[1]


@pytest.mark.parametrize("mode", ["disable", "prefer"])
async def test_sslmode_links_connect(postgresql_url: str, mode: str) -> None:
    """A link with libpq's `sslmode=` (as hosted services hand out) connects."""
    db = Database(async_database_url(f"{postgresql_url}&sslmode={mode}"))
    assert await answers(db)
    await db.close()


async def test_two_lobbies_opened_at_once_the_second_hears_a_game_is_open(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes (two services, each with its own channel lock and connections) open a
    lobby in one channel at the same moment: one gets it, the other a plain refusal rather
    than the database's IntegrityError."""
    url = async_database_url(database_url)
    first = Database(url)
    await first.migrate()
    second = Database(url)
    services = [SessionService(first), SessionService(second)]
    # Make the race certain: both have looked and found the channel free before either
    # writes, as two processes can. On SQLite they cannot: a transaction that writes takes
    # the file's write lock before it looks (BEGIN IMMEDIATE), and the other waits for it.
    both_looked = asyncio.Barrier(2)
    for service in services if not url.startswith("sqlite") else []:
        look = service.store.active_in

        async def looked(session: AsyncSession, channel_id: int, look=look) -> GameRecord | None:
            found = await look(session, channel_id)
            await both_looked.wait()
            return found

        monkeypatch.setattr(service.store, "active_in", looked)
    results = await asyncio.gather(
        *(service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}) for service in services),
        return_exceptions=True,
    )
    await first.close()
    await second.close()
    opened = [result for result in results if isinstance(result, GameRecord)]
    refused = [result for result in results if not isinstance(result, GameRecord)]
    assert len(opened) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], UserError), refused
    # PostgreSQL: the insert loses the race; SQLite: the second saw the first's lobby.
    assert "already" in str(refused[0]) and "game" in str(refused[0]), refused


async def test_a_sqlite_lock_from_outside_holds_up_no_one_else(tmp_path: Path) -> None:
    """Issue 35: a write that meets SQLite's lock held by another process waits without
    holding the event loop (other work and reads go on, the health check says the file
    is locked at once), fails as out of service once the lock outlasts WRITE_LOCK_WAIT,
    and goes through once the lock is let go."""
    path = str(tmp_path / "games.db")
    db = Database(async_database_url(f"sqlite:///{path}"))
    await db.migrate()

    async def write() -> None:
        async with db.writing() as statements:
            await statements.execute(text("UPDATE games SET step = step WHERE id = 1"))

    async def read() -> int:
        async with db.connected() as statements:
            return len((await statements.execute(text("SELECT id FROM games"))).all())

    try:
        async with write_lock_held(path):
            waiting = asyncio.ensure_future(write())
            served = 0
            while not waiting.done():
                await asyncio.sleep(0.01)  # the loop goes round while the write waits
                if served == 3:
                    assert await read() == 0
                    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
                        await db.check_writable()
                served += 1
            assert served > 3, "the write held the loop while it waited for the lock"
            with pytest.raises(OperationalError, match="database is locked") as failed:
                await waiting
            assert out_of_service(failed.value)
        await write()
        await db.check_writable()
    finally:
        await db.close()

"""SQLite in place (bot/sqlite_driver.py, bot/database.py): a read or a save on SQLite runs
on the event loop's thread from start to end, without giving the loop up to other tasks.
Each time it gave the loop up, it waited behind every other ready task: under the capacity
benchmark's load a save of 1-2 ms took 14-22 ms at p95 (issue 16)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.database import Database


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    async with database.writing() as connection:
        await connection.execute(text("CREATE TABLE counter (n INTEGER)"))
        await connection.execute(text("INSERT INTO counter VALUES (0)"))
    yield database
    await database.close()


async def others_ran_during(work: Callable[[], Awaitable[None]]) -> int:
    """How many of five tasks' turns, queued just before `work`, ran before it ended."""
    loop, ran = asyncio.get_running_loop(), [0]
    for _ in range(5):
        loop.call_soon(lambda: ran.__setitem__(0, ran[0] + 1))
    await work()
    return ran[0]


async def test_a_sqlite_read_and_a_save_never_give_up_the_event_loop(
    sqlite_db: Database,
) -> None:
    async def read() -> None:
        async with sqlite_db.connected() as connection:
            await connection.execute(text("SELECT n FROM counter"))

    async def save() -> None:
        async with sqlite_db.writing() as connection:
            await connection.execute(text("UPDATE counter SET n = n + 1"))

    for _ in range(3):  # the first use opens the pool's connection; the later reuse it
        assert await others_ran_during(read) == 0
        assert await others_ran_during(save) == 0
    async with sqlite_db.connected() as connection:
        assert (await connection.execute(text("SELECT n FROM counter"))).scalar() == 3


async def test_a_failed_sqlite_save_is_rolled_back_and_its_connection_reused(
    sqlite_db: Database,
) -> None:
    """Closing the connection directly still ends the transaction as before: a save that
    raises leaves nothing behind, and the pool hands the connection out again."""
    with pytest.raises(RuntimeError):
        async with sqlite_db.writing() as connection:
            await connection.execute(text("UPDATE counter SET n = 99"))
            raise RuntimeError("the request failed after its first statement")
    async with sqlite_db.writing() as connection:
        assert (await connection.execute(text("SELECT n FROM counter"))).scalar() == 0
    assert sqlite_db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]

"""The database connection: SQLite (WAL mode) by default, PostgreSQL through DATABASE_URL."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import models  # noqa: F401  (registers the tables on SQLModel.metadata)


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self._make_sqlite_folder(url)
        self.engine: AsyncEngine = create_async_engine(url)
        # SQLite takes one writer at a time and fails, rather than waits, when two
        # transactions of this process race to write; so writes queue here instead.
        # PostgreSQL locks rows itself (SELECT ... FOR UPDATE) and needs no queue.
        self._one_writer: asyncio.Lock | None = None
        if url.startswith("sqlite"):
            self._one_writer = asyncio.Lock()
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    @staticmethod
    def _make_sqlite_folder(url: str) -> None:
        path = url.split(":///", 1)[1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)

    async def create_tables(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(SQLModel.metadata.create_all)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session whose changes are committed together at the end, or not at all."""
        async with contextlib.AsyncExitStack() as stack:
            if self._one_writer is not None:
                await stack.enter_async_context(self._one_writer)
            session = await stack.enter_async_context(
                AsyncSession(self.engine, expire_on_commit=False)
            )
            await stack.enter_async_context(session.begin())
            yield session

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncSession]:
        async with AsyncSession(self.engine, expire_on_commit=False) as session:
            yield session

    async def close(self) -> None:
        await self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (scoreboards) go on while a game is being saved; foreign keys are
    # off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")  # another process (a backup, say) may write
    cursor.close()

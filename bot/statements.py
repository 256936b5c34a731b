"""A connection for plain statements, the same to its users on SQLite and PostgreSQL.

What a press runs (`bot/rows.py`, the outbox) goes through `Database.writing` and
`Database.connected`, which give a `Statements`:

- On PostgreSQL, SQLAlchemy's `AsyncConnection`: each statement is a round trip to the
  server, awaited.
- On SQLite, a synchronous connection (the standard library's `sqlite3`) used in place, on
  the event loop's own thread. A statement on a local file takes microseconds, and each
  already ran in place (`bot/sqlite_driver.py`), but through SQLAlchemy's asyncio layer:
  a greenlet switch for every call into the driver and a task to close every connection.
  That layer cost about a millisecond of the event loop a press, an eighth to a fifth of
  the loop's work (docs/performance-log.md, "SQLite without the asyncio layer"); called
  directly, the same statements cost a third as much.

Either way the caller awaits `execute`, and `run_sync` runs ORM work (a `Session` bound to
the connection) inside the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import Connection, CursorResult, Dialect, Executable
from sqlalchemy.ext.asyncio import AsyncConnection

T = TypeVar("T")
Parameters = Mapping[str, Any] | None


class Statements:
    """Run statements in the caller's connection (and transaction, for `writing`)."""

    dialect: Dialect

    async def execute(
        self, statement: Executable, parameters: Parameters = None
    ) -> CursorResult[Any]:
        raise NotImplementedError

    async def run_sync(self, work: Callable[[Connection], T]) -> T:
        """`work` with the synchronous connection underneath: for ORM work."""
        raise NotImplementedError


class InPlace(Statements):
    """A synchronous SQLite connection, run on the loop's thread (see the module's notes)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.dialect = connection.dialect

    async def execute(
        self, statement: Executable, parameters: Parameters = None
    ) -> CursorResult[Any]:
        return self.connection.execute(statement, parameters)

    async def run_sync(self, work: Callable[[Connection], T]) -> T:
        return work(self.connection)


class Awaited(Statements):
    """SQLAlchemy's asyncio connection (PostgreSQL through asyncpg)."""

    def __init__(self, connection: AsyncConnection) -> None:
        self.connection = connection
        self.dialect = connection.dialect

    async def execute(
        self, statement: Executable, parameters: Parameters = None
    ) -> CursorResult[Any]:
        return await self.connection.execute(statement, parameters)

    async def run_sync(self, work: Callable[[Connection], T]) -> T:
        return await self.connection.run_sync(work)

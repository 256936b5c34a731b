"""The database connection: SQLite (WAL mode) by default, PostgreSQL through DATABASE_URL.

Alembic owns the schema: `Database.migrate` brings any database to the newest revision in
`bot/migrations/versions`, one process at a time, and adopts a database that the older
`create_all` start-up made (`bot/schema.py`).

Four ways in: `writing` (a transaction) and `connected` (reads) for the plain statements of
`bot/rows.py` and the outbox, which is what a press runs (`bot/statements.py`; on SQLite they
run on a synchronous connection in place); `transaction` and `reading` for ORM sessions
(the scoreboard, the history).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import (
    models,  # noqa: F401  (registers the tables on SQLModel.metadata)
    sqlite_driver,
)
from bot.database_links import PostgresLink, postgres_link
from bot.schema import migrate_on, migration_connection, migration_engine
from bot.statements import Awaited, InPlace, Statements
from rules.phrases import phrase

log = logging.getLogger(__name__)
# PostgreSQL error classes worth waiting out: 08 connection trouble, 57P server starting
# up or shutting down.
UNREACHABLE_SQLSTATES = ("08", "57P")
# A pooled PostgreSQL connection idle this long is pinged before use (see `_check_alive`).
IDLE_BEFORE_PING = 10.0
# On PostgreSQL, how long connecting, a statement, or waiting for a pooled connection may
# take before it fails as out of service: a server that hangs rather than refuses must not
# leave a press unanswered. Statements of a press take milliseconds.
POSTGRES_TIMEOUT = 10.0

# Whether the press (or command) being handled has had a transaction committed: a press
# sets a fresh [False] before its work, and each commit in its task or the tasks it starts
# (they share the list) makes it [True], so a fault after the commit is not answered as if
# nothing had changed.
COMMITTED: ContextVar[list[bool] | None] = ContextVar("committed", default=None)


def _note_commit() -> None:
    seen = COMMITTED.get()
    if seen is not None:
        seen[0] = True


def _postgres_engine(link: PostgresLink) -> dict[str, Any]:
    # The link's own arguments (its connect_timeout, say) win over the defaults.
    defaults = {"timeout": POSTGRES_TIMEOUT, "command_timeout": POSTGRES_TIMEOUT}
    return {"pool_timeout": POSTGRES_TIMEOUT, "connect_args": {**defaults, **link.connect_args}}


class DatabaseUnusable(Exception):
    """The database refused the bot or cannot be found, and waiting will not change that
    (a wrong password, no such database, a host name that does not resolve). The message
    is one line for the admin; `python -m bot` prints it alone and exits."""


# How long a write waits for SQLite's lock held by another process before it fails as
# out of service: under Discord's 3 s, so the press is told in time.
WRITE_LOCK_WAIT = 2.0
SHORT_BUSY_WAIT_MS = 20  # the longest the press path waits on the loop's thread for a lock
REBUILD_WAIT_S = 60  # how long start-up waits for another process's rebuild of the file


# Each aiosqlite connection is a thread, and opening one starts that thread from the event
# loop, which waits until the new thread runs: under load (the capacity benchmark) such a
# start held the loop 80-260 ms. The default pool keeps 5 connections and closes every
# overflow one when it is returned, so a busy moment opened new ones again and again; a
# larger pool keeps them for reuse.
# Each statement runs in place, on the loop's thread (bot/sqlite_driver.py); the plain
# statements of a press go through a synchronous engine instead (bot/statements.py).
INCREMENTAL = 2  # SQLite's auto_vacuum mode that frees pages when asked
SQLITE_POOL: dict[str, Any] = {"pool_size": 20, "max_overflow": 20}
SQLITE_ENGINE: dict[str, Any] = {
    **SQLITE_POOL,
    "connect_args": {"async_creator_fn": sqlite_driver.connect},
}


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self._make_sqlite_folder(url)
        sqlite = url.startswith("sqlite")
        # A PostgreSQL link's libpq parameters become asyncpg's arguments.
        link = None if sqlite else postgres_link(url)
        self.engine: AsyncEngine = create_async_engine(
            url if link is None else link.url,
            json_serializer=json_text,
            json_deserializer=orjson.loads,
            **(SQLITE_ENGINE if link is None else _postgres_engine(link)),
        )
        # Reads of single rows need no transaction: on PostgreSQL one costs a BEGIN and a
        # ROLLBACK, two more round trips to the server for each read.
        self._reads = self.engine
        if not sqlite:
            # A pooled connection can be dead after a database server restart: it is
            # checked before use, so the restart costs no player an error.
            event.listen(self.engine.sync_engine, "checkout", _check_alive)
            event.listen(self.engine.sync_engine, "checkin", _note_returned)
            self._reads = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # On SQLite the plain statements run on a synchronous engine of their own, in place
        # (bot/statements.py); the ORM's sessions and migrations keep the asyncio one.
        self._in_place: Engine | None = None
        # SQLite takes one writer at a time and fails, rather than waits, when two
        # transactions of this process race to write; so writes queue here instead.
        # PostgreSQL locks rows itself (SELECT ... FOR UPDATE) and needs no queue.
        self._one_writer: asyncio.Lock | None = None
        if url.startswith("sqlite"):
            self._one_writer = asyncio.Lock()
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._in_place = create_engine(
                self.engine.url.set(drivername="sqlite+pysqlite"),
                json_serializer=json_text,
                json_deserializer=orjson.loads,
                **SQLITE_POOL,
            )
            event.listen(self._in_place, "connect", _sqlite_pragmas)
            event.listen(self._in_place, "connect", _sqlite_short_busy_wait)
        # Since when our writes have found SQLite's lock held by another process (None
        # while they get it): see `_write_lock`.
        self._locked_since: float | None = None

    @property
    def engines(self) -> list[Engine]:
        """Every engine statements run on, for listeners (bot/metrics.py counts errors)."""
        return [self.engine.sync_engine, *([self._in_place] if self._in_place else [])]

    @staticmethod
    def _make_sqlite_folder(url: str) -> None:
        path = url.split(":///", 1)[1].split("?", 1)[0]
        if path and path != ":memory:":
            folder = Path(path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise DatabaseUnusable(
                    f"The folder {folder} of the SQLite file in DATABASE_URL cannot be made "
                    f"({error.strerror or error}); make it, or point DATABASE_URL at a "
                    "folder the bot can write"
                ) from None

    @property
    def sqlite_path(self) -> str | None:
        """The SQLite file, or None on PostgreSQL."""
        url = self.engine.url
        return url.database if url.get_backend_name() == "sqlite" else None

    @property
    def where(self) -> str:
        """Where the database is, for a log line: host or file, never the password."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite":
            return f"SQLite file {url.database}"
        host = url.host or url.query.get("host") or "localhost"
        port = f":{url.port}" if url.port else ""
        return f"PostgreSQL at {host}{port}/{url.database}"

    async def wait_until_reachable(
        self, first_wait: float = 1.0, longest_wait: float = 30.0, give_up_after: float = 60.0
    ) -> None:
        """Return once the database answers; until then try again with a doubling wait.

        Each failed try is one log line naming the host and the reason, no traceback. A
        database out of reach (refused, no answer, a host name that does not resolve) is
        tried for `give_up_after` seconds in all (DATABASE_WAIT_SECONDS: a server or a
        container starting up), then raises DatabaseUnusable; so does a refusal (a wrong
        password, no such database, a SQLite file that cannot be opened) at once: waiting
        would not fix it.
        """
        wait = first_wait
        began = time.monotonic()
        while True:
            try:
                async with self.engine.connect() as connection:
                    await connection.execute(text("SELECT 1"))
                return
            except (OSError, DBAPIError, sqlite3.Error) as error:
                if not _unreachable(error):
                    raise DatabaseUnusable(refusal(self.where, error)) from None
                left = give_up_after - (time.monotonic() - began)
                if left <= 0:
                    raise DatabaseUnusable(gave_up(self.where, error, give_up_after)) from None
                wait = min(wait, left)
                log.warning(
                    "The database (%s) is not reachable: %s. Trying again in %.3g s.",
                    self.where,
                    reason(error),
                    wait,
                )
            await asyncio.sleep(wait)
            wait = min(wait * 2, longest_wait)

    async def migrate(self, to: str = "head", allow_data_loss: bool = False) -> None:
        """Bring the schema up (or down) to revision `to` (`bot/schema.py`). Several
        processes may start at once: they take turns, and the later ones find nothing left
        to do. A downgrade that would delete data raises DataLossRefused unless allowed."""
        # SQLite's own engine (its in-place driver); on PostgreSQL one without the
        # statement timeout.
        engine = self.engine if self.sqlite_path is not None else migration_engine(self.url)
        try:
            async with migration_connection(engine) as connection:
                await connection.run_sync(migrate_on, to, allow_data_loss)
        finally:
            if engine is not self.engine:
                await engine.dispose()
        await self._vacuum_incrementally()

    async def _vacuum_incrementally(self) -> None:
        """SQLite keeps the pages of removed rows for reuse unless told to give them back;
        `auto_vacuum=INCREMENTAL` lets `give_space_back` do that. A file made before it was
        set is rebuilt once (VACUUM: as long as a copy of the file takes to write)."""
        if self.sqlite_path in (None, "", ":memory:"):
            return
        async with self._sqlite_alone() as raw:
            if raw is None:
                return
            # Start-up only, so a long wait holds up no channel: another process starting
            # at the same time may be rebuilding the file, and this one waits it out.
            raw.execute(f"PRAGMA busy_timeout={REBUILD_WAIT_S * 1000}")
            try:
                raw.execute("BEGIN IMMEDIATE")  # after any rebuild under way
                mode = raw.execute("PRAGMA auto_vacuum").fetchone()[0]
                raw.execute("ROLLBACK")
                if mode == INCREMENTAL:
                    return
                log.info("SQLite: turning on incremental vacuum (a one-time rebuild)")
                raw.execute("PRAGMA auto_vacuum=INCREMENTAL")
                raw.execute("VACUUM")
            except sqlite3.OperationalError as error:
                if "locked" not in str(error):
                    raise
                raise DatabaseUnusable(
                    f"The SQLite file {self.sqlite_path} stayed locked by another process "
                    f"for {REBUILD_WAIT_S} s while the bot started."
                ) from None
            finally:
                raw.execute(f"PRAGMA busy_timeout={SHORT_BUSY_WAIT_MS}")

    async def give_space_back(self) -> None:
        """After rows were removed: SQLite returns the free pages to the file system (a
        few ms a thousand pages, under the write lock); PostgreSQL's autovacuum does this
        by itself."""
        async with self._sqlite_alone() as raw:
            if raw is not None:
                # As a script: sqlite3's `execute` steps this pragma once, one page freed.
                raw.executescript("PRAGMA incremental_vacuum;")

    @asynccontextmanager
    async def _sqlite_alone(self) -> AsyncIterator[Any]:
        """SQLite's own connection (sqlite3's), with no write of ours under way, for
        statements outside any transaction (VACUUM, pragmas); None on PostgreSQL."""
        if self._in_place is None:
            yield None
            return
        assert self._one_writer is not None
        async with self._one_writer:
            with self._in_place.connect() as connection:
                raw = connection.connection.driver_connection
                assert raw is not None
                yield raw

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """An ORM session whose changes are committed together at the end, or not at all
        (the scoreboard's and the tests' ORM work; the service writes through `writing`)."""
        async with contextlib.AsyncExitStack() as stack:
            if self._one_writer is not None:
                await stack.enter_async_context(self._one_writer)
            session = await stack.enter_async_context(
                AsyncSession(self.engine, expire_on_commit=False)
            )
            await stack.enter_async_context(session.begin())
            yield session
        _note_commit()

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Statements]:
        """`transaction` for plain statements (`bot/rows.py`, the outbox): a connection in a
        transaction, committed at the end or not at all. What the service changes a press
        goes through here; an ORM session costs more than the statements themselves."""
        if self._in_place is not None:
            assert self._one_writer is not None
            async with self._one_writer:
                with self._in_place.connect() as connection:
                    await self._write_lock(connection)
                    try:
                        yield InPlace(connection)
                    except BaseException:
                        connection.rollback()
                        raise
                    connection.commit()
            _note_commit()
            return
        async with self.engine.begin() as connection:
            yield Awaited(connection)
        _note_commit()

    async def _write_lock(self, connection: Connection) -> None:
        """Take SQLite's write lock for this transaction (BEGIN IMMEDIATE) without letting a
        lock held by another process (a backup, an admin's shell) hold up the loop. The
        first try waits inside SQLite at most SHORT_BUSY_WAIT_MS, as every statement here
        does; once the lock is found held, tries do not wait inside SQLite at all and the
        loop serves the others between them. A lock held past WRITE_LOCK_WAIT fails the
        write with "database is locked" (`out_of_service`); later writes then try once
        each, at once, until one gets through, rather than each waiting its own while."""
        patient = self._locked_since is None  # nobody has found the lock held
        since = self._locked_since = self._locked_since or time.monotonic()
        raw = connection.connection.driver_connection
        assert raw is not None  # a connection in use has its sqlite3 connection
        if not patient:
            raw.execute("PRAGMA busy_timeout=0")
        wait = 0.002
        try:
            while True:
                try:
                    connection.exec_driver_sql("BEGIN IMMEDIATE")
                except OperationalError as error:
                    connection.rollback()
                    if "locked" not in str(error) or time.monotonic() - since > WRITE_LOCK_WAIT:
                        raise
                    if patient:
                        raw.execute("PRAGMA busy_timeout=0")
                        patient = False
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, 0.1)
                    continue
                self._locked_since = None
                return
        finally:
            if not patient:
                raw.execute(f"PRAGMA busy_timeout={SHORT_BUSY_WAIT_MS}")

    async def check_writable(self) -> None:
        """Raise unless the database can be written now; changes nothing (`/healthz`).

        SQLite: while one of our own writes is under way the file is taken to be writable,
        unless that write is waiting for a lock held by another process; otherwise a
        connection of its own, in a thread, takes the write lock and updates no row
        without waiting, so a file locked from outside or read-only fails the check and
        the event loop never waits. PostgreSQL: an update of no row, rolled back:
        refused in a read-only database or on a standby."""
        path = self.sqlite_path
        if path is None:
            async with self.engine.connect() as connection, connection.begin() as transaction:
                await connection.execute(text("UPDATE games SET id = id WHERE false"))
                await transaction.rollback()
            return
        if path in ("", ":memory:") or self._one_writer is None:
            return  # a database in memory is this process's alone
        if self._one_writer.locked():
            if self._locked_since is not None:
                raise sqlite3.OperationalError("database is locked")
            return
        async with self._one_writer:
            await asyncio.to_thread(_sqlite_write_lock, path)

    async def takes_writes(self, within: float) -> bool:
        """Whether `check_writable` passes within `within` seconds: a cheap probe for work
        that waits out an outage (bot/sessions.py), where a hung server must not hold it."""
        try:
            async with asyncio.timeout(within):
                await self.check_writable()
        except Exception:  # out of service still, whatever the reason
            return False
        return True

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncSession]:
        async with AsyncSession(self.engine, expire_on_commit=False) as session:
            yield session

    @asynccontextmanager
    async def connected(self) -> AsyncIterator[Statements]:
        """A connection for plain statements that only read (`bot/rows.py`): lighter than
        an ORM session, and a request reads a game row or two every press."""
        if self._in_place is not None:
            with self._in_place.connect() as connection:
                yield InPlace(connection)
            return
        async with self._reads.connect() as connection:
            yield Awaited(connection)

    async def close(self) -> None:
        await self.engine.dispose()
        if self._in_place is not None:
            self._in_place.dispose()


DATABASE_DOWN = phrase(
    "The game records can't be reached or written right now, so nothing was changed. "
    "Try again in a moment."
)


def out_of_service(error: BaseException) -> bool:
    """Whether `error` means the database can't serve us for now (down, restarting,
    unreachable, locked by another process, read-only, or too slow to answer), rather than
    a mistake in what we asked: a press is answered with `DATABASE_DOWN`, and what the
    bot does by itself is tried again later."""
    if isinstance(error, aiohttp.ClientError):
        return False  # Discord's side (aiohttp's connection errors are OSErrors too)
    if isinstance(error, OSError | TimeoutError | DisconnectionError):
        return True
    if isinstance(getattr(error, "orig", None), OSError | TimeoutError):
        return True  # wrapped by SQLAlchemy
    if isinstance(error, OperationalError | InterfaceError):
        return True  # SQLite's "locked" and "readonly", a closed PostgreSQL connection
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, sqlite3.OperationalError):
        return True  # raised bare by the in-place driver
    return _unreachable(error)


def _unreachable(error: BaseException) -> bool:
    """Whether the database could not be reached (rather than refused us)."""
    if isinstance(error, OSError):
        return True
    return _sqlstate(error).startswith(UNREACHABLE_SQLSTATES)


def _sqlstate(error: BaseException) -> str:
    """PostgreSQL's error code, from asyncpg's error bare or wrapped by SQLAlchemy."""
    sqlstate = getattr(error, "sqlstate", None)
    sqlstate = sqlstate or getattr(getattr(error, "orig", None), "sqlstate", None) or ""
    return str(sqlstate)


def _unresolved(error: BaseException) -> bool:
    """Whether the host name did not resolve (raised bare by asyncpg, or wrapped)."""
    return isinstance(error, socket.gaierror) or isinstance(
        getattr(error, "orig", None), socket.gaierror
    )


# What the admin can check, by PostgreSQL error code: 28 is a refused login (a wrong
# password, no such user), 3D000 no such database.
HINTS = {
    "28": "check the user name and password in DATABASE_URL",
    "3D000": "check the database name in DATABASE_URL",
}


def refusal(where: str, error: BaseException) -> str:
    """One line: the database refused the bot, why, and what to check."""
    if where.startswith("SQLite"):
        return (
            f"The database ({where}) cannot be opened: {reason(error)}; check the path in "
            "DATABASE_URL and that the bot may read and write the file and its folder"
        )
    hint = next(
        (text for code, text in HINTS.items() if _sqlstate(error).startswith(code)),
        "check DATABASE_URL",
    )
    return f"The database ({where}) refused the bot: {reason(error)}; {hint}"


def gave_up(where: str, error: BaseException, after: float) -> str:
    """One line: the database stayed out of reach for `after` seconds, and what to check."""
    if _unresolved(error):
        return (
            f"The database host in DATABASE_URL ({where}) does not resolve ({reason(error)}); "
            f"gave up after {after:g} s: check the host name in DATABASE_URL"
        )
    return (
        f"The database ({where}) did not answer for {after:g} s ({reason(error)}): check "
        "that it is running and the host and port in DATABASE_URL, or wait longer with "
        "DATABASE_WAIT_SECONDS"
    )


def reason(error: BaseException) -> str:
    """The error's own first line: the driver's message, no URL or SQL."""
    original = getattr(error, "orig", None) or error
    return str(original).splitlines()[0] if str(original) else type(original).__name__


def _check_alive(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Before a pooled PostgreSQL connection is used: one the server closed (a restart) is
    seen closed locally, and one idle for a while is pinged; either way a dead one is
    replaced before anyone's request runs on it. SQLAlchemy's `pool_pre_ping` pings every
    time, three round trips to the server before each read or save."""
    if record.driver_connection.is_closed():  # asyncpg's own connection, under the adapter
        raise DisconnectionError("the server closed this connection")
    returned = record.info.get("returned_at")
    if returned is not None and time.monotonic() - returned > IDLE_BEFORE_PING:
        try:
            dbapi_connection.ping()
        except Exception as error:
            raise DisconnectionError(f"the connection did not answer: {error}") from error


def _note_returned(_dbapi_connection: Any, record: Any) -> None:
    record.info["returned_at"] = time.monotonic()


def json_text(value: Any) -> str:
    """A JSON column's text. orjson is several times quicker than the standard library,
    and a game's state is written with every action; keys that are not text are written as
    text, as `json.dumps` does."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (scoreboards) go on while a game is being saved; foreign keys are
    # off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")  # another process (a backup, say) may write
    cursor.close()


def _sqlite_write_lock(path: str) -> None:
    """Take the file's write lock, write nothing and give it back, failing at once if the
    lock is held. The update of no row is what a read-only file refuses: in WAL mode the
    lock alone is taken even on a file opened read-only."""
    connection = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("UPDATE games SET id = id WHERE 0")
        connection.execute("ROLLBACK")
    finally:
        connection.close()


def _sqlite_short_busy_wait(dbapi_connection: Any, _record: Any) -> None:
    """The press path's connections wait inside SQLite for a lock only briefly: they run
    on the loop's thread, and a long wait there would stop every channel. A write that
    finds the file locked gives the loop back and tries again (`Database._write_lock`);
    a read in WAL mode waits for no writer, only, rarely, for a moment's bookkeeping."""
    dbapi_connection.execute(f"PRAGMA busy_timeout={SHORT_BUSY_WAIT_MS}")

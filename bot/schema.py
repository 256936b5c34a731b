"""Migrating the schema: the lock that lets one process migrate at a time, the run of the
revisions in `bot/migrations/versions`, and two helpers the revisions call.

- `migration_connection`: on SQLite, a lock file beside the database and one transaction
  for the whole run; on PostgreSQL, a session-level advisory lock held on the migration's
  connection for the whole run, so a revision may commit part-way (an index built
  concurrently) while the other processes still wait.
- `migrate_on`: up or down to a revision; `Database.migrate` and `python -m bot migrate`.
- `create_index_concurrently`: what a revision uses to index a table that may be big.
- `refuse_data_loss`: called first by a downgrade that deletes data; it stops the run with
  one line unless the admin said `--allow-data-loss` (`python -m bot migrate`) or
  `-x allow-data-loss=yes` (the `alembic` command).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command, context, op
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from filelock import AsyncFileLock
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.database_links import postgres_link

log = logging.getLogger(__name__)
# Alembic's own INFO lines describe its set-up; the lines worth keeping are ours.
logging.getLogger("alembic").setLevel(logging.WARNING)

MIGRATIONS = Path(__file__).parent / "migrations"
FIRST_REVISION = "0001"  # today's tables, as `create_all` made them before migrations
# Any fixed number: every process migrating this database takes the same advisory lock.
POSTGRES_MIGRATION_LOCK = 0x7472617368  # "trash"
LOCK_RETRY = 0.25  # seconds between two tries for the PostgreSQL migration lock
ALLOW_DATA_LOSS = "allow-data-loss"  # the -x argument, and the key in Config.attributes


class DataLossRefused(CommandError):
    """A downgrade would delete data and the admin did not allow it. A CommandError, so
    the `alembic` command prints it as one line too."""


def migration_engine(url: str) -> AsyncEngine:
    """An engine for migrations: the link's arguments, without the statement timeout
    (building an index on a big table takes its time)."""
    if url.startswith("sqlite"):
        return create_async_engine(url)
    link = postgres_link(url)
    return create_async_engine(link.url, connect_args=link.connect_args)


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


@asynccontextmanager
async def migration_connection(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection holding the migration lock, for `migrate_on`. Several processes may
    start at once: they take turns, and the later ones find nothing left to do."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        # One transaction for the whole run: SQLite's DDL is transactional.
        file = url.database
        lock = (
            AsyncFileLock(f"{file}.migrating")
            if file not in (None, "", ":memory:")
            else contextlib.nullcontext()
        )
        async with lock, engine.begin() as connection:
            # Python's sqlite3 begins a transaction only before it writes a row: without
            # this BEGIN each DDL statement commits alone, and a run that fails part-way
            # (a refused downgrade) would leave the schema half changed.
            await connection.exec_driver_sql("BEGIN IMMEDIATE")
            yield connection
        return
    async with engine.connect() as connection:
        await _take_postgres_lock(connection)
        try:
            yield connection
        finally:
            # A dead connection has lost the lock with its session already.
            with contextlib.suppress(DBAPIError):
                await connection.rollback()
                await connection.execute(
                    text("SELECT pg_advisory_unlock(:key)"), {"key": POSTGRES_MIGRATION_LOCK}
                )
                await connection.commit()


async def _take_postgres_lock(connection: AsyncConnection) -> None:
    """Try for the lock again and again rather than wait for it inside the server: a
    session waiting in `pg_advisory_lock` keeps a snapshot open, and CREATE INDEX
    CONCURRENTLY in the migrating session waits for every older snapshot to end, so each
    would wait for the other until PostgreSQL's deadlock check aborted one. Between tries
    this connection is in no transaction."""
    told = False
    while True:
        taken = await connection.scalar(
            text("SELECT pg_try_advisory_lock(:key)"), {"key": POSTGRES_MIGRATION_LOCK}
        )
        await connection.commit()
        if taken:
            return
        if not told:
            log.info("Another process is migrating the database; waiting for it")
            told = True
        await asyncio.sleep(LOCK_RETRY)


def migrate_on(connection: Connection, to: str = "head", allow_data_loss: bool = False) -> None:
    """Bring the schema up or down to revision `to` ("head", "base" or an id), on a
    connection from `migration_connection`. A database made by the older `create_all`
    start-up (tables, no `alembic_version`) is first marked as the first revision."""
    config = alembic_config()
    config.attributes["connection"] = connection
    config.attributes[ALLOW_DATA_LOSS] = allow_data_loss
    config.attributes["target"] = to
    order = revisions()
    if to not in (*order, "head", "base"):
        raise CommandError(f"No revision {to!r}: the revisions are {', '.join(order)}")
    tables = inspect(connection).get_table_names()
    if "games" in tables and "alembic_version" not in tables:
        log.info("Adopting a database made before migrations as revision %s", FIRST_REVISION)
        command.stamp(config, FIRST_REVISION)
    before = MigrationContext.configure(connection).get_current_revision()
    _end_reads(connection)
    if _position(to, order) < _position(before, order):
        command.downgrade(config, to)
    else:
        command.upgrade(config, to)
    after = MigrationContext.configure(connection).get_current_revision()
    _end_reads(connection)
    if before == after:
        log.info("Database schema is up to date (revision %s)", after)
    else:
        way = "upgraded" if _position(after, order) > _position(before, order) else "downgraded"
        log.info("Database schema %s from revision %s to %s", way, before or "(none)", after)


def _position(revision: str | None, order: list[str]) -> int:
    if revision in (None, "base"):
        return -1
    return len(order) - 1 if revision == "head" else order.index(revision)


def _end_reads(connection: Connection) -> None:
    """On PostgreSQL, commit the transaction our own reads began: Alembic must begin its
    transactions itself to step out of them (`autocommit_block`). SQLite's run is the one
    transaction `migration_connection` began."""
    if connection.dialect.name == "postgresql":
        connection.commit()


def create_index_concurrently(name: str, table: str, columns: list[str], **kw: Any) -> None:
    """For a revision: build an index on a table that may be big without stopping its
    writers. On PostgreSQL the index is built CONCURRENTLY, outside the migration's
    transaction (what ran before it is committed first); a build that was killed leaves
    an INVALID index of that name, which is dropped and built again, and a valid one
    (killed after the build, before the revision was recorded) is kept. SQLite takes one
    writer at a time anyway: a plain index, inside the transaction."""
    if op.get_bind().dialect.name != "postgresql":
        op.create_index(name, table, columns, **kw)
        return
    with op.get_context().autocommit_block():
        valid = op.get_bind().scalar(
            text("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(:name)"),
            {"name": name},
        )
        if valid is False:
            log.info("Dropping the half-built index %s to build it again", name)
            op.drop_index(name, table_name=table, postgresql_concurrently=True, if_exists=True)
        op.create_index(
            name, table, columns, postgresql_concurrently=True, if_not_exists=True, **kw
        )


def refuse_data_loss(revision: str, counts: dict[str, str]) -> None:
    """Called first by the downgrade of `revision` when it deletes what cannot be made
    again. `counts` maps what would go ("outbox entries") to SQL counting it; when all
    count 0 nothing is lost and the downgrade goes on. Otherwise it stops, unless
    allowed, before anything of the run is committed (a downgrade runs in one transaction)."""
    bind = op.get_bind()
    found = {what: bind.scalar(text(sql)) or 0 for what, sql in counts.items()}
    lost = ", ".join(f"{what} ({number:,})" for what, number in found.items() if number)
    if not lost:
        return
    attributes = context.config.attributes
    if attributes.get(ALLOW_DATA_LOSS) or (
        context.get_x_argument(as_dictionary=True).get(ALLOW_DATA_LOSS) == "yes"
    ):
        log.warning("Downgrading below revision %s deletes %s, as allowed", revision, lost)
        return
    if "target" in attributes:  # `python -m bot migrate`
        again = f"python -m bot migrate --to {attributes['target']} --allow-data-loss"
    else:  # the `alembic` command
        again = f"the same alembic command with -x {ALLOW_DATA_LOSS}=yes"
    raise DataLossRefused(
        f"Refusing to downgrade below revision {revision}: it would delete {lost}. "
        f"To go ahead anyway, run {again}"
    )

"""Alembic's entry point: runs the revisions in `versions/` on one connection.

The bot runs it through `bot.schema.migrate_on`, which hands over a connection holding the
migration lock (`bot.schema.migration_connection`). Run by the `alembic` command instead (to
write a new revision: `alembic revision --autogenerate -m ...` from the repository root), it
connects to DATABASE_URL from the settings and takes the same lock.

On PostgreSQL the connection comes in no transaction: Alembic runs the revisions in one
transaction of its own, which a revision may commit early to build an index concurrently
(`bot.schema.create_index_concurrently`); a downgrade runs wholly in one, so one refused
for data loss changes nothing. On SQLite the run is one transaction begun by the caller.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

from bot import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.schema import migration_connection, migration_engine
from bot.settings import load_database_settings


def render_item(kind: str, item: Any, _context: AutogenContext) -> str | Literal[False]:
    """Write sqlmodel's column types as plain SQLAlchemy ones in new revisions."""
    if kind == "type" and isinstance(item, AutoString):
        return "sa.String()"
    if kind == "type" and isinstance(item, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        # SQLite changes a table by copying it; batch mode writes revisions that way.
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_with_settings() -> None:
    engine = migration_engine(load_database_settings().database_url)
    try:
        async with migration_connection(engine) as connection:
            await connection.run_sync(run_on)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("Trash Table migrates a live database only: leave out --sql.")
given = context.config.attributes.get("connection")
if given is not None:
    run_on(given)
else:
    asyncio.run(run_with_settings())

"""Every revision in `bot/migrations/versions`, down and up again, with games in the database,
on SQLite and on a real PostgreSQL (issue 37, item 4).

The revisions are found, not listed: a new one is walked like the others. From the newest,
one revision at a time: down (refused without `allow_data_loss` exactly when it would delete
something, and then nothing at all has changed), up again (every row still there, every
index valid), and down once more. Also: a half-built index left by a killed run is built
again, and PostgreSQL builds the outbox's index concurrently.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, event, inspect, text, update
from sqlmodel import SQLModel

from bot import keeping
from bot.__main__ import main
from bot.database import Database
from bot.models import OutboxEntry, utcnow
from bot.schema import DataLossRefused, migration_engine, revisions
from bot.sessions import SessionService
from bot.settings import async_database_url
from tests.bot.test_migrations import (
    ALICE,
    BOB,
    FINISHED_CHANNEL,
    GUILD,
    LOBBY_CHANNEL,
    PLAYERS,
    nearly_over,
    play,
    started,
)

UNDELIVERED = "ix_outbox_undelivered"


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]  # in a fixed order

    def only(self, columns: tuple[str, ...]) -> list[dict[str, Any]]:
        return sorted(({c: row[c] for c in columns} for row in self.rows), key=repr)


Rows = dict[str, Table]
State = tuple[str | None, Rows, list[str], list[str]]


async def seed(db: Database) -> None:
    """A finished game (its actions, results, ratings and boards, most of them delivered), a
    lobby (its host chose the handover level; its server's admins chose German) and a guild
    that removed the bot, as the service writes them."""
    service = SessionService(db)
    finished = await started(service, FINISHED_CHANNEL)
    finished = await play(service, await nearly_over(service, finished), PLAYERS)
    assert finished.status == "finished"
    await service.set_language(GUILD, "de")
    lobby = await service.open_lobby(GUILD, LOBBY_CHANNEL, "rumble", ALICE, {}, handover="hard")
    assert lobby.language == "de"
    await service.join(LOBBY_CHANNEL, lobby.id, BOB)
    await keeping.departed(db, GUILD + 1)
    async with db.writing() as connection:  # a game whose log was folded into its row
        await connection.execute(
            update(keeping.GAMES)
            .where(keeping.GAMES.c.id == finished.id)
            .values(archive=keeping.Played([(0, 0, "pass")], [(1, None)]).packed())
        )
    last = await latest_outbox_id(db)
    async with db.transaction() as session:  # the poster delivered all but the last
        await session.exec(
            update(OutboxEntry)
            .where(OutboxEntry.id < last)  # type: ignore[arg-type,operator]
            .values(delivered_at=utcnow(), message_id=OutboxEntry.id + 10_000)
        )


async def latest_outbox_id(db: Database) -> int:
    async with db.engine.connect() as connection:
        return int(await connection.scalar(text("SELECT max(id) FROM outbox")) or 0)


def dump(connection: Connection) -> Rows:
    """Every table but Alembic's."""
    rows: Rows = {}
    for table in inspect(connection).get_table_names():
        if table != "alembic_version":
            result = connection.exec_driver_sql(f'SELECT * FROM "{table}"')
            found = sorted((dict(row) for row in result.mappings()), key=repr)
            rows[table] = Table(tuple(result.keys()), found)
    return rows


def kept(before: Rows, after: Rows) -> bool:
    """Whether every row `after` holds was in `before`, unchanged in every column it kept."""
    for table in before.keys() & after.keys():
        was = before[table].only(after[table].columns)
        for row in after[table].rows:
            if row not in was:
                return False
            was.remove(row)
    return True


def lost(before: Rows, after: Rows) -> list[str]:
    """What `before` held that `after` does not: tables with rows, columns with values,
    rows."""
    gone = [f"table {name}" for name, table in before.items() if name not in after and table.rows]
    for name in before.keys() & after.keys():
        had = [c for c in before[name].columns if c not in after[name].columns]
        gone += [f"{name}.{c}" for c in had if any(r[c] is not None for r in before[name].rows)]
        if len(after[name].rows) < len(before[name].rows):
            gone.append(f"rows of {name}")
    return gone


async def state(db: Database) -> State:
    """The revision, every row, the indexes PostgreSQL has marked invalid, every index."""

    def read(connection: Connection) -> State:
        invalid: list[str] = []
        if connection.dialect.name == "postgresql":
            invalid = list(
                connection.scalars(
                    text(
                        "SELECT indexrelid::regclass::text FROM pg_index"
                        " JOIN pg_class ON pg_class.oid = indrelid"
                        " WHERE NOT indisvalid AND relnamespace = 'public'::regnamespace"
                    )
                )
            )
        revision = MigrationContext.configure(connection).get_current_revision()
        tables = inspect(connection).get_table_names()
        indexes = sorted(
            f"{table}.{index['name']}"
            for table in tables
            for index in inspect(connection).get_indexes(table)
        )
        return revision, dump(connection), invalid, indexes

    # An engine of its own: a pooled connection keeps its prepared `SELECT *` of a table
    # whose columns have changed since, which PostgreSQL then refuses.
    engine = migration_engine(db.url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(read)
    finally:
        await engine.dispose()


async def test_every_revision_goes_down_and_up_with_games_in_the_database(
    database_url: str,
) -> None:
    order = revisions()
    assert order[0] == "0001" and len(order) >= 4
    db = Database(async_database_url(database_url))
    for revision in order:  # up one at a time on an empty database
        await db.migrate(revision)
    await seed(db)
    at_head = await state(db)
    seeded = at_head[1]
    filled = ("games", "actions", "results", "ratings", "outbox", "departed_guilds")
    filled += ("guild_settings",)
    assert all(seeded[name].rows for name in filled)
    with pytest.raises(DataLossRefused):  # several steps at once: the run changes nothing
        await db.migrate("base")
    assert await state(db) == at_head
    refused_at = []

    for index in reversed(range(len(order))):
        revision, below = order[index], order[index - 1] if index else "base"
        before = await state(db)
        assert before[0] == revision
        try:
            await db.migrate(below)
        except DataLossRefused as refusal:
            refused_at.append(revision)
            message = str(refusal)
            assert "\n" not in message and revision in message, message
            assert f"--to {below} --allow-data-loss" in message, message
            assert await state(db) == before  # nothing changed, not even a step above
            await db.migrate(below, allow_data_loss=True)
        down = await state(db)
        assert down[0] == (None if below == "base" else below)
        assert kept(before[1], down[1]), f"changed below {revision}"
        what_went = lost(before[1], down[1])
        assert bool(what_went) == (revision in refused_at), (revision, what_went)

        await db.migrate(revision)  # up again: what is left stays
        up = await state(db)
        assert up[0] == revision and up[2] == []
        assert all(  # every row still there, unchanged, and none made up
            up[1][name].only(table.columns) == table.rows for name, table in down[1].items()
        ), f"changed by upgrading to {revision}"
        await db.migrate(below)  # nothing is left to lose: no refusal
        assert (await state(db))[1] == down[1]

    # each has seeded rows
    assert set(refused_at) >= {"0001", "0002", "0003", "0005", "0006", "0007", "0008"}
    await db.migrate()
    revision, rows, invalid, _ = await state(db)
    assert revision == order[-1] and invalid == [] and rows.keys() >= set(seeded)

    def differences(connection: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(connection), SQLModel.metadata))

    async with db.engine.connect() as connection:
        assert await connection.run_sync(differences) == []
    await db.close()


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every SQL statement any engine runs meanwhile."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", note)


async def at_0003_with_boards(url: str) -> Database:
    """A database at revision 0003, before the outbox's index, with a game's boards in the
    outbox: played at the newest revision (today's service writes its columns), then taken
    down to 0003 (what goes down with it is empty)."""
    db = Database(async_database_url(url))
    await db.migrate()
    service = SessionService(db)
    await play(service, await started(service, FINISHED_CHANNEL), PLAYERS, moves=3)
    await db.migrate("0003")
    return db


async def test_the_outbox_index_is_built_concurrently_on_postgresql(database_url: str) -> None:
    """With games in the outbox: on PostgreSQL outside the transaction, CONCURRENTLY; on
    SQLite a plain index in the run's transaction."""
    db = await at_0003_with_boards(database_url)
    with statements() as seen:
        await db.migrate()
    built = [s for s in seen if s.startswith("CREATE INDEX") and UNDELIVERED in s]
    if db.sqlite_path is None:
        assert built == [
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {UNDELIVERED} ON outbox "
            "(channel_id, id) WHERE delivered_at IS NULL"
        ]
    else:
        assert built == [
            f"CREATE INDEX {UNDELIVERED} ON outbox (channel_id, id) WHERE delivered_at IS NULL"
        ]
    await db.close()


async def test_a_half_built_index_left_by_a_killed_run_is_built_again(
    postgresql_url: str,
) -> None:
    """A build killed part-way leaves an INVALID index of that name, which IF NOT EXISTS
    alone would take as done: the next run drops it and builds the index again."""
    db = await at_0003_with_boards(postgresql_url)
    # A unique index over a channel's several undelivered boards fails and stays, invalid.
    autocommit = db.engine.execution_options(isolation_level="AUTOCOMMIT")
    async with autocommit.connect() as connection:
        with pytest.raises(Exception, match="could not create unique index"):
            await connection.execute(
                text(
                    f"CREATE UNIQUE INDEX CONCURRENTLY {UNDELIVERED} ON outbox (channel_id)"
                    " WHERE delivered_at IS NULL"
                )
            )
    assert (await state(db))[2] == [UNDELIVERED]
    await db.migrate()
    revision, _, invalid, _ = await state(db)
    assert revision == revisions()[-1] and invalid == []
    async with db.engine.connect() as connection:
        indexes = await connection.run_sync(lambda c: inspect(c).get_indexes("outbox"))
    (index,) = [index for index in indexes if index["name"] == UNDELIVERED]
    assert index["column_names"] == ["channel_id", "id"] and not index["unique"]
    await db.close()


def test_the_migrate_command_refuses_a_data_losing_downgrade_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`python -m bot migrate --to base` on a database with a rating: one line, status 1,
    nothing changed; with `--allow-data-loss` the tables go."""
    database = tmp_path / "games.db"
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")

    def migrate(*arguments: str) -> None:
        monkeypatch.setattr(sys, "argv", ["python -m bot", "migrate", *arguments])
        main()

    migrate()
    with sqlite3.connect(database) as connection:
        connection.execute("INSERT INTO ratings VALUES (1, 'rumble', 2, 25.0, 8.3)")
    with pytest.raises(SystemExit) as refused:
        migrate("--to", "base")
    assert refused.value.code == (
        "Refusing to downgrade below revision 0001: it would delete ratings (1). "
        "To go ahead anyway, run python -m bot migrate --to base --allow-data-loss"
    )
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT count(*) FROM ratings").fetchone() == (1,)
    migrate("--to", "base", "--allow-data-loss")
    with sqlite3.connect(database) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        assert [name for (name,) in tables] == ["alembic_version"]

"""Alembic owns the schema (issue 12, item 4), on SQLite and on a real PostgreSQL.

- A database made by the older start-up (`create_all`, no `alembic_version`) holding a lobby,
  a running game and a finished game is adopted and upgraded, and play goes on.
- Models and migrations never drift: an autogenerate comparison finds nothing.
- Processes starting together on an empty database all come up, one of them migrating;
  on PostgreSQL, shards upgrading a filled outbox together take turns while the index is
  built concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import SQLModel, func, select

from bot.database import Database
from bot.models import ActionRecord, GameRecord, GuildSettings, OutboxEntry, Status
from bot.requests import Player
from bot.schema import alembic_config
from bot.sessions import SessionService
from bot.settings import async_database_url
from rules.base import rng_for
from rules.rumble import RUMBLE

ROOT = Path(__file__).resolve().parents[2]
OLD_SCHEMAS = Path(__file__).parent / "data"  # create_all's DDL, frozen per dialect
GUILD = 900
LOBBY_CHANNEL, RUNNING_CHANNEL, FINISHED_CHANNEL = 501, 502, 503
ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
PLAYERS = [ALICE, BOB, CAROL, ALICE]  # by seat; the AI's seat never asks


def old_schema(dialect: str) -> list[str]:
    lines = (OLD_SCHEMAS / f"create_all_{dialect}.sql").read_text().splitlines()
    sql = "\n".join(line for line in lines if not line.startswith("--"))
    return [statement.strip() for statement in sql.split(";") if statement.strip()]


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def revision_of(db: Database) -> str | None:
    def current(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with db.engine.connect() as connection:
        return await connection.run_sync(current)


async def started(service: SessionService, channel: int) -> GameRecord:
    """Alice, Bob, Carol and an AI player."""
    game = await service.open_lobby(GUILD, channel, "rumble", ALICE, {}, seed=7)
    for player in (BOB, CAROL):
        game = await service.join(channel, game.id, player)
    game = await service.add_ai(channel, game.id, ALICE)
    update = await service.start(channel, game.id, ALICE)
    return (await service.play_ai(update)).game  # the AI seat may open


async def play(
    service: SessionService, game: GameRecord, players: list[Player], moves: int = 5000
) -> GameRecord:
    """Each player in turn makes a legal move (a fight when there is one) `moves` times or
    until the game ends."""
    for _ in range(moves):
        game = await service.get(game.id)
        if game.status != Status.PLAYING:
            return game
        (seat,) = RUMBLE.to_act(RUMBLE.from_json(game.state))
        legal = RUMBLE.legal_actions(RUMBLE.from_json(game.state), seat)
        fights = [a for a in legal if a.startswith("fight")]
        update = await service.act(
            game.channel_id, game.id, players[seat].user_id, game.step, (fights or legal)[0]
        )
        await service.play_ai(update)
    return await service.get(game.id)


AI_SEAT = 3
LAST_ACTIONS = 12  # played through the service; the rest of a game is not this test's point


async def nearly_over(service: SessionService, game: GameRecord) -> GameRecord:
    """`game` moved on through the engine alone (each seat fighting when it can) to a
    person's turn about `LAST_ACTIONS` before its end, saved as the row's state: whole games
    through the service took most of this test's time, and the adoption is not about them."""
    states = [RUMBLE.from_json(game.state)]
    while RUMBLE.outcome(states[-1]) is None:
        assert len(states) < 5000, "the game never ended"
        state = states[-1]
        (seat,) = RUMBLE.to_act(state)
        legal = RUMBLE.legal_actions(state, seat)
        fights = [action for action in legal if action.startswith("fight")]
        if seat == AI_SEAT:  # as the service's AI plays it
            view = RUMBLE.observe(state, seat)
            action = RUMBLE.choose(view, legal, rng_for(game.seed, "ai", RUMBLE.step(state), seat))
        else:
            action = (fights or legal)[0]
        states.append(RUMBLE.apply(state, seat, action).state)
    candidates = states[: max(1, len(states) - LAST_ACTIONS)]
    target = next(s for s in reversed(candidates) if AI_SEAT not in RUMBLE.to_act(s))
    async with service.db.transaction() as session:
        row = await session.get(GameRecord, game.id)
        assert row is not None
        row.state, row.step = RUMBLE.to_json(target), RUMBLE.step(target)
        flag_modified(row, "state")
        session.add(row)
    moved = await service.get(game.id)
    assert moved is not None
    return moved


async def test_a_database_made_before_migrations_is_adopted_and_play_goes_on(
    database_url: str,
) -> None:
    url = async_database_url(database_url)
    old = Database(url)
    async with old.engine.begin() as connection:
        for statement in old_schema(connection.dialect.name):
            await connection.exec_driver_sql(statement)
        # Today's service also writes the outbox (revision 0002), each game's rules version
        # (0003), handover level (0007) and language, reading its server's (0008), and reads
        # its archive (0006); they exist for as long as the old rows are made, and go with
        # them: an old database never had them.
        await connection.run_sync(OutboxEntry.__table__.create)  # type: ignore[attr-defined]
        await connection.exec_driver_sql("ALTER TABLE games ADD COLUMN rules_version INTEGER")
        blob = "BYTEA" if connection.dialect.name == "postgresql" else "BLOB"
        await connection.exec_driver_sql(f"ALTER TABLE games ADD COLUMN archive {blob}")  # 0006
        await connection.exec_driver_sql("ALTER TABLE games ADD COLUMN handover_level VARCHAR")
        await connection.exec_driver_sql("ALTER TABLE games ADD COLUMN language VARCHAR")
        await connection.run_sync(GuildSettings.__table__.create)  # type: ignore[attr-defined]
    before = SessionService(old)
    lobby = await before.open_lobby(GUILD, LOBBY_CHANNEL, "rumble", ALICE, {})
    lobby = await before.join(LOBBY_CHANNEL, lobby.id, BOB)
    running = await play(before, await started(before, RUNNING_CHANNEL), PLAYERS, moves=6)
    finished = await started(before, FINISHED_CHANNEL)
    finished = await play(before, await nearly_over(before, finished), PLAYERS)
    assert running.status == Status.PLAYING and finished.status == Status.FINISHED
    async with old.reading() as session:
        actions_before = (await session.exec(select(func.count()).select_from(ActionRecord))).one()
    async with old.engine.begin() as connection:
        await connection.run_sync(OutboxEntry.__table__.drop)  # type: ignore[attr-defined]
        await connection.exec_driver_sql("ALTER TABLE games DROP COLUMN rules_version")
        await connection.exec_driver_sql("ALTER TABLE games DROP COLUMN archive")
        await connection.exec_driver_sql("ALTER TABLE games DROP COLUMN handover_level")
        await connection.exec_driver_sql("ALTER TABLE games DROP COLUMN language")
        await connection.run_sync(GuildSettings.__table__.drop)  # type: ignore[attr-defined]
    await old.close()

    db = Database(url)
    await db.migrate()
    assert await revision_of(db) == head_revision()
    after = SessionService(db)
    async with db.reading() as session:
        assert (await session.exec(select(func.count()).select_from(ActionRecord))).one() == (
            actions_before
        )

    # The running game plays on from where it was, to the end.
    resumed = await after.current(RUNNING_CHANNEL)
    assert resumed is not None and resumed.state == running.state
    done = await play(after, await nearly_over(after, resumed), PLAYERS)
    assert done.status == Status.FINISHED
    # The finished game is in the history and on the scoreboard, beside the new one.
    history = await after.history(GUILD)
    assert {game.id for game, _ in history} == {finished.id, done.id}
    assert all(len(results) == len(game.seats) for game, results in history)
    games_played = {line.user_id: line.games for line in await after.scoreboard(GUILD, "rumble")}
    assert games_played == {ALICE.user_id: 2, BOB.user_id: 2, CAROL.user_id: 2}
    # The lobby still takes players and starts.
    lobby = await after.join(LOBBY_CHANNEL, lobby.id, CAROL)
    assert [seat.user_id for seat in lobby.seats] == [1, 2, 3]
    assert (await after.start(LOBBY_CHANNEL, lobby.id, ALICE)).game.status == Status.PLAYING
    await db.close()


async def test_models_and_migrations_never_drift(database_url: str) -> None:
    """A database upgraded to the newest revision is exactly what the models describe; a
    model change without its revision fails here."""
    db = Database(async_database_url(database_url))
    await db.migrate()

    def differences(connection: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(connection), SQLModel.metadata))

    async with db.engine.connect() as connection:
        assert await connection.run_sync(differences) == []
    await db.close()


def test_processes_starting_together_on_an_empty_database_all_come_up(
    database_url: str, tmp_path: Path
) -> None:
    """Three `python -m bot migrate` at once (what every start-up runs first): all succeed,
    one creates the tables, the others wait for it and find nothing to do."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "bot", "migrate"],
            cwd=tmp_path,  # no .env here
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [process.communicate(timeout=120)[0] for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0], outputs
    upgraded = [output for output in outputs if "upgraded from revision (none)" in output]
    assert len(upgraded) == 1, outputs


FILLED_OUTBOX = 50_000  # rows: enough for the build to take a moment


async def test_shards_upgrading_a_filled_outbox_together_take_turns(
    postgresql_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Three processes' migrations at once on a database at 0003 with a filled outbox: one
    builds the index concurrently, the others wait for the lock and find it done. A waiter
    must not hold a snapshot while it waits: the concurrent build waits for every older
    snapshot to end, and PostgreSQL would abort one of the two as a deadlock."""
    url = async_database_url(postgresql_url)
    first = Database(url)
    await first.migrate("0003")
    async with first.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO games (guild_id, channel_id, kind, status, host_id, seed, step,"
                " turn_timer, created_at, updated_at)"
                " VALUES (1, 2, 'rumble', 'finished', 3, 4, 5, 0, now(), now())"
            )
        )
        await connection.execute(
            text(
                "INSERT INTO outbox (game_id, channel_id, kind, step, payload, ready,"
                " created_at, delivered_at) SELECT 1, 2, 'board', n, '{}', true, now(),"
                " CASE WHEN n < :rows THEN now() END FROM generate_series(1, :rows) AS n"
            ),
            {"rows": FILLED_OUTBOX},
        )
    await first.close()
    caplog.set_level(logging.INFO, logger="bot.schema")
    shards = [Database(url) for _ in range(3)]
    await asyncio.gather(*(shard.migrate() for shard in shards))
    for shard in shards:
        assert await revision_of(shard) == head_revision()
        await shard.close()
    said = [record.getMessage() for record in caplog.records if record.name == "bot.schema"]
    assert sum("upgraded from revision 0003" in line for line in said) == 1, said
    assert sum("is up to date" in line for line in said) == 2, said
    assert any("waiting for it" in line for line in said), said

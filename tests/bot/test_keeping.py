"""What the bot keeps and for how long (bot/keeping.py), on SQLite and PostgreSQL: games past
retention removed whole, a departed guild's data removed after its grace period, a person
forgotten on request, delivered boards trimmed to what is read again."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text, update
from sqlmodel import SQLModel

from bot import database, keeping
from bot.database import Database, DatabaseUnusable
from bot.models import GameRecord, OutboxEntry
from bot.outbox import Outbox
from bot.replays import load_log, rebuild
from bot.requests import Player
from bot.sessions import SessionService
from tests.bot.test_sessions import CHANNEL, GUILD, play_out, started

ZEB = Player(987654321012345, "Zebulon Quux")
ALICE, BOB = Player(1, "alice"), Player(2, "bob")
DAY, HOUR = timedelta(days=1), timedelta(hours=1)
RETENTION = 90 * DAY


async def every_row(db: Database) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, by table name."""
    found: dict[str, list[dict[str, Any]]] = {}
    async with db.connected() as connection:
        for name, table in SQLModel.metadata.tables.items():
            rows = (await connection.execute(select(table))).mappings().all()
            found[name] = [dict(row) for row in rows]
    return found


def mentions(rows: dict[str, list[dict[str, Any]]], *needles: str) -> list[str]:
    """The tables whose rows hold any of `needles` anywhere in their text."""
    return sorted(
        {
            name
            for name, table in rows.items()
            for row in table
            if any(n in str(row) for n in needles)
        }
    )


async def finished_game(service: SessionService, *players: Player) -> GameRecord:
    """A whole game, its boards all shown (as the poster would have)."""
    update_ = await started(service, *players, ai=1)
    game = await play_out(service, update_.game, [*players, players[0]])
    async with service.db.writing() as connection:
        await connection.execute(
            update(keeping.OUTBOX)
            .where(keeping.OUTBOX.c.delivered_at.is_(None))
            .values(delivered_at=datetime.now(UTC))
        )
    return game


async def age(db: Database, game_id: int, days: float) -> datetime:
    """Make a finished game `days` old; returns now."""
    now = datetime.now(UTC)
    async with db.writing() as connection:
        await connection.execute(
            update(keeping.GAMES)
            .where(keeping.GAMES.c.id == game_id)
            .values(finished_at=now - days * DAY)
        )
    return now


async def test_a_finished_game_past_retention_goes_with_everything_of_its_own(
    db: Database,
) -> None:
    """Retention (GAME_RETENTION_DAYS): a finished game older than it is removed with its
    action log, its boards and its scoreboard lines; a younger one, and a game still under
    way however old, stay."""
    service = SessionService(db)
    old = await finished_game(service, ALICE, BOB)
    young = await finished_game(service, ALICE, BOB)
    playing = (await started(service, ALICE, BOB, ai=1)).game
    await age(db, young.id, 89)
    now = await age(db, old.id, 91)
    async with db.writing() as connection:  # a game under way that began long ago
        await connection.execute(
            update(keeping.GAMES)
            .where(keeping.GAMES.c.id == playing.id)
            .values(updated_at=now - 400 * DAY)
        )
    swept = await keeping.sweep(db, now, RETENTION, 30 * DAY)
    assert swept == keeping.Swept(games=1, guilds=0, archived=1)  # the young one's log
    rows = await every_row(db)
    assert {g["id"] for g in rows["games"]} == {young.id, playing.id}
    for table in ("actions", "outbox", "results"):
        assert old.id not in {r["game_id"] for r in rows[table]}, table
    assert young.id in {r["game_id"] for r in rows["results"]}
    assert await keeping.sweep(db, now, RETENTION, 30 * DAY) == keeping.Swept(0, 0)


async def test_a_finished_game_is_archived_a_day_on_and_replays_the_same(db: Database) -> None:
    """A day after a game ends its action log and its boards' steps are folded into its row
    (its action and outbox rows go); its replay reads the same log from there."""
    service = SessionService(db)
    game = await finished_game(service, ALICE, BOB)
    _, before = await load_log(db, GUILD, game.id)
    now = datetime.now(UTC)
    assert await keeping.sweep(db, now + 23 * HOUR, RETENTION, 30 * DAY) == keeping.Swept(0, 0)
    swept = await keeping.sweep(db, now + 25 * HOUR, RETENTION, 30 * DAY)
    assert swept == keeping.Swept(0, 0, archived=1)
    rows = await every_row(db)
    assert rows["actions"] == [] and rows["outbox"] == []
    (kept,) = rows["games"]
    assert kept["archive"] is not None and len(kept["archive"]) < 4000
    _, after = await load_log(db, GUILD, game.id)
    assert after == before and len(before.actions) == game.step
    assert [frame.step for frame in rebuild(after)] == before.shown


async def test_a_departed_guild_goes_after_its_grace_and_one_that_returns_stays(
    db: Database,
) -> None:
    """A guild that removed the bot keeps its data for DEPARTED_GUILD_GRACE_DAYS, then all of
    it goes (games, results, ratings); added back in time, it keeps it."""
    service = SessionService(db)
    await finished_game(service, ALICE, BOB)
    now = datetime.now(UTC)
    await keeping.departed(db, GUILD, now - 29 * DAY)
    assert await keeping.sweep(db, now, RETENTION, 30 * DAY) == keeping.Swept(0, 0)
    await keeping.returned(db, GUILD)
    assert (await keeping.sweep(db, now + 2 * DAY, RETENTION, 30 * DAY)).guilds == 0
    await keeping.departed(db, GUILD, now - 31 * DAY)
    assert await keeping.sweep(db, now, RETENTION, 30 * DAY) == keeping.Swept(0, 1)
    rows = await every_row(db)
    assert {name: len(found) for name, found in rows.items() if found} == {}


async def test_forgetting_a_person_leaves_nothing_of_them_in_any_table(db: Database) -> None:
    """/privacy: a person removed is "a former player" in the games they played; their
    results stop counting, their ratings go, and no table holds their id or name. The
    others keep their games and standings."""
    service = SessionService(db)
    game = await finished_game(service, ZEB, ALICE)
    async with db.writing() as connection:  # the final board not shown yet: its lines name them
        newest = select(func.max(keeping.OUTBOX.c.id)).scalar_subquery()
        await connection.execute(
            update(keeping.OUTBOX).where(keeping.OUTBOX.c.id == newest).values(delivered_at=None)
        )
    kept = await keeping.kept_about(db, ZEB.user_id)
    assert (kept.games, kept.playing, kept.results, kept.guilds) == (1, [], 1, 1)
    assert kept.ratings == 2  # Rumble's and all games'
    assert mentions(await every_row(db), str(ZEB.user_id), ZEB.name) != []

    assert await keeping.forget_person(db, ZEB.user_id) == 1
    rows = await every_row(db)
    assert mentions(rows, str(ZEB.user_id), ZEB.name) == []
    seats = next(g["seats"] for g in rows["games"] if g["id"] == game.id)
    assert [s.name for s in seats][:2] == [keeping.FORMER_PLAYER, ALICE.name]
    assert {r["user_id"] for r in rows["ratings"]} == {ALICE.user_id}
    board = await service.scoreboard(GUILD, None)
    assert [line.user_id for line in board] == [ALICE.user_id]
    assert await keeping.kept_about(db, ZEB.user_id) == keeping.Kept(0, [], 0, 0, 0)


async def test_forgetting_waits_for_the_game_a_person_is_in(db: Database) -> None:
    """A person in a lobby or a game under way is told where and nothing is removed."""
    service = SessionService(db)
    await finished_game(service, ZEB, ALICE)
    await started(service, ZEB, BOB, ai=1)
    before = await every_row(db)
    with pytest.raises(keeping.StillPlaying) as refused:
        await keeping.forget_person(db, ZEB.user_id)
    assert refused.value.channel_id == CHANNEL
    assert await every_row(db) == before
    assert (await keeping.kept_about(db, ZEB.user_id)).playing == [CHANNEL]


async def test_a_delivered_board_keeps_only_what_is_read_again(db: Database) -> None:
    """Storage: once a board is shown, only the last one on the game's board message keeps
    its lines and layout (what the next edit and a clear read back); the others, and every
    board of a message replaced, keep nothing but their step (what a replay reads)."""
    service = SessionService(db)
    outbox = Outbox(db)
    game = await finished_game(service, ALICE, BOB)
    async with db.connected() as connection:
        entries = [
            dict(row)
            for row in (
                await connection.execute(
                    select(keeping.OUTBOX)
                    .where(keeping.OUTBOX.c.game_id == game.id)
                    .order_by(keeping.OUTBOX.c.id)
                )
            ).mappings()
        ]
    assert len(entries) >= 3 and all(e["payload"].get("view") for e in entries)
    layout = {"text": "a board", "files": ["board.png"]}
    first, second, third = [await pending_entry(db, e["id"]) for e in entries[:3]]
    await outbox.posted(first, 111, None, layout)
    await outbox.edited(second, 111, ["one", "two"], layout)
    await outbox.posted(third, 222, 111, layout)
    payloads = await payloads_of(db, [e["id"] for e in entries[:3]])
    assert payloads == [{}, {}, {"lines": entries[2]["payload"]["lines"], "layout": layout}]
    assert await outbox.lines_shown(game.id, 222) == entries[2]["payload"]["lines"]
    fresh = Outbox(db)  # after a restart: read back from the database
    assert await fresh.layout_of(game.id, 222) == layout


async def pending_entry(db: Database, entry_id: int) -> OutboxEntry:
    async with db.reading() as session:
        entry = await session.get(OutboxEntry, entry_id)
    assert entry is not None
    return entry


async def payloads_of(db: Database, ids: list[int]) -> list[Any]:
    async with db.connected() as connection:
        result = await connection.execute(
            select(keeping.OUTBOX.c.payload)
            .where(keeping.OUTBOX.c.id.in_(ids))
            .order_by(keeping.OUTBOX.c.id)
        )
        return [row[0] for row in result.all()]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_gives_the_space_of_removed_games_back(db: Database) -> None:
    """SQLite runs in incremental auto-vacuum, and a sweep that removed games leaves no free
    page in the file: the file shrinks instead of keeping the space for later."""
    service = SessionService(db)
    for _ in range(3):
        game = await finished_game(service, ALICE, BOB)
    now = await age(db, game.id, 200)
    for other in range(1, game.id):
        await age(db, other, 200)
    path = Path(db.sqlite_path or "")
    before = path.stat().st_size
    await keeping.sweep(db, now, RETENTION, 30 * DAY)
    async with db.connected() as connection:
        mode = (await connection.execute(text("PRAGMA auto_vacuum"))).scalar()
        free = (await connection.execute(text("PRAGMA freelist_count"))).scalar()
    assert mode == 2 and free == 0
    assert path.stat().st_size < before


async def test_an_older_sqlite_file_is_turned_to_incremental_vacuum_once(tmp_path: Path) -> None:
    """A file made before incremental vacuum (SQLite's default keeps freed pages) is
    rebuilt once at start-up, its rows kept, so sweeps can give space back from then on."""
    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as old:
        old.execute("CREATE TABLE notes (text TEXT)")
        old.execute("INSERT INTO notes VALUES ('kept')")
        old.commit()
        assert old.execute("PRAGMA auto_vacuum").fetchone() == (0,)
    db = Database(f"sqlite+aiosqlite:///{path}")
    try:
        await db.migrate()
    finally:
        await db.close()
    with contextlib.closing(sqlite3.connect(path)) as again:
        assert again.execute("PRAGMA auto_vacuum").fetchone() == (2,)
        assert again.execute("SELECT text FROM notes").fetchall() == [("kept",)]


def wal_file_before_incremental_vacuum(tmp_path: Path) -> Path:
    """A file in WAL mode, as the bot leaves every file, made before incremental vacuum."""
    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as old:
        old.execute("PRAGMA journal_mode=WAL")
        old.execute("CREATE TABLE notes (text TEXT)")
        old.commit()
    return path


async def test_a_start_up_waits_while_another_process_holds_the_file(tmp_path: Path) -> None:
    """Processes starting together on a file made before incremental vacuum: while another
    holds the write lock (as its own rebuild does), start-up waits for it to let go and
    then turns incremental vacuum on, instead of stopping with "database is locked"."""
    path = wal_file_before_incremental_vacuum(tmp_path)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    # The other process lets go a second later, long after a 20 ms wait gave up.
    letting_go = threading.Timer(1.0, other.execute, ("ROLLBACK",))
    letting_go.start()
    db = Database(f"sqlite+aiosqlite:///{path}")
    try:
        # The step of `migrate` that rebuilds the file: the schema's own step before it
        # waits for the lock by itself, and would hide the wait this test is about.
        await db._vacuum_incrementally()
    finally:
        letting_go.join()
        other.close()
        await db.close()
    with contextlib.closing(sqlite3.connect(path)) as again:
        assert again.execute("PRAGMA auto_vacuum").fetchone() == (2,)


async def test_a_file_locked_past_the_start_up_wait_stops_the_bot_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad setting or a stuck file stops the bot with one line naming it: a lock held
    past the start-up wait (0 s here, 60 s in the bot) names the file and the wait."""
    monkeypatch.setattr(database, "REBUILD_WAIT_S", 0)
    path = wal_file_before_incremental_vacuum(tmp_path)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            with pytest.raises(DatabaseUnusable) as refused:
                await db._vacuum_incrementally()
        finally:
            await db.close()
    assert str(refused.value) == (
        f"The SQLite file {path} stayed locked by another process for 0 s while the bot started."
    )

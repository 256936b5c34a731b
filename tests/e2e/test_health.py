"""`GET /healthz` (issues 12 and 57): 200 while the gateway is connected and the database
answers, 503 with the part that is down named otherwise, and what is wrong in words."""

from __future__ import annotations

import asyncio
import random
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.engine import make_url

from bot.client import TrashTableBot
from bot.database import Database
from bot.health import HealthServer
from bot.settings import async_database_url
from tests.e2e.conftest import Table
from tests.e2e.play import against_the_ai, turns_of
from tests.e2e.process import free_port, health
from tests.e2e.sqlite_faults import read_only, write_lock_held
from tests.postgres import Postgres


@asynccontextmanager
async def serving(bot: TrashTableBot, db: Database) -> AsyncIterator[int]:
    server = HealthServer(bot, db, "127.0.0.1", 0)
    await server.start()
    try:
        yield server.port
    finally:
        await server.stop()


async def health_of(bot: TrashTableBot, db: Database) -> tuple[int, dict[str, Any]]:
    """One `/healthz` answer for `bot` on `db`, a database of the test's own (closed after)."""
    try:
        async with serving(bot, db) as port:
            return await asyncio.to_thread(health, port)
    finally:
        await db.close()


async def test_healthy_while_connected_with_the_database_up(bot, table: Table) -> None:
    async with serving(bot, bot.db) as port:
        assert await asyncio.to_thread(health, port) == (
            200,
            {"gateway": "connected", "database": "ok", "games_running": 0},
        )
        await table.alice.slash("/rumble new", seed=3)
        await table.bob.click("Join")
        await table.carol.click("Join")
        await table.alice.click("Start")
        status, body = await asyncio.to_thread(health, port)
        assert (status, body["games_running"]) == (200, 1)


async def test_unhealthy_when_the_database_is_out_of_reach(bot) -> None:
    """A PostgreSQL server nobody listens for: connected to Discord, but not healthy."""
    nowhere = Database(f"postgresql+asyncpg://trash:secret@127.0.0.1:{free_port()}/trash")
    status, body = await health_of(bot, nowhere)
    assert status == 503
    assert body["gateway"] == "connected"
    # In words, with the system's own reason; no exception's name.
    assert body["database"] == "out of reach (Connection refused)", body
    assert "Error" not in body["database"]
    assert body["games_running"] is None


async def test_unhealthy_when_the_gateway_is_not_connected(make_bot) -> None:
    """A bot not (or no longer) connected to Discord is not healthy, database or not."""
    bot = make_bot()
    await bot.db.migrate()
    try:
        async with serving(bot, bot.db) as port:
            status, body = await asyncio.to_thread(health, port)
    finally:
        await bot.close()
    assert (status, body["gateway"], body["database"]) == (503, "disconnected", "ok")


async def test_unhealthy_while_another_process_holds_the_sqlite_write_lock(bot) -> None:
    """A backup or an admin's shell holding the file's write lock: the probe says so at
    once (it never waits on the lock, nor makes the bot wait), and 200 once it is let go."""
    path = bot.db.sqlite_path
    if path is None:
        pytest.skip("SQLite's own lock")
    async with serving(bot, bot.db) as port:
        async with write_lock_held(path):
            status, body = await asyncio.to_thread(health, port)
            assert status == 503
            assert body["database"] == "locked by another process (database is locked)"
        assert await asyncio.to_thread(health, port) == (
            200,
            {"gateway": "connected", "database": "ok", "games_running": 0},
        )


async def test_unhealthy_while_the_sqlite_file_is_read_only(bot) -> None:
    """A file that takes no writes (its mode changed, a full or read-only mount): 503
    naming SQLite's own reason, and 200 once it can be written again."""
    path = bot.db.sqlite_path
    if path is None:
        pytest.skip("a SQLite file")
    async with serving(bot, bot.db) as port:
        with read_only(path):
            status, body = await asyncio.to_thread(health, port)
        assert status == 503
        assert body["database"] == "cannot be written (attempt to write a readonly database)"
        assert await asyncio.to_thread(health, port) == (
            200,
            {"gateway": "connected", "database": "ok", "games_running": 0},
        )


async def test_unhealthy_while_postgresql_is_read_only(bot, postgres: Postgres) -> None:
    """A database that takes no writes (a standby, or read-only by setting) is not healthy
    however well it answers reads, and the body says why."""
    url = postgres.create_database()
    read_only = Database(async_database_url(url))
    await read_only.migrate()
    postgres.psql(
        f'ALTER DATABASE "{make_url(url).database}" SET default_transaction_read_only = on'
    )
    await read_only.close()  # the setting holds for new connections
    status, body = await health_of(bot, read_only)
    assert status == 503
    assert body["database"].startswith("cannot be written ("), body
    assert "read-only transaction" in body["database"], body


def scraped(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """GET /metrics, parsed: each sample's value by its name and labels (a blocking call)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = answer.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_count_a_game_and_its_presses(bot, table: Table, fake_discord) -> None:
    """Scraped over HTTP during a game against the AI: the game started, alice's presses
    and the AI's decisions counted and timed, the game under way once the database is
    read, the boards delivered; no guild, channel or user in any label."""
    server = HealthServer(bot, bot.db, "127.0.0.1", 0, bot.metrics, bot.sessions.shards)
    await server.start()
    try:
        await against_the_ai(table.alice, seed=3)
        await turns_of(table.alice, random.Random(3), most=3)
        await bot.metrics.refresh(bot.db, bot.sessions.shards)  # as the sampler does
        metrics = await asyncio.to_thread(scraped, server.port)
    finally:
        await server.stop()
    rumble = (("game", "rumble"),)
    assert metrics[("trashtable_games_started_total", rumble)] == 1
    assert metrics[("trashtable_presses_total", rumble)] >= 1
    assert metrics[("trashtable_press_seconds_count", rumble)] >= 1
    assert metrics[("trashtable_games_playing", rumble)] == 1
    assert metrics[("trashtable_boards_delivered_total", ())] >= 2
    assert metrics[("trashtable_ai_decision_seconds_count", (*rumble, ("level", "normal")))] >= 1
    assert ("trashtable_worker_queue_depth", ()) in metrics
    assert ("trashtable_outbox_oldest_seconds", ()) in metrics
    labels = {name for _, pairs in metrics for name, _ in pairs}
    assert not labels & {"guild", "guild_id", "channel", "channel_id", "user", "user_id"}

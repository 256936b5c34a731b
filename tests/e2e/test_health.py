"""`GET /healthz` (issue 12): 200 while the gateway is connected and the database answers,
503 with the part that is down named otherwise."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.client import TrashTableBot
from bot.database import Database
from bot.health import HealthServer
from tests.e2e.conftest import Table
from tests.e2e.process import free_port, health


@asynccontextmanager
async def serving(bot: TrashTableBot, db: Database) -> AsyncIterator[int]:
    server = HealthServer(bot, db, "127.0.0.1", 0)
    await server.start()
    try:
        yield server.port
    finally:
        await server.stop()


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
    try:
        async with serving(bot, nowhere) as port:
            status, body = await asyncio.to_thread(health, port)
    finally:
        await nowhere.close()
    assert status == 503
    assert body["gateway"] == "connected"
    assert body["database"] not in ("ok", "")
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

"""Fixtures shared by the session-service tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.database import Database
from bot.settings import async_database_url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A migrated database, SQLite or PostgreSQL (`database_url` runs a test on both)."""
    database = Database(async_database_url(database_url))
    await database.migrate()
    yield database
    await database.close()

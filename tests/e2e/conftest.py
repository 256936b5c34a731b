"""The real bot (real cogs, a real database) connected to the fake Discord.

Every test that runs the bot runs twice: on a SQLite file and on a real PostgreSQL database
(the `database_url` fixture of tests/postgres.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import store
from bot.client import TrashTableBot
from bot.outbox import Outbox
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, FakeUser, running_bot


def bot_settings(fake: FakeDiscord, database_url: str) -> Settings:
    return Settings(
        discord_token=fake.token,
        database_url=database_url,
        discord_api_base=fake.api_base,
        _env_file=None,
    )


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A SQLite file, for a test that must look at the file itself."""
    return tmp_path / "games.db"


@pytest.fixture
def make_bot(fake_discord: FakeDiscord, database_url: str) -> Callable[[], TrashTableBot]:
    def make() -> TrashTableBot:
        return TrashTableBot(bot_settings(fake_discord, database_url), guild_ready_timeout=0.1)

    return make


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord, make_bot, table) -> AsyncIterator[TrashTableBot]:
    # `table` first: its members are in the guild the bot receives on connecting.
    async with running_bot(fake_discord, make_bot()) as client:
        yield client


class Table:
    """The test's users: three players, a stranger and a moderator."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.alice: FakeUser = fake.user("alice")
        self.bob: FakeUser = fake.user("bob")
        self.carol: FakeUser = fake.user("carol")
        self.stranger: FakeUser = fake.user("stranger")
        self.mod: FakeUser = fake.user("mod", manage_channels=True)

    @property
    def players(self) -> list[FakeUser]:
        return [self.alice, self.bob, self.carol]

    def by_id(self, user_id: int) -> FakeUser:
        return next(u for u in self.fake.users if u.id == user_id)


@pytest.fixture
def table(fake_discord: FakeDiscord) -> Table:
    return Table(fake_discord)


@pytest.fixture
def delivered(monkeypatch: pytest.MonkeyPatch) -> dict[int, dict[str, Any]]:
    """The whole payload each board message was last shown with, by message id. Once a
    board is shown the outbox keeps only what it reads again (bot/outbox.py), so a test
    that checks a board against its public view takes the payload on its way out."""
    seen: dict[int, dict[str, Any]] = {}
    posted, edited = Outbox.posted, Outbox.edited

    async def posted_and_seen(outbox: Outbox, entry: Any, message_id: int, *rest: Any) -> None:
        seen[message_id] = dict(entry.payload)
        await posted(outbox, entry, message_id, *rest)

    async def edited_and_seen(outbox: Outbox, entry: Any, message_id: int, *rest: Any) -> None:
        seen[message_id] = dict(entry.payload)
        await edited(outbox, entry, message_id, *rest)

    monkeypatch.setattr(Outbox, "posted", posted_and_seen)
    monkeypatch.setattr(Outbox, "edited", edited_and_seen)
    return seen


@pytest.fixture
def recorded_views(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int, int], Any]:
    """The public view each board entry was recorded with, by (game id, step): what the
    channel was shown, as the outbox held it before the board went out."""
    views: dict[tuple[int, int], Any] = {}
    record = store.record_board

    async def record_and_keep(
        connection: Any, game: Any, engine: Any, state: Any, *rest: Any, **named: Any
    ) -> bool:
        views[(game.id, game.step)] = engine.observe(state, None)
        return await record(connection, game, engine, state, *rest, **named)

    monkeypatch.setattr(store, "record_board", record_and_keep)
    return views

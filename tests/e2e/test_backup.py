"""Backups (issue 37): the README's backups, taken while the bot plays (SQLite's online
backup, PostgreSQL's pg_dump), restore to a database a new bot plays on from."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.client import TrashTableBot
from tests.e2e.conftest import Table, bot_settings
from tests.e2e.play import against_the_ai, turns_of
from tests.fakediscord import FakeDiscord, running_bot
from tests.postgres import Postgres


def online_backup(source: Path, target: Path) -> None:
    """What the README's `sqlite3 games.db ".backup backup.db"` does: SQLite's backup API,
    which copies a consistent snapshot while others write."""
    with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
        live.backup(copy)
    copy.close()


def sqlite_backup(tmp_path: Path) -> tuple[str, Callable[[], str]]:
    """A SQLite file, and how to back it up and restore it (the restored file's URL)."""
    live, restored = tmp_path / "games.db", tmp_path / "restored.db"

    def backup() -> str:
        online_backup(live, restored)
        return f"sqlite:///{restored}"

    return f"sqlite:///{live}", backup


def postgres_backup(server: Postgres, tmp_path: Path) -> tuple[str, Callable[[], str]]:
    """A PostgreSQL database, and how to back it up (pg_dump) and restore it (pg_restore
    into a new database, whose URL it returns)."""
    live, dump = server.create_database(), tmp_path / "backup.dump"

    def backup() -> str:
        run = [server.tool("pg_dump"), "--format=custom", f"--file={dump}", live]
        subprocess.run(run, check=True, capture_output=True, timeout=60)
        restored = server.create_database()
        run = [server.tool("pg_restore"), f"--dbname={restored}", str(dump)]
        subprocess.run(run, check=True, capture_output=True, timeout=60)
        return restored

    return live, backup


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_backup_taken_mid_game_restores_and_the_game_plays_on(
    fake_discord: FakeDiscord,
    table: Table,
    tmp_path: Path,
    kind: str,
    request: pytest.FixtureRequest,
) -> None:
    """A game under way is backed up while the bot runs; the bot is stopped, a new one
    started on the restored copy, and the game goes on from where the backup left it."""
    fake, alice = fake_discord, table.alice
    if kind == "sqlite":
        live, backup = sqlite_backup(tmp_path)
    else:
        live, backup = postgres_backup(request.getfixturevalue("postgres"), tmp_path)
    rng = random.Random(3)
    first = TrashTableBot(bot_settings(fake, live), guild_ready_timeout=0.1)
    async with running_bot(fake, first):
        await against_the_ai(alice, seed=7)
        await turns_of(alice, rng, 3)
        await fake.settle()
        game = await first.sessions.current(fake.channel.id)
        assert game is not None and game.step > 0
        restored = await asyncio.to_thread(backup)  # while the bot runs
    second = TrashTableBot(bot_settings(fake, restored), guild_ready_timeout=0.1)
    async with running_bot(fake, second):
        resumed = await second.sessions.current(fake.channel.id)
        assert resumed is not None and (resumed.id, resumed.step) == (game.id, game.step)
        await turns_of(alice, rng, 3)  # after the backup's, on the buttons already posted
        await fake.settle()
        later = await second.sessions.current(fake.channel.id)
        assert later is None or later.step > resumed.step, "the game went on"

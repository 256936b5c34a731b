"""Backups (issue 37): the README's online backup of a SQLite file, taken while the bot
plays, restores to a database a new bot process plays on from."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from bot.client import TrashTableBot
from tests.e2e.conftest import Table, bot_settings
from tests.e2e.play import (
    is_over,
    latest_board,
    next_board,
    take_turn,
    turn_user_id,
)
from tests.fakediscord import FakeDiscord, running_bot


def online_backup(source: Path, target: Path) -> None:
    """What the README's `sqlite3 games.db ".backup backup.db"` does: SQLite's backup API,
    which copies a consistent snapshot while others write."""
    with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
        live.backup(copy)
    copy.close()


async def test_a_backup_taken_mid_game_restores_and_the_game_plays_on(
    fake_discord: FakeDiscord, table: Table, tmp_path: Path
) -> None:
    """A game under way is backed up while the bot runs; the bot is stopped, a new one
    started on the restored copy, and the game goes on from where the backup left it."""
    fake, alice = fake_discord, table.alice
    live, restored = tmp_path / "games.db", tmp_path / "restored.db"
    rng = random.Random(3)
    first = TrashTableBot(bot_settings(fake, f"sqlite:///{live}"), guild_ready_timeout=0.1)
    async with running_bot(fake, first):
        await alice.slash("/rumble new", seed=7)
        await alice.click("Add AI player")
        await alice.click("Start")
        await next_board(fake, 0)
        for _ in range(3):
            board = latest_board(fake)
            if is_over(board) or turn_user_id(board) != alice.id:
                break
            await take_turn(alice, board, rng)
        await fake.settle()
        game = await first.sessions.current(fake.channel.id)
        assert game is not None and game.step > 0
        await asyncio.to_thread(online_backup, live, restored)
    second = TrashTableBot(bot_settings(fake, f"sqlite:///{restored}"), guild_ready_timeout=0.1)
    async with running_bot(fake, second):
        resumed = await second.sessions.current(fake.channel.id)
        assert resumed is not None and (resumed.id, resumed.step) == (game.id, game.step)
        for _ in range(3):  # the turns after the backup's, on the buttons already posted
            board = latest_board(fake)
            if is_over(board) or turn_user_id(board) != alice.id:
                break
            await take_turn(alice, board, rng)
        await fake.settle()
        later = await second.sessions.current(fake.channel.id)
        assert later is None or later.step > resumed.step, "the game went on"

"""A restart at any moment loses nothing (issue 2): the bot process is killed with SIGKILL in
the middle of a game, started again, and the players finish the game by pressing the buttons
that were already in the channel."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import Table
from tests.e2e.play import latest_board, next_board, play_to_the_end, take_turn, turn_user_id
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def start_process(fake: FakeDiscord, database: str | Path) -> asyncio.subprocess.Process:
    """`python -m bot`, configured like an admin would, pointed at the fake Discord.
    `database` is a database URL, or the path of a SQLite file."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": database if isinstance(database, str) else f"sqlite:///{database}",
        "DISCORD_API_BASE": fake.api_base,
        "LOG_LEVEL": "WARNING",
    }
    syncs = fake.state.command_syncs
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL
    )
    await fake.wait_for(
        lambda: fake.gateway.connected and fake.state.command_syncs > syncs,
        timeout=60,
        what="the bot process to connect and sync its commands",
    )
    await asyncio.sleep(2.5)  # discord.py waits for its guilds before it reports ready
    await fake.settle()
    return process


async def kill(process: asyncio.subprocess.Process, fake: FakeDiscord) -> None:
    # A process the test already killed (at a kill point) may be reaped by now.
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    await process.wait()
    await fake.wait_disconnected()


# SQLite only, to keep the suite short: the same kill and restart on PostgreSQL is
# tests/e2e/test_shards.py's (two processes, one killed with SIGKILL mid-game).
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_killed_bot_resumes_and_old_buttons_still_work(
    fake_discord: FakeDiscord, table: Table, database_url: str
) -> None:
    process = await start_process(fake_discord, database_url)
    try:
        await table.alice.slash("/rumble new", seed=21)
        await table.bob.click("Join")
        await table.carol.click("Join")
        await table.alice.click("Start")
        await next_board(fake_discord, 0)
        players = {u.id: u for u in table.players}
        rng = random.Random(3)
        for _ in range(12):
            board = latest_board(fake_discord)
            await take_turn(players[turn_user_id(board)], board, rng)
        before = latest_board(fake_discord)

        await kill(process, fake_discord)
        process = await start_process(fake_discord, database_url)

        # Nothing new was posted on start-up: the next press is on a board from before.
        assert latest_board(fake_discord).id == before.id
        assert before.selects, "the board posted before the restart still has its controls"
        shown_before = len(before.versions)
        await take_turn(players[turn_user_id(before)], before, rng)
        # The press's move shows: on a new board, or on the same one while the turn goes on.
        assert latest_board(fake_discord).id != before.id or len(before.versions) > shown_before

        final = await play_to_the_end(fake_discord, players, rng)
        assert "final:" in final.text
        history = await table.alice.slash("/history")
        assert "Rumble in the Dungeon" in str(history.public[0].embeds)
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()
        await fake_discord.wait_disconnected()

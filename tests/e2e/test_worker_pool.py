"""The worker pool end to end (issue 16): a whole game with the pictures and the AI in
worker processes, through the fake Discord, past a worker killed mid-game."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

from bot.client import TrashTableBot
from tests.e2e.conftest import Table, bot_settings
from tests.e2e.test_trashwar_game import open_war
from tests.e2e.trashwar_play import battlefields, play_to_the_end, take_turn, turn_user_id
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_war_on_the_worker_pool_plays_on_past_a_killed_worker(
    fake_discord: FakeDiscord, table: Table, database: Path
) -> None:
    """Issue 16: with WORKERS=2 three users and an AI play a whole Trash War (boards, hands
    and the AI's picks in the workers); a worker killed as the OOM killer would is replaced
    and the next press still gets its reply and its board."""
    settings = bot_settings(fake_discord, f"sqlite:///{database}").model_copy(update={"workers": 2})
    bot = TrashTableBot(settings, guild_ready_timeout=0.1)
    async with running_bot(fake_discord, bot):
        assert len(bot.workers.pids()) == 2, "the workers start with the bot"
        await open_war(table, seed=12)
        players = {u.id: u for u in table.players}
        rng = random.Random(4)
        for _ in range(3):
            board = battlefields(fake_discord)[-1]
            await take_turn(players[turn_user_id(board)], board, rng)

        os.kill(bot.workers.pids()[0], signal.SIGKILL)
        await fake_discord.settle()
        board = battlefields(fake_discord)[-1]
        seen = len(battlefields(fake_discord))
        await take_turn(players[turn_user_id(board)], board, rng)
        await fake_discord.wait_for(
            lambda: len(battlefields(fake_discord)) > seen, timeout=30, what="the next board"
        )
        # The press's jobs may be answered by the other worker before the new process is up.
        await fake_discord.wait_for(
            lambda: bot.workers.replaced >= 1, timeout=30, what="the dead worker replaced"
        )
        assert bot.workers.replaced == 1

        final = await play_to_the_end(fake_discord, players, rng)
        assert "The game is over" in final.text

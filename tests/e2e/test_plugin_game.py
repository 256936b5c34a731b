"""A game is a plug-in: Last Lid, a game that lives only in tests/plugin_game, is loaded with
EXTRA_EXTENSIONS and played through the fake Discord from `/lastlid new` to its result,
with no edit to any shared module. Its `/lastlid new` options, lobby, board, controls,
`/rules` pages, AI seat and scoreboard all come from the plug-in's declarations."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.client import TrashTableBot
from tests.e2e.conftest import Table, bot_settings
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.plugin_game.rules import LAST_LID


@pytest_asyncio.fixture
async def plugin_bot(
    fake_discord: FakeDiscord, database_url: str, table: Table
) -> AsyncIterator[TrashTableBot]:
    settings = bot_settings(fake_discord, database_url).model_copy(
        update={"extra_extensions": ("tests.plugin_game",)}
    )
    async with running_bot(fake_discord, TrashTableBot(settings, guild_ready_timeout=0.1)) as bot:
        yield bot


def piles(fake: FakeDiscord) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages()
        if not m.ephemeral and any(a.filename == "pile.png" for a in m.attachments)
    ]


async def test_a_game_from_outside_the_shared_code_plays_from_lobby_to_result(
    plugin_bot: TrashTableBot, table: Table, fake_discord: FakeDiscord
) -> None:
    # A value only a forged request could send (Discord's client checks the range).
    refused = await table.alice.slash("/lastlid new", raw={"lids": 99})
    assert "`lids` must be a whole number from 3 to 15" in refused.ephemeral_text

    opened = await table.alice.slash("/lastlid new", lids=5, most="3", seed=4)
    (lobby,) = opened.created
    assert "Last Lid" in lobby.text
    assert "lids: 5" in lobby.text and "most: up to three" in lobby.text
    await table.bob.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    await table.alice.click("Start")

    players = {table.alice.id: table.alice, table.bob.id: table.bob}
    for _ in range(20):
        await fake_discord.wait_for(lambda: piles(fake_discord), timeout=20, what="a board")
        board = piles(fake_discord)[-1]
        if "The game is over" in board.text:
            break
        (mention,) = [uid for uid in players if f"<@{uid}>" in board.text]
        before = len(piles(fake_discord))
        take = board.buttons[0].label  # "Take 1 lid": the game ends whatever is taken
        assert take.startswith("Take ")
        pressed = await players[mention].press(board, take)
        assert not pressed.ephemeral_text, pressed.ephemeral_text
        await fake_discord.wait_for(
            lambda b=before: len(piles(fake_discord)) > b, timeout=20, what="the next board"
        )
    else:
        raise AssertionError("Last Lid did not end")

    ((game, results),) = await plugin_bot.sessions.history(fake_discord.guild.id)
    assert game.kind == LAST_LID.key and [r.rank for r in results].count(0) == 1
    (scores,) = (await table.alice.slash("/scoreboard", game="lastlid")).created
    assert "Scoreboard · Last Lid" in scores.text and "Alice" in scores.text

    rules = await table.alice.slash("/rules", game="lastlid")
    assert "Last Lid · How to play" in rules.ephemeral_text

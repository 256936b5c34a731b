"""Start-up with Discord out of reach (issue 12): the real `python -m bot` is pointed at a
port where nothing listens yet; it tries again with growing pauses, one line each and no
traceback, answers /healthz with 503 meanwhile, and connects once Discord is there."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.process import STOP_PROMISE, BotProcess, free_port, health
from tests.fakediscord import FakeDiscord


async def test_discord_out_of_reach_at_start_is_tried_again(tmp_path: Path) -> None:
    fake = FakeDiscord(port=free_port())  # not started yet: the port is closed
    health_port = free_port()
    bot = await BotProcess.start(
        fake, tmp_path / "games.db", tmp_path / "bot.log", HEALTH_PORT=str(health_port)
    )
    try:
        await bot.wait_for_log("Discord is out of reach", count=2)
        status, body = await asyncio.to_thread(health, health_port)
        assert (status, body["gateway"], body["database"]) == (503, "disconnected", "ok")

        await fake.start()
        await bot.connected(fake, 0)
        status, body = await asyncio.to_thread(health, health_port)
        assert (status, body["gateway"]) == (200, "connected")

        bot.signal()
        assert await bot.exit_code(timeout=STOP_PROMISE) == 0
        await fake.wait_disconnected()
        text = bot.text()
        assert "Traceback" not in text
        assert "trying again in 1 s" in text and "trying again in 2 s" in text
        assert fake.problems() == []
    finally:
        await bot.end()
        await fake.stop()


async def test_a_refused_token_stops_at_once_with_one_line(fake_discord, tmp_path: Path) -> None:
    """Discord refusing the token is not a network problem: no retry, one line, exit 1."""
    log = tmp_path / "bot.log"
    bot = await BotProcess.start(
        fake_discord, tmp_path / "games.db", log, DISCORD_TOKEN="not.the.token"
    )
    try:
        assert await bot.exit_code(timeout=60) == 1
    finally:
        await bot.end()
    text = bot.text()
    assert "Setting DISCORD_TOKEN is invalid: Discord refused it" in text
    assert "Traceback" not in text and "out of reach" not in text

"""Start-up and stop (issue 12): Discord out of reach is tried again with growing pauses, one
log line each; a token Discord refuses stops the bot at once; a stop has a hard deadline."""

from __future__ import annotations

import asyncio
import itertools
import logging
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot import client
from bot.client import backoff, start
from bot.settings import Settings


class FakeLogin:
    """A bot whose login fails with the given errors, in turn, then succeeds."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.logins = 0
        self.connected = False
        self.http = SimpleNamespace(close=self._close_http, connector=None)

    async def _close_http(self) -> None:
        pass

    async def login(self, token: str) -> None:
        self.logins += 1
        if self.failures:
            raise self.failures.pop(0)

    async def connect(self) -> None:
        self.connected = True


def refused() -> aiohttp.ClientConnectorError:
    key = SimpleNamespace(host="discord.com", port=443, ssl=True)
    return aiohttp.ClientConnectorError(key, ConnectionRefusedError(111, "Connection refused"))


def server_error() -> discord.DiscordServerError:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    return discord.DiscordServerError(response, "upstream connect error")


def test_the_pauses_double_up_to_a_minute() -> None:
    assert list(itertools.islice(backoff(), 9)) == [1, 2, 4, 8, 16, 32, 60, 60, 60]


async def test_discord_out_of_reach_is_tried_again_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = FakeLogin(refused(), server_error(), refused())
    with caplog.at_level(logging.WARNING, logger="bot.client"):
        await start(bot, "token", delays=iter([0, 0, 0, 0]))  # type: ignore[arg-type]
    assert bot.logins == 4 and bot.connected
    lines = [r for r in caplog.records if r.name == "bot.client"]
    assert len(lines) == 3
    assert all("Discord is out of reach" in r.getMessage() and not r.exc_info for r in lines)


async def test_a_refused_token_is_not_tried_again() -> None:
    bot = FakeLogin(discord.LoginFailure("Improper token has been passed."))
    with pytest.raises(discord.LoginFailure):
        await start(bot, "token", delays=iter([0, 0, 0]))  # type: ignore[arg-type]
    assert bot.logins == 1 and not bot.connected


def test_the_health_port_is_off_unless_set() -> None:
    """HEALTH_PORT: empty or 0 turns the endpoint off (the default)."""
    base = {"discord_token": "x", "_env_file": None}
    assert Settings(**base).health_port is None  # type: ignore[arg-type]
    assert Settings(**base, health_port="").health_port is None  # type: ignore[arg-type]
    assert Settings(**base, health_port="0").health_port is None  # type: ignore[arg-type]
    assert Settings(**base, health_port="8080").health_port == 8080  # type: ignore[arg-type]


async def test_a_stop_that_overruns_its_deadline_gives_up_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The stop has a hard deadline: a request that never finishes is left behind with a
    warning line (every action is already committed), and the bot still stops."""
    never = asyncio.Event()
    sessions = SimpleNamespace(in_flight=1, begin_stop=lambda: None, wait_idle=never.wait)
    closed: list[bool] = []

    async def close() -> None:
        closed.append(True)

    bot = SimpleNamespace(sessions=sessions, close=close)
    running = asyncio.create_task(asyncio.Event().wait())  # the connected bot
    monkeypatch.setattr(client, "STOP_DEADLINE", 0.2)
    monkeypatch.setattr(client, "start_watchdog", lambda: None)  # would end pytest itself
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await client.stop_cleanly(bot, running)  # type: ignore[arg-type]
    assert running.cancelled()
    assert not closed
    messages = [r.getMessage() for r in caplog.records if r.name == "bot.client"]
    assert messages[0].startswith("stopping: new presses are refused")
    assert any(m.startswith("stopping: still busy after 0.2 s") for m in messages)
    assert messages[-1].startswith("stopped in")

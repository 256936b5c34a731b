"""The poster's retries (cogs/shared/poster.py): a failure is tried again, a refused token
is not (Discord counts every 401 against the bot)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.shared import poster as poster_module
from cogs.shared.drawing import Drawer
from cogs.shared.poster import Poster


def refusal(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"message": f"{status}", "code": 0})


class Attempts:
    """`_deliver_pending` failing with the given errors, in turn, then delivering."""

    def __init__(self, *errors: Exception) -> None:
        self.errors, self.count = list(errors), 0

    async def __call__(self, channel_id: int) -> None:
        self.count += 1
        if self.errors:
            raise self.errors.pop(0)


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(poster_module.asyncio, "sleep", sleep)
    return slept


class Client:
    """What the poster reads of the bot (the permissions registry keeps it weakly)."""

    sessions = SimpleNamespace(outbox=None)


def poster_with(attempts: Attempts) -> Poster:
    client: Any = Client()
    poster = Poster(client, Drawer(client))
    poster._deliver_pending = attempts  # type: ignore[method-assign]
    return poster


async def test_a_server_error_is_tried_again_with_backoff(pauses: list[float]) -> None:
    attempts = Attempts(refusal(503), refusal(500))
    await poster_with(attempts)._deliver_channel(1)
    assert (attempts.count, pauses) == (3, [1.0, 2.0])


async def test_a_refused_token_is_tried_once(pauses: list[float]) -> None:
    attempts = Attempts(refusal(401))
    await poster_with(attempts)._deliver_channel(1)
    assert (attempts.count, pauses) == (1, [])

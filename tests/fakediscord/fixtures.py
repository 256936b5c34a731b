"""pytest fixtures for the fake Discord.

Use from a conftest or test module::

    pytest_plugins = ["tests.fakediscord.fixtures"]      # gives the `fake_discord` fixture

or build a configured one::

    from tests.fakediscord.fixtures import fake_discord_fixture
    fake_discord = fake_discord_fixture(settle_quiet=0.3)

The fixture yields a started :class:`FakeDiscord` and fails the test at teardown when
the fake recorded violations, unexpected requests or unfinished interactions. Make
fixtures that run the bot depend on ``fake_discord`` so the bot stops first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from .driver import FakeDiscord


def fake_discord_fixture(**options: Any) -> Callable[..., Any]:
    """A ``fake_discord``-style fixture whose FakeDiscord gets ``options``."""

    @pytest_asyncio.fixture
    async def fixture() -> AsyncIterator[FakeDiscord]:
        fake = FakeDiscord(**options)
        await fake.start()
        problems: list[str] = []
        try:
            yield fake
            problems = fake.problems()
            if fake.gateway.connected:
                problems.append(
                    "[bot-still-connected] close the bot before the fake stops "
                    "(otherwise discord.py keeps reconnecting to a dead server)"
                )
        finally:
            await fake.stop()
        if problems:
            pytest.fail("fake Discord saw problems:\n  " + "\n  ".join(problems), pytrace=False)

    return fixture


fake_discord = fake_discord_fixture()

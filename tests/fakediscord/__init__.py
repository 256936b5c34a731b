"""A protocol-level fake of Discord (REST API v10 + gateway) for end-to-end tests.

See README.md in this folder. Typical use::

    async with FakeDiscord() as fake:
        alice = fake.user("alice")
        async with running_bot(fake, make_bot()):
            result = await alice.slash("/rumble new", seed=3)
"""

from .botrunner import discord_py_pointed_at, running_bot, start_bot, stop_bot
from .clock import FakeClock
from .driver import FakeDiscord, FakeUser, InteractionResult, SettleTimeout
from .guilds import FakeGuild
from .interactions import ModalView
from .ratelimits import Limit, RateLimitHit, RateLimits
from .state import Attachment, Component, FakeDiscordError, FakeMessage, Violation

__all__ = [
    "Attachment",
    "Component",
    "FakeClock",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMessage",
    "FakeUser",
    "InteractionResult",
    "Limit",
    "ModalView",
    "RateLimitHit",
    "RateLimits",
    "SettleTimeout",
    "Violation",
    "discord_py_pointed_at",
    "running_bot",
    "start_bot",
    "stop_bot",
]

"""The bot process: one discord.py client holding the settings, database and sessions."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.database import Database
from bot.sessions import SessionService
from bot.settings import DEFAULT_API_BASE, Settings

log = logging.getLogger(__name__)

COGS = (
    "cogs.table",
    "cogs.rumble",
    "cogs.trashwar",
    "cogs.brawl",
    "cogs.toss",
    "cogs.scores",
    "cogs.guide",
)


def point_at_api(base: str) -> None:
    """Talk to the Discord REST API at `base` (Discord itself unless a test says otherwise)."""
    discord.http.Route.BASE = base


class TrashTableBot(commands.Bot):
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no message content is ever read
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            **client_options,
        )
        self.settings = settings
        self.db = Database(settings.database_url)
        self.sessions = SessionService(self.db)
        self.synced = asyncio.Event()

    async def setup_hook(self) -> None:
        point_at_api(self.settings.discord_api_base)
        if self.settings.discord_api_base != DEFAULT_API_BASE:
            # discord.py dials Discord's own gateway unless told otherwise; take the address
            # from the API we were pointed at instead.
            _shards, url, _limits = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.db.wait_until_reachable()
        await self.db.migrate()
        for cog in COGS:
            await self.load_extension(cog)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.synced.set()
        log.info("commands synced; %d cogs loaded", len(self.cogs))

    async def close(self) -> None:
        await super().close()
        await self.db.close()


async def run(settings: Settings) -> None:
    point_at_api(settings.discord_api_base)
    bot = TrashTableBot(settings)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())

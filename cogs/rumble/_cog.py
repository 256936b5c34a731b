"""`/rumble new`: open a lobby for Rumble in the Dungeon in this channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.lobby import open_lobby
from cogs.shared.options import SEED, TIMER
from rules.rumble import LAYOUT_CHOICES

if TYPE_CHECKING:
    from bot.client import TrashTableBot


class RumbleCog(commands.Cog):
    rumble = app_commands.Group(name="rumble", description="Rumble in the Dungeon", guild_only=True)

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    @rumble.command(name="new", description="Open a Rumble in the Dungeon lobby in this channel")
    @app_commands.describe(
        layout="The dungeon: drawn at random, or one of the fixed layouts",
        timer="Minutes per decision before the AI plays it (0 = off)",
        seed="Makes the game reproducible, for bug reports",
    )
    @app_commands.choices(
        layout=[app_commands.Choice(name=name, value=name) for name in LAYOUT_CHOICES]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        layout: str | None = None,
        timer: app_commands.Transform[int, TIMER] | None = None,
        seed: app_commands.Transform[int, SEED] | None = None,
    ) -> None:
        options = {"layout": layout} if layout else {}
        await open_lobby(interaction, "rumble", options, seed=seed, timer=timer)

"""`/trashwar new`: open a Trash War lobby in this channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.lobby import open_lobby
from cogs.shared.options import SEED, TIMER

if TYPE_CHECKING:
    from bot.client import TrashTableBot


class TrashWarCog(commands.Cog):
    trashwar = app_commands.Group(name="trashwar", description="Trash War", guild_only=True)

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    @trashwar.command(name="new", description="Open a Trash War lobby in this channel")
    @app_commands.describe(
        timer="Minutes per decision before the AI plays it (0 = off)",
        seed="Makes the game reproducible, for bug reports",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        timer: app_commands.Transform[int, TIMER] | None = None,
        seed: app_commands.Transform[int, SEED] | None = None,
    ) -> None:
        await open_lobby(interaction, "trashwar", {}, seed=seed, timer=timer)

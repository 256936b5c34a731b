"""`/toss new`: open a Toss It in the Trash lobby in this channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.lobby import open_lobby
from cogs.shared.options import SEED, TIMER

if TYPE_CHECKING:
    from bot.client import TrashTableBot

WOBBLES = {
    "steady": "Steady hands (the piece lands where you aim)",
    "house": "House wobble (a little shake)",
    "shaky": "Shaky hands (a lot of shake)",
}


class TossCog(commands.Cog):
    toss = app_commands.Group(name="toss", description="Toss It in the Trash", guild_only=True)

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    @toss.command(name="new", description="Open a Toss It in the Trash lobby in this channel")
    @app_commands.describe(
        wobble="How unsteady the hand that drops the garbage is",
        timer="Minutes per decision before the AI plays it (0 = off)",
        seed="Makes the game reproducible, for bug reports",
    )
    @app_commands.choices(
        wobble=[app_commands.Choice(name=name, value=key) for key, name in WOBBLES.items()]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        wobble: str | None = None,
        timer: app_commands.Transform[int, TIMER] | None = None,
        seed: app_commands.Transform[int, SEED] | None = None,
    ) -> None:
        options = {"wobble": wobble} if wobble else {}
        await open_lobby(interaction, "toss", options, seed=seed, timer=timer)

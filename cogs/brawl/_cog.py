"""`/brawl new`: open a Dumpster Brawl! lobby in this channel. Characters are picked in the
lobby itself, each player their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.shared.lobby import open_lobby
from cogs.shared.options import SEED, TIMER, WholeNumber

if TYPE_CHECKING:
    from bot.client import TrashTableBot

MODES = {
    "round-rummage": "Round Rummage",
    "king-of-the-heap": "King of the Heap",
    "rummy": "Round Rummage Rummy",
}


class BrawlCog(commands.Cog):
    brawl = app_commands.Group(name="brawl", description="Dumpster Brawl!", guild_only=True)

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    @brawl.command(name="new", description="Open a Dumpster Brawl! lobby in this channel")
    @app_commands.describe(
        mode="How to play (Round Rummage by default)",
        affinity="Trash affinity: two of your character's item make a set (never in Rummy)",
        slugs="Slug cards shuffled in (default 4)",
        boosters="Booster cards shuffled in (default 3)",
        blockers="Blocker cards shuffled in after the deal (default 3)",
        timer="Minutes per decision before the AI plays it (0 = off)",
        seed="Makes the game reproducible, for bug reports",
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name=name, value=key) for key, name in MODES.items()],
        affinity=[app_commands.Choice(name=word, value=word) for word in ("on", "off")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        affinity: str | None = None,
        slugs: app_commands.Transform[int, WholeNumber("slugs", 0, 6)] | None = None,
        boosters: app_commands.Transform[int, WholeNumber("boosters", 0, 7)] | None = None,
        blockers: app_commands.Transform[int, WholeNumber("blockers", 0, 5)] | None = None,
        timer: app_commands.Transform[int, TIMER] | None = None,
        seed: app_commands.Transform[int, SEED] | None = None,
    ) -> None:
        chosen = {
            "mode": mode,
            "affinity": affinity,
            "slugs": slugs,
            "boosters": boosters,
            "blockers": blockers,
        }
        options = {name: str(value) for name, value in chosen.items() if value is not None}
        if mode == "rummy":
            options["affinity"] = "off"  # Rummy never uses affinity: say so in the lobby
        await open_lobby(interaction, "brawl", options, seed=seed, timer=timer)

"""Dumpster Brawl! in Discord: `/brawl new` and how the brawl is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.brawl._cog import BrawlCog
from cogs.brawl._present import BrawlPresenter
from cogs.shared.presenter import register

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    register(BrawlPresenter())
    await bot.add_cog(BrawlCog(bot))

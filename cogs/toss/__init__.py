"""Toss It in the Trash in Discord: `/toss new` and how the bin is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.shared.presenter import register
from cogs.toss._cog import TossCog
from cogs.toss._present import TossPresenter

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    register(TossPresenter())
    await bot.add_cog(TossCog(bot))

"""Rumble in the Dungeon in Discord: `/rumble new` and how the game is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.rumble._cog import RumbleCog
from cogs.rumble._present import RumblePresenter
from cogs.shared.presenter import register

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    register(RumblePresenter())
    await bot.add_cog(RumbleCog(bot))

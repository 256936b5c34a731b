"""Trash War in Discord: `/trashwar new` and how the war is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.shared.presenter import register
from cogs.trashwar._cog import TrashWarCog
from cogs.trashwar._present import TrashWarPresenter

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    register(TrashWarPresenter())
    await bot.add_cog(TrashWarCog(bot))

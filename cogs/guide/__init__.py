"""/rules: each game's rules in our own words, paged with buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.guide._cog import GuideCog, RulesPageButton

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    bot.add_dynamic_items(RulesPageButton)
    await bot.add_cog(GuideCog(bot))

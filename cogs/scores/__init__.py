"""Per-guild standings: /scoreboard and /history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.scores._cog import ScoresCog

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    await bot.add_cog(ScoresCog(bot))

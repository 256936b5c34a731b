"""Per-guild standings: /scoreboard and /history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.scores._cog import ScoresCog, scoreboard_command

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    cog = ScoresCog(bot)
    await bot.add_cog(cog)
    bot.tree.add_command(scoreboard_command(cog))


async def teardown(bot: TrashTableBot) -> None:
    bot.tree.remove_command("scoreboard")

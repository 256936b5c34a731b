"""/language: the language of a server's boards, lobbies and standings, as its admins choose
it (by default the server's own language in Discord)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.language._cog import LanguageCog

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    await bot.add_cog(LanguageCog(bot))

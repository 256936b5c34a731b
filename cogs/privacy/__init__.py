"""/privacy: what the bot keeps about a person or a server, removed on request; and the
clean-up of what is past its time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.privacy._cog import ForgetButton, PrivacyCog

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(PrivacyCog(bot))


async def teardown(bot: TrashTableBot) -> None:
    bot.remove_dynamic_items(ForgetButton)

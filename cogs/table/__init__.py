"""The shared game table: /game commands, the turn timer, and the persistent components."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.shared.components import ActButton, GroupButton, HandButton, MenuSelect
from cogs.shared.lobby_controls import AddAISelect, LobbyButton, PickSelect
from cogs.shared.rematch import RematchButton
from cogs.shared.stepper import ReplayButton, TurnSelect
from cogs.table._cog import TableCog

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    # Registering the item classes is what makes old buttons work after a restart.
    bot.add_dynamic_items(
        LobbyButton,
        AddAISelect,
        PickSelect,
        ActButton,
        GroupButton,
        MenuSelect,
        HandButton,
        RematchButton,
        ReplayButton,
        TurnSelect,
    )
    await bot.add_cog(TableCog(bot))

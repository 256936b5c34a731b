"""/rules: each game's rules in our own words, paged with buttons; /help: the bot, and a
first turn of each game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.guide._cog import RulesPageButton, rules_command
from cogs.guide._help import help_command

if TYPE_CHECKING:
    from bot.client import TrashTableBot


async def setup(bot: TrashTableBot) -> None:
    bot.add_dynamic_items(RulesPageButton)
    bot.tree.add_command(rules_command())
    bot.tree.add_command(help_command())


async def teardown(bot: TrashTableBot) -> None:
    bot.remove_dynamic_items(RulesPageButton)
    bot.tree.remove_command("rules")
    bot.tree.remove_command("help")

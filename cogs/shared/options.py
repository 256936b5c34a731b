"""Whole-number slash command options, checked by type as well as range.

Discord's client checks an integer option's type and range before sending it, and
`app_commands.Range` only tells the client those limits: discord.py passes on whatever
arrives. A request made some other way can carry text, 1.5 or `true`, so each option checks
its own value and a wrong one is refused with the option's name and what it must be.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.requests import SEED_LIMIT
from rules.phrases import Phrase, phrase


class OptionRefused(app_commands.AppCommandError):
    """An option's value is not what the command takes; `reason` says what it must be (in
    the user's language when said), `str` its English."""

    def __init__(self, reason: Phrase) -> None:
        super().__init__(str(reason))
        self.reason = reason


class WholeNumber(app_commands.Transformer):
    """An integer option from `low` to `high` (Discord's client shows and checks the range)."""

    def __init__(self, name: str, low: int, high: int) -> None:
        self.name, self.low, self.high = name, low, high

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return self.low

    @property
    def max_value(self) -> int:
        return self.high

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> int:
        # `type(value) is int`: a bool is an int to Python, and JSON `true` arrives as one.
        if type(value) is not int or not self.low <= value <= self.high:
            raise OptionRefused(
                phrase(
                    "`{name}` must be a whole number from {low} to {high}.",
                    name=self.name,
                    low=self.low,
                    high=self.high,
                )
            )
        return value


TIMER = WholeNumber("timer", 0, 24 * 60)
SEED = WholeNumber("seed", 0, SEED_LIMIT - 1)

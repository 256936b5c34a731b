"""Small helpers for reading an interaction and answering it."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from bot.sessions import Player

if TYPE_CHECKING:
    from bot.client import TrashTableBot


def client_of(interaction: discord.Interaction) -> TrashTableBot:
    return cast("TrashTableBot", interaction.client)


def player_of(interaction: discord.Interaction) -> Player:
    return Player(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        can_manage=interaction.permissions.manage_channels,
    )


async def refuse(interaction: discord.Interaction, reason: str) -> None:
    """A short private reason; used for everything a user does wrong."""
    if interaction.response.is_done():
        await interaction.followup.send(reason, ephemeral=True)
    else:
        await interaction.response.send_message(reason, ephemeral=True)

"""The `/language` command. Each game keeps the language its lobby opened in, so a change
reaches the next lobby, never a game under way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.requests import UserError
from cogs.shared.interactions import answer_command
from lang import LANGUAGES, language_for, native_name, say
from rules.phrases import phrase

if TYPE_CHECKING:
    from bot.client import TrashTableBot

SERVERS_OWN = "server"  # the choice that forgets the admins' choice
ADMINS_ONLY = phrase("Only someone who can manage this server can choose its language.")


class LanguageCog(commands.Cog):
    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="language", description="The language of this server's boards, lobbies and standings"
    )
    @app_commands.describe(language="The language new lobbies speak here")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="The server's own language", value=SERVERS_OWN),
            *(app_commands.Choice(name=native_name(code), value=code) for code in LANGUAGES),
        ]
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise UserError(ADMINS_ONLY)
        chosen = None if language == SERVERS_OWN else language
        await self.bot.sessions.set_language(interaction.guild_id, chosen)
        speaks = chosen or language_for(interaction.guild_locale)
        said = phrase(
            "New lobbies here will speak {language}; games under way keep theirs.",
            language=native_name(speaks),
        )
        await answer_command(
            interaction, public=False, content=say(said, language_for(interaction.locale))
        )

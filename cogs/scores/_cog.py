"""`/scoreboard [game]` and `/history`: read-only views of a guild's finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.sessions import UserError
from cogs.shared.interactions import answer_command
from cogs.shared.limits import fit_embed
from cogs.shared.plugin import game_choices

if TYPE_CHECKING:
    from bot.client import TrashTableBot


class ScoresCog(commands.Cog):
    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    async def scoreboard(self, interaction: discord.Interaction, game: str | None) -> None:
        if game is not None and game not in GAMES:  # a choice only a forged request sends
            raise UserError(f"There is no game `{game[:40]}` here.")
        lines = await self.bot.sessions.scoreboard(interaction.guild_id or 0, game)
        title = f"Scoreboard · {GAMES[game].title if game else 'all games'}"
        embed = discord.Embed(title=title, colour=discord.Colour.dark_gold())
        if not lines:
            embed.description = "No rated games yet. AI seats are never rated."
        else:
            rows = ["`#  player           games wins points rating`"]
            for place, line in enumerate(lines, start=1):
                rating = f"{line.rating:6.1f}" if line.rating is not None else "     –"
                rows.append(
                    f"`{place:<2} {line.name[:16]:<16} {line.games:>5} {line.wins:>4} "
                    f"{line.points:>6} {rating}`"
                )
            embed.description = "\n".join(rows)
            days = self.bot.settings.game_retention_days
            embed.set_footer(
                text=f"Games, wins and points: the last {days} days' games. Rating: openskill "
                "(mu − 3σ), moved by games with 2+ rated players."
            )
        await answer_command(interaction, embed=fit_embed(embed))

    @app_commands.command(name="history", description="This server's last finished games")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        games = await self.bot.sessions.history(interaction.guild_id or 0)
        if not games:
            raise UserError("No finished games in this server yet.")
        embed = discord.Embed(title="Last finished games", colour=discord.Colour.dark_grey())
        for game, results in games:
            when = discord.utils.format_dt(game.finished_at or game.updated_at, "R")
            places = ", ".join(
                f"{'🏆 ' if r.rank == 0 else ''}{r.name} {r.points}" for r in results
            )
            embed.add_field(
                name=f"{GAMES[game.kind].title} · game #{game.id}",
                value=f"{places}\n{when} · seed {game.seed}",
                inline=False,
            )
        await answer_command(interaction, embed=fit_embed(embed))


def scoreboard_command(cog: ScoresCog) -> app_commands.Command[Any, ..., None]:
    """`/scoreboard`, its choices the games offered: built when the extension loads."""

    @app_commands.describe(game="One game only (default: every game)")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def scoreboard(interaction: discord.Interaction, game: str | None = None) -> None:
        await cog.scoreboard(interaction, game)

    return app_commands.Command(
        name="scoreboard", description="This server's standings", callback=scoreboard
    )

"""`/scoreboard [game]` and `/history`: read-only views of a guild's finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.games import GAMES
from bot.ratings import ScoreLine
from bot.sessions import UserError
from cogs.shared.columns import pad
from cogs.shared.interactions import answer_command
from cogs.shared.limits import fit_embed
from cogs.shared.plugin import game_choices
from cogs.shared.standings import place
from rules.phrases import phrase
from rules.words import counted

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
            # Points added up over different games mean nothing, nor do a game's that
            # scores none (or none yet: a way of playing it without points).
            points = (
                game is not None and GAMES[game].keeps_points and any(line.points for line in lines)
            )
            embed.description = score_table(lines, points=points)
            days = self.bot.settings.game_retention_days
            counted_here = "Games, wins and points" if points else "Games and wins"
            embed.set_footer(
                text=f"{counted_here}: the last {days} days' games. Rating: a skill score that "
                "rises when you beat other players and falls when they beat you; it starts "
                "low and moves only with games of two or more rated players."
            )
        await answer_command(interaction, embed=fit_embed(embed))

    @app_commands.command(name="history", description="This server's last finished games")
    @app_commands.describe(seeds="Also show each game's seed, to play it again for a bug report")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, seeds: bool = False) -> None:
        games = await self.bot.sessions.history(interaction.guild_id or 0)
        if not games:
            raise UserError(phrase("No finished games in this server yet."))
        embed = discord.Embed(title="Last finished games", colour=discord.Colour.dark_grey())
        for game, results in games:
            when = discord.utils.format_dt(game.finished_at or game.updated_at, "R")
            scored = GAMES[game.kind].keeps_points_with(game.options)
            places = " · ".join(history_place(r.rank, r.name, r.points, scored) for r in results)
            ending = f"finished {when}" + (f" · seed {game.seed}" if seeds else "")
            embed.add_field(
                name=f"{GAMES[game.kind].title} · game #{game.id}",
                value=f"{places}\n{ending}",
                inline=False,
            )
        await answer_command(interaction, embed=fit_embed(embed))


NAME_CELLS = 16  # a name's column in the scoreboard, in cells of a code block


def score_table(lines: list[ScoreLine], *, points: bool) -> str:
    """The standings as a code block whose columns line up however wide the names'
    characters are drawn (cogs/shared/columns.py); the points column only when `points`."""
    heads = [("games", 5), ("wins", 5)] + ([("points", 7)] if points else []) + [("rating", 7)]
    rows = [["#".ljust(3), pad("player", NAME_CELLS)] + [h.rjust(w) for h, w in heads]]
    for number, line in enumerate(lines, start=1):
        figures = [line.games, line.wins] + ([line.points] if points else [])
        rating = f"{line.rating:.1f}" if line.rating is not None else "–"
        cells = [str(number).ljust(3), pad(code_safe(line.name), NAME_CELLS)]
        cells += [str(f).rjust(w) for f, (_, w) in zip(figures, heads, strict=False)]
        rows.append([*cells, rating.rjust(heads[-1][1])])
    return "```\n" + "\n".join(" ".join(row).rstrip() for row in rows) + "\n```"


def code_safe(name: str) -> str:
    """A name that cannot close the code block it stands in."""
    return name.replace("`", "\u02cb")


def history_place(rank: int, name: str, points: int, scored: bool) -> str:
    """One seat of a finished game as `/history` reads it: "🥇 Ann, 12 points"; points only
    for a game that keeps them."""
    shown = f"{place(rank)} {escape_markdown(name)}"
    return f"{shown}, {counted(points, 'point')}" if scored else shown


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

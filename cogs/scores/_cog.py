"""`/scoreboard [game]` and `/history`: read-only views of a guild's finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.games import GAMES
from bot.ratings import ScoreLine
from bot.requests import UserError
from cogs.shared.columns import pad
from cogs.shared.interactions import answer_command, server_language
from cogs.shared.limits import fit_embed
from cogs.shared.plugin import game_choices
from cogs.shared.standings import place, points
from lang import ENGLISH, say
from rules.phrases import Phrase, phrase, phrase_in

# The scoreboard's column heads, and the width each takes at least.
HEADS = {
    "games": (phrase_in("scoreboard column", "games"), 5),
    "wins": (phrase_in("scoreboard column", "wins"), 5),
    "points": (phrase_in("scoreboard column", "points"), 7),
    "rating": (phrase_in("scoreboard column", "rating"), 7),
}
PLAYER_HEAD = phrase_in("scoreboard column", "player")

if TYPE_CHECKING:
    from bot.client import TrashTableBot


class ScoresCog(commands.Cog):
    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    async def scoreboard(self, interaction: discord.Interaction, game: str | None) -> None:
        if game is not None and game not in GAMES:  # a choice only a forged request sends
            raise UserError(phrase("There is no game `{game}` here.", game=game[:40]))
        lines = await self.bot.sessions.scoreboard(interaction.guild_id or 0, game)
        language = await server_language(
            self.bot.sessions, interaction
        )  # in the channel, for everyone

        def said(words: Phrase) -> str:
            return say(words, language)

        which = GAMES[game].title if game else phrase("all games")
        title = said(phrase("Scoreboard · {game}", game=which))
        embed = discord.Embed(title=title, colour=discord.Colour.dark_gold())
        if not lines:
            embed.description = said(phrase("No rated games yet. AI seats are never rated."))
        else:
            # Points added up over different games mean nothing, nor do a game's that
            # scores none (or none yet: a way of playing it without points).
            points = (
                game is not None and GAMES[game].keeps_points and any(line.points for line in lines)
            )
            embed.description = score_table(lines, points=points, language=language)
            days = self.bot.settings.game_retention_days
            counted_here = phrase("Games, wins and points") if points else phrase("Games and wins")
            footer = phrase(
                "{counted}: the last {days} days' games. Rating: a skill score that rises "
                "when you beat other players and falls when they beat you; it starts low and "
                "moves only with games of two or more rated players.",
                counted=counted_here,
                days=days,
            )
            embed.set_footer(text=said(footer))
        await answer_command(interaction, embed=fit_embed(embed))

    @app_commands.command(name="history", description="This server's last finished games")
    @app_commands.describe(seeds="Also show each game's seed, to play it again for a bug report")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, seeds: bool = False) -> None:
        games = await self.bot.sessions.history(interaction.guild_id or 0)
        if not games:
            raise UserError(phrase("No finished games in this server yet."))
        language = await server_language(
            self.bot.sessions, interaction
        )  # in the channel, for everyone

        def said(words: Phrase) -> str:
            return say(words, language)

        title = said(phrase("Last finished games"))
        embed = discord.Embed(title=title, colour=discord.Colour.dark_grey())
        for game, results in games:
            when = discord.utils.format_dt(game.finished_at or game.updated_at, "R")
            scored = GAMES[game.kind].keeps_points_with(game.options)
            places = " · ".join(
                history_place(r.rank, r.name, r.points, scored, language) for r in results
            )
            ending = said(phrase("finished {when}", when=when))
            if seeds:
                ending += " · " + said(phrase("seed {seed}", seed=game.seed))
            name = phrase(
                "{game} · game #{number}", game=GAMES[game.kind].title, number=game.id or 0
            )
            embed.add_field(name=said(name), value=f"{places}\n{ending}", inline=False)
        await answer_command(interaction, embed=fit_embed(embed))


NAME_CELLS = 16  # a name's column in the scoreboard, in cells of a code block


def score_table(lines: list[ScoreLine], *, points: bool, language: str = ENGLISH) -> str:
    """The standings as a code block whose columns line up however wide the names'
    characters are drawn (cogs/shared/columns.py); the points column only when `points`;
    its heads in `language`, each column as wide as its head."""
    columns = ["games", "wins"] + (["points"] if points else []) + ["rating"]
    heads = []
    for column in columns:
        word, width = HEADS[column]
        head = say(word, language)
        heads.append((head, max(width, len(head))))
    player = say(PLAYER_HEAD, language)
    rows = [["#".ljust(3), pad(player, NAME_CELLS)] + [h.rjust(w) for h, w in heads]]
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


def history_place(
    rank: int, name: str, scored_points: int, scored: bool, language: str = ENGLISH
) -> str:
    """One seat of a finished game as `/history` reads it: "🥇 Ann, 12 points"; points only
    for a game that keeps them."""
    shown = f"{say(place(rank), language)} {escape_markdown(name)}"
    return f"{shown}, {say(points(scored_points), language)}" if scored else shown


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

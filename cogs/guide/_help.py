"""`/help`: what the bot does, how a game starts, and each game in two lines; `/help game:`
walks a newcomer through a first turn of one game, from the pages of its guide its plug-in
names (`GamePlugin.first_turn`) and, in a channel where that game is under way, what the
asker may do on the board right now.

Everything about a game comes from its plug-in and its engine's declarations, so a game
added as a plug-in appears here without an edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.models import GameRecord, Status
from bot.sessions import UserError, seat_of
from cogs.guide._cog import pages
from cogs.shared.interactions import answer_command, client_of
from cogs.shared.limits import fit_embed
from cogs.shared.plugin import PLUGINS, GamePlugin, game_choices
from cogs.shared.presenter import PRESENTERS
from rules.words import and_list

if TYPE_CHECKING:
    from bot.client import TrashTableBot

MOST_CHOICES = 8  # of the asker's choices listed in a walkthrough; the board has them all

ABOUT = (
    "Trash Table runs tabletop games in this channel: everyone plays with the buttons and "
    "menus under the game's message, sees their own cards or secrets in private replies, "
    "and any seat can be an AI player. Each server keeps its own scoreboard."
)
STARTING = (
    "1. Open a lobby with a game's `new` command below.\n"
    "2. Others press **Join**; **Add AI player…** fills a seat with the AI: easy, normal "
    "or hard.\n"
    "3. The host presses **Start**. The game's message then names whose turn it is and "
    "holds the controls; the private button on it shows what only you may see."
)
OTHER_COMMANDS = (
    "`/help game:` a first turn, step by step · `/rules` the rules · `/game status` · "
    "`/game log` the moves so far, just for you · `/game leave` · `/scoreboard` · `/history`"
)


def players(plugin: GamePlugin) -> str:
    low, high = plugin.engine.min_seats, plugin.engine.max_seats
    return f"{low} players" if low == high else f"{low}–{high} players"


def overview() -> discord.Embed:
    """The bot, how a game starts, and each game in two lines: what it is, then who plays
    and how to open it."""
    embed = discord.Embed(title="Trash Table", description=ABOUT)
    embed.add_field(name="How to start", value=STARTING, inline=False)
    for plugin in sorted(PLUGINS.values(), key=lambda p: p.engine.title):
        engine = plugin.engine
        embed.add_field(
            name=engine.title,
            value=f"{engine.tagline}\n{players(plugin)} · `/{engine.key} new`",
            inline=False,
        )
    embed.add_field(name="Also", value=OTHER_COMMANDS, inline=False)
    return fit_embed(embed)


def walkthrough(plugin: GamePlugin) -> discord.Embed:
    """A first turn of one game: how to open it, then the guide's pages on a turn."""
    engine = plugin.engine
    by_heading = dict(pages(engine.key))
    headings = [h for h in plugin.first_turn if h in by_heading] or list(by_heading)[1:2]
    parts = [
        engine.tagline,
        f"**Starting:** `/{engine.key} new` opens a lobby here ({players(plugin)}); "
        f"**Start** begins it. On the game's message, **{PRESENTERS[engine.key].hand_label}** "
        "shows you what only you may see.",
        *(f"**{heading}**\n{by_heading[heading]}" for heading in headings),
        f"All the rules: `/rules game:{engine.title}`.",
    ]
    title = f"Your first game of {engine.title}"
    return discord.Embed(title=title, description="\n\n".join(parts))


def here_and_now(bot: TrashTableBot, game: GameRecord, user_id: int) -> str | None:
    """What the asker may do in the game under way in this channel, in their own words: only
    their own choices, and this reply is theirs alone."""
    if game.status != Status.PLAYING or game.state is None:
        return None
    sessions = bot.sessions
    waiting = sessions.humans_to_act(game)
    seat = seat_of(game, user_id)
    board = ""
    if game.board_message_id:
        url = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.board_message_id}"
        board = f" on [the game's message]({url})"
    if seat is None or seat not in waiting:
        names = and_list([game.seats[s].name for s in waiting]) or "the AI"
        whose = f"Waiting for {names}{board}."
        return whose if seat is None else f"{whose} The game pings you when it is your turn."
    describe = sessions.describer(game)
    choices = [describe(action) for action in sessions.legal_for(game, seat)]
    shown = "\n".join(f"- {label}" for label in choices[:MOST_CHOICES])
    more = len(choices) - MOST_CHOICES
    if more > 0:
        shown += f"\n- and {more} more"
    return f"It is your turn{board}. You may:\n{shown}"


async def show_help(interaction: discord.Interaction, game: str | None) -> None:
    if game is None:
        await answer_command(interaction, public=False, embed=overview())
        return
    if game not in PLUGINS:  # a choice only a forged request could send
        raise UserError(f"There is no game `{game[:40]}` here; pick one from the list.")
    embed = walkthrough(PLUGINS[game])
    bot = client_of(interaction)
    current = await bot.sessions.current(interaction.channel_id or 0)
    if current is not None and current.kind == game:
        now = here_and_now(bot, current, interaction.user.id)
        if now:
            embed.add_field(name="Here, now", value=now, inline=False)
    await answer_command(interaction, public=False, embed=fit_embed(embed))


def help_command() -> app_commands.Command[Any, ..., None]:
    """`/help`, its choices the games offered (built once every plug-in is imported)."""

    @app_commands.describe(game="A game to learn: its first turn, step by step")
    @app_commands.choices(game=[c for c in game_choices() if c.value in PLUGINS])
    async def help_(interaction: discord.Interaction, game: str | None = None) -> None:
        await show_help(interaction, game)

    return app_commands.Command(
        name="help", description="What this bot does and how to play", callback=help_
    )

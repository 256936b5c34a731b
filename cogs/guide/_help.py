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
from bot.requests import UserError, seat_of
from cogs.guide._cog import pages
from cogs.guide._pages import PAGE, TITLE
from cogs.shared.interactions import answer_command, client_of
from cogs.shared.limits import fit_embed
from cogs.shared.lobby import TAGLINE
from cogs.shared.plugin import PLUGINS, GamePlugin, game_choices
from cogs.shared.presenter import hand_button
from lang import ENGLISH, language_for, say
from rules.phrases import Phrase, listing, phrase, phrase_in, phrase_n

if TYPE_CHECKING:
    from bot.client import TrashTableBot

MOST_CHOICES = 8  # of the asker's choices listed in a walkthrough; the board has them all

ABOUT = phrase(
    "Trash Table runs tabletop games in this channel: everyone plays with the buttons and "
    "menus under the game's message, sees their own cards or secrets in private replies, "
    "and any seat can be an AI player. Each server keeps its own scoreboard."
)
STARTING = phrase(
    "1. Open a lobby with a game's `new` command below.\n"
    "2. Others press **Join**; **Add AI player…** fills a seat with the AI: easy, normal "
    "or hard.\n"
    "3. The host presses **Start**. The game's message then names whose turn it is and "
    "holds the controls; the private button on it shows what only you may see."
)
OTHER_COMMANDS = phrase(
    "`/help game:` a first turn, step by step · `/rules` the rules · `/game status` · "
    "`/game log` the moves so far, just for you · `/game leave` · `/scoreboard` · `/history`"
)


def players(plugin: GamePlugin) -> Phrase:
    low, high = plugin.engine.min_seats, plugin.engine.max_seats
    if low == high:
        return phrase_n("{n} player", "{n} players", low)
    return phrase("{low}–{high} players", low=low, high=high)


def overview(language: str = ENGLISH) -> discord.Embed:
    """The bot, how a game starts, and each game in two lines: what it is, then who plays
    and how to open it; in the asker's `language`."""

    def said(words: Phrase) -> str:
        return say(words, language)

    embed = discord.Embed(title="Trash Table", description=said(ABOUT))
    embed.add_field(name=said(phrase("How to start")), value=said(STARTING), inline=False)
    for plugin in sorted(PLUGINS.values(), key=lambda p: p.engine.title):
        engine = plugin.engine
        tagline = said(phrase_in(TAGLINE, engine.tagline))
        embed.add_field(
            name=engine.title,
            value=f"{tagline}\n{said(players(plugin))} · `/{engine.key} new`",
            inline=False,
        )
    embed.add_field(name=said(phrase("Also")), value=said(OTHER_COMMANDS), inline=False)
    return fit_embed(embed)


def walkthrough(plugin: GamePlugin, language: str = ENGLISH) -> discord.Embed:
    """A first turn of one game: how to open it, then the guide's pages on a turn; in the
    asker's `language`."""

    def said(words: Phrase) -> str:
        return say(words, language)

    engine = plugin.engine
    by_heading = dict(pages(engine.key))
    headings = [h for h in plugin.first_turn if h in by_heading] or list(by_heading)[1:2]
    starting = phrase(
        "**Starting:** `/{key} new` opens a lobby here ({players}); **Start** begins it. "
        "On the game's message, **{button}** shows you what only you may see.",
        key=engine.key,
        players=players(plugin),
        button=hand_button(engine.key, language),
    )
    parts = [
        said(phrase_in(TAGLINE, engine.tagline)),
        said(starting),
        # Each page as the rules show it: a catalogue entry of its own, said whole.
        *(
            f"**{said(phrase_in(TITLE, heading))}**\n{said(phrase_in(PAGE, by_heading[heading]))}"
            for heading in headings
        ),
        said(phrase("All the rules: `/rules game:{game}`.", game=engine.title)),
    ]
    title = said(phrase("Your first game of {game}", game=engine.title))
    return discord.Embed(title=title, description="\n\n".join(parts))


def here_and_now(
    bot: TrashTableBot, game: GameRecord, user_id: int, language: str = ENGLISH
) -> str | None:
    """What the asker may do in the game under way in this channel, in their own words
    (`language`): only their own choices, and this reply is theirs alone."""
    if game.status != Status.PLAYING or game.state is None:
        return None

    def said(words: Phrase) -> str:
        return say(words, language)

    sessions = bot.sessions
    waiting = sessions.humans_to_act(game)
    seat = seat_of(game, user_id)
    url = ""
    if game.board_message_id:
        url = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.board_message_id}"
    if seat is None or seat not in waiting:
        names = listing(game.seats[s].name for s in waiting) if waiting else phrase("the AI")
        whose = said(
            phrase("Waiting for {names} on [the game's message]({url}).", names=names, url=url)
            if url
            else phrase("Waiting for {names}.", names=names)
        )
        if seat is None:
            return whose
        return f"{whose} {said(phrase('The game pings you when it is your turn.'))}"
    describe = sessions.describer(game, language=language)
    offered = sessions.one_of_each(game, sessions.legal_for(game, seat))
    choices = [describe(action) for action in offered]
    shown = "\n".join(f"- {label}" for label in choices[:MOST_CHOICES])
    more = len(choices) - MOST_CHOICES
    if more > 0:
        shown += "\n- " + said(phrase("and {more} more", more=more))
    turn = (
        phrase("It is your turn on [the game's message]({url}). You may:", url=url)
        if url
        else phrase("It is your turn. You may:")
    )
    return f"{said(turn)}\n{shown}"


async def show_help(interaction: discord.Interaction, game: str | None) -> None:
    language = language_for(interaction.locale)  # a private reply
    if game is None:
        await answer_command(interaction, public=False, embed=overview(language))
        return
    if game not in PLUGINS:  # a choice only a forged request could send
        raise UserError(
            phrase("There is no game `{game}` here; pick one from the list.", game=game[:40])
        )
    embed = walkthrough(PLUGINS[game], language)
    bot = client_of(interaction)
    current = await bot.sessions.current(interaction.channel_id or 0)
    if current is not None and current.kind == game:
        now = here_and_now(bot, current, interaction.user.id, language)
        if now:
            here = say(phrase("Here, now"), language)
            embed.add_field(name=here, value=now, inline=False)
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

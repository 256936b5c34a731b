"""`/game status|stop|leave|kick|timer`, the turn timer, and the outbox's poster (which
delivers what a previous process left pending, then lets the AI resume)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.gamelog import load_moves, public_lines
from bot.games import GAMES
from bot.models import LEVEL_NAMES, GameRecord, Status
from bot.requests import UserError, seat_names
from bot.sessions import AI_RETRY_FIRST, out_of_service
from cogs.shared import components, lobby_controls, permissions
from cogs.shared.drawing import Drawer
from cogs.shared.interactions import (
    answer_command,
    answer_unclaimed,
    command_check,
    first_answer,
    lacking_here,
    player_of,
    refuse,
    refuse_fault,
)
from cogs.shared.limits import MAX_EMBED_DESCRIPTION, fit_embed, fit_lines
from cogs.shared.lobby import turn_timer
from cogs.shared.options import OptionRefused, WholeNumber
from cogs.shared.poster import Poster
from cogs.shared.presenter import PRESENTERS
from cogs.shared.replay import post_replay, replay_choices
from lang import language_for, say
from rules.phrases import Phrase, listing, phrase, phrase_in, phrase_n

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

TIMER_CHECK_SECONDS = 10
NO_MOVES = phrase("No moves yet.")


class TableCog(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions
        bot.tree.error(self.on_app_command_error)
        # A command Discord delivers twice runs once (the tree skips it when this is False).
        # discord.py documents overriding this method; the tree is made by the bot, so the
        # cog sets it on the instance.
        bot.tree.interaction_check = command_check  # type: ignore[method-assign]
        bot.add_listener(answer_unclaimed, "on_interaction")
        self.poster = Poster(bot, Drawer(bot))

    async def cog_load(self) -> None:
        self.turn_timer.start()
        self.owed_ai.start()
        self.poster.start()

    async def cog_unload(self) -> None:
        self.turn_timer.cancel()
        self.owed_ai.cancel()
        self.bot.remove_listener(answer_unclaimed, "on_interaction")
        await self.poster.stop()

    @tasks.loop(seconds=TIMER_CHECK_SECONDS)
    async def turn_timer(self) -> None:
        await self.check_timers()

    @tasks.loop(seconds=AI_RETRY_FIRST)
    async def owed_ai(self) -> None:
        """The AI turns owed (the database was out of service, or a long chain of AI turns
        paused), played once their wait is over."""
        if self.sessions.ai_owed:
            await self.sessions.play_owed_ai()

    async def check_timers(self) -> None:
        """Play for every player whose turn timer ran out. Also called by tests. A loop of
        `tasks` stops for good at an error it does not expect: a database out of service
        only skips this round."""
        try:
            late = await self.sessions.late_games()
        except Exception as error:
            if not out_of_service(error):
                raise
            log.warning("turn timer: the database is out of service (%r)", error)
            return
        for game in late:
            try:
                update = await self.sessions.play_for_late(game)
                if update is not None:
                    await components.show_turn(self.bot, update.game)
            except UserError:
                if self.sessions.stopping:
                    return  # the next start's timer plays it
                log.exception("turn timer refused for game %s", game.id)
            except Exception:  # one broken channel must not stop the timer for others
                log.exception("turn timer failed for game %s", game.id)

    @turn_timer.before_loop
    @owed_ai.before_loop
    async def _before_timer(self) -> None:
        await self.bot.wait_until_ready()

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self.permissions_changed(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.permissions_changed(after.guild)

    async def permissions_changed(self, guild: discord.Guild) -> None:
        """A channel's overwrites or a role changed: a paused channel of the guild where
        discord.py's cache shows the bot its permissions again gets its boards (a thread's
        come from its parent). Should the cache be wrong, the board is refused again and
        the channel paused again: one request, not a storm."""
        for channel_id in self.poster.paused():
            channel = guild.get_channel_or_thread(channel_id)
            if channel is not None and permissions.lacking_in(channel) == ():
                await self.poster.resume(channel_id)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        # The one refusal path of every command: what a player asked for that the rules or
        # the table do not allow (a UserError from the session service), a failed check or
        # an option of the wrong kind.
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(
            error.original, UserError
        ):
            await refuse(interaction, error.original.reason)
            return
        if isinstance(error, OptionRefused):
            await refuse(interaction, error.reason)
            return
        refusals = app_commands.CheckFailure | app_commands.TransformerError
        if isinstance(error, refusals):
            await refuse(interaction, str(error))
            return
        original = getattr(error, "original", error)
        await refuse_fault(interaction, original if isinstance(original, Exception) else error)

    # ------------------------------------------------------------------ /game

    @game.command(name="replay", description="Watch a finished game of this server again")
    @app_commands.describe(game="A finished game: type its number, game or a winner's name")
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        await post_replay(self.bot, interaction, game)

    @replay.autocomplete("game")
    async def _replay_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await replay_choices(self.bot, interaction, current)

    @game.command(name="log", description="The moves of the game here so far, just for you")
    async def moves(self, interaction: discord.Interaction) -> None:
        language = language_for(interaction.locale)  # a private reply
        game, moves = await load_moves(self.sessions.db, interaction.channel_id or 0, language)
        # Deferred privately: a game is played again to read its moves (seconds for a long
        # Toss It game, whose drops are simulated anew).
        async with first_answer(interaction):
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
        lines = await self.bot.workers.run(public_lines, moves, long=GAMES[game.kind].heavy)
        title = phrase("{game} · the moves so far", game=GAMES[game.kind].title)
        embed = discord.Embed(
            title=say(title, language),
            description=fit_lines("", lines, "", MAX_EMBED_DESCRIPTION, language)
            or say(NO_MOVES, language),
        )
        embed.set_footer(text=say(phrase("Oldest first: only what the whole table saw."), language))
        await answer_command(interaction, public=False, embed=embed)

    @game.command(name="status", description="Who is playing here, whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        game = await self.sessions.current(interaction.channel_id or 0)
        if game is None:
            raise UserError(phrase("There is no game in this channel."))
        lacking = await lacking_here(interaction)  # and boards paused here resume if they may
        language = language_for(interaction.locale)  # a private reply
        paused = say(lacking, language) if lacking else ""
        if game.status == Status.LOBBY:
            # The controls are on the lobby.
            lobby = lobby_controls.lobby_view(game, note=paused, controls=False, language=language)
            await answer_command(interaction, public=False, view=lobby)
            return
        embed = self.status_embed(game, language)
        if paused:
            paused_field = say(phrase_in("status field", "Paused"), language)
            embed.insert_field_at(0, name=paused_field, value=paused, inline=False)
        await answer_command(interaction, public=False, embed=embed)

    def status_embed(self, game: GameRecord, language: str) -> discord.Embed:
        """What people at the table need: whose turn it is and since when, the timer and
        when it runs out, the players, and a link to the newest board; in `language`."""
        engine = GAMES[game.kind]
        names = seat_names(game, language)

        def said(words: Phrase) -> str:
            return say(words, language)

        obs = self.sessions.public_view(game)
        waiting = self.sessions.humans_to_act(game)
        embed = discord.Embed(
            title=engine.title, description=PRESENTERS[game.kind].summary(obs, names)
        )
        if game.status == Status.PLAYING:
            # The row changes with every move (and only then, for a game under way).
            since = discord.utils.format_dt(as_utc(game.updated_at), "R")
            who = (
                listing(game.seats[seat].name for seat in waiting) if waiting else phrase("the AI")
            )
            embed.add_field(
                name=said(phrase_in("status field", "Whose turn")),
                value=said(phrase("{who}, since {since}", who=who, since=since)),
                inline=False,
            )
        seats = []
        for index, seat in enumerate(game.seats):
            name = names[index]
            if seat.ai and seat.user_id:
                # A person's seat the AI took over says so, with the level it plays at.
                level = LEVEL_NAMES[seat.level]
                name = said(phrase("{name} (AI, {level})", name=name, level=level))
            seats.append(f"{index + 1}. {name}" + (" ⏳" if index in waiting else ""))
        embed.add_field(
            name=said(phrase_in("status field", "Players")), value="\n".join(seats), inline=False
        )
        timer: Phrase = turn_timer(game.turn_timer)
        if game.turn_timer and game.turn_deadline is not None:
            deadline = discord.utils.format_dt(as_utc(game.turn_deadline), "R")
            timer = phrase(
                "{timer}; the AI plays for them {deadline}", timer=timer, deadline=deadline
            )
        embed.add_field(name=said(phrase_in("status field", "Turn timer")), value=said(timer))
        if game.board_message_id:
            url = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.board_message_id}"
            link = said(phrase("[latest board message]({url})", url=url))
            embed.add_field(name=said(phrase_in("status field", "Board")), value=link)
        return fit_embed(embed)

    @game.command(
        name="stop", description="Stop the game in this channel (host or channel managers)"
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        game = await self.sessions.stop(interaction.channel_id or 0, player_of(interaction))
        stopped = phrase(
            "{name} stopped the game of {game} It does not count on the scoreboard.",
            name=interaction.user.display_name,
            game=sentence(GAMES[game.kind].title),
        )
        # Public: in the game's language. The board's and lobby's controls go through the
        # outbox.
        await answer_command(interaction, content=say(stopped, seat_names(game).language))

    @game.command(name="leave", description="Leave the game here; the AI takes over your seat")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._hand_over(interaction, interaction.user.id)

    @game.command(
        name="kick", description="Hand a player's seat to the AI (host or channel managers)"
    )
    @app_commands.describe(member="The player to remove")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._hand_over(interaction, member.id)

    async def _hand_over(self, interaction: discord.Interaction, target_id: int) -> None:
        # Deferred first, and answered before the AI's turns in that seat (a Toss It turn
        # simulates many drops).
        async with first_answer(interaction):
            if not interaction.response.is_done():  # `command_net` may have deferred it
                await interaction.response.defer(ephemeral=True, thinking=True)
        channel_id = interaction.channel_id or 0
        player = player_of(interaction)
        current = await self.sessions.current(channel_id)
        if current is not None and current.status == Status.LOBBY and target_id == player.user_id:
            game = await self.sessions.leave_lobby(channel_id, current.id or 0, player)
            left = say(phrase("You left the lobby."), language_for(interaction.locale))
            await interaction.followup.send(left, ephemeral=True)
            if game.lobby_message_id:
                await self._refresh_lobby(game)
            return
        update = await self.sessions.hand_to_ai(channel_id, player, target_id)
        done = say(phrase("Done: the AI plays that seat now."), language_for(interaction.locale))
        await interaction.followup.send(done, ephemeral=True)
        await components.show_turn(self.bot, (await self.sessions.play_ai(update)).game)

    async def _refresh_lobby(self, game: GameRecord) -> None:
        message = self.bot.get_partial_messageable(game.channel_id).get_partial_message(
            game.lobby_message_id or 0
        )
        try:
            await message.edit(content=None, embed=None, view=lobby_controls.lobby_view(game))
        except discord.HTTPException as error:
            log.info("could not refresh lobby %s: %s", game.id, error.status)

    @game.command(name="timer", description="Minutes per decision before the AI plays it (0 = off)")
    @app_commands.describe(minutes="0 turns the timer off")
    async def timer(
        self,
        interaction: discord.Interaction,
        minutes: app_commands.Transform[int, WholeNumber("minutes", 0, 24 * 60)],
    ) -> None:
        game = await self.sessions.set_timer(
            interaction.channel_id or 0, player_of(interaction), minutes
        )
        text = (
            phrase_n("Turn timer set to {n} minute.", "Turn timer set to {n} minutes.", minutes)
            if minutes
            else phrase("Turn timer turned off.")
        )
        # Public, in the game's language.
        await answer_command(interaction, content=say(text, seat_names(game).language))


def sentence(words: str) -> str:
    """`words` ending a sentence: a full stop, unless they end in one already
    ("Dumpster Brawl!")."""
    return words if words.endswith((".", "!", "?")) else words + "."


def as_utc(moment: datetime) -> datetime:
    """A time read back from the database: SQLite returns it without its time zone (UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

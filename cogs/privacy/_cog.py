"""`/privacy me` and `/privacy server`: what the bot keeps, and removing it on request; the
hourly clean-up of games past retention and of servers that removed the bot.

What is kept and how it goes is `bot/keeping.py`; this is its Discord side. Each removal
is asked for twice: the command shows what is kept, its button removes it.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import keeping
from bot.models import utcnow
from bot.requests import UserError
from bot.sessions import out_of_service
from cogs.shared.interactions import AnsweredOnce, answer_command, edit_pressed, routed_by_custom_id
from lang import ENGLISH, language_for, say
from rules.phrases import Phrase, phrase, phrase_in, phrase_n

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

SWEEP_EVERY = timedelta(hours=1)
ADMINS_ONLY = phrase(
    "Only members with the Manage Server permission can remove this server's data."
)
BUTTONS = {
    "me": phrase_in("button", "Remove my data"),
    "server": phrase_in("button", "Remove this server's data"),
}


def _in_play(channels: list[int]) -> str:
    return ", ".join(f"<#{channel}>" for channel in channels)


def kept_text(kept: keeping.Kept, retention_days: int, language: str = ENGLISH) -> str:
    """What the bot keeps about one person, in words of `language`."""

    def said(words: Phrase) -> str:
        return say(words, language)

    if not (kept.games or kept.playing or kept.results or kept.ratings):
        return said(phrase("Trash Table keeps nothing about you."))
    games = phrase_n("{n} finished or stopped game", "{n} finished or stopped games", kept.games)
    results = phrase_n("{n} scoreboard line", "{n} scoreboard lines", kept.results)
    ratings = phrase_n("{n} rating", "{n} ratings", kept.ratings)
    lines = [
        said(phrase("What Trash Table keeps about you, in every server:")),
        "- " + said(phrase("your name and seat in {games}", games=games)),
        "- " + said(phrase("{results} and {ratings}", results=results, ratings=ratings)),
        "- " + said(phrase_n("in {n} server", "in {n} servers", kept.guilds)),
    ]
    if kept.playing:
        playing = phrase(
            "a seat in the games under way in {channels}", channels=_in_play(kept.playing)
        )
        lines.append("- " + said(playing))
    removal = phrase(
        "Games are kept {days} days after they end, then removed. The button below removes "
        'all of it now: you become "a former player" in those games.',
        days=retention_days,
    )
    lines.append(said(removal))
    return "\n".join(lines)


def channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


class ForgetButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:forget:(?P<what>me|server)",
):
    """Removes the presser's own data (`me`) or, for an admin, the server's (`server`).
    Nothing in the id names whom: it is always the presser, or the presser's server."""

    def __init__(self, what: str, language: str = ENGLISH) -> None:
        label = say(BUTTONS[what], language)
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.danger, custom_id=f"tt:forget:{what}"
            )
        )
        self.what = what

    def leads_to_boards(self) -> bool:
        return False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetButton:
        return cls(match["what"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        db = interaction.client.db  # type: ignore[attr-defined]
        if self.what == "me":
            try:
                games = await keeping.forget_person(db, interaction.user.id)
            except keeping.StillPlaying as refused:
                raise UserError(
                    phrase(
                        "You are in a game under way in {channel}: leave it (/game leave) or "
                        "let it end first. Nothing was removed.",
                        channel=channel_mention(refused.channel_id),
                    )
                ) from None
            done = phrase_n(
                'Removed: you are now "a former player" in {n} game.',
                'Removed: you are now "a former player" in {n} games.',
                games,
            )
        else:
            guild_id = interaction.guild_id
            if guild_id is None or not interaction.permissions.manage_guild:
                raise UserError(ADMINS_ONLY)
            if playing := await keeping.active_channels(db, guild_id):
                raise UserError(
                    phrase(
                        "Games are under way in {channels}: stop them first (/game stop). "
                        "Nothing was removed.",
                        channels=_in_play(playing),
                    )
                )
            games = await keeping.forget_guild(db, guild_id)
            done = phrase_n(
                "Removed this server's data: {n} game, its scoreboard too.",
                "Removed this server's data: {n} games, its scoreboard too.",
                games,
            )
        language = language_for(interaction.locale)  # in the presser's private reply
        await edit_pressed(interaction, content=say(done, language), view=None)


def forget_view(what: str, language: str = ENGLISH) -> discord.ui.View:
    view = routed_by_custom_id(discord.ui.View(timeout=None))
    view.add_item(ForgetButton(what, language))
    return view


class PrivacyCog(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="What Trash Table keeps about you")

    def __init__(self, bot: TrashTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.clean_up.start()

    async def cog_unload(self) -> None:
        self.clean_up.cancel()

    @privacy.command(name="me", description="What Trash Table keeps about you; remove it")
    async def me(self, interaction: discord.Interaction) -> None:
        kept = await keeping.kept_about(self.bot.db, interaction.user.id)
        language = language_for(interaction.locale)  # a private reply
        text = kept_text(kept, self.bot.settings.game_retention_days, language)
        anything = kept.games or kept.playing or kept.results or kept.ratings
        view = forget_view("me", language) if anything else None
        await answer_command(interaction, public=False, content=text, **_with(view))

    @privacy.command(name="server", description="Remove this server's games and scoreboard")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def server(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise UserError(ADMINS_ONLY)
        settings = self.bot.settings
        kept = phrase(
            "Trash Table keeps this server's games, with the names of their players, for "
            "{days} days after each ends, and its scoreboard and ratings. If the bot is "
            "removed from the server, all of it goes {grace} days later. The button below "
            "removes it now.",
            days=settings.game_retention_days,
            grace=settings.departed_guild_grace_days,
        )
        language = language_for(interaction.locale)  # a private reply
        await answer_command(
            interaction,
            public=False,
            content=say(kept, language),
            view=forget_view("server", language),
        )

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await keeping.departed(self.bot.db, guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await keeping.returned(self.bot.db, guild.id)

    @tasks.loop(seconds=SWEEP_EVERY.total_seconds())
    async def clean_up(self) -> None:
        await self.sweep(utcnow())

    @clean_up.before_loop
    async def _before_clean_up(self) -> None:
        await self.bot.wait_until_ready()

    async def sweep(self, now: datetime) -> keeping.Swept | None:
        """Remove what is past its time. Also called by tests, with a clock of their own.
        A database out of service only skips this round."""
        settings = self.bot.settings
        try:
            swept = await keeping.sweep(
                self.bot.db,
                now,
                retention=timedelta(days=settings.game_retention_days),
                grace=timedelta(days=settings.departed_guild_grace_days),
                shards=settings.shards,
            )
        except Exception as error:
            if not out_of_service(error):
                raise
            log.warning("clean-up: the database is out of service (%r)", error)
            return None
        if swept.games or swept.guilds or swept.archived:
            log.info(
                "clean-up: removed %d games past retention and the data of %d departed "
                "servers; archived the logs of %d finished games",
                swept.games,
                swept.guilds,
                swept.archived,
            )
        return swept


def _with(view: discord.ui.View | None) -> dict[str, Any]:
    return {} if view is None else {"view": view}

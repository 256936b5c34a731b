"""Each player's private reply, kept open from turn to turn.

In a game played from a hand (Trash War, Dumpster Brawl!, Toss It's cards and aiming) a
player decides in their private reply. Once their move is made it says "Done."; when the
game comes back to them, pressing "My hand" again for a new reply would be a press that
decides nothing and a new message each turn. So the bot keeps, for each player, the way to
edit their newest private reply: the token of the press that made or last answered it,
valid for Discord's 15 minutes. When a press leaves another person to decide, that person's
reply is edited to show their hand and their choices at once (`refresh`). Before their first
reply, the press that seated them (Join, or the host's Start) posts it (`keep_seat`). A
reply out of reach (a token run out, a restart) leaves them "My hand" on the board.

Only the reply's owner sees it: an ephemeral message, edited through their own press's
token, in the language of their client. Kept in memory only, like the carriers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakValueDictionary

import aiohttp
import discord

from bot.internals.discord import ORIGINAL
from cogs.shared.board import files_of
from cogs.shared.carriers import TOKEN_SECONDS
from cogs.shared.limits import MAX_CONTENT, clip
from cogs.shared.presenter import Picture
from rules.base import JSON

if TYPE_CHECKING:
    from bot.client import TrashTableBot
    from bot.models import GameRecord

log = logging.getLogger(__name__)

KEPT = 4096  # open replies kept at most (players of the games in progress)


@dataclass(eq=False, slots=True)
class OpenReply:
    """How to edit one player's private reply: the webhook of the press that made it or
    last answered it, and the reply's message (None: the press's `@original` is the reply,
    a press made in it)."""

    followup: discord.Webhook
    message: int | None
    since: float  # time.monotonic() when the press arrived
    language: str  # the player's client's, from that press
    shown: int  # the game step its content was drawn at
    new: bool = False  # no reply yet (a lobby press): the first showing is a new message

    @property
    def fresh(self) -> bool:
        return time.monotonic() - self.since < TOKEN_SECONDS

    async def edit(self, **fields: Any) -> None:
        await self.followup.edit_message(
            ORIGINAL if self.message is None else self.message, **fields
        )

    async def show(self, content: str, files: list[discord.File], view: discord.ui.View) -> None:
        """The reply edited, or (`new`) posted as the press's private followup."""
        if not self.new:
            await self.edit(content=content, attachments=files, view=view)
            return
        sent = await self.followup.send(content, files=files, view=view, ephemeral=True, wait=True)
        self.message, self.new = sent.id, False

    async def delete(self) -> None:
        await self.followup.delete_message(ORIGINAL if self.message is None else self.message)


class Replies:
    """The open private replies, by channel (one game a channel) and player."""

    def __init__(self) -> None:
        self._open: OrderedDict[tuple[int, int], OpenReply] = OrderedDict()
        # One writer at a time on a player's reply, so an edit drawn at an older step never
        # lands after one drawn at a newer step (their answer, another press's refresh).
        self._writing: WeakValueDictionary[tuple[int, int], asyncio.Lock] = WeakValueDictionary()

    def writing(self, channel_id: int, user_id: int) -> asyncio.Lock:
        lock = self._writing.get((channel_id, user_id))
        if lock is None:
            lock = self._writing[(channel_id, user_id)] = asyncio.Lock()
        return lock

    def keep(
        self,
        interaction: discord.Interaction,
        message: int | None,
        language: str,
        step: int,
        new: bool = False,
    ) -> None:
        """`interaction` made or answered its player's private reply in its channel
        (`message`, or its `@original` when None), drawn at game step `step`; `new`: it
        made none yet, its token will post one."""
        key = (interaction.channel_id or 0, interaction.user.id)
        since = time.monotonic()
        self._open[key] = OpenReply(interaction.followup, message, since, language, step, new)
        self._open.move_to_end(key)
        while len(self._open) > KEPT:
            self._open.popitem(last=False)

    def of(self, channel_id: int, user_id: int) -> OpenReply | None:
        reply = self._open.get((channel_id, user_id))
        if reply is not None and not reply.fresh:
            del self._open[(channel_id, user_id)]
            return None
        return reply

    def drop(self, channel_id: int, user_id: int) -> None:
        self._open.pop((channel_id, user_id), None)


def replies_of(client: discord.Client) -> Replies:
    """The client's open replies (one set per bot process), kept on the client itself."""
    replies: Replies | None = getattr(client, "_open_replies", None)
    if replies is None:
        replies = Replies()
        setattr(client, "_open_replies", replies)  # noqa: B010 (not a declared attribute)
    return replies


def keep_reply(
    interaction: discord.Interaction, message: int | None, language: str, step: int
) -> None:
    replies_of(interaction.client).keep(interaction, message, language, step)


def keep_seat(interaction: discord.Interaction, language: str, pressed_at: float) -> None:
    """`interaction` seated its player at the channel's table (Join, Start): its token
    brings them their first private reply, a new message, when the game first asks them to
    decide (`refresh`), so not even the first turn needs a "My hand" press. Unless they
    opened one meanwhile (a "My hand" pressed on the first board while this press was being
    answered, at `pressed_at`, time.monotonic()): that one stays theirs."""
    replies = replies_of(interaction.client)
    opened = replies.of(interaction.channel_id or 0, interaction.user.id)
    if opened is None or opened.since < pressed_at:
        replies.keep(interaction, None, language, -1, new=True)


async def replace_reply(
    interaction: discord.Interaction, message: int, language: str, step: int
) -> None:
    """`interaction` posted a new private reply (`message`) for a decision its player's
    open reply could have shown (they pressed the board's control again): the new one is
    kept, and the one before deleted, so a player holds one private reply a game."""
    replies = replies_of(interaction.client)
    channel_id, user_id = interaction.channel_id or 0, interaction.user.id
    before = replies.of(channel_id, user_id)
    replies.keep(interaction, message, language, step)
    if before is None:
        return
    try:
        await before.delete()
    except discord.HTTPException as error:  # dismissed, or the token refused: it stays
        log.info("an earlier private reply stays (%s)", error.status)
    except (aiohttp.ClientError, OSError) as error:
        log.warning("an earlier private reply stays (%r)", error)


def writing(interaction: discord.Interaction) -> asyncio.Lock:
    """Held around a press's own answer in its player's private reply (`Replies`)."""
    return replies_of(interaction.client).writing(interaction.channel_id or 0, interaction.user.id)


# What a private reply shows: its text, pictures and controls, none of it drawn (and no
# controls) unless the player decides in it now (`components.private_reply`).
Build = Callable[
    ["TrashTableBot", "GameRecord", int, JSON, str],
    Awaitable[tuple[str, list[Picture], discord.ui.View | None]],
]


async def refresh(client: TrashTableBot, game: GameRecord, presser: int, build: Build) -> None:
    """Show each person who must decide now in `game` (but `presser`, whose own answer
    shows theirs) their hand and choices, drawn by `build`, in their open private reply, if
    any. Only where they decide in that reply (a hand game's turn, Toss It's card to lay
    down; not a choice made on the board); a reply Discord refuses is forgotten (its player
    has "My hand")."""
    sessions, replies = client.sessions, replies_of(client)
    for seat in sessions.humans_to_act(game):
        user = game.seats[seat].user_id or 0
        reply = replies.of(game.channel_id, user) if user != presser else None
        if reply is None or reply.shown >= game.step:
            continue  # it shows this step, or a newer one, already
        _, obs = sessions.own_view(game, user)
        text, pictures, view = await build(client, game, seat, obs, reply.language)
        if view is None:
            continue  # decided on the board (a drop, a Rumble move): the reply stays
        async with replies.writing(game.channel_id, user):
            reply = replies.of(game.channel_id, user)  # the newest, once its writer is done
            if reply is None or reply.shown >= game.step:
                continue  # the player's own answer shows this step or a newer one
            try:
                await reply.show(clip(text, MAX_CONTENT), files_of(pictures), view)
                reply.shown = game.step
            except discord.HTTPException as error:  # a token run out, the reply dismissed
                log.info("game %s: a private reply could not be edited (%s)", game.id, error.status)
                replies.drop(game.channel_id, user)
            except (aiohttp.ClientError, OSError) as error:
                # A courtesy edit: the press that led to it is saved and answered already,
                # and "My hand" shows the same.
                log.warning("game %s: a private reply's edit failed (%r)", game.id, error)

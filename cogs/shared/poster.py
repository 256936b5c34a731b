"""The poster: delivers the outbox (`bot/outbox.py`) to the channels.

The session service writes what a game must show in the transaction of the change that
caused it and wakes the poster through `sessions.outbox.signal`. For each channel the
poster delivers the pending entries one by one, in id order:

1. render the board off the event loop;
2. post it with a nonce made from the entry id (discord.py then asks Discord to enforce
   it: a post retried after a crash returns the message already made instead of a second
   one) and, at the same time, take the controls off the board it replaces (the game's
   board until now);
3. in one transaction, record the message as the entry's and the game's board and mark
   the entry delivered.

A board that continues the turn of the one before it (`continues` in the entry, see
`Game.continues_turn`) is instead edited onto the game's board message, with the lines that
message showed and its own; the edit is the same when repeated, and step 2 is skipped.

A process killed at any point repeats the unfinished steps on start-up, before the AI
resumes unplayed turns. A failure (a Discord 5xx, a render error) is retried with backoff;
each channel has its own task, so one broken game never holds up another. A refusal is not
retried: a channel gone or closed to the bot (404, 403) skips the board, and a token Discord
refuses (401) leaves it for the next start.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.models import GameRecord, OutboxEntry
from bot.outbox import BOARD
from cogs.shared import board, components, menus, rematch
from rules.base import JSON

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 1.0
LAST_RETRY_SECONDS = 60.0


def nonce_of(entry: OutboxEntry) -> str:
    """Discord takes a nonce of up to 25 characters; the entry id makes it unique."""
    return f"tt-outbox-{entry.id}"


def _view_of(
    entry: OutboxEntry, game: GameRecord, shown: board.BoardMessage
) -> discord.ui.View | None:
    if shown.has_view:
        return components.controls_view(
            game.id or 0,
            entry.step,
            shown.controls,
            shown.legal,
            menus.BOARD,  # where the menus' choices come from: the board's
            shown.hand_label,
        )
    if shown.finished:
        return rematch.rematch_view(game.id or 0)
    return None


def _layout_of(
    entry: OutboxEntry, game: GameRecord, shown: board.BoardMessage
) -> tuple[discord.ui.LayoutView, JSON]:
    """The board message as layout components, and what it shows (kept with the entry)."""
    files = [picture.filename for picture in shown.pictures]
    layout = board.board_layout(shown.text, files, _view_of(entry, game, shown))
    return layout, {"text": shown.text, "files": files}


class Poster:
    def __init__(self, client: TrashTableBot) -> None:
        self.client = client
        self.outbox = client.sessions.outbox
        self._channels: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # woken while already delivering: look once more
        self._main: asyncio.Task[None] | None = None
        self._draining = False  # stopping: deliver once, retry nothing
        self._delivering = 0  # channels reading or posting right now (not waiting to retry)

    @property
    def busy(self) -> bool:
        """True while a channel's entries are being read, drawn or posted."""
        return self._delivering > 0

    def start(self) -> None:
        self._main = asyncio.create_task(self._run(), name="outbox-poster")

    async def stop(self) -> None:
        """Deliver what is pending, then stop: the clean stop (SIGTERM) waits for this while
        Discord is still connected. A delivery that fails now is not retried; the next start
        delivers it."""
        self._draining = True
        if self._main is not None:
            self._main.cancel()
            await asyncio.gather(self._main, return_exceptions=True)
        try:
            await self.outbox.close_open()
            for channel_id in await self.outbox.channels_pending():
                await self._wake(channel_id)
        except Exception:
            log.exception("stopping: could not read the outbox; the next start delivers it")
        await asyncio.gather(*self._channels.values(), return_exceptions=True)

    async def _run(self) -> None:
        await self.client.wait_until_ready()
        # Start-up: first whatever a previous process left undelivered, then the AI's
        # unplayed turns (which write new entries, delivered as they come).
        await asyncio.gather(*(self._wake(ch) for ch in await self.outbox.channels_pending()))
        await asyncio.gather(*self._channels.values(), return_exceptions=True)
        listener = asyncio.create_task(self._listen())
        try:
            await self.client.sessions.resume_all()
        except Exception:
            log.exception("resuming the AI's turns failed")
        await listener

    async def _listen(self) -> None:
        while True:
            for channel_id in await self.outbox.signal.wait():
                await self._wake(channel_id)

    async def _wake(self, channel_id: int) -> None:
        task = self._channels.get(channel_id)
        if task is not None and not task.done():
            self._again.add(channel_id)
            return
        self._channels[channel_id] = asyncio.create_task(
            self._deliver_channel(channel_id), name=f"outbox-{channel_id}"
        )

    async def _deliver_channel(self, channel_id: int) -> None:
        delay = FIRST_RETRY_SECONDS
        while True:
            self._again.discard(channel_id)
            try:
                await self._deliver_pending(channel_id)
            except Exception as error:
                if isinstance(error, discord.HTTPException) and error.status == 401:
                    # Discord refused the bot's token: every try would be refused alike, and
                    # counted against the bot as invalid. The entries wait for the next start.
                    log.error("channel %s: Discord refused the bot's token (401)", channel_id)
                    return
                if self._draining:
                    log.exception("channel %s: delivery failed while stopping", channel_id)
                    return
                log.exception("channel %s: delivering a game message failed; retrying", channel_id)
                await asyncio.sleep(delay)
                delay = min(delay * 2, LAST_RETRY_SECONDS)
                continue
            delay = FIRST_RETRY_SECONDS
            if channel_id not in self._again:
                return

    async def _deliver_pending(self, channel_id: int) -> None:
        self._delivering += 1
        try:
            for entry, game in await self.outbox.pending(channel_id):
                await self._deliver(entry, game)
        finally:
            self._delivering -= 1

    async def _deliver(self, entry: OutboxEntry, game: GameRecord) -> None:
        if entry.kind == BOARD and entry.message_id is None:
            await self._deliver_board(entry, game)
            return
        if entry.kind == BOARD:
            # Posted and recorded by an older version that cleared the old board afterwards.
            messages = {entry.replaced_id} if entry.replaced_id else set()
        else:
            messages = set(entry.payload["messages"])
            if game.board_message_id:
                messages.add(game.board_message_id)  # a board posted after the stop
        for message_id in sorted(messages):
            await self._clear(game, entry.channel_id, message_id)
        await self.outbox.delivered(entry.id or 0)

    async def _clear(self, game: GameRecord, channel_id: int, message_id: int) -> None:
        """Take the controls off a lobby or board message. Both are layout messages, with
        no text outside their components: each is sent again as it stands, without them
        (a board posted before boards were layouts just loses its components)."""
        layout: discord.ui.LayoutView | None
        if message_id == game.lobby_message_id:
            layout = components.lobby_view(game, controls=False)
        else:
            shown = await self.outbox.layout_of(game.id or 0, message_id)
            layout = None if shown is None else board.board_layout(shown["text"], shown["files"])
        await board.clear_controls(self.client, channel_id, message_id, layout)

    async def _deliver_board(self, entry: OutboxEntry, game: GameRecord) -> None:
        turn_message = game.board_message_id if entry.payload.get("continues") else None
        if turn_message and await self._edit_board(entry, game, turn_message):
            return
        shown = await board.board_message(self.client, entry, game)
        layout, kept = _layout_of(entry, game, shown)
        # The board this one replaces loses its controls while this one is posted (one
        # round trip instead of two before the players see it). Both are done again after
        # a crash or a failure of either: the clear is harmless, and the nonce keeps the
        # post from being doubled.
        replaced = game.board_message_id
        channel = self.client.get_partial_messageable(entry.channel_id)
        sending = channel.send(
            files=board.files_of(shown.pictures),
            view=layout,
            allowed_mentions=shown.mentions,
            nonce=nonce_of(entry),
        )
        try:
            if replaced:
                _, message = await asyncio.gather(
                    self._clear(game, entry.channel_id, replaced), sending
                )
            else:
                message = await sending
        except (discord.NotFound, discord.Forbidden) as error:
            # The channel is gone or closed to the bot: retrying would never end.
            log.warning("game %s: board not posted (%s)", entry.game_id, error.status)
            await self.outbox.delivered(entry.id or 0)
            return
        await self.outbox.posted(entry, message.id, replaced, kept)
        game.board_message_id = message.id  # the next entry of this game replaces this board

    async def _edit_board(self, entry: OutboxEntry, game: GameRecord, message_id: int) -> bool:
        """Show the entry on the game's board message (the same turn's); False when that
        message is gone, and the board is posted as a new message instead."""
        earlier = await self.outbox.lines_shown(game.id or 0, message_id)
        shown = await board.board_message(self.client, entry, game, earlier)
        layout, kept = _layout_of(entry, game, shown)
        message = self.client.get_partial_messageable(entry.channel_id).get_partial_message(
            message_id
        )
        try:
            await message.edit(
                content=None,  # a turn's message posted before layouts had its text here
                attachments=board.files_of(shown.pictures),
                view=layout,
                allowed_mentions=shown.mentions,
            )
        except discord.NotFound:
            log.info("game %s: board %s is gone; posting a new one", entry.game_id, message_id)
            return False
        except discord.Forbidden as error:  # the channel is closed to the bot: as a post
            log.warning("game %s: board not edited (%s)", entry.game_id, error.status)
            await self.outbox.delivered(entry.id or 0)
            return True
        await self.outbox.edited(entry, message_id, [*earlier, *entry.payload["lines"]], kept)
        return True

"""The poster: delivers the outbox (`bot/outbox.py`) to the channels.

The session service writes what a game must show in the transaction of the change that
caused it and wakes the poster through `sessions.outbox.signal`. For each channel the
poster delivers the pending entries one by one, in id order:

1. have the board drawn (by the `Drawing` the poster is handed: `cogs/shared/drawing.py`,
   which renders off the event loop);
2. post it: on the press that caused it when one can carry it (a followup on its
   interaction's webhook, which Discord does not count against the bot token's 50 a
   second: `cogs/shared/carriers.py`), else through the bot token with a nonce made from
   the entry id (discord.py then asks Discord to enforce it: a post retried after a crash
   returns the message already made instead of a second one); at the same time the board
   it replaces loses its controls when a press can edit that one too, else keeps them;
3. in one transaction, record the message as the entry's and the game's board and mark
   the entry delivered.

A board that continues the turn of the one before it (`continues` in the entry, decided
by the outbox) is instead edited onto the game's board message, with the lines that message
showed and its own (through a press whose answer is that message, else the bot token); the
edit is the same when repeated, and step 2 is skipped. A followup has no nonce: an entry
that may have been posted without this process knowing is first looked for in the channel
(`_lost_post`).

A process killed at any point repeats the unfinished steps on start-up, before the AI
resumes unplayed turns. A failure (a Discord 5xx, a render error) is retried with backoff;
each channel has its own task, so one broken game never holds up another. A refusal is not
retried: a channel gone (404) skips the board, a press's token refused (401) hands the board
to the bot token, and the bot token refused (401) leaves it for the next start.

A board Discord refuses with 403 (a permission taken from the bot in the channel) pauses
the channel instead: the entry stays undelivered and nothing more is sent there (each 403
counts toward Discord's limit of invalid requests) until `resume`, called by a press or
command whose `app_permissions` show the permissions back, or by a permission change the
cache shows (cogs/shared/permissions.py). Pauses live in memory: only this process
delivers its guilds' channels, and a restart meets the 403 again and pauses again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.games import GAMES
from bot.logs import game_fields
from bot.models import GameRecord, OutboxEntry
from bot.outbox import BOARD, folded, run_of
from cogs.shared import board, permissions
from cogs.shared.carriers import Carrier, carriers_of
from cogs.shared.interactions import walk_components
from cogs.shared.presenter import Picture
from rules.base import JSON

if TYPE_CHECKING:
    from bot.client import TrashTableBot

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 1.0
LAST_RETRY_SECONDS = 60.0


def nonce_of(entry: OutboxEntry) -> str:
    """Discord takes a nonce of up to 25 characters; the entry id makes it unique, and the
    time it was written keeps it so after a restored backup, which hands the ids of entries
    already posted (Discord would answer with those boards) to new ones."""
    written = int(entry.created_at.timestamp() * 1000) % 10**10
    return f"tt-{entry.id}-{written}"


@dataclass(frozen=True)
class DrawnBoard:
    """A board message ready to send: its layout (text, gallery, controls), the pictures
    the layout names, whom it pings, and what it shows (kept with the entry, so the board
    can be drawn again without its controls, or continued by an edit)."""

    layout: discord.ui.LayoutView
    pictures: list[Picture]
    mentions: discord.AllowedMentions
    kept: JSON

    def files(self) -> list[discord.File]:
        """The pictures as files: new ones for each request (a file is read once sent)."""
        return board.files_of(self.pictures)


class Drawing(Protocol):
    """What draws the messages the poster delivers (`cogs/shared/drawing.py`)."""

    async def board(
        self, entry: OutboxEntry, game: GameRecord, earlier: Sequence[str] = ()
    ) -> DrawnBoard:
        """A board entry as a message, after the `earlier` lines of the message it edits."""
        ...

    def bare_lobby(self, game: GameRecord) -> discord.ui.LayoutView:
        """The game's lobby message as it stands, without its controls."""
        ...


@dataclass(frozen=True)
class Blocked:
    """A channel whose boards wait for a permission: Discord's error code (50013 Missing
    Permissions, 50001 Missing Access) and what the bot lacks there as its cache told at
    the time (empty when it could not tell)."""

    code: int
    missing: tuple[str, ...]


class Poster:
    """Delivers each channel's outbox entries as `drawer` draws them."""

    def __init__(self, client: TrashTableBot, drawer: Drawing) -> None:
        self.client = client
        self.drawer = drawer
        self.outbox = client.sessions.outbox
        self._channels: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # woken while already delivering: look once more
        self._main: asyncio.Task[None] | None = None
        self._draining = False  # stopping: deliver once, retry nothing
        self._delivering = 0  # channels reading or posting right now (not waiting to retry)
        self._blocked: dict[int, Blocked] = {}  # channels paused by a 403, until `resume`
        permissions.register(client, self)
        self.carriers = carriers_of(client)
        # Entries that may have been posted without this process knowing (left pending by
        # the previous process, or a post that failed midway): `_lost_post` looks first.
        self._unsure: set[int] = set()
        self._starting = True

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
        self._starting = False
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

    def blocked(self, channel_id: int) -> Blocked | None:
        """Why the channel's boards are paused, or None when they are not."""
        return self._blocked.get(channel_id)

    def paused(self) -> list[int]:
        return list(self._blocked)

    async def resume(self, channel_id: int) -> None:
        """The permissions may be back: deliver the channel's pending boards again (a 403
        pauses it again)."""
        if self._blocked.pop(channel_id, None) is not None:
            log.info("channel %s: boards resumed", channel_id)
            await self._wake(channel_id)

    def _pause(self, game: GameRecord, error: discord.Forbidden) -> None:
        channel_id = game.channel_id
        missing = permissions.lacking_in(self.client.get_channel(channel_id)) or ()
        if not missing and error.code == 50001:
            missing = ("view_channel",)
        self._blocked[channel_id] = Blocked(error.code, missing)
        log.warning(
            "game %s (%s) paused in guild %s, channel %s: its boards wait (%s; lacking %s)",
            game.id,
            game.kind,
            game.guild_id,
            channel_id,
            error.code,
            missing,
            extra=game_fields(game),
        )

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
            for entry, game in folded(await self.outbox.pending(channel_id), self._apart):
                if channel_id in self._blocked:
                    return  # the rest wait for `resume`: each would only be refused again
                if self._starting:
                    self._unsure.add(entry.id or 0)
                await self._deliver(entry, game)
        finally:
            self._delivering -= 1

    def _apart(self, game: GameRecord) -> bool:
        """Whether the game's queued boards are each shown apart: in a game that shows every
        action (Toss It's drops), while people play it (a person holds a seat) and a press
        can carry the edits. Otherwise (every person has left, a restart) queued boards are
        folded: the AI's run is shown at the pace Discord allows the token that carries it,
        several actions an edit."""
        board_message = game.board_message_id
        if not GAMES[game.kind].board_each_action or board_message is None:
            return False
        people = any(not seat.ai for seat in game.seats)
        return people and bool(self.carriers.on(game.channel_id, board_message, peek=True))

    async def _deliver(self, entry: OutboxEntry, game: GameRecord) -> None:
        if entry.kind == BOARD and entry.message_id is None:
            await self._deliver_board(entry, game)
            return
        if entry.kind == BOARD:
            # Posted and recorded by an older version that cleared the old board afterwards.
            messages = {entry.replaced_id} if entry.replaced_id else set()
        else:
            # A board the stop named that a newer board has replaced since lost its controls
            # then (and its layout is no longer kept): only the game's messages as they are.
            now = {game.board_message_id, game.lobby_message_id}
            messages = {m for m in entry.payload["messages"] if m in now}
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
            layout = self.drawer.bare_lobby(game)
        else:
            shown = await self.outbox.layout_of(game.id or 0, message_id)
            layout = None if shown is None else board.board_layout(shown["text"], shown["files"])
        carrier = self.carriers.on(channel_id, message_id)
        if (
            carrier is not None
            and layout is not None
            and await self._through(
                channel_id,
                carrier,
                carrier.edit(message_id, content=None, view=layout),
            )
        ):
            return
        await board.clear_controls(self.client, channel_id, message_id, layout)

    async def _through(
        self, channel_id: int, carrier: Carrier, sending: Awaitable[Any]
    ) -> Any | None:
        """Send on a press's own token: what Discord answered, or None when the token is
        refused (run out, or the interaction unknown), and the bot token must carry it."""
        try:
            return await sending
        except (discord.NotFound, discord.HTTPException) as error:
            if error.status not in (401, 404):
                raise
            log.info("channel %s: a press's token was refused (%s)", channel_id, error.status)
            self.carriers.drop(channel_id, carrier)
            return None

    async def _deliver_board(self, entry: OutboxEntry, game: GameRecord) -> None:
        turn_message = game.board_message_id if entry.payload.get("continues") else None
        if turn_message and await self._edit_board(entry, game, turn_message):
            return
        drawn = await self.drawer.board(entry, game)
        replaced = game.board_message_id
        if entry.payload.get("restored"):
            await self._take_off_lost_steps(game, entry.channel_id)
        found = await self._lost_post(entry, game) if entry.id in self._unsure else None
        try:
            if found is not None:
                message_id = found
            elif replaced:
                # The board this one replaces loses its controls while this one is posted,
                # when the press that caused it can edit it for free; else it keeps them
                # (pressed, they say they are out of date).
                message_id, _ = await asyncio.gather(
                    self._post(entry, drawn), self._finish(game, entry, replaced)
                )
            else:
                message_id = await self._post(entry, drawn)
        except discord.NotFound as error:  # the channel is gone: retrying would never end
            log.warning("game %s: board not posted (%s)", entry.game_id, error.status)
            await self.outbox.delivered(*run_of(entry))
            return
        except discord.Forbidden as error:  # a permission taken away: the board waits
            self._pause(game, error)
            return
        except Exception:
            self._unsure.add(entry.id or 0)  # it may have been made: look before posting again
            raise
        self._unsure.discard(entry.id or 0)
        await self.outbox.posted(entry, message_id, replaced, drawn.kept)
        self.client.metrics.boards_delivered.inc()
        game.board_message_id = message_id  # the next entry of this game replaces this board

    async def _post(self, entry: OutboxEntry, drawn: DrawnBoard) -> int:
        """Post a new board: as a followup of the newest press in the channel, else through
        the bot token with a nonce made from the entry (a post retried after a crash then
        gets the message Discord already made)."""
        carrier = self.carriers.newest(entry.channel_id)
        if carrier is not None:
            message = await self._through(
                entry.channel_id,
                carrier,
                carrier.followup.send(
                    files=drawn.files(),
                    view=drawn.layout,
                    allowed_mentions=drawn.mentions,
                    wait=True,
                ),
            )
            if message is not None:
                self.carriers.posted(entry.channel_id, message.id, carrier)
                return int(message.id)
        channel = self.client.get_partial_messageable(entry.channel_id)
        message = await channel.send(
            files=drawn.files(),
            view=drawn.layout,
            allowed_mentions=drawn.mentions,
            nonce=nonce_of(entry),
        )
        return message.id

    async def _finish(self, game: GameRecord, entry: OutboxEntry, message_id: int) -> None:
        """The board a new one replaces: its controls off, through a press that can edit it
        (free of the bot token's budget), or not at all."""
        if self.carriers.on(entry.channel_id, message_id) is not None:
            await self._clear(game, entry.channel_id, message_id)

    async def _take_off_lost_steps(self, game: GameRecord, channel_id: int) -> None:
        """A game restored from a backup: the boards posted after the one it records show
        steps that no longer exist, and their controls would mean other moves once the game
        reaches those steps again. They go (the bot may delete its own messages), and the
        recorded board shows again what it showed then, without its controls."""
        after = game.board_message_id or game.lobby_message_id
        me = self.client.user
        if after is None or me is None:
            return
        channel = self.client.get_partial_messageable(channel_id)
        try:
            async for message in channel.history(limit=100, after=discord.Object(after)):
                if message.author.id == me.id and _names_game(message, game):
                    log.info("game %s: board %s of a lost step taken off", game.id, message.id)
                    await message.delete()
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("game %s: boards of lost steps left (%s)", game.id, error.status)
        if game.board_message_id:
            await self._clear(game, channel_id, game.board_message_id)

    async def _lost_post(self, entry: OutboxEntry, game: GameRecord) -> int | None:
        """A board this process may not know it posted (a followup carries no nonce): the
        first of the game's boards in the channel after the one recorded, if there is one.
        Asked only of an entry left pending by a previous process or by a failure whose
        outcome is unknown."""
        after = game.board_message_id or game.lobby_message_id
        me = self.client.user
        if after is None or me is None:
            return None
        channel = self.client.get_partial_messageable(entry.channel_id)
        try:
            async for message in channel.history(limit=10, after=discord.Object(after)):
                # Its controls made at another step: a board of steps a restored backup
                # took back, not this entry's.
                if message.author.id == me.id and _names_game(message, game, entry.step):
                    log.info("game %s: board %s found posted", game.id, message.id)
                    return message.id
        except (discord.NotFound, discord.Forbidden):
            pass
        return None

    async def _edit_board(self, entry: OutboxEntry, game: GameRecord, message_id: int) -> bool:
        """Show the entry on the game's board message (the same turn's); False when that
        message is gone, and the board is posted as a new message instead. Through a press
        whose token can edit that message (its answer, or a followup it posted) when there
        is one, else through the bot token."""
        earlier = await self.outbox.lines_shown(game.id or 0, message_id)
        drawn = await self.drawer.board(entry, game, earlier)

        def edit() -> dict[str, Any]:
            return {
                "content": None,  # a turn's message posted before layouts had its text here
                "attachments": drawn.files(),
                "view": drawn.layout,
                "allowed_mentions": drawn.mentions,
            }

        carrier = self.carriers.on(entry.channel_id, message_id)
        try:
            if carrier is None or not await self._through(
                entry.channel_id, carrier, carrier.edit(message_id, **edit())
            ):
                message = self.client.get_partial_messageable(entry.channel_id).get_partial_message(
                    message_id
                )
                await message.edit(**edit())
        except discord.NotFound:
            log.info("game %s: board %s is gone; posting a new one", entry.game_id, message_id)
            return False
        except discord.Forbidden as error:  # a permission taken away: as a post
            self._pause(game, error)
            return True
        await self.outbox.edited(entry, message_id, [*earlier, *entry.payload["lines"]], drawn.kept)
        self.client.metrics.boards_delivered.inc()
        return True


# A game control's custom id: `tt:<kind>:<game>...`, and a play control's step next
# (`tt:act:<game>:<step>:...`, as cogs/shared/components.py makes them).
_CONTROL = re.compile(r"tt:([a-z]+):([0-9]+)(?::([0-9]+))?")
_PLAY = ("act", "menu", "group")


def _names_game(message: discord.Message, game: GameRecord, step: int | None = None) -> bool:
    """Whether `message` carries controls of `game` (given `step`, and no play control
    made at another step)."""
    named, steps = False, set()
    for item in walk_components(message.components):
        found = _CONTROL.match(getattr(item, "custom_id", None) or "")
        if found is None or found[2] != str(game.id):
            continue
        named = True
        if found[1] in _PLAY and found[3] is not None:
            steps.add(int(found[3]))
    return named and (step is None or steps <= {step})

"""Presses whose interaction can carry a channel's boards.

Discord gives a bot token 50 requests a second in all, but does not count an interaction's
own webhook against it: a press's token may edit the message its answer is (`@original`)
and post new messages in the channel (followups) for 15 minutes. So the boards a press
causes go out on that press (`cogs/shared/poster.py`), and the bot token carries only what
no press caused: the turn timer's moves, the start-up delivery after a restart, a board whose
press's token has run out.

A press is a carrier once it has been answered in a way whose followups are new messages:
a message of its own (type 4), or an update of the message pressed (types 6 and 7, whose
`@original` is that message: a board pressed on can be edited through it). A "thinking"
answer (type 5) is not: its first followup would fill the thinking message, which is private.
A token may also edit the messages it posted as followups, so a board posted on a press is
edited through that press until one is made on the board itself. Each channel keeps its
newest presses and, apart from them, the presses that can edit each of its newest messages
(a player may make many presses in a private reply while its board is edited through the
"My hand" pressed on it). Carriers are kept in memory only: after a restart the bot token
delivers what is pending.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.internals.discord import ORIGINAL

TOKEN_SECONDS = 14 * 60.0  # Discord's tokens last 15 minutes; a minute's margin
KEPT = 6  # carriers kept per channel: the newest press on each board is what counts
EDITED = 4  # messages per channel whose editing presses are kept (its board, its lobby)
SWEEP_EVERY = 1024  # presses between two looks for channels whose carriers all expired

_FOLLOWS_AS_NEW = {
    discord.InteractionResponseType.channel_message,
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
}
_UPDATES_PRESSED = {
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
}


@dataclass(eq=False, slots=True)
class Carrier:
    """What a press leaves that can carry a board: its token's webhook, the channel message
    it was made on, and how it was answered. Not the interaction itself: with its member,
    message and components, thousands kept at a time made every full garbage collection
    walk a heap that grew all the while."""

    followup: discord.Webhook  # the press's interaction webhook (its token)
    pressed: int | None  # the channel message it was made on; None in a private reply
    since: float  # time.monotonic() when the press arrived
    posted: tuple[int, ...] = ()  # channel messages its token posted (a few at most)
    used: float = 0.0  # when it last carried something (time.monotonic())
    answered: discord.InteractionResponseType | None = None
    unanswered: discord.Interaction | None = None  # kept only until its answer is known

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Carrier:
        message = interaction.message
        pressed = None if message is None or message.flags.ephemeral else message.id
        return cls(interaction.followup, pressed, time.monotonic(), unanswered=interaction)

    def answer(self) -> discord.InteractionResponseType | None:
        """How the press was answered, once it has been (then the interaction is let go)."""
        if self.unanswered is not None and self.unanswered.response.type is not None:
            self.answered, self.unanswered = self.unanswered.response.type, None
        return self.answered

    @property
    def usable(self) -> bool:
        fresh = time.monotonic() - self.since < TOKEN_SECONDS
        return fresh and self.answer() in _FOLLOWS_AS_NEW

    @property
    def original(self) -> int | None:
        """The channel message `@original` is, when the press updated the message it was
        on (a board or a lobby); None for a private reply or an answer of its own."""
        return self.pressed if self.answer() in _UPDATES_PRESSED else None

    def edits(self, message_id: int) -> bool:
        """Whether its token can edit channel message `message_id`: the message its answer
        is, or one it posted."""
        return message_id in self.posted or self.original == message_id

    async def edit(self, message_id: int, **fields: Any) -> Any:
        """Edit channel message `message_id` through the press's token (`edits` is True)."""
        return await self.followup.edit_message(
            ORIGINAL if self.original == message_id else message_id, **fields
        )


@dataclass(eq=False)
class _Editors:
    """The presses that may edit one channel message: the one whose token posted it, and
    the newest made on it (whether they can, their answers tell: a Toss It aim menu on a
    board answers with a private reply of its own, turn after turn)."""

    poster: Carrier | None = None
    pressed: deque[Carrier] = field(default_factory=lambda: deque(maxlen=KEPT))

    def add(self, carrier: Carrier) -> None:
        """A new press on the message; presses answered with a message of their own can't
        edit it and make room first."""
        for old in [c for c in self.pressed if c.answer() is not None and c.original is None]:
            self.pressed.remove(old)
        self.pressed.append(carrier)

    def all(self) -> list[Carrier]:
        return [*self.pressed, *([self.poster] if self.poster else [])]


class Carriers:
    """The recent presses of each channel, newest last."""

    def __init__(self) -> None:
        self._channels: dict[int, deque[Carrier]] = {}
        # channel -> its newest messages pressed on or posted -> their editors
        self._editors: dict[int, OrderedDict[int, _Editors]] = {}
        self._added = 0

    def add(self, interaction: discord.Interaction) -> Carrier | None:
        """Keep a press of a server channel; its carrier, to be told once it is answered
        (`Carrier.answer`), so that the interaction is let go at once."""
        if interaction.channel_id is None or interaction.guild_id is None:
            return None
        kept = self._channels.setdefault(interaction.channel_id, deque(maxlen=KEPT))
        for older in kept:  # a command's press is answered after this was called
            older.answer()
        carrier = Carrier.of(interaction)
        kept.append(carrier)
        if carrier.pressed is not None:  # pressed on a channel message
            self._editors_of(interaction.channel_id, carrier.pressed).add(carrier)
        self._added += 1
        if self._added % SWEEP_EVERY == 0:  # channels nobody has pressed in for a while
            for channel_id in list(self._channels):
                self._live(channel_id)
        return carrier

    def posted(self, channel_id: int, message_id: int, carrier: Carrier) -> None:
        """`carrier`'s token posted channel message `message_id`, and can edit it."""
        carrier.posted += (message_id,)
        self._editors_of(channel_id, message_id).poster = carrier

    def on(
        self, channel_id: int, message_id: int, peek: bool = False, pressed: bool = False
    ) -> Carrier | None:
        """A usable press whose token can edit channel message `message_id`: of several,
        the one that carried something, or was made, longest ago: Discord paces each token
        on its own (a few requests a second), so an AI's run of edits goes faster spread
        out, and a press just made is still sending its own private reply on its token
        (discord.py sends one request a token at a time).
        `peek`: only asking whether there is one; `pressed`: only a press made on it."""
        messages = self._editors.get(channel_id)
        editors = messages[message_id].all() if messages and message_id in messages else []
        able = {id(c): c for c in [*editors, *self._live(channel_id)]}.values()
        on_it = [
            c
            for c in able
            if c.usable and (c.original == message_id if pressed else c.edits(message_id))
        ]
        if not on_it:
            return None
        carrier = min(on_it, key=lambda c: max(c.used, c.since))
        if not peek:
            carrier.used = time.monotonic()
        return carrier

    def _editors_of(self, channel_id: int, message_id: int) -> _Editors:
        messages = self._editors.setdefault(channel_id, OrderedDict())
        editors = messages.setdefault(message_id, _Editors())
        messages.move_to_end(message_id)
        while len(messages) > EDITED:
            messages.popitem(last=False)
        return editors

    def newest(self, channel_id: int) -> Carrier | None:
        """The newest usable press of the channel, to post a new message with."""
        live = self._live(channel_id)
        return live[-1] if live else None

    def drop(self, channel_id: int, carrier: Carrier) -> None:
        """A token Discord refused (expired, or the interaction unknown): not tried again."""
        kept = self._channels.get(channel_id)
        if kept is not None and carrier in kept:
            kept.remove(carrier)
        for editors in self._editors.get(channel_id, {}).values():
            if carrier in editors.pressed:
                editors.pressed.remove(carrier)
            if editors.poster is carrier:
                editors.poster = None

    def _live(self, channel_id: int) -> list[Carrier]:
        kept = self._channels.get(channel_id)
        if kept is None:
            return []
        live = [carrier for carrier in kept if carrier.usable]
        if not live and all(time.monotonic() - carrier.since >= TOKEN_SECONDS for carrier in kept):
            del self._channels[channel_id]  # nothing left that could become usable
            self._editors.pop(channel_id, None)  # none of them newer than these
        return live


def carriers_of(client: discord.Client) -> Carriers:
    """The client's carriers (one set per bot process), kept on the client itself so they
    go with it."""
    carriers: Carriers | None = getattr(client, "_press_carriers", None)
    if carriers is None:
        carriers = Carriers()
        setattr(client, "_press_carriers", carriers)  # noqa: B010 (not a declared attribute)
    return carriers

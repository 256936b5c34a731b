"""What the bot needs in a channel to run a game there, and how it says what is missing.

Boards are layout messages the bot posts in the channel with their pictures attached: that
takes View Channel, Send Messages (Send Messages in Threads in a thread) and Attach Files.
Read Message History is asked for with them, though no request the bot makes today reads
old messages. Embed Links is not needed: a layout shows the message's own attachments.
Interaction responses need none of the bot's channel permissions but Attach Files
(tests/fakediscord/README.md, "Interaction responses"), so a lobby can open and a press be
answered where no board could be posted: hence the check before a lobby opens and before a
game's press goes on.

Where the permissions come from: Discord computes the bot's permissions in the channel and
sends them with every interaction (`interaction.app_permissions`), overwrites, roles and
Administrator included. That is what Discord itself goes by, so presses and commands read
it. A board refused with a 403 has no interaction at hand: the poster then asks
discord.py's cache (`lacking_in`, kept current by CHANNEL_UPDATE and GUILD_ROLE_UPDATE),
only to name the permission in its log and to notice when an admin gives it back. Should
the cache be wrong, the next press still decides: it never holds a game back on the
cache's word.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol
from weakref import WeakKeyDictionary

import discord

from rules.phrases import Listing, Phrase, listing, phrase, phrase_in

if TYPE_CHECKING:
    from collections.abc import Iterable

# discord.py's names, in the order a channel's settings list them, and as Discord's client
# shows them.
NAMES = {
    "view_channel": phrase_in("permission", "View Channel"),
    "send_messages": phrase_in("permission", "Send Messages"),
    "send_messages_in_threads": phrase_in("permission", "Send Messages in Threads"),
    "attach_files": phrase_in("permission", "Attach Files"),
    "read_message_history": phrase_in("permission", "Read Message History"),
}
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def in_thread(channel: object) -> bool:
    """Whether `channel` (an interaction's, which may be partial) is a thread."""
    return getattr(channel, "type", None) in THREADS


def needed(thread: bool) -> tuple[str, ...]:
    send = "send_messages_in_threads" if thread else "send_messages"
    return ("view_channel", send, "attach_files", "read_message_history")


def lacking(permissions: discord.Permissions, thread: bool) -> tuple[str, ...]:
    """The needed permissions `permissions` lacks. Without View Channel Discord denies
    everything else in the channel, and without the permission to send it denies Attach
    Files: those are not named beside it (discord.py's cache clears them too, so they
    could not be told from ones an admin denied; the next check names what remains)."""
    missing = [name for name in needed(thread) if not getattr(permissions, name)]
    if "view_channel" in missing:
        return ("view_channel",)
    if {"send_messages", "send_messages_in_threads"} & set(missing):
        missing = [name for name in missing if name != "attach_files"]
    return tuple(missing)


def lacking_in(channel: object) -> tuple[str, ...] | None:
    """What the bot lacks in a channel as discord.py's cache tells; None when the cache
    does not hold the channel (or a thread's parent)."""
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    try:
        permissions = channel.permissions_for(channel.guild.me)
    except discord.ClientException:  # a thread whose parent is not cached
        return None
    return lacking(permissions, isinstance(channel, discord.Thread))


def listed(missing: Iterable[str]) -> Listing:
    return listing([NAMES.get(name, name) for name in missing])


def cannot_post(missing: tuple[str, ...], thread: bool) -> Phrase:
    """The one line a press or `/game status` gets while boards cannot be posted."""
    if thread:
        return phrase(
            "I can't post boards here: I need {permissions} in this thread.",
            permissions=listed(missing),
        )
    return phrase(
        "I can't post boards here: I need {permissions} in this channel.",
        permissions=listed(missing),
    )


def cannot_open(missing: tuple[str, ...], thread: bool) -> Phrase:
    """The host's answer to a lobby that cannot open: what is missing and where to grant
    it (a thread has no permission settings of its own: it takes its channel's)."""
    if thread:
        return phrase(
            "I can't run a game here: I need {permissions} in this thread.\n"
            "An admin can allow it for my role in the settings of the channel this thread "
            "is in (threads take its permissions), under Permissions.",
            permissions=listed(missing),
        )
    return phrase(
        "I can't run a game here: I need {permissions} in this channel.\n"
        "An admin can allow it for my role in this channel's settings, under Permissions.",
        permissions=listed(missing),
    )


class Pauses(Protocol):
    """What a press asks the poster (cogs/shared/poster.py) about a channel whose boards
    it paused."""

    def blocked(self, channel_id: int) -> object | None: ...

    async def resume(self, channel_id: int) -> None: ...


# The poster of each client. The press path cannot import the poster (the poster draws
# boards with the press path's controls), so the poster registers itself here.
_POSTERS: WeakKeyDictionary[discord.Client, Pauses] = WeakKeyDictionary()


def register(client: discord.Client, poster: Pauses) -> None:
    _POSTERS[client] = poster


def poster_of(client: discord.Client) -> Pauses | None:
    return _POSTERS.get(client)

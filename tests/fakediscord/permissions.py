"""Permissions in a channel, computed the way Discord documents it, and what a bot request
needs of them.

Discord's recipe (https://discord.com/developers/docs/topics/permissions, "Permission
Hierarchy" and "Permission Overwrites"):

1. the base: @everyone's permissions and those of every role of the member; the guild's
   owner, or anyone whose roles give Administrator, has every permission;
2. in a channel, Administrator skips the overwrites; otherwise the @everyone overwrite
   (keyed by the guild's id) is applied, then the overwrites of all the member's roles
   together (their denies, then their allows), then the member's own overwrite;
3. a thread has no overwrites of its own: it takes its parent channel's.

The numbers computed here are what interaction payloads carry (``app_permissions``,
``member.permissions``, ``channel.permissions``). Discord's implicit rules ("Implicit
Permissions": nothing without View Channel, no Attach Files without the permission to send)
are applied where an action is checked (`refusal`), not to those numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .state import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeDiscordError,
    Overwrite,
)

if TYPE_CHECKING:
    from .state import Channel, Guild

ROLE, MEMBER = 0, 1  # an overwrite's `type`

# Discord's permission bits by the names discord.py gives them (``Permissions`` attributes).
FLAGS: dict[str, int] = {
    name: 1 << bit
    for bit, name in enumerate(
        [
            "create_instant_invite",
            "kick_members",
            "ban_members",
            "administrator",
            "manage_channels",
            "manage_guild",
            "add_reactions",
            "view_audit_log",
            "priority_speaker",
            "stream",
            "view_channel",
            "send_messages",
            "send_tts_messages",
            "manage_messages",
            "embed_links",
            "attach_files",
            "read_message_history",
            "mention_everyone",
            "use_external_emojis",
            "view_guild_insights",
            "connect",
            "speak",
            "mute_members",
            "deafen_members",
            "move_members",
            "use_voice_activation",
            "change_nickname",
            "manage_nicknames",
            "manage_roles",
            "manage_webhooks",
            "manage_expressions",
            "use_application_commands",
            "request_to_speak",
            "manage_events",
            "manage_threads",
            "create_public_threads",
            "create_private_threads",
            "use_external_stickers",
            "send_messages_in_threads",
        ]
    )
}


def bits(names: Iterable[str]) -> int:
    """Permission names (``"attach_files"``) as one bit field."""
    value = 0
    for name in names:
        if name not in FLAGS:
            raise FakeDiscordError(f"no permission {name!r}; use discord.py's names")
        value |= FLAGS[name]
    return value


def overwrites_of(guild: Guild, channel: Channel) -> dict[int, Overwrite]:
    """The overwrites that count in `channel`: a thread's are its parent's."""
    if channel.is_thread and channel.parent_id in guild.channels:
        return guild.channels[channel.parent_id].overwrites
    return channel.overwrites


def in_channel(guild: Guild, channel: Channel, user_id: int) -> int:
    """A member's permissions in a channel (step 2 of the recipe); none for someone who is
    not a member (a bot removed from the guild)."""
    if user_id not in guild.members:
        return 0
    base = guild.permissions_of(user_id)
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    value = base
    overwrites = overwrites_of(guild, channel)
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in guild.members[user_id].role_ids:
        overwrite = overwrites.get(role_id)
        if overwrite is not None and overwrite.type == ROLE:
            allow, deny = allow | overwrite.allow, deny | overwrite.deny
    value = (value & ~deny) | allow
    own = overwrites.get(user_id)
    if own is not None and own.type == MEMBER:
        value = (value & ~own.deny) | own.allow
    return value


def send_permission(channel: Channel) -> int:
    """Sending in a thread takes Send Messages in Threads instead of Send Messages."""
    return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES


def refusal(
    permissions: int,
    channel: Channel,
    *,
    send: bool = False,
    files: bool = False,
    history: bool = False,
) -> tuple[int, str] | None:
    """Discord's error code and message for a request in `channel` made with `permissions`
    that posts (`send`), uploads files (`files`) or reads old messages (`history`), or None
    when it is allowed. Without View Channel nothing in the channel is reachable (50001);
    another permission missing is 50013."""
    if not permissions & VIEW_CHANNEL:
        return 50001, "Missing Access"
    needed = (send_permission(channel) if send else 0) | (ATTACH_FILES if files else 0)
    needed |= READ_MESSAGE_HISTORY if history else 0
    if permissions & needed != needed:
        return 50013, "Missing Permissions"
    return None


def changed(
    overwrite: Overwrite | None,
    target_id: int,
    kind: int,
    *,
    allow: int = 0,
    deny: int = 0,
    inherit: int = 0,
) -> Overwrite | None:
    """`overwrite` (or a new one for `target_id`) with `allow` added to its allows and
    `deny` to its denies, each taken off the other side, and `inherit` off both (the
    settings' "/"); None once it neither allows nor denies anything (Discord drops such an
    overwrite)."""
    new = Overwrite(target_id, kind) if overwrite is None else overwrite
    new.allow = (new.allow & ~deny & ~inherit) | allow
    new.deny = (new.deny & ~allow & ~inherit) | deny
    return new if new.allow or new.deny else None

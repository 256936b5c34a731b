"""One guild of the fake Discord as a test sees it: its channels and its members.

The fake hosts one guild unless a test adds more (``FakeDiscord.add_guild``). Each guild
has its own channels, members, roles and guild commands; its events go to the gateway
session of its shard, ``(guild_id >> 22) % shard_count``, as Discord sends them.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .state import (
    ADMINISTRATOR,
    CH_CATEGORY,
    CH_PUBLIC_THREAD,
    MANAGE_CHANNELS,
    Channel,
    FakeDiscordError,
    FakeMessage,
    Guild,
)

if TYPE_CHECKING:
    from .driver import FakeDiscord, FakeUser


class FakeGuild:
    """A guild: ``channel`` (the first text channel), ``channel2``, ``thread``,
    ``channels[name]``, and ``user(name)`` for its members."""

    def __init__(
        self,
        fake: FakeDiscord,
        guild: Guild,
        *,
        channels: tuple[str, ...],
        thread: str | None,
    ) -> None:
        self.fake = fake
        self.guild = guild
        state = fake.state
        category = state.add_channel("Text Channels", type=CH_CATEGORY, guild=guild)
        self.channels: dict[str, Channel] = {
            name: state.add_channel(name, parent_id=category.id, guild=guild) for name in channels
        }
        self.channel: Channel = self.channels[channels[0]]
        self.channel2: Channel | None = self.channels[channels[1]] if len(channels) > 1 else None
        self.thread: Channel | None = None
        if thread:
            self.thread = state.add_channel(
                thread, type=CH_PUBLIC_THREAD, parent_id=self.channel.id, guild=guild
            )
            self.channels[thread] = self.thread
        self._users: dict[str, FakeUser] = {}

    @property
    def id(self) -> int:
        return self.guild.id

    @property
    def name(self) -> str:
        return self.guild.name

    def shard(self, shard_count: int) -> int:
        """The shard Discord sends this guild's events to."""
        return (self.id >> 22) % shard_count

    @property
    def connected(self) -> bool:
        """A live gateway connection receives this guild's events."""
        return self.fake.gateway.connected_to(self.id)

    def user(
        self,
        name: str,
        *,
        manage_channels: bool = False,
        admin: bool = False,
        permissions: int = 0,
        roles: tuple[str, ...] = (),
    ) -> FakeUser:
        """A member of this guild (created on first call, same object afterwards).

        ``manage_channels=True`` gives a "Channel Manager" role with Manage Channels;
        ``admin=True`` an Administrator role; ``permissions`` a role with those bits;
        ``roles`` plain (permission-less) roles by name.
        """
        if name in self._users:
            return self._users[name]
        state, guild = self.fake.state, self.guild
        role_ids = []
        if manage_channels:
            role_ids.append(state.add_role("Channel Manager", MANAGE_CHANNELS, guild=guild).id)
        if admin:
            role_ids.append(state.add_role("Admin", ADMINISTRATOR, guild=guild).id)
        if permissions:
            role_ids.append(state.add_role(f"perms-{permissions}", permissions, guild=guild).id)
        role_ids += [state.add_role(r, 0, guild=guild).id for r in roles]
        member = state.add_member(name, role_ids, guild=guild)
        fake_user = self.fake._new_user(member, self)
        self._users[name] = fake_user
        if self.connected:
            task = asyncio.get_running_loop().create_task(
                self.fake.gateway.member_added(member, guild)
            )
            self.fake._keep(task)
        return fake_user

    async def remove_bot(self) -> None:
        """The bot is removed from the guild (kicked, or the guild deleted): Discord takes
        its membership away, so its requests there are refused, and sends GUILD_DELETE
        without `unavailable` to the guild's shard (discord.py's `on_guild_remove`)."""
        self.guild.members.pop(self.fake.state.bot_user.id, None)
        session = self.fake.gateway.session_of(self.id)
        await self.fake.gateway._dispatch_to(session, "GUILD_DELETE", {"id": str(self.id)})

    @property
    def users(self) -> list[FakeUser]:
        return list(self._users.values())

    def channel_named(self, name: str) -> Channel:
        for channel in self.guild.channels.values():
            if channel.name == name:
                return channel
        raise FakeDiscordError(f"no channel named {name!r} in {self.name}")

    def messages(
        self, channel: Channel | None = None, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """All messages of a channel (default this guild's first), ephemeral ones included."""
        return self.fake.messages(channel or self.channel, include_deleted=include_deleted)

    def commands(self) -> list[dict[str, Any]]:
        """The commands synced for this guild only."""
        return list(self.fake.state.guild_commands.get(self.id, {}).values())

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} {self.id}>"

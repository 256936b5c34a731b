"""Self-tests of the fake Discord's permissions: overwrites computed as Discord documents
them, CHANNEL_UPDATE keeping discord.py's cache current, the numbers in interaction
payloads, and the 403s of bot requests that lack a permission."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    discord_py_pointed_at,
    start_bot,
    stop_bot,
)
from tests.fakediscord.permissions import bits
from tests.fakediscord.state import ATTACH_FILES, SEND_MESSAGES, VIEW_CHANNEL


def has(value: int, *names: str) -> bool:
    return value & bits(names) == bits(names)


# ---------------------------------------------------------------------------
# the computation
# ---------------------------------------------------------------------------


async def test_overwrites_count_everyone_then_roles_then_the_member() -> None:
    fake = FakeDiscord()
    alice = fake.user("alice", roles=("red", "blue"))
    red, blue = (r for r in fake.guild.roles.values() if r.name in ("red", "blue"))
    channel = fake.channel
    assert has(fake.permissions_in(channel, alice), "send_messages", "attach_files")

    await fake.set_overwrite(channel, fake.guild, deny=["send_messages"])  # @everyone
    assert not has(fake.permissions_in(channel, alice), "send_messages")
    # Role overwrites count together: one role's allow beats another's deny.
    await fake.set_overwrite(channel, red, allow=["send_messages"])
    await fake.set_overwrite(channel, blue, deny=["send_messages", "attach_files"])
    value = fake.permissions_in(channel, alice)
    assert has(value, "send_messages") and not has(value, "attach_files")
    # The member's own overwrite comes last.
    await fake.set_overwrite(channel, alice, allow=["attach_files"], deny=["send_messages"])
    value = fake.permissions_in(channel, alice)
    assert has(value, "attach_files") and not has(value, "send_messages")
    # Others keep @everyone's deny; the other channel has no overwrites at all.
    assert not has(fake.permissions_in(channel, fake.user("bob")), "send_messages")
    assert fake.channel2 is not None
    assert has(fake.permissions_in(fake.channel2, alice), "send_messages")


async def test_administrator_and_owner_bypass_and_threads_take_their_parents() -> None:
    fake = FakeDiscord()
    boss = fake.user("boss", admin=True)
    await fake.set_overwrite(fake.channel, fake.guild, deny=["view_channel"])
    assert has(fake.permissions_in(fake.channel, boss), "view_channel", "send_messages")
    assert not has(fake.permissions_in(fake.channel, fake.user("pleb")), "view_channel")
    owner_id = fake.guild.owner_id
    assert has(fake.permissions_in(fake.channel, fake.state.users[owner_id]), "view_channel")
    # A thread has no overwrites: a change there goes to its parent, and counts in both.
    assert fake.thread is not None
    await fake.deny_bot(fake.thread, "send_messages_in_threads")
    assert fake.thread.overwrites == {}
    assert not has(fake.permissions_in(fake.thread), "send_messages_in_threads")
    assert not has(fake.permissions_in(fake.channel), "send_messages_in_threads")
    # An overwrite left neither allowing nor denying is dropped, as Discord does.
    await fake.allow_bot(fake.thread, "send_messages_in_threads")
    assert fake.channel.overwrites[fake.state.bot_role.id].allow
    await fake.set_overwrite(
        fake.channel, fake.state.bot_role, inherit=["send_messages_in_threads"]
    )
    assert fake.state.bot_role.id not in fake.channel.overwrites
    with pytest.raises(FakeDiscordError, match="no permission"):
        await fake.deny_bot(fake.channel, "attach_file")


# ---------------------------------------------------------------------------
# a small discord.py bot
# ---------------------------------------------------------------------------


@dataclass
class Seen:
    app_permissions: list[int] = field(default_factory=list)
    errors: list[tuple[int, int]] = field(default_factory=list)


def picture() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n" + bytes(16)), filename="p.png")


def make_client(seen: Seen) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)

    @tree.command(name="perms", description="What the app may do here")
    async def perms(interaction: discord.Interaction) -> None:
        seen.app_permissions.append(interaction.app_permissions.value)
        await interaction.response.send_message("noted", ephemeral=True)

    @tree.command(name="picture", description="A reply with a file")
    async def picture_reply(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("here", file=picture())
        except discord.Forbidden as error:
            seen.errors.append((error.status, error.code))
            await interaction.response.send_message("no pictures here", ephemeral=True)

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@pytest_asyncio.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[tuple[discord.Client, Seen]]:
    seen = Seen()
    bot = make_client(seen)
    with discord_py_pointed_at(fake_discord):
        task = await start_bot(fake_discord, bot)
        try:
            yield bot, seen
        finally:
            await stop_bot(bot, task)


async def refused(coro: Any) -> tuple[int, int]:
    with pytest.raises(discord.Forbidden) as caught:
        await coro
    return caught.value.status, caught.value.code


async def test_channel_update_keeps_discord_py_current_and_interactions_carry_it(
    fake_discord: FakeDiscord, client: Any
) -> None:
    bot, seen = client
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    assert channel.permissions_for(channel.guild.me).attach_files

    await fake_discord.deny_bot(fake_discord.channel, "attach_files")
    await fake_discord.wait_for(
        lambda: not channel.permissions_for(channel.guild.me).attach_files, what="the cache"
    )
    alice = fake_discord.user("alice")
    await alice.slash("/perms")
    assert not seen.app_permissions[-1] & ATTACH_FILES
    assert seen.app_permissions[-1] & (SEND_MESSAGES | VIEW_CHANNEL)
    (record,) = [i for i in fake_discord.interactions if i.command_name == "perms"]
    assert record.payload["app_permissions"] == str(seen.app_permissions[-1])
    # The member's own permissions in the channel (payload `member` and `channel`).
    await fake_discord.set_overwrite(fake_discord.channel, alice, deny=["embed_links"])
    await alice.slash("/perms")
    last = fake_discord.interactions[-1].payload
    assert last["member"]["permissions"] == last["channel"]["permissions"]
    assert not int(last["member"]["permissions"]) & bits(["embed_links"])

    # Announced silently: the cache keeps the old overwrites, the payload is current.
    await fake_discord.allow_bot(fake_discord.channel, "attach_files", announce=False)
    await alice.slash("/perms")
    assert seen.app_permissions[-1] & ATTACH_FILES
    assert not channel.permissions_for(channel.guild.me).attach_files


async def test_bot_requests_without_a_permission_are_refused_as_discord_does(
    fake_discord: FakeDiscord, client: Any
) -> None:
    bot, _ = client
    here = bot.get_partial_messageable(fake_discord.channel.id)
    board = await here.send("board", file=picture())

    await fake_discord.deny_bot(fake_discord.channel, "attach_files")
    assert await refused(here.send("board", file=picture())) == (403, 50013)
    assert await refused(board.edit(attachments=[picture()])) == (403, 50013)
    await here.send("words only")  # no file: allowed
    await board.edit(content="kept its picture")  # no new file: allowed
    await fake_discord.allow_bot(fake_discord.channel, "attach_files")

    await fake_discord.deny_bot(fake_discord.channel, "send_messages")
    assert await refused(here.send("hello")) == (403, 50013)
    await fake_discord.allow_bot(fake_discord.channel, "send_messages")

    await fake_discord.deny_bot(fake_discord.channel, "read_message_history", member=True)
    assert await refused(here.fetch_message(board.id)) == (403, 50013)
    assert [m async for m in here.history(limit=10)] == []  # Discord: no messages, no error
    assert await refused(here.send("a reply", reference=board)) == (403, 50013)
    await fake_discord.allow_bot(fake_discord.channel, "read_message_history", member=True)
    assert len([m async for m in here.history(limit=10)]) == 2

    await fake_discord.deny_bot(fake_discord.channel, "view_channel")
    assert await refused(here.send("hello")) == (403, 50001)
    assert await refused(board.edit(content="x")) == (403, 50001)
    await fake_discord.allow_bot(fake_discord.channel, "view_channel")

    # In a thread, Send Messages in Threads is what counts (set on the parent).
    assert fake_discord.thread is not None
    thread = bot.get_partial_messageable(fake_discord.thread.id)
    await fake_discord.deny_bot(fake_discord.channel, "send_messages")
    await thread.send("threads need their own permission")
    await fake_discord.deny_bot(fake_discord.thread, "send_messages_in_threads")
    assert await refused(thread.send("hello")) == (403, 50013)
    assert fake_discord.violations == []  # a refusal is an answer, not a rule broken


async def test_interaction_responses_need_only_attach_files_of_the_bot(
    fake_discord: FakeDiscord, client: Any
) -> None:
    """Responses are webhooks: no View Channel, Send Messages or Read Message History of
    the bot's counts there, but a file needs the app's Attach Files (README.md)."""
    _, seen = client
    alice = fake_discord.user("alice")
    await fake_discord.deny_bot(
        fake_discord.channel, "view_channel", "send_messages", "read_message_history"
    )
    await fake_discord.allow_bot(fake_discord.channel, "attach_files")  # over the lost View
    shown = await alice.slash("/picture")
    assert [m.files[0][0] for m in shown.public] == ["p.png"] and not seen.errors

    await fake_discord.deny_bot(fake_discord.channel, "attach_files")
    refused_reply = await alice.slash("/picture")
    assert seen.errors == [(403, 50013)] and refused_reply.ephemeral_text == "no pictures here"

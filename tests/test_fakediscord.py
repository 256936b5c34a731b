"""Self-tests of tests/fakediscord: a small real discord.py bot played end to end."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from PIL import Image

from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    discord_py_pointed_at,
    start_bot,
    stop_bot,
)
from tests.fakediscord.interactions import build_command_data

# ---------------------------------------------------------------------------
# the bot under test
# ---------------------------------------------------------------------------


@dataclass
class Probe:
    """What the test bot saw, so tests can look inside it."""

    joined: list[tuple[int, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    countdown_message_id: int | None = None


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"join:(?P<game>\d+)"):
    """Persistent across restarts: the game number lives in the custom_id."""

    probe: Probe

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        JoinButton.probe.joined.append((self.game, interaction.user.name))
        await interaction.response.send_message(f"{interaction.user.name} joined game {self.game}")


class MoveSelect(discord.ui.Select[Any]):
    def __init__(self) -> None:
        super().__init__(
            placeholder="Move a character",
            custom_id="move",
            options=[
                discord.SelectOption(label="Knight", value="knight"),
                discord.SelectOption(label="Rogue", value="rogue"),
            ],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} moved the {self.values[0]}"
        )


class KnightModal(discord.ui.Modal, title="Name your knight"):
    knight = discord.ui.TextInput(label="Knight name", custom_id="knight", max_length=20)
    colour = discord.ui.Label(
        text="Colour",
        component=discord.ui.Select(
            custom_id="colour",
            options=[
                discord.SelectOption(label="Red", value="red"),
                discord.SelectOption(label="Blue", value="blue"),
            ],
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        select = self.colour.component
        assert isinstance(select, discord.ui.Select)
        await interaction.response.send_message(f"Sir {self.knight.value} ({select.values[0]})")


class SecretView(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id="reveal")
    async def reveal(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.edit_message(content="The secret is 42", view=None)

    @discord.ui.button(label="Bad edit", custom_id="bad-edit")
    async def bad_edit(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        try:  # a plain Message edit goes through the channel: impossible for ephemerals
            await interaction.message.edit(content="edited through the channel")
        except discord.NotFound as exc:
            JoinButton.probe.errors.append(f"bad edit: {exc.status}")


class PollView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.votes = 0

    @discord.ui.button(label="Vote", custom_id="vote")
    async def vote(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE
        self.votes += 1
        await interaction.edit_original_response(content=f"{self.votes} vote(s)")
        await interaction.followup.send("Thanks for voting", ephemeral=True)


class CloseView(discord.ui.View):
    @discord.ui.button(label="Close", custom_id="close")
    async def close(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="Closed", view=None)


def render_png(text: str) -> discord.File:
    image = Image.new("RGB", (64, 32), "white")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    return discord.File(buffer, filename=f"{text}.png")


def make_bot(probe: Probe, **options: Any) -> discord.Client:
    """The test bot; ``options`` go to ``discord.Client`` (``shard_id=``, ``shard_count=``)."""
    intents = discord.Intents.default()
    intents.members = True
    intents.message_content = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05, **options)
    tree = app_commands.CommandTree(client)
    JoinButton.probe = probe

    rumble = app_commands.Group(name="rumble", description="Robot rumble")
    admin = app_commands.Group(name="admin", description="Admin things", parent=rumble)

    @rumble.command(name="new", description="Start a rumble")
    @app_commands.describe(seed="Random seed")
    async def rumble_new(interaction: discord.Interaction, seed: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(seed))
        view.add_item(MoveSelect())
        await interaction.response.send_message(f"Rumble #{seed} is open", view=view)

    @admin.command(name="reset", description="Reset everything")
    async def admin_reset(interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_channels:
            await interaction.response.send_message("You need Manage Channels.", ephemeral=True)
            return
        await interaction.response.send_message("Reset done.")

    game = app_commands.Group(name="game", description="Game settings")

    @game.command(name="timer", description="Set the turn timer")
    async def game_timer(
        interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 60]
    ) -> None:
        await interaction.response.send_message(f"Timer set to {minutes} minutes", ephemeral=True)

    @tree.command(name="scoreboard", description="Show the scoreboard")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Rumble", value="rumble"),
            app_commands.Choice(name="Heist", value="heist"),
        ]
    )
    async def scoreboard(
        interaction: discord.Interaction, game: str, player: str | None = None
    ) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.2)  # "rendering"
        await interaction.followup.send(f"Scores for {game}", file=render_png(game))
        await interaction.followup.send("Only you see your rank: #1", ephemeral=True)

    @tree.command(name="think", description="Defer, edit the original, then follow up")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="thought", attachments=[render_png("t")])
        await interaction.followup.send("and one more thing")

    @scoreboard.autocomplete("player")
    async def player_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["alice", "albert", "bob"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @tree.command(name="secret", description="Something only you see")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Psst", view=SecretView(), ephemeral=True, file=render_png("secret")
        )

    @tree.command(name="name", description="Name your knight")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(KnightModal())

    @tree.command(name="countdown", description="Post then edit a channel message")
    async def countdown(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Starting", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("3... 2... 1...", view=CloseView())
        probe.countdown_message_id = message.id
        await message.edit(content="Go!", view=None)
        thread = await message.create_thread(name="countdown chat")
        await thread.send("Talk here")

    @tree.command(name="art", description="Post a picture, then replace and add files")
    async def art(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, (discord.TextChannel, discord.Thread))
        message = await channel.send("one", file=render_png("one"))
        message = await message.edit(content="two", attachments=[render_png("two")])
        message = await message.edit(
            content="two+three", attachments=[*message.attachments, render_png("three")]
        )
        probe.countdown_message_id = message.id
        data = await message.attachments[0].read()  # served by the fake's "CDN"
        await interaction.followup.send(f"posted {len(data)} bytes", ephemeral=False)

    @tree.command(name="poll", description="A poll with a vote button")
    async def poll(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("0 vote(s)", view=PollView())

    @tree.command(name="slow", description="Takes too long")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(3.5)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as exc:
            probe.errors.append(f"slow: {exc.status} {exc.code}")

    @tree.command(name="later", description="Defer, then edit much later")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        first = await interaction.followup.send("working on it", wait=True)
        await probe.release.wait()
        try:
            await interaction.edit_original_response(content="done (webhook)")
        except discord.HTTPException as exc:
            probe.errors.append(f"later: {exc.status} {exc.code}")
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await channel.get_partial_message(first.id).edit(content="done (channel)")

    @tree.command(name="twice", description="Answers twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # bypass discord.py's own guard
        try:
            await interaction.response.send_message("two")
        except discord.HTTPException as exc:
            probe.errors.append(f"twice: {exc.status} {exc.code}")

    @tree.command(name="long", description="Too long for Discord")
    async def long(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            probe.errors.append(f"long: {exc.status} {exc.code}")
            await interaction.response.send_message("too long, sorry", ephemeral=True)

    @tree.command(name="emojis", description="Calls an endpoint the fake lacks")
    async def emojis(interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        try:
            await interaction.guild.fetch_emojis()
        except discord.NotFound:
            probe.errors.append("emojis: 404")
        await interaction.response.send_message("no emojis")

    tree.add_command(rumble)
    tree.add_command(game)

    @client.event
    async def on_message(message: discord.Message) -> None:
        if message.author != client.user:
            probe.said.append(message.content)
            if message.content == "!ping":
                await message.channel.send(f"pong {message.author.name}")

    async def setup_hook() -> None:
        client.add_dynamic_items(JoinButton)
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[tuple[discord.Client, Probe]]:
    probe = Probe()
    client = make_bot(probe)
    with discord_py_pointed_at(fake_discord):
        task = await start_bot(fake_discord, client)
        try:
            yield client, probe
        finally:
            await stop_bot(client, task)


# ---------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------


async def test_login_identify_and_command_sync(fake_discord: FakeDiscord, bot: Any) -> None:
    client, _ = bot
    paths = [f"{r.method} {r.path}" for r in fake_discord.requests]
    assert paths[:2] == ["GET /api/v10/users/@me", "GET /api/v10/oauth2/applications/@me"]
    names = sorted(c["name"] for c in fake_discord.commands())
    assert names == [
        "art", "countdown", "emojis", "game", "later", "long", "name", "poll", "rumble",
        "scoreboard", "secret", "slow", "think", "twice",
    ]  # fmt: skip
    assert all(c["id"].isdigit() for c in fake_discord.commands())
    assert client.user is not None and client.user.id == fake_discord.bot_user.id
    guild = client.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.get_channel(fake_discord.channel.id) is not None
    assert fake_discord.thread is not None and guild.get_thread(fake_discord.thread.id) is not None
    # zlib-stream transport compression was negotiated; heartbeats are acknowledged
    assert fake_discord.gateway.connection_queries == [
        {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    ]
    assert any(f["op"] == 1 for f in fake_discord.gateway.received)


async def test_slash_subcommand_with_int_option_and_dynamic_button(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    _, probe = bot
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await alice.slash("/rumble new", seed=3)
    assert result.callback_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    assert result.response is not None and result.response.text == "Rumble #3 is open"
    assert [b.label for b in result.response.buttons] == ["Join"]
    assert result.response.buttons[0].custom_id == "join:3"
    assert result.response.interaction_metadata is not None

    joined = await bob.click("Join")
    assert joined.public[0].content == "bob joined game 3"
    assert probe.joined == [(3, "bob")]
    with pytest.raises(FakeDiscordError):
        await bob.click("Leave")
    with pytest.raises(FakeDiscordError, match="seed"):
        await alice.slash("/rumble new")  # required option missing


async def test_select_updates_message(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    posted = await alice.slash("/rumble new", seed=5)
    moved = await alice.select("Move a character", "Knight")  # by label
    assert moved.callback_name == "UPDATE_MESSAGE"
    assert moved.edited == [posted.response]
    assert posted.response is not None and posted.response.content == "alice moved the knight"
    assert [v["content"] for v in posted.response.versions] == [
        "Rumble #5 is open",
        "alice moved the knight",
    ]


async def test_subcommand_group_and_permissions(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    bob = fake_discord.user("bob", manage_channels=True)
    denied = await alice.slash("/rumble admin reset")
    assert denied.ephemeral_text == "You need Manage Channels."
    assert bob.visible_messages() == []  # alice's error is hers alone
    allowed = await bob.slash("/rumble admin reset")
    assert allowed.public[0].content == "Reset done."


async def test_ephemeral_visibility_and_option_checks(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    result = await alice.slash("/game timer", minutes=5)
    assert result.ephemeral_text == "Timer set to 5 minutes"
    assert [m.text for m in alice.visible_messages()] == ["Timer set to 5 minutes"]
    assert carol.visible_messages() == []
    with pytest.raises(FakeDiscordError, match="outside"):
        await alice.slash("/game timer", minutes=99)  # the Discord client enforces max_value
    with pytest.raises(FakeDiscordError, match="choices"):
        await alice.slash("/scoreboard", game="chess")


async def test_forged_presses_raw_options_and_redelivery(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """What a hostile client or a replaying gateway sends: the fake delivers it, and still
    flags the bot's own rule breaks (here a second answer to a redelivered press)."""
    _, probe = bot
    alice = fake_discord.user("alice")
    opened = await alice.slash("/rumble new", seed=3)
    message = opened.response
    assert message is not None
    # A custom id the message does not have, carried in the payload as if it had it.
    forged = await alice.forge(message, "join:42")
    assert forged.public[0].content == "alice joined game 42"
    assert message.buttons[0].custom_id == "join:3"  # the stored message is unchanged
    # Values straight through, unchecked by the client.
    raw = await alice.slash("/game timer", raw={"minutes": "lots"})
    assert raw.ephemeral_text == "Timer set to lots minutes"
    # The same interaction again: this test bot answers it twice, which Discord refuses.
    again = await fake_discord.redeliver(forged)
    assert again.interaction is forged.interaction
    assert probe.joined == [(42, "alice"), (42, "alice")]
    assert [v.kind for v in fake_discord.pop_violations()] == ["double-callback"]


async def test_defer_then_followups_with_png(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await alice.slash("/scoreboard", game="Rumble")  # choice by name
    assert result.callback_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
    response = result.response
    assert response is not None and not response.loading
    # The first followup fills the deferred message; the second is a new message.
    assert response.content == "Scores for rumble"
    assert len(result.followups) == 1 and result.followups[0].ephemeral
    assert result.ephemeral_text == "Only you see your rank: #1"
    ((filename, data),) = response.files
    assert filename == "rumble.png"
    assert Image.open(io.BytesIO(data)).size == (64, 32)
    assert response.attachments[0].payload()["width"] == 64
    assert [m.content for m in bob.visible_messages()] == ["Scores for rumble"]
    thought = await alice.slash("/think")
    assert thought.response is not None and thought.response.files[0][0] == "t.png"
    assert [m.content for m in thought.created] == ["thought", "and one more thing"]
    assert thought.followups == [thought.created[1]]
    choices = await alice.autocomplete("/scoreboard", "player", "al", game="rumble")
    assert [c["value"] for c in choices] == ["alice", "albert"]


async def test_modal_roundtrip(fake_discord: FakeDiscord, bot: Any) -> None:
    alice = fake_discord.user("alice")
    opened = await alice.slash("/name")
    assert opened.modal is not None and opened.modal.title == "Name your knight"
    assert [f.label for f in opened.modal.fields] == ["Knight name", "Colour"]
    with pytest.raises(FakeDiscordError, match="required"):
        await alice.submit_modal({"Colour": "red"})
    submitted = await alice.submit_modal({"Knight name": "Lancelot", "colour": "Red"})
    assert submitted.public[0].content == "Sir Lancelot (red)"


async def test_channel_send_then_edit_removes_components(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    _, probe = bot
    alice = fake_discord.user("alice")
    result = await alice.slash("/countdown")
    assert result.ephemeral_text == "Starting"
    message = fake_discord.message(probe.countdown_message_id)
    assert message.content == "Go!" and message.components == []
    assert [len(v["components"]) for v in message.versions] == [1, 0]
    assert message in result.created
    thread = fake_discord.channel_named("countdown chat")
    assert thread.id == message.id and thread.parent_id == fake_discord.channel.id
    assert [m.content for m in alice.visible_messages(thread)] == ["Talk here"]
    with pytest.raises(FakeDiscordError, match="no button"):
        await alice.click("Close")


async def test_enforced_nonce_returns_the_message_already_made(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """Discord: a message sent again with the same nonce and `enforce_nonce` (discord.py
    sets it whenever a nonce is given) within a few minutes returns the first message and
    creates none; a different nonce is a new message."""
    client, _ = bot
    channel = client.get_partial_messageable(fake_discord.channel.id)
    first = await channel.send("board 1", nonce="tt-outbox-1")
    again = await channel.send("board 1, retried", nonce="tt-outbox-1")
    other = await channel.send("board 2", nonce="tt-outbox-2")
    assert again.id == first.id and other.id != first.id
    texts = [m.content for m in fake_discord.messages(fake_discord.channel)]
    assert texts.count("board 1") == 1 and "board 1, retried" not in texts
    assert fake_discord.message(first.id).nonce == "tt-outbox-1"
    fake_discord.clock.advance(minutes=6)  # outside the window: a new message
    late = await channel.send("board 1, much later", nonce="tt-outbox-1")
    assert late.id != first.id


async def test_request_hooks_run_once_before_or_after_a_request(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """`on_request`: an action at the first matching request, before it is handled (and
    dropping it, with `drop`) or after it is handled but before the bot hears back."""
    client, _ = bot
    channel = client.get_partial_messageable(fake_discord.channel.id)
    seen: list[int] = []

    def posting(record: Any) -> bool:
        return record.method == "POST" and record.path.endswith("/messages")

    after = fake_discord.on_request(
        posting, lambda: seen.append(len(fake_discord.messages())), after=True
    )
    dropped = fake_discord.on_request(lambda r: "drop me" in str(r.json), lambda: None, drop=True)
    count = len(fake_discord.messages())
    await channel.send("kept")
    assert after.fired and seen == [count + 1]  # the message existed when the hook ran
    with pytest.raises(discord.HTTPException):
        await channel.send("drop me")
    assert dropped.fired and dropped.record is not None and dropped.record.status == 0
    assert [m.content for m in fake_discord.messages()][-1] == "kept"
    await channel.send("again")
    assert seen == [count + 1]  # one-shot


async def test_ephemeral_update_and_channel_edit_violation(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    _, probe = bot
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    secret = await alice.slash("/secret")
    assert secret.response is not None and secret.response.files[0][0] == "secret.png"
    assert secret.response.payload()["attachments"][0]["ephemeral"] is True
    with pytest.raises(FakeDiscordError):
        await bob.click("Reveal")  # bob cannot see alice's ephemeral message
    await alice.click("Bad edit")
    assert probe.errors == ["bad edit: 404"]
    assert [v.kind for v in fake_discord.pop_violations()] == ["ephemeral-via-channel"]
    revealed = await alice.click("Reveal")
    assert revealed.edited[0].content == "The secret is 42"
    assert revealed.edited[0].ephemeral and revealed.edited[0].buttons == []


@pytest.mark.timeout(20)
async def test_three_second_rule(fake_discord: FakeDiscord, bot: Any) -> None:
    """Slowish (~3.6 s): a handler that sleeps 3.5 s before answering."""
    _, probe = bot
    alice = fake_discord.user("alice")
    result = await alice.slash("/slow")
    assert result.failed and not result.acknowledged
    await fake_discord.wait_for(lambda: probe.errors, timeout=3, what="the late callback")
    assert probe.errors == ["slow: 404 10062"]
    kinds = [v.kind for v in fake_discord.pop_violations()]
    assert kinds == ["interaction-timeout", "late-callback"]


async def test_token_expires_after_15_minutes(fake_discord: FakeDiscord, bot: Any) -> None:
    _, probe = bot
    alice = fake_discord.user("alice")
    result = await alice.slash("/later")
    assert result.response is not None and result.response.content == "working on it"
    fake_discord.clock.advance(minutes=16)
    probe.release.set()
    await fake_discord.settle()
    assert probe.errors == ["later: 401 50027"]
    assert [v.kind for v in fake_discord.pop_violations()] == ["token-expired"]
    assert result.response.content == "done (channel)"  # bot messages stay editable


async def test_double_callback_and_bad_payload(fake_discord: FakeDiscord, bot: Any) -> None:
    _, probe = bot
    alice = fake_discord.user("alice")
    await alice.slash("/twice")
    await alice.slash("/long")
    assert probe.errors == ["twice: 400 40060", "long: 400 50035"]
    assert [v.kind for v in fake_discord.pop_violations()] == ["double-callback", "bad-request"]


async def test_a_file_over_the_guilds_upload_limit_is_refused_as_discord_does(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """Each file of a request against the guild's upload limit (API Reference, Uploading
    Files): 413 code 40005 over it; a boosted guild's limit is higher, and interactions
    carry it as `attachment_size_limit`."""
    client, _ = bot
    channel = client.get_channel(fake_discord.channel.id)
    mib = 1024 * 1024

    def file(size: int) -> discord.File:
        return discord.File(io.BytesIO(b"x" * size), filename="big.bin")

    await channel.send(file=file(10 * mib))  # at the limit: taken
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(files=[file(10), file(10 * mib + 1)])
    assert (refused.value.status, refused.value.code) == (413, 40005)
    assert [v.kind for v in fake_discord.pop_violations()] == ["too-large"]

    fake_discord.guild.premium_tier = 2  # 50 MiB a file
    await channel.send(file=file(10 * mib + 1))
    await fake_discord.user("alice").slash("/secret")
    assert fake_discord.interactions[-1].payload["attachment_size_limit"] == 50 * mib
    fake_discord.guild.upload_limit = 1000  # a test's own limit
    with pytest.raises(discord.HTTPException):
        await channel.send(file=file(1001))
    assert [v.kind for v in fake_discord.pop_violations()] == ["too-large"]


async def test_unexpected_requests_are_recorded(fake_discord: FakeDiscord, bot: Any) -> None:
    _, probe = bot
    await fake_discord.user("alice").slash("/emojis")
    assert probe.errors == ["emojis: 404"]
    assert [r.path for r in fake_discord.unexpected_requests] == [
        f"/api/v10/guilds/{fake_discord.guild.id}/emojis"
    ]
    assert len(fake_discord.pop_unexpected_requests()) == 1
    assert fake_discord.unexpected_requests == []


async def test_user_messages_reach_on_message(fake_discord: FakeDiscord, bot: Any) -> None:
    _, probe = bot
    alice = fake_discord.user("alice")
    await alice.say("!ping")
    assert probe.said == ["!ping"]
    assert fake_discord.messages()[-1].content == "pong alice"


async def test_gateway_resume_and_restart(fake_discord: FakeDiscord, bot: Any) -> None:
    client, probe = bot
    bob, carol = fake_discord.user("bob"), fake_discord.user("carol")
    await bob.slash("/rumble new", seed=7)

    await fake_discord.gateway.request_reconnect()  # op 7: discord.py RESUMEs
    await fake_discord.wait_for(lambda: fake_discord.gateway.resume_count == 1, what="RESUME")
    await fake_discord.wait_ready()
    await bob.click("Join")
    assert probe.joined == [(7, "bob")]

    # Stop the bot, start a brand-new client: the DynamicItem button still works.
    await client.close()
    await fake_discord.wait_disconnected()
    probe2 = Probe()
    client2 = make_bot(probe2)
    with discord_py_pointed_at(fake_discord):
        task = await start_bot(fake_discord, client2)
        try:
            result = await carol.click("Join")
            assert result.public[0].content == "carol joined game 7"
            assert probe2.joined == [(7, "carol")]
        finally:
            await stop_bot(client2, task)
    assert fake_discord.gateway.identify_count == 2


async def test_attachments_replaced_kept_and_downloadable_in_a_thread(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    _, probe = bot
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    thread = fake_discord.thread
    result = await alice.slash("/art", channel=thread)
    # deferred ephemerally: the first followup keeps that ephemerality (its flag is ignored)
    assert result.response is not None and result.response.ephemeral
    assert result.ephemeral_text.startswith("posted ") and result.followups == []
    message = fake_discord.message(probe.countdown_message_id)
    assert message.channel is thread
    assert [[a["filename"] for a in v["attachments"]] for v in message.versions] == [
        ["one.png"],
        ["two.png"],
        ["two.png", "three.png"],
    ]
    assert (
        message.versions[1]["attachments"][0]["id"] == message.versions[2]["attachments"][0]["id"]
    )
    assert [m.content for m in bob.visible_messages(thread)] == ["two+three"]


async def test_deferred_update_then_edit_and_followup(fake_discord: FakeDiscord, bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    posted = await alice.slash("/poll")
    voted = await bob.click("Vote", settle=False)
    # The followup comes last: wait for it rather than for a quiet spell, which a busy
    # machine can put between the edit and the followup.
    await fake_discord.wait_for(lambda: voted.interaction.followup_ids, what="the followup")
    await voted.wait()
    assert voted.callback_name == "DEFERRED_UPDATE_MESSAGE"
    assert voted.response is posted.response  # @original = the message the button is on
    assert voted.edited == [posted.response] and posted.response.content == "1 vote(s)"
    assert [m.content for m in voted.created] == ["Thanks for voting"]
    assert voted.ephemeral_text == "Thanks for voting"
    assert "Thanks for voting" not in [m.content for m in alice.visible_messages()]


async def test_connection_drop_and_invalid_session(fake_discord: FakeDiscord, bot: Any) -> None:
    client, _ = bot

    async def no_identify_delay(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before a non-initial IDENTIFY; skip that here."""

    client.before_identify_hook = no_identify_delay
    alice = fake_discord.user("alice")
    await fake_discord.gateway.drop_connection()  # close 4000: discord.py resumes
    await fake_discord.wait_for(lambda: fake_discord.gateway.resume_count == 1, what="RESUME")
    dave = fake_discord.user("dave")  # joins while connected: GUILD_MEMBER_ADD
    await fake_discord.gateway.invalidate_session()  # op 9: discord.py identifies anew
    await fake_discord.wait_for(lambda: fake_discord.gateway.identify_count == 2, what="IDENTIFY")
    await fake_discord.wait_ready()
    assert (await alice.slash("/game timer", minutes=2)).ephemeral_text == "Timer set to 2 minutes"
    assert (await dave.slash("/game timer", minutes=3)).ephemeral_text == "Timer set to 3 minutes"


# ---------------------------------------------------------------------------
# pieces without a bot
# ---------------------------------------------------------------------------


def test_validation_catches_what_discord_rejects() -> None:
    from tests.fakediscord.validation import message_errors

    six = [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)]
    errors = message_errors(
        {"components": [{"type": 1, "components": six}]}, file_count=0, file_sizes=[], creating=True
    )
    assert any("5 or fewer components" in e for e in errors)
    long_id = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "y" * 101}]}
    ]
    assert message_errors({"components": long_id}, file_count=0, file_sizes=[], creating=True)
    assert message_errors({"content": ""}, file_count=0, file_sizes=[], creating=True)
    assert not message_errors({"content": "ok"}, file_count=0, file_sizes=[], creating=True)


def test_layout_components_are_checked_as_discord_documents_them() -> None:
    """Components v2 (Discord's component reference): what may nest where, the limits, media
    that must be the message's own attachment, no content or embeds beside them."""
    from tests.fakediscord.validation import message_errors

    V2 = 1 << 15
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    text = {"type": 10, "content": "Trash War, turn 3"}
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}
    container = {"type": 17, "components": [text, gallery, {"type": 14}, row]}

    def errors(components: list, flags: int = V2, files=("board.png",), **payload) -> list[str]:
        return message_errors(
            {"components": components, **payload},
            file_count=len(files),
            file_sizes=[1] * len(files),
            creating=True,
            file_names=frozenset(files),
            flags=flags,
        )

    assert errors([container]) == []
    assert errors([container], flags=0)  # layout components need the flag
    assert errors([container], content="hello")  # no content beside them
    assert errors([{"type": 17, "components": [container]}])  # no container in a container
    assert errors([container], files=())  # the gallery's picture must be attached
    section = {"type": 9, "components": [text]}
    assert errors([section])  # a section needs an accessory
    thumb = {"type": 11, "media": {"url": "attachment://board.png"}}
    assert errors([{**section, "accessory": thumb}]) == []
    assert errors([{"type": 9, "components": [text] * 4, "accessory": thumb}])  # 1-3 texts
    assert errors([{"type": 12, "items": gallery["items"] * 11}])  # 1-10 pictures
    assert errors([{"type": 10, "content": "x" * 4001}])  # 4000 characters of text at most
    assert errors([{"type": 10, "content": str(i)} for i in range(41)])  # 40 components


def test_modal_submit_data_for_new_modal_components() -> None:
    from tests.fakediscord.interactions import ModalView, modal_submit_data
    from tests.fakediscord.state import number_components

    fake = FakeDiscord()
    alice = fake.user("alice")
    opts = [{"label": "Yes", "value": "y"}, {"label": "No", "value": "n"}]
    raw = {
        "custom_id": "m",
        "title": "Prefs",
        "components": number_components(
            [
                {"type": 10, "content": "Pick things"},
                {
                    "type": 18,
                    "label": "Vote",
                    "component": {"type": 21, "custom_id": "r", "options": opts},
                },
                {
                    "type": 18,
                    "label": "Extras",
                    "component": {"type": 22, "custom_id": "c", "options": opts, "required": False},
                },
                {"type": 18, "label": "Agree", "component": {"type": 23, "custom_id": "a"}},
                {"type": 18, "label": "Who", "component": {"type": 5, "custom_id": "u"}},
            ]
        ),
    }
    modal = ModalView(None, raw)  # type: ignore[arg-type]  # no interaction needed here
    data = modal_submit_data(
        fake.state, modal, {"Vote": "No", "c": ["y", "n"], "Agree": True, "Who": [alice]}
    )
    inner = [c.get("component") for c in data["components"]]
    assert inner[0] is None and data["components"][0]["type"] == 10
    assert (
        inner[1]["value"] == "n" and inner[2]["values"] == ["y", "n"] and inner[3]["value"] is True
    )
    assert inner[4]["values"] == [str(alice.id)] and str(alice.id) in inner[4]["resolved"]["users"]
    with pytest.raises(FakeDiscordError, match="required"):
        modal_submit_data(fake.state, modal, {"Agree": True})


async def test_driver_reports_misuse_clearly() -> None:
    async with FakeDiscord() as fake:
        alice = fake.user("alice")
        assert fake.user("alice") is alice
        with pytest.raises(FakeDiscordError, match="no synced slash command /anything"):
            await alice.slash("/anything")
        with pytest.raises(FakeDiscordError, match="sees no button 'Join'"):
            await alice.click("Join")
        with pytest.raises(FakeDiscordError, match="no modal open"):
            await alice.submit_modal()
        assert fake.problems() == []


async def test_shards_identify_and_get_only_their_own_guilds_events() -> None:
    """Discord's sharding: GET /gateway/bot recommends a shard count, each connection
    IDENTIFYs with [shard_id, shard_count], and a guild's events (READY's guild list,
    GUILD_CREATE, interactions) go only to the shard (guild_id >> 22) % shard_count."""
    async with FakeDiscord(recommended_shards=2) as fake:
        client = discord.AutoShardedClient(intents=discord.Intents.none())
        with discord_py_pointed_at(fake):
            task = await start_bot(fake, client, commands=0)
            try:
                identified = [f["d"]["shard"] for f in fake.gateway.received if f["op"] == 2]
                assert sorted(identified) == [[0, 2], [1, 2]]
                ours = (fake.state.guild.id >> 22) % 2
                sent = {
                    shard: [f["t"] for f in session.sent]
                    for shard, session in fake.gateway.shard_sessions.items()
                }
                assert "GUILD_CREATE" in sent[ours] and "GUILD_CREATE" not in sent[1 - ours]
                guild = client.get_guild(fake.state.guild.id)
                assert guild is not None and guild.shard_id == ours
                await fake.gateway.dispatch("TYPING_START", {"channel_id": "1", "user_id": "1"})
                assert fake.gateway.shard_sessions[1 - ours].sent[-1]["t"] != "TYPING_START"
            finally:
                await stop_bot(client, task)


async def test_a_second_guild_lives_on_the_other_shard_with_its_own_channels_and_members() -> None:
    """Several guilds: a second guild's id puts it on the other shard of 2; its GUILD_CREATE,
    interactions and messages reach only the connection of its shard; its REST routes
    (guild, members, guild commands) answer with its own data; each request notes the guild
    it acted in and, through ``api_base_for``, the client that sent it."""
    async with FakeDiscord(recommended_shards=2) as fake:
        home, other = fake.guilds[0], fake.add_guild("Second Server")
        assert {home.shard(2), other.shard(2)} == {0, 1}
        assert other.channel.guild_id == other.id and other.channel.id not in home.guild.channels
        alice, zed = fake.user("alice"), other.user("zed")
        assert zed.guild is other and zed.id in other.guild.members
        assert zed.id not in home.guild.members
        probes = {shard: Probe() for shard in (0, 1)}
        clients = {s: make_bot(probes[s], shard_id=s, shard_count=2) for s in (0, 1)}
        with discord_py_pointed_at(fake):
            # The default guild's shard first: start_bot waits for that guild's connection.
            order = (home.shard(2), other.shard(2))
            tasks = {s: await start_bot(fake, clients[s]) for s in order}
            try:
                sessions = fake.gateway.shard_sessions
                created = {
                    s: [f["d"]["id"] for f in sessions[s].sent if f["t"] == "GUILD_CREATE"]
                    for s in (0, 1)
                }
                assert created == {home.shard(2): [str(home.id)], other.shard(2): [str(other.id)]}
                theirs = clients[other.shard(2)]
                assert theirs.get_guild(other.id) is not None
                assert clients[home.shard(2)].get_guild(other.id) is None

                opened = await zed.slash("/rumble new", seed=4)
                assert opened.response is not None and opened.response.channel is other.channel
                assert fake.messages() == [] and zed.visible_messages() == [opened.response]
                await zed.say("!ping")
                await alice.say("!ping")
                assert probes[other.shard(2)].said == ["!ping"]
                assert probes[home.shard(2)].said == ["!ping"]
                assert [m.text for m in other.messages()][-1] == "pong zed"
                assert [m.text for m in fake.messages()][-1] == "pong alice"
                for shard, session in sessions.items():
                    guilds = {
                        f["d"]["id"] if f["t"] == "GUILD_CREATE" else f["d"].get("guild_id")
                        for f in session.sent
                        if f["t"] != "READY"
                    }
                    mine = home if shard == home.shard(2) else other
                    assert guilds == {str(mine.id)}, "a guild's events go to its shard only"
                with pytest.raises(FakeDiscordError, match="no synced slash command /heist"):
                    await zed.slash("/heist")

                fetched = await theirs.fetch_guild(other.id)
                assert fetched.name == "Second Server"
                assert (await fetched.fetch_member(zed.id)).name == "zed"
                with pytest.raises(discord.NotFound):
                    await (await theirs.fetch_guild(home.id)).fetch_member(zed.id)
                tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
                tree.command(name="heist", description="Only here")(_noop)
                await clients[0].http.bulk_upsert_guild_commands(
                    fake.application_id, other.id, [c.to_dict(tree) for c in tree.get_commands()]
                )
                assert [c["name"] for c in other.commands()] == ["heist"] and not home.commands()
                third = fake.add_guild("Third Server", shard=(home.shard(2), 2))
                await fake.wait_for(
                    lambda: clients[home.shard(2)].get_guild(third.id) is not None,
                    what="the bot to hear it joined a third guild (on the first's shard)",
                )
                assert clients[other.shard(2)].get_guild(third.id) is None
                data, _ = build_command_data(fake.state, "/heist", {}, guild=other.guild)
                assert data["guild_id"] == str(other.id)
                with pytest.raises(FakeDiscordError, match="no synced slash command /heist"):
                    await alice.slash("/heist")  # a command of the other guild only
                touched = [r for r in fake.requests if r.guild_id == other.id]
                assert any(r.path.startswith("/api/v10/interactions/") for r in touched)
                assert any(r.method == "POST" and "/messages" in r.path for r in touched)
            finally:
                for shard in (0, 1):
                    await stop_bot(clients[shard], tasks[shard])

        async with aiohttp.ClientSession() as http:
            headers = {"Authorization": f"Bot {fake.token}"}
            url = fake.api_base_for("process-b") + f"/guilds/{other.id}/channels"
            async with http.get(url, headers=headers) as answer:
                names = [c["name"] for c in await answer.json()]
        assert names == ["Text Channels", "general", "games"]
        assert (fake.requests[-1].client, fake.requests[-1].guild_id) == ("process-b", other.id)
        assert {r.client for r in fake.requests[:-1]} == {None}
        assert fake.problems() == []


async def _noop(interaction: discord.Interaction) -> None:
    """The body of a guild command the test registers and never runs."""

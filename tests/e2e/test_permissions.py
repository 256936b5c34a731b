"""A permission taken from the bot in a channel is said, never swallowed: `/<game> new`
and Rematch name what is missing and open no lobby; mid-game, the board Discord refuses
(403) waits in the outbox, the game's presses and `/game status` say what the bot needs,
and once the permission is back the waiting board is posted and the game goes on from the
same step, every logged action shown once.

The fake Discord computes the bot's permissions from channel overwrites and refuses as
Discord does (tests/fakediscord/README.md, "Permissions"); `fake.deny_bot` and
`fake.allow_bot` change the bot role's overwrite and tell the bot by CHANNEL_UPDATE.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Callable
from datetime import timedelta

import pytest

from bot.client import TrashTableBot
from cogs.shared import permissions
from cogs.shared.permissions import Pauses
from tests.e2e import play, toss_play
from tests.e2e.conftest import Table
from tests.e2e.play import assert_started
from tests.e2e.test_kill_anywhere import (
    AI_DROP,
    EPHEMERAL,
    assert_shown_once_in_order,
    board_edit,
    logged_lines_of,
    play_until_fired,
)
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.fakediscord.state import Channel, RequestRecord, walk_components
from tests.postgres import SQLITE_ONLY

NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}


def posting_in(fake: FakeDiscord, channel: Channel) -> Callable[[RequestRecord], bool]:
    """The bot posting a public message (a board) in `channel`: through the bot token, or
    as a followup of a press made there (issue 34)."""
    path = f"/api/v10/channels/{channel.id}/messages"

    def matches(record: RequestRecord) -> bool:
        if record.method != "POST":
            return False
        if record.path == path:
            return True
        followup = re.fullmatch(r"/api/v10/webhooks/\d+/([^/]+)", record.path)
        if followup is None or int((record.json or {}).get("flags") or 0) & EPHEMERAL:
            return False
        return any(
            rec.token == followup[1] and rec.channel.id == channel.id for rec in fake.interactions
        )

    return matches


def refused_posts(fake: FakeDiscord, channel: Channel) -> list[RequestRecord]:
    return [r for r in fake.requests if posting_in(fake, channel)(r) and r.status == 403]


def needs(permission: str, channel: Channel) -> str:
    where = "thread" if channel.is_thread else "channel"
    return f"I can't post boards here: I need {NAMES[permission]} in this {where}."


async def start_rumble(table: Table, channel: Channel, seed: int) -> None:
    """alice opens a Rumble in `channel`, bob joins, an AI seat is added, alice starts."""
    opened = await table.alice.slash("/rumble new", seed=seed, channel=channel)
    assert opened.public, opened
    await table.bob.click("Join", channel=channel)
    await table.alice.select("Add AI player…", "Normal AI", channel=channel)
    started = await table.alice.click("Start", channel=channel)
    assert_started(started)
    await play.next_board(table.fake, 0, channel)


async def pause_at_the_next_board(
    bot: TrashTableBot, table: Table, channel: Channel, permission: str, rng: random.Random
) -> FakeMessage:
    """The player to act acts; the permission is taken away as the board their move made
    is posted (the press itself was allowed). Returns the last board shown."""
    fake = table.fake
    board = play.latest_board(fake, channel)
    shown = len(play.boards(fake, channel))
    players = {u.id: u for u in (table.alice, table.bob)}
    hook = fake.on_request(posting_in(fake, channel), lambda: fake.deny_bot(channel, permission))
    await play.choose_and_act(players[play.turn_user_id(board) or 0], board, rng)
    await fake.wait_for(lambda: hook.fired, what="the board's post")
    await fake.settle()
    assert len(refused_posts(fake, channel)) == 1
    assert len(play.boards(fake, channel)) == shown, "no board shown while it is refused"
    assert await bot.sessions.outbox.pending(channel.id), "the board waits in the outbox"
    assert poster_of(bot).blocked(channel.id) is not None
    return board


async def pause_at_a_timer_board(
    bot: TrashTableBot, table: Table, channel: Channel, permission: str
) -> FakeMessage:
    """A board no press carries: the presses' tokens have run out (15 minutes on Discord's
    clock), the permission is taken away, and the turn timer plays for the late player. Its
    board goes through the bot token, which Discord refuses. Returns the last board shown."""
    fake = table.fake
    board = play.latest_board(fake, channel)
    shown = len(play.boards(fake, channel))
    await table.alice.slash("/game timer", minutes=1, channel=channel)
    fake.clock.advance(minutes=16)
    await fake.deny_bot(channel, permission)
    game = await bot.sessions.current(channel.id)
    assert game is not None and game.turn_deadline is not None
    later = game.turn_deadline + timedelta(seconds=1)
    bot.sessions.clock = lambda: later
    cog = bot.get_cog("TableCog")
    assert cog is not None
    await cog.check_timers()  # type: ignore[attr-defined]
    await fake.settle()
    # The newest press's token was tried first: Discord said it had run out (its clock
    # moved on without the bot's), and the board went to the bot token.
    assert fake.pop_violations("token-expired")
    assert len(refused_posts(fake, channel)) == 1
    assert len(play.boards(fake, channel)) == shown, "no board shown while it is refused"
    assert await bot.sessions.outbox.pending(channel.id), "the board waits in the outbox"
    assert poster_of(bot).blocked(channel.id) is not None
    return board


def poster_of(bot: TrashTableBot) -> Pauses:
    poster = permissions.poster_of(bot)
    assert poster is not None
    return poster


async def plays_on(bot: TrashTableBot, table: Table, channel: Channel, shown: int) -> None:
    """The waiting board comes; the game goes on from it, each logged action shown once."""
    fake = table.fake
    await play.next_board(fake, shown, channel)
    await fake.settle()
    players = {u.id: u for u in (table.alice, table.bob)}
    board = play.latest_board(fake, channel)
    await play.take_turn(players[play.turn_user_id(board) or 0], board, random.Random(7))
    await fake.settle()
    assert poster_of(bot).blocked(channel.id) is None
    assert_shown_once_in_order(fake, play.boards(fake, channel), await logged_lines_of(bot.db))


@SQLITE_ONLY
async def test_no_lobby_opens_where_boards_could_not_be_posted(
    bot, table: Table, fake_discord: FakeDiscord
) -> None:
    """`/<game> new` checks the bot's permissions in the channel (the interaction's
    `app_permissions`) and tells the host what is missing and where to grant it."""
    fake = fake_discord
    for permission in ["view_channel", "send_messages", "attach_files", "read_message_history"]:
        await fake.deny_bot(fake.channel, permission)
        refused = await table.alice.slash("/rumble new", seed=3)
        text = refused.ephemeral_text
        assert text.startswith(f"I can't run a game here: I need {NAMES[permission]} in this")
        assert "this channel's settings" in text and len(text.splitlines()) == 2
        assert not refused.public and not [m for m in fake.messages() if not m.ephemeral]
        assert await bot.sessions.current(fake.channel.id) is None
        await fake.allow_bot(fake.channel, permission)

    assert fake.thread is not None  # a thread takes its parent's permissions
    await fake.deny_bot(fake.channel, "send_messages_in_threads")
    refused = await table.alice.slash("/rumble new", channel=fake.thread)
    assert "I need Send Messages in Threads in this thread" in refused.ephemeral_text
    assert "the channel this thread is in" in refused.ephemeral_text
    assert not refused.public and await bot.sessions.current(fake.thread.id) is None

    opened = await table.alice.slash("/rumble new")  # the channel itself is fine
    assert opened.public and not opened.ephemeral_text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_rematch_is_checked_like_a_new_lobby(bot, table: Table, fake_discord) -> None:
    game_id = await play.finished_rumble(bot, table, fake_discord)
    final = play.latest_board(fake_discord)
    await fake_discord.deny_bot(fake_discord.channel, "attach_files")
    refused = await table.alice.click("Rematch", message=final)
    assert refused.ephemeral_text.startswith(
        "I can't run a game here: I need Attach Files in this channel."
    )
    assert not refused.public and await bot.sessions.current(fake_discord.channel.id) is None
    await fake_discord.allow_bot(fake_discord.channel, "attach_files")
    again = await table.alice.click("Rematch", message=final)
    assert again.public and (await bot.sessions.current(fake_discord.channel.id)).id != game_id


@pytest.mark.parametrize(
    ("permission", "place"),
    [
        ("attach_files", "channel"),
        ("send_messages", "channel"),
        ("view_channel", "channel"),
        ("send_messages_in_threads", "thread"),
    ],
)
async def test_a_permission_taken_mid_game_pauses_the_boards_until_it_is_back(
    bot, table: Table, fake_discord: FakeDiscord, permission: str, place: str
) -> None:
    fake = fake_discord
    channel = fake.thread if place == "thread" else fake.channel
    assert channel is not None
    await start_rumble(table, channel, seed=21)
    if permission == "attach_files":
        # Every board has pictures: a press's own followup needs Attach Files too.
        board = await pause_at_the_next_board(bot, table, channel, permission, random.Random(4))
    else:
        # Discord lets a press's answers through without these (issue 34: boards go out on
        # the press): what the bot token carries is refused.
        board = await pause_at_a_timer_board(bot, table, channel, permission)
    game = await bot.sessions.current(channel.id)
    assert game is not None

    # Presses and /game status say what the bot needs; nothing changes. (The board's
    # controls went as the refused board was posted: this is a client still showing them.)
    pressed = await table.bob.forge(board, f"tt:hand:{game.id}")
    assert pressed.ephemeral_text == needs(permission, channel)
    status = await table.stranger.slash("/game status", channel=channel)
    (embed,) = status.ephemeral[0].embeds
    assert embed["fields"][0] == {
        "name": "Paused",
        "value": needs(permission, channel),
        "inline": False,
    }
    # No retry storm: a wake (as from a new entry) sends nothing while the channel waits.
    bot.sessions.outbox.signal.notify(channel.id)
    await fake.settle()
    assert len(refused_posts(fake, channel)) == 1
    assert (await bot.sessions.current(channel.id)).step == game.step

    # An admin gives it back (CHANNEL_UPDATE): the waiting board is posted, the game goes on.
    shown = len(play.boards(fake, channel))
    await fake.allow_bot(channel, permission)
    await plays_on(bot, table, channel, shown)
    status = await table.stranger.slash("/game status", channel=channel)
    assert "Paused" not in str(status.ephemeral[0].embeds)


@SQLITE_ONLY
async def test_read_message_history_taken_mid_game_holds_the_presses(
    bot, table: Table, fake_discord: FakeDiscord
) -> None:
    """Posting needs no Read Message History, so nothing is refused by Discord: the
    presses themselves are held, and go on once it is back."""
    fake = fake_discord
    await start_rumble(table, fake.channel, seed=21)
    board = play.latest_board(fake)
    game = await bot.sessions.current(fake.channel.id)
    await fake.deny_bot(fake.channel, "read_message_history")
    turn = table.by_id(play.turn_user_id(board) or 0)
    held = await turn.click("My secret", message=board)
    assert held.ephemeral_text == needs("read_message_history", fake.channel)
    status = await table.stranger.slash("/game status")
    assert needs("read_message_history", fake.channel) in str(status.ephemeral[0].embeds)
    assert (await bot.sessions.current(fake.channel.id)).step == game.step

    await fake.allow_bot(fake.channel, "read_message_history")
    await play.take_turn(turn, board, random.Random(4))
    await plays_on(bot, table, fake.channel, len(play.boards(fake)) - 1)


@SQLITE_ONLY
async def test_the_press_that_finds_the_permission_back_delivers_the_board(
    bot, table: Table, fake_discord: FakeDiscord
) -> None:
    """The permission comes back in a way the bot's cache does not follow: the next
    press reads it from its own `app_permissions`, wakes the poster and goes on. A control
    of the step before is refused as out of date; a current one does what it says."""
    fake = fake_discord
    await start_rumble(table, fake.channel, seed=21)
    board = await pause_at_the_next_board(
        bot, table, fake.channel, "attach_files", random.Random(4)
    )
    game = await bot.sessions.current(fake.channel.id)
    shown = len(play.boards(fake))
    await fake.allow_bot(fake.channel, "attach_files", announce=False)
    await fake.settle()
    assert len(play.boards(fake)) == shown  # nothing has said it is back

    # A control of the step the refused board would have replaced: out of date, as ever.
    (control, *_) = [
        c
        for c in walk_components(board.versions[0]["components"])
        if str(c.get("custom_id", "")).startswith(("tt:act:", "tt:menu:"))
    ]
    values = ["0"] if control["custom_id"].startswith("tt:menu:") else []
    old = await table.alice.forge(board, control["custom_id"], *values)
    assert old.ephemeral_text == "Those buttons are out of date: use the newest game message."
    await play.next_board(fake, shown)  # that press woke the poster
    # A control with no step does what it says.
    mine = await table.alice.forge(board, f"tt:hand:{game.id}")
    (hand,) = await play.private_reply(table.alice, mine)
    assert hand.files and "I can't" not in hand.text
    await plays_on(bot, table, fake.channel, shown)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_paused_channel_pauses_again_after_a_restart(
    fake_discord: FakeDiscord, table: Table, make_bot
) -> None:
    """Start-up delivery meets the 403 once and pauses again: no spin."""
    fake = fake_discord
    async with running_bot(fake, make_bot()) as first:
        await start_rumble(table, fake.channel, seed=21)
        await pause_at_the_next_board(first, table, fake.channel, "attach_files", random.Random(4))
    assert len(refused_posts(fake, fake.channel)) == 1  # the clean stop tried nothing more
    async with running_bot(fake, make_bot()) as second:
        await fake.wait_for(
            lambda: poster_of(second).blocked(fake.channel.id) is not None,
            what="the start-up delivery to pause",
        )
        await fake.settle()
        assert len(refused_posts(fake, fake.channel)) == 2
        shown = len(play.boards(fake))
        await fake.allow_bot(fake.channel, "attach_files")
        await plays_on(second, table, fake.channel, shown)


@SQLITE_ONLY
async def test_a_turn_board_refused_as_an_edit_waits_too(
    bot, table: Table, fake_discord: FakeDiscord
) -> None:
    """Toss It edits its turn's board with each drop (`continues`): Attach Files taken as
    an AI drop is edited onto it pauses the channel as a refused post does; the AI's next
    drops wait behind it and go on, in order, once it is back."""
    fake = fake_discord
    await table.alice.slash("/toss new", wobble="steady", seed=5)
    await table.bob.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    await table.alice.click("Start")
    await fake.wait_for(lambda: toss_play.bin_boards(fake), what="the board")
    hook = fake.on_request(
        board_edit(fake, AI_DROP), lambda: fake.deny_bot(fake.channel, "attach_files")
    )
    players = {u.id: u for u in (table.alice, table.bob)}
    rng = random.Random(6)
    task = await play_until_fired(fake, hook, lambda: toss_play.play_one(fake, players, rng))
    task.cancel()  # it waits for a board that cannot come yet
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await fake.settle()
    edits = [r for r in fake.requests if board_edit(fake, AI_DROP)(r)]
    assert [r.status for r in edits].count(403) == 1
    assert poster_of(bot).blocked(fake.channel.id) is not None

    seen = toss_play.board_texts(fake)
    await fake.allow_bot(fake.channel, "attach_files")
    await toss_play.next_board(fake, seen)
    await fake.settle()
    assert_shown_once_in_order(fake, toss_play.bin_boards(fake), await logged_lines_of(bot.db))

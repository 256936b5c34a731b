"""The shared /game commands and the lobby's Leave button, through the fake Discord."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.play import latest_board
from tests.e2e.test_rumble_game import open_and_start
from tests.postgres import SQLITE_ONLY

COMPONENTS_V2 = 1 << 15  # Discord's message flag for layout components


async def test_status_leave_kick_and_stop(bot, table: Table, fake_discord):
    await open_and_start(table, seed=6)
    status = await table.stranger.slash("/game status")
    (reply,) = status.ephemeral
    embed = str(reply.embeds)
    assert "Rumble in the Dungeon" in embed and "Alice" in embed and "Rusty (AI, normal)" in embed
    # What people need: whose turn it is and since when (a Discord timestamp), no step.
    (shown,) = reply.embeds
    assert "step" not in shown["title"]
    game = await bot.sessions.current(fake_discord.channel.id)
    (seat,) = bot.sessions.humans_to_act(game)
    fields = {field["name"]: field["value"] for field in shown["fields"]}
    assert fields["Whose turn"].startswith(f"{game.seats[seat].name}, since <t:")
    assert fields["Whose turn"].endswith(":R>")

    # Leaving hands the seat to the AI: carol can no longer act, the game goes on.
    left = await table.carol.slash("/game leave")
    assert "AI plays that seat" in left.ephemeral_text
    game = await bot.sessions.current(fake_discord.channel.id)
    assert game.seats[2].ai and not game.seats[2].rated
    # The host chose no handover level: the normal AI plays the seat, and /game status says so.
    players = str((await table.stranger.slash("/game status")).ephemeral[0].embeds)
    assert game.seats[2].level == "normal" and f"{game.seats[2].name} (AI, normal)" in players
    again = await table.carol.slash("/game leave")
    assert "not playing" in again.ephemeral_text

    refused = await table.bob.slash("/game kick", member=table.alice)
    assert "Only the host" in refused.ephemeral_text
    kicked = await table.mod.slash("/game kick", member=table.bob)
    assert "AI plays that seat" in kicked.ephemeral_text
    await fake_discord.wait_for(
        lambda: "was removed" in latest_board(fake_discord).text, timeout=20, what="the board"
    )

    not_host = await table.bob.slash("/game stop")
    assert "Only the host" in not_host.ephemeral_text
    stopped = await table.alice.slash("/game stop")
    assert "stopped the game" in stopped.public[0].text
    await fake_discord.wait_for(
        lambda: all(
            not m.buttons and not m.selects for m in fake_discord.messages() if not m.ephemeral
        ),
        timeout=20,
        what="every control to be cleared",
    )
    assert await bot.sessions.current(fake_discord.channel.id) is None
    nothing = await table.alice.slash("/game status")
    assert "no game" in nothing.ephemeral_text


async def test_lobby_leave_passes_the_host_on_and_threads_have_their_own_game(
    bot, table: Table, fake_discord
):
    """One game per channel, and a thread counts as a channel."""
    await table.alice.slash("/rumble new")
    await table.bob.click("Join")
    left = await table.alice.click("Leave")
    assert "Bob (host)" in left.edited[0].text
    in_thread = await table.carol.slash("/rumble new", channel=fake_discord.thread)
    assert in_thread.public and not in_thread.ephemeral_text
    last = await table.bob.click("Leave", channel=fake_discord.channel)
    assert "closed" in last.edited[0].text
    assert await bot.sessions.current(fake_discord.channel.id) is None
    assert await bot.sessions.current(fake_discord.thread.id) is not None


@SQLITE_ONLY
async def test_the_lobby_says_what_the_game_is_and_its_options_in_words(bot, table: Table):
    """One line on the game, and each option by its heading and its label, not its key."""
    opened = await table.alice.slash("/brawl new", mode="rummy", timer=1)
    (lobby,) = opened.public
    assert lobby.flags & COMPONENTS_V2 and not lobby.embeds  # a layout message (issue 15)
    assert "whole hand is sets" in lobby.text
    options = lobby.text.split("**Options**", 1)[1]
    assert "Way to play: Round Rummage Rummy" in options
    assert "Turn timer: 1 minute a decision" in options
    assert "mode:" not in options and "rummy\n" not in options

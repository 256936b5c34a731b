"""Dumpster Brawl! end to end (issue 4): the real bot, the fake Discord, users pressing
buttons and picking from menus, one game per way to play, and a restart mid-game."""

from __future__ import annotations

import io
from itertools import pairwise

import pytest
from PIL import Image

from rules.brawl import BRAWL
from rules.brawl.data import CHARACTERS
from tests.e2e.brawl_play import alley_boards, play_to_the_end, take_turn, turn_user_id
from tests.e2e.conftest import Table
from tests.e2e.play import assert_one_message_a_turn, assert_started, shown
from tests.fakediscord import running_bot

BANDIT = next(i for i, c in enumerate(CHARACTERS) if c.key == "bandit")


async def open_brawl(table: Table, mode: str, seed: int) -> None:
    """Alice opens the lobby and picks Bandit; Bob and Carol join with a random animal; an
    AI animal takes the fourth seat."""
    opened = await table.alice.slash("/brawl new", mode=mode, seed=seed)
    lobby = opened.public[0]
    await table.alice.select(lobby.selects[0].custom_id, str(BANDIT), message=lobby)
    await table.bob.click("Join")
    taken = await table.bob.select(lobby.selects[0].custom_id, str(BANDIT), message=lobby)
    # One character, one player. The refusal is the select's answer, or follows its
    # deferred answer when the database took over a second to say no (a loaded machine may
    # delay that past the fake's quiet spell).
    refusal = await table.fake.wait_for(lambda: taken.replies, timeout=20, what="the refusal")
    assert "already picked" in refusal[0].text and refusal[0].ephemeral_to == table.bob.id
    await table.carol.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    started = await table.alice.click("Start")
    assert_started(started)
    await table.fake.wait_for(lambda: alley_boards(table.fake), timeout=20, what="the board")


# Seeds whose games (every seat playing like the AI animal) are short, for CI time.
GAMES = [("round-rummage", 247), ("king-of-the-heap", 118), ("rummy", 114)]


@pytest.mark.parametrize(("mode", "seed"), GAMES, ids=[mode for mode, _ in GAMES])
async def test_three_users_and_an_ai_animal_brawl_to_the_end(
    bot, table: Table, fake_discord, mode: str, seed: int
):
    """Issue 4: for each way to play, three users and one AI play a whole game with slash
    commands, buttons and menus only; the lobby pick is the player's character; every roll
    is pictured; the scoreboard counts the game."""
    await open_brawl(table, mode, seed)
    game = await bot.sessions.current(fake_discord.channel.id)
    state = BRAWL.from_json(game.state)
    assert state.characters[0] == BANDIT and state.mode == mode
    first = alley_boards(fake_discord)[0]
    assert "start" in first.text.lower()
    pictures = {a.filename for a in first.attachments}
    assert pictures == {"alley.png", "dice.png"}  # the start-player roll is pictured
    assert Image.open(io.BytesIO(first.files[0][1])).format == "PNG"
    players = {u.id: u for u in table.players}
    final = await play_to_the_end(bot, fake_discord, players)
    assert "wins" in final.text.lower()
    await assert_one_message_a_turn(bot, fake_discord)
    # Issue 15: the last board recaps the game: the final standings and the recap picture.
    assert "**Final standings**" in final.text and "recap.png" in [
        a.filename for a in final.attachments
    ]
    # Every board that reports a roll shows the dice, in the version (a turn's board is
    # edited as it goes) that first tells it.
    fights = [
        files
        for board in alley_boards(fake_discord)
        for (before, _), (text, files) in pairwise([("", set()), *shown(board)])
        if text.count("rolls 6 blue dice") > before.count("rolls 6 blue dice")
    ]
    assert fights and all("dice.png" in files for files in fights)
    # Cards are drawn one at a time and each draw is told to its drawer alone: in their own
    # reply, never on a public message.
    said = [
        (m, version.get("content") or "") for m in fake_discord.messages() for version in m.versions
    ]
    assert any(m.ephemeral and "🔒 You drew " in text for m, text in said)
    assert not any(not m.ephemeral and ("You drew" in text or "🔒" in text) for m, text in said)
    board = await table.bob.slash("/scoreboard", game="brawl")
    text = board.public[0].embeds[0]["description"]
    assert all(user.name in text.lower() for user in table.players)


async def test_a_restart_mid_brawl_resumes_with_the_posted_buttons(
    fake_discord, table: Table, make_bot
):
    """Issue 4 / foundation: the bot stops mid-game; after a restart the player to decide
    uses the "My hand" button of the board posted before the restart, and the game goes on
    to the end."""
    players = {u.id: u for u in table.players}
    async with running_bot(fake_discord, make_bot()) as first:
        await open_brawl(table, "round-rummage", 247)
        for _ in range(2):  # a board is a turn: a few presses each
            board = alley_boards(fake_discord)[-1]
            await take_turn(first, players[turn_user_id(board)], board)
            await fake_discord.settle()
        before = await first.sessions.current(fake_discord.channel.id)
        assert before is not None and before.status == "playing"
        board = alley_boards(fake_discord)[-1]
    async with running_bot(fake_discord, make_bot()) as second:
        resumed = await second.sessions.current(fake_discord.channel.id)
        assert resumed.state == before.state  # nothing lost
        assert alley_boards(fake_discord)[-1].id == board.id
        await take_turn(second, players[turn_user_id(board)], board)
        after = await second.sessions.current(fake_discord.channel.id)
        assert after.step > before.step
        final = await play_to_the_end(second, fake_discord, players)
        assert "wins" in final.text.lower()

"""Toss It in the Trash end to end (issue 5): the real bot, the fake Discord, users laying
down cards and dropping garbage with menus and buttons, and a restart mid-turn."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from rules.toss import TOSS
from tests.e2e.conftest import Table
from tests.e2e.toss_play import (
    bin_boards,
    drop_piece,
    lay_down_card,
    next_board,
    play_one,
    play_to_the_end,
    waiting_ids,
)
from tests.fakediscord import running_bot

DROP = re.compile(r"^• .* (places|drops) (a|an) ")  # one drop's line on a board
AI_DROP = re.compile(r"^• \S+ \(AI\) (places|drops) ", re.MULTILINE)


async def open_toss(table: Table, seed: int, wobble: str = "shaky") -> None:
    await table.alice.slash("/toss new", wobble=wobble, seed=seed)
    await table.bob.click("Join")
    await table.carol.click("Join")
    await table.alice.click("Add AI player")
    started = await table.alice.click("Start")
    assert not started.ephemeral_text, started
    await table.fake.wait_for(lambda: bin_boards(table.fake), timeout=20, what="the board")


# A long game: on one database only, to keep the suite within ten minutes (the shorter
# end-to-end tests of this game run on both).
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_three_users_and_an_ai_fill_the_bin_to_the_end(bot, table: Table, fake_discord):
    """Issue 5: three users and one AI play a whole game with slash commands, buttons and
    menus only: secret card choices, then drops piece by piece; the scoreboard counts it."""
    await open_toss(table, seed=3)
    first = bin_boards(fake_discord)[0]
    assert Image.open(io.BytesIO(first.files[0][1])).format == "PNG"
    assert set(waiting_ids(first)) == {u.id for u in table.players}  # all choose at once
    assert not first.selects  # nothing to drop while cards are being chosen
    players = {u.id: u for u in table.players}
    final = await play_to_the_end(fake_discord, players, random.Random(5))
    assert "final:" in final.content
    # Issue 5: the channel shows the bin after each drop, the AI's drops too, so no board
    # carries two drops (a player's last drop is shown before the AI thinks through its own).
    drops = [
        sum(1 for line in board.content.splitlines() if DROP.search(line))
        for board in bin_boards(fake_discord)
    ]
    assert max(drops) == 1
    ai_drop_boards = [b for b in bin_boards(fake_discord) if AI_DROP.search(b.content)]
    assert len(ai_drop_boards) >= 2
    board = await table.bob.slash("/scoreboard", game="toss")
    text = board.public[0].embeds[0]["description"]
    assert all(user.name in text.lower() for user in table.players)


async def test_chosen_cards_stay_hidden_until_everyone_has_chosen(bot, table: Table, fake_discord):
    """Rulebook (simultaneous choice) / issue 5: a card laid down is not shown to anyone,
    in the channel's text or pictures, until every player has chosen."""
    await open_toss(table, seed=8)
    rng = random.Random(1)
    board = bin_boards(fake_discord)[-1]
    seen = len(bin_boards(fake_discord))
    assert await lay_down_card(table.alice, board, rng)
    await next_board(fake_discord, seen)
    game = await bot.sessions.current(fake_discord.channel.id)
    state = TOSS.from_json(game.state)
    card = state.chosen[0]
    assert card is not None and state.phase == "choose"
    after = bin_boards(fake_discord)[-1]
    assert "lays down a card." in after.content
    assert f"lays down a {card}" not in after.content and f"your {card}" not in after.content
    # The public picture is the same whichever card Alice had laid down.
    other = next(c for c in state.hands[0])
    swapped = TOSS.from_json({**game.state, "chosen": [other, *game.state["chosen"][1:]]})
    assert TOSS.observe(swapped, None) == TOSS.observe(state, None)
    # Bob's own view shows that Alice has chosen, not what.
    assert TOSS.observe(state, 1)["revealed"] == [None] * 4


async def test_a_restart_mid_turn_keeps_the_bin_exactly(fake_discord, table: Table, make_bot):
    """Issue 5 / foundation: the bot stops in the middle of a player's turn (pieces still to
    drop); after a restart the bin is exactly as it was and the board's menu still works."""
    players = {u.id: u for u in table.players}
    rng = random.Random(2)
    async with running_bot(fake_discord, make_bot()) as first:
        await open_toss(table, seed=11)
        for _ in range(40):
            game = await first.sessions.current(fake_discord.channel.id)
            state = TOSS.from_json(game.state)
            board = bin_boards(fake_discord)[-1]
            # A piece dropped (the turn's kind is bound) and more still to drop.
            mid_turn = state.phase == "place" and state.kind is not None and state.to_place > 0
            if mid_turn and board.selects and waiting_ids(board)[0] in players:
                break
            await play_one(fake_discord, players, rng)
        else:
            raise AssertionError("no human turn with pieces left came up")
        before = game.state
    async with running_bot(fake_discord, make_bot()) as second:
        resumed = await second.sessions.current(fake_discord.channel.id)
        assert resumed.state == before  # every resting pose, to the tenth of a millimetre
        assert bin_boards(fake_discord)[-1].id == board.id
        seen = len(bin_boards(fake_discord))
        await drop_piece(players[waiting_ids(board)[0]], board, rng)
        await next_board(fake_discord, seen)
        after = await second.sessions.current(fake_discord.channel.id)
        assert after.step == resumed.step + 1


# A long game: on one database only, to keep the suite within ten minutes (the shorter
# end-to-end tests of this game run on both).
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_players_leaving_hand_the_game_to_the_ai_drop_by_drop(
    bot, table: Table, fake_discord
):
    """Issue 5 (the channel shows the bin after each drop) on the /game leave path: when
    every person has left, the AI plays on to the end, each drop on its own board, and the
    one who left is answered before the AI's first move rather than after the game."""
    await table.alice.slash("/toss new", seed=4)
    await table.bob.click("Join")
    await table.alice.click("Add AI player")
    await table.alice.click("Start")
    await fake_discord.wait_for(lambda: bin_boards(fake_discord), timeout=20, what="the board")
    left = await table.bob.slash("/game leave")
    assert "AI plays that seat" in left.ephemeral_text
    left = await table.alice.slash("/game leave", settle=False)
    await fake_discord.wait_for(
        lambda: "AI plays that seat" in left.ephemeral_text, timeout=20, what="the answer"
    )
    assert "The game is over" not in bin_boards(fake_discord)[-1].content
    await fake_discord.wait_for(
        lambda: "The game is over" in bin_boards(fake_discord)[-1].content,
        timeout=240,
        what="the AI to finish the game",
    )
    drops = [
        sum(1 for line in board.content.splitlines() if DROP.search(line))
        for board in bin_boards(fake_discord)
    ]
    assert max(drops) == 1 and sum(drops) >= 40  # at least a bin's worth, one board each

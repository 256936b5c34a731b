"""Rumble in the Dungeon end to end: the real bot, the fake Discord, users pressing buttons."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from sqlmodel import col, select

from bot.models import ActionRecord
from render.rumble import BOARD_SIZE
from tests.e2e.conftest import Table
from tests.e2e.play import (
    MOVE_MENU,
    against_the_ai,
    assert_one_message_a_turn,
    board_views,
    boards,
    is_whole_move,
    latest_board,
    next_board,
    play_to_the_end,
    take_turn,
    turn_user_id,
)
from tests.fakediscord.state import FLAG_COMPONENTS_V2 as COMPONENTS_V2
from tests.fakediscord.state import MEDIA_GALLERY, TEXT_DISPLAY


async def open_and_start(table: Table, seed: int) -> None:
    """alice opens a lobby, bob and carol join, alice adds an AI seat and starts."""
    opened = await table.alice.slash("/rumble new", seed=seed)
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Start", "Cancel"]
    assert [menu.placeholder for menu in lobby.selects] == ["Add AI player…"]
    await table.bob.click("Join")
    await table.carol.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    started = await table.alice.click("Start")
    assert not started.failed and not started.ephemeral_text, started
    await next_board(table.fake, 0)


# A long game: on one database only, to keep the suite within ten minutes (the shorter
# end-to-end tests of this game run on both).
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_three_users_and_an_ai_play_three_rumbles_then_the_scoreboard(
    bot, table, fake_discord
):
    """Issue 2: three users and one AI seat play a whole three-rumble game with slash
    commands and buttons only, then /scoreboard shows the result."""
    await open_and_start(table, seed=11)
    first = latest_board(fake_discord)
    picture = Image.open(io.BytesIO(first.files[0][1]))
    assert picture.format == "PNG" and picture.size == BOARD_SIZE  # the map and its caption
    # Issue 15: a board is a layout message: one container with the text, the picture in a
    # gallery and the controls (the fake checks it as Discord would).
    assert first.flags & COMPONENTS_V2 and not first.content and not first.embeds
    (container,) = first.components
    assert [c["type"] for c in container["components"]][:2] == [TEXT_DISPLAY, MEDIA_GALLERY]
    assert first.buttons  # "My secret" and the play controls

    players = {u.id: u for u in table.players}
    final = await play_to_the_end(fake_discord, players, random.Random(5))
    await assert_one_message_a_turn(bot, fake_discord)
    assert "final:" in final.text
    # The last board's only control is Rematch (issue 15).
    assert [button.label for button in final.buttons] == ["Rematch"] and not final.selects
    # Rulebook: at the end of each rumble everyone reveals their two characters.
    reveals = [m for m in fake_discord.messages() if "was secretly backing" in m.text]
    assert len(reveals) == 3
    assert all(any(f.startswith("reveal") for f, _ in m.files) for m in reveals)
    for user in table.players:
        assert all(f"{user.name} was secretly backing" in m.text.lower() for m in reveals)
    # Only the newest board keeps its controls (cleared just after the next one is posted).
    await fake_discord.wait_for(
        lambda: all(not b.buttons and not b.selects for b in boards(fake_discord)[:-1]),
        timeout=20,
        what="old boards to lose their controls",
    )

    board = await table.bob.slash("/scoreboard", game="rumble")
    (message,) = board.public
    text = message.embeds[0]["description"]
    for user in table.players:
        assert user.name in text.lower()
    assert "(AI)" not in text  # AI seats are never rated
    history = await table.carol.slash("/history")
    assert "Rumble in the Dungeon" in str(history.public[0].embeds)


async def test_a_character_with_one_way_out_moves_with_the_menu_pick(bot, table, fake_discord):
    """Issue 55 ("a move with no alternative is made for the player"): in the board's move
    menu a character with a single way out is listed as that move, and picking it makes the
    move: no private reply with one button, no second press."""
    alice = table.alice
    await against_the_ai(alice, seed=3)
    rng = random.Random(3)
    for _ in range(80):
        board = latest_board(fake_discord)
        assert turn_user_id(board) == alice.id, board.text
        menu = next((s for s in board.selects if s.placeholder == MOVE_MENU), None)
        single = [o for o in menu.options if is_whole_move(o)] if menu else []
        if single:
            break
        await take_turn(alice, board, rng)
    else:
        raise AssertionError("no character had a single way out")
    game = await bot.sessions.current(fake_discord.channel.id)
    assert game is not None
    private_before = len([m for m in fake_discord.messages() if m.ephemeral_to == alice.id])
    views = board_views(fake_discord)

    picked = await alice.select(MOVE_MENU, single[0]["value"], message=board)
    assert not picked.ephemeral_text, picked
    await fake_discord.wait_for(
        lambda: board_views(fake_discord) > views, timeout=20, what="the board showing the move"
    )
    await fake_discord.settle()
    assert len([m for m in fake_discord.messages() if m.ephemeral_to == alice.id]) == (
        private_before
    ), "a private reply was opened for a move with no alternative"
    async with bot.db.reading() as session:
        made = (
            await session.exec(
                select(ActionRecord)
                .where(ActionRecord.game_id == game.id, ActionRecord.step == game.step)
                .order_by(col(ActionRecord.id))
            )
        ).one()
    assert (made.actor, made.seat) == ("player", 0)  # alice's own move, by her one pick
    assert bot.sessions.describer(game)(made.action) == single[0]["label"]

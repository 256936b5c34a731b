"""Toss It in the Trash end to end (issue 5, issue 14 item 4, issue 55 item 2): the real
bot, the fake Discord, users laying down cards and aiming and dropping garbage with menus and
buttons (one aiming message a turn, one press a piece), one board message per turn, and a
restart mid-turn."""

from __future__ import annotations

import io
import itertools
import random
import re

import pytest
from PIL import Image
from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import ActionRecord
from rules.toss import TOSS
from tests.e2e.conftest import Table
from tests.e2e.play import assert_one_message_a_turn, assert_started, private_reply, shown
from tests.e2e.toss_play import (
    aim_button,
    aiming,
    bin_boards,
    board_texts,
    drop_at,
    lay_down_card,
    next_board,
    open_aim,
    play_one,
    play_to_the_end,
    press_aim,
    waiting_ids,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.postgres import SQLITE_ONLY

DROP = re.compile(r"^• (.*) (places|drops) (a|an) ")  # one drop's line on a board
AI_DROP = re.compile(r"^• \S+ \(AI, \w+\) (places|drops) ", re.MULTILINE)  # "Rusty (AI, normal)"


async def last_action(bot: TrashTableBot) -> str:
    """The newest action saved, as the engine read it ("place can 11 15")."""
    async with bot.db.reading() as session:
        query = select(ActionRecord).order_by(col(ActionRecord.id).desc())
        record = (await session.exec(query)).first()
    assert record is not None
    return record.action


def drop_lines(board: FakeMessage) -> list[re.Match[str]]:
    return [m for line in board.text.splitlines() if (m := DROP.search(line))]


def people_dropping(board: FakeMessage) -> set[str]:
    """The people (not AI seats) who dropped on a board, after its first drop line: a
    turn's message is posted by the last drop of the turn before it, then shows that
    turn's own drops and the AI's drops that follow at once."""
    return {m.group(1) for m in drop_lines(board)[1:] if " (AI, " not in m.group(1)}


async def open_toss(table: Table, seed: int, wobble: str = "shaky") -> None:
    await table.alice.slash("/toss new", wobble=wobble, seed=seed)
    await table.bob.click("Join")
    await table.carol.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    started = await table.alice.click("Start")
    assert_started(started)
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
    assert "final:" in final.text
    await assert_one_message_a_turn(bot, fake_discord)
    # Issue 15: the last board recaps the game: the final standings and the recap picture.
    assert "**Final standings**" in final.text and "recap.png" in [
        a.filename for a in final.attachments
    ]
    # Issue 5: the channel shows the bin after each drop, the AI's drops too; issues 14 and
    # 34: a turn's drops edit one message, and so do the AI's that follow, so a message's
    # drops are one person's turn (after the last drop of the turn before it, which
    # posted it) and the AI's after it.
    assert all(len(people_dropping(board)) <= 1 for board in bin_boards(fake_discord))
    # While people play, every drop is shown apart: a version adds at most one drop.
    for board in bin_boards(fake_discord):
        counts = [0] + [sum(bool(DROP.search(line)) for line in text.splitlines())
                        for text, _ in shown(board)]  # fmt: skip
        assert all(b - a <= 1 for a, b in itertools.pairwise(counts)), board.text
    ai_drop_boards = [b for b in bin_boards(fake_discord) if AI_DROP.search(b.text)]
    assert len(ai_drop_boards) >= 2
    edited = [b for b in bin_boards(fake_discord) if len(drop_lines(b)) > 1]
    assert edited, "some turn showed several drops on one message"
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
    assert "lays down a card." in after.text
    assert f"lays down a {card}" not in after.text and f"your {card}" not in after.text
    # The public picture is the same whichever card Alice had laid down.
    other = next(c for c in state.hands[0])
    swapped = TOSS.from_json({**game.state, "chosen": [other, *game.state["chosen"][1:]]})
    assert TOSS.observe(swapped, None) == TOSS.observe(state, None)
    # Bob's own view shows that Alice has chosen, not what.
    assert TOSS.observe(state, 1)["revealed"] == [None] * 4


async def start_alices_turn(bot: TrashTableBot, table: Table, fake: FakeDiscord) -> FakeMessage:
    """Seed 12, steady hands: Alice and Bob lay down their highest cards (8 and 9), so the
    board asks Alice to drop eight pieces. Returns that board."""
    await table.alice.slash("/toss new", wobble="steady", seed=12)
    await table.bob.click("Join")
    await table.alice.click("Start")
    await fake.wait_for(lambda: bin_boards(fake), timeout=20, what="the board")
    for user in (table.alice, table.bob):
        opened = await user.click("My hand", message=bin_boards(fake)[-1])
        (hand,) = await private_reply(user, opened)
        await user.press(hand, [b for b in hand.buttons if b.label.startswith("Lay")][-1].label)
    await fake.settle()
    board = bin_boards(fake)[-1]
    assert waiting_ids(board) == [table.alice.id] and board.selects
    return board


def private_to(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """Every private message the bot has posted to `user`, deleted ones too."""
    return [m for m in fake.messages(include_deleted=True) if m.ephemeral_to == user.id]


@SQLITE_ONLY
async def test_a_turn_of_n_pieces_takes_n_plus_one_presses_and_one_aiming_message(
    bot, table: Table, fake_discord
):
    """Issue 55 item 2: the board's menu opens the aiming message (one press), then each
    piece goes in with one press from it, either "the same again" (Drop, the last aim kept)
    or a spot picked in its drop menu, each landing as aimed; the turn posts one private
    message, edited in place with a fresh preview after every drop, and one board message."""
    board = await start_alices_turn(bot, table, fake_discord)
    alice = table.alice
    game = await bot.sessions.current(fake_discord.channel.id)
    pieces = TOSS.from_json(game.state).to_place
    assert pieces == 8
    messages, interactions = len(bin_boards(fake_discord)), len(fake_discord.interactions)
    private = len(private_to(fake_discord, alice))

    reply = await open_aim(alice, board, random.Random(0), spot=4)
    assert "preview.png" in [a.filename for a in reply.attachments]
    spot, dropped = 4, 0
    while aiming(reply):
        if dropped % 3 == 2:  # now and then another spot, picked and dropped in one press
            spot = (spot + 5) % 21
            await drop_at(alice, reply, spot)
        else:  # the same again
            await press_aim(alice, reply, "drop")
        dropped += 1
        assert (await last_action(bot)).split()[2:] == [str(spot), "0"], "lands as aimed"
        if aiming(reply):  # the next piece is aimed where the last one went
            assert f"spot {spot} (" in reply.text and "preview.png" in [
                a.filename for a in reply.attachments
            ]
    await fake_discord.settle()
    assert "Your turn is over" in reply.text
    assert dropped == pieces  # steady hands and spread spots: no spill
    assert len(fake_discord.interactions) - interactions == pieces + 1, "N+1 presses"
    assert private_to(fake_discord, alice)[private:] == [reply], "one aiming message a turn"
    assert len(reply.history) >= pieces  # every drop edited it in place
    assert len(bin_boards(fake_discord)) - messages == 1, "one board message for the turn"
    assert not fake_discord.rate_limited


@SQLITE_ONLY
async def test_drop_the_rest_ends_a_turn_in_one_press_shown_in_one_board(
    bot, table: Table, fake_discord
):
    """Issue 55 item 2: "Drop the rest like this" drops every piece left in the turn at the
    aim (spot and turn) in one press, a plan played in one transaction: the turn takes two
    presses in all, the aiming message says it is over, and the channel shows every drop's
    line on one board, with no request over Discord's limits."""
    board = await start_alices_turn(bot, table, fake_discord)
    alice = table.alice
    game = await bot.sessions.current(fake_discord.channel.id)
    pieces, step = TOSS.from_json(game.state).to_place, game.step
    interactions, seen = len(fake_discord.interactions), len(bin_boards(fake_discord))

    reply = await open_aim(alice, board, random.Random(0), spot=10)
    await press_aim(alice, reply, "↺")  # aimed finely first: a turn of 15°
    await press_aim(alice, reply, "rest")
    await fake_discord.settle()
    assert "Your turn is over" in reply.text
    assert len(fake_discord.interactions) - interactions == 3
    after = await bot.sessions.current(fake_discord.channel.id)
    async with bot.db.reading() as session:
        query = select(ActionRecord).where(ActionRecord.game_id == game.id)
        actions = [r for r in (await session.exec(query)).all() if r.step >= step]
    drops = [r.action.split() for r in actions if r.action.startswith("place")]
    assert drops and all(d[2:] == ["10", "15"] for d in drops), "each at the aim"
    state = TOSS.from_json(after.state)
    assert len(drops) == pieces or state.spilled_at > step, "all, unless a spill ended it"
    # The turn passed to Bob: one new board, which shows every drop of the plan.
    (shown_on,) = bin_boards(fake_discord)[seen:]
    assert len(drop_lines(shown_on)) == len(drops)
    assert waiting_ids(shown_on) == [table.bob.id]
    assert private_to(fake_discord, alice)[-1] is reply
    assert not fake_discord.rate_limited


@SQLITE_ONLY
async def test_the_boards_menu_pressed_again_replaces_the_aiming_message(
    bot, table: Table, fake_discord
):
    """Issue 55 item 2: a player who presses the board's menu again in the same turn (a
    dismissed message, or habit) gets the aiming message anew, and the one before is
    removed: never two aiming messages at once."""
    board = await start_alices_turn(bot, table, fake_discord)
    alice = table.alice
    first = await open_aim(alice, board, random.Random(0), spot=4)
    await press_aim(alice, first, "drop")
    await fake_discord.settle()
    again = await open_aim(alice, bin_boards(fake_discord)[-1], random.Random(0), spot=12)
    await fake_discord.settle()
    assert again is not first and "spot 12 (" in again.text
    assert first.deleted
    live = [m for m in private_to(fake_discord, alice) if not m.deleted and aiming(m)]
    assert live == [again]
    await press_aim(alice, again, "drop")
    assert (await last_action(bot)).split()[2:] == ["12", "0"]


async def test_a_turns_message_deleted_mid_turn_is_posted_again(bot, table: Table, fake_discord):
    """Nothing lost, nothing stuck: when the turn's board message is gone (a moderator
    deleted it), the next drop is shown on a new board message with the controls, and the
    turn goes on from it."""
    board = await start_alices_turn(bot, table, fake_discord)
    reply = await open_aim(table.alice, board, random.Random(0), spot=4)
    await press_aim(table.alice, reply, "drop")
    await fake_discord.settle()
    board.deleted = True  # as a moderator's delete leaves it: Discord answers 404 from now on
    await press_aim(table.alice, reply, "drop")
    await fake_discord.settle()
    newest = bin_boards(fake_discord)[-1]
    assert newest.id != board.id and len(drop_lines(newest)) == 1
    assert waiting_ids(newest) == [table.alice.id] and newest.selects
    seen = board_texts(fake_discord)
    await press_aim(table.alice, reply, "drop")
    await next_board(fake_discord, seen)
    assert bin_boards(fake_discord)[-1].id == newest.id  # the turn goes on on the new one
    assert len(drop_lines(newest)) == 2


@SQLITE_ONLY
async def test_stale_forged_and_other_players_aim_controls_change_nothing(
    bot, table: Table, fake_discord
):
    """Issue 14 item 5 / the refusal rule: an aim control from an earlier step, an aim off
    the bin (spot 99, a turn of 7°), a kind the game has not, a spot not in the menu and
    Bob pressing Alice's board each get a short private reason, and the game stays as it
    was."""
    board = await start_alices_turn(bot, table, fake_discord)
    reply = await open_aim(table.alice, board, random.Random(0), spot=4)
    await press_aim(table.alice, reply, "drop")
    await fake_discord.settle()
    game = await bot.sessions.current(fake_discord.channel.id)
    old, now = game.step - 1, game.step
    prefix = f"tt:toss:{game.id}"
    refusals = [
        (f"{prefix}:{old}:{TOSS.from_json(game.state).kind}:4:0:drop", "out of date"),
        (f"{prefix}:{now}:carton:99:0:drop", "off the bin"),
        (f"{prefix}:{now}:carton:4:7:aim", "off the bin"),
        (f"{prefix}:{now}:piano:4:0:drop", "no longer works"),
    ]
    for custom_id, reason in refusals:
        result = await table.alice.forge(reply, custom_id)
        assert reason in result.ephemeral_text, custom_id
    board = bin_boards(fake_discord)[-1]
    select = board.selects[0]
    result = await table.alice.forge(board, select.custom_id or "", "21")
    assert "Pick one of the options" in result.ephemeral_text
    result = await table.bob.select(select.custom_id or "", "4", message=board)
    assert "not your turn" in result.ephemeral_text.lower()
    after = await bot.sessions.current(fake_discord.channel.id)
    assert after.step == now and after.state == game.state


async def test_a_restart_mid_turn_keeps_the_bin_and_the_aim_controls(
    fake_discord, table: Table, make_bot
):
    """Issue 5 / foundation: the bot stops in the middle of a player's turn (pieces still to
    drop); after a restart the bin is exactly as it was. Issue 14: the aim reply opened and
    nudged before the restart still turns the piece and drops it after, on the same turn's
    board message."""
    players = {u.id: u for u in table.players}
    rng = random.Random(2)
    async with running_bot(fake_discord, make_bot()) as first:
        await open_toss(table, seed=11)
        for _ in range(40):
            game = await first.sessions.current(fake_discord.channel.id)
            state = TOSS.from_json(game.state)
            board = bin_boards(fake_discord)[-1]
            # A person's turn with three pieces or more: one dropped leaves the turn going.
            starting = state.phase == "place" and state.kind is None and state.to_place > 2
            if starting and board.selects and waiting_ids(board)[0] in players:
                break
            await play_one(fake_discord, players, rng)
        else:
            raise AssertionError("no human turn with pieces left came up")
        user = players[waiting_ids(board)[0]]
        reply = await open_aim(user, board, rng, spot=10)
        await press_aim(user, reply, "drop")
        await fake_discord.settle()
        game = await first.sessions.current(fake_discord.channel.id)
        state = TOSS.from_json(game.state)
        assert state.kind is not None and state.to_place > 1, "mid-turn"
        await press_aim(user, reply, "▶")
        assert "spot 11" in reply.text
        before = game.state
    async with running_bot(fake_discord, make_bot()) as second:
        resumed = await second.sessions.current(fake_discord.channel.id)
        assert resumed.state == before  # every resting pose, to the tenth of a millimetre
        assert bin_boards(fake_discord)[-1].id == board.id
        seen = board_texts(fake_discord)
        await press_aim(user, reply, "↺")  # made by the first process
        assert "spot 11" in reply.text and "turned 15°" in reply.text
        await press_aim(user, reply, "drop")
        await next_board(fake_discord, seen)
        after = await second.sessions.current(fake_discord.channel.id)
        assert after.step == resumed.step + 1
        assert (await last_action(second)).endswith(" 11 15")  # the aim: spot 11, 15°
        # The turn goes on: its board message was edited, and the reply aims the next piece.
        assert bin_boards(fake_discord)[-1].id == board.id
        assert aim_button(reply, "drop").label == "Drop another the same way"


# A long game: on one database only, to keep the suite within ten minutes (the shorter
# end-to-end tests of this game run on both).
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_players_leaving_hand_the_game_to_the_ai_drop_by_drop(
    bot, table: Table, fake_discord
):
    """Issue 5 (the channel shows the bin after each drop) on the /game leave path: when
    every person has left, the AI plays on to the end, each drop shown (issue 14: by an edit
    of its turn's message), and the one who left is answered before the AI's first move
    rather than after the game."""
    await table.alice.slash("/toss new", seed=4)
    await table.bob.click("Join")
    await table.alice.select("Add AI player…", "Normal AI")
    await table.alice.click("Start")
    await fake_discord.wait_for(lambda: bin_boards(fake_discord), timeout=20, what="the board")
    left = await table.bob.slash("/game leave")
    assert "AI plays that seat" in left.ephemeral_text
    left = await table.alice.slash("/game leave", settle=False)
    await fake_discord.wait_for(
        lambda: "AI plays that seat" in left.ephemeral_text, timeout=20, what="the answer"
    )
    assert "The game is over" not in bin_boards(fake_discord)[-1].text
    await fake_discord.wait_for(
        lambda: "The game is over" in bin_boards(fake_discord)[-1].text,
        timeout=240,
        what="the AI to finish the game",
    )
    boards = bin_boards(fake_discord)
    # Issue 34: with nobody left to press on the board, the AI's queued drops are shown
    # together, several an edit, at the pace Discord allows the token that carries them
    # (while people play, each drop is shown apart: the whole-game test).
    drops = 0
    for board in boards:
        counts = [0] + [sum(bool(DROP.search(line)) for line in text.splitlines())
                        for text, _ in shown(board)]  # fmt: skip
        drops += sum(max(b - a, 0) for a, b in itertools.pairwise(counts))
    assert drops >= 40  # at least a bin's worth
    assert len(boards) < drops  # issues 14 and 34: one message per turn, not one per drop

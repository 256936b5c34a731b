"""One decision, one press: a player's private reply stays open from turn to turn. Once a
player has opened it ("My hand"), the bot edits it with their hand and choices when the
game comes back to them (within the 15 minutes Discord gives its token), so their next turn
needs no "My hand" press and makes no new private message (`cogs/shared/replies.py`)."""

from __future__ import annotations

import random

from tests.e2e.conftest import Table
from tests.e2e.play import newest_private, open_decision
from tests.e2e.test_toss_game import open_toss
from tests.e2e.test_trashwar_game import open_war
from tests.e2e.toss_play import (
    aiming,
    bin_boards,
    cards_to_lay,
    lay_down_card,
    play_one,
    play_turn,
    waiting_ids,
)
from tests.e2e.trashwar_play import battlefields, decide, turn_user_id
from tests.fakediscord import FakeDiscord, FakeMessage


def private_messages(fake: FakeDiscord, user_id: int) -> int:
    return sum(1 for m in fake.messages() if m.ephemeral_to == user_id)


async def test_a_turn_comes_to_the_open_reply_without_my_hand(bot, table: Table, fake_discord):
    """Trash War: each person's turns come to one private message, posted unasked on the
    press that seated them (Join, Start) and edited from then on: no "My hand" press and
    no second private message in the whole game."""
    fake = fake_discord
    await open_war(table, seed=30)
    rng = random.Random(4)
    turns = 0
    for _ in range(8):
        await fake.settle()  # the newest board, and the turn shown in an open reply
        board = battlefields(fake)[-1]
        if "The game is over" in board.text:
            break
        user = table.by_id(turn_user_id(board) or 0)
        await fake.wait_for(
            lambda u=user: open_decision(newest_private(u)), timeout=20, what="the turn"
        )
        reply = newest_private(user)
        assert reply is not None and "Your hand" in reply.text
        for _ in range(20):
            if not reply.buttons and not reply.selects:
                break  # "Done.": the turn moved on
            reply = await decide(user, reply, rng)
        turns += 1
    assert turns >= 4, "the seed gives each player two turns"
    assert all(private_messages(fake, user.id) <= 1 for user in table.players)
    hands = [
        r
        for r in fake.state.interactions.values()
        if r.data.get("custom_id", "").startswith("tt:hand")
    ]
    assert not hands, "a My hand press"


async def test_a_new_card_round_comes_to_the_open_hand_reply(bot, table: Table, fake_discord):
    """Toss It: a player who laid down a card from "My hand" finds the next round's cards
    to lay down in that same reply, edited (no second "My hand", no new private message)."""
    fake = fake_discord
    await open_toss(table, seed=4)
    rng = random.Random(4)
    replies: dict[int, FakeMessage] = {}
    rounds = 0
    for _ in range(40):
        await fake.settle()
        board = bin_boards(fake)[-1]
        if "The game is over" in board.text or rounds >= 2:
            break
        waiting = [table.by_id(u) for u in waiting_ids(board)]
        if board.selects:  # a turn of drops
            await play_one(fake, {u.id: u for u in table.players}, rng, replies)
            continue
        user = waiting[0]
        before = private_messages(fake, user.id)
        carried = bool(cards_to_lay(replies.get(user.id)))
        assert await lay_down_card(user, board, rng, replies)
        if carried:
            rounds += 1
            assert private_messages(fake, user.id) == before, "a new private message"
    assert rounds >= 2, "two card rounds came to an open reply"


async def test_a_turn_of_drops_is_aimed_in_the_open_reply(bot, table: Table, fake_discord):
    """Issue 55 item 2 (one aiming message a turn, one press a piece): when a player's turn
    to drop comes, the reply they laid their card down in becomes the turn's aiming
    message, so every press of the turn is a drop (or a finer aim) made there: none on the
    board, and no new private message."""
    fake = fake_discord
    await open_toss(table, seed=4)
    rng = random.Random(4)
    replies: dict[int, FakeMessage] = {}
    turns = 0
    for _ in range(40):
        await fake.settle()  # the newest board, and the turn shown in the open reply
        board = bin_boards(fake)[-1]
        if "The game is over" in board.text or turns >= 3:
            break
        user = table.by_id(waiting_ids(board)[0])
        if not board.selects:
            assert await lay_down_card(user, board, rng, replies)
            continue
        reply = replies[user.id]  # every person laid a card down from a reply
        assert aiming(reply), reply.text
        before, pressed = private_messages(fake, user.id), max(fake.state.interactions)
        assert await play_turn(user, board, rng, replies) is reply
        turn = [r for i, r in fake.state.interactions.items() if i > pressed]
        assert turn and all(r.message is reply for r in turn if r.user.id == user.id)
        assert private_messages(fake, user.id) == before, "a new private message"
        turns += 1
    assert turns >= 3, "the seed gives people three turns of drops"

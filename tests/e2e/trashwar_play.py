"""Playing Trash War through the fake Discord as people would: press "My hand" on the
newest battlefield, then use the private reply's buttons and menus."""

from __future__ import annotations

import random
import re

from tests.e2e.play import open_decision, private_reply
from tests.fakediscord import Component, FakeDiscord, FakeMessage, FakeUser

TURN = re.compile(r"<@(\d+)>[^\n]*your turn")
GREEDY = ("Throw", "Catapult", "Take the hit", "Neither")  # quick wars: hit hard, defend little


def battlefields(fake: FakeDiscord) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages()
        if not m.ephemeral and any(a.filename == "battlefield.png" for a in m.attachments)
    ]


def turn_user_id(board: FakeMessage) -> int | None:
    match = TURN.search(board.text)
    return int(match[1]) if match else None


def pick(labels: list[str], rng: random.Random) -> int:
    """Mostly the greedy choice, sometimes any, so shields, maces and burns get played."""
    greedy = [i for i, label in enumerate(labels) if label.startswith(GREEDY)]
    if greedy and rng.random() < 0.7:
        return rng.choice(greedy)
    return rng.randrange(len(labels))


async def pressed(user: FakeUser, reply: FakeMessage, label: str) -> None:
    """Press a button in a private reply and wait until the bot has rewritten that reply
    (with the next decision, or "Done."): it answers at once and edits after."""
    versions = len(reply.history)
    result = await user.press(reply, label)
    if not result.ephemeral_text:
        await user.fake.wait_for(
            lambda: len(reply.history) > versions, timeout=20, what="the reply's next decision"
        )


PLAYS = ("tt:act:", "tt:group:")  # a move, or a card whose targets come next ("Back" is neither)
PHONE = 25  # at most five rows of five components in one reply, Discord's own limit


def plays(reply: FakeMessage) -> list[Component]:
    return [b for b in reply.buttons if (b.custom_id or "").startswith(PLAYS)]


async def decide(user: FakeUser, reply: FakeMessage, rng: random.Random) -> FakeMessage:
    """Make one decision in a private reply (a card opens its targets in the same reply,
    for the next call to choose from); returns the reply that holds the next one."""
    assert len(reply.buttons) + 5 * len(reply.selects) <= PHONE, reply.text
    buttons = plays(reply)
    if buttons:
        chosen = buttons[pick([b.label for b in buttons], rng)]
        await pressed(user, reply, chosen.label)
        return reply
    (menu, *_) = reply.selects
    options = menu.options
    option = options[pick([o["label"] for o in options], rng)]
    await user.select(menu.placeholder, option["value"], message=reply)
    return reply  # the card's targets, or the next decision, now show in this reply


async def take_turn(
    user: FakeUser,
    board: FakeMessage,
    rng: random.Random,
    replies: dict[int, FakeMessage] | None = None,
) -> None:
    """Decide until the turn is no longer this player's: in their open private reply when
    the bot shows the turn there (`replies`, each player's newest), else in a new one from
    "My hand", as a person would."""
    reply = (replies or {}).get(user.id)
    if not open_decision(reply):
        opened = await user.click("My hand", message=board)
        (reply,) = await private_reply(user, opened)
    assert reply is not None and reply.ephemeral_to == user.id
    if replies is not None:
        replies[user.id] = reply
    for _ in range(20):
        if not reply.buttons and not reply.selects:
            return  # "Done.": the turn moved on
        reply = await decide(user, reply, rng)


async def play_to_the_end(
    fake: FakeDiscord, players: dict[int, FakeUser], rng: random.Random, limit: int = 3000
) -> FakeMessage:
    replies: dict[int, FakeMessage] = {}
    for _ in range(limit):
        board = battlefields(fake)[-1]
        if "The game is over" in board.text:
            return board
        user_id = turn_user_id(board)
        assert user_id is not None, board.text
        await fake.settle()  # the turn shown in the player's open reply, if it is
        await take_turn(players[user_id], board, rng, replies)
    raise AssertionError("the war did not end")

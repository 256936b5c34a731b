"""Playing Trash War through the fake Discord as people would: press "My hand" on the
newest battlefield, then use the private reply's buttons and menus."""

from __future__ import annotations

import random
import re

from tests.e2e.play import newest_private, open_decision, private_reply
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


THEN = " → "  # a plan's label: its first move, then the move after it (`plan_label`)


async def decide(user: FakeUser, reply: FakeMessage, rng: random.Random) -> FakeMessage:
    """Make one decision in a private reply: a button, or a card's target from the card's
    menu (a card's menu is named by the card: "Throw the toaster (2) …"); returns the
    reply that holds the next one. A person picks their move first, then, if the bot
    offers it with the move after it ("Neither burn nor repair → Throw the toaster (2) …"),
    that next move as they would pick it on its own: the line they chose, in one press."""
    assert len(reply.buttons) + 5 * len(reply.selects) <= PHONE, reply.text
    buttons = plays(reply)
    menus = [s for s in reply.selects if (s.custom_id or "").startswith("tt:menu:")]
    # Every move once: its label (a card's menu by the card's name), and how to make it.
    moves: list[tuple[str, Component]] = [(b.label or "", b) for b in buttons]
    moves += [(m.placeholder or "", m) for m in menus]
    firsts = list(dict.fromkeys(label.partition(THEN)[0] for label, _ in moves))
    first = firsts[pick(firsts, rng)]
    line = [(label, control) for label, control in moves if label.partition(THEN)[0] == first]
    if len(line) > 1:
        line = [line[pick([label.partition(THEN)[2] for label, _ in line], rng)]]
    ((label, control),) = line
    if control in buttons:
        await pressed(user, reply, label)
        return reply
    versions = len(reply.history)
    option = rng.choice(control.options)
    await user.select(control.custom_id, option["value"], message=reply, settle=False)
    await user.fake.wait_for(
        lambda: len(reply.history) > versions, timeout=20, what="the reply's next decision"
    )
    return reply  # the next decision, or "Done.", now shows in this reply


async def take_turn(
    user: FakeUser,
    board: FakeMessage,
    rng: random.Random,
    replies: dict[int, FakeMessage] | None = None,
) -> None:
    """Decide until the turn is no longer this player's: in their open private reply when
    the bot shows the turn there (given `replies`: their newest private message, also one
    the bot posted unasked), else in a new one from "My hand", as a person would."""
    reply = newest_private(user) if replies is not None else None
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
        await fake.settle()  # the newest board, and the turn shown in an open reply
        board = battlefields(fake)[-1]
        if "The game is over" in board.text:
            return board
        user_id = turn_user_id(board)
        assert user_id is not None, board.text
        await take_turn(players[user_id], board, rng, replies)
    raise AssertionError("the war did not end")

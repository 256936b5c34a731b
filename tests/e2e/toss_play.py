"""Playing Toss It in the Trash through the fake Discord as people would: everyone lays
down a card from "My hand", then the player whose turn it is picks a spot from the board's
menu and a rotation from the private reply's buttons, piece after piece."""

from __future__ import annotations

import random
import re

from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.fakediscord.state import Channel

MENTION = re.compile(r"<@(\d+)>")


def bin_boards(fake: FakeDiscord, channel: Channel | None = None) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages(channel)
        if not m.ephemeral and any(a.filename == "bin.png" for a in m.attachments)
    ]


def waiting_ids(board: FakeMessage) -> list[int]:
    """The users the board asks to act (its last line mentions them)."""
    last = board.content.rsplit("\n", 1)[-1]
    return [int(found) for found in MENTION.findall(last)] if "your turn" in last else []


async def lay_down_card(user: FakeUser, board: FakeMessage, rng: random.Random) -> bool:
    """Press "My hand" and lay down one of the cards; False if the board was stale."""
    try:
        opened = await user.click("My hand", message=board, settle=False)
    except FakeDiscordError:
        return False
    (reply,) = await replied(user, opened)
    cards = [b for b in reply.buttons if b.label.startswith("Lay down")]
    if not cards:
        return False  # chosen already, or the round moved on
    versions = len(reply.history)
    await user.press(reply, rng.choice(cards).label, settle=False)
    await user.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what="Done.")
    return True


async def drop_piece(user: FakeUser, board: FakeMessage, rng: random.Random) -> FakeMessage:
    """Pick a spot from one of the board's menus, then a rotation in the private reply;
    returns that reply (with its preview picture)."""
    select = rng.choice(board.selects)
    option = rng.choice(select.options)
    picked = await user.select(select.custom_id, option["value"], message=board, settle=False)
    (choices,) = await replied(user, picked)
    assert choices.ephemeral_to == user.id
    versions = len(choices.history)
    await user.press(choices, rng.choice(choices.buttons).label, settle=False)
    await user.fake.wait_for(lambda: len(choices.history) > versions, timeout=20, what="Done.")
    return choices


async def replied(user: FakeUser, result: InteractionResult) -> list[FakeMessage]:
    """The private reply to an interaction started without settling (these drivers wait
    for what they expect instead of for a quiet spell: it keeps a whole game quick)."""

    def answered() -> list[FakeMessage]:  # a deferred "thinking" reply has no content yet
        return [m for m in result.ephemeral if m.content or m.components]

    await user.fake.wait_for(answered, timeout=20, what="a private reply")
    return answered()


async def next_board(fake: FakeDiscord, seen: int) -> None:
    """Wait for a new board that asks a player (or ends the game): every drop posts its own
    board, so the AI's drops come one board each before a player is asked again."""

    def asking() -> bool:
        boards = bin_boards(fake)
        newest = boards[-1]
        return len(boards) > seen and (
            bool(waiting_ids(newest)) or "The game is over" in newest.content
        )

    await fake.wait_for(asking, timeout=30, what="the next board asking a player")


async def play_one(fake: FakeDiscord, players: dict[int, FakeUser], rng: random.Random) -> None:
    """One decision (or one round of card choices) by whoever the newest board asks."""
    board = bin_boards(fake)[-1]
    waiting = [players[u] for u in waiting_ids(board)]
    assert waiting, board.content
    seen = len(bin_boards(fake))
    if board.selects:
        await drop_piece(waiting[0], board, rng)
    else:  # each card laid down posts a new board: one player per call
        assert await lay_down_card(rng.choice(waiting), board, rng)
    await next_board(fake, seen)


async def play_to_the_end(
    fake: FakeDiscord, players: dict[int, FakeUser], rng: random.Random, limit: int = 600
) -> FakeMessage:
    for _ in range(limit):
        board = bin_boards(fake)[-1]
        if "The game is over" in board.content:
            return board
        await play_one(fake, players, rng)
    raise AssertionError("the game did not end")

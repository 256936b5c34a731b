"""Playing Dumpster Brawl! through the fake Discord as people would: press "My hand" on the
newest board, then the private reply's buttons and menus.

The players here play like the AI animal (the test reads their own view from the game, asks
the AI what it would do and then finds that choice among the controls the bot posted), so a
seeded game runs exactly as a seeded all-AI game would: the tests pick seeds whose games are
short. Every decision still goes through a real button or menu.
"""

from __future__ import annotations

import re
from typing import Any

from bot.client import TrashTableBot
from bot.requests import seat_of
from cogs.brawl._present import BrawlPresenter
from cogs.shared.menus import menu_chunks
from cogs.shared.presenter import Buttons
from rules.base import rng_for
from rules.brawl import BRAWL
from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

TURN = re.compile(r"<@(\d+)>[^\n]*your turn")
PRESENTER = BrawlPresenter()


def alley_boards(fake: FakeDiscord) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages()
        if not m.ephemeral and any(a.filename == "alley.png" for a in m.attachments)
    ]


def turn_user_id(board: FakeMessage) -> int | None:
    match = TURN.search(board.text)
    return int(match[1]) if match else None


async def wait_for_edit(user: FakeUser, reply: FakeMessage, versions: int) -> None:
    await user.fake.wait_for(
        lambda: len(reply.history) > versions, timeout=20, what="the reply's next decision"
    )


async def wanted(bot: TrashTableBot, user: FakeUser) -> tuple[Any, str, str] | None:
    """The game, the action this player's AI-like mind picks now, and its label; None when
    it is not their decision."""
    game = await bot.sessions.current(user.fake.channel.id)
    if game is None or game.status != "playing":
        return None
    seat = seat_of(game, user.id)
    state = BRAWL.from_json(game.state)
    if seat is None or seat not in BRAWL.to_act(state):
        return None
    legal = BRAWL.legal_actions(state, seat)
    rng = rng_for(game.seed, "ai", game.step, seat)
    action = BRAWL.choose(BRAWL.observe(state, seat), legal, rng)
    return game, action, bot.sessions.describer(game)(action)


async def decide(bot: TrashTableBot, user: FakeUser, reply: FakeMessage) -> FakeMessage | None:
    """Make one decision in a private reply; the reply that holds the next one, or None."""
    found = await wanted(bot, user)
    if found is None:
        return None
    game, action, label = found
    seat = seat_of(game, user.id)
    state = BRAWL.from_json(game.state)
    obs = BRAWL.observe(state, seat)
    legal = BRAWL.legal_actions(state, seat)
    controls = PRESENTER.hand_controls(obs, legal, bot.sessions.describer(game))
    versions = len(reply.history)
    if any(isinstance(c, Buttons) and any(b.value == action for b in c.actions) for c in controls):
        result = await user.press(reply, label, settle=False)
        await wait_for_edit(user, reply, versions)
        refused = [m.text for m in result.created if m.ephemeral_to]  # a new private note
        assert not refused, refused
        return reply
    for slot, menu in enumerate(menu_chunks(controls)):
        for index, choice in enumerate(menu.choices):
            if action == choice.value or action.startswith(choice.value + " "):
                select = reply.selects[slot]
                result = await user.select(
                    select.custom_id, str(index), message=reply, settle=False
                )
                group = [a for a in legal if a == choice.value or a.startswith(choice.value + " ")]
                if group == [action]:  # a single action: it is played at once
                    await wait_for_edit(user, reply, versions)
                    return reply
                (narrowed,) = await replied(user, result)
                versions = len(narrowed.history)
                await user.press(narrowed, label, settle=False)
                await wait_for_edit(user, narrowed, versions)
                return narrowed
    raise AssertionError(f"{action!r} is not among the controls of {reply.text!r}")


async def replied(user: FakeUser, result: InteractionResult) -> list[FakeMessage]:
    """The private reply to an interaction started without settling (the drivers wait for
    what they expect rather than for a quiet spell after every press: it keeps games quick)."""

    def answered() -> list[FakeMessage]:  # a deferred "thinking" reply has no content yet
        return [m for m in result.ephemeral if m.text or m.components]

    await user.fake.wait_for(answered, timeout=20, what="a private reply")
    return answered()


async def take_turn(bot: TrashTableBot, user: FakeUser, board: FakeMessage) -> None:
    """Open "My hand" and decide until the decision is no longer this player's."""
    try:
        opened = await user.click("My hand", message=board, settle=False)
    except FakeDiscordError:
        return  # a newer board took this one's controls meanwhile: look again
    (reply,) = await replied(user, opened)
    assert reply.ephemeral_to == user.id
    for _ in range(60):
        if not reply.buttons and not reply.selects:
            return  # "Done.": the turn moved on
        following = await decide(bot, user, reply)
        if following is None:
            return
        reply = following
    raise AssertionError("one player's decisions did not end")


async def next_board(fake: FakeDiscord, seen: int) -> FakeMessage:
    await fake.wait_for(lambda: len(alley_boards(fake)) > seen, timeout=20, what="the next board")
    return alley_boards(fake)[-1]


async def play_to_the_end(
    bot: TrashTableBot, fake: FakeDiscord, players: dict[int, FakeUser], limit: int = 400
) -> FakeMessage:
    for _ in range(limit):
        board = alley_boards(fake)[-1]
        if "The game is over" in board.text:
            return board
        user_id = turn_user_id(board)
        assert user_id is not None, board.text
        seen = len(alley_boards(fake))
        await take_turn(bot, players[user_id], board)
        await next_board(fake, seen)
        await fake.settle()  # let a board still on its way arrive before reading the newest
    raise AssertionError("the brawl did not end")

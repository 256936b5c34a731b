"""Playing Toss It in the Trash through the fake Discord as people would: everyone lays
down a card from "My hand" (or their open reply, once they have one), then the player whose
turn it is plays the whole turn from their aiming message (the open reply the bot turned
into it, else one a spot picked from the board's menus opens), one press a piece: Drop as
aimed, or a spot from its "Drop … at…" menu, now and then a nudge or a turn first. A turn's
drops edit one board message, so the helpers wait for a board's text to change
(`board_texts`) rather than for a new message."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.e2e.play import newest_private
from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.fakediscord.state import TEXT_DISPLAY, Channel, Component, walk_components

MENTION = re.compile(r"<@(\d+)>")


def bin_boards(fake: FakeDiscord, channel: Channel | None = None) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages(channel)
        if not m.ephemeral and any(a.filename == "bin.png" for a in m.attachments)
    ]


def waiting_ids(board: FakeMessage) -> list[int]:
    """The users the board asks to act (its last line mentions them)."""
    last = board.text.rsplit("\n", 1)[-1]
    return [int(found) for found in MENTION.findall(last)] if "your turn" in last else []


def cards_to_lay(reply: FakeMessage | None) -> list[Component]:
    return [b for b in reply.buttons if b.label.startswith("Lay down")] if reply else []


async def lay_down_card(
    user: FakeUser,
    board: FakeMessage,
    rng: random.Random,
    replies: dict[int, FakeMessage] | None = None,
) -> bool:
    """Lay down one of the cards: from the player's open reply when the bot shows the new
    round there (given `replies`: their newest private message), else from "My hand", as a
    person would; False if the board was stale."""
    reply = newest_private(user) if replies is not None else None
    if not cards_to_lay(reply):
        try:
            opened = await user.click("My hand", message=board, settle=False)
        except FakeDiscordError:
            return False
        (reply,) = await replied(user, opened)
    assert reply is not None
    if replies is not None:
        replies[user.id] = reply
    cards = cards_to_lay(reply)
    if not cards:
        return False  # chosen already, or the round moved on
    versions = len(reply.history)
    await user.press(reply, rng.choice(cards).label, settle=False)
    await user.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what="Done.")
    return True


def board_texts(fake: FakeDiscord, channel: Channel | None = None) -> int:
    """How many board texts the channel has shown: a new board and a board edited with a
    drop's line count one each; taking the controls off a board does not count."""
    return sum(len({version_text(v) for v in m.versions}) for m in bin_boards(fake, channel))


def version_text(version: dict[str, Any]) -> str:
    """The text of one version of a message: its content and its layout's text displays."""
    texts = [
        str(c.get("content") or "")
        for c in walk_components(version.get("components"))
        if c.get("type") == TEXT_DISPLAY
    ]
    return "\n".join([str(version.get("content") or ""), *texts])


def aim_button(reply: FakeMessage, op: str) -> Component:
    """A button of the aim reply by what it does: "drop", or the first character of a nudge
    or turn ("◀", "▶" at the end of "Spot 14 ▶", "↺", "↻")."""
    for button in reply.buttons:
        label = button.label or ""
        if op == "drop" and (button.custom_id or "").endswith(":drop"):
            return button
        if op != "drop" and op in label and not button.disabled:
            return button
    raise AssertionError(f"no {op!r} button on the aim reply: {reply.buttons}")


async def press_aim(user: FakeUser, reply: FakeMessage, op: str) -> None:
    """Press one button of the aim reply and wait until the reply shows what it did."""
    versions = len(reply.history)
    button = aim_button(reply, op)
    await user.click(custom_id=button.custom_id, message=reply, settle=False)
    await user.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what=op)


async def open_aim(
    user: FakeUser, board: FakeMessage, rng: random.Random, spot: int | None = None
) -> FakeMessage:
    """Pick a spot (random unless given) in one of the board's menus: the aim reply."""
    select = rng.choice(board.selects)
    value = str(spot) if spot is not None else rng.choice(select.options)["value"]
    picked = await user.select(select.custom_id, value, message=board, settle=False)
    (reply,) = await replied(user, picked)
    assert reply.ephemeral_to == user.id
    return reply


def drop_menu(reply: FakeMessage) -> Component:
    """The aiming message's menu that drops at the spot picked ("Drop a tin can at…")."""
    (menu,) = [m for m in reply.selects if (m.custom_id or "").endswith(":at")]
    return menu


async def drop_at(user: FakeUser, reply: FakeMessage, spot: int) -> None:
    """Drop at `spot` with one pick in the aiming message's menu, and wait until the
    message shows what it did."""
    versions = len(reply.history)
    menu = drop_menu(reply)
    await user.select(menu.custom_id or "", str(spot), message=reply, settle=False)
    await user.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what="drop at")


def aiming(reply: FakeMessage) -> bool:
    """Whether the aiming message still aims a piece (else the turn is over)."""
    return any((b.custom_id or "").endswith(":drop") for b in reply.buttons)


async def play_turn(
    user: FakeUser,
    board: FakeMessage,
    rng: random.Random,
    replies: dict[int, FakeMessage] | None = None,
) -> FakeMessage:
    """A whole turn from one aiming message: the player's open reply when the bot shows
    the turn there (`replies`, each player's newest), else the one the board's menu opens;
    then each piece takes one press (Drop as aimed, or a spot from the drop menu), now and
    then after a nudge or a turn; returns the aiming message."""
    reply = newest_private(user) if replies is not None else None
    if reply is None or not aiming(reply):
        reply = await open_aim(user, board, rng)
        if replies is not None:
            replies[user.id] = reply
    while aiming(reply):
        roll = rng.random()
        if roll < 0.2:
            await press_aim(user, reply, rng.choice(["↺", "↻"]))
        if roll < 0.5:
            await drop_at(user, reply, rng.randrange(21))
        else:
            await press_aim(user, reply, "drop")
    return reply


async def replied(user: FakeUser, result: InteractionResult) -> list[FakeMessage]:
    """The private reply to an interaction started without settling (these drivers wait
    for what they expect instead of for a quiet spell: it keeps a whole game quick)."""

    def answered() -> list[FakeMessage]:  # a deferred "thinking" reply has no content yet
        return [m for m in result.ephemeral if m.text or m.components]

    await user.fake.wait_for(answered, timeout=20, what="a private reply")
    return answered()


async def next_board(fake: FakeDiscord, seen: int) -> None:
    """Wait until the channel shows more than `seen` board texts (`board_texts`) and the
    newest board asks a player (or ends the game): the AI's drops edit its turn's board one
    by one before a player is asked again."""

    def asking() -> bool:
        newest = bin_boards(fake)[-1]
        return board_texts(fake) > seen and (
            bool(waiting_ids(newest)) or "The game is over" in newest.text
        )

    await fake.wait_for(asking, timeout=30, what="the next board asking a player")


async def turn_shown(fake: FakeDiscord, board: FakeMessage) -> None:
    """Wait until the channel has shown the end of the turn played from `board`: its drops'
    edits come one by one, and one shown late still asks its player (without the menus,
    taken off a board of an older step); the turn is over once a new board is posted or
    this one asks nobody (an AI's turn goes on on it)."""

    def over() -> bool:
        newest = bin_boards(fake)[-1]
        return newest.id != board.id or not waiting_ids(newest)

    await fake.wait_for(over, timeout=30, what="the board after the turn")


async def play_one(
    fake: FakeDiscord,
    players: dict[int, FakeUser],
    rng: random.Random,
    replies: dict[int, FakeMessage] | None = None,
) -> None:
    """One turn of drops, or one card laid down, by whoever the newest board asks."""
    await fake.settle()  # the newest board, and a new round shown in the open replies
    board = bin_boards(fake)[-1]
    waiting = [players[u] for u in waiting_ids(board)]
    assert waiting, board.text
    seen = board_texts(fake)
    if board.selects:  # a whole turn of drops
        await play_turn(waiting[0], board, rng, replies)
        await turn_shown(fake, board)
    else:  # each card laid down posts a new board: one player per call
        assert await lay_down_card(rng.choice(waiting), board, rng, replies)
    await next_board(fake, seen)


async def play_to_the_end(
    fake: FakeDiscord, players: dict[int, FakeUser], rng: random.Random, limit: int = 600
) -> FakeMessage:
    replies: dict[int, FakeMessage] = {}
    for _ in range(limit):
        await fake.settle()
        board = bin_boards(fake)[-1]
        if "The game is over" in board.text:
            return board
        await play_one(fake, players, rng, replies)
    raise AssertionError("the game did not end")

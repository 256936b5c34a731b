"""Answer times through the fake Discord with many games at once (part of `make bench`).

The bot runs as its own process (`python -m bot`, as in production), connected to the fake
Discord in this process. In each of N channels two users and an AI seat play games of one
kind back to back for a fixed time, each user pressing as soon as the board shows their turn.
Answer time is measured by the fake: from sending INTERACTION_CREATE to receiving the
interaction callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.games import board_file, plugins
from bench.stats import percentile
from tests.e2e import toss_play
from tests.e2e.brawl_play import turn_user_id
from tests.fakediscord import (
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.fakediscord.state import Channel, Component

ROOT = Path(__file__).resolve().parents[1]
# BOT_TOKEN_REQUESTS_PER_SECOND for a benchmark of the bot's own speed, with the fake's rate
# limits off: far above what any benchmark sends.
UNLIMITED = "100000"
# Plays games of one kind in a channel until `stop_at`; returns the actions taken.
Player = Callable[[FakeDiscord, Channel, list[FakeUser], float], Awaitable[int]]


def newest(
    fake: FakeDiscord, channel: Channel, user: FakeUser, label: str, after: int = 0
) -> FakeMessage | None:
    for message in reversed(user.visible_messages(channel)):
        if message.id > after and any(
            c.label == label or c.placeholder == label for c in message.all_components
        ):
            return message
    return None


async def until(
    fake: FakeDiscord, check: Callable[..., Any], what: str, timeout: float = 120.0
) -> Any:
    return await fake.wait_for(check, timeout=timeout, what=what)


async def start_game(
    fake: FakeDiscord, channel: Channel, host: FakeUser, guest: FakeUser, kind: str
) -> int:
    """Open a lobby, let the guest join, add an AI seat and start. Returns the lobby's id:
    the new game's boards come after it (the last game's final board is still the newest
    for a moment)."""
    await host.slash(f"/{kind} new", channel=channel, settle=False)
    lobby = await until(fake, lambda: newest(fake, channel, host, "Join"), "lobby")
    for user, label in ((guest, "Join"), (host, "Add AI player…"), (host, "Start")):
        if label.endswith("…"):  # the lobby's menu of AI levels
            result = await user.select(label, "Normal AI", message=lobby, settle=False)
        else:
            result = await user.click(label, message=lobby, settle=False)
        await until(fake, lambda r=result: r.interaction.acknowledged, label)
    return int(lobby.id)


PLAY_CONTROLS = ("tt:act:", "tt:menu:", "tt:group:")  # cogs/shared/components.py
OVER = "The game is over"


def play_controls(message: FakeMessage) -> list[Component]:
    """The controls on a message that play the game: an action, a menu of them, a group."""
    return [c for c in message.all_components if (c.custom_id or "").startswith(PLAY_CONTROLS)]


async def press_any(
    user: FakeUser, message: FakeMessage, rng: random.Random
) -> InteractionResult | None:
    """`user` presses one of the message's play controls at random (a random option of a
    menu); None when it has none."""
    controls = play_controls(message)
    if not controls:
        return None
    control = rng.choice(controls)
    if control.options:
        value = rng.choice(control.options)["value"]
        return await user.select(control.custom_id or "", value, message=message, settle=False)
    return await user.click(custom_id=control.custom_id, message=message, settle=False)


def board_player(kind: str, filename: str) -> Player:
    """A load driver for a game played from the board (Rumble in the Dungeon, and any game
    whose presenter puts its controls there): the player the board names presses a random
    control; when that opens a private reply (a group of actions), a random button in it."""

    async def play_board_game(
        fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float
    ) -> int:
        host, guest = users
        rng = random.Random(channel.id)
        actions = 0
        while time.monotonic() < stop_at:
            lobby = await start_game(fake, channel, host, guest, kind)
            while time.monotonic() < stop_at:
                board = await until(
                    fake, lambda lobby=lobby: newest_board(fake, channel, filename, lobby), "board"
                )
                if OVER in board.text:
                    break
                shown = board.text

                def moved(b: FakeMessage = board, c: str = shown, lobby: int = lobby) -> bool:
                    return newest_board(fake, channel, filename, lobby) is not b or b.text != c

                try:
                    pressed = await press_any(turn_taker(board, users), board, rng)
                    if pressed is None:  # not a person's turn: the AI's move is on its way
                        await until(fake, moved, "next board")
                        continue
                    actions += 1
                    reply = await until(
                        fake, lambda p=pressed: answered(fake, p) or moved(), "answer"
                    )
                    if isinstance(reply, FakeMessage) and play_controls(reply):
                        await press_any(turn_taker(board, users), reply, rng)
                        actions += 1
                except FakeDiscordError:
                    await asyncio.sleep(0.05)  # a newer board took its controls: look again
                    continue
                await until(fake, moved, "next board")
        return actions

    return play_board_game


def newest_board(
    fake: FakeDiscord, channel: Channel, filename: str, after: int = 0
) -> FakeMessage | None:
    for message in reversed(fake.messages(channel)):
        if message.id <= after:
            return None
        if not message.ephemeral and any(a.filename == filename for a in message.attachments):
            return message
    return None


def turn_taker(board: FakeMessage, users: list[FakeUser]) -> FakeUser:
    """The user the board asks to act ("<@id> … your turn"), else the first one mentioned."""
    asked = turn_user_id(board)
    for user in users:
        if user.id == asked:
            return user
    host, guest = users
    return host if f"<@{host.id}>" in board.text else guest


def hand_player(kind: str, filename: str) -> Player:
    """A load driver for the games played from "My hand": Trash War and Dumpster Brawl!.
    The player the board names opens "My hand" and picks random controls in the private
    reply (a menu may open a narrowed reply whose buttons finish the choice)."""

    async def play_hand_game(
        fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float
    ) -> int:
        host, guest = users
        rng = random.Random(channel.id)
        actions = 0
        while time.monotonic() < stop_at:
            lobby = await start_game(fake, channel, host, guest, kind)
            while time.monotonic() < stop_at:
                board = await until(
                    fake, lambda lobby=lobby: newest_board(fake, channel, filename, lobby), "board"
                )
                if OVER in board.text:
                    break
                mover = turn_taker(board, users)
                try:
                    opened = await mover.click("My hand", message=board, settle=False)
                except FakeDiscordError:
                    await asyncio.sleep(0.05)  # a newer board took its controls: look again
                    continue
                reply = await until(fake, lambda o=opened: answered(fake, o), "my hand")
                while reply.buttons or reply.selects:
                    versions = len(reply.history)
                    if reply.selects:
                        menu = rng.choice(reply.selects)
                        value = rng.choice(menu.options)["value"]
                        pressed_at = time.monotonic()
                        picked = await mover.select(
                            menu.custom_id, value, message=reply, settle=False
                        )
                        group = await until(fake, lambda p=picked: answered(fake, p), "group")
                        if group is not reply:  # finish the group with its buttons
                            reply, versions = group, len(group.history)
                            pressed_at = time.monotonic()
                            await mover.press(reply, rng.choice(reply.buttons).label, settle=False)
                    else:
                        pressed_at = time.monotonic()
                        await mover.press(reply, rng.choice(reply.buttons).label, settle=False)
                    actions += 1
                    await until(fake, lambda r=reply, v=versions: len(r.history) > v, "follow-on")
                    RESULTS.append(time.monotonic() - pressed_at)
                await until(
                    fake,
                    lambda b=board, lobby=lobby: (
                        newest_board(fake, channel, filename, lobby) is not b
                    ),
                    "next",
                )
        return actions

    return play_hand_game


async def play_toss(
    fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float
) -> int:
    """Toss It in the Trash games back to back: cards laid down from "My hand", pieces
    dropped from the board's menus with a random spot, then Drop in the aim reply."""
    host, guest = users
    by_id = {user.id: user for user in users}
    rng = random.Random(channel.id)
    actions = 0
    while time.monotonic() < stop_at:
        lobby = await start_game(fake, channel, host, guest, "toss")
        while time.monotonic() < stop_at:
            board = await until(
                fake, lambda lobby=lobby: newest_board(fake, channel, "bin.png", lobby), "bin"
            )
            if OVER in board.text:
                break
            waiting = [by_id[u] for u in toss_play.waiting_ids(board) if u in by_id]
            if not waiting:
                await asyncio.sleep(0.05)
                continue
            mover = rng.choice(waiting)
            try:
                if board.selects:  # a spot from the board's menu, then a rotation
                    menu = rng.choice(board.selects)
                    value = rng.choice(menu.options)["value"]
                    opened = await mover.select(menu.custom_id, value, message=board, settle=False)
                else:  # lay down a card from "My hand"
                    opened = await mover.click("My hand", message=board, settle=False)
            except FakeDiscordError:
                await asyncio.sleep(0.05)  # a newer board took this one's controls
                continue
            reply = await until(fake, lambda o=opened: answered(fake, o), "reply")
            # Drop in the aim reply, or the cards to lay down.
            choices = [b for b in reply.buttons if (b.custom_id or "").endswith(":drop")]
            if not board.selects:
                choices = [b for b in reply.buttons if b.label.startswith("Lay down")]
            if not choices:
                await asyncio.sleep(0.05)  # chosen already: the board is on its way
                continue
            versions, shown = len(reply.history), board.text
            pressed_at = time.monotonic()
            await mover.press(reply, rng.choice(choices).label, settle=False)
            actions += 1
            await until(fake, lambda r=reply, v=versions: len(r.history) > v, "done")
            RESULTS.append(time.monotonic() - pressed_at)

            # A turn's drops edit its board: a newer board or a new text is the next bin.
            def moved(b: FakeMessage = board, c: str = shown, lobby: int = lobby) -> bool:
                return newest_board(fake, channel, "bin.png", lobby) is not b or b.text != c

            await until(fake, moved, "next bin")
    return actions


# Seconds from a play press in a private reply to that reply's next version ("Done." or the
# next decision): the action applied and, except in Toss It (whose player sees their move
# before the AI plays), the AI seats' turns after it and the board.
RESULTS: list[float] = []


DEFERRED_UPDATE = 6  # the interaction callback type of a deferred update of the message


def answered(fake: FakeDiscord, result: InteractionResult) -> FakeMessage | None:
    """The message an interaction's answer ended up in, once it is filled in. A press on a
    board that opens a private reply is answered as an update of the board, and the reply
    is its private followup (issue 34: its token can then edit the board). The same token
    may also carry the channel's next board, a public followup, before or after it."""
    record = result.interaction
    if record.callback_type == DEFERRED_UPDATE and not (
        record.message and record.message.ephemeral
    ):
        followups = (fake.message(i) for i in record.followup_ids)
        return next((m for m in followups if m.ephemeral), None)
    if record.response_message_id is None:
        return None
    message = fake.message(record.response_message_id)
    return None if message.loading else message


def player_for(kind: str) -> Player:
    """How the load plays a game: from "My hand" when its presenter keeps the controls in
    the private reply, else from the board; Toss It's aim controls are its own (the
    plug-in's `items`), so it has a player of its own."""
    if kind == "toss":
        return play_toss
    filename = board_file(kind)
    if plugins()[kind].presenter.private_controls:
        return hand_player(kind, filename)
    return board_player(kind, filename)


async def bench_answers(kind: str, channels: int, seconds: float) -> dict[str, float]:
    RESULTS.clear()
    names = tuple(f"table-{i}" for i in range(channels))
    # The bot's own speed: Discord's rate limits would pace it instead (bench/capacity.py).
    fake = FakeDiscord(channels=names, thread=None, settle_timeout=120, rate_limits=False)
    await fake.start()
    users = [fake.user("alice"), fake.user("bob")]
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "DISCORD_API_BASE": fake.api_base,
            "LOG_LEVEL": "WARNING",
            "BOT_TOKEN_REQUESTS_PER_SECOND": UNLIMITED,
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL
        )
        try:
            await fake.wait_ready(timeout=60)
            await asyncio.sleep(2.5)
            stop_at = time.monotonic() + seconds
            counts = await asyncio.gather(
                *(player_for(kind)(fake, fake.channels[name], users, stop_at) for name in names)
            )
        finally:
            process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
            await fake.stop()
    records = fake.state.interactions.values()
    answers = [(r.callback_at - r.sent_at) * 1000 for r in records if r.callback_at is not None]
    results = [seconds * 1000 for seconds in RESULTS]
    return {
        "results": len(results),
        "result_median_ms": statistics.median(results) if results else 0.0,
        "result_p95_ms": percentile(results, 95) if results else 0.0,
        "interactions": len(answers),
        "actions": sum(counts),
        "median_ms": statistics.median(answers),
        "p99_ms": percentile(answers, 99),
        "max_ms": max(answers),
        "late": sum(a > 3000 for a in answers)
        + sum(r.failed for r in fake.state.interactions.values()),
    }

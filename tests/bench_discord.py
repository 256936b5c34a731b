"""Answer times through the fake Discord with many games at once (part of `make bench`).

The bot runs as its own process (`python -m bot`, as in production), connected to the fake
Discord in this process. In each of N channels two users and an AI seat play Rumble games
back to back for a fixed time, each user pressing as soon as the board shows their turn.
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
from pathlib import Path

from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.state import Channel

ROOT = Path(__file__).resolve().parents[1]
FIGHT_MENU, MOVE_MENU = "Start a fight…", "Move a character…"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def newest(fake: FakeDiscord, channel: Channel, user: FakeUser, label: str) -> FakeMessage | None:
    for message in reversed(user.visible_messages(channel)):
        if any(c.label == label or c.placeholder == label for c in message.all_components):
            return message
    return None


async def until(fake: FakeDiscord, check, what: str, timeout: float = 30.0):
    return await fake.wait_for(check, timeout=timeout, what=what)


async def start_game(
    fake: FakeDiscord, channel: Channel, host: FakeUser, guest: FakeUser, kind: str
) -> None:
    """Open a lobby, let the guest join, add an AI seat and start."""
    await host.slash(f"/{kind} new", channel=channel, settle=False)
    lobby = await until(fake, lambda: newest(fake, channel, host, "Join"), "lobby")
    for user, label in ((guest, "Join"), (host, "Add AI player"), (host, "Start")):
        result = await user.click(label, message=lobby, settle=False)
        await until(fake, lambda r=result: r.interaction.acknowledged, label)


async def play(fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float) -> int:
    """Play games in one channel until the time is up; returns the actions taken."""
    host, guest = users
    rng = random.Random(channel.id)
    actions = 0
    while time.monotonic() < stop_at:
        await start_game(fake, channel, host, guest, "rumble")
        while time.monotonic() < stop_at:
            board = await until(fake, lambda: newest(fake, channel, host, "My secret"), "board")
            if "The game is over" in board.content or not board.selects:
                if "The game is over" in board.content:
                    break
                await asyncio.sleep(0.05)
                continue
            mover = host if f"<@{host.id}>" in board.content else guest
            menus = {c.placeholder: c for c in board.selects}
            seen = board.id
            if FIGHT_MENU in menus:
                value = rng.choice(menus[FIGHT_MENU].options)["value"]
                await mover.select(FIGHT_MENU, value, message=board, settle=False)
            else:
                value = rng.choice(menus[MOVE_MENU].options)["value"]
                picked = await mover.select(MOVE_MENU, value, message=board, settle=False)
                await until(fake, lambda p=picked: p.interaction.response_message_id, "choices")
                reply = fake.message(picked.interaction.response_message_id)
                button = rng.choice(reply.buttons)
                await mover.press(reply, button.label, settle=False)
                actions += 1
            actions += 1
            await until(
                fake,
                lambda seen=seen: (
                    (b := newest(fake, channel, host, "My secret")) is None or b.id != seen
                ),
                "next board",
            )
    return actions


def battlefield(fake: FakeDiscord, channel: Channel) -> FakeMessage | None:
    for message in reversed(fake.messages(channel)):
        if not message.ephemeral and any(
            a.filename == "battlefield.png" for a in message.attachments
        ):
            return message
    return None


async def play_trashwar(
    fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float
) -> int:
    """Trash War wars back to back in one channel: "My hand", then the reply's controls."""
    host, guest = users
    rng = random.Random(channel.id)
    actions = 0
    while time.monotonic() < stop_at:
        await start_game(fake, channel, host, guest, "trashwar")
        while time.monotonic() < stop_at:
            board = await until(fake, lambda: battlefield(fake, channel), "battlefield")
            if "The game is over" in board.content:
                break
            mover = host if f"<@{host.id}>" in board.content else guest
            opened = await mover.click("My hand", message=board, settle=False)
            reply = await until(fake, lambda o=opened: answered(fake, o), "my hand")
            while reply.buttons or reply.selects:
                versions = len(reply.history)
                if reply.selects:
                    menu = reply.selects[0]
                    value = rng.choice(menu.options)["value"]
                    picked = await mover.select(
                        menu.placeholder, value, message=reply, settle=False
                    )
                    group = await until(fake, lambda p=picked: answered(fake, p), "group")
                    if group is not reply:  # finish the group with its buttons
                        reply, versions = group, len(group.history)
                        await mover.press(reply, rng.choice(reply.buttons).label, settle=False)
                else:
                    await mover.press(reply, rng.choice(reply.buttons).label, settle=False)
                actions += 1
                await until(fake, lambda r=reply, v=versions: len(r.history) > v, "follow-on")
            await until(fake, lambda b=board: battlefield(fake, channel) is not b, "next board")
    return actions


def answered(fake: FakeDiscord, result) -> FakeMessage | None:
    """The message an interaction's answer ended up in, once it is filled in."""
    record = result.interaction
    if record.response_message_id is None:
        return None
    message = fake.message(record.response_message_id)
    return None if message.loading else message


PLAYERS = {"rumble": play, "trashwar": play_trashwar}


async def bench_answers(kind: str, channels: int, seconds: float) -> dict[str, float]:
    names = tuple(f"table-{i}" for i in range(channels))
    fake = FakeDiscord(channels=names, thread=None, settle_timeout=120)
    await fake.start()
    users = [fake.user("alice"), fake.user("bob")]
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "DISCORD_API_BASE": fake.api_base,
            "LOG_LEVEL": "WARNING",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL
        )
        try:
            await fake.wait_ready(timeout=60)
            await asyncio.sleep(2.5)
            stop_at = time.monotonic() + seconds
            counts = await asyncio.gather(
                *(PLAYERS[kind](fake, fake.channels[name], users, stop_at) for name in names)
            )
        finally:
            process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
            await fake.stop()
    records = [r for r in fake.state.interactions.values() if r.callback_at is not None]
    answers = [(r.callback_at - r.sent_at) * 1000 for r in records]
    return {
        "interactions": len(answers),
        "actions": sum(counts),
        "median_ms": statistics.median(answers),
        "p99_ms": percentile(answers, 99),
        "max_ms": max(answers),
        "late": sum(a > 3000 for a in answers)
        + sum(r.failed for r in fake.state.interactions.values()),
    }

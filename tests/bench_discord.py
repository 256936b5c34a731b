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


async def play(fake: FakeDiscord, channel: Channel, users: list[FakeUser], stop_at: float) -> int:
    """Play games in one channel until the time is up; returns the actions taken."""
    host, guest = users
    rng = random.Random(channel.id)
    actions = 0
    while time.monotonic() < stop_at:
        await host.slash("/rumble new", channel=channel, settle=False)
        lobby = await until(fake, lambda: newest(fake, channel, host, "Join"), "lobby")
        for user, label in ((guest, "Join"), (host, "Add AI player"), (host, "Start")):
            result = await user.click(label, message=lobby, settle=False)
            await until(fake, lambda r=result: r.interaction.acknowledged, label)
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


async def bench_answers(kind: str, channels: int, seconds: float) -> dict[str, float]:
    assert kind == "rumble", "only Rumble is wired into the load run so far"
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
                *(play(fake, fake.channels[name], users, stop_at) for name in names)
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

"""Running a real discord.py client against the fake.

discord.py needs two things redirected: ``discord.http.Route.BASE`` (all REST
calls, webhooks and interaction callbacks included) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` -- a plain ``Client`` never
asks ``GET /gateway/bot``; it connects straight to DEFAULT_GATEWAY (and returns to
it after an INVALIDATE_SESSION), so patching Route.BASE alone is not enough.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .driver import FakeDiscord


@contextlib.contextmanager
def discord_py_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the fake (restored on exit)."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


async def start_bot(
    fake: FakeDiscord,
    client: Any,
    *,
    commands: bool = True,
    on_ready: bool = True,
    timeout: float = 15.0,
) -> asyncio.Task[None]:
    """Start ``client.start(fake.token)`` in a task and wait until it is usable.

    Waits for IDENTIFY/READY/GUILD_CREATE, for a command sync when ``commands``, and for
    discord.py's own ``on_ready`` when ``on_ready`` (tip: ``guild_ready_timeout=0.1``
    on the client makes that fast). The caller must have pointed discord.py at the fake.
    """
    task: asyncio.Task[None] = asyncio.create_task(client.start(fake.token), name="fake-bot")

    async def ready() -> None:
        await fake.wait_ready(commands=commands, timeout=timeout)
        if on_ready:
            await asyncio.wait_for(client.wait_until_ready(), timeout)
            await fake.settle()

    waiter = asyncio.create_task(ready())
    done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
        task.result()  # raises the bot's startup error, if any
        raise RuntimeError("the bot stopped before it was ready")
    try:
        waiter.result()
    except BaseException:
        await stop_bot(client, task)
        raise
    return task


async def stop_bot(client: Any, task: asyncio.Task[None], *, timeout: float = 10.0) -> None:
    """Close the client and wait for its ``start()`` task to end."""
    await client.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout)


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    client: Any,
    *,
    commands: bool = True,
    on_ready: bool = True,
    timeout: float = 15.0,
) -> AsyncIterator[Any]:
    """``async with running_bot(fake, bot):`` -- patch discord.py, start, yield, close.

    While it runs, ``fake.settle()`` also waits for the bot's own work in flight."""
    with discord_py_pointed_at(fake):
        task = await start_bot(fake, client, commands=commands, on_ready=on_ready, timeout=timeout)
        unwatch = fake.watch_busy(lambda: bot_busy(client))
        try:
            yield client
        finally:
            unwatch()
            await stop_bot(client, task)


def bot_busy(client: Any) -> bool:
    """Trash Table's requests in flight (a deferred press still at the database), a press
    or command still being answered (a private reply being drawn after its press was
    deferred), or a board being drawn and posted: work that will end in a request the
    test may wait for."""
    sessions = getattr(client, "sessions", None)
    if sessions is not None and sessions.in_flight:
        return True
    # Imported here: the fake's other parts run without the bot, and only this asks it.
    from bot.internals.discord import answering_tasks

    if answering_tasks():
        return True
    cogs = getattr(client, "cogs", {})
    return any(getattr(getattr(cog, "poster", None), "busy", False) for cog in cogs.values())

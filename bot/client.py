"""The bot process: one discord.py client holding the settings, database and sessions."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord
from discord.ext import commands
from pydantic import SecretStr

from bot import restores
from bot.database import Database
from bot.extensions import walk_extensions
from bot.health import HealthServer
from bot.internals.discord import (
    answering_tasks,
    close_http_session,
    point_at_api,
    use_gateway_of_api,
)
from bot.metrics import Metrics
from bot.ratelimits import RequestBudget, request_trace
from bot.sessions import SessionService
from bot.settings import DEFAULT_API_BASE, Settings
from bot.translator import CommandTranslator
from bot.workers import Workers

log = logging.getLogger(__name__)


class TrashTableBot(commands.Bot):
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no message content is ever read
        # This process's share of the bot token's global rate limit (bot/ratelimits.py).
        self.request_budget = RequestBudget(settings.requests_per_second)
        self.metrics = Metrics()  # this bot's own registry (bot/metrics.py)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            http_trace=request_trace(self.request_budget, self.metrics.limited),
            **client_options,
        )
        self.settings = settings
        self.db = Database(settings.database_url)
        # Every extension under cogs/ and those the settings add (a game plug-in elsewhere).
        self.extensions_to_load = walk_extensions("cogs", settings.extra_extensions)
        # Jobs are pickled from the cogs' presenters: the workers import the cogs up front.
        self.workers = Workers(
            settings.workers,
            preload=self.extensions_to_load,
            max_jobs=settings.worker_max_jobs,
        )
        self.sessions = SessionService(
            self.db, workers=self.workers, shards=settings.shards, metrics=self.metrics
        )
        self.metrics.watch_database(self.db)
        self.metrics.watch_queue(lambda: self.workers.queued)
        self.synced = asyncio.Event()
        self._database_ready = False

    async def prepare_database(self) -> None:
        """Wait for the database (DATABASE_WAIT_SECONDS at most) and bring its schema up
        to date; raises DatabaseUnusable with the one line to show. Once is enough."""
        if not self._database_ready:
            await self.db.wait_until_reachable(give_up_after=self.settings.database_wait_seconds)
            await self.db.migrate()
            self._database_ready = True

    async def setup_hook(self) -> None:
        point_at_api(self.settings.discord_api_base)
        if self.settings.discord_api_base != DEFAULT_API_BASE:
            # discord.py dials Discord's own gateway unless told otherwise.
            await use_gateway_of_api(self)
        await self.prepare_database()  # done already under `run`; tests start here
        await self.workers.start()
        for cog in self.extensions_to_load:
            if cog not in self.extensions:  # a login tried again after a failure
                await self.load_extension(cog)
        # Once the cogs have registered their games, and before Discord connects: no press
        # meets a game a restore took back without its fresh board written.
        await restores.redraw_marked(self.sessions.store)
        await self.tree.set_translator(CommandTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.synced.set()
        log.info(
            "commands synced; %d cogs loaded; %s; at most %g bot-token requests a second",
            len(self.cogs),
            self.sessions.shards,
            self.request_budget.per_second,
        )

    async def close(self) -> None:
        await super().close()
        await self.db.close()
        await self.workers.close()


class ShardedTrashTableBot(TrashTableBot, commands.AutoShardedBot):
    """The same bot on discord.py's auto-sharded client: one gateway connection per shard
    this process runs (SHARD_COUNT, SHARD_IDS; see bot/shards.py)."""


def make_bot(settings: Settings) -> TrashTableBot:
    """The bot for these settings: sharded only when SHARD_COUNT is set."""
    shards = settings.shards
    if shards.count is None:
        return TrashTableBot(settings)
    return ShardedTrashTableBot(settings, shard_count=shards.count, shard_ids=list(shards.ids))


async def run(settings: Settings) -> None:
    """Run the bot until SIGTERM or SIGINT, then stop cleanly (see `stop_cleanly`)."""
    point_at_api(settings.discord_api_base)
    bot = make_bot(settings)
    stop_requested = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Handled here rather than left to Python's defaults: as PID 1 in a container a process
    # gets no default action for SIGTERM at all, and SIGINT would raise KeyboardInterrupt
    # wherever the loop happens to be.
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop_requested.set)
    health = None
    if settings.health_port:
        health = HealthServer(
            bot,
            bot.db,
            settings.health_host,
            settings.health_port,
            bot.metrics,
            bot.sessions.shards,
        )
        await health.start()
    running = asyncio.create_task(prepare_then_start(bot, settings.discord_token))
    stopping = asyncio.create_task(stop_requested.wait())
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done():
            await stop_cleanly(bot, running)
        else:
            await bot.close()
            running.result()  # a refused token, say: __main__ says so in one line
    finally:
        stopping.cancel()
        if health is not None:
            await health.stop()


async def prepare_then_start(bot: TrashTableBot, token: SecretStr) -> None:
    """The database first, then Discord: a wrong password or a database out of reach
    stops the bot with its own line even while Discord is out of reach too (Discord's
    retries would otherwise hide it). Within the running task, so SIGTERM ends either wait."""
    await bot.prepare_database()
    await start(bot, token.get_secret_value())


async def start(bot: TrashTableBot, token: str, delays: Iterator[float] | None = None) -> None:
    """Log in and connect. Discord out of reach (refused, no DNS, 5xx) is tried again with
    growing pauses, one line each; a refused token is not."""
    pauses = delays or backoff()
    while True:
        try:
            await bot.login(token)  # a refused token raises LoginFailure: not tried again
            break
        except UNREACHABLE as error:
            delay = next(pauses)
            log.warning("Discord is out of reach (%s); trying again in %g s", brief(error), delay)
            # discord.py opens a new HTTP session at every login; drop the failed one.
            await close_http_session(bot)
            await asyncio.sleep(delay)
    await bot.connect()


# What Discord out of reach looks like: aiohttp's connection errors (refused, no DNS, timed
# out) and discord.py's 5xx (after its own few tries). A database error is not one of them.
UNREACHABLE = (aiohttp.ClientError, discord.DiscordServerError)


def backoff(first: float = 1, cap: float = 60) -> Iterator[float]:
    """1, 2, 4 ... seconds, then `cap` seconds for ever."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, cap)


def brief(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


STOP_DEADLINE = 8.0  # seconds; `docker stop` kills at 10, so whatever is left by then is left
HARD_EXIT = 9.5  # seconds; the last resort if even giving up hangs (a worker thread, say)


async def stop_cleanly(bot: TrashTableBot, running: asyncio.Task[None]) -> None:
    """Refuse new presses, let the requests in flight finish, close Discord and the database.

    Nothing is lost if the deadline cuts this short: every action is committed in its own
    transaction, and an AI chain cut between two actions is resumed at the next start."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    log.info("stopping: new presses are refused; requests in flight: %d", bot.sessions.in_flight)
    start_watchdog()
    bot.sessions.begin_stop()
    cleanly = True
    try:
        async with asyncio.timeout(STOP_DEADLINE):
            await bot.sessions.wait_idle()
            await _answers_sent()
            await bot.close()  # unloads the cogs (the turn timer stops), then the database
    except TimeoutError:
        cleanly = False
        log.warning(
            "stopping: still busy after %g s (requests in flight: %d); leaving the rest, "
            "every action is already saved",
            STOP_DEADLINE,
            bot.sessions.in_flight,
        )
    running.cancel()
    await asyncio.gather(running, return_exceptions=True)
    log.info("stopped %sin %.1f s", "cleanly " if cleanly else "", loop.time() - began)


async def _answers_sent() -> None:
    """Wait for the presses discord.py has already taken, so that each is answered and its
    board posted before the HTTP session closes."""
    answering = answering_tasks()
    if answering:
        await asyncio.wait(answering)


def start_watchdog() -> None:
    """Exit at HARD_EXIT whatever happens: Python waits for worker threads at exit (an AI
    still thinking, say), and those cannot be cancelled."""
    watchdog = threading.Timer(HARD_EXIT, _exit_now)
    watchdog.daemon = True
    watchdog.start()


def _exit_now() -> None:
    log.warning("stopping: gave up after %g s; exiting now", HARD_EXIT)
    logging.shutdown()
    os._exit(0)

"""`python -m bot`: read the settings, set up logging and run until stopped.

`python -m bot migrate` only brings the database schema up to date (the bot also does it at
start-up), for an admin who wants to upgrade before starting the new version;
`--to REVISION` moves it to another revision, down too, and a downgrade that would delete
data needs `--allow-data-loss` as well.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sys

import discord
import uvloop
from alembic.util import CommandError

from bot import logs
from bot.client import run
from bot.database import Database, DatabaseUnusable
from bot.extensions import walk_extensions
from bot.memory import keep_freed_memory
from bot.settings import (
    DatabaseSettings,
    Settings,
    SettingUnusable,
    load_database_settings,
    load_settings,
)
from bot.watchdog import time_each_step, watch_the_loop


async def migrate(settings: DatabaseSettings, to: str, allow_data_loss: bool) -> None:
    database = Database(settings.database_url)
    try:
        await database.wait_until_reachable(give_up_after=settings.database_wait_seconds)
        await database.migrate(to, allow_data_loss)
    finally:
        await database.close()


async def run_watched(settings: Settings) -> None:
    """Run the bot, with the loop's watchdog (bot/watchdog.py) when the capacity benchmark
    asks for it: LOOP_WATCHDOG_MS logs each time the loop runs later than that, and
    LOOP_WATCHDOG_STEPS_MS each task step that holds it longer. Timing every step wraps
    every task's coroutine, which cost about 4 % of the loop's CPU under load, so it is
    asked for apart (docs/performance-log.md, "The bot measured as it runs")."""
    late_ms = os.environ.get("LOOP_WATCHDOG_MS")
    step_ms = os.environ.get("LOOP_WATCHDOG_STEPS_MS")
    if step_ms:
        time_each_step(asyncio.get_running_loop(), int(step_ms))
    if not late_ms:
        return await run(settings)
    stacks = os.environ.get("LOOP_WATCHDOG_STACKS") == "1"
    watching = asyncio.create_task(watch_the_loop(int(late_ms), stacks))
    try:
        await run(settings)
    finally:
        watching.cancel()


FULL_COLLECTION_EVERY = 3  # collections of the middle generation (Python's default: 10)


def settle_the_heap(extra_extensions: tuple[str, ...] = ()) -> None:
    """Import everything the bot loads (the cogs, and through them the games and pictures),
    then move it out of the garbage collector's sight. A full collection walks every object
    it tracks: under the capacity benchmark one took 100-300 ms of the event loop
    (bench/capacity.py --stacks). Frozen objects are never walked again, so full
    collections see only what serving games made since. Collected first, so no garbage is
    frozen. Only for the bot's own process: tests start bots inside pytest, whose objects
    must stay collectable.

    What serving games leaves for the collector is mostly discord.py's: each press's
    interaction, message and rebuilt view hold each other in cycles, and those still in
    flight when a young collection passes reach the oldest generation. A full collection
    now follows every 3 collections of the middle generation instead of 10, so each walks
    about a third as much: the longest held the loop 18-21 ms instead of 31-35 past the
    benchmark's knee, for about 0.3 % of a core more (docs/performance-log.md, "Read within
    25 games, and a full collection every third")."""
    try:
        walk_extensions("cogs", extra_extensions)
    except (ImportError, ValueError) as error:
        print(f"Setting EXTRA_EXTENSIONS is invalid: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Trash Table")
    parser.add_argument("command", nargs="?", choices=["run", "migrate"], default="run")
    parser.add_argument(
        "--to", default="head", metavar="REVISION", help="migrate: the revision (or base)"
    )
    parser.add_argument(
        "--allow-data-loss",
        action="store_true",
        help="migrate: go ahead with a downgrade that deletes data",
    )
    arguments = parser.parse_args()
    if arguments.command == "migrate":
        logging.basicConfig(level=logging.INFO, format="%(levelname)-7s %(name)s: %(message)s")
        try:
            asyncio.run(migrate(load_database_settings(), arguments.to, arguments.allow_data_loss))
        except (DatabaseUnusable, CommandError) as error:
            raise SystemExit(str(error)) from None  # one line on stderr, status 1
        return
    if arguments.to != "head" or arguments.allow_data_loss:
        parser.error("--to and --allow-data-loss go with migrate")
    settings = load_settings()
    logs.configure(settings.log_level, settings.log_format)
    settle_the_heap(settings.extra_extensions)
    keep_freed_memory()  # WORKERS=0 draws here; uploads and pickles are megabytes too
    try:
        # uvloop (libuv's event loop) does the same work as asyncio's own loop in about
        # half the CPU: sockets, timers and callbacks are most of what the loop's thread
        # spends on a press besides the database (docs/performance-log.md, "ISA-L, uvloop
        # and outlined boxes in pieces").
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(run_watched(settings))
    except discord.LoginFailure:
        raise SystemExit(
            "Setting DISCORD_TOKEN is invalid: Discord refused it; copy it again from the "
            "Discord developer portal (your application, Bot, Reset Token)"
        ) from None
    except (DatabaseUnusable, SettingUnusable) as error:
        raise SystemExit(str(error)) from None  # one line on stderr, status 1
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

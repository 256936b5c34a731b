"""`python -m bot`: read the settings, set up logging and run until stopped.

`python -m bot migrate` only brings the database schema up to date (the bot also does it at
start-up), for an admin who wants to upgrade before starting the new version.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os

import discord

from bot.client import run
from bot.database import Database
from bot.settings import Settings, load_database_settings, load_settings


async def migrate(url: str) -> None:
    database = Database(url)
    try:
        await database.wait_until_reachable()
        await database.migrate()
    finally:
        await database.close()


async def watch_the_loop(threshold_ms: int) -> None:
    """Diagnostics for the capacity benchmark (tests/capacity.py), on when LOOP_WATCHDOG_MS is
    set: a short sleep that wakes late means something held the event loop that long."""
    loop, tick = asyncio.get_running_loop(), 0.01
    while True:
        before = loop.time()
        await asyncio.sleep(tick)
        late_ms = (loop.time() - before - tick) * 1000
        if late_ms > threshold_ms:
            logging.getLogger("bot.watchdog").warning("event loop blocked %d ms", late_ms)


async def run_watched(settings: Settings) -> None:
    watchdog = os.environ.get("LOOP_WATCHDOG_MS")
    if not watchdog:
        return await run(settings)
    watching = asyncio.create_task(watch_the_loop(int(watchdog)))
    try:
        await run(settings)
    finally:
        watching.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Trash Table")
    parser.add_argument("command", nargs="?", choices=["run", "migrate"], default="run")
    if parser.parse_args().command == "migrate":
        logging.basicConfig(level=logging.INFO, format="%(levelname)-7s %(name)s: %(message)s")
        asyncio.run(migrate(load_database_settings().database_url))
        return
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    # discord.py's own chatter stays at INFO or quieter.
    logging.getLogger("discord").setLevel(
        max(logging.INFO, logging.getLevelName(settings.log_level))
    )
    try:
        asyncio.run(run_watched(settings))
    except discord.LoginFailure:
        raise SystemExit("Setting DISCORD_TOKEN is invalid: Discord refused it") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

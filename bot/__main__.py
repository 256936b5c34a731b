"""`python -m bot`: read the settings, set up logging and run until stopped.

`python -m bot migrate` only brings the database schema up to date (the bot also does it at
start-up), for an admin who wants to upgrade before starting the new version.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

import discord

from bot.client import run
from bot.database import Database
from bot.settings import load_database_settings, load_settings


async def migrate(url: str) -> None:
    database = Database(url)
    try:
        await database.wait_until_reachable()
        await database.migrate()
    finally:
        await database.close()


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
        asyncio.run(run(settings))
    except discord.LoginFailure:
        raise SystemExit("Setting DISCORD_TOKEN is invalid: Discord refused it") from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

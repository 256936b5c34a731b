"""`python -m bot`: read the settings, set up logging and run until stopped."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.client import run
from bot.settings import load_settings


def main() -> None:
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

"""The lines an operator reads (issue 57): one line when a game starts and when it is
stopped, each action at DEBUG; with LOG_FORMAT=json each line is a JSON object carrying
the game, its kind, guild and channel as fields."""

from __future__ import annotations

import io
import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.logs import JsonFormatter, configure
from tests.e2e.conftest import Table
from tests.e2e.play import against_the_ai, turns_of
from tests.fakediscord import FakeDiscord


@contextmanager
def json_lines(level: int = logging.DEBUG) -> Iterator[io.StringIO]:
    """Every record of the bot and its cogs, written by the JSON format into a string."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger(name) for name in ("bot", "cogs")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(level)
    try:
        yield stream
    finally:
        for logger, old in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(old)


async def test_json_lines_name_the_game_guild_and_channel(
    bot, table: Table, fake_discord: FakeDiscord
) -> None:
    with json_lines() as stream:
        await against_the_ai(table.alice, seed=3)
        await turns_of(table.alice, random.Random(3), most=2)
        await table.alice.slash("/game stop")
    lines: list[dict[str, Any]] = [json.loads(line) for line in stream.getvalue().splitlines()]
    game = {
        "kind": "rumble",
        "guild_id": fake_discord.guild.id,
        "channel_id": fake_discord.channel.id,
    }

    def about_the_game(line: dict[str, Any]) -> bool:
        return {name: line.get(name) for name in game} == game and isinstance(
            line.get("game_id"), int
        )

    started = [line for line in lines if " started in guild " in line["message"]]
    stopped = [line for line in lines if " stopped in guild " in line["message"]]
    assert len(started) == 1 and len(stopped) == 1, lines
    assert started[0]["level"] == stopped[0]["level"] == "INFO"
    assert about_the_game(started[0]) and about_the_game(stopped[0])
    assert started[0]["logger"] == "bot.games" and started[0]["time"].endswith("+00:00")
    actions = [line for line in lines if " acted (" in line["message"]]
    assert actions and all(line["level"] == "DEBUG" for line in actions)
    assert all(about_the_game(line) for line in actions)


def test_log_format_json_makes_every_line_json(capsys) -> None:
    """LOG_FORMAT=json as `python -m bot` sets it up: the root handler writes JSON, a
    traceback included in its line."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure("INFO", "json")
        log = logging.getLogger("bot.test")
        log.info("plain", extra={"game_id": 7, "kind": "k", "guild_id": 1, "channel_id": 2})
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("failed")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    plain, failed = (json.loads(line) for line in capsys.readouterr().err.splitlines())
    assert plain["message"] == "plain" and plain["game_id"] == 7 and plain["channel_id"] == 2
    assert failed["level"] == "ERROR" and "ValueError: boom" in failed["exception"]

"""The bot's log lines: plain text by default, one JSON object a line with LOG_FORMAT=json.

A line about a game carries the game, its kind, guild and channel as fields (`extra=` on
the logging call, made by `game_fields`), so a log collector can filter by them; the text
format says them in the message itself. The formatter is the standard library's, about
thirty lines: python-json-logger would be a dependency for what these lines need.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any, Protocol

# The fields a game's lines carry, as `extra=` sets them on the record.
GAME_FIELDS = ("game_id", "kind", "guild_id", "channel_id")
TEXT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class AGame(Protocol):
    """What a game's fields are read from (a game row)."""

    id: int | None
    kind: str
    guild_id: int
    channel_id: int


def game_fields(game: AGame) -> dict[str, Any]:
    """`extra=` for a line about `game`."""
    return {
        "game_id": game.id,
        "kind": game.kind,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
    }


class JsonFormatter(logging.Formatter):
    """One JSON object a record: time (UTC, ISO 8601), level, logger, message, the game's
    fields when the record has them, and a traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in GAME_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str, form: str = "text") -> None:
    """The root logger's one handler (stderr), in `form` ("text" or "json")."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(TEXT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    # discord.py's own chatter stays at INFO or quieter.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))

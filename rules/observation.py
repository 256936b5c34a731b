"""What every game's observation may carry, whatever the game: the last move, for the
caption under a board (who made it and what the log said of it)."""

from __future__ import annotations

from typing import Any, TypedDict


class LastMoveView(TypedDict):
    seat: int  # who made it
    step: int  # the game's step right after it
    # The log lines the whole channel read: phrases as JSON (`rules.phrases.to_json`), or
    # English naming seats as {p0}, {p1}...
    lines: list[Any]

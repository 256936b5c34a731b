"""aiosqlite with each statement run on the event loop's own thread.

aiosqlite hands every call (open a cursor, execute, fetch, close, commit) to the
connection's thread and wakes the event loop with the answer. A statement on a local SQLite
file takes tens of microseconds; the hand-over costs more than that in CPU, and under load
each answer waits for the loop to come round again. SQLite takes one writer at a time, so a
save that made some twenty such trips held the write lock while the loop served other
channels, and every other save queued behind it: under the capacity benchmark's load the
lock was held most of the time and presses waited on it. Run in place, a save holds the
lock only for its own work.

What this costs: the loop waits while SQLite works. That is microseconds a statement, plus
a checkpoint now and then (the WAL copied back into the database file, about 13 ms here for
each 4 MB written), and, only if another process holds the write lock, up to the busy
timeout. The connection's thread still opens and closes the connection.

The press path's plain statements do not use aiosqlite at all: they run on a synchronous
connection (bot/statements.py). This driver serves the ORM's sessions (the scoreboard, the
history) and the migrations.

It relies on aiosqlite's `Connection._execute` (run one call for the connection), stable
since aiosqlite 0.17; pyproject.toml bounds the version, and the override lives in
`bot.internals.aiosqlite` with the bot's other uses of a library's internals.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.internals.aiosqlite import InPlaceConnection, in_place_connection


def connect(database: str, **kwargs: Any) -> InPlaceConnection:
    """What `aiosqlite.connect` does, for an in-place connection. SQLAlchemy calls it with
    the arguments it would give aiosqlite (`connect_args={"async_creator_fn": connect}`)."""
    # Opened on the connection's thread, used on the loop's: sqlite3 must allow that.
    kwargs["check_same_thread"] = False
    return in_place_connection(lambda: sqlite3.connect(database, **kwargs))

"""aiosqlite's internals, every use of them (checked against aiosqlite 0.22).

aiosqlite hands each call (execute, fetch, commit...) to the connection's own thread through
`Connection._execute`; bot/sqlite_driver.py says why the bot runs them in place instead. An
override of that private method is the only way: aiosqlite has no public hook for it. Public
alternative: the standard library's sqlite3 itself, once SQLAlchemy's ORM sessions no longer
need an asyncio driver (the press path's statements already use sqlite3, bot/statements.py).

pyproject.toml bounds aiosqlite's version; an upgrade: run tests/bot/test_internals.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import aiosqlite


class InPlaceConnection(aiosqlite.Connection):
    """An aiosqlite connection that runs each call on the caller's thread (the event
    loop's). Its thread still opens and closes the sqlite3 connection."""

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        # aiosqlite's own check: `_running` false once stopping, `_connection` None once closed.
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)


def in_place_connection(opener: Callable[[], sqlite3.Connection]) -> InPlaceConnection:
    """What `aiosqlite.connect` makes (awaiting it opens the connection), in place, with a
    daemon thread: as SQLAlchemy does for aiosqlite's own connections, a connection never
    closed must not keep the process alive at exit. Public alternative: none, aiosqlite
    makes its thread in `Connection.__init__`."""
    connection = InPlaceConnection(opener, 64)  # 64: aiosqlite's own iteration chunk
    connection._thread.daemon = True
    return connection

"""Every use of a library's internals, one small module per library (issue 41).

A library's private attributes and undocumented behaviour can change in any release. Each
use of one lives here, as a small named function saying why we need it and what public API
would replace it, so that an upgrade has one place to look, and each has a test against the
installed version (tests/bot/test_internals.py) that fails if the internal moves.
tests/test_architecture.py refuses such a use anywhere else.

- `bot.internals.discord`: discord.py's view store (whether a press will be answered), the
  names of the tasks it answers interactions in, its HTTP session after a failed login.
- `bot.internals.aiosqlite`: aiosqlite's hand-over of each call to the connection's thread,
  replaced by a call in place (bot/sqlite_driver.py says why).
- `bot.internals.sqlalchemy`: an ORM instance made from a row as the ORM's loading does.
"""

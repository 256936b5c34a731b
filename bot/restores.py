"""A restore's games made whole at the next start (issue 57). `make restore` marks every
game under way in the database it puts back (`mark`, a row of `restored_games` each); the
next start redraws each game its process owns (`redraw_marked`, before Discord connects):
a fresh board at the restored step goes into the outbox with `restored` set, and the poster
takes off the boards the restore made stale before it posts that one
(cogs/shared/poster.py). The marks go in the same commits, so a normal start reads one
empty table. A restore done by hand leaves no mark: the press-time check (`WentBack`,
bot/store.py) redraws a game when a board of a lost step is pressed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sqlalchemy import Table, delete, insert, select
from sqlmodel import SQLModel

from bot import rows
from bot.database import Database
from bot.models import Status
from bot.settings import async_database_url

if TYPE_CHECKING:
    from bot.store import Store

RESTORED: Table = SQLModel.metadata.tables["restored_games"]

log = logging.getLogger(__name__)


async def mark(url: str) -> None:
    """Mark every game under way in the database at `url`, just put back. Its schema is
    brought up to date first: a backup older than the marks' table has none."""
    db = Database(async_database_url(url))
    try:
        await db.migrate()
        async with db.writing() as connection:
            await connection.execute(delete(RESTORED))
            playing = select(rows.GAMES.c.id).where(rows.GAMES.c.status == Status.PLAYING)
            await connection.execute(insert(RESTORED).from_select(["game_id"], playing))
    finally:
        await db.close()


async def redraw_marked(store: Store) -> int:
    """At start-up: redraw each marked game of this process's guilds (other shards' wait
    for their own process); how many."""
    async with store.db.connected() as connection:
        games = await rows.games_where(
            connection,
            rows.GAMES.c.id.in_(select(RESTORED.c.game_id)),
            store.shards.owned(rows.GAMES.c.guild_id),
        )
    for game in games:
        await store.redraw(game, marked=True)
    if games:
        log.warning("restored from a backup: %d games under way redrawn", len(games))
    return len(games)

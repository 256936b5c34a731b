"""What the bot keeps about people and servers, for how long, and removing it on request.

- A finished game's action log and its boards' steps (all a replay reads) are folded into
  its own row a day after it ends (`archive`): its action and outbox rows, most of what a
  game stores, go.
- A finished or stopped game is kept, with its log and its results, for the retention
  period (GAME_RETENTION_DAYS), then removed whole: its replay goes with it, and the
  scoreboard's counts cover the games still kept (ratings, one row a player, stay).
- A guild that removes the bot is noted (`departed`); once the grace period
  (DEPARTED_GUILD_GRACE_DAYS) has passed, everything of it goes. Added back before then,
  it keeps its data (`returned`). An admin can remove a guild's data at once
  (`forget_guild`).
- A person can see what is kept about them (`kept_about`) and have it removed
  (`forget_person`): in the games they played their seat keeps its place as
  "a former player", and their results, ratings and seats' notes go.

Every removal runs in small transactions, so no game waits long for the write lock, and
on SQLite gives the freed pages back to the file system (incremental vacuum).
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.types import Text
from sqlmodel import SQLModel

from bot import rows
from bot.database import Database
from bot.models import ACTIVE, Seat, Status, utcnow
from bot.outbox import BOARD
from bot.shards import ALL, Shards
from bot.statements import Statements

FORMER_PLAYER = "a former player"
BATCH = 50  # games removed a transaction: a few ms of the write lock each
ARCHIVE_BATCH = 20  # games archived a transaction
ARCHIVE_AFTER = timedelta(days=1)  # past a rematch or a replay asked for at once

GAMES = rows.GAMES
ACTIONS = rows.ACTIONS
TABLES = SQLModel.metadata.tables
OUTBOX, RESULTS = TABLES["outbox"], TABLES["results"]
RATINGS, DEPARTED = TABLES["ratings"], TABLES["departed_guilds"]
GUILD_SETTINGS = TABLES["guild_settings"]
OVER = (Status.FINISHED, Status.STOPPED)


class StillPlaying(Exception):
    """A person asked to be forgotten while they sit in a lobby or a game under way."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.channel_id = channel_id


@dataclass(frozen=True)
class Swept:
    games: int  # games past retention removed
    guilds: int  # departed guilds whose data went
    archived: int = 0  # finished games whose logs were folded into their rows


@dataclass(frozen=True)
class Played:
    """What a replay reads of a finished game: each action as (the step before it, seat,
    action) in order, and each board as (the step it showed, its message id)."""

    actions: list[tuple[int, int, str]]
    boards: list[tuple[int, int | None]]

    def packed(self) -> bytes:
        return zlib.compress(orjson.dumps({"actions": self.actions, "boards": self.boards}), 9)

    @classmethod
    def unpacked(cls, archive: bytes) -> Played:
        data = orjson.loads(zlib.decompress(archive))
        actions = [(int(step), int(seat), str(action)) for step, seat, action in data["actions"]]
        return cls(actions, [(int(step), message) for step, message in data["boards"]])


@dataclass(frozen=True)
class Kept:
    """What the bot keeps about one person, everywhere."""

    games: int  # games they sat at, finished or stopped
    playing: list[int]  # channels of the lobbies and games they are in now
    results: int  # scoreboard lines (one a finished game)
    ratings: int  # ratings (one a game kind and guild, and one for all games)
    guilds: int  # guilds where any of that is


async def _remove_games(db: Database, game_ids: list[int]) -> None:
    """Remove games with everything that refers to them, a batch a transaction."""
    for start in range(0, len(game_ids), BATCH):
        batch = game_ids[start : start + BATCH]
        async with db.writing() as connection:
            for table in (ACTIONS, OUTBOX, RESULTS):
                await connection.execute(delete(table).where(table.c.game_id.in_(batch)))
            await connection.execute(delete(GAMES).where(GAMES.c.id.in_(batch)))
        await asyncio.sleep(0)  # the loop serves the tables between batches


async def _ids(db: Database, query: Any) -> list[int]:
    async with db.connected() as connection:
        return [int(row[0]) for row in (await connection.execute(query)).all()]


async def read_log(connection: Statements, game_id: int) -> Played:
    """A game's log from its action and outbox rows."""
    actions = await connection.execute(
        select(ACTIONS.c.step, ACTIONS.c.seat, ACTIONS.c.action)
        .where(ACTIONS.c.game_id == game_id)
        .order_by(ACTIONS.c.step)
    )
    boards = await connection.execute(
        select(OUTBOX.c.step, OUTBOX.c.message_id)
        .where(OUTBOX.c.game_id == game_id, OUTBOX.c.kind == BOARD)
        .order_by(OUTBOX.c.id)
    )
    return Played(
        [(row.step, row.seat, row.action) for row in actions.all()],
        [(row.step, row.message_id) for row in boards.all()],
    )


async def archive_finished(db: Database, before: datetime, shards: Shards = ALL) -> int:
    """Fold the logs of the games finished before `before` into their rows; returns how
    many. A game with a board still to show waits for the next sweep."""
    waiting = select(OUTBOX.c.game_id).where(OUTBOX.c.delivered_at.is_(None))
    found = await _ids(
        db,
        select(GAMES.c.id).where(
            GAMES.c.status == Status.FINISHED,
            GAMES.c.finished_at < before,
            GAMES.c.archive.is_(None),
            GAMES.c.id.not_in(waiting.scalar_subquery()),
            shards.owned(GAMES.c.guild_id),
        ),
    )
    for start in range(0, len(found), ARCHIVE_BATCH):
        async with db.writing() as connection:
            for game_id in found[start : start + ARCHIVE_BATCH]:
                log = await read_log(connection, game_id)
                await connection.execute(
                    update(GAMES).where(GAMES.c.id == game_id).values(archive=log.packed())
                )
                for table in (ACTIONS, OUTBOX):
                    await connection.execute(delete(table).where(table.c.game_id == game_id))
        await asyncio.sleep(0)
    return len(found)


async def sweep(
    db: Database,
    now: datetime,
    retention: timedelta,
    grace: timedelta,
    shards: Shards = ALL,
) -> Swept:
    """Remove the games past retention and the guilds departed past their grace period
    (of this process's shards: each process sweeps its own guilds)."""
    old = await _ids(
        db,
        select(GAMES.c.id).where(
            GAMES.c.status.in_(OVER),
            func.coalesce(GAMES.c.finished_at, GAMES.c.updated_at) < now - retention,
            shards.owned(GAMES.c.guild_id),
        ),
    )
    await _remove_games(db, old)
    gone = await _ids(
        db,
        select(DEPARTED.c.guild_id).where(
            DEPARTED.c.left_at < now - grace, shards.owned(DEPARTED.c.guild_id)
        ),
    )
    for guild_id in gone:
        await forget_guild(db, guild_id)
    archived = await archive_finished(db, now - ARCHIVE_AFTER, shards)
    if old or gone or archived:
        await db.give_space_back()
    return Swept(len(old), len(gone), archived)


async def departed(db: Database, guild_id: int, when: datetime | None = None) -> None:
    """The bot was removed from a guild: its data goes after the grace period."""
    async with db.writing() as connection:
        await connection.execute(delete(DEPARTED).where(DEPARTED.c.guild_id == guild_id))
        await connection.execute(
            insert(DEPARTED).values(guild_id=guild_id, left_at=when or utcnow())
        )


async def returned(db: Database, guild_id: int) -> None:
    """The bot is in the guild (again): nothing of it is to go."""
    async with db.writing() as connection:
        await connection.execute(delete(DEPARTED).where(DEPARTED.c.guild_id == guild_id))


async def active_channels(db: Database, guild_id: int) -> list[int]:
    """The channels of the guild with a lobby or a game under way."""
    return await _ids(
        db,
        select(GAMES.c.channel_id).where(GAMES.c.guild_id == guild_id, GAMES.c.status.in_(ACTIVE)),
    )


async def forget_guild(db: Database, guild_id: int) -> int:
    """Remove every game, result, rating and setting of a guild; returns the games removed."""
    games = await _ids(db, select(GAMES.c.id).where(GAMES.c.guild_id == guild_id))
    await _remove_games(db, games)
    async with db.writing() as connection:
        for table in (RESULTS, RATINGS, DEPARTED, GUILD_SETTINGS):
            await connection.execute(delete(table).where(table.c.guild_id == guild_id))
    return len(games)


def _games_of(user_id: int) -> Any:
    """The games whose seats name `user_id` (or that they host): a text match on the
    seats' JSON narrows them, `_seated` then reads each row's seats."""
    seats_text = GAMES.c.seats.cast(Text)
    return select(GAMES.c.id, GAMES.c.status, GAMES.c.channel_id, GAMES.c.guild_id).where(
        or_(
            seats_text.like(f'%"user_id":{user_id},%'),
            seats_text.like(f'%"user_id": {user_id},%'),  # json.dumps's spacing
            GAMES.c.host_id == user_id,
        )
    )


async def kept_about(db: Database, user_id: int) -> Kept:
    async with db.connected() as connection:
        games = (await connection.execute(_games_of(user_id))).all()
        results = (
            await connection.execute(select(RESULTS.c.guild_id).where(RESULTS.c.user_id == user_id))
        ).all()
        ratings = (
            await connection.execute(select(RATINGS.c.guild_id).where(RATINGS.c.user_id == user_id))
        ).all()
    guilds = {g.guild_id for g in games} | {r[0] for r in results} | {r[0] for r in ratings}
    return Kept(
        games=sum(g.status in OVER for g in games),
        playing=sorted(g.channel_id for g in games if g.status in ACTIVE),
        results=len(results),
        ratings=len(ratings),
        guilds=len(guilds),
    )


def _without(seats: Iterable[Seat], user_id: int) -> list[Seat]:
    return [
        seat.model_copy(update={"user_id": None, "name": FORMER_PLAYER, "notes": []})
        if seat.user_id == user_id
        else seat
        for seat in seats
    ]


def _scrubbed(value: Any, user_id: int, names: set[str]) -> Any:
    """A board entry not yet shown, without the person: their names (wherever a text has
    them) and their id (a mention)."""
    if isinstance(value, dict):
        return {key: _scrubbed(item, user_id, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrubbed(item, user_id, names) for item in value if item != user_id]
    if isinstance(value, str):
        for name in names:  # the lines name players in their own words
            value = value.replace(name, FORMER_PLAYER)
        return value
    return None if value == user_id and not isinstance(value, bool) else value


async def forget_person(db: Database, user_id: int) -> int:
    """Remove a person from everything the bot keeps; returns the games they were in.
    Refused (`StillPlaying`) while they sit in a lobby or a game under way: that game
    still needs their seat."""
    found = await _ids(db, _games_of(user_id).with_only_columns(GAMES.c.id))
    async with db.writing() as connection:
        names: set[str] = set()
        for game_id in found:
            game = await rows.load_game(connection, game_id)
            if game is None:
                continue
            if game.status in ACTIVE:
                raise StillPlaying(game.channel_id)
            names |= {seat.name for seat in game.seats if seat.user_id == user_id}
            await connection.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(
                    seats=_without(game.seats, user_id),
                    host_id=0 if game.host_id == user_id else game.host_id,
                )
            )
        named = await connection.execute(select(RESULTS.c.name).where(RESULTS.c.user_id == user_id))
        names |= {row[0] for row in named.all()}
        await connection.execute(
            update(RESULTS)
            .where(RESULTS.c.user_id == user_id)
            .values(user_id=None, name=FORMER_PLAYER, rated=False)
        )
        await connection.execute(delete(RATINGS).where(RATINGS.c.user_id == user_id))
        # The boards of those games: a delivered one is needed no more (the game is over),
        # one not yet shown loses the person's name and mention.
        entries = await connection.execute(
            select(OUTBOX.c.id, OUTBOX.c.payload, OUTBOX.c.delivered_at).where(
                OUTBOX.c.game_id.in_(found)
            )
        )
        for entry in entries.mappings().all():
            delivered = entry["delivered_at"] is not None
            kept = {} if delivered else _scrubbed(entry["payload"], user_id, names)
            await connection.execute(
                update(OUTBOX).where(OUTBOX.c.id == entry["id"]).values(payload=kept)
            )
    return len(found)

"""Game rows and the action log, read and written with plain statements (SQLAlchemy Core).

A press reads its game row, saves it, logs the action and records a board, and the AI's
moves after it do the same: several statements a press. Through the ORM (identity map,
unit of work, flush) that bookkeeping was about a third of the bot process's CPU (the
profile is in docs/performance-log.md, "Plain SQL statements and orjson"); here each is one
statement, built once.

A row read here becomes a `GameRecord` the way the ORM itself loads one (the class's own
`__new__`, then its columns), but it belongs to no ORM session: nothing is written unless
`save_game` writes it. The service changes a row in memory and saves it whole once a
request is done with it; the message ids are written apart (`set_messages`, the poster),
as the poster changes them outside the service's requests.
"""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import (
    ColumnElement,
    RowMapping,
    Table,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlmodel import SQLModel

from bot.internals.sqlalchemy import loaded_instance
from bot.models import ACTIVE, GameRecord, utcnow
from bot.statements import Statements

GAMES: Table = SQLModel.metadata.tables["games"]
ACTIONS: Table = SQLModel.metadata.tables["actions"]
GUILD_SETTINGS: Table = SQLModel.metadata.tables["guild_settings"]

# What a request may change; the rest is fixed when the lobby opens (id, guild, channel,
# kind, seed, created_at) or belongs to the poster (the message ids).
SAVED = (
    "status",
    "host_id",
    "options",
    "seats",
    "state",
    "step",
    "rules_version",
    "turn_timer",
    "turn_deadline",
    "updated_at",
    "finished_at",
)
MESSAGES = ("lobby_message_id", "board_message_id")

_BY_ID = select(GAMES).where(GAMES.c.id == bindparam("game_id"))
_BY_ID_LOCKED = _BY_ID.with_for_update()
_ACTIVE_IN = select(GAMES).where(
    GAMES.c.channel_id == bindparam("channel_id"), GAMES.c.status.in_([*ACTIVE])
)
_ACTIVE_IN_LOCKED = _ACTIVE_IN.with_for_update()
_SAVE = update(GAMES).where(GAMES.c.id == bindparam("game_id"))
_INSERT_GAME = insert(GAMES)
_INSERT_ACTION = insert(ACTIONS)

Record = TypeVar("Record", bound=SQLModel)


def record_of(model: type[Record], row: RowMapping) -> Record:
    """A row as an instance of its table's model, made as the ORM makes one from a row (no
    validation: the column types have already turned the JSON into seats and dicts)."""
    return loaded_instance(model, row)


def game_of(row: RowMapping) -> GameRecord:
    return record_of(GameRecord, row)


async def load_game(
    connection: Statements, game_id: int, *, lock: bool = False
) -> GameRecord | None:
    """Game `game_id`, or None. `lock`: held for this transaction (PostgreSQL's
    SELECT ... FOR UPDATE; SQLite's writes already queue one at a time)."""
    result = await connection.execute(_BY_ID_LOCKED if lock else _BY_ID, {"game_id": game_id})
    row = result.mappings().first()
    return None if row is None else game_of(row)


async def active_game(
    connection: Statements, channel_id: int, *, lock: bool = False
) -> GameRecord | None:
    """The channel's lobby or running game, or None."""
    query = _ACTIVE_IN_LOCKED if lock else _ACTIVE_IN
    row = (await connection.execute(query, {"channel_id": channel_id})).mappings().first()
    return None if row is None else game_of(row)


async def games_where(connection: Statements, *conditions: ColumnElement[bool]) -> list[GameRecord]:
    """Every game row meeting `conditions` (columns of `GAMES`), in id order."""
    query = select(GAMES).where(*conditions).order_by(GAMES.c.id)
    return [game_of(row) for row in (await connection.execute(query)).mappings()]


async def insert_game(connection: Statements, game: GameRecord) -> GameRecord:
    """Write a new game row; `game.id` is set from the database."""
    values = {
        column.name: getattr(game, column.name) for column in GAMES.columns if column.name != "id"
    }
    result = await connection.execute(_INSERT_GAME, values)
    (game.id,) = result.inserted_primary_key or (None,)
    return game


async def save_game(connection: Statements, game: GameRecord) -> None:
    """Write what a request changed in `game` (every column in `SAVED`), stamping
    `updated_at`."""
    game.updated_at = utcnow()
    values = {name: getattr(game, name) for name in SAVED}
    await connection.execute(_SAVE, {"game_id": game.id, **values})


async def guild_language(connection: Statements, guild_id: int) -> str | None:
    """The language a server's admins chose for its boards; None if they chose none."""
    found = await connection.execute(
        select(GUILD_SETTINGS.c.language).where(GUILD_SETTINGS.c.guild_id == guild_id)
    )
    return found.scalar_one_or_none()


async def set_guild_language(connection: Statements, guild_id: int, language: str | None) -> None:
    """Keep a server's chosen language (None: forget it, the server's own applies)."""
    where = GUILD_SETTINGS.c.guild_id == guild_id
    await connection.execute(delete(GUILD_SETTINGS).where(where))
    if language is not None:
        await connection.execute(
            insert(GUILD_SETTINGS).values(guild_id=guild_id, language=language)
        )


async def set_messages(connection: Statements, game_id: int, **messages: int) -> None:
    """Record the lobby or board message of a game (`lobby_message_id`, `board_message_id`)."""
    assert messages and set(messages) <= set(MESSAGES), messages
    # The statement built once (its SET clause is made from the parameters' names): an
    # UPDATE built and compiled again for each board posted cost the loop 0.1 ms a board.
    await connection.execute(_SAVE, {"game_id": game_id, **messages})


async def log_action(
    connection: Statements, game: GameRecord, seat: int, actor: str, action: str
) -> None:
    """One line of the action log: `seat`'s `action` at the game's step before it."""
    await connection.execute(
        _INSERT_ACTION,
        {
            "game_id": game.id,
            "step": game.step,
            "seat": seat,
            "actor": actor,
            "action": action,
            "created_at": utcnow(),
        },
    )

"""Game rows read and written with plain statements (bot/rows.py): what is written comes
back the same, and a request's save leaves alone what the poster writes."""

from __future__ import annotations

from datetime import UTC, datetime

from bot import rows
from bot.database import Database
from bot.models import GameRecord, Note, Seat, Status


def a_game() -> GameRecord:
    return GameRecord(
        guild_id=2**60 + 7,  # a snowflake needs 64 bits
        channel_id=2**59 + 3,
        kind="trashwar",
        host_id=2**58 + 1,
        seed=42,
        options={"mode": "classic"},
        seats=[
            Seat(user_id=2**58 + 1, name="Ann", notes=[Note(step=3, text="a card went")]),
            Seat(user_id=None, name="Robo", ai=True, rated=False),
        ],
    )


async def test_a_game_row_reads_back_as_written(db: Database) -> None:
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())
        game.status, game.step = Status.PLAYING, 5
        game.state = {"deck": [1, 2, 3], "walls": {"0": "left"}}
        game.turn_deadline = datetime(2026, 11, 24, 12, 30, tzinfo=UTC)
        game.seats[1].timeouts = 2
        await rows.save_game(connection, game)
    async with db.connected() as connection:
        again = await rows.load_game(connection, game.id or 0)
        active = await rows.active_game(connection, game.channel_id)
    assert again is not None and active is not None and active.id == game.id
    for name in ("guild_id", "channel_id", "kind", "host_id", "seed", "options", "state", "step"):
        assert getattr(again, name) == getattr(game, name), name
    assert again.status == Status.PLAYING
    assert again.seats == game.seats  # Seat objects, notes and all
    assert again.turn_deadline is not None
    assert again.turn_deadline.replace(tzinfo=UTC) == game.turn_deadline.replace(tzinfo=UTC)


async def test_a_save_keeps_the_board_message_the_poster_recorded_meanwhile(db: Database) -> None:
    """A request holds the row it loaded while the poster records a newly posted board on
    the same game; saving the request's change must not put the old message id back (the
    next board would then leave that one's controls on)."""
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())
    async with db.connected() as connection:
        held = await rows.load_game(connection, game.id or 0)
    assert held is not None and held.board_message_id is None
    async with db.writing() as connection:
        await rows.set_messages(connection, game.id or 0, board_message_id=1234)
    held.step = 9
    async with db.writing() as connection:
        await rows.save_game(connection, held)
    async with db.connected() as connection:
        again = await rows.load_game(connection, game.id or 0)
    assert again is not None
    assert (again.step, again.board_message_id) == (9, 1234)


async def test_rows_made_here_belong_to_no_session(db: Database) -> None:
    """Nothing is written behind the service's back: changing a loaded row and ending the
    transaction without `save_game` leaves the database as it was."""
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())
    async with db.writing() as connection:
        loaded = await rows.load_game(connection, game.id or 0, lock=True)
        assert loaded is not None
        loaded.step = 77
    async with db.connected() as connection:
        again = await rows.load_game(connection, game.id or 0)
    assert again is not None and again.step == 0

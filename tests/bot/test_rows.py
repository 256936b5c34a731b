"""Game rows read and written with plain statements (bot/rows.py): what is written comes
back the same, and a request's save leaves alone what the poster writes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

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


async def test_a_request_that_fails_part_way_leaves_nothing_written(db: Database) -> None:
    """A request's statements are committed together or not at all: an error after some
    of them (an illegal move found late, a crash of the code) undoes the ones before."""
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())

    class Refused(Exception):
        pass

    with pytest.raises(Refused):
        async with db.writing() as connection:
            loaded = await rows.load_game(connection, game.id or 0, lock=True)
            assert loaded is not None
            loaded.step = 5
            await rows.save_game(connection, loaded)
            await rows.log_action(connection, loaded, 0, "player", "draw")
            raise Refused
    async with db.connected() as connection:
        again = await rows.load_game(connection, game.id or 0)
        logged = (await connection.execute(select(rows.ACTIONS))).all()
    assert again is not None and again.step == 0
    assert logged == []


async def test_requests_writing_at_once_both_land(db: Database) -> None:
    """Two requests of one process write at the same time, and one of them waits for
    something (a worker's answer) in the middle of its transaction: SQLite takes one writer
    at a time, so the second must wait its turn rather than fail with "database is
    locked" (or block the event loop the first one needs to finish)."""
    async with db.writing() as connection:
        first = await rows.insert_game(connection, a_game())
        elsewhere = a_game()
        elsewhere.channel_id += 1  # one open game a channel
        second = await rows.insert_game(connection, elsewhere)
    halfway = asyncio.Event()

    async def slow() -> None:
        async with db.writing() as connection:
            loaded = await rows.load_game(connection, first.id or 0, lock=True)
            assert loaded is not None
            loaded.step = 1
            await rows.save_game(connection, loaded)
            halfway.set()
            await asyncio.sleep(0.05)  # the other request runs meanwhile

    async def quick() -> None:
        await halfway.wait()
        async with db.writing() as connection:
            loaded = await rows.load_game(connection, second.id or 0, lock=True)
            assert loaded is not None
            loaded.step = 2
            await rows.save_game(connection, loaded)

    await asyncio.wait_for(asyncio.gather(slow(), quick()), timeout=30)
    async with db.connected() as connection:
        steps = [await rows.load_game(connection, g.id or 0) for g in (first, second)]
    assert [g.step for g in steps if g is not None] == [1, 2]

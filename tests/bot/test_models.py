"""The tables' typed columns (issue 13: "seats are a typed model, not dicts with string
keys"): a game's seats are `Seat`s in Python and the same JSON as before in the database,
so rows saved before the model existed read back whole."""

from __future__ import annotations

import json

from sqlalchemy import text

from bot.database import Database
from bot.models import GameRecord, Note, Seat

OLD_SEATS = [  # as the bot saved them before `Seat`: no "moved", "notes", "pick" or "level"
    {"user_id": 11, "name": "alice", "ai": False, "timeouts": 1, "rated": True},
    {"user_id": None, "name": "Robo Raccoon", "ai": True, "timeouts": 0, "rated": False},
]


async def test_seats_saved_before_the_model_read_back_as_seats(db: Database) -> None:
    async with db.transaction() as session:
        await session.exec(  # type: ignore[call-overload]
            text(
                "INSERT INTO games (guild_id, channel_id, kind, status, host_id, seed, options,"
                " seats, step, turn_timer, created_at, updated_at)"
                " VALUES (1, 2, 'rumble', 'lobby', 11, 5, '{}', :seats, 0, 0,"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            params={"seats": json.dumps(OLD_SEATS)},
        )
    async with db.reading() as session:
        (game,) = (await session.exec(text("SELECT id FROM games"))).all()  # type: ignore[call-overload]
        row = await session.get(GameRecord, game[0])
    assert row is not None
    alice, robo = row.seats
    assert alice == Seat(user_id=11, name="alice", timeouts=1)
    assert (alice.moved, alice.notes, alice.pick) == (-1, [], "")
    assert robo.ai and not robo.rated and robo.user_id is None
    assert robo.level == "normal"  # issue 39: seats saved before levels play as they did
    assert row.handover_level is None  # and a seat left behind goes to the normal AI


async def test_a_seat_and_its_notes_survive_a_save(db: Database) -> None:
    seat = Seat(user_id=7, name="bo", moved=3, notes=[Note(step=4, text="a card was taken")])
    async with db.transaction() as session:
        game = GameRecord(guild_id=1, channel_id=2, kind="toss", host_id=7, seed=1, seats=[seat])
        session.add(game)
    async with db.reading() as session:
        again = await session.get(GameRecord, game.id)
    assert again is not None and again.seats == [seat]

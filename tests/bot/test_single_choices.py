"""Issue 34: a decision with exactly one legal choice is made for the player, at once and in
the same board as the move that led to it, so nobody is asked to click a choice that decides
nothing (Trash War's only "Take the hit", Dumpster Brawl!'s only "Defend")."""

from __future__ import annotations

import random

import pytest
from sqlmodel import col, select

from bot.database import Database
from bot.models import ActionRecord, OutboxEntry, Status
from bot.outbox import BOARD
from bot.requests import Player, engine_of, format_event, seat_names, seat_of
from bot.sessions import SessionService

CHANNEL, GUILD = 510, 910
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


@pytest.mark.parametrize(("kind", "seed"), [("trashwar", 3), ("brawl", 5)])
async def test_a_single_choice_is_made_for_the_player_and_told(
    db: Database, kind: str, seed: int
) -> None:
    """Two people and an AI seat play a seeded game through the service, each person
    picking at random among their legal actions: after every press no person is left
    waiting on a decision with one choice, such decisions were made for them (actor
    "forced") and each is told in a board's lines."""
    service = SessionService(db)
    game = await service.open_lobby(GUILD, CHANNEL, kind, ALICE, {}, seed=seed)
    game = await service.join(CHANNEL, game.id or 0, BOB)
    game = await service.add_ai(CHANNEL, game.id or 0, ALICE)
    update = await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))
    rng = random.Random(seed)
    engine = engine_of(update.game)
    for _ in range(400):
        game = await service.get(game.id or 0)
        assert game is not None
        if game.status != Status.PLAYING:
            break
        state = service.state_of(game)
        waiting = [s for s in engine.to_act(state) if not game.seats[s].ai]
        assert waiting, "the AI and the single choices were all played"
        for seat in waiting:
            assert len(engine.legal_actions(state, seat)) > 1, "a person asked for no choice"
        seat = waiting[0]
        user = game.seats[seat].user_id or 0
        assert seat_of(game, user) == seat
        legal = engine.legal_actions(state, seat)
        await service.play_ai(
            await service.act(CHANNEL, game.id or 0, user, game.step, rng.randrange(len(legal)))
        )
    else:
        raise AssertionError("the game did not end")

    async with db.reading() as session:
        actions = (
            await session.exec(
                select(ActionRecord)
                .where(ActionRecord.game_id == game.id)
                .order_by(col(ActionRecord.step))
            )
        ).all()
        boards = (
            await session.exec(
                select(OutboxEntry)
                .where(OutboxEntry.game_id == game.id, OutboxEntry.kind == BOARD)
                .order_by(col(OutboxEntry.id))
            )
        ).all()
    assert any(record.actor == "forced" for record in actions), "the seed has a single choice"
    told = [line for board in boards for line in board.payload["lines"]]
    names = seat_names(game)
    state = engine.new_game(len(game.seats), game.options, game.seed)
    for record in actions:
        applied = engine.apply(state, record.seat, record.action)
        if record.actor == "forced":
            lines = [format_event(e, names) for e in applied.events if e.to is None]
            assert lines and all(line in told for line in lines), lines
        state = applied.state

"""Issue 34: a decision with exactly one legal choice is made for the player, at once and in
the same board as the move that led to it, so nobody is asked to click a choice that decides
nothing (Trash War's only "Take the hit", Dumpster Brawl!'s only "Defend")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlmodel import col, select

from bot.database import Database
from bot.models import ActionRecord, GameRecord, OutboxEntry, Status
from bot.outbox import BOARD
from bot.requests import Player, engine_of, format_event, seat_names, seat_of
from bot.sessions import SessionService

CHANNEL, GUILD = 510, 910
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


async def play_at_random(
    service: SessionService, kind: str, seed: int, ai: bool
) -> tuple[GameRecord, list[ActionRecord], list[OutboxEntry]]:
    """Alice and Bob (and an AI seat if `ai`) play a seeded game through the service, each
    person picking at random among their legal actions: after every press no person is left
    waiting on a decision without a choice (one action, or several that are one decision).
    Returns the game, its action log and its boards."""
    game = await service.open_lobby(GUILD, CHANNEL, kind, ALICE, {}, seed=seed)
    game = await service.join(CHANNEL, game.id or 0, BOB)
    if ai:
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
            choices = engine.one_of_each(state, engine.legal_actions(state, seat))
            assert len(choices) > 1, "a person asked for no choice"
        seat = waiting[0]
        user = game.seats[seat].user_id or 0
        assert seat_of(game, user) == seat
        legal = engine.legal_actions(state, seat)
        await service.play_ai(
            await service.act(CHANNEL, game.id or 0, user, game.step, rng.randrange(len(legal)))
        )
    else:
        raise AssertionError("the game did not end")

    async with service.store.db.reading() as session:
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
    return game, list(actions), list(boards)


def forced_and_told(
    game: GameRecord, actions: list[ActionRecord], boards: list[OutboxEntry]
) -> list[tuple[Any, ActionRecord]]:
    """Replays the log: each move made for a player (actor "forced") had no choice, is the
    first of its seat's legal actions, and its public lines are in a board's lines (those
    and no others: they are the action's own lines, `to` None). Returns each forced move
    with the state it was made in."""
    engine = engine_of(game)
    told = [line for board in boards for line in board.payload["lines"]]
    names = seat_names(game)
    state = engine.new_game(len(game.seats), game.options, game.seed)
    forced = []
    for record in actions:
        applied = engine.apply(state, record.seat, record.action)
        if record.actor == "forced":
            legal = engine.legal_actions(state, record.seat)
            assert record.action == legal[0]
            assert len(engine.one_of_each(state, legal)) == 1, legal
            lines = [format_event(e, names) for e in applied.events if e.to is None]
            assert lines and all(line in told for line in lines), lines
            forced.append((state, record))
        state = applied.state
    return forced


@pytest.mark.parametrize(("kind", "seed"), [("trashwar", 3), ("brawl", 5)])
async def test_a_single_choice_is_made_for_the_player_and_told(
    db: Database, kind: str, seed: int
) -> None:
    """Two people and an AI seat play a seeded game through the service, each person
    picking at random among their legal actions: after every press no person is left
    waiting on a decision with one choice, such decisions were made for them (actor
    "forced") and each is told in a board's lines."""
    game, actions, boards = await play_at_random(SessionService(db), kind, seed, ai=True)
    assert forced_and_told(game, actions, boards), "the seed has a single choice"


async def test_a_seat_whose_choices_are_all_identical_is_played_for_them(db: Database) -> None:
    """Issue 55 ("which of several identical cards is not a choice either"): a Trash War
    seat whose every legal move throws Trash of one face (the toaster (2) or the television
    (2)) at the one wall left is not asked: the first of its moves is made for it (actor
    "forced"), told on the board in that move's own public lines."""
    game, actions, boards = await play_at_random(SessionService(db), "trashwar", 4, ai=False)
    forced = forced_and_told(game, actions, boards)
    engine = engine_of(game)
    alike = [
        record for state, record in forced if len(engine.legal_actions(state, record.seat)) > 1
    ]
    assert alike, "the seed has a seat whose choices were all identical cards"

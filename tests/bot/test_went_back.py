"""A press made at a step the game has not reached (issue 57): only a restored backup (or a
forged id) makes one. It is refused with the way forward, and one fresh board of the game
as it stands is written, marked for the poster to take the lost steps' boards off."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from bot.database import Database
from bot.models import OutboxEntry
from bot.requests import UserError
from bot.sessions import SessionService
from rules.rumble import RUMBLE
from tests.bot.test_sessions import ALICE, BOB, CHANNEL, service, started, turn_of

__all__ = ["service"]  # the fixture, shared with test_sessions.py


async def test_a_press_from_a_lost_step_redraws_the_board_once(
    service: SessionService, db: Database
) -> None:
    game = (await started(service, ALICE, BOB)).game
    actor = [ALICE, BOB][turn_of(service, game)]
    legal = RUMBLE.legal_actions(RUMBLE.from_json(game.state), turn_of(service, game))
    for later in (game.step + 3, game.step + 5):  # two boards of lost steps pressed
        with pytest.raises(UserError, match=f"went back to step {game.step} when"):
            await service.act(CHANNEL, game.id, actor.user_id, later, legal[0])
    async with db.reading() as session:
        entries = (await session.exec(select(OutboxEntry).order_by(col(OutboxEntry.id)))).all()
    fresh = [entry for entry in entries if entry.payload.get("restored")]
    assert len(fresh) == 1, "one board, however many old controls are pressed"
    (board,) = fresh
    assert board.step == game.step and board.ready and not board.payload["continues"]
    assert board.payload["mention"] == [actor.user_id]
    assert any("A backup was restored" in line for line in board.payload["lines"])
    after = await service.get(game.id)
    assert after.state == game.state and after.step == game.step
    # The fresh board's controls work: the game goes on from the restored step.
    moved = await service.act(CHANNEL, game.id, actor.user_id, game.step, legal[0])
    assert moved.game.step > game.step

"""A clean stop (issue 12): once the bot is stopping, the session service refuses new requests
with the restarting reason and changes nothing, lets the requests in flight finish, and cuts
an AI chain between two actions; the next start plays the rest."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot import sessions
from bot.database import Database
from bot.requests import RESTARTING, UserError
from bot.sessions import SessionService
from rules.rumble import RUMBLE
from tests.bot.test_sessions import ALICE, BOB, CHANNEL, GUILD, service, started, turn_of

__all__ = ["service"]  # a pytest fixture, imported to be used here

OTHER_CHANNEL = CHANNEL + 1


async def test_a_stopping_service_refuses_every_change_and_changes_nothing(
    service: SessionService,
) -> None:
    """Every changing request gets "the bot is restarting" while it stops; nothing moves."""
    game = (await started(service, ALICE, BOB)).game
    seat = turn_of(service, game)
    player = [ALICE, BOB][seat]
    service.begin_stop()
    with pytest.raises(UserError, match="restarting"):
        await service.act(CHANNEL, game.id, player.user_id, game.step, 0)
    with pytest.raises(UserError, match="restarting"):
        await service.open_lobby(GUILD, OTHER_CHANNEL, "rumble", ALICE, {})
    with pytest.raises(UserError, match="restarting"):
        await service.set_timer(CHANNEL, ALICE, 5)
    after = await service.get(game.id)
    assert (after.step, after.state, after.turn_timer) == (game.step, game.state, game.turn_timer)
    assert await service.current(OTHER_CHANNEL) is None
    assert await service.late_games() == []  # the turn timer waits for the next start


async def test_the_stop_waits_for_the_request_in_flight_and_cuts_its_ai_chain(
    service: SessionService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press already taken finishes (its AI move is saved) and the stop waits for it; a
    request queued behind it in the channel is refused; the AI chain stops between two
    actions and a new service (the next start) plays the AI's remaining turns."""
    game = (await started(service, ALICE, ai=2)).game
    for _ in range(50):  # play until it is Alice's turn with both AI seats after her
        if turn_of(service, game) == 0:
            break
        game = (await service.act(CHANNEL, game.id, ALICE.user_id, game.step, 0)).game
    assert turn_of(service, game) == 0

    thinking, go_on = threading.Event(), threading.Event()
    real_pick = sessions.ai_choice

    def slow_pick(*args):  # the first AI seat thinks until the test lets it go on
        thinking.set()
        go_on.wait(timeout=60)
        return real_pick(*args)

    monkeypatch.setattr(sessions, "ai_choice", slow_pick)

    async def press_then_ai():  # what a press does: the player's move, then the AI's turns
        update = await service.act(CHANNEL, game.id, ALICE.user_id, game.step, 0)
        return await service.play_ai(update)

    press = asyncio.create_task(press_then_ai())
    assert await asyncio.to_thread(thinking.wait, 60)
    queued = asyncio.create_task(service.act(CHANNEL, game.id, ALICE.user_id, game.step, 0))
    await asyncio.sleep(0.05)  # let it reach the channel lock
    assert service.in_flight == 2

    service.begin_stop()
    idle = asyncio.create_task(service.wait_idle())
    await asyncio.sleep(0.05)
    assert not idle.done(), "the stop must wait for the press in flight"
    go_on.set()
    await asyncio.wait_for(idle, timeout=60)

    update = await press
    assert update.game.step == game.step + 2, "Alice's move and one AI move, both saved"
    assert turn_of(service, update.game) != 0, "the AI's other turns wait for the next start"
    with pytest.raises(UserError, match="restarting"):
        await queued
    assert str(RESTARTING).startswith("The bot is restarting")

    restarted = SessionService(db)
    await restarted.resume_all()
    resumed = await restarted.get(game.id)
    assert resumed.step > update.game.step
    assert RUMBLE.to_act(RUMBLE.from_json(resumed.state)) == {0}, "Alice's turn again"

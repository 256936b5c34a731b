"""`SessionService.press`: one press, in the order its player sees it. The service, not the
cog, decides whether the AI's turns come before the presser's answer (so the answer can
carry their next decision) or after it (a move shown on a board of its own)."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.requests import Player
from bot.sessions import SessionService
from rules.rumble import RUMBLE

CHANNEL, GUILD = 500, 900
ALICE = Player(1, "alice")


async def alices_turn(service: SessionService, ai: int = 2) -> tuple[int, int]:
    """A Rumble game of Alice and `ai` AI seats, at a step where Alice is to move: its id
    and that step."""
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=7)
    for _ in range(ai):
        game = await service.add_ai(CHANNEL, game.id or 0, ALICE)
    game = (await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))).game
    for _ in range(50):
        if RUMBLE.to_act(RUMBLE.from_json(game.state)) == {0}:
            return game.id or 0, game.step
        pressed = await service.press(CHANNEL, game.id or 0, 1, game.step, 0, answered=False)
        game = pressed.update.game
    raise AssertionError("Alice never got a turn")


async def test_an_answered_press_waits_for_the_ai_and_carries_the_next_decision(
    db: Database,
) -> None:
    service = SessionService(db)
    game_id, step = await alices_turn(service)
    pressed = await service.press(CHANNEL, game_id, ALICE.user_id, step, 0, answered=True)
    assert pressed.after_answer is None, "the AI has played already"
    game = pressed.update.game
    assert game.step > step + 1  # Alice's move and the AI seats' after it
    assert pressed.seat == 0
    if service.humans_to_act(game) == [0]:
        assert pressed.own_view == RUMBLE.observe(RUMBLE.from_json(game.state), 0)
    else:
        assert pressed.own_view is None


async def test_a_move_on_a_board_of_its_own_is_answered_before_the_ai(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RUMBLE, "board_each_action", True)
    service = SessionService(db)
    game_id, step = await alices_turn(service)
    pressed = await service.press(CHANNEL, game_id, ALICE.user_id, step, 0, answered=True)
    assert pressed.update.board_ready and pressed.after_answer is not None
    assert pressed.update.game.step == step + 1, "only Alice's move before the answer"
    assert pressed.own_view is None  # the AI seats are to move
    await pressed.then()
    assert pressed.after_answer is None
    after = await service.get(game_id)
    assert after is not None and after.step > step + 1


async def test_a_press_on_the_board_plays_the_ai_before_returning(db: Database) -> None:
    service = SessionService(db)
    game_id, step = await alices_turn(service)
    pressed = await service.press(CHANNEL, game_id, ALICE.user_id, step, 0, answered=False)
    assert pressed.after_answer is None and pressed.own_view is None
    assert pressed.update.game.step > step + 1

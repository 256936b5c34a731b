"""A plan: several actions played in one press (`SessionService.act` given a list), so that
a decision that takes the engine several actions ("draw two cards": the declaration and
both draws) takes the player one press. The first action is logged as the player's press,
the rest as "planned", all in one transaction; the first must be open, the rest stop at
the first that is not."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from bot.database import Database
from bot.models import ActionRecord
from bot.requests import Player, UserError
from bot.sessions import SessionService
from rules.brawl import BRAWL

CHANNEL, GUILD = 520, 920
ALICE, BOB, CARL = Player(1, "alice"), Player(2, "bob"), Player(3, "carl")


async def declaring(service: SessionService) -> tuple[int, int, int]:
    """A Round Rummage game of three people at its first declaration: the game's id, its
    step and the user to declare."""
    game = await service.open_lobby(GUILD, CHANNEL, "brawl", ALICE, {}, seed=11)
    for player in (BOB, CARL):
        game = await service.join(CHANNEL, game.id or 0, player)
    game = (await service.start(CHANNEL, game.id or 0, ALICE)).game
    state = BRAWL.from_json(game.state)
    (seat,) = BRAWL.to_act(state)
    assert BRAWL.legal_actions(state, seat)[0].startswith("declare")
    return game.id or 0, game.step, game.seats[seat].user_id or 0


async def logged(db: Database, game_id: int) -> list[tuple[str, str]]:
    async with db.reading() as session:
        rows = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game_id)
            .order_by(col(ActionRecord.step))
        )
        return [(row.actor, row.action) for row in rows.all()]


async def test_a_plan_plays_each_of_its_actions_in_one_press(db: Database) -> None:
    service = SessionService(db)
    game_id, step, user = await declaring(service)
    plan = ["declare draw", "draw trash", "draw trash"]
    update = await service.act(CHANNEL, game_id, user, step, plan)
    assert update.game.step == step + 3
    first, *rest = plan
    actors = [("player", first)] + [("planned", action) for action in rest]
    assert (await logged(db, game_id))[-3:] == actors, "the rest logged as the same press"


async def test_a_plan_stops_at_the_first_action_no_longer_open(db: Database) -> None:
    service = SessionService(db)
    game_id, step, user = await declaring(service)
    # A declared draw allows two: the third is not open, nor is what follows it.
    plan = ["declare draw", "draw trash", "draw trash", "draw trash", "declare draw"]
    update = await service.act(CHANNEL, game_id, user, step, plan)
    assert update.game.step == step + 3
    assert [action for _, action in await logged(db, game_id)][-3:] == plan[:3]


@pytest.mark.parametrize("plan", [["draw trash", "declare draw"], []])
async def test_a_plan_whose_first_action_is_not_open_changes_nothing(
    db: Database, plan: list[str]
) -> None:
    service = SessionService(db)
    game_id, step, user = await declaring(service)
    before = await logged(db, game_id)
    with pytest.raises(UserError):
        await service.act(CHANNEL, game_id, user, step, plan)
    assert await logged(db, game_id) == before
    game = await service.get(game_id)
    assert game is not None and game.step == step

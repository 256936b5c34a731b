"""Dumpster Brawl! in as few presses as its decisions (issue 55), through the fake Discord:
a declared draw of two cards is one press, and a rummage's discards are one pick of
several cards in one menu, played together."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import ActionRecord
from bot.requests import seat_of
from rules.brawl import BRAWL
from rules.brawl.state import State
from tests.e2e.brawl_play import alley_boards, decide, next_board, replied, turn_user_id
from tests.e2e.conftest import Table
from tests.e2e.test_brawl_game import open_brawl
from tests.fakediscord import FakeMessage, FakeUser

Wanted = Callable[[State, int], bool]


async def now(bot: TrashTableBot, user: FakeUser) -> tuple[Any, State, int | None]:
    game: Any = await bot.sessions.current(user.fake.channel.id)
    return game, BRAWL.from_json(game.state), seat_of(game, user.id)


async def logged(bot: TrashTableBot, game_id: int, since: int) -> list[tuple[int, str, str]]:
    """(seat, actor, action) of each action from step `since` on."""
    async with bot.db.reading() as session:
        records = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game_id, ActionRecord.step >= since)
            .order_by(col(ActionRecord.step))
        )
        return [(r.seat, r.actor, r.action) for r in records.all()]


async def reach(bot: TrashTableBot, table: Table, wanted: Wanted) -> tuple[FakeUser, FakeMessage]:
    """Play as the scripted players do until a person's decision is `wanted`: that person
    and the private reply holding the decision."""
    players = {u.id: u for u in table.players}
    for _ in range(100):
        board = alley_boards(table.fake)[-1]
        user = players[turn_user_id(board) or 0]
        seen = len(alley_boards(table.fake))
        opened = await user.click("My hand", message=board, settle=False)
        (reply,) = await replied(user, opened)
        for _ in range(30):
            _, state, seat = await now(bot, user)
            if seat is None or seat not in BRAWL.to_act(state):
                break
            if wanted(state, seat):
                return user, reply
            following = await decide(bot, user, reply)
            if following is None:
                break
            reply = following
        await next_board(table.fake, seen)
        await table.fake.settle()
    raise AssertionError("no such decision came to a person")


async def test_a_declared_draw_of_two_cards_is_one_press(bot: TrashTableBot, table: Table) -> None:
    await open_brawl(table, "round-rummage", 247)
    user, reply = await reach(bot, table, lambda state, seat: state.phase == "declare")
    game, state, seat = await now(bot, user)
    assert seat is not None
    held = len(state.hands[seat])
    versions = len(reply.history)
    await user.press(reply, "Draw 2 cards from the trash pile", settle=False)
    await table.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what="edit")
    _, state, _ = await now(bot, user)
    played = ["declare draw", "draw trash", "draw trash"]
    actors = ["player", "planned", "planned"]  # one press: the rest of it planned
    assert await logged(bot, game.id, game.step) == list(
        zip([seat] * 3, actors, played, strict=True)
    )
    assert len(state.hands[seat]) == held + 2 and state.phase == "attack"
    shown = [b.label or "" for b in reply.buttons] + [s.placeholder or "" for s in reply.selects]
    assert any("Attack" in words for words in shown), shown  # the attack comes next


def rummaging_with_discards(state: State, seat: int) -> bool:
    return state.phase == "rummage" and not state.draws and state.discards >= 2


async def test_a_rummages_discards_are_one_pick_of_several_cards(
    bot: TrashTableBot, table: Table
) -> None:
    await open_brawl(table, "round-rummage", 247)
    user, reply = await reach(bot, table, rummaging_with_discards)
    game, state, seat = await now(bot, user)
    assert seat is not None
    held, left = len(state.hands[seat]), state.discards
    (menu,) = [s for s in reply.selects if "stop rummaging" in (s.placeholder or "")]
    assert menu.max_values == min(state.discards, held)
    versions = len(reply.history)
    await user.select(menu.custom_id, "0", "1", message=reply, settle=False)
    await table.fake.wait_for(lambda: len(reply.history) > versions, timeout=20, what="edit")
    # The two cards discarded, then "done" if discards were left, all in the player's one
    # press: the rummage is over (the AI seats may play on after it).
    played = await logged(bot, game.id, game.step)
    ends = 3 if left > 2 else 2
    actors = [(who, actor) for who, actor, _ in played[:ends]]
    assert actors == [(seat, "player")] + [(seat, "planned")] * (ends - 1)
    assert [action.split()[0] for _, _, action in played[:ends]] == ["discard", "discard", "done"][
        :ends
    ]
    assert all(actor != "player" for _, actor, _ in played[ends:])  # no second press

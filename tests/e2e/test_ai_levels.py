"""The AI's levels end to end (issue 39): in every game the host adds an easy and a hard AI
player with the lobby's own menu, the lobby and the boards name each AI seat with its level,
and the game plays on with both seats acting. Kept short: a few turns, then `/game stop`
(a hard AI's decisions will take about 300 ms each)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlmodel import col, select

from bot.client import TrashTableBot
from bot.models import ActionRecord, GameRecord
from tests.e2e import brawl_play, play, toss_play, trashwar_play
from tests.e2e.conftest import Table
from tests.e2e.play import assert_started
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

EASY, HARD = "Rusty (AI, easy)", "Grime (AI, hard)"  # the names the lobby gives them, in order
TURNS = 8  # at most this many of Alice's turns before both AI seats have acted
# Alice's decisions in one private reply (Trash War, Dumpster Brawl!): with two AI players
# it goes on from her turn to her next one, so it is not played out.
DECISIONS = 4


async def rumble_turn(bot: TrashTableBot, alice: FakeUser, rng: random.Random) -> None:
    board = play.latest_board(alice.fake)
    if play.turn_user_id(board) == alice.id:
        await play.take_turn(alice, board, rng)


async def trashwar_turn(bot: TrashTableBot, alice: FakeUser, rng: random.Random) -> None:
    """A few of Alice's decisions in her private reply, which goes on from her turn to her
    next one while the AI players are quick."""
    board = trashwar_play.battlefields(alice.fake)[-1]
    if trashwar_play.turn_user_id(board) != alice.id:
        return
    opened = await alice.click("My hand", message=board)
    (reply,) = await play.private_reply(alice, opened)
    for _ in range(DECISIONS):
        if not reply.buttons and not reply.selects:
            return  # "Done.": the turn moved on
        reply = await trashwar_play.decide(alice, reply, rng)


async def brawl_turn(bot: TrashTableBot, alice: FakeUser, rng: random.Random) -> None:
    """A few of Alice's decisions in her private reply, as in Trash War."""
    board = brawl_play.alley_boards(alice.fake)[-1]
    if brawl_play.turn_user_id(board) != alice.id:
        return
    opened = await alice.click("My hand", message=board, settle=False)
    (reply,) = await brawl_play.replied(alice, opened)
    for _ in range(DECISIONS):
        following = await brawl_play.decide(bot, alice, reply)
        if following is None or not (following.buttons or following.selects):
            return
        reply = following


async def toss_turn(bot: TrashTableBot, alice: FakeUser, rng: random.Random) -> None:
    await toss_play.play_one(alice.fake, {alice.id: alice}, rng)


@dataclass(frozen=True)
class Game:
    """How the test plays one game (each game's own driver in tests/e2e): its boards, the
    users a board asks to act, and one decision of Alice's."""

    key: str
    boards: Callable[[FakeDiscord], list[FakeMessage]]
    asks: Callable[[FakeMessage], list[int | None]]
    turn: Callable[[TrashTableBot, FakeUser, random.Random], Awaitable[None]]

    def asks_alice(self, table: Table) -> bool:
        """Whether the newest board asks Alice: the AI seats have played their turns."""
        boards = self.boards(table.fake)
        return bool(boards) and table.alice.id in self.asks(boards[-1])


GAMES = [
    Game("rumble", play.boards, lambda board: [play.turn_user_id(board)], rumble_turn),
    Game(
        "trashwar",
        trashwar_play.battlefields,
        lambda board: [trashwar_play.turn_user_id(board)],
        trashwar_turn,
    ),
    Game(
        "brawl",
        brawl_play.alley_boards,
        lambda board: [brawl_play.turn_user_id(board)],
        brawl_turn,
    ),
    Game("toss", toss_play.bin_boards, toss_play.waiting_ids, toss_turn),  # type: ignore[arg-type]
]


async def newest_game(bot: TrashTableBot) -> tuple[GameRecord, list[ActionRecord]]:
    """The channel's newest game and its action log."""
    async with bot.db.reading() as session:
        game = (await session.exec(select(GameRecord).order_by(col(GameRecord.id).desc()))).first()
        assert game is not None
        actions = await session.exec(select(ActionRecord).where(ActionRecord.game_id == game.id))
        return game, list(actions.all())


def acted(actions: list[ActionRecord]) -> set[int]:
    """The seats the AI has decided for (not single choices made for a seat)."""
    return {action.seat for action in actions if action.actor == "ai"}


@pytest.mark.parametrize("game", GAMES, ids=[game.key for game in GAMES])
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_an_easy_and_a_hard_ai_player_take_their_seats_and_play(
    bot: TrashTableBot,
    table: Table,
    fake_discord: FakeDiscord,
    delivered: dict[int, dict[str, Any]],
    game: Game,
) -> None:
    """Issue 39, item 1: "Add AI player…" offers the three levels; the lobby lists each AI
    seat with its level and the host's handover level; the first board names them so; and
    both AI seats play their turns between Alice's."""
    alice = table.alice
    opened = await alice.slash(f"/{game.key} new", seed=5, handover="hard")
    lobby = opened.response
    assert lobby is not None
    menu = next(m for m in lobby.selects if m.placeholder == "Add AI player…")
    assert [o["label"] for o in menu.options] == ["Easy AI", "Normal AI", "Hard AI"]
    await alice.select("Add AI player…", "Easy AI", message=lobby)
    added = await alice.select("Add AI player…", "Hard AI", message=lobby)
    assert not added.ephemeral_text, added
    assert f"2. {EASY}" in lobby.text and f"3. {HARD}" in lobby.text
    assert "A seat a player leaves: the hard AI" in lobby.text
    started = await alice.click("Start", message=lobby)
    assert_started(started)
    rng = random.Random(5)
    for _ in range(TURNS):
        # The AI seats' turns take their time (a hard one searches): wait for Alice's.
        await fake_discord.wait_for(
            lambda: game.asks_alice(table), timeout=60, what="a board asking Alice"
        )
        record, actions = await newest_game(bot)
        if acted(actions) >= {1, 2}:
            break
        await game.turn(bot, alice, rng)
    assert acted(actions) >= {1, 2}, [(a.seat, a.actor) for a in actions]
    assert [seat.level for seat in record.seats] == ["normal", "easy", "hard"]
    first = game.boards(fake_discord)[0]
    assert delivered[int(first.id)]["names"][1:] == [EASY, HARD]  # as its picture has them
    shown = "\n".join(m.text for m in game.boards(fake_discord))
    # A board's lines name the AI seats that acted ("Grime (AI, hard)", Dumpster Brawl!'s
    # "Bandit (Grime, AI, hard)").
    assert "AI, easy)" in shown or "AI, hard)" in shown, shown

    stopped = await alice.slash("/game stop")
    assert "stopped the game" in stopped.text, stopped.text
    assert (await bot.sessions.current(fake_discord.channel.id)) is None

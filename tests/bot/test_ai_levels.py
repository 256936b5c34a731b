"""The AI's levels through the session service (issue 39): each AI seat plays at the level it
was added with, the hard AI thinks on a worker with nothing queued behind it, a seat a
person leaves or times out of goes to the level the host chose (normal unless chosen), and
the turn timer's single stand-in moves stay normal."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot import rows
from bot.database import Database
from bot.models import GameRecord, Seat, Status
from bot.requests import Player, UserError
from bot.sessions import SessionService
from rules.base import Level
from rules.rumble import RUMBLE

CHANNEL, GUILD = 510, 910
ALICE, BOB = Player(1, "alice"), Player(2, "bob")
EASY, HARD = "Rusty (AI, easy)", "Grime (AI, hard)"  # the lobby's first two AI names


class Choices:
    """Every call of Rumble's `choose` as the bot makes it: (the seat deciding, level). The
    pick itself is the normal AI's, whatever the level: these tests are about the level
    reaching the engine, and a hard AI's search takes its time."""

    def __init__(self) -> None:
        self.made: list[tuple[int, Level]] = []
        self.real = RUMBLE.choose

    def __call__(
        self, observation: Any, legal: list[str], rng: random.Random, level: Level = "normal"
    ) -> str:
        self.made.append((observation["seat"], level))
        return self.real(observation, legal, rng)

    def levels_of(self, seat: int) -> set[Level]:
        return {level for s, level in self.made if s == seat}


@pytest.fixture
def choices(monkeypatch: pytest.MonkeyPatch) -> Iterator[Choices]:
    recorder = Choices()
    monkeypatch.setattr(RUMBLE, "choose", recorder)  # the engine the bot's AI calls
    yield recorder


async def lobby(service: SessionService, *levels: str, handover: str | None = None) -> GameRecord:
    """Alice and Bob, then one AI seat per level."""
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=3, handover=handover)
    game = await service.join(CHANNEL, game.id or 0, BOB)
    for level in levels:
        game = await service.add_ai(CHANNEL, game.id or 0, ALICE, level=level)
    return game


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
async def test_each_ai_seat_plays_at_the_level_it_was_added_with(
    db: Database, choices: Choices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39, item 1: the level chosen in the lobby reaches the engine's `choose` for that
    seat's every decision; the hard AI's search goes to the workers as a long job, as a
    heavy game's AI does."""
    service = SessionService(db)
    sent: list[tuple[Any, bool]] = []
    run = service.workers.run

    async def noted(job: Any, *args: Any, long: bool = False) -> Any:
        sent.append((args[-1], long))  # an AI choice's last argument is its level
        return await run(job, *args, long=long)

    monkeypatch.setattr(service.workers, "run", noted)
    game = await lobby(service, "easy", "hard")
    assert [seat.shown_name() for seat in game.seats] == [
        "alice",
        "bob",
        "Rusty (AI, easy)",
        "Grime (AI, hard)",
    ]
    game = (await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))).game
    for _ in range(6):  # a few turns of the people: the AI seats answer each
        seat = next(iter(RUMBLE.to_act(RUMBLE.from_json(game.state))))
        player = (ALICE, BOB)[seat]
        update = await service.act(CHANNEL, game.id or 0, player.user_id, game.step, 0)
        game = (await service.play_ai(update)).game
    assert choices.levels_of(2) == {"easy"} and choices.levels_of(3) == {"hard"}
    assert choices.levels_of(0) == choices.levels_of(1) == set()
    assert ("hard", True) in sent and ("easy", False) in sent
    assert all(long == (level == "hard") for level, long in sent)  # Rumble is not heavy


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
@pytest.mark.parametrize(("handover", "level"), [("hard", "hard"), (None, "normal")])
async def test_a_player_who_leaves_hands_the_seat_to_the_hosts_level(
    db: Database, choices: Choices, handover: str | None, level: Level
) -> None:
    """Issue 39, item 1 (handover): `/game leave` gives the seat to the AI at the level the
    host chose when opening the lobby, normal when they chose none."""
    service = SessionService(db)
    game = await lobby(service, "easy", handover=handover)
    await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))
    update = await service.hand_to_ai(CHANNEL, BOB, BOB.user_id)
    assert update.game.seats[1].ai and update.game.seats[1].level == level
    assert update.game.seats[1].shown_name() == "bob"  # the lines say who took over
    choices.made.clear()
    game = (await service.play_ai(update)).game
    for _ in range(4):  # Alice plays on until Bob's seat has had a turn
        if choices.levels_of(1):
            break
        update = await service.act(CHANNEL, game.id or 0, ALICE.user_id, game.step, 0)
        game = (await service.play_ai(update)).game
    assert choices.levels_of(1) == {level} and choices.levels_of(2) == {"easy"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
async def test_the_timer_stands_in_at_normal_then_hands_over_at_the_hosts_level(
    db: Database, choices: Choices
) -> None:
    """House rule and issue 39: the AI playing one late decision plays it at normal (it is
    not the player's opponent); after three timeouts in a row the seat is the AI's, at the
    host's handover level."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    service = SessionService(db, clock=lambda: now)
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=3, handover="easy")
    game = await service.add_ai(CHANNEL, game.id or 0, ALICE, level="hard")
    await service.set_timer(CHANNEL, ALICE, 2)
    update = await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))
    for _ in range(2):
        now += timedelta(minutes=2, seconds=1)
        (late,) = await service.late_games()
        choices.made.clear()
        update = await service.play_for_late(late)
        assert update is not None and not update.game.seats[0].ai
        assert choices.levels_of(0) == {"normal"} and choices.levels_of(1) <= {"hard"}
    now += timedelta(minutes=2, seconds=1)
    (late,) = await service.late_games()
    choices.made.clear()
    update = await service.play_for_late(late)
    assert update is not None
    alice = update.game.seats[0]
    assert alice.ai and alice.level == "easy"
    # The third late decision itself was the timer's (normal); Alice's seat plays on at easy.
    assert choices.made[0] == (0, "normal")
    assert {level for seat, level in choices.made[1:] if seat == 0} == {"easy"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
async def test_levels_are_checked_and_kept_for_a_rematch(db: Database) -> None:
    """Only the three levels are accepted; a rematch seats the same AI players at the same
    levels and keeps the host's handover level."""
    service = SessionService(db)
    with pytest.raises(UserError, match="easy, normal, hard"):
        await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, handover="expert")
    game = await lobby(service, "hard", handover="easy")
    with pytest.raises(UserError, match="easy, normal, hard"):
        await service.add_ai(CHANNEL, game.id or 0, ALICE, level="impossible")
    game = await service.add_ai(CHANNEL, game.id or 0, ALICE, level="easy")
    update = await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))
    assert update.game.seats[2].level == "hard" and update.game.seats[3].level == "easy"
    async with db.writing() as connection:  # as if it had been played to the end
        await connection.execute(
            rows.GAMES.update().where(rows.GAMES.c.id == game.id).values(status=Status.FINISHED)
        )
    again = await service.rematch(CHANNEL, game.id or 0, ALICE)
    assert [seat.level for seat in again.seats] == ["normal", "normal", "hard", "easy"]
    assert again.handover_level == "easy"


def test_an_ai_seat_shows_its_level_and_a_person_their_name() -> None:
    """Issue 39, item 1: "Grime (AI, hard)" wherever AI seats are named; the bot's last
    resort name ("AI 9") gets its level too; people keep their names."""
    assert Seat(user_id=None, name="Grime (AI)", ai=True, level="hard").shown_name() == (
        "Grime (AI, hard)"
    )
    assert Seat(user_id=None, name="Rusty (AI)", ai=True).shown_name() == "Rusty (AI, normal)"
    assert Seat(user_id=None, name="AI 9", ai=True, level="easy").shown_name() == "AI 9 (easy)"
    assert Seat(user_id=5, name="bob", ai=True, level="hard").shown_name() == "bob"
    assert Seat(user_id=5, name="bob").shown_name() == "bob"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
async def test_the_results_and_standings_name_each_ai_seat_with_its_level(
    db: Database, choices: Choices
) -> None:
    """Issue 39, item 1: a finished game's standings (its last board) and its results (the
    history) say which AI played at which level; a person's seat keeps their name."""
    service = SessionService(db)
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=3)
    for level in ("easy", "hard"):
        game = await service.add_ai(CHANNEL, game.id or 0, ALICE, level=level)
    await service.play_ai(await service.start(CHANNEL, game.id or 0, ALICE))
    # Alice leaves: the AI plays all three seats to the end.
    update = await service.play_ai(await service.hand_to_ai(CHANNEL, ALICE, ALICE.user_id))
    assert update.finished and update.standings is not None
    assert {s["name"] for s in update.standings} == {"alice", EASY, HARD}
    ((_, results),) = await service.history(GUILD)
    assert {r.name for r in results} == {"alice", EASY, HARD}

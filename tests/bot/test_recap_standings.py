"""The final standings on a finished game's last board (issue 15, item 1): every seat best
first with its points and its rating change on this server, computed in the transaction of
the last action and kept in the last board's outbox entry, so a board delivered later (after
a restart, or after other games have moved the ratings) shows the same figures."""

from __future__ import annotations

import random

import pytest
from sqlmodel import select

from bot.database import Database
from bot.models import GameRecord, OutboxEntry, RatingRecord, ResultRecord, Status
from bot.outbox import BOARD
from bot.ratings import MODEL
from bot.sessions import SessionService
from cogs.shared.standings import standings_lines
from rules.rumble import RUMBLE
from rules.rumble.state import State
from tests.bot.test_sessions import ALICE, BOB, CAROL, outbox, play_out, started

SEATS = [ALICE, BOB, CAROL, ALICE]  # by seat; the fourth is an AI player


@pytest.fixture
def service(db: Database) -> SessionService:
    return SessionService(db)


async def ratings_now(db: Database) -> dict[int, float]:
    """Each player's Rumble rating as the scoreboard shows it (mu - 3 sigma)."""
    async with db.reading() as session:
        records = await session.exec(select(RatingRecord).where(RatingRecord.kind == "rumble"))
        return {r.user_id: MODEL.rating(mu=r.mu, sigma=r.sigma).ordinal() for r in records}


async def last_board(db: Database, game_id: int) -> OutboxEntry:
    return [e for e in await outbox(db) if e.game_id == game_id and e.kind == BOARD][-1]


def fight_first(state: State, seat: int, rng: random.Random) -> str:
    """A fight when there is one (so the game ends), else any legal move."""
    legal = RUMBLE.legal_actions(state, seat)
    return rng.choice([a for a in legal if a.startswith("fight")] or legal)


async def finished_game(service: SessionService, db: Database, seed: int) -> int:
    """Alice, Bob, Carol and an AI player finish a Rumble through the service. To keep the
    test short the game is first moved on, through the engine alone, to the last turn a
    person takes: the finishing moves are the service's."""
    game = (await started(service, ALICE, BOB, CAROL, ai=1, seed=seed)).game
    state = near_end = RUMBLE.from_json(game.state)
    rng = random.Random(seed)
    for _ in range(5000):
        if RUMBLE.outcome(state) is not None:
            break
        (seat,) = RUMBLE.to_act(state)
        if not game.seats[seat].ai:
            near_end = state
        state = RUMBLE.apply(state, seat, fight_first(state, seat, rng)).state
    async with db.transaction() as session:
        row = await session.get(GameRecord, game.id)
        assert row is not None
        row.state, row.step = RUMBLE.to_json(near_end), RUMBLE.step(near_end)
        session.add(row)
    game = await play_out(service, game, SEATS)
    assert game.status == Status.FINISHED and game.id is not None
    return game.id


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the service's own work
async def test_the_last_board_keeps_the_standings_and_each_rating_change(
    service: SessionService, db: Database
) -> None:
    fresh = MODEL.rating().ordinal()
    first = await finished_game(service, db, 7)
    after_first = await ratings_now(db)
    kept = (await last_board(db, first)).payload["standings"]

    # Every seat once, best first (seat order among equals), as the results have them.
    async with db.reading() as session:
        results = (await session.exec(select(ResultRecord))).all()
    in_order = sorted(results, key=lambda r: (r.rank, r.seat))
    assert [(s["seat"], s["name"], s["rank"], s["points"]) for s in kept] == [
        (r.seat, r.name, r.rank, r.points) for r in in_order
    ]
    # A rated player's change is the move of the scoreboard's number; the AI has none.
    changes = {s["seat"]: s["change"] for s in kept}
    assert changes[3] is None and [s["ai"] for s in kept].count(True) == 1
    for seat, player in enumerate(SEATS[:3]):
        assert changes[seat] == pytest.approx(after_first[player.user_id] - fresh)
        assert kept[[s["seat"] for s in kept].index(seat)].get("rating") == pytest.approx(
            after_first[player.user_id]
        )
    assert any(abs(change) >= 0.05 for change in changes.values() if change is not None)

    # A second game moves the ratings on: its board has the change from where they stood,
    # and the first board still keeps the figures of its own game.
    second = await finished_game(service, db, 8)
    after_second = await ratings_now(db)
    moved = {s["seat"]: s["change"] for s in (await last_board(db, second)).payload["standings"]}
    for seat, player in enumerate(SEATS[:3]):
        user = player.user_id
        assert moved[seat] == pytest.approx(after_second[user] - after_first[user])
    assert (await last_board(db, first)).payload["standings"] == kept

    # The board's text lists them: one line a seat, the rating only for rated seats.
    lines = standings_lines(kept)
    assert lines[0] == "**Final standings**" and len(lines) == 1 + len(kept)
    for line, standing in zip(lines[1:], kept, strict=True):
        assert standing["name"] in line
        assert ("rating " in line) == (standing["change"] is not None)
        if standing["change"] is not None:  # in words: "rating 27.4, +3.4"
            assert f"rating {standing.get('rating'):.1f}, " in line, line

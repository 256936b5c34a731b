"""The session service: lobby rules, turn checks, saving, restarts, the turn timer, ratings.

These run the real engine without Discord, on a real SQLite file and again on a real
PostgreSQL database (the `database_url` fixture, tests/postgres.py).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import func, select

from bot.database import Database
from bot.models import ActionRecord, GameRecord, RatingRecord, ResultRecord, Status
from bot.sessions import (
    Player,
    SessionService,
    UserError,
    format_event,
    notes_since_last_move,
    seat_names,
)
from bot.settings import async_database_url
from rules.base import rng_for
from rules.brawl import BRAWL
from rules.rumble import RUMBLE

CHANNEL, GUILD = 500, 900
ALICE, BOB, CAROL, DAVE = (
    Player(i, n) for i, n in [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")]
)
MOD = Player(9, "mod", can_manage=True)


@pytest.fixture
async def db(database_url: str):
    database = Database(async_database_url(database_url))
    await database.migrate()
    yield database
    await database.close()


@pytest.fixture
def service(db: Database) -> SessionService:
    return SessionService(db)


async def lobby(
    service: SessionService, *players: Player, ai: int = 0, seed: int = 7
) -> GameRecord:
    game = await service.open_lobby(GUILD, CHANNEL, "rumble", players[0], {}, seed=seed)
    for player in players[1:]:
        game = await service.join(CHANNEL, game.id, player)
    for _ in range(ai):
        game = await service.add_ai(CHANNEL, game.id, players[0])
    return game


async def started(service: SessionService, *players: Player, ai: int = 0, seed: int = 7):
    game = await lobby(service, *players, ai=ai, seed=seed)
    return await service.start(CHANNEL, game.id, players[0])


def turn_of(service: SessionService, game: GameRecord) -> int:
    (seat,) = RUMBLE.to_act(RUMBLE.from_json(game.state))
    return seat


async def test_one_game_per_channel(service: SessionService) -> None:
    """A second /... new in a busy channel is refused and says so (issue: one game per channel)."""
    await lobby(service, ALICE)
    with pytest.raises(UserError, match="already has a game"):
        await service.open_lobby(GUILD, CHANNEL, "rumble", BOB, {})


async def test_full_lobby_and_double_join_are_refused(service: SessionService) -> None:
    """Rumble seats at most six (house rules: 3 to 6, 2 unofficial)."""
    game = await lobby(service, ALICE, ai=5)
    assert len(game.seats) == 6
    with pytest.raises(UserError, match="full"):
        await service.join(CHANNEL, game.id, BOB)
    with pytest.raises(UserError, match="already"):
        await service.join(CHANNEL, game.id, ALICE)


async def test_start_is_for_the_host_with_enough_players(service: SessionService) -> None:
    game = await lobby(service, ALICE)
    with pytest.raises(UserError, match="at least 2"):
        await service.start(CHANNEL, game.id, ALICE)
    game = await service.join(CHANNEL, game.id, BOB)
    with pytest.raises(UserError, match="Only the host"):
        await service.start(CHANNEL, game.id, BOB)
    update = await service.start(CHANNEL, game.id, ALICE)
    assert update.game.status == Status.PLAYING


async def test_cancel_by_host_or_channel_manager_only(service: SessionService) -> None:
    game = await lobby(service, ALICE, BOB)
    with pytest.raises(UserError, match="Only the host"):
        await service.cancel(CHANNEL, game.id, BOB)
    game = await service.cancel(CHANNEL, game.id, MOD)
    assert game.status == Status.STOPPED
    assert await service.current(CHANNEL) is None


async def test_bad_option_and_seed_are_refused(service: SessionService) -> None:
    with pytest.raises(UserError, match="layout"):
        await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {"layout": "castle"})
    with pytest.raises(UserError, match="seed"):
        await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=-1)
    assert await service.current(CHANNEL) is None


async def test_refusals_change_nothing(service: SessionService, db: Database) -> None:
    """Not your turn, not in the game, a stale step, an illegal move: refused, nothing saved."""
    update = await started(service, ALICE, BOB, CAROL)
    game = update.game
    seat = turn_of(service, game)
    actor = [ALICE, BOB, CAROL][seat]
    other = [ALICE, BOB, CAROL][(seat + 1) % 3]
    legal = RUMBLE.legal_actions(RUMBLE.from_json(game.state), seat)
    attempts = [
        (other.user_id, game.step, legal[0], "not your turn"),
        (DAVE.user_id, game.step, legal[0], "not playing"),
        (actor.user_id, game.step + 1, legal[0], "out of date"),
        (actor.user_id, game.step, "fly knight", "not a move"),
    ]
    for user_id, step, action, reason in attempts:
        with pytest.raises(UserError, match=f"(?i){reason}"):
            await service.act(CHANNEL, game.id, user_id, step, action)
    after = await service.get(game.id)
    assert after.state == game.state and after.step == game.step
    async with db.reading() as session:
        count = (await session.exec(select(func.count()).select_from(ActionRecord))).one()
    assert count == 0


async def test_two_clicks_at_once_apply_once(service: SessionService) -> None:
    """The channel lock: the same button pressed twice at once is applied once."""
    update = await started(service, ALICE, BOB, CAROL)
    game = update.game
    seat = turn_of(service, game)
    actor = [ALICE, BOB, CAROL][seat]
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), seat)[0]
    results = await asyncio.gather(
        service.act(CHANNEL, game.id, actor.user_id, game.step, action),
        service.act(CHANNEL, game.id, actor.user_id, game.step, action),
        return_exceptions=True,
    )
    assert sum(isinstance(r, UserError) for r in results) == 1
    assert (await service.get(game.id)).step == game.step + 1


async def play_out(service: SessionService, game: GameRecord, players: list[Player]) -> GameRecord:
    """Humans play the first legal action until the game ends."""
    for _ in range(5000):
        game = await service.get(game.id)
        if game.status != Status.PLAYING:
            return game
        seat = turn_of(service, game)
        legal = RUMBLE.legal_actions(RUMBLE.from_json(game.state), seat)
        fights = [a for a in legal if a.startswith("fight")]
        await service.act(CHANNEL, game.id, players[seat].user_id, game.step, (fights or legal)[0])
    raise AssertionError("the game did not end")


async def test_a_whole_game_saves_results_and_ratings(
    service: SessionService, db: Database
) -> None:
    """A finished game writes one result per seat; AI seats are never rated (issue 2)."""
    update = await started(service, ALICE, BOB, CAROL, ai=1)
    game = await play_out(service, update.game, [ALICE, BOB, CAROL, ALICE])
    assert game.status == Status.FINISHED
    async with db.reading() as session:
        results = (await session.exec(select(ResultRecord))).all()
        ratings = (await session.exec(select(RatingRecord))).all()
        actions = (await session.exec(select(func.count()).select_from(ActionRecord))).one()
    assert len(results) == 4
    assert [r.rated for r in sorted(results, key=lambda r: r.seat)] == [True, True, True, False]
    assert {r.user_id for r in ratings} == {1, 2, 3}
    assert {r.kind for r in ratings} == {"rumble", "all"}
    assert actions == game.step
    board = await service.scoreboard(GUILD, "rumble")
    assert {line.user_id for line in board} == {1, 2, 3}
    assert any(r.rank == 0 for r in results)
    human_wins = {r.user_id: int(r.rank == 0) for r in results if r.rated}
    assert {line.user_id: line.wins for line in board} == human_wins
    assert {line.user_id: line.points for line in board} == {
        r.user_id: r.points for r in results if r.rated
    }


async def test_a_new_service_on_the_same_database_resumes(db: Database) -> None:
    """Nothing is lost on a restart: a fresh service continues from the last saved step."""
    first = SessionService(db)
    update = await started(first, ALICE, BOB)
    game = update.game
    second = SessionService(db)
    resumed = await second.current(CHANNEL)
    assert resumed.id == game.id and resumed.state == game.state
    seat = turn_of(second, resumed)
    action = RUMBLE.legal_actions(RUMBLE.from_json(resumed.state), seat)[0]
    after = await second.act(CHANNEL, game.id, [ALICE, BOB][seat].user_id, resumed.step, action)
    assert after.game.step == game.step + 1


async def test_timer_plays_for_the_late_and_three_in_a_row_hand_the_seat_over(
    db: Database,
) -> None:
    """House rule: the AI plays a late player's decision; after three timeouts in a row it
    keeps the seat and the seat is no longer rated."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    service = SessionService(db, clock=lambda: now)
    game = await lobby(service, ALICE, ai=1)
    await service.set_timer(CHANNEL, ALICE, 2)
    update = await service.start(CHANNEL, game.id, ALICE)
    for timeout in range(1, 4):
        game = await service.get(update.game.id)
        assert game.turn_deadline is not None and turn_of(service, game) == 0
        assert await service.late_games() == []
        now += timedelta(minutes=2, seconds=1)
        (late,) = await service.late_games()
        update = await service.play_for_late(late)
        assert any("ran out of time" in e.text or "three turns" in e.text for e in update.events)
        seat = update.game.seats[0]
        assert seat["timeouts"] == timeout
        if timeout < 3:
            assert not seat["ai"]
    assert update.game.seats[0]["ai"] and not update.game.seats[0]["rated"]
    assert update.game.status == Status.FINISHED  # only AI seats left: they play to the end


async def test_what_another_players_move_told_you_waits_for_your_next_look(
    service: SessionService,
) -> None:
    """Dumpster Brawl! tells a player alone when a card leaves or enters their hand by
    someone else's move (a card taken, a Slug given). That player was not pressing, so the
    note is kept in their seat, saved with the action, and shown in "My hand" until their
    own next move; what a press told the presser reaches their own reply instead."""
    players = [ALICE, BOB, CAROL]
    game = await service.open_lobby(GUILD, CHANNEL, "brawl", ALICE, {}, seed=11)
    for player in players[1:]:
        game = await service.join(CHANNEL, game.id, player)
    game = (await service.start(CHANNEL, game.id, ALICE)).game
    told_others = 0
    for _ in range(2000):
        if game.status != Status.PLAYING or told_others >= 3:
            break
        state = BRAWL.from_json(game.state)
        (seat,) = BRAWL.to_act(state)
        legal = BRAWL.legal_actions(state, seat)
        action = BRAWL.choose(BRAWL.observe(state, seat), legal, rng_for(11, "x", game.step, seat))
        update = await service.act(CHANNEL, game.id, players[seat].user_id, game.step, action)
        game = await service.get(game.id)  # as saved
        assert notes_since_last_move(game, seat) == []  # the presser's own notes are spent
        for event in update.events:
            if event.to is None or event.to == seat:
                continue
            told_others += 1
            line = format_event(event, seat_names(game))
            assert line in notes_since_last_move(game, event.to)
            assert line not in update.private_lines(seat)  # not on the presser's reply
    assert told_others >= 3


async def test_show_part_sees_each_move_before_the_next_ai_move(
    service: SessionService, db: Database
) -> None:
    """A game shown one move per board (Toss It's drops, issue 5: the channel shows the bin
    after each drop) gets the player's own move before any AI seat acts, then each AI move
    on its own; what `act` returns is only the part not yet shown. A part that fails to
    show must not stop the AI's turns."""
    update = await started(service, ALICE, ai=2)
    game = update.game
    shown: list[tuple[int, list[str]]] = []  # (the step shown, its events)

    async def show_part(part) -> bool:
        shown.append((part.game.step, [event.text for event in part.events]))
        if len(shown) == 2:
            raise RuntimeError("Discord is having a bad day")
        return True

    for _ in range(50):
        if turn_of(service, game) == 0:
            break
        game = (await service.act(CHANNEL, game.id, ALICE.user_id, game.step, 0)).game
    assert turn_of(service, game) == 0
    step = game.step
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    rest = await service.act(CHANNEL, game.id, ALICE.user_id, step, action, show_part)
    after = await service.get(game.id)
    ai_moves = after.step - step - 1
    assert ai_moves >= 2, "the two AI seats play after Alice"
    # A part is offered before each AI move: Alice's own move first, alone.
    assert [step for step, _ in shown] == list(range(step + 1, step + 1 + ai_moves))
    alice = RUMBLE.apply(RUMBLE.from_json(game.state), 0, action).events
    assert shown[0][1] == [event.text for event in alice]
    # The second part failed to show, so it rides on at the head of the next one.
    later = shown[2][1] if ai_moves > 2 else [event.text for event in rest.events]
    assert shown[1][1] and later[: len(shown[1][1])] == shown[1][1]
    # Every event of the request reaches exactly one shown part or the rest, in order.
    state, replayed = RUMBLE.from_json(game.state), []
    async with db.reading() as session:
        query = select(ActionRecord).where(ActionRecord.step >= step).order_by(ActionRecord.step)
        for record in (await session.exec(query)).all():
            applied = RUMBLE.apply(state, record.seat, record.action)
            state, replayed = applied.state, replayed + [e.text for e in applied.events]
    shown_ok = [text for index, (_, texts) in enumerate(shown) if index != 1 for text in texts]
    assert shown_ok + [event.text for event in rest.events] == replayed
    assert rest.game.step == after.step
    assert after.status != Status.PLAYING or turn_of(service, after) == 0

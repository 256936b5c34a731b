"""The session service: lobby rules, turn checks, saving, restarts, the turn timer, ratings.

These run the real engine without Discord, on a real SQLite file and again on a real
PostgreSQL database (the `database_url` fixture, tests/postgres.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import func, select

from bot import sessions
from bot.database import Database
from bot.models import (
    ActionRecord,
    GameRecord,
    OutboxEntry,
    RatingRecord,
    ResultRecord,
    Status,
)
from bot.requests import Player, UserError, format_event, notes_since_last_move, seat_names
from bot.sessions import SessionService
from rules.base import rng_for
from rules.brawl import BRAWL
from rules.rumble import RUMBLE

CHANNEL, GUILD = 500, 900
ALICE, BOB, CAROL, DAVE = (
    Player(i, n) for i, n in [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")]
)
MOD = Player(9, "mod", can_manage=True)


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
    return await service.play_ai(await service.start(CHANNEL, game.id, players[0]))


async def press(service: SessionService, game_id: int, user_id: int, step: int, action):
    """A press as the cogs make it: the player's move, then the AI seats' turns after it."""
    return await service.play_ai(await service.act(CHANNEL, game_id, user_id, step, action))


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


@pytest.mark.parametrize(
    ("seed", "timer", "named"),
    [("abc", None, "seed"), (True, None, "seed"), (1.0, None, "seed"), (None, 1.5, "timer")],
)
async def test_seed_and_timer_of_the_wrong_type_are_refused(
    service: SessionService, seed: object, timer: object, named: str
) -> None:
    """A seed or turn timer is a whole number, not text, 1.5 or True, whatever the caller
    passes: refused with a reason, no lobby opened (issue 11)."""
    with pytest.raises(UserError, match=named):
        await service.open_lobby(GUILD, CHANNEL, "rumble", ALICE, {}, seed=seed, timer=timer)
    assert await service.current(CHANNEL) is None


async def test_add_ai_from_a_lobby_that_has_changed_adds_nothing(service: SessionService) -> None:
    """An "Add AI player" press made when the lobby had n seats adds a seat only while it
    still has n: a double click adds one (issue 11). Without a count, it always adds."""
    game = await lobby(service, ALICE)
    game = await service.add_ai(CHANNEL, game.id, ALICE, seats=1)
    with pytest.raises(UserError, match="changed"):
        await service.add_ai(CHANNEL, game.id, ALICE, seats=1)
    assert len((await service.get(game.id)).seats) == 2
    game = await service.add_ai(CHANNEL, game.id, ALICE, seats=2)
    game = await service.add_ai(CHANNEL, game.id, ALICE)
    assert len(game.seats) == 4


async def test_refusals_change_nothing(service: SessionService, db: Database) -> None:
    """Not your turn, not in the game, a stale or future step, an illegal move: refused,
    nothing saved."""
    update = await started(service, ALICE, BOB, CAROL)
    game = update.game
    seat = turn_of(service, game)
    actor = [ALICE, BOB, CAROL][seat]
    other = [ALICE, BOB, CAROL][(seat + 1) % 3]
    legal = RUMBLE.legal_actions(RUMBLE.from_json(game.state), seat)
    attempts = [
        (other.user_id, game.step, legal[0], "not your turn"),
        (DAVE.user_id, game.step, legal[0], "not playing"),
        (actor.user_id, game.step - 1, legal[0], "out of date"),
        # A step the game has not reached: only after a restored backup (issue 57).
        (actor.user_id, game.step + 1, legal[0], f"went back to step {game.step} "),
        (actor.user_id, game.step, "fly knight", "not a move"),
    ]
    for user_id, step, action, reason in attempts:
        with pytest.raises(UserError, match=f"(?i){reason}"):
            await service.act(CHANNEL, game.id, user_id, step, action)
    # Out of turn, the refusal says whose turn it is.
    with pytest.raises(UserError, match=f"not your turn: {actor.name} is to play"):
        await service.act(CHANNEL, game.id, other.user_id, game.step, legal[0])
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
        await press(service, game.id, players[seat].user_id, game.step, (fights or legal)[0])
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
    update = await service.play_ai(await service.start(CHANNEL, game.id, ALICE))
    for timeout in range(1, 4):
        game = await service.get(update.game.id)
        assert game.turn_deadline is not None and turn_of(service, game) == 0
        assert await service.late_games() == []
        now += timedelta(minutes=2, seconds=1)
        (late,) = await service.late_games()
        update = await service.play_for_late(late)
        assert any(
            "ran out of time" in str(e.text) or "three turns" in str(e.text) for e in update.events
        )
        seat = update.game.seats[0]
        assert seat.timeouts == timeout
        if timeout < 3:
            assert not seat.ai
    assert update.game.seats[0].ai and not update.game.seats[0].rated
    assert update.game.status == Status.FINISHED  # only AI seats left: they play to the end


async def test_the_timer_lets_the_ai_think_outside_the_transaction(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the AI thinks for a late player (a Toss It pick tries many drops), other
    channels' writes go on: on SQLite, whose one writer would otherwise wait for it."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    service = SessionService(db, clock=lambda: now)
    game = await lobby(service, ALICE, ai=1)
    await service.set_timer(CHANNEL, ALICE, 2)
    update = await service.play_ai(await service.start(CHANNEL, game.id, ALICE))
    now += timedelta(minutes=2, seconds=1)
    (late,) = await service.late_games()
    thinking, done_thinking = asyncio.Event(), asyncio.Event()
    pick = service._ai_pick

    async def slow_pick(*args: object) -> str:
        thinking.set()
        await done_thinking.wait()
        return await pick(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "_ai_pick", slow_pick)
    timer = asyncio.create_task(service.play_for_late(late))
    await thinking.wait()
    # Deadlock guard only: with the pick inside the transaction this write never starts.
    other = await asyncio.wait_for(
        service.open_lobby(GUILD, CHANNEL + 1, "rumble", BOB, {}, seed=1), timeout=20
    )
    assert other.status == Status.LOBBY
    done_thinking.set()
    update = await timer
    assert update is not None and update.game.step > late.step
    assert update.game.seats[0].timeouts == 1


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


async def outbox(db: Database) -> list[OutboxEntry]:
    async with db.reading() as session:
        return list((await session.exec(select(OutboxEntry).order_by(OutboxEntry.id))).all())


def replayed_lines(game: GameRecord, records: list[ActionRecord], state) -> list[str]:
    """The public log lines of these actions, applied again from `state`."""
    lines = []
    for record in records:
        applied = RUMBLE.apply(state, record.seat, record.action)
        state = applied.state
        lines += [format_event(e, seat_names(game)) for e in applied.events if e.to is None]
    return lines


async def actions_from(db: Database, step: int) -> list[ActionRecord]:
    async with db.reading() as session:
        query = select(ActionRecord).where(ActionRecord.step >= step).order_by(ActionRecord.step)
        return list((await session.exec(query)).all())


async def alices_turn(service: SessionService, game: GameRecord) -> GameRecord:
    for _ in range(50):
        if turn_of(service, game) == 0:
            return game
        game = (await press(service, game.id, ALICE.user_id, game.step, 0)).game
    raise AssertionError("Alice never got a turn")


async def test_a_press_and_the_ai_moves_after_it_make_one_board(
    service: SessionService, db: Database
) -> None:
    """Issue 12 (nothing stuck): what a press shows is written in the outbox with the action
    itself. In a game shown one board per press, the player's move and the AI's moves after
    it share one entry, held back (not ready) until the last AI move is saved, so a crash in
    between never posts half of it; it carries the public view, never a hand or a seed."""
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    before = len(await outbox(db))
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    update = await service.act(CHANNEL, game.id, ALICE.user_id, game.step, action)
    (entry,) = (await outbox(db))[before:]
    assert not entry.ready and not update.board_ready, "the AI seats are still to move"
    assert entry.step == game.step + 1
    await service.play_ai(update)
    (entry,) = (await outbox(db))[before:]
    after = await service.get(game.id)
    assert entry.ready and entry.step == after.step > game.step + 1
    lines = replayed_lines(game, await actions_from(db, game.step), RUMBLE.from_json(game.state))
    assert entry.payload["lines"] == lines and lines
    assert entry.payload["since"] == game.step
    assert entry.payload["view"] == RUMBLE.observe(RUMBLE.from_json(after.state), None)
    assert str(after.seed) not in json.dumps(entry.payload)
    if after.status == Status.PLAYING:
        assert entry.payload["waiting"] == [0] and entry.payload["mention"] == [ALICE.user_id]


async def test_a_game_shown_each_action_apart_gets_an_entry_per_action(
    service: SessionService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 5 / 12: a game whose channel shows every action apart (Toss It's drops; here
    Rumble told to) gets one ready entry per action, the player's own move first, each
    with that action's lines only."""
    monkeypatch.setattr(RUMBLE, "board_each_action", True)
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    before = len(await outbox(db))
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    update = await service.act(CHANNEL, game.id, ALICE.user_id, game.step, action)
    assert update.board_ready
    await service.play_ai(update)
    entries = (await outbox(db))[before:]
    records = await actions_from(db, game.step)
    assert len(entries) == len(records) >= 3  # Alice, then the two AI seats at least
    assert all(entry.ready for entry in entries)
    assert [entry.step for entry in entries] == [r.step + 1 for r in records]
    state = RUMBLE.from_json(game.state)
    for entry, record in zip(entries, records, strict=True):
        assert entry.payload["lines"] == replayed_lines(game, [record], state)
        state = RUMBLE.apply(state, record.seat, record.action).state


async def test_a_crash_before_the_ai_moves_is_finished_by_resume_all(db: Database) -> None:
    """Issue 12: a process that dies after a press is saved but before the AI's moves (or
    between two of them) leaves the board held back; the next process's `resume_all`
    plays the AI's moves into that same board and lets it go, woken by the signal."""
    first = SessionService(db)
    game = await alices_turn(first, (await started(first, ALICE, ai=2)).game)
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    await first.act(CHANNEL, game.id, ALICE.user_id, game.step, action)  # then "killed"
    held = (await outbox(db))[-1]
    assert not held.ready
    second = SessionService(db)
    assert [e for e, _game in await second.outbox.pending(CHANNEL)] == [
        e for e in await outbox(db) if e.id < held.id
    ]
    await second.resume_all()
    assert await asyncio.wait_for(second.outbox.signal.wait(), 1) == {CHANNEL}
    entry = (await outbox(db))[-1]
    assert entry.id == held.id and entry.ready
    assert entry.step == (await second.get(game.id)).step


async def test_a_chain_of_ai_turns_over_the_limit_pauses_and_goes_on(
    service: SessionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is stuck: AI turns in a row past MAX_AI_CHAIN are saved as far as they went,
    and the rest are owed and played by `play_owed_ai` (the table's loop), not left waiting
    for a press that nobody can make."""
    monkeypatch.setattr(sessions, "MAX_AI_CHAIN", 1)
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    game = (await press(service, game.id, ALICE.user_id, game.step, action)).game
    assert turn_of(service, game) != 0 and game.id in service.ai_owed  # paused, owed
    waits = []
    for _ in range(10):  # each round plays one AI turn, then owes the next
        if game.id not in service.ai_owed:
            break
        waits.append(service.ai_owed[game.id][1])
        service.ai_owed[game.id] = (0.0, waits[-1])  # its wait is over
        await service.play_owed_ai()
    # Chains one after another with no person's move between them wait longer each time.
    assert waits == [sessions.AI_RETRY_FIRST, 2 * sessions.AI_RETRY_FIRST]
    game = await service.get(game.id)
    assert turn_of(service, game) == 0 and game.id not in service.ai_owed


@pytest.mark.parametrize("back", [True, False], ids=["database back", "still out"])
async def test_an_ai_turn_owed_for_an_outage_waits_for_the_database_not_its_back_off(
    service: SessionService, monkeypatch: pytest.MonkeyPatch, back: bool
) -> None:
    """Issue 57: an AI turn that failed for the database being out of service is played at
    the table loop's first round once the database takes writes again, however long its
    back-off still has to run (an hour here); while the database is still out it waits."""
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    pick = service._ai_pick

    async def out_of_service(*args: object) -> str:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(service, "_ai_pick", out_of_service)
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    game = (await press(service, game.id, ALICE.user_id, game.step, action)).game
    assert turn_of(service, game) != 0 and game.id in service.ai_owed  # owed for the outage
    service.ai_owed[game.id] = (time.monotonic() + 3600, 3600.0)  # its back-off: an hour
    monkeypatch.setattr(service, "_ai_pick", pick)  # the database answers again...

    async def probe(within: float) -> bool:
        return back  # ...or, for `still out`, its probe says it does not yet

    monkeypatch.setattr(service.db, "takes_writes", probe)
    await service.play_owed_ai()
    game = await service.get(game.id)
    if back:
        assert turn_of(service, game) == 0 and game.id not in service.ai_owed
    else:
        assert turn_of(service, game) != 0 and game.id in service.ai_owed


async def test_a_paused_chain_of_ai_turns_is_not_woken_by_the_database(
    service: SessionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chain paused at MAX_AI_CHAIN keeps its wait: nothing was wrong with the database,
    so its answering is no reason to go on sooner (an endless chain stays slowed down)."""
    monkeypatch.setattr(sessions, "MAX_AI_CHAIN", 1)
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    game = (await press(service, game.id, ALICE.user_id, game.step, action)).game
    owed = service.ai_owed[game.id] = (time.monotonic() + 3600, 3600.0)  # an hour's wait
    await service.play_owed_ai()
    assert service.ai_owed[game.id] == owed


async def test_stop_clears_controls_through_the_outbox(service: SessionService, db: Database):
    """/game stop writes a "clear controls" entry in its own transaction, naming the board
    and lobby messages, and lets go of a board the AI will no longer add to."""
    game = (await started(service, ALICE, BOB)).game
    await service.set_message(game.id, lobby=111, board=222)
    await service.stop(CHANNEL, ALICE)
    entry = (await outbox(db))[-1]
    assert entry.kind == "clear" and sorted(entry.payload["messages"]) == [111, 222]
    assert all(e.ready for e in await outbox(db))


async def test_a_clean_stop_lets_go_of_a_board_held_for_the_ai(
    service: SessionService, db: Database
) -> None:
    """Issue 12 (clean stop): a board held back for the AI's next moves is let go when the
    bot stops (the poster delivers it before it exits), so the player's move is shown; the
    AI's moves after the next start get a board of their own."""
    game = await alices_turn(service, (await started(service, ALICE, ai=2)).game)
    action = RUMBLE.legal_actions(RUMBLE.from_json(game.state), 0)[0]
    await service.act(CHANNEL, game.id, ALICE.user_id, game.step, action)
    service.begin_stop()
    held = (await outbox(db))[-1]
    assert not held.ready and held not in [e for e, _ in await service.outbox.pending(CHANNEL)]
    await service.outbox.close_open()
    assert [e.id for e, _ in await service.outbox.pending(CHANNEL)][-1] == held.id
    restarted = SessionService(db)
    await restarted.resume_all()
    after = (await outbox(db))[-1]
    assert after.id > held.id and after.ready, "the AI's moves: a new board"


async def test_an_ai_choice_is_never_applied_to_a_newer_step(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: two processes on one database (here two services, each with its own
    connection pool) may both let the AI play a game. A choice made at step N is applied
    only if the game is still at step N inside the applying transaction; otherwise it is
    dropped and the AI looks again, so the log never holds a move made for another step."""
    first = SessionService(db)
    game = await alices_turn(first, (await started(first, ALICE, ai=2)).game)
    update = await first.act(CHANNEL, game.id, ALICE.user_id, game.step, 0)

    thinking, go_on = threading.Event(), threading.Event()
    real_choice = sessions.ai_choice
    calls = 0

    def first_one_slow(*args):  # the first process's AI thinks until the other has moved
        nonlocal calls
        calls += 1
        if calls == 1:
            thinking.set()
            go_on.wait(timeout=60)
        return real_choice(*args)

    monkeypatch.setattr(sessions, "ai_choice", first_one_slow)
    slow = asyncio.create_task(first.play_ai(update))
    assert await asyncio.to_thread(thinking.wait, 60)
    other_db = Database(db.url)
    try:
        await SessionService(other_db).resume_all()  # the other process plays the AI's turns
    finally:
        await other_db.close()
    moved_on = await first.get(game.id)
    go_on.set()
    await slow
    final = await first.get(game.id)
    assert final.step == moved_on.step, "the stale choice was dropped, nothing applied"
    records = await actions_from(db, 0)
    assert [r.step for r in records] == sorted({r.step for r in records})
    state = RUMBLE.new_game(3, final.options, final.seed)
    for record in records:
        assert record.step == RUMBLE.step(state)
        state = RUMBLE.apply(state, record.seat, record.action).state
    assert RUMBLE.to_json(state) == final.state


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_game_won_in_its_deal_finishes_at_the_start(
    service: SessionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is stuck: a Dumpster Brawl! hand dealt three sets wins at once (the rulebook's
    victory check comes before the first turn), so the game ends at its start, with its
    results, instead of playing on with nobody to act."""
    deal = BRAWL.new_game

    def dealt_three_sets(seats: int, options: dict[str, str], seed: int):
        return dataclasses.replace(deal(seats, options, seed), finished=True, winners=(1,))

    monkeypatch.setattr(BRAWL, "new_game", dealt_three_sets)
    game = await service.open_lobby(GUILD, CHANNEL, "brawl", ALICE, {}, seed=3)
    for player in (BOB, CAROL):
        game = await service.join(CHANNEL, game.id, player)
    update = await service.start(CHANNEL, game.id, ALICE)
    assert update.finished and update.game.status == Status.FINISHED
    assert await service.current(CHANNEL) is None  # the channel is free again
    (finished, results), *_ = await service.history(GUILD)
    assert finished.id == game.id
    assert [result.name for result in results if result.rank == 0] == ["bob"]


async def test_each_row_gets_the_state_of_its_own_step(service: SessionService) -> None:
    """A game's state is decoded once a step and kept: the newest step's state is shared,
    and a row read before a move (an older step) still gets its own step's state, not the
    newest one kept; nor does reading it push the newest out."""
    before = (await started(service, ALICE, BOB)).game
    seat = turn_of(service, before)
    user = (ALICE, BOB)[seat].user_id
    action = RUMBLE.legal_actions(service.state_of(before), seat)[0]
    after = (await service.act(CHANNEL, before.id, user, before.step, action)).game
    assert after.step > before.step
    newest = service.state_of(after)
    assert service.state_of(after) is newest  # decoded once for the step
    older = service.state_of(before)
    assert RUMBLE.to_json(older) == before.state and older is not newest
    assert service.state_of(after) is newest


async def test_narrowing_a_row_just_read_reads_it_no_more(
    service: SessionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: a menu press finds its choice in the row it has just read (the controls
    are built from it) and narrows the choice on that row, without reading it again; the
    moves it narrows to are those a fresh read gives."""
    game = (await started(service, ALICE, BOB)).game
    seat = turn_of(service, game)
    user = (ALICE, BOB)[seat].user_id
    group = RUMBLE.group_of(RUMBLE.legal_actions(service.state_of(game), seat)[0])
    _, fresh = await service.narrow(CHANNEL, game.id, user, game.step, group)

    async def read_again(_game_id: int) -> GameRecord | None:
        raise AssertionError("the row was read again")

    monkeypatch.setattr(service.store, "get", read_again)
    _, in_hand = await service.narrow(CHANNEL, game.id, user, game.step, group, game)
    assert in_hand == fresh and len(fresh) >= 1
    with pytest.raises(UserError, match="out of date"):  # the row's own checks still hold
        await service.narrow(CHANNEL, game.id, user, game.step - 1, group, game)

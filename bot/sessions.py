"""The session service: the one place that changes a game.

Every change follows the same path: take the channel's lock, load the game row inside a
transaction, check who is asking and whether the request is still current, apply it with the
engine, and write the new state and the action log in that same transaction. A `UserError`
raised anywhere on the way rolls the transaction back, so a refused request changes nothing.

A player's press is one call, `press`: their action, then the turns of AI seats (and of
players handed to the AI: `play_ai`), each saved in its own transaction, so a crash
between two of them loses nothing (on start-up `resume_all` lets the AI finish whatever it
had left); `press` also decides whether the player is answered before or after them.

What the channel must be shown (a board, controls to clear) is written to the outbox
(`bot/outbox.py`) in the transaction of the change itself; the poster in `cogs/` delivers
it when `outbox.signal` wakes it. The cogs call this module; they never touch the database
or a game's private state themselves.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from bot import rows
from bot.database import COMMITTED, DATABASE_DOWN, Database, out_of_service
from bot.lobbies import Lobbies
from bot.logs import game_fields
from bot.metrics import Metrics
from bot.models import GameRecord, Status, utcnow
from bot.outbox import Outbox
from bot.requests import (
    Press,
    Update,
    UserError,
    engine_of,
    forced_action,
    keep_notes,
    seat_of,
    waiting_for,
)
from bot.shards import ALL, Shards
from bot.statements import Statements
from bot.store import Store, WentBack
from bot.table_commands import TableCommands, handover_level
from bot.workers import Workers, ai_choice
from rules.base import JSON, AnyGame, Event, IllegalAction
from rules.phrases import Phrase, SeatName, listing, phrase, phrase_n

log = logging.getLogger(__name__)

# The database's faults as the cogs answer them (cogs never import bot/database.py); what
# requests are made of is in bot/requests.py.
__all__ = ["COMMITTED", "DATABASE_DOWN", "SessionService", "out_of_service"]

PLANNED = "planned"  # the actor of a plan's actions after its first: the same press
MAX_AI_CHAIN = 500  # AI turns in a row before the service pauses them briefly; a safety net
AI_RETRY_FIRST, AI_RETRY_LAST = 1.0, 60.0  # seconds before an owed AI turn is tried again
PROBE_TIMEOUT = 1.0  # seconds; is the database back? (`_wake_if_database_back`)
LOST_STEPS = 5000  # the most moves a restored backup is taken to have lost (a day's play)


class SessionService:
    """Every request the cogs make: playing, the AI's turns, the turn timer, the `/game`
    commands and the history here; the lobby's in its `lobbies` part; all on one `store`
    (the channel locks, the rows, what to show, decoded states)."""

    def __init__(
        self,
        db: Database,
        clock: Callable[[], datetime] = utcnow,
        workers: Workers | None = None,
        shards: Shards = ALL,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store = Store(db, clock, workers, shards, metrics)
        self.lobbies = lobbies = Lobbies(store)
        self.commands = commands = TableCommands(store)
        # Games whose AI turns failed for the database being out of service: game id ->
        # (when to try again, the wait after that), tried by `play_owed_ai`.
        self.ai_owed: dict[int, tuple[float, float]] = {}
        # Those of them owed because the database was out of service: played as soon as a
        # probe finds it back, not only when their back-off is over.
        self._owed_for_outage: set[int] = set()
        # The parts' requests and readings, called on the service like its own.
        self.open_lobby = lobbies.open_lobby
        self.rematch = lobbies.rematch
        self.join = lobbies.join
        self.add_ai = lobbies.add_ai
        self.pick = lobbies.pick
        self.leave_lobby = lobbies.leave_lobby
        self.cancel = lobbies.cancel
        self.start = lobbies.start
        self.set_language = lobbies.set_language
        self.guild_language = lobbies.guild_language
        self.stop = commands.stop
        self.hand_to_ai = commands.hand_to_ai
        self.set_timer = commands.set_timer
        self.get = store.get
        self.current = store.current
        self.set_message = store.set_message
        self.view_for = store.view_for
        self.own_view = store.own_view
        self.public_view = store.public_view
        self.state_of = store.state_of
        self.legal_for = store.legal_for
        self.one_of_each = store.one_of_each
        self.describer = store.describer
        self.humans_to_act = store.humans_to_act
        self.scoreboard = store.scoreboard
        self.history = store.history
        self.begin_stop = store.begin_stop
        self.wait_idle = store.wait_idle

    # The store's, read through the service by the cogs and the process.
    @property
    def db(self) -> Database:
        return self.store.db

    @property
    def workers(self) -> Workers:
        return self.store.workers

    @property
    def shards(self) -> Shards:
        return self.store.shards

    @property
    def outbox(self) -> Outbox:
        return self.store.outbox

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.store.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.store.clock = clock  # tests move time on, for the turn timer

    @property
    def stopping(self) -> bool:
        return self.store.stopping

    @property
    def in_flight(self) -> int:
        return self.store.in_flight

    # ------------------------------------------------------------------ playing

    async def press(
        self,
        channel_id: int,
        game_id: int,
        user_id: int,
        step: int,
        action: str | int | Sequence[str],
        *,
        answered: bool,
    ) -> Press:
        """A player's press of a play control, in the order its player sees it: their
        action (`act`), then the AI's turns that follow (`play_ai`). A press `answered` (in
        the player's private reply) is answered after the AI's turns, so the answer can
        carry the player's next decision (Trash War: the AI plays, then it is your turn
        again); a move shown on a board of its own (a Toss It drop) is answered first
        instead, and the AI's turns are `Press.then`'s, for the cog to await once it has
        answered."""
        update = await self.act(channel_id, game_id, user_id, step, action)
        if not answered:
            await self.play_ai(update)
            return Press(update)
        if update.board_ready:
            return self._answer(update, user_id, partial(self.play_ai, update))
        await self.play_ai(update)
        return self._answer(update, user_id)

    def _answer(
        self,
        update: Update,
        user_id: int,
        after_answer: Callable[[], Awaitable[object]] | None = None,
    ) -> Press:
        """The press as its player is answered: their seat, and their own view when they
        must decide again now (`update.game` is the row as last saved: not read again)."""
        game = update.game
        seat = seat_of(game, user_id)
        if seat is None or seat not in self.store.humans_to_act(game):
            return Press(update, seat, None, after_answer)
        return Press(update, seat, self.store.own_view(game, user_id)[1], after_answer)

    async def act(
        self,
        channel_id: int,
        game_id: int,
        user_id: int,
        step: int,
        action: str | int | Sequence[str],
    ) -> Update:
        """A player's action from a control made at `step`: the action itself, its index
        among the player's legal actions (what buttons carry), or a plan of several (a
        draw of two cards), played in order while each is still open to the player, all
        in one transaction: the first must be, the rest stop at the first that is not (a
        Blocker drawn ends a draw of two). Only the player's move (`press` adds the AI's
        turns, with `play_ai`; if the process dies in between, `resume_all` plays them on
        start-up)."""
        began = time.perf_counter()
        async with (
            self.store.going_back(),
            self.store.locked(channel_id),
            self.store.db.writing() as connection,
        ):
            game = await self.store.load(connection, game_id, channel_id)
            engine, state, seat = self._check_turn(game, user_id, step)
            plan: list[str | int] = [action] if isinstance(action, str | int) else list(action)
            first, *rest = plan or [-1]  # an empty plan is refused as a choice not open
            if isinstance(first, int):
                legal = engine.legal_actions(state, seat)
                if not 0 <= first < len(legal):
                    raise UserError(phrase("That choice is not open to you any more."))
                first = legal[first]
            update = Update(game=game, requester=seat)
            since, before = game.step, waiting_for(game, engine, state)
            state = await self._apply(connection, update, engine, state, seat, first, "player")
            for then in rest:
                if (
                    not isinstance(then, str)
                    or game.status != Status.PLAYING
                    or seat not in engine.to_act(state)
                ):
                    break
                if then not in engine.legal_actions(state, seat):
                    break
                state = await self._apply(connection, update, engine, state, seat, then, PLANNED)
            game.seats[seat].timeouts = 0
            await rows.save_game(connection, game)
            await self.store.show(connection, update, engine, state, since, before, update.events)
        self.store.metrics.pressed(game.kind, time.perf_counter() - began)
        self.store.wake_poster(update)
        return update

    async def play_ai(self, update: Update) -> Update:
        """Let the AI seats play every turn that is theirs after `update` (a press, a start,
        a seat handed over), adding what they did to it. While the database is out of
        service the AI's turns are owed, and `play_owed_ai` plays them once it is back:
        the press that led to them was saved, and is answered as such."""
        self.ai_owed.pop(update.game.id or 0, None)  # a person moved: the chain starts anew
        self._owed_for_outage.discard(update.game.id or 0)
        try:
            async with self.store.locked(update.game.channel_id):
                return await self._play_ai_turns(update)
        except UserError:
            if self.store.stopping:
                return update  # the player's move is saved; the next start plays the AI's
            raise
        except Exception as error:
            if not out_of_service(error):
                raise
            self._owe_ai(update.game.id or 0, f"the AI turn failed ({error!r})", outage=True)
            return update

    def _owe_ai(self, game_id: int, why: str, outage: bool = False) -> None:
        _, wait = self.ai_owed.get(game_id, (0.0, AI_RETRY_FIRST / 2))
        wait = min(wait * 2, AI_RETRY_LAST)
        self.ai_owed[game_id] = (time.monotonic() + wait, wait)
        (self._owed_for_outage.add if outage else self._owed_for_outage.discard)(game_id)
        log.warning("game %s: %s; trying again in %g s", game_id, why, wait)

    async def _wake_if_database_back(self) -> None:
        """Make the AI turns owed for an outage due now if the database takes writes again:
        their back-off alone (up to a minute) would leave them waiting after it came back.
        One probe that changes nothing a round, and only while such a turn waits."""
        now = time.monotonic()
        waiting = [g for g in self._owed_for_outage if self.ai_owed.get(g, (now, 0.0))[0] > now]
        if waiting and await self.store.db.takes_writes(within=PROBE_TIMEOUT):
            log.info("the database is back; playing the AI turns owed in %d games", len(waiting))
            for game_id in waiting:
                self.ai_owed[game_id] = (now, self.ai_owed[game_id][1])

    async def play_owed_ai(self) -> None:
        """Play the AI turns owed, each game once its wait is over: since the database was
        out of service, or after a chain of AI turns reached MAX_AI_CHAIN. The wait doubles,
        up to AI_RETRY_LAST, while the database stays out or the chains go on without a
        person's move between them (an AI that never ends its turn would be a bug: it is
        slowed down, and the other games go on). Those owed for an outage are played as
        soon as the database takes writes again (`_wake_if_database_back`)."""
        if not self.store.stopping:
            await self._wake_if_database_back()
        for game_id, (due, wait) in list(self.ai_owed.items()):
            if due > time.monotonic() or self.store.stopping:
                continue
            self.ai_owed[game_id] = (math.inf, wait)  # under way; owed again, the wait doubles
            try:
                async with self.store.db.connected() as connection:
                    game = await self.store.load(connection, game_id)
                async with self.store.locked(game.channel_id):
                    await self._play_ai_turns(Update(game=game))
            except Exception as error:
                if out_of_service(error):
                    self._owe_ai(game_id, f"the AI turn failed ({error!r})", outage=True)
                    continue
                log.exception("game %s: the owed AI turn failed", game_id)
            if self.ai_owed.get(game_id, (0.0, 0.0))[0] == math.inf:
                del self.ai_owed[game_id]  # played, and not owed again
                self._owed_for_outage.discard(game_id)

    def _check_turn(self, game: GameRecord, user_id: int, step: int) -> tuple[AnyGame, Any, int]:
        """The engine, state and seat of a player whose turn it is, or a UserError saying
        why their button does nothing."""
        if game.status != Status.PLAYING:
            raise UserError(phrase("That game is over; these buttons no longer do anything."))
        seat = seat_of(game, user_id)
        if seat is None:
            raise UserError(phrase("You are not playing in this game."))
        # Made after the game's step: a restored backup took it back (a forged id far past
        # any backup's loss is only out of date, so it cannot make the bot post a board).
        if game.step < step <= game.step + LOST_STEPS:
            raise WentBack(game)
        if step != game.step:
            raise UserError(phrase("Those buttons are out of date: use the newest game message."))
        engine, state = engine_of(game), self.store.state_of(game)
        to_act = engine.to_act(state)
        if seat not in to_act:
            raise UserError(not_your_turn(game, to_act))
        return engine, state, seat

    async def narrow(
        self,
        channel_id: int,
        game_id: int,
        user_id: int,
        step: int,
        group: str,
        read: GameRecord | None = None,
        language: str | None = None,
    ) -> tuple[GameRecord, list[tuple[int, str, str]]]:
        """The legal actions under a menu entry (`group`, see `Game.group_of`), as (index
        among the legal actions, action, label), for the player whose turn it is. Changes
        nothing. `read`: the game's row as the caller has just read it (to find which entry
        was chosen), so it is not read again; `act` checks the step again in its own
        transaction either way. The labels are in `language` (the asker's; the game's unless
        given)."""
        game = read if read is not None and read.id == game_id else await self.store.get(game_id)
        if game is None or game.channel_id != channel_id:
            raise UserError(phrase("That game no longer exists."))
        async with self.store.going_back():
            engine, state, seat = self._check_turn(game, user_id, step)
        label = self.store.describer(game, group, language)
        legal = engine.legal_actions(state, seat)
        # One of each decision: identical cards make one button (`Game.same_choice`).
        offered = set(engine.one_of_each(state, [a for a in legal if engine.in_group(a, group)]))
        matching = [
            (index, action, label(action))
            for index, action in enumerate(legal)
            if action in offered
        ]
        if not matching:
            raise UserError(phrase("That choice is not open to you any more."))
        return game, matching

    async def turn_view(
        self, channel_id: int, game_id: int, user_id: int, step: int, own: bool
    ) -> tuple[GameRecord, JSON, list[str]]:
        """What a control made at `step` was built from: the player's own view and legal
        actions (`own`), or the public view and the legal actions of the seat to act.
        Refuses, like `act`, anyone whose turn it is not."""
        game = await self.store.get(game_id)
        if game is None or game.channel_id != channel_id:
            raise UserError(phrase("That game no longer exists."))
        async with self.store.going_back():
            engine, state, seat = self._check_turn(game, user_id, step)
        view = engine.observe(state, seat if own else None)
        return game, view, engine.legal_actions(state, seat)

    async def _apply(
        self,
        connection: Statements,
        update: Update,
        engine: AnyGame,
        state: Any,
        seat: int,
        action: str,
        actor: str,
    ) -> Any:
        """Apply one action to the loaded game row and log it, inside the caller's
        transaction. Raises UserError (the rule broken) for an illegal action."""
        game = update.game
        try:
            applied = await self.store.engine_apply(game.kind, engine, state, seat, action)
        except IllegalAction as error:
            raise UserError(error.reason) from None
        await rows.log_action(connection, game, seat, actor, action)
        keep_notes(game, update, game.step, applied.events)
        if actor in ("player", PLANNED):
            game.seats[seat].moved = game.step
        new_state = applied.state
        self.store.touch(game, state=engine.to_json(new_state), step=engine.step(new_state))
        self.store.keep_state(game, new_state)
        update.events.extend(applied.events)
        outcome = engine.outcome(new_state)
        if outcome is not None:
            update.standings = await self.store.finish(connection, game, outcome)
            update.finished = True
        else:
            self.store.reset_deadline(game, engine, new_state)
        log.debug(
            "game %s step %s: seat %s acted (%s)",
            game.id,
            game.step,
            seat,
            actor,
            extra=game_fields(game),
        )
        return new_state

    async def _play_ai_turns(self, update: Update) -> Update:
        """Let AI seats take every turn that is theirs, one transaction per action (with its
        board entry), and return the update with what they did. The AI thinks in a worker
        (bot/workers.py) and outside the transaction (a Toss It drop is tried in the
        simulation many times), so other channels keep being answered meanwhile; the caller
        holds the channel's lock, so nobody else acts here in between.

        `update.game` is the row as last saved (by the caller, then by each AI move here), so
        the chain reads the database again only when a choice turns out to be stale."""
        game: GameRecord | None = update.game
        state = None  # the decoded state of `game`, once known
        for _ in range(MAX_AI_CHAIN):
            if self.store.stopping:
                # Every AI action so far is saved; resume_all plays the rest at the next start.
                log.info("game %s: stopping; the AI resumes at the next start", update.game.id)
                return update
            if game is None or game.status != Status.PLAYING or game.state is None:
                return update
            engine = engine_of(game)
            if state is None:
                state = self.store.state_of(game)
            before = waiting_for(game, engine, state)
            # AI seats, and people with a single choice (made for them: `forced_action`).
            machine = sorted(engine.to_act(state) - set(before))
            if not machine:
                return update
            seat, chosen_at = machine[0], game.step
            forced = None if game.seats[seat].ai else forced_action(engine, state, seat)
            if forced is None:
                actor, action = "ai", await self._ai_pick(game, engine, state, seat)
            else:
                actor, action = "forced", forced
            async with self.store.db.writing() as connection:
                game = update.game = await self.store.load(connection, update.game.id or 0)
                if game.status != Status.PLAYING or game.state is None:
                    return update
                if game.step != chosen_at:
                    # Someone else moved the game on while the AI thought (another process,
                    # a timer): the choice was for a position that is gone; look again.
                    log.info("game %s: AI choice for step %s dropped", game.id, chosen_at)
                    state = None
                    continue
                since, first = game.step, len(update.events)
                state = await self._apply(connection, update, engine, state, seat, action, actor)
                await rows.save_game(connection, game)
                await self.store.show(
                    connection, update, engine, state, since, before, update.events[first:]
                )
            self.store.wake_poster(update)
        # Every AI move so far is saved and shown; the rest follow after a pause, so a chain
        # that runs long hands the channel's lock and the workers to the others meanwhile.
        self._owe_ai(update.game.id or 0, f"{MAX_AI_CHAIN} AI turns in a row")
        return update

    async def _ai_pick(self, game: GameRecord, engine: AnyGame, state: Any, seat: int) -> str:
        """The AI's pick for `seat` at the game's step, in the worker pool: for an AI seat's
        turn, at the seat's level, and for a late player (the turn timer), at normal: the
        timer stands in for a person for one turn, it does not play better or worse."""
        observation, legal = engine.observe(state, seat), engine.legal_actions(state, seat)
        seed = (game.seed, "ai", engine.step(state), seat)  # the step of `state`
        level = game.seats[seat].level if game.seats[seat].ai else "normal"
        # A heavy game's AI tries its moves in the simulation, and the hard AI searches
        # (about 300 ms): both go to a worker with nothing queued behind them.
        asked = time.monotonic()
        action = await self.store.workers.run(
            ai_choice,
            game.kind,
            observation,
            legal,
            seed,
            level,
            long=engine.heavy or level == "hard",
        )
        # What the AI's players wait for, its queue for a worker included.
        self.store.metrics.decided(game, level, time.monotonic() - asked)
        return action

    async def resume_all(self) -> list[Update]:
        """After a restart: let the AI finish turns it had not played yet (a press whose
        process died before `play_ai`, or in the middle of it)."""
        async with self.store.db.connected() as connection:
            games = await rows.games_where(
                connection,
                rows.GAMES.c.status == Status.PLAYING,
                self.store.shards.owned(rows.GAMES.c.guild_id),
            )
        updates = []
        for game in games:
            try:
                async with self.store.locked(game.channel_id):
                    update = await self._play_ai_turns(Update(game=game))
            except UserError:
                if self.store.stopping:
                    break  # the next start resumes the rest
                raise
            if update.events:
                updates.append(update)
        return updates

    # ------------------------------------------------------------------ the turn timer

    async def late_games(self) -> list[GameRecord]:
        if self.store.stopping:
            return []  # the timer plays them after the restart
        now = self.store.clock()
        async with self.store.db.connected() as connection:
            column = rows.GAMES.c
            return await rows.games_where(
                connection,
                column.status == Status.PLAYING,
                column.turn_deadline.is_not(None),
                column.turn_deadline <= now,
                self.store.shards.owned(column.guild_id),
            )

    async def play_for_late(self, game: GameRecord) -> Update | None:
        """The timer ran out: the AI plays the late players' decision. Three timeouts in a
        row hand the seat to the AI for good, and it is no longer rated.

        The AI thinks first, from the game as read, and outside any transaction (SQLite has
        one writer: a Toss It pick tries many drops, and every channel's writes would wait);
        the transaction then applies its picks if the game is still at that step."""
        async with self.store.locked(game.channel_id):
            async with self.store.db.connected() as connection:
                game = await self.store.load(connection, game.id or 0)
            if not self._late(game):
                return None
            engine = engine_of(game)
            assert game.state is not None
            state, chosen_at = self.store.state_of(game), game.step
            picks = await self._picks_for_late(game, engine, state)
            async with self.store.db.writing() as connection:
                game = await self.store.load(connection, game.id or 0)
                if not self._late(game) or game.step != chosen_at:
                    return None  # moved on while the AI thought (a press in another process)
                update = Update(game=game)
                before = waiting_for(game, engine, state)
                for seat, action in picks:
                    timed_out = game.seats[seat]
                    timed_out.timeouts += 1
                    player = SeatName(seat)
                    if timed_out.timeouts >= 3:
                        timed_out.ai, timed_out.rated = True, False
                        timed_out.level = handover_level(game)
                        text = phrase(
                            "{player} missed three turns in a row: the AI keeps the seat.",
                            player=player,
                        )
                    else:
                        text = phrase(
                            "{player} ran out of time; the AI plays this turn for them.",
                            player=player,
                        )
                    update.events.append(Event(text))
                    state = await self._apply(
                        connection, update, engine, state, seat, action, "timer"
                    )
                    if update.finished:
                        break
                await rows.save_game(connection, game)
                await self.store.show(
                    connection, update, engine, state, chosen_at, before, update.events
                )
            self.store.wake_poster(update)
            return await self._play_ai_turns(update)

    def _late(self, game: GameRecord) -> bool:
        deadline = game.turn_deadline
        return (
            game.status == Status.PLAYING
            and deadline is not None
            and deadline <= self.store.clock()
        )

    async def _picks_for_late(
        self, game: GameRecord, engine: AnyGame, state: Any
    ) -> list[tuple[int, str]]:
        """The AI's pick for each late human seat, in seat order; with several late at once
        (a simultaneous choice), each picks at the position the picks before it lead to."""
        late = [seat for seat in sorted(engine.to_act(state)) if not game.seats[seat].ai]
        picks = []
        for seat in late:
            action = await self._ai_pick(game, engine, state, seat)
            picks.append((seat, action))
            if seat != late[-1]:
                state = (
                    await self.store.engine_apply(game.kind, engine, state, seat, action)
                ).state
                if engine.outcome(state) is not None:
                    break
        return picks


def not_your_turn(game: GameRecord, to_act: frozenset[int]) -> Phrase:
    """The refusal of a press out of turn, naming whose turn it is."""
    names = [game.seats[seat].name for seat in sorted(to_act)]
    if not names:
        return phrase("It is not your turn.")
    return phrase_n(
        "It is not your turn: {names} is to play.",
        "It is not your turn: {names} are to play.",
        len(names),
        names=listing(names),
    )

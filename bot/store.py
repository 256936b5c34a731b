"""The session service's plumbing: one request at a time per channel, loading and saving a
game row, recording what the channel must be shown, and reading a game without changing
it. The service (`bot/sessions.py`) and its lobby part (`bot/lobbies.py`) each hold the
one `Store` and build their requests on it."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, delete
from sqlmodel import Session, col, select

from bot import rows
from bot.database import Database
from bot.games import GAMES
from bot.metrics import Metrics
from bot.models import GameRecord, ResultRecord, Status, utcnow
from bot.outbox import Outbox, record_board
from bot.ratings import ScoreLine, Standing, scoreboard, standings, update_ratings
from bot.requests import (
    RESTARTING,
    Describer,
    Update,
    UserError,
    engine_of,
    format_event,
    seat_names,
    seat_of,
    waiting_for,
)
from bot.restores import RESTORED
from bot.shards import ALL, Shards
from bot.statements import Statements
from bot.workers import Workers, apply_action, new_state
from rules.base import JSON, AnyGame, Applied, Event, Outcome
from rules.phrases import phrase


class WentBack(UserError):
    """A control made at a step newer than the game's: the database was restored from a
    backup taken before that step (or the id was forged). Answered with the way forward,
    while `Store.redraw` posts a board the game can go on from."""

    def __init__(self, game: GameRecord) -> None:
        super().__init__(
            phrase(
                "The game went back to step {step} when a backup was restored: use the new board.",
                step=game.step,
            )
        )
        self.game = game


# Games whose newest state stays decoded. The presses in flight need theirs (a request
# decodes a state once, and the reply and board after an action use the state it made);
# more only spares a decode of 0.05-0.1 ms a press, while every state kept is a few
# dozen objects that each full garbage collection walks.
STATES_KEPT = 128

log = logging.getLogger(__name__)


class Store:
    """The session service's plumbing, shared by its parts (`SessionService` and its
    `Lobbies`): the channel locks and the stop, the rows, what to show, decoded states."""

    def __init__(
        self,
        db: Database,
        clock: Callable[[], datetime] = utcnow,
        workers: Workers | None = None,
        shards: Shards = ALL,
        metrics: Metrics | None = None,
    ) -> None:
        self.db = db
        self.metrics = metrics or Metrics()
        # Resume, time and post only the games of guilds on this process's shards.
        self.shards = shards
        self.workers = workers or Workers(0)  # the AI thinks in a worker process or thread
        self.clock = clock
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.outbox = Outbox(db, shards)
        self.stopping = False
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Each recent game's newest decoded state, with its step: a request decodes a row's
        # state once, and the state an action made is kept decoded for the reply and board
        # that follow. States are immutable and a step names one state of a game, so
        # sharing them is safe.
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        # The step each game restored from a backup was last redrawn at (`redraw`): one
        # fresh board however many old controls are pressed.
        self._redrawn: dict[int, int] = {}

    # ------------------------------------------------------------------ plumbing

    @asynccontextmanager
    async def locked(self, channel_id: int) -> AsyncIterator[None]:
        # One request at a time per channel: two clicks at once apply once. Once the bot is
        # stopping, new requests are refused (checked again after the wait for the lock, as
        # a request still queued has changed nothing yet); those in flight are counted so
        # the stop can wait for them.
        if self.stopping:
            raise UserError(RESTARTING)
        self._in_flight += 1
        self._idle.clear()
        try:
            async with self._locks[channel_id]:
                if self.stopping:
                    raise UserError(RESTARTING)
                yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    def begin_stop(self) -> None:
        """Refuse every new request from now on; see `wait_idle`."""
        self.stopping = True

    async def wait_idle(self) -> None:
        """Return once no request is in flight."""
        await self._idle.wait()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def load(
        self,
        connection: Statements,
        game_id: int,
        channel_id: int | None = None,
    ) -> GameRecord:
        game = await rows.load_game(connection, game_id, lock=True)
        if game is None or (channel_id is not None and game.channel_id != channel_id):
            raise UserError(phrase("That game no longer exists."))
        return game

    async def active_in(self, connection: Statements, channel_id: int) -> GameRecord | None:
        return await rows.active_game(connection, channel_id, lock=True)

    async def require_active(self, connection: Statements, channel_id: int) -> GameRecord:
        game = await self.active_in(connection, channel_id)
        if game is None:
            starts = ", ".join(f"`/{key} new`" for key in GAMES)
            raise UserError(
                phrase("There is no game in this channel. Start one: {commands}.", commands=starts)
            )
        return game

    @staticmethod
    def touch(game: GameRecord, **changes: Any) -> None:
        """Change a game row in memory; the request writes it with `rows.save_game`."""
        for name, value in changes.items():
            setattr(game, name, value)

    @staticmethod
    async def show(
        connection: Statements,
        update: Update,
        engine: AnyGame,
        state: Any,
        since: int,
        before: list[int],
        events: list[Event],
        started: bool = False,
    ) -> None:
        """Record the board showing `update.game` as this transaction saves it, with the
        public lines of `events` (what happened since the step `since`, when `before` were
        the seats a person had to decide for)."""
        names = seat_names(update.game)
        lines = [format_event(event, names) for event in events if event.to is None]
        update.board_ready = await record_board(
            connection,
            update.game,
            engine,
            state,
            lines,
            since,
            before,
            started,
            update.standings,
        )

    async def finish(
        self, connection: Statements, game: GameRecord, outcome: Outcome
    ) -> list[Standing]:
        """Results and ratings of a finished game, in the transaction of its last action;
        returns its final standings for the last board."""
        self.touch(game, status=Status.FINISHED, finished_at=utcnow(), turn_deadline=None)
        names = seat_names(game)  # as the game's readers saw them: /history says them so
        results = [
            ResultRecord(
                game_id=game.id or 0,
                guild_id=game.guild_id,
                kind=game.kind,
                seat=index,
                user_id=seat.user_id,
                name=names[index],  # an AI seat's level stays in its history
                rank=outcome.ranks[index],
                points=outcome.points[index],
                rated=seat.rated and not seat.ai,
            )
            for index, seat in enumerate(game.seats)
        ]

        # Results and ratings are ORM work, done once a game: a session joins the request's
        # transaction (it commits nothing itself; the request's commit keeps its rows).
        def rate(sync: Connection) -> dict[int, tuple[float, float]]:
            with Session(bind=sync) as orm:
                orm.add_all(results)
                changes = update_ratings(orm, game.guild_id, game.kind, results)
                orm.flush()
            return changes

        return standings(results, await connection.run_sync(rate))

    def wake_poster(self, update: Update) -> None:
        """After the commit: a board that is ready goes out now; a game that has just
        ended is counted and logged (once: `told_ended`)."""
        if update.board_ready:
            self.outbox.signal.notify(update.game.channel_id)
        if update.finished and not update.told_ended:
            update.told_ended = True
            self.metrics.ended(update.game, "finished")

    @asynccontextmanager
    async def going_back(self) -> AsyncIterator[None]:
        """Around a request that checks a control's step: a `WentBack` it raises (after its
        transaction is rolled back and the channel's lock let go) first has the game
        redrawn, then reaches the player as any refusal does."""
        try:
            yield
        except WentBack as went:
            await self.redraw(went.game)
            raise

    async def redraw(self, seen: GameRecord, marked: bool = False) -> None:
        """A game restored from a backup, as its players find it: the boards in the channel
        show steps that no longer exist, and none shows the game's own step with controls.
        A fresh board of the game as it stands goes out (`record_board`'s `restored`), once
        for each step it is found at. `marked`: one `make restore` marked, redrawn at
        start-up whatever its step (bot/restores.py), its mark gone in the same commit."""
        key = seen.id or 0
        if not marked and self._redrawn.get(key) == seen.step:
            return
        async with self.locked(seen.channel_id), self.db.writing() as connection:
            if marked:
                await connection.execute(delete(RESTORED).where(RESTORED.c.game_id == key))
            game = await rows.load_game(connection, key, lock=True)
            if game is None or game.status != Status.PLAYING:
                return
            if not marked and game.step != seen.step:
                return  # moved on meanwhile: that board is on its way already
            engine, state = engine_of(game), self.state_of(game)
            line = phrase(
                "A backup was restored: the game went back to step {step}.", step=game.step
            )
            update = Update(game=game)
            update.board_ready = await record_board(
                connection,
                game,
                engine,
                state,
                [format_event(Event(line), seat_names(game))],
                game.step,
                waiting_for(game, engine, state),
                restored=True,
            )
        self._redrawn[key] = game.step
        log.warning("game %s: restored from a backup at step %s; board redrawn", key, game.step)
        self.wake_poster(update)

    # ------------------------------------------------------------------ states

    def state_of(self, game: GameRecord) -> Any:
        """The state of a started game's row, decoded (once for each game and step)."""
        assert game.state is not None, "only a started game has a state"
        kept = self._states.get(game.id or 0)
        if kept is not None and kept[0] == game.step:
            state = kept[1]
        else:
            state = engine_of(game).from_json(game.state)
        self.keep_state(game, state)
        return state

    def keep_state(self, game: GameRecord, state: Any) -> None:
        """Remember `state` as the decoded state of `game` at its step, unless a newer
        step's is kept (a reader of an older row must not push the newest state out)."""
        key = game.id or 0
        kept = self._states.get(key)
        if kept is None or kept[0] <= game.step:
            self._states[key] = (game.step, state)
        self._states.move_to_end(key)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

    # ------------------------------------------------------------------ reading

    async def get(self, game_id: int) -> GameRecord | None:
        async with self.db.connected() as connection:
            return await rows.load_game(connection, game_id)

    async def current(self, channel_id: int) -> GameRecord | None:
        async with self.db.connected() as connection:
            return await rows.active_game(connection, channel_id)

    async def view_for(self, game_id: int, user_id: int) -> tuple[GameRecord, int, JSON]:
        """A player's own observation (their hand or secret), for an ephemeral reply."""
        game = await self.get(game_id)
        if game is None:
            raise UserError(phrase("That game has not started."))
        seat, view = self.own_view(game, user_id)
        return game, seat, view

    def own_view(self, game: GameRecord, user_id: int) -> tuple[int, JSON]:
        """`view_for` on a row already in hand (the one a request just saved)."""
        if game.state is None:
            raise UserError(phrase("That game has not started."))
        seat = seat_of(game, user_id)
        if seat is None:
            raise UserError(phrase("You are not playing in this game."))
        return seat, cast(JSON, engine_of(game).observe(self.state_of(game), seat))

    def public_view(self, game: GameRecord) -> JSON:
        # An observation is its game's TypedDict: a dict, read here as plain JSON.
        return cast(JSON, engine_of(game).observe(self.state_of(game), None))

    def legal_for(self, game: GameRecord, seat: int) -> list[str]:
        return engine_of(game).legal_actions(self.state_of(game), seat)

    def one_of_each(self, game: GameRecord, actions: list[str]) -> list[str]:
        """`actions` with one of each decision (`Game.one_of_each`): what controls offer, so
        two identical cards make one button."""
        return engine_of(game).one_of_each(self.state_of(game), actions)

    def describer(
        self, game: GameRecord, group: str | None = None, language: str | None = None
    ) -> Callable[[str], str]:
        """Labels for the controls of `game` as it stands, with the players' names filled
        in (see `Game.describe`); for the actions of a chosen `group`, what sets each apart
        (`Game.describe_in_group`). In `language`: the game's (a board) unless given (a
        player's private reply)."""
        describe = Describer(engine_of(game), self.state_of(game), seat_names(game, language))
        if group is None:
            return describe
        return lambda action: describe.in_group(action, group)

    def humans_to_act(self, game: GameRecord) -> list[int]:
        """Seats still played by a person that must decide now (a single choice is made
        for them)."""
        if game.state is None or game.status != Status.PLAYING:
            return []
        return waiting_for(game, engine_of(game), self.state_of(game))

    async def set_message(
        self, game_id: int, *, lobby: int | None = None, board: int | None = None
    ) -> None:
        messages = {"lobby_message_id": lobby, "board_message_id": board}
        chosen = {name: message for name, message in messages.items() if message is not None}
        if chosen:
            async with self.db.writing() as connection:
                await rows.set_messages(connection, game_id, **chosen)

    # ------------------------------------------------------------------ history

    async def scoreboard(self, guild_id: int, kind: str | None) -> list[ScoreLine]:
        async with self.db.reading() as session:
            return await scoreboard(session, guild_id, kind)

    async def history(
        self, guild_id: int, limit: int = 10
    ) -> list[tuple[GameRecord, list[ResultRecord]]]:
        async with self.db.reading() as session:
            query = (
                select(GameRecord)
                .where(GameRecord.guild_id == guild_id, GameRecord.status == Status.FINISHED)
                .order_by(col(GameRecord.finished_at).desc(), col(GameRecord.id).desc())
                .limit(limit)
            )
            games = list((await session.exec(query)).all())
            out = []
            for game in games:
                results = await session.exec(
                    select(ResultRecord)
                    .where(ResultRecord.game_id == game.id)
                    .order_by(col(ResultRecord.rank), col(ResultRecord.seat))
                )
                out.append((game, list(results.all())))
            return out

    async def engine_apply(
        self, kind: str, engine: AnyGame, state: Any, seat: int, action: str
    ) -> Applied[Any]:
        """`engine.apply`, on the quick worker for a heavy engine (a simulated drop) so the
        event loop keeps serving other channels meanwhile."""
        if engine.heavy:
            return await self.workers.run_quick(apply_action, kind, state, seat, action)
        return engine.apply(state, seat, action)

    async def new_state(
        self, kind: str, engine: AnyGame, seats: int, options: dict[str, str], seed: int
    ) -> Any:
        """`engine.new_game`, on the quick worker for a heavy engine (a simulated pre-fill)."""
        if engine.heavy:
            return await self.workers.run_quick(new_state, kind, seats, options, seed)
        return engine.new_game(seats, options, seed)

    def reset_deadline(self, game: GameRecord, engine: AnyGame, state: Any) -> None:
        humans = [s for s in engine.to_act(state) if not game.seats[s].ai]
        if game.turn_timer and humans:
            game.turn_deadline = self.clock() + timedelta(minutes=game.turn_timer)
        else:
            game.turn_deadline = None

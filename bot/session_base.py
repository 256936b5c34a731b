"""The session service's plumbing: one request at a time per channel, loading and saving a
game row, recording what the channel must be shown, and reading a game without changing
it. `bot/lobbies.py` and `bot/sessions.py` build the requests on it."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.database import Database
from bot.games import GAMES
from bot.models import ACTIVE, GameRecord, Status, utcnow
from bot.outbox import Outbox, record_board
from bot.requests import (
    RESTARTING,
    Update,
    UserError,
    engine_of,
    format_event,
    seat_names,
    seat_of,
)
from bot.shards import ALL, Shards
from bot.workers import Workers, apply_action, new_state
from rules.base import JSON, Applied, Event, Game


class SessionBase:
    def __init__(
        self,
        db: Database,
        clock: Callable[[], datetime] = utcnow,
        workers: Workers | None = None,
        shards: Shards = ALL,
    ) -> None:
        self.db = db
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

    # ------------------------------------------------------------------ plumbing

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[None]:
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

    async def _load(
        self, session: AsyncSession, game_id: int, channel_id: int | None = None
    ) -> GameRecord:
        game = await session.get(GameRecord, game_id, with_for_update=True)
        if game is None or (channel_id is not None and game.channel_id != channel_id):
            raise UserError("That game no longer exists.")
        return game

    async def _active_in(self, session: AsyncSession, channel_id: int) -> GameRecord | None:
        query = select(GameRecord).where(
            GameRecord.channel_id == channel_id, col(GameRecord.status).in_(ACTIVE)
        )
        return (await session.exec(query.with_for_update())).first()

    async def _require_active(self, session: AsyncSession, channel_id: int) -> GameRecord:
        game = await self._active_in(session, channel_id)
        if game is None:
            starts = " or ".join(f"`/{key} new`" for key in GAMES)
            raise UserError(f"There is no game in this channel. Start one with {starts}.")
        return game

    @staticmethod
    def _touch(game: GameRecord, **changes: Any) -> None:
        """Change a game row. JSON columns are flagged as changed by hand: SQLAlchemy does
        not see a change made inside a list or a dict, so every change goes through here."""
        for name, value in changes.items():
            setattr(game, name, value)
        for name in ("seats", "state", "options"):
            flag_modified(game, name)
        game.updated_at = utcnow()

    @staticmethod
    async def _show(
        session: AsyncSession,
        update: Update,
        engine: Game,
        state: Any,
        since: int,
        events: list[Event],
        started: bool = False,
    ) -> None:
        """Record the board showing `update.game` as this transaction saves it, with the
        public lines of `events` (what happened since the step `since`)."""
        names = seat_names(update.game)
        lines = [format_event(event, names) for event in events if event.to is None]
        update.board_ready = await record_board(
            session, update.game, engine, state, lines, since, started
        )

    def _wake_poster(self, update: Update) -> None:
        """After the commit: a board that is ready goes out now."""
        if update.board_ready:
            self.outbox.signal.notify(update.game.channel_id)

    # ------------------------------------------------------------------ reading

    async def get(self, game_id: int) -> GameRecord | None:
        async with self.db.reading() as session:
            return await session.get(GameRecord, game_id)

    async def current(self, channel_id: int) -> GameRecord | None:
        async with self.db.reading() as session:
            query = select(GameRecord).where(
                GameRecord.channel_id == channel_id, col(GameRecord.status).in_(ACTIVE)
            )
            return (await session.exec(query)).first()

    async def view_for(self, game_id: int, user_id: int) -> tuple[GameRecord, int, JSON]:
        """A player's own observation (their hand or secret), for an ephemeral reply."""
        game = await self.get(game_id)
        if game is None:
            raise UserError("That game has not started.")
        seat, view = self.own_view(game, user_id)
        return game, seat, view

    @staticmethod
    def own_view(game: GameRecord, user_id: int) -> tuple[int, JSON]:
        """`view_for` on a row already in hand (the one a request just saved)."""
        if game.state is None:
            raise UserError("That game has not started.")
        seat = seat_of(game, user_id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        engine = engine_of(game)
        return seat, engine.observe(engine.from_json(game.state), seat)

    def public_view(self, game: GameRecord) -> JSON:
        engine = engine_of(game)
        assert game.state is not None
        return engine.observe(engine.from_json(game.state), None)

    def legal_for(self, game: GameRecord, seat: int) -> list[str]:
        engine = engine_of(game)
        assert game.state is not None
        return engine.legal_actions(engine.from_json(game.state), seat)

    def humans_to_act(self, game: GameRecord) -> list[int]:
        """Seats still played by a person that must act now."""
        if game.state is None or game.status != Status.PLAYING:
            return []
        engine = engine_of(game)
        to_act = engine.to_act(engine.from_json(game.state))
        return sorted(seat for seat in to_act if not game.seats[seat]["ai"])

    async def set_message(
        self, game_id: int, *, lobby: int | None = None, board: int | None = None
    ) -> None:
        async with self.db.transaction() as session:
            game = await session.get(GameRecord, game_id)
            if game is None:
                return
            if lobby is not None:
                game.lobby_message_id = lobby
            if board is not None:
                game.board_message_id = board
            session.add(game)

    async def _engine_apply(
        self, kind: str, engine: Game, state: Any, seat: int, action: str
    ) -> Applied:
        """`engine.apply`, on the quick worker for a heavy engine (a simulated drop) so the
        event loop keeps serving other channels meanwhile."""
        if engine.heavy:
            return await self.workers.run_quick(apply_action, kind, state, seat, action)
        return engine.apply(state, seat, action)

    async def _new_state(
        self, kind: str, engine: Game, seats: int, options: dict[str, str], seed: int
    ) -> Any:
        """`engine.new_game`, on the quick worker for a heavy engine (a simulated pre-fill)."""
        if engine.heavy:
            return await self.workers.run_quick(new_state, kind, seats, options, seed)
        return engine.new_game(seats, options, seed)

    def _reset_deadline(self, game: GameRecord, engine: Game, state: Any) -> None:
        humans = [s for s in engine.to_act(state) if not game.seats[s]["ai"]]
        if game.turn_timer and humans:
            game.turn_deadline = self.clock() + timedelta(minutes=game.turn_timer)
        else:
            game.turn_deadline = None

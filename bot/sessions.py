"""The session service: the one place that changes a game.

Every change follows the same path: take the channel's lock, load the game row inside a
transaction, check who is asking and whether the request is still current, apply it with the
engine, and write the new state and the action log in that same transaction. A `UserError`
raised anywhere on the way rolls the transaction back, so a refused request changes nothing.

After a player's action, AI seats (and players handed to the AI) play their turns
(`play_ai`), each saved in its own transaction, so a crash between two of them loses
nothing: on start-up `resume_all` lets the AI finish whatever it had left.

What the channel must be shown (a board, controls to clear) is written to the outbox
(`bot/outbox.py`) in the transaction of the change itself; the poster in `cogs/` delivers
it when `outbox.signal` wakes it. The cogs call this module; they never touch the database
or a game's private state themselves.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.database import Database
from bot.games import GAMES, ai_name
from bot.models import ACTIVE, ActionRecord, GameRecord, ResultRecord, Status, utcnow
from bot.outbox import Outbox, record_board, record_clear
from bot.ratings import ScoreLine, scoreboard, update_ratings
from bot.shards import ALL, Shards
from bot.workers import Workers, ai_choice, apply_action, new_state
from rules.base import JSON, Applied, Event, Game, IllegalAction, Outcome

log = logging.getLogger(__name__)

MAX_AI_CHAIN = 500  # AI turns in a row before the service pauses for a human; a safety net
SEED_LIMIT = 2**31
RESTARTING = "The bot is restarting; press again in a moment."


class UserError(Exception):
    """A request refused with a short reason for the user; nothing was changed."""


@dataclass(frozen=True)
class Player:
    """Who is asking: their Discord id, display name, and whether they manage the channel."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass
class Update:
    """What a request changed, for the cog to show."""

    game: GameRecord
    events: list[Event] = field(default_factory=list)
    finished: bool = False
    requester: int | None = None  # the seat whose own press this is: its reply tells it
    # The board showing the change so far is complete and on its way to the channel (the
    # AI's moves after it, if any, get boards of their own).
    board_ready: bool = False

    def private_lines(self, seat: int) -> list[str]:
        """What this request told `seat` alone (a card drawn, a Sneak Peek)."""
        names = seat_names(self.game)
        return [format_event(event, names) for event in self.events if event.to == seat]


NOTES_KEPT = 8  # private notes kept per seat for "My hand" (see `keep_notes`)


def keep_notes(game: GameRecord, update: Update, step: int, events: list[Event]) -> None:
    """Keep what an action told a person who was not the one pressing (a card taken from
    their hand, a Slug given to them, or a move the turn timer made for them), for their
    next "My hand". Kept in the seat, stamped with the step, in the action's transaction."""
    names = seat_names(game)
    for event in events:
        if event.to is None or event.to == update.requester or game.seats[event.to]["ai"]:
            continue
        notes = game.seats[event.to].setdefault("notes", [])
        notes.append({"step": step, "text": format_event(event, names)})
        del notes[:-NOTES_KEPT]


def notes_since_last_move(game: GameRecord, seat: int) -> list[str]:
    """The seat's private notes from after its own last move (older ones it has seen)."""
    player = game.seats[seat]
    moved = player.get("moved", -1)
    return [note["text"] for note in player.get("notes", []) if note["step"] > moved]


def seat_names(game: GameRecord) -> list[str]:
    return [seat["name"] for seat in game.seats]


def format_event(event: Event, names: list[str]) -> str:
    return event.text.format_map({f"p{i}": name for i, name in enumerate(names)})


def seat_of(game: GameRecord, user_id: int) -> int | None:
    """The seat a user plays, or None. A seat handed to the AI is no longer theirs."""
    for index, seat in enumerate(game.seats):
        if seat["user_id"] == user_id and not seat["ai"]:
            return index
    return None


def engine_of(game: GameRecord) -> Game:
    return GAMES[game.kind]


class SessionService:
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

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        host: Player,
        options: dict[str, str],
        seed: int | None = None,
        timer: int | None = None,
        default_timer: int = 0,
    ) -> GameRecord:
        engine = GAMES[kind]
        options = check_options(engine, options)
        # `type(...) is int`: not text, not 1.5, not True (a bool is an int to Python).
        if seed is not None and not (type(seed) is int and 0 <= seed < SEED_LIMIT):
            raise UserError(f"The seed must be a whole number from 0 to {SEED_LIMIT - 1}.")
        if timer is not None and not (type(timer) is int and 0 <= timer <= 24 * 60):
            raise UserError("The turn timer is a number of minutes from 0 (off) to 1440.")
        try:
            async with self._locked(channel_id), self.db.transaction() as session:
                busy = await self._active_in(session, channel_id)
                if busy is not None:
                    raise UserError(
                        f"This channel already has a game of {GAMES[busy.kind].title} "
                        f"({busy.status}). Finish it or use `/game stop` first."
                    )
                game = GameRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    kind=kind,
                    host_id=host.user_id,
                    seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed,
                    options=options,
                    seats=[_human_seat(host)],
                    turn_timer=default_timer if timer is None else timer,
                )
                session.add(game)
                await session.flush()
                return game
        except IntegrityError:
            # Another process (the channel lock is per process) opened one at the same
            # moment; the index allowing one active game per channel refused this one.
            raise UserError(
                "A game is already open in this channel. Finish it or use `/game stop` first."
            ) from None

    async def join(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            if any(seat["user_id"] == player.user_id for seat in game.seats):
                raise UserError("You are already in this lobby.")
            self._check_room(game)
            self._touch(game, seats=[*game.seats, _human_seat(player)])
            session.add(game)
            return game

    async def add_ai(
        self, channel_id: int, game_id: int, player: Player, seats: int | None = None
    ) -> GameRecord:
        """Add an AI seat. `seats`, when given, is how many seats the lobby had when the
        button was drawn: a lobby that has changed since refuses (a double click adds one)."""
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            if seat_of(game, player.user_id) is None and not player.can_manage:
                raise UserError("Only players in this lobby can add an AI player.")
            if seats is not None and seats != len(game.seats):
                raise UserError(
                    "The lobby changed since that button was drawn; nothing was added. "
                    "Press again on the updated lobby to add another AI player."
                )
            self._check_room(game)
            taken = {seat["name"] for seat in game.seats}
            seat = {"user_id": None, "name": ai_name(taken), "ai": True, "timeouts": 0}
            self._touch(game, seats=[*game.seats, {**seat, "rated": False}])
            session.add(game)
            return game

    async def leave_lobby(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        """Leave a lobby. When the host leaves, the next player hosts; with no one left, the
        lobby closes."""
        async with self._locked(channel_id):
            game = await self._leave_lobby(channel_id, game_id, player)
        if game.status == Status.STOPPED:
            self.outbox.signal.notify(channel_id)
        return game

    async def _leave_lobby(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            seat = seat_of(game, player.user_id)
            if seat is None:
                raise UserError("You are not in this lobby.")
            seats = [s for i, s in enumerate(game.seats) if i != seat]
            humans = [s for s in seats if not s["ai"]]
            if not humans:
                self._touch(game, seats=seats, status=Status.STOPPED, finished_at=utcnow())
                await record_clear(session, game)
            elif player.user_id == game.host_id:
                self._touch(game, seats=seats, host_id=humans[0]["user_id"])
            else:
                self._touch(game, seats=seats)
            session.add(game)
            return game

    async def pick(self, channel_id: int, game_id: int, player: Player, choice: int) -> GameRecord:
        """A player's own lobby pick (the game's `seat_pick`, a character say), by its
        position among the choices. Two players cannot pick the same."""
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            option = engine_of(game).seat_pick
            seat = seat_of(game, player.user_id)
            if option is None:
                raise UserError("There is nothing to pick in this game.")
            if seat is None:
                raise UserError("Join the lobby first, then pick.")
            if not 0 <= choice < len(option.choices):
                raise UserError("Pick one of the options.")
            value = option.choices[choice]
            holder = next((s for s in game.seats if s.get("pick") == value), None)
            if holder is not None and holder["user_id"] != player.user_id:
                raise UserError(f"{holder['name']} has already picked that one.")
            seats = [dict(s) for s in game.seats]
            seats[seat]["pick"] = value
            self._touch(game, seats=seats)
            session.add(game)
            return game

    async def cancel(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError("Only the host or someone who manages this channel can cancel.")
            self._touch(game, status=Status.STOPPED, finished_at=utcnow())
            session.add(game)
            await record_clear(session, game)
        self.outbox.signal.notify(channel_id)
        return game

    async def start(self, channel_id: int, game_id: int, player: Player) -> Update:
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._lobby(session, game_id, channel_id)
            if player.user_id != game.host_id:
                raise UserError("Only the host can start the game.")
            engine = engine_of(game)
            if len(game.seats) < engine.min_seats:
                raise UserError(
                    f"{engine.title} needs at least {engine.min_seats} players; "
                    f"there are {len(game.seats)}. Invite someone or add an AI player."
                )
            options = dict(game.options)
            if engine.seat_pick is not None:
                picks = [seat.get("pick", "") for seat in game.seats]
                options[engine.seat_pick.name] = ",".join(picks)
            try:
                state = await self._new_state(
                    game.kind, engine, len(game.seats), options, game.seed
                )
            except IllegalAction as error:
                raise UserError(str(error)) from None
            self._touch(
                game,
                options=options,
                status=Status.PLAYING,
                state=engine.to_json(state),
                step=engine.step(state),
            )
            self._reset_deadline(game, engine, state)
            session.add(game)
            update = Update(game=game, events=engine.opening_events(state))
            await self._show(session, update, engine, state, game.step, update.events, True)
        self._wake_poster(update)
        return update  # the AI's first turns, if any, are `play_ai`'s

    async def _lobby(self, session: AsyncSession, game_id: int, channel_id: int) -> GameRecord:
        game = await self._load(session, game_id, channel_id)
        if game.status != Status.LOBBY:
            raise UserError(
                "That lobby has already started."
                if game.status == Status.PLAYING
                else "That lobby is closed."
            )
        return game

    @staticmethod
    def _check_room(game: GameRecord) -> None:
        engine = engine_of(game)
        if len(game.seats) >= engine.max_seats:
            raise UserError(f"The lobby is full: {engine.title} seats {engine.max_seats}.")

    # ------------------------------------------------------------------ playing

    async def act(
        self,
        channel_id: int,
        game_id: int,
        user_id: int,
        step: int,
        action: str | int,
    ) -> Update:
        """A player's action from a control made at `step`: the action itself, or its
        index among the player's legal actions (what buttons carry). Only the player's move:
        the caller answers the player, then lets the AI seats play theirs with `play_ai`
        (if the process dies in between, `resume_all` does it on start-up)."""
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._load(session, game_id, channel_id)
            engine, state, seat = self._check_turn(game, user_id, step)
            if isinstance(action, int):
                legal = engine.legal_actions(state, seat)
                if not 0 <= action < len(legal):
                    raise UserError("That choice is not open to you any more.")
                action = legal[action]
            update = Update(game=game, requester=seat)
            since = game.step
            state = await self._apply(session, update, engine, state, seat, action, "player")
            game.seats[seat]["timeouts"] = 0
            self._touch(game, seats=list(game.seats))
            await self._show(session, update, engine, state, since, update.events)
        self._wake_poster(update)
        return update

    async def play_ai(self, update: Update) -> Update:
        """Let the AI seats play every turn that is theirs after `update` (a press, a start,
        a seat handed over), adding what they did to it."""
        try:
            async with self._locked(update.game.channel_id):
                return await self._play_ai_turns(update)
        except UserError:
            if self.stopping:
                return update  # the player's move is saved; the next start plays the AI's
            raise

    @staticmethod
    def _check_turn(game: GameRecord, user_id: int, step: int) -> tuple[Game, Any, int]:
        """The engine, state and seat of a player whose turn it is, or a UserError saying
        why their button does nothing."""
        if game.status != Status.PLAYING:
            raise UserError("That game is over; these buttons no longer do anything.")
        seat = seat_of(game, user_id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if step != game.step:
            raise UserError("Those buttons are out of date: use the newest game message.")
        engine = engine_of(game)
        assert game.state is not None
        state = engine.from_json(game.state)
        if seat not in engine.to_act(state):
            raise UserError("It is not your turn.")
        return engine, state, seat

    async def narrow(
        self, channel_id: int, game_id: int, user_id: int, step: int, prefix: str
    ) -> tuple[GameRecord, list[tuple[int, str, str]]]:
        """The legal actions that start with a menu choice, as (index among the legal
        actions, action, label), for the player whose turn it is. Changes nothing."""
        game = await self.get(game_id)
        if game is None or game.channel_id != channel_id:
            raise UserError("That game no longer exists.")
        engine, state, seat = self._check_turn(game, user_id, step)
        names = seat_names(game)
        matching = [
            (index, action, format_event(Event(engine.describe(state, action)), names))
            for index, action in enumerate(engine.legal_actions(state, seat))
            if action == prefix or action.startswith(prefix + " ")
        ]
        if not matching:
            raise UserError("That choice is not open to you any more.")
        return game, matching

    async def turn_view(
        self, channel_id: int, game_id: int, user_id: int, step: int, own: bool
    ) -> tuple[GameRecord, JSON, list[str]]:
        """What a control made at `step` was built from: the player's own view and legal
        actions (`own`), or the public view and the legal actions of the seat to act.
        Refuses, like `act`, anyone whose turn it is not."""
        game = await self.get(game_id)
        if game is None or game.channel_id != channel_id:
            raise UserError("That game no longer exists.")
        engine, state, seat = self._check_turn(game, user_id, step)
        view = engine.observe(state, seat if own else None)
        return game, view, engine.legal_actions(state, seat)

    async def _apply(
        self,
        session: AsyncSession,
        update: Update,
        engine: Game,
        state: Any,
        seat: int,
        action: str,
        actor: str,
    ) -> Any:
        """Apply one action to the loaded game row and log it, inside the caller's
        transaction. Raises UserError (the rule broken) for an illegal action."""
        game = update.game
        try:
            applied = await self._engine_apply(game.kind, engine, state, seat, action)
        except IllegalAction as error:
            raise UserError(str(error)) from None
        session.add(
            ActionRecord(
                game_id=game.id or 0, step=game.step, seat=seat, actor=actor, action=action
            )
        )
        keep_notes(game, update, game.step, applied.events)
        if actor == "player":
            game.seats[seat]["moved"] = game.step
        new_state = applied.state
        self._touch(game, state=engine.to_json(new_state), step=engine.step(new_state))
        update.events.extend(applied.events)
        outcome = engine.outcome(new_state)
        if outcome is not None:
            await self._finish(session, game, outcome)
            update.finished = True
        else:
            self._reset_deadline(game, engine, new_state)
        session.add(game)
        log.info("game %s step %s: seat %s acted (%s)", game.id, game.step, seat, actor)
        return new_state

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

    async def _finish(self, session: AsyncSession, game: GameRecord, outcome: Outcome) -> None:
        self._touch(game, status=Status.FINISHED, finished_at=utcnow(), turn_deadline=None)
        results = [
            ResultRecord(
                game_id=game.id or 0,
                guild_id=game.guild_id,
                kind=game.kind,
                seat=index,
                user_id=seat["user_id"],
                name=seat["name"],
                rank=outcome.ranks[index],
                points=outcome.points[index],
                rated=bool(seat["rated"]) and not seat["ai"],
            )
            for index, seat in enumerate(game.seats)
        ]
        session.add_all(results)
        await update_ratings(session, game.guild_id, game.kind, results)

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
            if self.stopping:
                # Every AI action so far is saved; resume_all plays the rest at the next start.
                log.info("game %s: stopping; the AI resumes at the next start", update.game.id)
                return update
            if game is None or game.status != Status.PLAYING or game.state is None:
                return update
            engine = engine_of(game)
            if state is None:
                state = engine.from_json(game.state)
            ai_seats = sorted(s for s in engine.to_act(state) if game.seats[s]["ai"])
            if not ai_seats:
                return update
            seat, chosen_at = ai_seats[0], game.step
            action = await self._ai_pick(game, engine, state, seat)
            async with self.db.transaction() as session:
                game = update.game = await self._load(session, update.game.id or 0)
                if game.status != Status.PLAYING or game.state is None:
                    return update
                if game.step != chosen_at:
                    # Someone else moved the game on while the AI thought (another process,
                    # a timer): the choice was for a position that is gone; look again.
                    log.info("game %s: AI choice for step %s dropped", game.id, chosen_at)
                    state = None
                    continue
                since, first = game.step, len(update.events)
                state = await self._apply(session, update, engine, state, seat, action, "ai")
                await self._show(session, update, engine, state, since, update.events[first:])
            self._wake_poster(update)
        log.warning("game %s: AI chain limit reached", update.game.id)
        return update

    async def _ai_pick(self, game: GameRecord, engine: Game, state: Any, seat: int) -> str:
        """The AI's pick for `seat` at the game's step, in the worker pool: for an AI seat's
        turn and for a late player (the turn timer)."""
        observation, legal = engine.observe(state, seat), engine.legal_actions(state, seat)
        seed = (game.seed, "ai", engine.step(state), seat)  # the step of `state`
        return await self.workers.run(ai_choice, game.kind, observation, legal, seed)

    async def resume_all(self) -> list[Update]:
        """After a restart: let the AI finish turns it had not played yet (a press whose
        process died before `play_ai`, or in the middle of it)."""
        async with self.db.reading() as session:
            query = select(GameRecord).where(
                GameRecord.status == Status.PLAYING, self.shards.owned(GameRecord.guild_id)
            )
            games = list((await session.exec(query)).all())
        updates = []
        for game in games:
            try:
                async with self._locked(game.channel_id):
                    update = await self._play_ai_turns(Update(game=game))
            except UserError:
                if self.stopping:
                    break  # the next start resumes the rest
                raise
            if update.events:
                updates.append(update)
        return updates

    # ------------------------------------------------------------------ the turn timer

    async def late_games(self) -> list[GameRecord]:
        if self.stopping:
            return []  # the timer plays them after the restart
        now = self.clock()
        async with self.db.reading() as session:
            query = select(GameRecord).where(
                GameRecord.status == Status.PLAYING,
                col(GameRecord.turn_deadline).is_not(None),
                col(GameRecord.turn_deadline) <= now,
                self.shards.owned(GameRecord.guild_id),
            )
            return list((await session.exec(query)).all())

    async def play_for_late(self, game: GameRecord) -> Update | None:
        """The timer ran out: the AI plays the late players' decision. Three timeouts in a
        row hand the seat to the AI for good, and it is no longer rated.

        The AI thinks first, from the game as read, and outside any transaction (SQLite has
        one writer: a Toss It pick tries many drops, and every channel's writes would wait);
        the transaction then applies its picks if the game is still at that step."""
        async with self._locked(game.channel_id):
            async with self.db.reading() as session:
                game = await self._load(session, game.id or 0)
            if not self._late(game):
                return None
            engine = engine_of(game)
            assert game.state is not None
            state, chosen_at = engine.from_json(game.state), game.step
            picks = await self._picks_for_late(game, engine, state)
            async with self.db.transaction() as session:
                game = await self._load(session, game.id or 0)
                if not self._late(game) or game.step != chosen_at:
                    return None  # moved on while the AI thought (a press in another process)
                update = Update(game=game)
                for seat, action in picks:
                    timed_out = game.seats[seat]
                    timed_out["timeouts"] += 1
                    name = f"{{p{seat}}}"
                    if timed_out["timeouts"] >= 3:
                        timed_out.update(ai=True, rated=False)
                        text = f"{name} missed three turns in a row: the AI keeps the seat."
                    else:
                        text = f"{name} ran out of time; the AI plays this turn for them."
                    update.events.append(Event(text))
                    state = await self._apply(session, update, engine, state, seat, action, "timer")
                    if update.finished:
                        break
                self._touch(game, seats=list(game.seats))
                session.add(game)
                await self._show(session, update, engine, state, chosen_at, update.events)
            self._wake_poster(update)
            return await self._play_ai_turns(update)

    def _late(self, game: GameRecord) -> bool:
        deadline = game.turn_deadline
        return game.status == Status.PLAYING and deadline is not None and deadline <= self.clock()

    async def _picks_for_late(
        self, game: GameRecord, engine: Game, state: Any
    ) -> list[tuple[int, str]]:
        """The AI's pick for each late human seat, in seat order; with several late at once
        (a simultaneous choice), each picks at the position the picks before it lead to."""
        late = [seat for seat in sorted(engine.to_act(state)) if not game.seats[seat]["ai"]]
        picks = []
        for seat in late:
            action = await self._ai_pick(game, engine, state, seat)
            picks.append((seat, action))
            if seat != late[-1]:
                state = (await self._engine_apply(game.kind, engine, state, seat, action)).state
                if engine.outcome(state) is not None:
                    break
        return picks

    # ------------------------------------------------------------------ /game commands

    async def stop(self, channel_id: int, player: Player) -> GameRecord:
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._require_active(session, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError("Only the host or someone who manages this channel can stop it.")
            self._touch(game, status=Status.STOPPED, finished_at=utcnow(), turn_deadline=None)
            session.add(game)
            await record_clear(session, game)
        self.outbox.signal.notify(channel_id)
        return game

    async def hand_to_ai(self, channel_id: int, player: Player, target_id: int) -> Update:
        """`/game leave` (target is the player) and `/game kick` (host or a channel manager).
        The AI's turns in that seat are then `play_ai`'s."""
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._require_active(session, channel_id)
            if target_id != player.user_id and not (
                player.user_id == game.host_id or player.can_manage
            ):
                raise UserError("Only the host or someone who manages this channel can kick.")
            seat = seat_of(game, target_id)
            if seat is None:
                who = "You are" if target_id == player.user_id else "That member is"
                raise UserError(f"{who} not playing in this channel's game.")
            if game.status == Status.LOBBY:
                raise UserError("The game has not started: use the lobby's Leave button.")
            game.seats[seat].update(ai=True, rated=False)
            if target_id == game.host_id:
                humans = [s for s in game.seats if not s["ai"]]
                if humans:
                    game.host_id = humans[0]["user_id"]
            self._touch(game, seats=list(game.seats))
            session.add(game)
            verb = "left" if target_id == player.user_id else "was removed"
            update = Update(
                game=game,
                events=[Event(f"{{p{seat}}} {verb}; the AI takes over the seat.")],
            )
            engine = engine_of(game)
            assert game.state is not None
            state = engine.from_json(game.state)
            await self._show(session, update, engine, state, game.step, update.events)
        self._wake_poster(update)
        return update

    async def set_timer(self, channel_id: int, player: Player, minutes: int) -> GameRecord:
        if not 0 <= minutes <= 24 * 60:
            raise UserError("The turn timer is a number of minutes from 0 (off) to 1440.")
        async with self._locked(channel_id), self.db.transaction() as session:
            game = await self._require_active(session, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError("Only the host or someone who manages this channel can set it.")
            game.turn_timer = minutes
            if game.status == Status.PLAYING and game.state is not None:
                engine = engine_of(game)
                self._reset_deadline(game, engine, engine.from_json(game.state))
            self._touch(game)
            session.add(game)
            return game

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
                rows = await session.exec(
                    select(ResultRecord)
                    .where(ResultRecord.game_id == game.id)
                    .order_by(col(ResultRecord.rank), col(ResultRecord.seat))
                )
                out.append((game, list(rows.all())))
            return out


def _human_seat(player: Player) -> dict[str, Any]:
    return {
        "user_id": player.user_id,
        "name": player.name,
        "ai": False,
        "timeouts": 0,
        "rated": True,
    }


def check_options(engine: Game, options: dict[str, str]) -> dict[str, str]:
    """Fill in defaults and refuse an unknown option or value, naming it."""
    known = {option.name: option for option in engine.options}
    checked = {name: option.default for name, option in known.items()}
    for name, value in options.items():
        if value is None:
            continue
        if name not in known:
            raise UserError(f"{engine.title} has no option `{name}`.")
        option = known[name]
        if option.choices and value not in option.choices:
            raise UserError(f"`{name}` must be one of: {', '.join(option.choices)}.")
        if (
            option.low is not None
            and option.high is not None
            and not (value.isdecimal() and option.low <= int(value) <= option.high)
        ):
            raise UserError(f"`{name}` must be a whole number from {option.low} to {option.high}.")
        checked[name] = value
    return engine.settle_options(checked)

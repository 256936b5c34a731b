"""Lobby requests: open, join, add an AI seat, pick, leave, cancel and start. Each runs
under the channel's lock in one transaction (`bot/store.py`)."""

from __future__ import annotations

import secrets
from dataclasses import replace

from sqlalchemy.exc import IntegrityError

from bot import rows
from bot.games import GAMES, ai_name
from bot.models import GameRecord, Seat, Status, utcnow
from bot.outbox import record_clear
from bot.requests import (
    SEED_LIMIT,
    Player,
    Update,
    UserError,
    check_options,
    engine_of,
    human_seat,
    seat_of,
)
from bot.statements import Statements
from bot.store import Store
from lang import ENGLISH, LANGUAGES, PSEUDO
from rules.base import LEVELS, IllegalAction, Level
from rules.phrases import Phrase, phrase

ALREADY_OPEN = phrase(
    "A game is already open in this channel. Finish it or use `/game stop` first."
)


def checked_level(level: str) -> Level:
    """`level` if it is one of the AI's levels, else a UserError naming them."""
    for known in LEVELS:
        if level == known:
            return known
    raise UserError(
        phrase("The AI plays at one of these levels: {levels}.", levels=", ".join(LEVELS))
    )


def served(language: str) -> str | None:
    """A language as a game row keeps it: None for English (as games before languages),
    English too for a language whose catalogue has since gone. The tests' pseudo language
    is kept (no Discord server has it)."""
    if language == PSEUDO or (language in LANGUAGES and language != ENGLISH):
        return language
    return None


def fresh_seat(seat: Seat) -> Seat:
    """A seat of a finished game, as it sits down again: the same person or AI player, with
    nothing of the last game (timeouts, notes, picks)."""
    if seat.ai:
        return Seat(user_id=None, name=seat.name, ai=True, rated=False, level=seat.level)
    return Seat(user_id=seat.user_id, name=seat.name)


class Lobbies:
    """The lobby's requests, on the service's `Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

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
        handover: str | None = None,
        language: str = ENGLISH,
    ) -> GameRecord:
        """A new lobby hosted by `host`. `handover`: the level the AI plays at when it takes
        over a person's seat (None: normal). The game speaks the language the server's
        admins chose, else `language` (the server's own)."""
        engine = GAMES[kind]
        options = check_options(engine, options)
        # `type(...) is int`: not text, not 1.5, not True (a bool is an int to Python).
        if seed is not None and not (type(seed) is int and 0 <= seed < SEED_LIMIT):
            raise UserError(
                phrase("The seed must be a whole number from 0 to {top}.", top=SEED_LIMIT - 1)
            )
        if timer is not None and not (type(timer) is int and 0 <= timer <= 24 * 60):
            raise UserError(phrase("The turn timer is a number of minutes from 0 (off) to 1440."))
        if handover is not None:
            handover = checked_level(handover)
        try:
            async with self.store.locked(channel_id), self.store.db.writing() as connection:
                busy = phrase(
                    "This channel already has a game of {game}. "
                    "Finish it or use `/game stop` first."
                )
                await self._refuse_if_busy(connection, channel_id, busy)
                chosen = await rows.guild_language(connection, guild_id)
                game = GameRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    kind=kind,
                    host_id=host.user_id,
                    seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed,
                    options=options,
                    seats=[human_seat(host)],
                    turn_timer=default_timer if timer is None else timer,
                    handover_level=handover,
                    language=served(chosen or language),
                )
                return await rows.insert_game(connection, game)
        except IntegrityError:
            # Another process (the channel lock is per process) opened one at the same
            # moment; the index allowing one active game per channel refused this one.
            raise UserError(ALREADY_OPEN) from None

    async def rematch(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        """A new lobby in this channel with the seats (people and AI players, in their order)
        and options of a finished game, hosted by the player who asked, on a new seed.
        Everyone is seated already: whoever would rather not play leaves the lobby."""
        try:
            async with self.store.locked(channel_id), self.store.db.writing() as connection:
                old = await self.store.load(connection, game_id, channel_id)
                if old.status != Status.FINISHED:
                    raise UserError(phrase("Only a finished game can be played again."))
                if seat_of(old, player.user_id) is None:
                    raise UserError(phrase("Only the players of that game can ask for a rematch."))
                busy = phrase(
                    "This channel already has a game of {game}: play that one, "
                    "or use `/game stop` first."
                )
                await self._refuse_if_busy(connection, channel_id, busy)
                engine = GAMES[old.kind]
                # The options chosen in the lobby; the seats' own picks are chosen again.
                options = {
                    o.name: old.options[o.name] for o in engine.options if o.name in old.options
                }
                seats = [fresh_seat(seat) for seat in old.seats]
                game = GameRecord(
                    guild_id=old.guild_id,
                    channel_id=channel_id,
                    kind=old.kind,
                    host_id=player.user_id,
                    seed=secrets.randbelow(SEED_LIMIT),
                    options=options,
                    seats=seats,
                    turn_timer=old.turn_timer,
                    handover_level=old.handover_level,
                    language=old.language,
                )
                return await rows.insert_game(connection, game)
        except IntegrityError:  # as in open_lobby: another process was first
            raise UserError(ALREADY_OPEN) from None

    async def _refuse_if_busy(
        self, connection: Statements, channel_id: int, refusal: Phrase
    ) -> None:
        """A UserError when the channel already has a lobby or a game: `refusal`, its
        `{game}` the one under way."""
        busy = await self.store.active_in(connection, channel_id)
        if busy is not None:
            raise UserError(replace(refusal, fill={"game": GAMES[busy.kind].title}))

    async def join(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            if any(seat.user_id == player.user_id for seat in game.seats):
                raise UserError(phrase("You are already in this lobby."))
            self._check_room(game)
            self.store.touch(game, seats=[*game.seats, human_seat(player)])
            await rows.save_game(connection, game)
            return game

    async def add_ai(
        self,
        channel_id: int,
        game_id: int,
        player: Player,
        seats: int | None = None,
        level: str = "normal",
    ) -> GameRecord:
        """Add an AI seat playing at `level`. `seats`, when given, is how many seats the lobby
        had when the control was drawn: a lobby that has changed since refuses (a double
        click adds one)."""
        level = checked_level(level)
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            if seat_of(game, player.user_id) is None and not player.can_manage:
                raise UserError(phrase("Only players in this lobby can add an AI player."))
            if seats is not None and seats != len(game.seats):
                raise UserError(
                    "The lobby changed since that control was drawn; nothing was added. "
                    "Use the updated lobby to add another AI player."
                )
            self._check_room(game)
            taken = {seat.name for seat in game.seats}
            seat = Seat(user_id=None, name=ai_name(taken), ai=True, rated=False, level=level)
            self.store.touch(game, seats=[*game.seats, seat])
            await rows.save_game(connection, game)
            return game

    async def leave_lobby(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        """Leave a lobby. When the host leaves, the next player hosts; with no one left, the
        lobby closes."""
        async with self.store.locked(channel_id):
            game = await self._leave_lobby(channel_id, game_id, player)
        if game.status == Status.STOPPED:
            self.store.outbox.signal.notify(channel_id)
        return game

    async def _leave_lobby(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            seat = seat_of(game, player.user_id)
            if seat is None:
                raise UserError(phrase("You are not in this lobby."))
            seats = [s for i, s in enumerate(game.seats) if i != seat]
            humans = [s for s in seats if not s.ai]
            if not humans:
                self.store.touch(game, seats=seats, status=Status.STOPPED, finished_at=utcnow())
                await record_clear(connection, game)
            elif player.user_id == game.host_id:
                self.store.touch(game, seats=seats, host_id=humans[0].user_id)
            else:
                self.store.touch(game, seats=seats)
            await rows.save_game(connection, game)
            return game

    async def pick(self, channel_id: int, game_id: int, player: Player, choice: int) -> GameRecord:
        """A player's own lobby pick (the game's `seat_pick`, a character say), by its
        position among the choices. Two players cannot pick the same."""
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            option = engine_of(game).seat_pick
            seat = seat_of(game, player.user_id)
            if option is None:
                raise UserError(phrase("There is nothing to pick in this game."))
            if seat is None:
                raise UserError(phrase("Join the lobby first, then pick."))
            if not 0 <= choice < len(option.choices):
                raise UserError(phrase("Pick one of the options."))
            value = option.choices[choice]
            holder = next((s for s in game.seats if s.pick == value), None)
            if holder is not None and holder.user_id != player.user_id:
                raise UserError(phrase("{name} has already picked that one.", name=holder.name))
            seats = [s.model_copy() for s in game.seats]
            seats[seat].pick = value
            self.store.touch(game, seats=seats)
            await rows.save_game(connection, game)
            return game

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """The language a server's admins chose for its boards, lobbies and standings (None:
        the server's own, as Discord gives it). A game keeps the language it opened in; the
        next lobby speaks this one."""
        if language is not None and language not in LANGUAGES:
            raise UserError(
                phrase(
                    "There is no {language} here; these are: {languages}.",
                    language=language,
                    languages=", ".join(LANGUAGES),
                )
            )
        async with self.store.db.writing() as connection:
            await rows.set_guild_language(connection, guild_id, language)

    async def guild_language(self, guild_id: int) -> str | None:
        async with self.store.db.connected() as connection:
            return await rows.guild_language(connection, guild_id)

    async def cancel(self, channel_id: int, game_id: int, player: Player) -> GameRecord:
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError(
                    phrase("Only the host or someone who manages this channel can cancel.")
                )
            self.store.touch(game, status=Status.STOPPED, finished_at=utcnow())
            await rows.save_game(connection, game)
            await record_clear(connection, game)
        self.store.outbox.signal.notify(channel_id)
        return game

    async def start(self, channel_id: int, game_id: int, player: Player) -> Update:
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self._lobby(connection, game_id, channel_id)
            if player.user_id != game.host_id:
                raise UserError(phrase("Only the host can start the game."))
            engine = engine_of(game)
            if len(game.seats) < engine.min_seats:
                raise UserError(
                    phrase(
                        "{game} needs at least {least} players; there are {seats}. "
                        "Invite someone or add an AI player.",
                        game=engine.title,
                        least=engine.min_seats,
                        seats=len(game.seats),
                    )
                )
            options = dict(game.options)
            if engine.seat_pick is not None:
                picks = [seat.pick for seat in game.seats]
                options[engine.seat_pick.name] = ",".join(picks)
            try:
                state = await self.store.new_state(
                    game.kind, engine, len(game.seats), options, game.seed
                )
            except IllegalAction as error:
                raise UserError(error.reason) from None
            self.store.touch(
                game,
                options=options,
                status=Status.PLAYING,
                state=engine.to_json(state),
                step=engine.step(state),
                rules_version=engine.rules_version,
            )
            self.store.keep_state(game, state)
            self.store.reset_deadline(game, engine, state)
            update = Update(game=game, events=engine.opening_events(state))
            outcome = engine.outcome(state)
            if outcome is not None:  # the deal itself can end a game (Brawl: three sets)
                update.standings = await self.store.finish(connection, game, outcome)
                update.finished = True
            await rows.save_game(connection, game)
            await self.store.show(
                connection, update, engine, state, game.step, [], update.events, True
            )
        self.store.metrics.started(game)
        self.store.wake_poster(update)
        return update  # the AI's first turns, if any, are `play_ai`'s

    async def _lobby(self, connection: Statements, game_id: int, channel_id: int) -> GameRecord:
        game = await self.store.load(connection, game_id, channel_id)
        if game.status != Status.LOBBY:
            if game.status == Status.PLAYING:
                raise UserError(phrase("That lobby has already started."))
            raise UserError(phrase("That lobby is closed."))
        return game

    @staticmethod
    def _check_room(game: GameRecord) -> None:
        engine = engine_of(game)
        if len(game.seats) >= engine.max_seats:
            raise UserError(
                phrase(
                    "The lobby is full: {game} seats {most}.",
                    game=engine.title,
                    most=engine.max_seats,
                )
            )

"""The `/game` commands that change a game under way: stop it, hand a seat to the AI
(`/game leave`, `/game kick`) and set the turn timer. A part of the session service,
like the lobby's (`bot/lobbies.py`): each runs under the channel's lock in one
transaction on the same store."""

from __future__ import annotations

from bot import rows
from bot.lobbies import checked_level
from bot.models import GameRecord, Status, utcnow
from bot.outbox import record_clear
from bot.requests import Player, Update, UserError, engine_of, seat_of, waiting_for
from bot.store import Store
from rules.base import Event, Level
from rules.phrases import SeatName, phrase


class TableCommands:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def stop(self, channel_id: int, player: Player) -> GameRecord:
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self.store.require_active(connection, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError(
                    phrase("Only the host or someone who manages this channel can stop it.")
                )
            under_way = game.status == Status.PLAYING  # else a lobby closed: no game ended
            self.store.touch(game, status=Status.STOPPED, finished_at=utcnow(), turn_deadline=None)
            await rows.save_game(connection, game)
            await record_clear(connection, game)
        self.store.outbox.signal.notify(channel_id)
        if under_way:
            self.store.metrics.ended(game, "stopped")
        return game

    async def hand_to_ai(self, channel_id: int, player: Player, target_id: int) -> Update:
        """`/game leave` (target is the player) and `/game kick` (host or a channel manager).
        The AI's turns in that seat are then `play_ai`'s."""
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self.store.require_active(connection, channel_id)
            if target_id != player.user_id and not (
                player.user_id == game.host_id or player.can_manage
            ):
                raise UserError(
                    phrase("Only the host or someone who manages this channel can kick.")
                )
            seat = seat_of(game, target_id)
            if seat is None:
                if target_id == player.user_id:
                    raise UserError(phrase("You are not playing in this channel's game."))
                raise UserError(phrase("That member is not playing in this channel's game."))
            if game.status == Status.LOBBY:
                raise UserError(phrase("The game has not started: use the lobby's Leave button."))
            handed = game.seats[seat]
            handed.ai, handed.rated, handed.level = True, False, handover_level(game)
            if target_id == game.host_id:
                humans = [s for s in game.seats if not s.ai]
                if humans:
                    game.host_id = humans[0].user_id or 0
            await rows.save_game(connection, game)
            took_over = (
                phrase("{player} left; the AI takes over the seat.", player=SeatName(seat))
                if target_id == player.user_id
                else phrase(
                    "{player} was removed; the AI takes over the seat.", player=SeatName(seat)
                )
            )
            update = Update(game=game, events=[Event(took_over)])
            engine = engine_of(game)
            assert game.state is not None
            state = self.store.state_of(game)
            before = waiting_for(game, engine, state)  # the seat is the AI's already
            await self.store.show(
                connection, update, engine, state, game.step, before, update.events
            )
        self.store.wake_poster(update)
        return update

    async def set_timer(self, channel_id: int, player: Player, minutes: int) -> GameRecord:
        if not 0 <= minutes <= 24 * 60:
            raise UserError(phrase("The turn timer is a number of minutes from 0 (off) to 1440."))
        async with self.store.locked(channel_id), self.store.db.writing() as connection:
            game = await self.store.require_active(connection, channel_id)
            if player.user_id != game.host_id and not player.can_manage:
                raise UserError(
                    phrase("Only the host or someone who manages this channel can set it.")
                )
            game.turn_timer = minutes
            if game.status == Status.PLAYING and game.state is not None:
                engine = engine_of(game)
                self.store.reset_deadline(game, engine, self.store.state_of(game))
            await rows.save_game(connection, game)
            return game


def handover_level(game: GameRecord) -> Level:
    """The level the AI plays a person's seat at once it takes it over: the host's choice,
    normal unless they chose (and for games opened before they could)."""
    return checked_level(game.handover_level or "normal")

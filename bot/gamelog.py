"""`/game log`: the public moves of the game under way in a channel, so far.

Nothing is stored for it: as for a replay (bot/replays.py), the game is played again from
its seed, options and action log through its engine, and only the events meant for the
whole channel (`Event.to` is None) are kept, filled in with the seats' names exactly as
the boards wrote them. A card drawn or a secret told to one seat never leaves the rebuild.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select

from bot.database import Database
from bot.games import GAMES
from bot.models import ActionRecord, GameRecord, Status
from bot.requests import UserError, format_event, seat_names
from rules.base import Event, IllegalAction
from rules.phrases import phrase


@dataclass(frozen=True)
class Moves:
    """What the rebuild needs, as plain data (it runs in a worker: Toss It's physics)."""

    kind: str
    seats: int
    options: dict[str, str]
    seed: int
    actions: list[tuple[int, str]]  # (seat, action), in the order they were played
    names: list[str]


async def load_moves(
    db: Database, channel_id: int, language: str | None = None
) -> tuple[GameRecord, Moves]:
    """The game under way in this channel and its moves, or a UserError saying why not;
    its lines to be said in `language` (the game's unless given)."""
    async with db.reading() as session:
        game = (
            await session.exec(
                select(GameRecord).where(
                    GameRecord.channel_id == channel_id, GameRecord.status == Status.PLAYING
                )
            )
        ).first()
        if game is None:
            raise UserError(phrase("There is no game under way in this channel."))
        actions = await session.exec(
            select(ActionRecord.seat, ActionRecord.action)
            .where(ActionRecord.game_id == game.id)
            .order_by(col(ActionRecord.step))
        )
        moves = Moves(
            kind=game.kind,
            seats=len(game.seats),
            options=dict(game.options),
            seed=game.seed,
            actions=[(seat, action) for seat, action in actions.all()],
            names=seat_names(game, language),
        )
    return game, moves


def public_lines(moves: Moves) -> list[str]:
    """Every public line of the game so far, oldest first. An action the engine refuses
    now (rules changed under a game in progress) ends the log there rather than failing
    it: what came before is still true."""
    engine = GAMES[moves.kind]
    state = engine.new_game(moves.seats, moves.options, moves.seed)
    events: list[Event] = list(engine.opening_events(state))
    for seat, action in moves.actions:
        try:
            applied = engine.apply(state, seat, action)
        except IllegalAction:
            break
        state = applied.state
        events.extend(applied.events)
    return [format_event(event, moves.names) for event in events if event.to is None]

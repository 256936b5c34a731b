"""Replays: a finished game shown again, board by board.

Nothing is stored for a replay. A game is rebuilt from what the bot keeps anyway: its seed,
its options and its action log, played again through its engine. Each frame is the public
observation at a step one of the game's board messages showed (the outbox keeps the step of
every board it posted), so a replay shows exactly the boards the channel saw, and never a
hand or a secret: nothing but `observe(state, None)` and the events meant for everyone
(`to` None) leaves the rebuild.

A game is replayed only under the rules it was played with. Each engine states its
`rules_version`, and each game keeps the version it started under; a game from another
version is refused. A game older than versions (None) is rebuilt and compared with the state
saved at its end: any difference refuses it too, with the same reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot import keeping
from bot.database import Database
from bot.games import GAMES
from bot.models import GameRecord, Status
from bot.requests import UserError
from rules.base import JSON, IllegalAction
from rules.phrases import Filling, phrase

CHANGED_RULES = (
    "Game #{id} was played under older rules of {title}, so a replay could not show it "
    "as it was played."
)


class ReplayRefused(UserError):
    """The game cannot be replayed as it was played (its rules changed since)."""


@dataclass(frozen=True)
class GameLog:
    """What rebuilding a finished game needs, as plain data (it is sent to a worker)."""

    id: int
    kind: str
    seats: int
    options: dict[str, str]
    seed: int
    actions: list[tuple[int, int, str]]  # (the step before it, seat, action), in order
    shown: list[int]  # the steps the game's boards showed, in the order they were posted
    final: JSON  # the state saved at the end
    # The message each of those boards went on (None: not known), so a board edited onto
    # the message of the board before it (the same turn) is told apart from a new one.
    messages: list[int | None] = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    view: JSON  # the public observation
    step: int  # the step it shows
    since: int  # the step the board before it showed (for the marks of the last move)
    continues: bool  # it went on the message of the board before it (the same turn)
    # The public log lines of the actions since the board before it (`to` None only: a
    # line meant for one seat never leaves the rebuild), seats still as `{p0}`, `{p1}`.
    lines: tuple[Filling, ...] = ()


LARGEST_ID = 2**31 - 1  # a game id is a 32-bit integer on PostgreSQL


async def load_log(db: Database, guild_id: int, game_id: int) -> tuple[GameRecord, GameLog]:
    """A finished game of this guild and its log, or a UserError saying why not."""
    if not 0 < game_id <= LARGEST_ID:  # no game has it, and the database can't look it up
        raise UserError(phrase("There is no game #{id} in this server.", id=game_id))
    async with db.reading() as session:
        game = await session.get(GameRecord, game_id)
        if game is None or game.guild_id != guild_id:
            raise UserError(phrase("There is no game #{id} in this server.", id=game_id))
        if game.status != Status.FINISHED or game.state is None:
            raise UserError(
                phrase("Game #{id} has not finished: only a finished game replays.", id=game_id)
            )
        engine = GAMES[game.kind]
        if game.rules_version not in (None, engine.rules_version):
            raise ReplayRefused(CHANGED_RULES.format(id=game_id, title=engine.title))
        if game.archive is not None:  # folded into its row a day after it ended
            kept = keeping.Played.unpacked(game.archive)
        else:
            async with db.connected() as connection:
                kept = await keeping.read_log(connection, game_id)
        log = GameLog(
            id=game_id,
            kind=game.kind,
            seats=len(game.seats),
            options=dict(game.options),
            seed=game.seed,
            actions=kept.actions,
            shown=[step for step, _ in kept.boards],
            messages=[message for _, message in kept.boards],
            final=game.state,
        )
    return game, log


def rebuild(log: GameLog) -> list[Frame]:
    """The public view at each step a board showed (at every step, for a game whose boards
    were posted before the outbox kept them). Raises `ReplayRefused` when the log does not
    play back into the game that was saved."""
    engine = GAMES[log.kind]
    refused = ReplayRefused(CHANGED_RULES.format(id=log.id, title=engine.title))
    state = engine.new_game(log.seats, log.options, log.seed)
    wanted = set(log.shown)
    views: dict[int, JSON] = {}
    every: list[int] = []
    said: dict[int, list[Filling]] = {}  # the public lines of the action reaching each step

    def keep(state: Any) -> None:
        step = engine.step(state)
        every.append(step)
        if not wanted or step in wanted:
            views[step] = engine.observe(state, None)

    keep(state)
    for step, seat, action in log.actions:
        if engine.step(state) != step:
            raise refused
        try:
            applied = engine.apply(state, seat, action)
        except IllegalAction:
            raise refused from None
        state = applied.state
        said[engine.step(state)] = [e.text for e in applied.events if e.to is None]
        keep(state)
    if not _same_as_saved(engine.to_json(state), log.final, engine.remembered):
        raise refused
    shown = [step for step in log.shown if step in views] or every
    if len(shown) < len(log.shown):
        raise refused  # a board showed a step this log never reached
    message_of = dict(zip(log.shown, log.messages, strict=False))
    frames, since = [], shown[0]
    for index, step in enumerate(shown):
        message = message_of.get(step)
        continues = index > 0 and message is not None and message == message_of.get(since)
        lines = [
            line for reached in every if since < reached <= step for line in said.get(reached, [])
        ]
        frames.append(Frame(views[step], step, since, continues, tuple(lines)))
        since = step
    return frames


def frame_count(log: GameLog) -> int:
    """How many frames `rebuild` makes of `log` (read without rebuilding it)."""
    return len(log.shown) or len(log.actions) + 1


def turn_starts(frames: list[Frame]) -> list[int]:
    """The frames that start a turn, in order: the first, and each board posted as a new
    message (the turn passed to a person) rather than edited onto the one before."""
    return [index for index, frame in enumerate(frames) if index == 0 or not frame.continues]


def turn_ends(frames: list[Frame]) -> set[int]:
    """The frames that end a turn: the last board of each message (the board after it is
    a new message, not a drop edited onto the same one), and the game's last."""
    return {
        index
        for index in range(len(frames))
        if index + 1 == len(frames) or not frames[index + 1].continues
    }


def _same_as_saved(replayed: JSON, saved: JSON, remembered: tuple[str, ...]) -> bool:
    """Whether a replay reached the state saved, compared on the fields the saved one has
    (a field the state gained after the game was saved holds nothing it was played by) but
    those the game only `remembered`."""
    keys = [key for key in saved if key not in remembered]
    return _canonical({key: replayed.get(key) for key in keys}) == _canonical(
        {key: saved[key] for key in keys}
    )


def _canonical(data: JSON) -> str:
    """A state as the database gives it back (tuples become lists), for comparison."""
    return json.dumps(data, sort_keys=True)

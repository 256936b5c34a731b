"""Rumble's state: where every character stands, the secret pairs, the rumble and turn, the
totals and the reveals of finished rumbles (`Reveal`), and saving a state to JSON and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from rules.base import LastMove
from rules.rumble.dungeon import Layout
from rules.rumble.observation import RumbleResult

SCHEMA = 1
RUMBLES = 3  # rumbles in a game
SECRETS_EACH = 2  # secret characters dealt to every player

# Scoring (rulebook): the last character standing, and the one that got away with the chest.
LAST_STANDING_POINTS = 10
LAST_STANDING_POINTS_CHEST_GONE = 9
CHEST_EXIT_POINTS = 10
FREE_PLACES = 2  # the first two out of the dungeon score nothing; each later one a point more


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class Reveal:
    """A finished rumble, with everyone's secret characters turned face up."""

    rumble: int
    secrets: tuple[tuple[str, ...], ...]  # per seat
    points: tuple[int, ...]  # per seat, this rumble
    best: tuple[str, ...]  # per seat, the character those points came from
    last_standing: str
    chest_exited_with: str | None
    exit_line: tuple[str, ...]

    def as_result(self) -> RumbleResult:
        return RumbleResult(
            rumble=self.rumble,
            secrets=[list(pair) for pair in self.secrets],
            points=list(self.points),
            best=list(self.best),
            last_standing=self.last_standing,
            chest_exited_with=self.chest_exited_with,
            exit_line=list(self.exit_line),
        )


class Trace(NamedTuple):
    """One action's mark on the board: a character moved (alone or with the chest), thrown
    out in a fight, or gone out of the dungeon with the chest. The board draws those made
    since the board before it."""

    step: int  # the action that made it (the state's step once applied)
    rumble: int
    character: str
    start: str  # the room it was in
    goal: str  # the room it went to ("" when it left the dungeon)
    kind: str  # "move", "chest" (moved with the chest), "fight" (thrown out) or "exit"


TRACES_KEPT = 12  # the newest traces a state keeps: far more than one board's worth


@dataclass(frozen=True)
class State:
    """A whole game. Never changed in place: `apply` builds a new one.

    `positions` is a dict for easy reading; treat it as read-only.
    """

    seed: int
    seats: int
    layout: Layout
    version: int = SCHEMA
    counter: int = 0  # random draws made from the seed so far (one per rumble set-up)
    step: int = 0  # actions applied in the whole game
    rumble: int = 1  # 1..3
    starter: int = 0  # the seat that started this rumble
    turn: int = 0  # the seat to act
    positions: dict[str, str] = field(default_factory=dict)  # character -> room, in dungeon
    chest: str | None = None  # the chest's room; None once it has left the dungeon
    chest_exited_with: str | None = None  # the character that left with the chest
    exit_line: tuple[str, ...] = ()  # characters thrown out in fights, in order
    secrets: tuple[tuple[str, ...], ...] = ()  # per seat, two characters
    totals: tuple[int, ...] = ()  # per seat, over the finished rumbles
    history: tuple[Reveal, ...] = ()  # finished rumbles
    finished: bool = False
    trail: tuple[Trace, ...] = ()  # the newest actions' traces, oldest first
    last_move: LastMove | None = None  # for the board's caption; None before any move

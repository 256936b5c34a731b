"""Rumble's state: where every character stands, the secret pairs, the rumble and turn, the
totals and the reveals of finished rumbles (`Reveal`), and saving a state to JSON and back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.base import JSON
from rules.rumble.dungeon import Layout, layout_from_json, layout_to_json
from rules.rumble.observation import RumbleResult

SCHEMA = 1
RUMBLES = 3  # rumbles in a game
SECRETS_EACH = 2  # secret characters dealt to every player

# Scoring (rulebook): the last character standing, and the one that got away with the chest.
LAST_STANDING_POINTS = 10
LAST_STANDING_POINTS_CHEST_GONE = 9
CHEST_EXIT_POINTS = 10
FREE_PLACES = 2  # the first two out of the dungeon score nothing; each later one a point more

NOT_A_MOVE = "That is not a move in this game."


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


# ---------------------------------------------------------------------------------------------
# JSON


def state_to_json(state: State) -> JSON:
    return {
        "version": state.version,
        "seed": state.seed,
        "seats": state.seats,
        "layout": layout_to_json(state.layout),
        "counter": state.counter,
        "step": state.step,
        "rumble": state.rumble,
        "starter": state.starter,
        "turn": state.turn,
        "positions": dict(state.positions),
        "chest": state.chest,
        "chest_exited_with": state.chest_exited_with,
        "exit_line": list(state.exit_line),
        "secrets": [list(pair) for pair in state.secrets],
        "totals": list(state.totals),
        "history": [dict(reveal.as_result()) for reveal in state.history],
        "finished": state.finished,
    }


def _reveal_from_json(data: Mapping[str, Any]) -> Reveal:
    return Reveal(
        rumble=int(data["rumble"]),
        secrets=tuple(tuple(pair) for pair in data["secrets"]),
        points=tuple(int(p) for p in data["points"]),
        best=tuple(data["best"]),
        last_standing=str(data["last_standing"]),
        chest_exited_with=data["chest_exited_with"],
        exit_line=tuple(data["exit_line"]),
    )


def state_from_json(data: JSON) -> State:
    if data.get("version") != SCHEMA:
        raise ValueError(f"Unknown Rumble state version {data.get('version')!r}")
    return State(
        version=SCHEMA,
        seed=int(data["seed"]),
        seats=int(data["seats"]),
        layout=layout_from_json(data["layout"]),
        counter=int(data["counter"]),
        step=int(data["step"]),
        rumble=int(data["rumble"]),
        starter=int(data["starter"]),
        turn=int(data["turn"]),
        positions={str(c): str(r) for c, r in data["positions"].items()},
        chest=data["chest"],
        chest_exited_with=data["chest_exited_with"],
        exit_line=tuple(data["exit_line"]),
        secrets=tuple(tuple(pair) for pair in data["secrets"]),
        totals=tuple(int(t) for t in data["totals"]),
        history=tuple(_reveal_from_json(reveal) for reveal in data["history"]),
        finished=bool(data["finished"]),
    )

"""Phases as tables, the one shape every turn-based engine's rules take (boardgame.io's
`phases: {name: {moves, onBegin, endIf}}`).

An engine lists its phases in one table, `{phase name: Phase(...)}`. Each `Phase` says:

- `moves`: which action types it takes and the move that applies each, `move(table, seat,
  action)`, where the table is the engine's working copy of the state (`WorkingCopy`) and
  the action is already parsed into its small frozen dataclass (and checked, where the
  engine checks before it moves);
- `begin`: what entering it does (an engine calls `enter`), where entering may already decide
  that the phase has nothing to ask and go on to another;
- `ends` and `end`: `ends` is asked after each of its moves (a move may have left the phase
  already: `ends` then says no); when it holds, `end` closes the phase and names the next.

A phase needing none of `begin`, `ends` or `end` leaves them out; `refusal` is what an
action it has no move for is refused with. `play` runs one action.

Engines whose moves change a mutable copy of the state (Trash War, Brawl) have a
`WorkingCopy` of their own; engines whose moves build the next frozen state (Rumble, Toss It)
share `Turn`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.base import Event, IllegalAction, StateT, WorkingCopy
from rules.phrases import Filling, phrase

TableT = TypeVar("TableT")  # the engine's working copy of a state, changed by moves
Move = Callable[[TableT, int, Any], None]  # move(table, seat, action)

NOT_NOW = phrase("The rules do not allow that now.")


@dataclass(frozen=True)
class Phase(Generic[TableT]):
    """One phase: its moves by action type, and what entering and ending it do."""

    moves: Mapping[type[Any], Move[TableT]]
    begin: Callable[[TableT], None] | None = None
    ends: Callable[[TableT], bool] | None = None
    end: Callable[[TableT], None] | None = None
    refusal: Filling = NOT_NOW


Phases = Mapping[str, Phase[TableT]]


def play(phases: Phases[TableT], name: str, table: TableT, seat: int, action: object) -> None:
    """Apply `action` with the move phase `name` has for its type, then end the phase when its
    `ends` says so. An action the phase has no move for is refused."""
    phase = phases.get(name)
    move = None if phase is None else phase.moves.get(type(action))
    if phase is None or move is None:
        raise IllegalAction(NOT_NOW if phase is None else phase.refusal)
    move(table, seat, action)
    if phase.ends is not None and phase.end is not None and phase.ends(table):
        phase.end(table)


def enter(phases: Phases[TableT], name: str, table: TableT) -> None:
    """Run what entering phase `name` does (the engine has set its phase to `name`)."""
    phase = phases.get(name)
    if phase is not None and phase.begin is not None:
        phase.begin(table)


class Turn(WorkingCopy[StateT]):
    """One `apply` of an engine whose moves build the next frozen state: each move sets
    `state` and `say`s what happened."""

    def __init__(self, state: StateT) -> None:
        self.state = state
        self.events: list[Event] = []

    def freeze(self) -> StateT:
        return self.state

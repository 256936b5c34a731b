"""Toss It in the Trash: the state of a game, and the numbers the rules fix.

Kept apart from `engine.py` so that the AI's levels can build whole states (the hard
level's sampled worlds) without importing the engine, which imports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import LastMove
from rules.toss.bin import KINDS, Bin

SCHEMA = 1
HAND = 3
CARDS = tuple(range(1, 11))
COUNTERS = (1, 2, 3, 4, 5, 6)  # the stack, top first (house rule)
KIND_ORDER = tuple(KINDS)

# Colours and the mice on their cards (house rule).
COLOURS: dict[str, int] = {"red": 1, "blue": 2, "green": 3, "yellow": 4, "purple": 5}

# Pre-filled pieces of each kind by number of players (rulebook table).
PREFILL: dict[int, int] = {2: 3, 3: 2, 4: 1, 5: 0}

CHOOSE, PLACE, OVER = "choose", "place", "over"


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class State:
    """A whole game. Never changed in place: `apply` builds a new one."""

    seed: int
    seats: int
    wobble: str
    colours: tuple[str, ...]
    decks: tuple[tuple[int, ...], ...]  # per seat, the draw pile, top first
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted
    pieces: Bin  # the bin's contents at rest
    supply: tuple[int, ...]  # per kind in KIND_ORDER
    version: int = SCHEMA
    counter: int = 0  # random draws made from the seed so far
    step: int = 0
    round: int = 1
    phase: str = CHOOSE
    chosen: tuple[int | None, ...] = ()  # per seat, the card laid down this round
    order: tuple[int, ...] = ()  # turn order after the reveal
    turn_index: int = 0  # index into `order` of the seat placing now
    to_place: int = 0
    kind: str | None = None  # the kind this turn is bound to
    counters: tuple[int, ...] = COUNTERS  # the stack, top first
    taken: tuple[tuple[int, ...], ...] = ()  # per seat, signed counters
    # Every counter taken, in order, as (round, seat, signed value): the recap's story of
    # the game. Empty for a game saved before it was kept.
    taken_log: tuple[tuple[int, int, int], ...] = ()
    last_drop: tuple[int, int] | None = None  # x in tenths of mm, angle in tenths of degrees
    dropped_at: int = -1  # the step whose drop is the bin's last piece (-1: none is)
    spill: Bin = ()  # the bin as a spill left it, the fallen pieces outside (until the next action)
    spilled_at: int = -1  # the step of that spill
    last_move: LastMove | None = None  # for the board's caption; None before any move

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    @property
    def turn(self) -> int | None:
        return self.order[self.turn_index] if self.phase == PLACE else None


def mice(state: State, seat: int) -> int:
    return COLOURS[state.colours[seat]]


def scores(state: State) -> tuple[int, ...]:
    return tuple(sum(counters) for counters in state.taken)


def supply_of(state: State, kind: str) -> int:
    return state.supply[KIND_ORDER.index(kind)]

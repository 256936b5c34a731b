"""Trash War's state: the walls, the flight of trash in the air, whose turn it is and who still
stands; setting up a new war and saving a state to JSON and back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rules.base import Event, LastMove, next_seat, rng_for
from rules.phrases import SeatName, phrase, term
from rules.trashwar.cards import BACK, LEFT, PLAY_IDS, RIGHT, WALL_IDS
from rules.trashwar.words import (
    WALL_NAMES as WALL_NAMES,  # said here first: other modules read it here
)

SCHEMA = 1
WALLS_EACH = 3
HAND_SIZE = 5
TOPPLE = 4  # damage that brings a wall down
VOLLEY = 3  # most Trash cards one Catapult throws
# Phases: what is being decided now.
ATTACK = "attack"
DRAWN = "drawn"
DEFEND = "defend"
BAT = "bat"
BURNING = "burn"
OVER = "over"
PHASES = (ATTACK, DRAWN, DEFEND, BAT, BURNING, OVER)

LABEL_LIMIT = 80  # a Discord button label


# ---------------------------------------------------------------------------------------------
# State


class Wall(NamedTuple):
    """One Wall card of a fortress."""

    card: int  # the Wall card's id
    standing: bool = True
    trash: tuple[int, ...] = ()  # Trash card ids, in the order they landed


class Flight(NamedTuple):
    """A Trash card in the air."""

    card: int
    target: int  # the seat it flies at
    wall: int  # 0..2, the wall it is aimed at
    sender: int  # the seat that threw or last batted it


class Mark(NamedTuple):
    """Something that happened at a wall, for the board to show: the board marks those made
    since the board before it."""

    step: int  # the action that made it (the state's step once applied)
    seat: int
    wall: int  # 0..2
    what: str  # one of MARK_WORDS
    card: str  # the card(s) that did it, by code, space-separated ("" for a repair)


# What can happen at a wall, as the board's tag says it.
MARK_WORDS = (
    term("wall mark", "hit"),
    term("wall mark", "felled"),
    term("wall mark", "shielded"),
    term("wall mark", "batted at"),
    term("wall mark", "burned"),
    term("wall mark", "repaired"),
)
MARKS_KEPT = 16  # the newest marks a state keeps: far more than one board's worth


@dataclass(frozen=True)
class State:
    """A whole game. Never changed in place: `apply` builds a new one.

    Piles are tuples of card ids with the top card last.
    """

    seed: int
    seats: int
    version: int = SCHEMA
    step: int = 0  # actions applied
    turns: int = 0  # turns begun
    recycles: int = 0  # times the draw pile was recycled (salts the shuffle)
    torch_phase: int = 1
    phase: str = ATTACK
    turn: int = 0  # whose turn it is
    starter: int = 0
    opening: bool = True  # no Trash thrown yet
    draw: tuple[int, ...] = ()
    recycle: tuple[int, ...] = ()
    torched: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # out of the game
    # The recycle pile the draw pile was last shuffled from, by id in id order: every card
    # reached that pile face up, so the table knows what the draw pile holds, not its order.
    reshuffled: tuple[int, ...] = ()
    box: tuple[int, ...] = ()  # Wall cards of seats not in play
    hands: tuple[tuple[int, ...], ...] = ()
    walls: tuple[tuple[Wall, ...], ...] = ()
    flight: tuple[Flight, ...] = ()  # to be met in this order
    held: tuple[Flight, ...] = ()  # batted by the turn's player, flying when their defence ends
    swing: str | None = None  # the direction of the Mace being swung (phase "bat")
    drawn: int | None = None  # the Trash card just drawn that must be thrown (phase "drawn")
    eliminated: tuple[int, ...] = ()  # first out first
    finished: bool = False
    marks: tuple[Mark, ...] = ()  # what happened at walls lately, oldest first
    last_move: LastMove | None = None  # for the board's caption; None before any move


def to_act(state: State) -> int | None:
    """The seat that decides now."""
    if state.finished:
        return None
    if state.phase in (DEFEND, BAT):
        return state.flight[0].target
    return state.turn


def standing(state: State, seat: int) -> bool:
    return seat not in state.eliminated


def walls_up(state: State, seat: int) -> int:
    return sum(wall.standing for wall in state.walls[seat])


def most_walls_up(standing: Sequence[Sequence[bool]], eliminated: Iterable[int]) -> tuple[int, ...]:
    """The knights still in with the most walls up (`standing[seat][wall]`)."""
    out = set(eliminated)
    knights = [p for p in range(len(standing)) if p not in out]
    most = max(sum(standing[p]) for p in knights)
    return tuple(p for p in knights if sum(standing[p]) == most)


def winners(state: State) -> tuple[int, ...]:
    """Who won a finished war: the last knight standing, or, in a war that could not go on
    (table rule: a stuck war), every knight still in with the most walls up."""
    if not state.finished:
        return ()
    standing = [[wall.standing for wall in walls] for walls in state.walls]
    return most_walls_up(standing, state.eliminated)


def left_of(seats: int, eliminated: Iterable[int], seat: int) -> int:
    """The next knight still in the war on `seat`'s left (clockwise: the next seat)."""
    return next_seat(seats, seat, skip=set(eliminated))


def right_of(seats: int, eliminated: Iterable[int], seat: int) -> int:
    return next_seat(seats, seat, step=-1, skip=set(eliminated))


def mace_targets(state: State, seat: int, direction: str, sender: int) -> list[int]:
    """The players a Mace of this direction may bat trash at."""
    if direction == LEFT:
        found = [left_of(state.seats, state.eliminated, seat)]
    elif direction == RIGHT:
        found = [right_of(state.seats, state.eliminated, seat)]
    elif direction == BACK:
        found = [sender]
    else:
        found = list(range(state.seats))
    return [p for p in found if p != seat and standing(state, p)]


# ---------------------------------------------------------------------------------------------
# Setting up


def new_state(seats: int, seed: int) -> State:
    """Three walls and five cards each, the rest the draw pile, a random opener."""
    deck = list(PLAY_IDS)
    rng_for(seed, "deal").shuffle(deck)
    hands = tuple(tuple(deck[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(seats))
    draw = tuple(deck[seats * HAND_SIZE :])
    walls = tuple(
        tuple(Wall(WALL_IDS[p * WALLS_EACH + i]) for i in range(WALLS_EACH)) for p in range(seats)
    )
    starter = rng_for(seed, "start").randrange(seats)
    state = State(
        seed=seed,
        seats=seats,
        turns=1,
        phase=ATTACK,
        turn=starter,
        starter=starter,
        draw=draw,
        hands=hands,
        walls=walls,
        box=WALL_IDS[seats * WALLS_EACH :],
    )
    return state


def opening_event(starter: int) -> Event:
    """The log line that names who opens the war."""
    return Event(
        phrase(
            "{player} roars the fiercest threat at the table and opens the war.",
            player=SeatName(starter),
        )
    )

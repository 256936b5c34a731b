"""The dungeon of Rumble in the Dungeon: twelve room tiles on a 4 x 3 grid.

Rooms are named like a chessboard turned on its side: a column letter, A (the entrance side)
to D (the treasure side), then a row number, 1 (top) to 3 (bottom). Tile lists run row by
row: A1, B1, C1, D1, A2, ...

Each tile shows doors on some of its four sides, written as a subset of "NESW". Two
neighbouring rooms are joined only where both tiles have a door on their shared side, so a
door may open onto a wall (house rule: some passages do not connect). A door on the outer
edge of the grid leads nowhere; the entrance tile always has one on its west side, the way
in from the outside world.

A layout is drawn at random from the game's seed, redrawn until every room can reach the
entrance, or taken from the small table of fixed layouts by the lobby option `layout`.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from rules.phrases import Phrase, phrase_in, term
from rules.rumble.observation import Tile

COLUMNS = "ABCD"  # left (entrance side) to right (treasure side)
ROWS = 3
SIDES = "NESW"  # the order doors are written in

# How one step through a door changes (row, col).
STEP: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
# How a sentence says a way out: "moves the Knight north", "no passage north".
SIDE_NAMES: dict[str, str] = {
    "N": term("direction", "north"),
    "E": term("direction", "east"),
    "S": term("direction", "south"),
    "W": term("direction", "west"),
}

# The chance that one side of a randomly drawn tile has a door. With 0.6 only one draw in
# 250 joins every room to the entrance; 0.7 gives one in 20 and still leaves walls about.
DOOR_CHANCE = 0.7

RANDOM = "random"  # the lobby choice for a layout drawn from the seed


def direction(side: str) -> Phrase:
    """A side as a sentence says which way: "north"."""
    return phrase_in("direction", SIDE_NAMES[side])


def room_name(row: int, col: int) -> str:
    """The name of the room at (row, col), both counted from 0: (1, 1) is B2."""
    return f"{COLUMNS[col]}{row + 1}"


def room_place(room: str) -> tuple[int, int]:
    """(row, col) of a room name: the inverse of `room_name`."""
    return int(room[1]) - 1, COLUMNS.index(room[0])


ROOMS: tuple[str, ...] = tuple(
    room_name(row, col) for row in range(ROWS) for col in range(len(COLUMNS))
)


def neighbour(room: str, side: str) -> str | None:
    """The room next to `room` on `side` in the grid, doors or not; None past the edge."""
    row, col = room_place(room)
    d_row, d_col = STEP[side]
    row, col = row + d_row, col + d_col
    if 0 <= row < ROWS and 0 <= col < len(COLUMNS):
        return room_name(row, col)
    return None


@dataclass(frozen=True)
class Layout:
    """One dungeon: the doors of each tile (row by row) and where the two special rooms are."""

    name: str  # "random" or the name of a fixed layout
    doors: tuple[str, ...]  # twelve door strings, a subset of "NESW" each, in ROOMS order
    entrance: str  # a room in column A
    treasure_room: str  # a room in column D, where the chest starts

    def doors_of(self, room: str) -> str:
        return self.doors[ROOMS.index(room)]


@lru_cache(maxsize=256)
def passages(layout: Layout) -> dict[str, dict[str, str]]:
    """For every room, the sides with a working passage and the room each one leads to.

    Cached per layout: a game asks this many times, and a layout never changes.
    Callers must not change the answer.
    """
    return _join(layout)


def _join(layout: Layout) -> dict[str, dict[str, str]]:
    joined: dict[str, dict[str, str]] = {}
    for room in ROOMS:
        joined[room] = {}
        for side in layout.doors_of(room):
            other = neighbour(room, side)
            if other is not None and OPPOSITE[side] in layout.doors_of(other):
                joined[room][side] = other
    return joined


def passage(layout: Layout, room: str, side: str) -> str | None:
    """The room a character reaches by leaving `room` through `side`; None without a way."""
    return passages(layout)[room].get(side)


@lru_cache(maxsize=256)
def distances(layout: Layout, start: str) -> dict[str, int]:
    """Steps from `start` to every room it can reach (breadth first through passages).

    Cached; callers must not change the answer.
    """
    return _reach(passages(layout), start)


def _reach(joined: dict[str, dict[str, str]], start: str) -> dict[str, int]:
    steps = {start: 0}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        for other in joined[room].values():
            if other not in steps:
                steps[other] = steps[room] + 1
                queue.append(other)
    return steps


def is_connected(layout: Layout) -> bool:
    """True when every room can reach the entrance."""
    return len(distances(layout, layout.entrance)) == len(ROOMS)


def random_layout(rng: random.Random) -> Layout:
    """A layout drawn at random, redrawn until every room can reach the entrance."""
    while True:
        doors = tuple("".join(side for side in SIDES if rng.random() < DOOR_CHANCE) for _ in ROOMS)
        entrance = room_name(rng.randrange(ROWS), 0)
        treasure_room = room_name(rng.randrange(ROWS), len(COLUMNS) - 1)
        layout = Layout(RANDOM, _with_way_in(doors, entrance), entrance, treasure_room)
        # Most draws fail, so test them without filling the caches of `passages`.
        if len(_reach(_join(layout), entrance)) == len(ROOMS):
            return layout


def _with_way_in(doors: tuple[str, ...], entrance: str) -> tuple[str, ...]:
    """Add the west door of the entrance tile: the way in from outside (it joins nothing)."""
    at = ROOMS.index(entrance)
    wanted = set(doors[at]) | {"W"}
    fixed = "".join(side for side in SIDES if side in wanted)
    return (*doors[:at], fixed, *doors[at + 1 :])


# Fixed layouts: three rows of four tiles (their door sides), then the entrance room and the
# room where the chest starts.
# Checked by the tests to be connected. A door facing a wall or the edge is drawn but unused.
_FIXED_TABLE: dict[str, tuple[tuple[str, str, str], str, str]] = {
    # A ring round the middle, with a short cut through B2 and C2.
    "classic": (
        (
            "ES   EW   ESW  SW",
            "NEW  ESW  NW   NS",
            "E    NEW  EW   NW",
        ),
        "A2",
        "D2",
    ),
    # One long winding corridor from A1 to D3, with two doors that open onto walls.
    "maze": (
        (
            "SW   ES   EW   SW",
            "NES  NS   ES   NW",
            "NE   NW   NE   NW",
        ),
        "A1",
        "D3",
    ),
    # Nearly every door open: short paths and crowded fights.
    "open": (
        (
            "ES   ESW  ESW  SW",
            "NES  NESW NESW NSW",
            "NEW  NEW  NEW  NW",
        ),
        "A3",
        "D1",
    ),
}


def _fixed(name: str, rows: tuple[str, str, str], entrance: str, treasure_room: str) -> Layout:
    doors = tuple(door for row in rows for door in row.split())
    return Layout(name, doors, entrance, treasure_room)


FIXED_LAYOUTS: dict[str, Layout] = {
    name: _fixed(name, *entry) for name, entry in _FIXED_TABLE.items()
}

LAYOUT_CHOICES: tuple[str, ...] = (RANDOM, *FIXED_LAYOUTS)


def make_layout(choice: str, rng: random.Random) -> Layout:
    """The layout for a lobby choice: drawn with `rng` for "random", else the fixed one."""
    if choice == RANDOM:
        return random_layout(rng)
    return FIXED_LAYOUTS[choice]


# (room, row, col) of every tile, row by row.
_PLACES: tuple[tuple[str, int, int], ...] = tuple((room, *room_place(room)) for room in ROOMS)


def tiles(layout: Layout) -> list[Tile]:
    """The twelve tiles as the observation shows them, row by row (fresh dicts each call)."""
    return [tile.copy() for tile in _tiles(layout)]


@lru_cache(maxsize=256)
def _tiles(layout: Layout) -> tuple[Tile, ...]:
    return tuple(
        Tile(room=room, row=row, col=col, doors=doors)
        for (room, row, col), doors in zip(_PLACES, layout.doors, strict=True)
    )

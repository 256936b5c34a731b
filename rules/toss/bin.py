"""The garbage bin: a deterministic 2D rigid-body simulation (pymunk), seen from the side.

The bin is an open box `BIN_WIDTH` wide and `BIN_HEIGHT` tall (millimetres, y pointing up,
x = 0 at the inside of the left wall). A piece is plain data: its kind and its resting pose.
Poses are kept in whole tenths of a millimetre and whole milliradians, so a state survives
JSON exactly; before every drop the pymunk space is rebuilt from those numbers alone, in a
fixed order, so the same bin and the same drop always give the same result, also after a
save and reload.

Dropping a piece (house rules): the piece is held at the chosen spot across the opening, at
the chosen rotation, just above whatever already lies under it, and let go. A seeded wobble
shifts the spot and the angle a little, for an unsteady hand. The space then runs until
everything rests (or a step cap). The drop spills when any piece ends up outside the bin's
two walls: its centre passes a wall below the rim, or it comes to rest beyond a wall (hung
over the rim).

`KINDS` is the one table of piece shapes and materials: change it there.

Measured with these numbers (`python -m bench.toss_measure --games 20 --random-games 400`:
house wobble, empty bin, ten of each kind in supply; CPU time on the 2-core dev machine):

- a drop takes about 2.3 ms on average (95th percentile about 7 ms, worst seen about 30 ms);
- the AI (`ai.py`, about 0.17 s per decision, 95th percentile 0.45 s, with every kind
  open to it) gets 38.7 pieces on average into the bin before its first spill (20 games,
  36 to 40; all forty in 7 of them);
- a random dropper gets 26.1 pieces in on average (400 games, 13 to 35). Its spill chance
  per drop by the pieces already in: 0-14: 0; 15-19: 1%; 20-24: 7%; 25-29: 19%;
  30-34: 40%.

So careful packing fits about all forty and careless drops start to spill from about 15
pieces. The forty pieces take more area than the bin: the careful pile ends heaped over
the rim (its top at about 1.4 times the rim's height), which stays in as long as no
piece's centre passes a wall. Pieces 15% smaller let the AI fit all forty with the top
near the rim, but a random dropper then got 36.5 in: too forgiving, so the sizes stay.
A taller bin (150 x 330) also narrowed the gap (measured with an earlier, weaker AI), so
the bin stays at 150 x 280.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import pymunk
import pymunk.batch

# ---------------------------------------------------------------------------------------------
# The table of pieces


@dataclass(frozen=True)
class Kind:
    """One kind of garbage. A box is `width` x `height`; a round piece has `radius`."""

    key: str
    name: str
    shape: str  # "box" or "round"
    width: float = 0.0  # mm, box only
    height: float = 0.0  # mm, box only
    radius: float = 0.0  # mm, round only
    mass: float = 1.0
    friction: float = 0.6
    elasticity: float = 0.05
    article: str = "a"  # "an apple core"

    @property
    def a_name(self) -> str:
        return f"{self.article} {self.name}"

    def half_extent(self) -> float:
        """Half the longest reach from the centre: the piece's size for drop height."""
        if self.shape == "round":
            return self.radius
        return math.hypot(self.width, self.height) / 2


KINDS: dict[str, Kind] = {
    "carton": Kind("carton", "milk carton", "box", width=36, height=70, mass=1.0, friction=1.0),
    "can": Kind("can", "tin can", "box", width=40, height=32, mass=1.3, friction=0.75),
    "bottle": Kind("bottle", "bottle", "box", width=18, height=84, mass=0.8, friction=0.7),
    "apple": Kind("apple", "apple core", "round", radius=15, mass=0.5, friction=0.5, article="an"),
}
PIECES_EACH = 10  # rulebook: ten of each kind, forty in all

# The bin.
BIN_WIDTH = 150  # mm, inside
BIN_HEIGHT = 280  # mm, floor to rim
WALL_THICKNESS = 30.0  # mm: thick walls and floor, so nothing tunnels through

# The drop grid: positions across the opening and rotations.
X_STEPS = 21  # positions 0..20, evenly from one wall to the other
X_MARGIN = 12  # mm from the inside of each wall to the first and last position
ANGLE_STEP = 15  # degrees
ANGLES = tuple(range(0, 180, ANGLE_STEP))  # 0..165; a box turned 180 degrees is the same
DROP_GAP = 4.0  # mm between the pile under the piece and the piece when let go

# Wobble: the standard deviation of the shift in position (mm) and angle (degrees).
WOBBLE: dict[str, tuple[float, float]] = {
    "steady": (0.0, 0.0),
    "house": (4.0, 4.0),
    "shaky": (10.0, 10.0),
}

# The simulation.
GRAVITY = 9810.0  # mm/s^2
DT = 1 / 60
ITERATIONS = 10
MAX_STEPS = 360  # six simulated seconds at most per drop
REST_CHECK = 6  # steps between spill and rest checks
REST_SPEED = 8.0  # mm/s: slower than this counts as resting
REST_SPIN = 0.15  # rad/s
DAMPING = 0.7  # velocity kept per simulated second (air and contact losses)


def grid_x(position: int) -> float:
    """The drop spot (mm from the inside of the left wall) of grid position 0..X_STEPS-1."""
    span = BIN_WIDTH - 2 * X_MARGIN
    return X_MARGIN + span * position / (X_STEPS - 1)


# ---------------------------------------------------------------------------------------------
# Bin state


@dataclass(frozen=True)
class Piece:
    """A piece at rest: centre in tenths of a millimetre, angle in milliradians."""

    kind: str
    x: int
    y: int
    angle: int

    def to_json(self) -> list[object]:
        return [self.kind, self.x, self.y, self.angle]

    @staticmethod
    def from_json(data: list[object]) -> Piece:
        kind, x, y, angle = data
        return Piece(str(kind), int(str(x)), int(str(y)), int(str(angle)))


Bin = tuple[Piece, ...]


def count_kinds(pieces: Bin) -> dict[str, int]:
    """How many pieces of each kind lie in the bin."""
    counts = dict.fromkeys(KINDS, 0)
    for piece in pieces:
        counts[piece.kind] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Building the space


def _shape_for(kind: Kind, body: pymunk.Body) -> pymunk.Shape:
    if kind.shape == "round":
        return pymunk.Circle(body, kind.radius)
    return pymunk.Poly.create_box(body, (kind.width, kind.height), radius=0.5)


def _moment(kind: Kind) -> float:
    if kind.shape == "round":
        return float(pymunk.moment_for_circle(kind.mass, 0, kind.radius))
    return float(pymunk.moment_for_box(kind.mass, (kind.width, kind.height)))


def _add_piece(space: pymunk.Space, kind: Kind, x: float, y: float, angle: float) -> pymunk.Body:
    body = pymunk.Body(kind.mass, _moment(kind))
    body.position = (x, y)
    body.angle = angle
    shape = _shape_for(kind, body)
    shape.friction = kind.friction
    shape.elasticity = kind.elasticity
    space.add(body, shape)
    return body


def _space(pieces: Bin) -> tuple[pymunk.Space, list[pymunk.Body]]:
    """A fresh space holding the bin and `pieces`, from their stored poses only."""
    space = pymunk.Space()
    space.gravity = (0.0, -GRAVITY)
    space.iterations = ITERATIONS
    space.damping = DAMPING
    static = space.static_body
    t = WALL_THICKNESS
    walls = [
        pymunk.Poly(static, [(-t, -t), (BIN_WIDTH + t, -t), (BIN_WIDTH + t, 0), (-t, 0)]),
        pymunk.Poly(static, [(-t, 0), (0, 0), (0, BIN_HEIGHT), (-t, BIN_HEIGHT)]),
        pymunk.Poly(
            static,
            [
                (BIN_WIDTH, 0),
                (BIN_WIDTH + t, 0),
                (BIN_WIDTH + t, BIN_HEIGHT),
                (BIN_WIDTH, BIN_HEIGHT),
            ],
        ),
    ]
    for wall in walls:
        wall.friction = 0.5
        wall.elasticity = 0.05
    space.add(*walls)
    bodies = [_add_piece(space, KINDS[p.kind], p.x / 10, p.y / 10, p.angle / 1000) for p in pieces]
    return space, bodies


def _outside(x: float) -> bool:
    """Whether a piece centred at `x` (mm) is past a wall."""
    return x < 0 or x > BIN_WIDTH


def _resting(motions: list[tuple[float, float, float]]) -> bool:
    """Whether every piece, given as its velocity (x, y) and spin, is all but still."""
    return all(
        math.sqrt(vx**2 + vy**2) < REST_SPEED and abs(spin) < REST_SPIN for vx, vy, spin in motions
    )


_MOTION = (
    pymunk.batch.BodyFields.POSITION
    | pymunk.batch.BodyFields.VELOCITY
    | pymunk.batch.BodyFields.ANGULAR_VELOCITY
)


class _Watch:
    """Reads where the pieces are and how they move, all in one call into the simulation:
    body by body, each value costs a Python call, and the checks read them every few steps."""

    def __init__(self, space: pymunk.Space, pieces: int) -> None:
        self.space = space
        self.size = 5 * pieces  # x, y, velocity x and y, spin
        self.buffer = pymunk.batch.Buffer()

    def read(self) -> tuple[list[float], list[float], list[tuple[float, float, float]]]:
        """Each piece's x and y (mm) and its motion, in the order the pieces were added."""
        self.buffer.clear()
        pymunk.batch.get_space_bodies(self.space, _MOTION, self.buffer)
        # The moving bodies come first, then the bin's own static one, which is left out.
        values = cast("list[float]", memoryview(self.buffer.float_buf()).cast("d").tolist())
        del values[self.size :]
        motions = list(zip(values[2::5], values[3::5], values[4::5], strict=True))
        return values[0::5], values[1::5], motions


def _top(space: pymunk.Space, left: float, right: float) -> float:
    top = 0.0
    for shape in space.shapes:
        if shape.body is space.static_body:
            continue
        box = shape.cache_bb()
        if box.right >= left and box.left <= right:
            top = max(top, float(box.top))
    return top


def pile_top(pieces: Bin, left: float, right: float) -> float:
    """The highest point (mm) of the pieces reaching into the span `left`..`right`."""
    if not pieces:
        return 0.0
    space, _ = _space(pieces)
    return _top(space, left, right)


def highest(pieces: Bin) -> float:
    """The top of the whole pile (mm above the floor)."""
    return pile_top(pieces, -math.inf, math.inf)


# ---------------------------------------------------------------------------------------------
# Dropping


@dataclass(frozen=True)
class Drop:
    """What a drop did: the bin after it, whether it spilled, the simulated steps."""

    pieces: Bin
    spilled: bool
    steps: int


def wobbled(x: float, angle_deg: float, wobble: str, rng: random.Random) -> tuple[float, float]:
    """The spot and angle (radians) the hand really lets go at."""
    spread, turn = WOBBLE[wobble]
    dx = rng.gauss(0.0, spread) if spread else 0.0
    da = rng.gauss(0.0, turn) if turn else 0.0
    return x + dx, math.radians(angle_deg + da)


def half_width(kind: Kind, angle: float) -> float:
    """Half the width the piece takes across the bin when turned `angle` radians."""
    if kind.shape == "round":
        return kind.radius
    return (kind.width * abs(math.cos(angle)) + kind.height * abs(math.sin(angle))) / 2


def inside_opening(kind: Kind, x: float, angle: float) -> float:
    """The hand lets go with the whole piece between the walls: `x` moved in as needed."""
    half = half_width(kind, angle) + 0.5
    if 2 * half >= BIN_WIDTH:
        return BIN_WIDTH / 2
    return min(max(x, half), BIN_WIDTH - half)


def simulate(pieces: Bin, kind_key: str, x: float, angle: float) -> Drop:
    """Let go of a `kind_key` piece centred at `x` (mm; moved in so that it starts between
    the walls), turned `angle` radians, just above the pile, and run until everything
    rests. Deterministic in its arguments."""
    kind = KINDS[kind_key]
    space, bodies = _space(pieces)
    reach = kind.half_extent()
    x = inside_opening(kind, x, angle)
    y = _top(space, x - reach, x + reach) + reach + DROP_GAP
    bodies.append(_add_piece(space, kind, x, y, angle))
    watch = _Watch(space, len(bodies))
    spilled = False
    steps = 0
    calm = 0
    while steps < MAX_STEPS:
        space.step(DT)
        steps += 1
        if steps % REST_CHECK:
            continue
        xs, ys, motions = watch.read()
        if any(_outside(x) and y < BIN_HEIGHT for x, y in zip(xs, ys, strict=True)):
            spilled = True
            break
        calm = calm + 1 if _resting(motions) else 0
        if calm >= 2:
            break
    if not spilled and any(_outside(b.position.x) for b in bodies):
        spilled = True  # came to rest hanging over the rim
    kinds = [p.kind for p in pieces] + [kind_key]
    after = tuple(
        Piece(k, round(b.position.x * 10), round(b.position.y * 10), round(b.angle * 1000))
        for k, b in zip(kinds, bodies, strict=True)
    )
    return Drop(after, spilled, steps)


def drop(
    pieces: Bin, kind: str, position: int, angle_deg: int, wobble: str, rng: random.Random
) -> tuple[Bin, bool]:
    """Drop one piece from grid `position` at `angle_deg`, with the wobble drawn from `rng`.

    Returns the bin after everything rests and whether anything fell out.
    """
    x, angle = wobbled(grid_x(position), angle_deg, wobble, rng)
    result = simulate(pieces, kind, x, angle)
    return result.pieces, result.spilled


PREFILL_TRIES = 20  # random spots tried for a pre-fill piece before the careful search


def careful_spots() -> list[tuple[int, int]]:
    """Every grid spot and angle, the middle of the bin first, for the careful search."""
    middle = (X_STEPS - 1) / 2
    spots = sorted(range(X_STEPS), key=lambda position: abs(position - middle))
    return [(position, angle) for angle in ANGLES for position in spots]


def _prefill_spots(rng: random.Random) -> Iterator[tuple[int, int]]:
    """Random spots first, drawn one at a time (a seed's pre-fill stays as it was), then
    the careful search."""
    for _ in range(PREFILL_TRIES):
        yield rng.randrange(X_STEPS), rng.choice(ANGLES)
    yield from careful_spots()


def prefill(counts: dict[str, int], rng: random.Random) -> Bin:
    """The bin pre-filled with `counts` pieces of each kind, dropped at random spots in a
    random order from `rng` (house rule). A drop that would spill is drawn again; after
    `PREFILL_TRIES` spills in a row the piece is placed by trying every spot and angle in a
    fixed order, so no piece is ever left out. Should none fit, the pre-fill is refused
    with an error rather than short."""
    order = [kind for kind in KINDS for _ in range(counts.get(kind, 0))]
    rng.shuffle(order)
    pieces: Bin = ()
    for kind in order:
        for position, angle in _prefill_spots(rng):
            after, spilled = drop(pieces, kind, position, angle, "steady", rng)
            if not spilled:
                pieces = after
                break
        else:
            raise RuntimeError(f"No spot in the bin holds another {KINDS[kind].name}.")
    return pieces

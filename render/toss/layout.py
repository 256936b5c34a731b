"""Toss It in the Trash's looks and layout: how each kind of garbage is painted (`LOOKS`), the
bin's and the panel's colours, the boxes of the board, `BinView` (the scale and offset that put
the simulation's bin on a picture) and the geometry of the opening: its halves, the top of the
pile and where a held piece hangs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from render.common import PLAYER_COLOUR_NAMES, PLAYER_COLOURS, Box, Colour, Size, least_size
from render.common.caption import caption_height
from rules.toss.bin import BIN_HEIGHT, BIN_WIDTH, DROP_GAP, KINDS, Kind, grid_x, inside_opening
from rules.toss.observation import BinPiece

# --- the look of each kind of garbage ----------------------------------------------------


@dataclass(frozen=True)
class PieceLook:
    """How a kind of garbage is painted inside its physics outline."""

    body: Colour
    """The main fill, and the colour at the piece's centre (tests sample it there)."""
    accent: Colour
    """A label band, a rim or the skin."""
    detail: Colour
    """A cap, the rim highlights or the seeds."""
    alpha: int
    """Opacity of the body: glass lets the bin show through a little."""
    painter: str
    """Which painter adds the details (a key of `_PAINTERS`)."""


# One row per kind: what players see of each piece (its outline comes from `KINDS`).
LOOKS: dict[str, PieceLook] = {
    "carton": PieceLook(  # white board, a blue band with a milk drop, a gable top
        body=(236, 236, 228), accent=(58, 118, 200), detail=(204, 204, 196), alpha=255,
        painter="carton",
    ),
    "can": PieceLook(  # grey tinplate, rolled rims, ribs and a shine
        body=(172, 178, 186), accent=(118, 124, 132), detail=(222, 226, 230), alpha=255,
        painter="can",
    ),
    "bottle": PieceLook(  # see-through green glass, a paper label, a gold cap
        body=(58, 150, 84), accent=(226, 214, 172), detail=(214, 170, 60), alpha=220,
        painter="bottle",
    ),
    "apple": PieceLook(  # pale flesh, red-brown skin top and bottom, dark seeds
        body=(238, 218, 144), accent=(176, 62, 40), detail=(70, 40, 22), alpha=255,
        painter="apple",
    ),
}  # fmt: skip
UNKNOWN_LOOK = PieceLook((200, 120, 200), (120, 60, 120), (80, 40, 80), 255, "can")
PIECE_EDGE: Colour = (24, 20, 18)

# The bin: galvanised steel, dark inside.
BIN_METAL: Colour = (136, 146, 152)
BIN_METAL_LIGHT: Colour = (184, 194, 198)
BIN_METAL_DARK: Colour = (78, 86, 92)
BIN_INSIDE: Colour = (44, 50, 54)  # the back wall seen through the open side
BIN_RIB: Colour = (52, 59, 64)
GROUND: Colour = (50, 45, 42)
WALL_BRICK: Colour = (36, 33, 32)  # the alley wall behind the bin

# Counters: brass tokens; taken ones show their side.
COUNTER: Colour = (206, 160, 74)
MINUS: Colour = (212, 64, 52)
PLUS: Colour = (70, 170, 88)
WINNER_BAND: Colour = (86, 62, 26)
GHOST_ALPHA = 0.6  # how solid the piece held over the bin looks in a preview

SEAT_COLOURS: dict[str, Colour] = dict(zip(PLAYER_COLOUR_NAMES, PLAYER_COLOURS, strict=True))
UNKNOWN_SEAT_COLOUR: Colour = (150, 150, 150)

# --- layout (pixels) ----------------------------------------------------------------------

MAP_SIZE: Size = (920, 720)  # the board above its caption strip
BOARD_SIZE: Size = (MAP_SIZE[0], MAP_SIZE[1] + caption_height(MAP_SIZE[0]))
SMALL_TEXT = least_size(BOARD_SIZE[0])  # the least font size on the board (19 px)
TITLE_HEIGHT = 48
PANEL_LEFT, PANEL_RIGHT = 392, 908
CAPTION_BOX: Box = (PANEL_LEFT, 58, PANEL_RIGHT, 110)
ROWS_TOP = 120
ROW_H, ROW_GAP = 64, 6
SUPPLY_BOX: Box = (PANEL_LEFT, 520, 686, 708)
COUNTERS_BOX: Box = (696, 520, PANEL_RIGHT, 708)
BIN_ZONE = (0, 384)  # the bin is centred across these x pixels
ARROW_TOP = TITLE_HEIGHT + 8  # the last-drop arrow hangs here, above everything
# The ruler of drop spots (ruler.py): its numbers are 12 px high on the board shown 550 px
# wide; it stands over the opening (or the pile) on the board, under the label in a preview.
RULER_SIZE, PREVIEW_RULER_SIZE = 20, 14
RULER_TICK = 9  # the long ticks, under the numbers
PREVIEW_RULER_BASE = 28 + PREVIEW_RULER_SIZE + RULER_TICK + 6

PREVIEW_SIZE: Size = (250, 360)
CARD_SIZE: Size = (120, 168)
CARD_GAP = 14


@dataclass(frozen=True)
class BinView:
    """Where the bin sits in a picture: its inside-left wall, floor and millimetre scale."""

    size: Size
    left: float  # x pixel of the inside of the left wall
    floor: float  # y pixel of the floor
    scale: float  # pixels per millimetre
    wall: int  # wall thickness, pixels

    def at(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Image coordinates (y down) of the bin point `x_mm`, `y_mm` (y up)."""
        return self.left + x_mm * self.scale, self.floor - y_mm * self.scale

    @property
    def rim(self) -> float:
        return self.floor - BIN_HEIGHT * self.scale

    @property
    def right(self) -> float:
        return self.left + BIN_WIDTH * self.scale


BOARD_FLOOR, BOARD_SCALE, BOARD_ROOM = 676.0, 1.55, ARROW_TOP + 40 + RULER_SIZE + RULER_TICK
PREVIEW_FLOOR, PREVIEW_SCALE, PREVIEW_ROOM = 342.0, 0.8, PREVIEW_RULER_BASE + 6


def fitted_view(
    size: Size, floor: float, scale: float, room: int, top_mm: float, wall_mm: float
) -> BinView:
    """The bin at `scale` pixels per mm, or smaller when the pile (`top_mm` high) would
    reach above y = `room`; scales are rounded down to 0.05 so backgrounds cache."""
    needed = max(float(BIN_HEIGHT), top_mm) + 6
    fit = min(scale, (floor - room) / needed)
    fit = max(0.2, math.floor(fit * 20) / 20)
    zone = BIN_ZONE[1] - BIN_ZONE[0] if size == MAP_SIZE else size[0]
    left = float(round(zone / 2 - BIN_WIDTH * fit / 2))
    return BinView(size, left, floor, fit, max(4, round(wall_mm * fit)))


def board_view(pieces: list[BinPiece]) -> BinView:
    """Where the bin sits on the board: as large as it goes with the pile in sight."""
    top = pile_top(pieces, -math.inf, math.inf)
    return fitted_view(MAP_SIZE, BOARD_FLOOR, BOARD_SCALE, BOARD_ROOM, top, 9)


def preview_view(pieces: list[BinPiece], ghost_top: float) -> BinView:
    """Where the bin sits in a preview: the pile and the ghost above it in sight."""
    top = max(pile_top(pieces, -math.inf, math.inf), ghost_top)
    return fitted_view(PREVIEW_SIZE, PREVIEW_FLOOR, PREVIEW_SCALE, PREVIEW_ROOM, top, 9)


# --- geometry ----------------------------------------------------------------------------


def half_box(kind: Kind, angle: float) -> tuple[float, float]:
    """Half the width and half the height (mm) of the piece's bounding box at `angle`."""
    if kind.shape == "round":
        return kind.radius, kind.radius
    cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
    half_w = (kind.width * cos + kind.height * sin) / 2 + 0.5  # the physics box has 0.5 mm
    half_h = (kind.width * sin + kind.height * cos) / 2 + 0.5  # rounded corners
    return half_w, half_h


def pile_top(pieces: list[BinPiece], left: float, right: float) -> float:
    """The highest point (mm) of the pieces reaching into `left`..`right`, from the
    observation alone (bounding boxes, as the simulation measures it)."""
    top = 0.0
    for piece in pieces:
        kind = KINDS.get(piece["kind"])
        if kind is None:
            continue
        half_w, half_h = half_box(kind, piece["angle"])
        if piece["x"] + half_w >= left and piece["x"] - half_w <= right:
            top = max(top, piece["y"] + half_h)
    return top


def ghost_pose(
    pieces: list[BinPiece], kind: str, position: int, angle_deg: int
) -> tuple[float, float, float]:
    """Where a preview draws the piece: x (mm, moved in from a wall as the hand does), the
    height of the ghost's centre above the opening, and the height it is let go at (just
    above the pile under it, as the simulation does, before any wobble)."""
    shape = KINDS[kind]
    angle = math.radians(angle_deg)
    x = inside_opening(shape, grid_x(position), angle)
    reach = shape.half_extent()
    release = pile_top(pieces, x - reach, x + reach) + reach + DROP_GAP
    _, half_h = half_box(shape, angle)
    lift = max(BIN_HEIGHT + half_h + 8, release)
    return x, lift, release

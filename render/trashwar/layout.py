"""Trash War's colours and layout: each trash kind's style, the brick, heat and stamp colours,
and the boxes where every fortress, wall, pile and hand card sits (public for the tests).
"""

from __future__ import annotations

from dataclasses import dataclass

from render.common import Box, Colour, Size, least_size, seat_cell
from render.common.caption import caption_height
from rules.phrases import term

# --- colour tables ----------------------------------------------------------------------


@dataclass(frozen=True)
class KindStyle:
    """How a kind of card looks: its header colour, the header's word, the footer line
    (English: said through the catalogues as they are drawn)."""

    colour: Colour
    title: str
    footer: str


# One colour per kind of card, told apart by hue and lightness alike.
KIND_STYLES: dict[str, KindStyle] = {
    "trash": KindStyle((150, 100, 52), term("card header", "TRASH"), term("card footer", "damage")),
    "shield": KindStyle(
        (56, 104, 168), term("card header", "SHIELD"), term("card footer", "defence")
    ),
    "mace": KindStyle(
        (118, 78, 156), term("card header", "MACE"), term("card footer", "bats one trash away")
    ),
    "deflect": KindStyle(
        (30, 132, 128), term("card header", "DEFLECT"), term("card footer", "defence")
    ),
    "catapult": KindStyle(
        (92, 118, 46), term("card header", "CATAPULT"), term("card footer", "attack")
    ),
    "burn": KindStyle(
        (200, 66, 36), term("card header", "BURN"), term("card footer", "burn value")
    ),
    "repair": KindStyle(
        (196, 158, 60), term("card header", "REPAIR"), term("card footer", "rebuild")
    ),
    "wall": KindStyle((118, 112, 104), term("card header", "WALL"), ""),
}
UNKNOWN_STYLE = KindStyle((120, 120, 120), term("card header", "CARD"), "")

MACE_CAPTIONS = {
    "left": term("card caption", "bat left"),
    "right": term("card caption", "bat right"),
    "back": term("card caption", "bat it back"),
    "any": term("card caption", "bat at anyone"),
}

FLIGHT_NOW: Colour = (236, 96, 40)

# Walls: stone, mortar, the ground they stand on, and how damage colours them.
BRICK: Colour = (132, 124, 112)
BRICK_HOT: Colour = (150, 96, 82)  # a wall about to fall glows red-hot
MORTAR: Colour = (74, 68, 62)
WALL_EDGE: Colour = (22, 19, 17)
RUBBLE: Colour = (98, 92, 84)
GROUND: Colour = (70, 54, 38)
GAUGE_EMPTY: Colour = (56, 52, 49)
SAFE: Colour = (126, 178, 92)  # 0 or 1 damage
WARN: Colour = (236, 150, 48)  # 2 damage
DANGER: Colour = (226, 62, 46)  # 3 damage: one more hit and it falls
HEAT = {0: SAFE, 1: SAFE, 2: WARN, 3: DANGER}
# The last move at a wall: its frame and tag, in the colour of the card kind that did it.
MARK_COLOURS: dict[str, Colour] = {
    "hit": FLIGHT_NOW,
    "felled": (226, 62, 46),
    "shielded": KIND_STYLES["shield"].colour,
    "batted at": KIND_STYLES["mace"].colour,
    "burned": KIND_STYLES["burn"].colour,
    "repaired": KIND_STYLES["repair"].colour,
}
OUT_STAMP: Colour = (110, 36, 30)
WINNER_BAND: Colour = (86, 62, 26)

# --- board layout (pixels) ----------------------------------------------------------------

BOARD_W = 1100
SMALL_TEXT = least_size(BOARD_W)  # the least font size on the board (22 px)
TITLE_HEIGHT = 48
CAPTION_BOX: Box = (12, 56, 1088, 104)
GRID_TOP = 112
GRID_LEFT, GRID_RIGHT = 12, 1088
CELL_GAP = 10
STRIP_H = 150
HEADER_H = 58  # a fortress's name band: the name, and the status under it
BACK_SIZE: Size = (14, 20)  # a card back in a hand-size row
BACK_STEP = 17
MAX_BACKS = 10
MINI_CARD: Size = (60, 84)  # cards in flight and on the piles

HAND_W = 960
HAND_TEXT = least_size(HAND_W)  # the least font size on the hand (20 px)
HAND_CARD: Size = (168, 236)
HAND_GAP = 14
HAND_PER_ROW = 5
HAND_STRIP_H = 132
HAND_TOP = 60


def grid_shape(seats: int) -> tuple[int, int, int]:
    """Columns, rows and cell height of the fortress grid for `seats` players: two a row up
    to four (a wall wide enough for its words), three a row beyond (narrow walls say less)."""
    if seats <= 2:
        return 2, 1, 300
    if seats <= 4:
        return 2, 2, 232
    return 3, 2, 232


def map_size(seats: int) -> Size:
    """The board above its caption strip."""
    _, rows, cell_h = grid_shape(seats)
    return BOARD_W, GRID_TOP + rows * cell_h + (rows - 1) * CELL_GAP + 8 + STRIP_H + 10


def board_size(seats: int) -> Size:
    """The whole picture, the last move's caption under the board."""
    width, height = map_size(seats)
    return width, height + caption_height(width)


def fortress_box(seats: int, seat: int) -> Box:
    """Where a player's fortress cell sits on the board."""
    cols, _, cell_h = grid_shape(seats)
    return seat_cell(
        seat, seats, cols, cell_h, left=GRID_LEFT, right=GRID_RIGHT, top=GRID_TOP, gap=CELL_GAP
    )


def header_box(seats: int, seat: int) -> Box:
    """The name band at the top of a fortress (filled with HIGHLIGHT for the one to act)."""
    left, top, right, _ = fortress_box(seats, seat)
    return (left + 6, top + 6, right - 6, top + 6 + HEADER_H)


def hand_backs_box(seats: int, seat: int, count: int = MAX_BACKS) -> Box:
    """The row of card backs that shows a player's hand size (`count` of them: the space
    they take, right-aligned in the name band; at most MAX_BACKS are drawn)."""
    _, top, right, _ = header_box(seats, seat)
    width = min(max(count, 0), MAX_BACKS) * BACK_STEP
    return (right - 10 - width, top + 5, right - 10, top + 5 + BACK_SIZE[1])


def _walls_zone(seats: int, seat: int) -> Box:
    left, top, right, bottom = fortress_box(seats, seat)
    return (left + 14, top + 6 + HEADER_H + 6, right - 14, bottom - 8)


def slot_box(seats: int, seat: int, index: int) -> Box:
    left, top, right, bottom = _walls_zone(seats, seat)
    gap = 16
    width = (right - left - 2 * gap) // 3
    x = left + index * (width + gap)
    return (x, top, x + width, bottom)


def wall_box(seats: int, seat: int, index: int) -> Box:
    """The wall itself (index 0 left, 1 middle, 2 right): stone when standing, rubble when
    not. Bottom-aligned on the ground line; at most 1.8 times as tall as it is wide."""
    left, top, right, bottom = slot_box(seats, seat, index)
    body_bottom = bottom - 38
    body_top = max(top + 26, body_bottom - round((right - left) * 1.8))
    return (left, body_top, right, body_bottom)


def strip_box(seats: int) -> Box:
    height = map_size(seats)[1]
    return (GRID_LEFT, height - 10 - STRIP_H, GRID_RIGHT, height - 10)


def flight_box(seats: int) -> Box:
    left, top, _, bottom = strip_box(seats)
    return (left + 12, top + 8, 566, bottom - 8)


def piles_box(seats: int) -> Box:
    _, top, right, bottom = strip_box(seats)
    return (584, top + 8, right - 12, bottom - 8)


PILE_COLUMNS = {"draw": 0, "recycle": 92, "torched": 184, "out": 276, "phase": 356}

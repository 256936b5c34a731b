"""Rumble's board background: the rock, the rooms, their doors and passages, the way in, the
treasure frame and the room labels, everything that depends on the layout alone.

The stone and the rooms never change (rooms always sit in the same places, their flagstones
laid from a fixed seed), so they are drawn once. Each layout then adds its features: every
door, the way in and the treasure frame. A feature is drawn at SCALE on the stone under a
small region of the board and shrunk, once per feature, and a layout's background is the
stone with its features' patches pasted on. Drawn whole at SCALE, a background took about
16 ms, and a crowd of games, each with its own random layout, missed a cache of whole
backgrounds on nearly every board; from patches it takes one or two.

A patch holds exactly the pixels of the same feature drawn on the whole board at SCALE and
shrunk whole (the tests compare the two), because a region starts on whole pixels, holds
all its feature draws, and the regions pasted before the last two never overlap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.common import (
    BACKDROP,
    EMBER,
    PANEL,
    PANEL_EDGE,
    TORCH,
    Box,
    Colour,
    bricks,
    draw_text,
    font,
    rounded_box,
    shade,
    text_width,
)
from render.common.caption import with_caption_room
from render.common.record import note
from render.rumble.layout import (
    DEAD_DOOR,
    DOOR_W,
    EXIT_BOX,
    FLOOR,
    GAP,
    GRID_LEFT,
    LABEL,
    LABEL_BAND,
    MAP_SIZE,
    MORTAR,
    PANEL_BOX,
    PASSAGE,
    SCALE,
    SMALL_TEXT,
    WALL,
    WALL_EDGE,
    WALL_W,
    scaled,
    tile_box,
)
from rules.phrases import phrase
from rules.rumble.observation import Tile

LayoutKey = tuple[tuple[tuple[str, int, int, str], ...], str, str]
Place = Callable[[Box], Box]  # a board box (pixels at 1x) on a canvas at SCALE
Drawing = Callable[[ImageDraw.ImageDraw, Place], None]
Feature = tuple[str, tuple[Any, ...]]  # the name of a feature in FEATURES, its arguments
Patch = tuple[Image.Image, tuple[int, int]]  # a part of the board, and where it goes

ROOM_ROWS, ROOM_COLUMNS = 3, 4  # the grid of room tiles
NEIGHBOUR = {"N": (-1, 0, "S"), "S": (1, 0, "N"), "W": (0, -1, "E"), "E": (0, 1, "W")}


def layout_key(tiles: list[Tile], entrance: str, treasure_room: str) -> LayoutKey:
    cells = tuple(sorted((t["room"], t["row"], t["col"], t["doors"]) for t in tiles))
    return (cells, entrance, treasure_room)


@lru_cache(maxsize=32)
def background(key: LayoutKey, language: str = ENGLISH) -> Image.Image:
    """The layout's background in a language (do not draw on it: copy it), with the caption
    strip's room below it."""
    image = with_caption_room(stone_board())
    for name, args in features(key, language):
        patch, at = _patch(name, *args)
        image.paste(patch, at)
    draw_labels(image, key)
    return image


def features(key: LayoutKey, language: str = ENGLISH) -> list[Feature]:
    """What a layout adds to the stone, in the order it is drawn: the doors, then the way in
    (over the entrance's west door) and the treasure frame (over its room's doors)."""
    cells, entrance, treasure_room = key
    sides = {(row, col): doors for _, row, col, doors in cells}

    def doors_of(row: int, col: int) -> tuple[tuple[str, bool], ...]:
        found = []
        for side in sides[row, col]:
            d_row, d_col, facing = NEIGHBOUR[side]
            found.append((side, facing in sides.get((row + d_row, col + d_col), "")))
        return tuple(found)

    drawn: list[Feature] = []
    places = {room: (row, col) for room, row, col, _ in cells}
    for _, row, col, _ in cells:
        drawn += [("door", (row, col, side, open_)) for side, open_ in doors_of(row, col)]
    drawn.append(("entrance", (*places[entrance], language)))
    drawn.append(("treasure", (*places[treasure_room], doors_of(*places[treasure_room]))))
    return drawn


def draw_labels(image: Image.Image, key: LayoutKey) -> None:
    """Each room's name, at its own size (FreeType smooths it already). The entrance and the
    treasure room are marked by their drawings, not by words that would not fit beside the
    chest."""
    for room, row, col, _ in key[0]:
        box = tile_box(row, col)
        left, top = box[0] + WALL_W + 6, box[1] + WALL_W + LABEL_BAND // 2
        draw_text(image, (left, top), room, SMALL_TEXT, LABEL, "lm")


# --- the stone ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def stone() -> Image.Image:
    """The rock, every room's walls and flagstones, the panel and the exit frame, at SCALE."""
    big = Image.new("RGB", (MAP_SIZE[0] * SCALE, MAP_SIZE[1] * SCALE), BACKDROP)
    rng = random.Random(7)  # fixed: the same stones in every picture
    _draw_bricks(big, rng)
    for col in range(ROOM_COLUMNS):  # A1, A2, A3, B1, ...: the stones laid before
        for row in range(ROOM_ROWS):
            _draw_room(big, tile_box(row, col), rng)
    rounded_box(big, scaled(PANEL_BOX), 24, PANEL, PANEL_EDGE, 4)
    rounded_box(big, scaled(EXIT_BOX), 24, PANEL, PANEL_EDGE, 4)
    return big


@lru_cache(maxsize=1)
def stone_board() -> Image.Image:
    return stone().reduce(SCALE)


def _draw_bricks(big: Image.Image, rng: random.Random) -> None:
    """The rock around the dungeon: dark bricks in offset rows."""
    draw = ImageDraw.Draw(big)
    brick_w, brick_h = 64 * SCALE, 24 * SCALE
    for _, left, top in bricks(big.width, big.height, brick_w, brick_h):
        tint = rng.randint(-5, 5)
        colour = (BACKDROP[0] + 6 + tint, BACKDROP[1] + 5 + tint, BACKDROP[2] + 5 + tint)
        draw.rectangle((left + 2, top + 2, left + brick_w - 3, top + brick_h - 3), colour)


def _draw_room(big: Image.Image, box: Box, rng: random.Random) -> None:
    """A room: a wall all round and a flagstone floor."""
    draw = ImageDraw.Draw(big)
    left, top, right, bottom = scaled(box)
    draw.rectangle((left - 2, top - 2, right + 1, bottom + 1), WALL_EDGE)
    draw.rectangle((left, top, right - 1, bottom - 1), WALL)
    wall = WALL_W * SCALE
    floor = (left + wall, top + wall, right - wall - 1, bottom - wall - 1)
    draw.rectangle(floor, MORTAR)
    size = 26 * SCALE
    for y in range(floor[1], floor[3], size):
        shift = rng.randint(0, size // 2)
        for x in range(floor[0] - shift, floor[2], size):
            tint = rng.randint(-4, 4)
            colour = (FLOOR[0] + tint, FLOOR[1] + tint, FLOOR[2] + tint)
            flag = (
                max(x + 2, floor[0]),
                y + 2,
                min(x + size - 2, floor[2]),
                min(y + size - 2, floor[3]),
            )
            if flag[0] < flag[2] and flag[1] < flag[3]:
                draw.rectangle(flag, colour)


# --- the features: each a region of the board and how to draw it ------------------------


def door(row: int, col: int, side: str, connected: bool) -> tuple[Box, Drawing]:
    """A door in a room's wall: a lit opening, with the passage across the gap east or south
    of the room, when the neighbour has the matching door (each passage drawn once, from its
    west or north room); a dark dead end when it does not."""
    box = tile_box(row, col)
    through_wall = _door_box(box, side, -WALL_W)
    if not connected or side in "NW":
        colour = PASSAGE if connected else DEAD_DOOR
        return _bounds(through_wall), lambda d, at: d.rectangle(at(through_wall), colour)
    corridor = _door_box(box, side, GAP)
    walls = _widen(corridor, side, 3)
    left, top, right, bottom = _bounds(through_wall, walls)
    # The passage stops short of the next room's wall, where that room's door patch begins.
    region = (left, top, right - 1, bottom) if side == "E" else (left, top, right, bottom - 1)

    def draw(d: ImageDraw.ImageDraw, at: Place) -> None:
        d.rectangle(at(through_wall), PASSAGE)
        d.rectangle(_short(at(walls), side), WALL_EDGE)
        d.rectangle(_short(at(corridor), side), PASSAGE)

    return region, draw


def entrance(row: int, col: int, language: str = ENGLISH) -> tuple[Box, Drawing]:
    """The way in: a lit opening from the margin through the entrance room's west wall, an
    arrow into it, and "ENTRANCE" up the margin beside it (within the room's height, so it
    fits on any row)."""
    box = tile_box(row, col)
    mid_y = (box[1] + box[3]) // 2
    way_in = (GRID_LEFT - 12, mid_y - DOOR_W // 2, box[0] + WALL_W, mid_y + DOOR_W // 2)
    back, neck, tip = 25, GRID_LEFT - 28, GRID_LEFT - 13
    arrow = [(back, -7), (neck, -7), (neck, -18), (tip, 0), (neck, 18), (neck, 7), (back, 7)]

    def draw(d: ImageDraw.ImageDraw, at: Place) -> None:
        d.rectangle(at(_widen(way_in, "E", 3)), WALL_EDGE)
        d.rectangle(at(way_in), shade(EMBER, 0.7))
        points = [at((x, mid_y + y, x, mid_y + y))[:2] for x, y in arrow]
        d.polygon(points, fill=TORCH, outline=WALL_EDGE)
        words = say(phrase("ENTRANCE"), language)
        _vertical_text(d, at, (13, mid_y), words, TORCH)

    return (0, box[1], box[0] + WALL_W + 1, box[3]), draw


def treasure(row: int, col: int, doors: tuple[tuple[str, bool], ...]) -> tuple[Box, Drawing]:
    """A gold line round the treasure room's floor. Its region takes in the inner edge of
    the room's doors, so they are drawn under it again."""
    box = tile_box(row, col)
    inner = (box[0] + WALL_W, box[1] + WALL_W, box[2] - WALL_W, box[3] - WALL_W)
    under = [door(row, col, side, open_)[1] for side, open_ in doors]

    def draw(d: ImageDraw.ImageDraw, at: Place) -> None:
        for drawing in under:
            drawing(d, at)
        d.rectangle(at(inner), outline=TORCH, width=2 * SCALE)

    return _bounds(inner), draw


FEATURES: dict[str, Callable[..., tuple[Box, Drawing]]] = {
    "door": door,
    "entrance": entrance,
    "treasure": treasure,
}


@lru_cache(maxsize=256)  # doors: 12 rooms x 4 sides x 2; ways in: 3; frames: 3 rooms x their doors
def _patch(name: str, *args: Any) -> Patch:
    """The feature drawn at SCALE on the stone under its region, shrunk."""
    region, draw = FEATURES[name](*args)
    big = stone().crop(scaled(region))
    x, y = region[0], region[1]
    draw(ImageDraw.Draw(big), lambda b: scaled((b[0] - x, b[1] - y, b[2] - x, b[3] - y)))
    return big.reduce(SCALE), (x, y)


def _bounds(*boxes: Box) -> Box:
    """The region holding `boxes` drawn at SCALE: a rectangle reaches half into the pixel
    after its right and bottom edges."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes) + 1,
        max(b[3] for b in boxes) + 1,
    )


def _short(box: Box, side: str) -> Box:
    """A passage's box at SCALE without its last row of pixels at the far room's wall."""
    return (box[0], box[1], box[2] - 1, box[3]) if side == "E" else (*box[:3], box[3] - 1)


def _door_box(box: Box, side: str, depth: int) -> Box:
    """The opening of the door on `side`, `depth` pixels deep from the room's edge outwards
    (negative `depth` reaches inwards through the wall)."""
    left, top, right, bottom = box
    mid_x, mid_y, half = (left + right) // 2, (top + bottom) // 2, DOOR_W // 2
    if side == "N":
        return (mid_x - half, top - max(depth, 0), mid_x + half, top + max(-depth, 0))
    if side == "S":
        return (mid_x - half, bottom - max(-depth, 0), mid_x + half, bottom + max(depth, 0))
    if side == "W":
        return (left - max(depth, 0), mid_y - half, left + max(-depth, 0), mid_y + half)
    return (right - max(-depth, 0), mid_y - half, right + max(depth, 0), mid_y + half)


def _widen(box: Box, side: str, by: int) -> Box:
    """`box` made wider across a passage's direction: its side walls."""
    if side in "NS":
        return (box[0] - by, box[1], box[2] + by, box[3])
    return (box[0], box[1] - by, box[2], box[3] + by)


def _vertical_text(
    d: ImageDraw.ImageDraw, at: Place, centre: tuple[int, int], text: str, fill: Colour
) -> None:
    """Small text turned to read bottom-to-top, centred on `centre` (board pixels)."""
    k, size = SCALE, SMALL_TEXT * SCALE
    strip = Image.new("L", (int(text_width(text, size)) + 2, size * 2), 0)
    ImageDraw.Draw(strip).text((0, size), text, font=font(size), fill=255, anchor="lm")
    strip = strip.crop(strip.getbbox() or (0, 0, 1, 1)).rotate(90, expand=True)
    x, y = at((*centre, *centre))[:2]
    d.bitmap((x - strip.width // 2, y - strip.height // 2), strip, fill=fill)
    left, top = centre[0] - strip.width // (2 * k), centre[1] - strip.height // (2 * k)
    note("text", (left, top, left + strip.width // k, top + strip.height // k), text, SMALL_TEXT)

"""Rumble's public picture, `draw_dungeon`: the cached background (stone, rooms, walls, doors,
labels), the character tokens and the chest in their rooms, and the exit line; the side panel
comes from `panel.py`.
"""

from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BACKDROP,
    EMBER,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Align,
    Box,
    Colour,
    bricks,
    draw_text,
    font,
    ordinal,
    rounded_box,
    shade,
    text_in_box,
    text_width,
    title_bar,
    to_png,
)
from render.common.record import note
from render.rumble.layout import (
    BOARD_SIZE,
    DEAD_DOOR,
    DOOR_W,
    EXIT_BOX,
    FLOOR,
    GAP,
    GRID_LEFT,
    LABEL,
    LABEL_BAND,
    MAX_TOKEN,
    MORTAR,
    PANEL_BOX,
    PASSAGE,
    PILL_ROW,
    SCALE,
    TITLE_HEIGHT,
    WALL,
    WALL_EDGE,
    WALL_W,
    label_fit,
    room_boxes,
    scaled,
    tile_box,
)
from render.rumble.panel import draw_panel
from render.rumble.sprites import paste_chest, paste_token
from render.rumble.trail import draw_trail
from rules.rumble.characters import CHARACTERS
from rules.rumble.observation import RumbleObservation, Tile

# --- public -----------------------------------------------------------------------------


def draw_dungeon(obs: RumbleObservation, names: list[str], since: int | None = None) -> bytes:
    """The public board as PNG bytes. `names[seat]` is each player's display name; what the
    actions after step `since` did (by default: the last action) is drawn on it.

    It never reads `obs["secret"]`: the same board for every viewer.
    """
    return to_png(dungeon_image(obs, names, since))


def dungeon_image(
    obs: RumbleObservation, names: list[str], since: int | None = None
) -> Image.Image:
    """The public board as an image (for tests and previews)."""
    image = _background(_layout_key(obs["tiles"], obs["entrance"], obs["treasure_room"])).copy()
    title_bar(image, "Rumble in the Dungeon", f"Rumble {obs['rumble']} of 3", TITLE_HEIGHT)
    draw_trail(image, obs, obs["step"] - 1 if since is None else since)
    _draw_rooms(image, obs)
    _draw_exit_line(image, obs)
    draw_panel(image, obs, names)
    return image


# --- the cached background: stone, rooms, walls, doors, labels ---------------------------

LayoutKey = tuple[tuple[tuple[str, int, int, str], ...], str, str]


def _layout_key(tiles: list[Tile], entrance: str, treasure_room: str) -> LayoutKey:
    cells = tuple(sorted((t["room"], t["row"], t["col"], t["doors"]) for t in tiles))
    return (cells, entrance, treasure_room)


@lru_cache(maxsize=32)
def _background(key: LayoutKey) -> Image.Image:
    """Everything that depends on the layout alone, drawn at SCALE and shrunk once."""
    cells, entrance, treasure_room = key
    big = Image.new("RGB", (BOARD_SIZE[0] * SCALE, BOARD_SIZE[1] * SCALE), BACKDROP)
    rng = random.Random(7)  # fixed: the same stones in every picture
    _draw_bricks(big, rng)
    doors = {(row, col): sides for _, row, col, sides in cells}
    for _, row, col, sides in cells:
        _draw_tile(big, tile_box(row, col), rng)
        _draw_doors(big, row, col, sides, doors)
    for room, row, col, _ in cells:
        if room == entrance:
            _draw_entrance(big, tile_box(row, col))
        if room == treasure_room:
            _draw_treasure_frame(big, tile_box(row, col))
    rounded_box(big, scaled(PANEL_BOX), 24, PANEL, PANEL_EDGE, 4)
    rounded_box(big, scaled(EXIT_BOX), 24, PANEL, PANEL_EDGE, 4)
    image = big.reduce(SCALE)
    for room, row, col, _ in cells:  # text at its own size: FreeType smooths it already
        _draw_room_label(image, tile_box(row, col), room, entrance, treasure_room)
    return image


def _draw_bricks(big: Image.Image, rng: random.Random) -> None:
    """The rock around the dungeon: dark bricks in offset rows."""
    draw = ImageDraw.Draw(big)
    brick_w, brick_h = 64 * SCALE, 24 * SCALE
    for _, left, top in bricks(big.width, big.height, brick_w, brick_h):
        tint = rng.randint(-5, 5)
        colour = (BACKDROP[0] + 6 + tint, BACKDROP[1] + 5 + tint, BACKDROP[2] + 5 + tint)
        draw.rectangle((left + 2, top + 2, left + brick_w - 3, top + brick_h - 3), colour)


def _draw_tile(big: Image.Image, box: Box, rng: random.Random) -> None:
    """A room: a wall all round and a flagstone floor."""
    draw = ImageDraw.Draw(big)
    left, top, right, bottom = scaled(box)
    draw.rectangle((left - 2, top - 2, right + 1, bottom + 1), WALL_EDGE)
    draw.rectangle((left, top, right - 1, bottom - 1), WALL)
    wall = WALL_W * SCALE
    floor = (left + wall, top + wall, right - wall - 1, bottom - wall - 1)
    draw.rectangle(floor, MORTAR)
    stone = 26 * SCALE
    for y in range(floor[1], floor[3], stone):
        shift = rng.randint(0, stone // 2)
        for x in range(floor[0] - shift, floor[2], stone):
            tint = rng.randint(-4, 4)
            colour = (FLOOR[0] + tint, FLOOR[1] + tint, FLOOR[2] + tint)
            stone_box = (
                max(x + 2, floor[0]),
                y + 2,
                min(x + stone - 2, floor[2]),
                min(y + stone - 2, floor[3]),
            )
            if stone_box[0] < stone_box[2] and stone_box[1] < stone_box[3]:
                draw.rectangle(stone_box, colour)


def _door_box(box: Box, side: str, depth: int) -> Box:
    """The opening of the door on `side`, `depth` pixels deep from the tile's edge outwards
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


NEIGHBOUR = {"N": (-1, 0, "S"), "S": (1, 0, "N"), "W": (0, -1, "E"), "E": (0, 1, "W")}


def _draw_doors(
    big: Image.Image, row: int, col: int, sides: str, doors: dict[tuple[int, int], str]
) -> None:
    """Open each door in the wall: a lit passage when the neighbour has the matching door,
    a dark dead end when it does not."""
    draw = ImageDraw.Draw(big)
    box = tile_box(row, col)
    for side in sides:
        d_row, d_col, facing = NEIGHBOUR[side]
        connected = facing in doors.get((row + d_row, col + d_col), "")
        through_wall = _door_box(box, side, -WALL_W)
        if not connected:
            draw.rectangle(scaled(through_wall), DEAD_DOOR)
            continue
        draw.rectangle(scaled(through_wall), PASSAGE)
        if side in "ES":  # draw each passage once, from its west or north room
            corridor = _door_box(box, side, GAP)
            draw.rectangle(scaled(_widen(corridor, side, 3)), WALL_EDGE)
            draw.rectangle(scaled(corridor), PASSAGE)


def _widen(box: Box, side: str, by: int) -> Box:
    """`box` made wider across a passage's direction: its side walls."""
    if side in "NS":
        return (box[0] - by, box[1], box[2] + by, box[3])
    return (box[0], box[1] - by, box[2], box[3] + by)


def _draw_room_label(image: Image.Image, box: Box, room: str, entrance: str, treasure: str) -> None:
    left, top = box[0] + WALL_W + 6, box[1] + WALL_W + LABEL_BAND // 2
    draw_text(image, (left, top), room, 16, LABEL, "lm")
    tag = "ENTRANCE" if room == entrance else "TREASURE" if room == treasure else ""
    if tag:
        draw_text(image, (left + 30, top), tag, 11, TORCH, "lm")


def _draw_entrance(big: Image.Image, box: Box) -> None:
    """A lit way in through the west wall, an arrow and "ENTRANCE" up the margin beside it
    (kept within the tile's height so it fits on any row)."""
    draw = ImageDraw.Draw(big)
    mid_y = (box[1] + box[3]) // 2
    way_in = (GRID_LEFT - 12, mid_y - DOOR_W // 2, box[0] + WALL_W, mid_y + DOOR_W // 2)
    draw.rectangle(scaled(_widen(way_in, "E", 3)), WALL_EDGE)
    draw.rectangle(scaled(way_in), shade(EMBER, 0.7))
    k = SCALE
    back, neck, tip = 25 * k, (GRID_LEFT - 28) * k, (GRID_LEFT - 13) * k
    arrow = [
        (back, (mid_y - 7) * k),
        (neck, (mid_y - 7) * k),
        (neck, (mid_y - 18) * k),
        (tip, mid_y * k),
        (neck, (mid_y + 18) * k),
        (neck, (mid_y + 7) * k),
        (back, (mid_y + 7) * k),
    ]
    draw.polygon(arrow, fill=TORCH, outline=WALL_EDGE)
    _vertical_text(big, 13 * k, mid_y * k, "ENTRANCE", 15 * k, TORCH)


def _vertical_text(big: Image.Image, x: int, y: int, text: str, size: int, fill: Colour) -> None:
    """Text turned to read bottom-to-top, centred on (`x`, `y`)."""
    strip = Image.new("L", (int(text_width(text, size)) + 2, size * 2), 0)
    ImageDraw.Draw(strip).text((0, size), text, font=font(size), fill=255, anchor="lm")
    strip = strip.crop(strip.getbbox() or (0, 0, 1, 1)).rotate(90, expand=True)
    big.paste(fill, (x - strip.width // 2, y - strip.height // 2), strip)
    left, top = (x - strip.width // 2) // SCALE, (y - strip.height // 2) // SCALE
    note("text", (left, top, left + strip.width // SCALE, top + strip.height // SCALE), text,
         size // SCALE)  # fmt: skip


def _draw_treasure_frame(big: Image.Image, box: Box) -> None:
    """A gold line round the treasure room's floor."""
    inner = scaled((box[0] + WALL_W, box[1] + WALL_W, box[2] - WALL_W, box[3] - WALL_W))
    ImageDraw.Draw(big).rectangle(inner, outline=TORCH, width=2 * SCALE)


# --- rooms: tokens and the chest ---------------------------------------------------------


def _draw_rooms(image: Image.Image, obs: RumbleObservation) -> None:
    boxes = room_boxes(obs["tiles"])
    order = list(CHARACTERS)
    by_room: dict[str, list[str]] = {}
    for key in sorted(obs["positions"], key=lambda k: order.index(k) if k in order else 99):
        by_room.setdefault(obs["positions"][key], []).append(key)
    for room, keys in by_room.items():
        if room in boxes:
            _draw_tokens(image, _token_area(boxes[room]), keys)
    chest_room = obs["chest"]
    if chest_room in boxes:
        box = boxes[chest_room]
        paste_chest(image, box[2] - WALL_W - 40, box[1] + WALL_W + 2, 34)


def _token_area(box: Box) -> Box:
    """The part of a room's floor below its label band, where tokens stand."""
    left, top, right, bottom = box
    return (left + WALL_W + 3, top + WALL_W + LABEL_BAND, right - WALL_W - 3, bottom - WALL_W - 4)


def _draw_tokens(image: Image.Image, area: Box, keys: list[str]) -> None:
    """Big tokens with names below for up to four; a list of small name tags beyond."""
    if len(keys) <= 4:
        _draw_token_grid(image, area, keys)
    else:
        _draw_token_list(image, area, keys)


def _draw_token_grid(image: Image.Image, area: Box, keys: list[str]) -> None:
    cols = 1 if len(keys) == 1 else 2
    rows = (len(keys) + cols - 1) // cols
    cell_w = (area[2] - area[0]) // cols
    cell_h = (area[3] - area[1]) // rows
    label = 14 if rows == 1 else 13
    diameter = min(MAX_TOKEN, cell_w - 12, cell_h - label - 8)
    for index, key in enumerate(keys):
        col, row = index % cols, index // cols
        if row == rows - 1 and len(keys) % cols and cols > 1:  # centre a lone last token
            col_x = area[0] + (area[2] - area[0]) // 2
        else:
            col_x = area[0] + col * cell_w + cell_w // 2
        top = area[1] + row * cell_h + (cell_h - diameter - label - 4) // 2
        paste_token(image, key, (col_x, top + diameter // 2), diameter)
        text, size = label_fit(key, cell_w - 2, label, 11)
        draw_text(image, (col_x, top + diameter + 2), text, size, INK, "ma", WALL_EDGE)


def _draw_token_list(image: Image.Image, area: Box, keys: list[str]) -> None:
    cols = 1 if len(keys) <= 6 else 2
    rows = (len(keys) + cols - 1) // cols
    col_w = (area[2] - area[0]) // cols
    row_h = min(PILL_ROW + (4 if cols == 1 else 0), (area[3] - area[1]) // rows)
    top0 = area[1] + ((area[3] - area[1]) - rows * row_h) // 2
    for index, key in enumerate(keys):
        col, row = index // rows, index % rows  # fill down each column, like a list
        left, top = area[0] + col * col_w, top0 + row * row_h
        pill = (left + 1, top + 1, left + col_w - 1, top + row_h - 1)
        rounded_box(image, pill, row_h // 2, WALL_EDGE, alpha=150)
        diameter = row_h - 3
        paste_token(image, key, (left + 2 + diameter // 2, top + row_h // 2), diameter)
        text_left = left + diameter + 5
        text, size = label_fit(key, pill[2] - text_left - 2, 13, 10)
        draw_text(image, (text_left, top + row_h // 2), text, size, INK, "lm")


# --- exit line --------------------------------------------------------------------------


def _draw_exit_line(image: Image.Image, obs: RumbleObservation) -> None:
    """This rumble's removed characters in order with their places, and the chest's fate."""
    left, top, right, bottom = EXIT_BOX
    middle = (top + bottom) // 2
    draw_text(image, (left + 16, middle - 9), "OUT OF", 13, TORCH, "lm")
    draw_text(image, (left + 16, middle + 9), "THE DUNGEON", 13, TORCH, "lm")
    x = left + 116
    escaped = obs["chest_exited_with"]
    end = right - (190 if escaped else 10)
    out = obs["exit_line"]
    if not out:
        draw_text(image, (x, middle), "Nobody yet - fights send characters here.", 15, MUTED, "lm")
    chip_w = min(118, (end - x) // max(1, len(out)))
    for place, key in enumerate(out, start=1):
        _exit_chip(image, (x, top + 8, x + chip_w - 6, bottom - 8), key, ordinal(place))
        x += chip_w
    if escaped:
        _escaped_chip(image, (right - 186, top + 8, right - 10, bottom - 8), escaped)


def _exit_chip(image: Image.Image, box: Box, key: str, place: str) -> None:
    """A removed character: token, place and name; name underneath when the chip is narrow."""
    rounded_box(image, box, 10, STONE_DARK)
    left, top, right, bottom = box
    middle = (top + bottom) // 2
    if right - left >= 100:
        diameter = min(34, bottom - top - 8)
        token_x, token_y = left + 4 + diameter // 2, middle
        name_box = (token_x + diameter // 2 + 4, middle, right - 4, bottom - 4)
        place_box = (name_box[0], top + 2, right - 4, middle)
        name_align: Align = "left"
    else:
        diameter = 24
        token_x, token_y = left + 4 + diameter // 2, top + 4 + diameter // 2
        place_box = (token_x + diameter // 2 + 4, top + 2, right - 4, top + 6 + diameter)
        name_box = (left + 3, top + 8 + diameter, right - 3, bottom - 2)
        name_align = "center"
    paste_token(image, key, (token_x, token_y), diameter)
    text_in_box(image, place_box, place, 14, TORCH, "left", 11)
    text, size = label_fit(key, name_box[2] - name_box[0], 13, 10)
    text_in_box(image, name_box, text, size, INK, name_align)


def _escaped_chip(image: Image.Image, box: Box, key: str) -> None:
    rounded_box(image, box, 10, shade(EMBER, 0.45), TORCH, 2)
    middle = (box[1] + box[3]) // 2
    paste_chest(image, box[0] + 8, middle - 12, 30)
    paste_token(image, key, (box[0] + 58, middle), 34)
    text_left = box[0] + 80
    text_in_box(image, (text_left, box[1] + 2, box[2] - 6, middle), "Escaped!", 14, TORCH, "left")
    text, size = label_fit(key, box[2] - 6 - text_left, 13, 10)
    draw_text(image, (text_left, middle + 9), text, size, INK, "lm")

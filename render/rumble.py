"""Pictures for Rumble in the Dungeon, drawn from a `RumbleObservation` only.

- `draw_dungeon(obs, names)`: the public board for the channel: the 4 x 3 dungeon, the
  characters still inside, the chest, this rumble's exit line and the players' points.
- `draw_secret(obs, name)`: a player's own two secret characters, for an ephemeral reply.
- `draw_reveal(result, names)`: the end-of-rumble reveal of everyone's characters.

Speed: everything that depends only on the dungeon's layout (stone, walls, doors, labels)
is drawn once, at twice the size for smooth edges, and cached; tokens and the chest are
cached sprites. A board is then a copy, a few pastes, some text and the PNG encoding.
"""

from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BACKDROP,
    EMBER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_COLOURS,
    STONE_DARK,
    SUPERSAMPLE,
    TORCH,
    Align,
    Box,
    Colour,
    disc,
    display_name,
    draw_text,
    fit_text,
    font,
    ink_for,
    ordinal,
    rounded_box,
    shade,
    text_in_box,
    text_width,
    title_bar,
    to_png,
)
from rules.rumble.characters import CHARACTERS
from rules.rumble.observation import RumbleObservation, RumbleResult, Tile

# --- colour tables ----------------------------------------------------------------------

# One colour per character, mostly from Paul Tol's colour-blind-safe schemes; the two-letter
# mark on every token tells apart any two a reader cannot.
CHARACTER_COLOURS: dict[str, Colour] = {
    "knight": (68, 119, 170),  # steel blue
    "thief": (170, 68, 153),  # purple
    "wizard": (88, 72, 196),  # indigo
    "cleric": (232, 230, 218),  # white robes
    "barbarian": (204, 51, 17),  # red
    "ranger": (17, 119, 51),  # forest green
    "bard": (238, 51, 119),  # magenta
    "goblin": (153, 153, 51),  # olive
    "zombie": (68, 170, 153),  # teal
    "skeleton": (221, 204, 119),  # bone
    "cube": (136, 204, 238),  # jelly cyan
    "troll": (238, 119, 51),  # orange
}
CHARACTER_MARKS: dict[str, str] = {
    "knight": "Kn",
    "thief": "Th",
    "wizard": "Wi",
    "cleric": "Cl",
    "barbarian": "Ba",
    "ranger": "Ra",
    "bard": "Bd",
    "goblin": "Go",
    "zombie": "Zo",
    "skeleton": "Sk",
    "cube": "Cu",
    "troll": "Tr",
}
SHORT_NAMES = {"cube": "Cube"}  # used where the full name does not fit

FLOOR: Colour = (82, 75, 68)
MORTAR: Colour = (66, 60, 55)
WALL: Colour = (50, 45, 41)
WALL_EDGE: Colour = (20, 18, 17)
PASSAGE: Colour = (104, 92, 76)  # a door that connects: lit floor between two rooms
DEAD_DOOR: Colour = (14, 12, 12)  # a door facing a wall: a dark hole
LABEL: Colour = (190, 178, 160)
CHEST_WOOD: Colour = (128, 70, 30)  # unique to the chest: tests look for it
CHEST_LID: Colour = (150, 86, 38)
CHEST_GOLD: Colour = (250, 204, 64)

# --- board layout (pixels at 1x) ---------------------------------------------------------

BOARD_SIZE = (1100, 700)
TITLE_HEIGHT = 48
GRID_LEFT, GRID_TOP = 64, 62
TILE_W, TILE_H = 176, 168
GAP = 22  # between tiles: where passages run
WALL_W = 9
DOOR_W = 46
LABEL_BAND = 26  # top strip of a room: its label and the chest
PANEL_BOX: Box = (852, 62, 1088, 610)
STATUS_BOX: Box = (862, 72, 1078, 140)
PLAYER_ROW_TOP, PLAYER_ROW_H, PLAYER_ROW_GAP = 150, 68, 8
LEGEND_TOP = 524  # the key to the map's symbols, under the players if they leave room
EXIT_BOX: Box = (12, 622, 1088, 690)
SCALE = 2  # the cached background is drawn this much larger, then shrunk

SECRET_SIZE = (640, 400)
REVEAL_WIDTH = 900
MAX_TOKEN = 56  # largest token diameter in a room
PILL_ROW = 20  # row height when a room is crowded


# --- public -----------------------------------------------------------------------------


def draw_dungeon(obs: RumbleObservation, names: list[str]) -> bytes:
    """The public board as PNG bytes. `names[seat]` is each player's display name.

    It never reads `obs["secret"]`: the same board for every viewer.
    """
    return to_png(dungeon_image(obs, names))


def dungeon_image(obs: RumbleObservation, names: list[str]) -> Image.Image:
    """The public board as an image (for tests and previews)."""
    image = _background(_layout_key(obs["tiles"], obs["entrance"], obs["treasure_room"])).copy()
    title_bar(image, "Rumble in the Dungeon", f"Rumble {obs['rumble']} of 3", TITLE_HEIGHT)
    _draw_rooms(image, obs)
    _draw_exit_line(image, obs)
    _draw_panel(image, obs, names)
    return image


def draw_secret(obs: RumbleObservation, name: str) -> bytes:
    """A player's two secret characters, big, with where each is now. PNG bytes."""
    image = Image.new("RGB", SECRET_SIZE, BACKDROP)
    title_bar(image, "Your secret characters", display_name(name, ""), 44, 22)
    secret = obs["secret"] or []
    if not secret:  # the public view has no secret to show
        text_in_box(image, (16, 64, SECRET_SIZE[0] - 16, 352), "No secret characters", 24, MUTED)
    for index, key in enumerate(secret[:2]):
        left = 24 + index * 304
        _secret_card(image, (left, 64, left + 288, 352), key, _whereabouts(obs, key))
    note = f"Rumble {obs['rumble']} of 3 - only your better character scores. Keep it quiet!"
    text_in_box(image, (16, 360, SECRET_SIZE[0] - 16, 392), note, 15, MUTED, min_size=11)
    return to_png(image)


def draw_reveal(result: RumbleResult, names: list[str]) -> bytes:
    """The end-of-rumble reveal: each player's two characters, which scored, and points."""
    seats = len(result["points"])
    image = Image.new("RGB", (REVEAL_WIDTH, 130 + seats * 64), BACKDROP)
    title_bar(image, f"Rumble {result['rumble']} - the reveal", "", 48)
    text_in_box(image, (20, 56, REVEAL_WIDTH - 20, 84), _reveal_summary(result), 16, INK, "left")
    for seat in range(seats):
        top = 94 + seat * 64
        _reveal_row(image, (16, top, REVEAL_WIDTH - 16, top + 56), result, seat, names)
    exits = ", ".join(_name(key) for key in result["exit_line"]) or "nobody"
    bottom = image.height - 30
    text_in_box(
        image,
        (20, bottom, REVEAL_WIDTH - 20, bottom + 24),
        f"Out, in order: {exits}",
        13,
        MUTED,
        "left",
        10,
    )
    return to_png(image)


def tile_box(row: int, col: int) -> Box:
    """Where the tile at (`row`, `col`) sits on the board."""
    left = GRID_LEFT + col * (TILE_W + GAP)
    top = GRID_TOP + row * (TILE_H + GAP)
    return (left, top, left + TILE_W, top + TILE_H)


def player_row_box(seat: int) -> Box:
    """Where a player's line sits in the side panel."""
    top = PLAYER_ROW_TOP + seat * (PLAYER_ROW_H + PLAYER_ROW_GAP)
    return (STATUS_BOX[0], top, STATUS_BOX[2], top + PLAYER_ROW_H)


# --- small helpers ----------------------------------------------------------------------


def _name(key: str) -> str:
    return CHARACTERS.get(key, key.title())


def _player_name(names: list[str], seat: int) -> str:
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if seat < len(names) else fallback


def _player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _scaled(box: Box, k: int = SCALE) -> Box:
    return (box[0] * k, box[1] * k, box[2] * k, box[3] * k)


def _room_boxes(tiles: list[Tile]) -> dict[str, Box]:
    return {tile["room"]: tile_box(tile["row"], tile["col"]) for tile in tiles}


def _label_fit(key: str, width: int, size: int, min_size: int) -> tuple[str, int]:
    """The character's name fitted to `width`, falling back to its short name."""
    text, shown = fit_text(_name(key), width, size, min_size)
    if text.endswith("…") and key in SHORT_NAMES:
        text, shown = fit_text(SHORT_NAMES[key], width, size, min_size)
    return text, shown


def _winners(totals: list[int]) -> list[int]:
    best = max(totals, default=0)
    return [seat for seat, points in enumerate(totals) if points == best]


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
    for room, row, col, sides in cells:
        _draw_tile(big, tile_box(row, col), rng)
        _draw_doors(big, row, col, sides, doors)
        _draw_room_label(big, tile_box(row, col), room, entrance, treasure_room)
    for room, row, col, _ in cells:
        if room == entrance:
            _draw_entrance(big, tile_box(row, col))
        if room == treasure_room:
            _draw_treasure_frame(big, tile_box(row, col))
    rounded_box(big, _scaled(PANEL_BOX), 24, PANEL, PANEL_EDGE, 4)
    rounded_box(big, _scaled(EXIT_BOX), 24, PANEL, PANEL_EDGE, 4)
    return big.reduce(SCALE)


def _draw_bricks(big: Image.Image, rng: random.Random) -> None:
    """The rock around the dungeon: dark bricks in offset rows."""
    draw = ImageDraw.Draw(big)
    brick_w, brick_h = 64 * SCALE, 24 * SCALE
    for row, top in enumerate(range(0, big.height, brick_h)):
        offset = (row % 2) * brick_w // 2
        for left in range(-offset, big.width, brick_w):
            tint = rng.randint(-5, 5)
            colour = (BACKDROP[0] + 6 + tint, BACKDROP[1] + 5 + tint, BACKDROP[2] + 5 + tint)
            draw.rectangle((left + 2, top + 2, left + brick_w - 3, top + brick_h - 3), colour)


def _draw_tile(big: Image.Image, box: Box, rng: random.Random) -> None:
    """A room: a wall all round and a flagstone floor."""
    draw = ImageDraw.Draw(big)
    left, top, right, bottom = _scaled(box)
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
            draw.rectangle(_scaled(through_wall), DEAD_DOOR)
            continue
        draw.rectangle(_scaled(through_wall), PASSAGE)
        if side in "ES":  # draw each passage once, from its west or north room
            corridor = _door_box(box, side, GAP)
            draw.rectangle(_scaled(_widen(corridor, side, 3)), WALL_EDGE)
            draw.rectangle(_scaled(corridor), PASSAGE)


def _widen(box: Box, side: str, by: int) -> Box:
    """`box` made wider across a passage's direction: its side walls."""
    if side in "NS":
        return (box[0] - by, box[1], box[2] + by, box[3])
    return (box[0], box[1] - by, box[2], box[3] + by)


def _draw_room_label(big: Image.Image, box: Box, room: str, entrance: str, treasure: str) -> None:
    left, top = (box[0] + WALL_W + 6) * SCALE, (box[1] + WALL_W + LABEL_BAND // 2) * SCALE
    draw_text(big, (left, top), room, 16 * SCALE, LABEL, "lm")
    tag = "ENTRANCE" if room == entrance else "TREASURE" if room == treasure else ""
    if tag:
        draw_text(big, (left + 30 * SCALE, top), tag, 11 * SCALE, TORCH, "lm")


def _draw_entrance(big: Image.Image, box: Box) -> None:
    """A lit way in through the west wall, an arrow and "ENTRANCE" up the margin beside it
    (kept within the tile's height so it fits on any row)."""
    draw = ImageDraw.Draw(big)
    mid_y = (box[1] + box[3]) // 2
    way_in = (GRID_LEFT - 12, mid_y - DOOR_W // 2, box[0] + WALL_W, mid_y + DOOR_W // 2)
    draw.rectangle(_scaled(_widen(way_in, "E", 3)), WALL_EDGE)
    draw.rectangle(_scaled(way_in), shade(EMBER, 0.7))
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


def _draw_treasure_frame(big: Image.Image, box: Box) -> None:
    """A gold line round the treasure room's floor."""
    inner = _scaled((box[0] + WALL_W, box[1] + WALL_W, box[2] - WALL_W, box[3] - WALL_W))
    ImageDraw.Draw(big).rectangle(inner, outline=TORCH, width=2 * SCALE)


# --- sprites ----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _token(key: str, diameter: int) -> Image.Image:
    """A character token: a coloured disc with a dark rim, its two-letter mark, a shadow."""
    k = SUPERSAMPLE
    size = (diameter + 3) * k
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    colour = CHARACTER_COLOURS.get(key, (150, 150, 150))
    draw.ellipse((2 * k, 3 * k, size - 1, size - 1), fill=(0, 0, 0, 110))  # shadow
    rim = max(1, diameter // 14) * k
    draw.ellipse((0, 0, diameter * k - 1, diameter * k - 1), fill=(*WALL_EDGE, 255))
    draw.ellipse((rim, rim, diameter * k - rim - 1, diameter * k - rim - 1), fill=(*colour, 255))
    mark = CHARACTER_MARKS.get(key, key[:2].title())
    centre = diameter * k / 2
    draw.text(
        (centre, centre),
        mark,
        font=font(int(diameter * 0.44 * k)),
        fill=ink_for(colour),
        anchor="mm",
    )
    return sprite.reduce(k)


@lru_cache(maxsize=8)
def _chest(width: int) -> Image.Image:
    """A small treasure chest: arched wooden lid, darker body, gold corners and lock."""
    k = SUPERSAMPLE
    w, h = width * k, int(width * 0.8) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    edge, gold, line = (*WALL_EDGE, 255), (*CHEST_GOLD, 255), max(k, w // 24)
    lid_h = h * 9 // 20
    draw.rounded_rectangle(
        (0, 0, w - 1, lid_h * 2), radius=w // 4, fill=(*CHEST_LID, 255), outline=edge, width=line
    )
    draw.rectangle((0, lid_h, w - 1, h - 1), fill=(*CHEST_WOOD, 255), outline=edge, width=line)
    trim = w // 8
    for x in (line, w - line - trim):  # gold corner bands over lid and body
        draw.rectangle((x, lid_h // 3, x + trim, h - line - 1), fill=gold)
    draw.rectangle((line, lid_h - line, w - line - 1, lid_h + line), fill=edge)  # the seam
    lock_w, lock_h = w // 6, h // 4
    lock = (w // 2 - lock_w // 2, lid_h - lock_h // 3, w // 2 + lock_w // 2, lid_h + lock_h)
    draw.rectangle(lock, fill=gold, outline=edge, width=max(1, line // 2))
    key_x, key_y = w // 2, lid_h + lock_h // 3
    draw.ellipse((key_x - line, key_y - line, key_x + line, key_y + line), fill=edge)
    return sprite.reduce(k)


def _paste_token(image: Image.Image, key: str, centre: tuple[int, int], diameter: int) -> None:
    sprite = _token(key, diameter)
    image.paste(sprite, (centre[0] - diameter // 2, centre[1] - diameter // 2), sprite)


def _paste_chest(image: Image.Image, left: int, top: int, width: int) -> None:
    sprite = _chest(width)
    image.paste(sprite, (left, top), sprite)


# --- rooms: tokens and the chest ---------------------------------------------------------


def _draw_rooms(image: Image.Image, obs: RumbleObservation) -> None:
    boxes = _room_boxes(obs["tiles"])
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
        _paste_chest(image, box[2] - WALL_W - 40, box[1] + WALL_W + 2, 34)


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
        _paste_token(image, key, (col_x, top + diameter // 2), diameter)
        text, size = _label_fit(key, cell_w - 2, label, 11)
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
        _paste_token(image, key, (left + 2 + diameter // 2, top + row_h // 2), diameter)
        text_left = left + diameter + 5
        text, size = _label_fit(key, pill[2] - text_left - 2, 13, 10)
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
    _paste_token(image, key, (token_x, token_y), diameter)
    text_in_box(image, place_box, place, 14, TORCH, "left", 11)
    text, size = _label_fit(key, name_box[2] - name_box[0], 13, 10)
    text_in_box(image, name_box, text, size, INK, name_align)


def _escaped_chip(image: Image.Image, box: Box, key: str) -> None:
    rounded_box(image, box, 10, shade(EMBER, 0.45), TORCH, 2)
    middle = (box[1] + box[3]) // 2
    _paste_chest(image, box[0] + 8, middle - 12, 30)
    _paste_token(image, key, (box[0] + 58, middle), 34)
    text_left = box[0] + 80
    text_in_box(image, (text_left, box[1] + 2, box[2] - 6, middle), "Escaped!", 14, TORCH, "left")
    text, size = _label_fit(key, box[2] - 6 - text_left, 13, 10)
    draw_text(image, (text_left, middle + 9), text, size, INK, "lm")


# --- side panel -------------------------------------------------------------------------


def _draw_panel(image: Image.Image, obs: RumbleObservation, names: list[str]) -> None:
    winners = _winners(obs["totals"]) if obs["finished"] else []
    _draw_status(image, obs, names, winners)
    for seat in range(obs["seats"]):
        active = seat in obs["to_act"] and not obs["finished"]
        _draw_player_row(image, obs, names, seat, active, seat in winners)
    if player_row_box(obs["seats"] - 1)[3] < LEGEND_TOP - 8:
        _draw_legend(image)


def _draw_legend(image: Image.Image) -> None:
    """A key to the map's symbols, where the panel has room for it."""
    draw = ImageDraw.Draw(image)
    left, right = STATUS_BOX[0] + 4, STATUS_BOX[2]
    draw_text(image, (left, LEGEND_TOP), "KEY", 12, MUTED, "lm")
    rows = ["passage between rooms", "door onto a wall", "the treasure chest"]
    for index, label in enumerate(rows):
        middle = LEGEND_TOP + 22 + index * 22
        symbol = (left, middle - 7, left + 30, middle + 7)
        if index == 0:
            draw.rectangle(symbol, fill=PASSAGE, outline=WALL_EDGE)
        elif index == 1:
            draw.rectangle(symbol, fill=WALL, outline=WALL_EDGE)
            draw.rectangle((left + 8, middle - 7, left + 22, middle + 7), fill=DEAD_DOOR)
        else:
            _paste_chest(image, left + 5, middle - 8, 20)
        text_in_box(image, (left + 40, middle - 10, right, middle + 10), label, 13, MUTED, "left")


def _draw_status(
    image: Image.Image, obs: RumbleObservation, names: list[str], winners: list[int]
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) // 2
    if obs["finished"]:
        heading = "FINAL RESULT"
        who = " & ".join(_player_name(names, seat) for seat in winners)
        best = max(obs["totals"], default=0)
        line = f"{who} {'wins' if len(winners) == 1 else 'share the win'} with {best}"
    else:
        inside = len(obs["positions"])
        heading = f"{inside} CHARACTER{'S' if inside != 1 else ''} STILL INSIDE"
        seat = obs["to_act"][0] if obs["to_act"] else None
        line = f"{_player_name(names, seat)} to play" if seat is not None else "Waiting"
    text_in_box(image, (left + 4, top, right - 4, middle - 6), heading, 14, TORCH, "left", 11)
    text_in_box(
        image, (left + 4, middle - 4, right - 4, bottom), line, 21, INK, "left", 13, bold=True
    )


def _draw_player_row(
    image: Image.Image,
    obs: RumbleObservation,
    names: list[str],
    seat: int,
    active: bool,
    winner: bool,
) -> None:
    box = player_row_box(seat)
    left, top, right, bottom = box
    background = HIGHLIGHT if active else STONE_DARK
    rounded_box(image, box, 12, background, TORCH if winner else None, 3)
    ink = ink_for(background)
    soft = ink if active else MUTED
    disc(image, (left + 20, top + 24), 24, _player_colour(seat), shade(background, 0.5))
    draw_text(image, (left + 20, top + 24), str(seat + 1), 13, ink_for(_player_colour(seat)), "mm")
    total = str(obs["totals"][seat]) if seat < len(obs["totals"]) else "0"
    total_w = text_in_box(
        image, (right - 70, top + 4, right - 10, top + 44), total, 28, ink, "right"
    )
    name_right = right - 16 - total_w - (22 if winner else 0)
    text_in_box(
        image,
        (left + 38, top + 6, name_right, top + 40),
        _player_name(names, seat),
        18,
        ink,
        "left",
        12,
    )
    if winner:
        _crown(image, (name_right + 2, top + 14))
    history = [
        f"R{r['rumble']}: {r['points'][seat]}" for r in obs["history"] if seat < len(r["points"])
    ]
    line_box = (left + 12, top + 44, right - 10, bottom - 4)
    if active:
        tag_w = text_in_box(image, line_box, "TO PLAY", 13, ink, "right")
        line_box = (line_box[0], line_box[1], line_box[2] - tag_w - 8, line_box[3])
    line = "  ·  ".join(history) or "no points yet"
    text_in_box(image, line_box, line, 13, soft, "left", 10)


def _crown(image: Image.Image, at: tuple[int, int]) -> None:
    x, y = at
    points = [
        (x, y + 14),
        (x, y + 2),
        (x + 5, y + 8),
        (x + 9, y),
        (x + 13, y + 8),
        (x + 18, y + 2),
        (x + 18, y + 14),
    ]
    ImageDraw.Draw(image).polygon(points, fill=TORCH, outline=shade(TORCH, 0.5))


# --- secret and reveal ------------------------------------------------------------------


def _whereabouts(obs: RumbleObservation, key: str) -> str:
    """Where a character is now, from the public part of the observation."""
    if key in obs["positions"]:
        room = obs["positions"][key]
        return f"In room {room}, with the chest" if obs["chest"] == room else f"In room {room}"
    if key == obs["chest_exited_with"]:
        return "Escaped with the chest!"
    if key in obs["exit_line"]:
        return f"Out, {ordinal(obs['exit_line'].index(key) + 1)}"
    return "Out of the dungeon"


def _secret_card(image: Image.Image, box: Box, key: str, where: str) -> None:
    colour = CHARACTER_COLOURS.get(key, (150, 150, 150))
    left, top, right, _ = box
    rounded_box(image, box, 18, PANEL, colour, 4)
    centre_x = (left + right) // 2
    _paste_token(image, key, (centre_x, top + 110), 150)
    text_in_box(
        image, (left + 12, top + 196, right - 12, top + 236), _name(key), 30, INK, min_size=18
    )
    text_in_box(image, (left + 12, top + 244, right - 12, top + 272), where, 17, MUTED, min_size=12)


def _reveal_summary(result: RumbleResult) -> str:
    last = _name(result["last_standing"])
    chest = result["chest_exited_with"]
    chest_text = f"{_name(chest)} escaped with the chest" if chest else "the chest stayed inside"
    return f"Last one standing: {last}.   {chest_text[0].upper()}{chest_text[1:]}."


def _fate(result: RumbleResult, key: str) -> str:
    if key == result["chest_exited_with"]:
        return "escaped with the chest"
    if key == result["last_standing"]:
        return "last one standing"
    if key in result["exit_line"]:
        return f"out {ordinal(result['exit_line'].index(key) + 1)}"
    return ""


def _reveal_row(
    image: Image.Image, box: Box, result: RumbleResult, seat: int, names: list[str]
) -> None:
    left, top, right, bottom = box
    rounded_box(image, box, 12, STONE_DARK)
    middle = (top + bottom) // 2
    disc(image, (left + 22, middle), 26, _player_colour(seat), WALL_EDGE)
    draw_text(image, (left + 22, middle), str(seat + 1), 14, ink_for(_player_colour(seat)), "mm")
    text_in_box(
        image, (left + 44, top, left + 230, bottom), _player_name(names, seat), 19, INK, "left", 12
    )
    secrets = result["secrets"][seat] if seat < len(result["secrets"]) else []
    best = result["best"][seat] if seat < len(result["best"]) else ""
    for index, key in enumerate(secrets[:2]):
        chip_left = left + 240 + index * 250
        _reveal_character(
            image, (chip_left, top + 4, chip_left + 240, bottom - 4), result, key, key == best
        )
    points = result["points"][seat]
    text_in_box(
        image,
        (right - 110, top, right - 14, bottom),
        f"+{points}",
        28,
        TORCH if points else MUTED,
        "right",
    )


def _reveal_character(
    image: Image.Image, box: Box, result: RumbleResult, key: str, scored: bool
) -> None:
    left, top, right, bottom = box
    if scored:
        rounded_box(image, box, 10, shade(EMBER, 0.4), TORCH, 2)
    middle = (top + bottom) // 2
    _paste_token(image, key, (left + 24, middle), 38)
    ink = INK if scored else MUTED
    text_in_box(image, (left + 50, top + 2, right - 8, middle + 2), _name(key), 16, ink, "left", 11)
    fate = _fate(result, key) + ("  - scores" if scored else "")
    text_in_box(image, (left + 50, middle, right - 8, bottom - 2), fate, 12, ink, "left", 10)

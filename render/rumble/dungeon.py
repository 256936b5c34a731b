"""Rumble's public picture, `draw_dungeon`: the background of the layout (`background.py`),
the character tokens and the chest in their rooms, and the exit line; the side panel comes
from `panel.py`.
"""

from __future__ import annotations

from PIL import Image

from render.common import (
    EMBER,
    INK,
    MUTED,
    STONE_DARK,
    TORCH,
    Box,
    Colour,
    draw_text,
    ink_for,
    rounded_box,
    shade,
    text_in_box,
    text_width,
    title_bar,
    to_png,
)
from render.common.caption import caption_below
from render.rumble.background import background, layout_key
from render.rumble.layout import (
    CHARACTER_COLOURS,
    EXIT_BOX,
    LABEL_BAND,
    MAX_TOKEN,
    SMALL_TEXT,
    TITLE_HEIGHT,
    WALL_EDGE,
    WALL_W,
    character_mark,
    label_fit,
    room_boxes,
    said,
)
from render.rumble.panel import draw_panel
from render.rumble.sprites import paste_chest, paste_token
from render.rumble.trail import TAG_H, draw_trail, fight_rooms
from rules.phrases import language_of, phrase
from rules.rumble.characters import CHARACTERS
from rules.rumble.observation import RumbleObservation

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
    """The public board as an image (for tests and previews), the last move's caption under
    it."""
    language = language_of(names)
    key = layout_key(obs["tiles"], obs["entrance"], obs["treasure_room"])
    image = background(key, language).copy()
    rumble = said(phrase("Rumble {rumble} of 3", rumble=obs["rumble"]), language)
    title_bar(image, "Rumble in the Dungeon", rumble, TITLE_HEIGHT)
    since = obs["step"] - 1 if since is None else since
    draw_trail(image, obs, since, language)
    _draw_rooms(image, obs, fight_rooms(obs, since), language)
    _draw_exit_line(image, obs, language)
    draw_panel(image, obs, names)
    return caption_below(image, obs.get("last_move"), names)


# --- rooms: tokens and the chest ---------------------------------------------------------


def _draw_rooms(
    image: Image.Image, obs: RumbleObservation, tagged: set[str], language: str
) -> None:
    """The characters in each room, above the foot of a room tagged after a fight."""
    boxes = room_boxes(obs["tiles"])
    order = list(CHARACTERS)
    by_room: dict[str, list[str]] = {}
    for key in sorted(obs["positions"], key=lambda k: order.index(k) if k in order else 99):
        by_room.setdefault(obs["positions"][key], []).append(key)
    for room, keys in by_room.items():
        if room in boxes:
            left, top, right, bottom = _token_area(boxes[room])
            bottom -= TAG_H - 2 if room in tagged else 0
            _draw_tokens(image, (left, top, right, bottom), keys, language)
    chest_room = obs["chest"]
    if chest_room in boxes:
        box = boxes[chest_room]
        paste_chest(image, box[2] - WALL_W - 40, box[1] + WALL_W + 2, 34)


def _token_area(box: Box) -> Box:
    """The part of a room's floor below its label band, where tokens stand."""
    left, top, right, bottom = box
    return (left + WALL_W + 3, top + WALL_W + LABEL_BAND, right - WALL_W - 3, bottom - WALL_W - 4)


def _draw_tokens(image: Image.Image, area: Box, keys: list[str], language: str) -> None:
    """One token: big, its name below. Two: a token and its name on each line. Up to six:
    the tokens alone in a grid, their two-letter marks for names (names that small would not
    be read). More: the marks on chips in the characters' colours, four a row (a token
    small enough to fit would shrink its mark past reading)."""
    if len(keys) == 1:
        _draw_lone_token(image, area, keys[0], language)
    elif len(keys) == 2:
        _draw_token_list(image, area, keys, language)
    elif len(keys) <= 6:
        _draw_token_grid(image, area, keys, language)
    else:
        _draw_mark_grid(image, area, keys, language)


def _draw_lone_token(image: Image.Image, area: Box, key: str, language: str) -> None:
    diameter = min(MAX_TOKEN, area[3] - area[1] - SMALL_TEXT - 8)
    centre_x = (area[0] + area[2]) // 2
    top = area[1] + (area[3] - area[1] - diameter - SMALL_TEXT - 6) // 2
    paste_token(image, key, (centre_x, top + diameter // 2), diameter, language)
    text, size = label_fit(key, area[2] - area[0], SMALL_TEXT, SMALL_TEXT, language)
    draw_text(image, (centre_x, top + diameter + 2), text, size, INK, "ma", WALL_EDGE)


def _draw_token_list(image: Image.Image, area: Box, keys: list[str], language: str) -> None:
    row_h = (area[3] - area[1]) // len(keys)
    for index, key in enumerate(keys):
        left, top = area[0], area[1] + index * row_h
        pill = (left, top + 1, area[2], top + row_h - 1)
        rounded_box(image, pill, row_h // 2, WALL_EDGE, alpha=150)
        diameter = min(row_h - 2, 44)  # leaves "Barbarian" its room
        paste_token(image, key, (left + 2 + diameter // 2, top + row_h // 2), diameter, language)
        text_left = left + diameter + 4
        text, size = label_fit(key, pill[2] - text_left - 1, SMALL_TEXT, SMALL_TEXT, language)
        draw_text(image, (text_left, top + row_h // 2), text, size, INK, "lm")


def _draw_token_grid(image: Image.Image, area: Box, keys: list[str], language: str) -> None:
    cols = 2 if len(keys) <= 4 else 3
    rows = (len(keys) + cols - 1) // cols
    cell_w = (area[2] - area[0]) // cols
    cell_h = (area[3] - area[1]) // rows
    diameter = min(MAX_TOKEN, cell_w - 4, cell_h - 4)
    top0 = area[1] + (area[3] - area[1] - rows * cell_h) // 2
    for index, key in enumerate(keys):
        col, row = index % cols, index // cols
        left_over = len(keys) - row * cols  # a short last row is centred
        shift = (cols - left_over) * cell_w // 2 if left_over < cols else 0
        centre = (area[0] + shift + col * cell_w + cell_w // 2, top0 + row * cell_h + cell_h // 2)
        paste_token(image, key, centre, diameter, language)


def _draw_mark_grid(image: Image.Image, area: Box, keys: list[str], language: str) -> None:
    cols = 4
    rows = (len(keys) + cols - 1) // cols
    cell_w = (area[2] - area[0]) // cols
    cell_h = min(34, (area[3] - area[1]) // rows)
    top0 = area[1] + (area[3] - area[1] - rows * cell_h) // 2
    for index, key in enumerate(keys):
        row, col = divmod(index, cols)
        left, top = area[0] + col * cell_w, top0 + row * cell_h
        chip = (left + 1, top + 1, left + cell_w - 1, top + cell_h - 1)
        colour = CHARACTER_COLOURS.get(key, (150, 150, 150))
        rounded_box(image, chip, (cell_h - 2) // 2, colour, WALL_EDGE, 2)
        mark = character_mark(key, language)
        centre = ((chip[0] + chip[2]) / 2, (chip[1] + chip[3]) / 2)
        draw_text(image, centre, mark, SMALL_TEXT, ink_for(colour), "mm")


# --- exit line --------------------------------------------------------------------------


def _draw_exit_line(image: Image.Image, obs: RumbleObservation, language: str) -> None:
    """This rumble's removed characters in the order they went (first on the left), named
    while there is room, and the chest's fate."""
    left, top, right, bottom = EXIT_BOX
    middle = (top + bottom) // 2
    heading = said(phrase("OUT IN ORDER"), language)
    x = left + 16 + draw_text_width(image, (left + 16, middle), heading, TORCH) + 16
    escaped = obs["chest_exited_with"]
    end = right - (214 if escaped else 10)
    out = obs["exit_line"]
    if not out:
        nobody = said(phrase("Nobody yet - fights send characters here."), language)
        draw_text(image, (x, middle), nobody, SMALL_TEXT, MUTED, "lm")
    chip_w = min(190, (end - x) // max(1, len(out)))
    for key in out:
        _exit_chip(image, (x, top + 8, x + chip_w - 6, bottom - 8), key, language)
        x += chip_w
    if escaped:
        _escaped_chip(image, (right - 210, top + 8, right - 10, bottom - 8), escaped, language)


def draw_text_width(image: Image.Image, at: tuple[int, int], text: str, fill: Colour) -> int:
    """Draw a small label left-aligned at `at` (its middle); how wide it is."""
    draw_text(image, at, text, SMALL_TEXT, fill, "lm")
    return round(text_width(text, SMALL_TEXT))


def _exit_chip(image: Image.Image, box: Box, key: str, language: str) -> None:
    """A removed character: its token, and its name when the whole name fits beside it."""
    rounded_box(image, box, 10, STONE_DARK)
    left, top, right, bottom = box
    diameter = bottom - top - 6
    paste_token(image, key, (left + 3 + diameter // 2, (top + bottom) // 2), diameter, language)
    name_box = (left + diameter + 10, top, right - 4, bottom)
    text, size = label_fit(key, name_box[2] - name_box[0], SMALL_TEXT, SMALL_TEXT, language)
    if not text.endswith("…"):
        text_in_box(image, name_box, text, size, INK, "left")


def _escaped_chip(image: Image.Image, box: Box, key: str, language: str) -> None:
    rounded_box(image, box, 10, shade(EMBER, 0.45), TORCH, 2)
    middle = (box[1] + box[3]) // 2
    paste_chest(image, box[0] + 8, middle - 12, 30)
    paste_token(image, key, (box[0] + 62, middle), 44, language)
    text_left = box[0] + 90
    escaped = said(phrase("Escaped!"), language)
    text_in_box(image, (text_left, box[1] + 2, box[2] - 6, middle), escaped, SMALL_TEXT, TORCH,
                "left")  # fmt: skip
    text, size = label_fit(key, box[2] - 6 - text_left, SMALL_TEXT, SMALL_TEXT, language)
    draw_text(image, (text_left, middle + 9), text, size, INK, "lm")

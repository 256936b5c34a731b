"""Rumble's colours and layout: each character's colour and mark, the stone, wall, door and
chest colours, where every tile, the panel and the exit line sit on the board, and the small
helpers for names and boxes.
"""

from __future__ import annotations

from lang import ENGLISH, say
from render.common import Box, Colour, fit_text, least_size
from render.common.caption import caption_height
from rules.phrases import Filling, phrase_in, term
from rules.rumble.characters import CHARACTERS, named
from rules.rumble.observation import Tile

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
# Each mark is a word of the catalogues, so that it reads as the character's name does in the
# reader's language ("Kn" Knight, "Ch" Chevalier, "Ri" Ritter).
MARK = "character mark"
CHARACTER_MARKS: dict[str, str] = {
    "knight": term("character mark", "Kn"),
    "thief": term("character mark", "Th"),
    "wizard": term("character mark", "Wi"),
    "cleric": term("character mark", "Cl"),
    "barbarian": term("character mark", "Ba"),
    "ranger": term("character mark", "Ra"),
    "bard": term("character mark", "Bd"),
    "goblin": term("character mark", "Go"),
    "zombie": term("character mark", "Zo"),
    "skeleton": term("character mark", "Sk"),
    "cube": term("character mark", "Cu"),
    "troll": term("character mark", "Tr"),
}
SHORT = "character, short name"
SHORT_NAMES = {
    "cube": term("character, short name", "Cube")
}  # used where the full name does not fit

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

MAP_SIZE = (1100, 700)  # the board above its caption strip
BOARD_SIZE = (MAP_SIZE[0], MAP_SIZE[1] + caption_height(MAP_SIZE[0]))
SMALL_TEXT = least_size(BOARD_SIZE[0])  # the least font size on the board (22 px)
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
LEGEND_TOP = 510  # the key to the map's symbols, under the players if they leave room
EXIT_BOX: Box = (12, 622, 1088, 690)
SCALE = 2  # the cached background is drawn this much larger, then shrunk

SECRET_SIZE = (640, 400)
REVEAL_WIDTH = 900
REVEAL_TEXT = least_size(REVEAL_WIDTH)  # the least font size on the reveal (18 px)
MAX_TOKEN = 56  # largest token diameter in a room


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


def said(words: Filling, language: str) -> str:
    """Words drawn on a picture, in its readers' language."""
    return say(words, language)


def character_name(key: str, language: str = ENGLISH) -> str:
    return say(named(key), language) if key in CHARACTERS else key.title()


def character_mark(key: str, language: str = ENGLISH) -> str:
    """The two letters on a character's token."""
    if key not in CHARACTER_MARKS:
        return key[:2].title()
    return say(phrase_in(MARK, CHARACTER_MARKS[key]), language)


def scaled(box: Box, k: int = SCALE) -> Box:
    return (box[0] * k, box[1] * k, box[2] * k, box[3] * k)


def room_boxes(tiles: list[Tile]) -> dict[str, Box]:
    return {tile["room"]: tile_box(tile["row"], tile["col"]) for tile in tiles}


def label_fit(
    key: str, width: int, size: int, min_size: int, language: str = ENGLISH
) -> tuple[str, int]:
    """The character's name fitted to `width`, falling back to its short name."""
    text, shown = fit_text(character_name(key, language), width, size, min_size)
    if text.endswith("…") and key in SHORT_NAMES:
        short = say(phrase_in(SHORT, SHORT_NAMES[key]), language)
        text, shown = fit_text(short, width, size, min_size)
    return text, shown


def winning_seats(totals: list[int]) -> list[int]:
    best = max(totals, default=0)
    return [seat for seat, points in enumerate(totals) if points == best]

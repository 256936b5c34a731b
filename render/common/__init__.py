"""Drawing helpers shared by every game's pictures.

Everything here is small and stateless: a palette, one font at any size, text that fits a
box, anti-aliased rounded boxes and discs, a title bar, a generic playing card (face and
back) for the card games, and PNG encoding. Pictures are drawn
with Pillow only, from observations only (see the architecture notes).

Anti-aliasing: Pillow draws shapes without smoothing, so shapes with curves go through a
mask drawn at SUPERSAMPLE times the size and shrunk once; masks are cached, so after the
first picture a rounded box costs one `paste`. Text from FreeType is already smooth; each
text is rendered once and pasted after that.

The package: `palette.py` (types and colours), `words.py` (names and lists), `text.py`,
`shapes.py`, `grid.py` (seats and bricks in rows), `cards.py` and `own.py` (the frame of a
player's own picture).
Every game's pictures import these names from `render.common`.
"""

from __future__ import annotations

from render.common.cards import (
    CARD_BACK,
    CARD_EDGE,
    CardFace,
    card_art_box,
    card_back_image,
    card_image,
    flame_mark,
)
from render.common.grid import bricks, seat_cell
from render.common.own import no_cards, own_picture
from render.common.palette import (
    BACKDROP,
    DARK_INK,
    EMBER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    STONE_DARK,
    SUPERSAMPLE,
    TORCH,
    Align,
    Box,
    Colour,
    Size,
    ink_for,
    shade,
)
from render.common.shapes import arrow, disc, rounded_box, rounded_mask, see_through, title_bar
from render.common.text import (
    cached_draw_text,
    cached_text_in_box,
    clean_text,
    display_name,
    draw_text,
    fit_text,
    font,
    ordinal,
    text_in_box,
    text_width,
)
from render.png import to_png

__all__ = [
    "BACKDROP",
    "CARD_BACK",
    "CARD_EDGE",
    "DARK_INK",
    "EMBER",
    "HIGHLIGHT",
    "INK",
    "MUTED",
    "PANEL",
    "PANEL_EDGE",
    "PLAYER_COLOURS",
    "PLAYER_COLOUR_NAMES",
    "STONE_DARK",
    "SUPERSAMPLE",
    "TORCH",
    "Align",
    "Box",
    "CardFace",
    "Colour",
    "Size",
    "arrow",
    "bricks",
    "cached_draw_text",
    "cached_text_in_box",
    "card_art_box",
    "card_back_image",
    "card_image",
    "clean_text",
    "disc",
    "display_name",
    "draw_text",
    "fit_text",
    "flame_mark",
    "font",
    "ink_for",
    "no_cards",
    "ordinal",
    "own_picture",
    "rounded_box",
    "rounded_mask",
    "seat_cell",
    "see_through",
    "shade",
    "text_in_box",
    "text_width",
    "title_bar",
    "to_png",
]

"""Pictures for Toss It in the Trash, drawn from a `TossObservation` only.

- `draw_bin(obs, names)`: the channel's picture. On the left, a side view of the bin cut
  open (walls, rim, floor, ribbed back wall) with every resting piece drawn at its pose
  from the simulation; on the right, the round, whose turn it is, every player's row
  (colour, mice, the card they laid down or whether they have chosen, counters taken,
  score, place in the turn order) and, underneath, the supply beside the bin and the
  counter stack. It never reads `obs["hand"]` or `obs["my_choice"]`.
- `draw_preview(obs, kind, position, angle_deg)`: a small picture of the bin with a
  translucent "ghost" of the piece held above the opening at the chosen spot and
  rotation, a dotted drop line and the outline of where the hand lets go, so a player can
  see a drop before making it.
- `draw_cards(obs, name)`: a player's own hand and the card they laid down this round.

What players see is what the simulation does: a box piece is drawn as a rectangle of
exactly its `KINDS` width x height and a round piece as a disc of its radius, centred on
the piece's position and turned by its angle; the looks (labels, rims, a bottle's neck)
are painted inside that outline. Sizes are always read from `KINDS`.

Speed: the bin, the backdrop and the panels are drawn once per layout and cached; each
kind's sprite is drawn once per scale (supersampled for smooth edges) and once per whole
degree of rotation, so a picture is a copy, some pastes, a little text and the PNG
encoding.

The package: `layout.py` (looks, colours, boxes), `pieces.py` (piece sprites), `board.py` (the
bin and the preview), `panel.py` (the players beside the bin) and `cards.py` (the hand
picture). The names below are what the bot and the tests use.
"""

from __future__ import annotations

from render.toss.board import bin_image, draw_bin, draw_preview
from render.toss.cards import cards_size, draw_cards
from render.toss.layout import (
    BIN_INSIDE,
    BOARD_SIZE,
    CARD_GAP,
    CARD_SIZE,
    MINUS,
    PLUS,
    PREVIEW_SIZE,
    board_view,
    ghost_pose,
    half_box,
    pile_top,
    preview_view,
)
from render.toss.panel import caption, chip_box, row_box, seat_colour, winners
from render.toss.pieces import look_of, piece_size_px

__all__ = [
    "BIN_INSIDE",
    "BOARD_SIZE",
    "CARD_GAP",
    "CARD_SIZE",
    "MINUS",
    "PLUS",
    "PREVIEW_SIZE",
    "bin_image",
    "board_view",
    "caption",
    "cards_size",
    "chip_box",
    "draw_bin",
    "draw_cards",
    "draw_preview",
    "ghost_pose",
    "half_box",
    "look_of",
    "piece_size_px",
    "pile_top",
    "preview_view",
    "row_box",
    "seat_colour",
    "winners",
]

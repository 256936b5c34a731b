"""Pictures for Trash War, drawn from a `TrashWarObservation` only.

- `draw_battlefield(obs, names)`: the public picture for the channel: every knight's
  fortress (three walls, standing or in rubble, the trash stuck on each with its damage and
  the wall's total out of 4), hand sizes as card backs, who is to act, who is out, the
  trash in flight, the draw, recycle and torched piles and the torching phase. It never
  reads `obs["hand"]`.
- `draw_hand(obs, name, language)`: a player's own cards, drawn as cards, for the ephemeral
  "My hand" reply, with a strip showing the state of their own walls.

Words are said in the readers' language: `names` is a `rules.phrases.Readers` (its
`.language`; a plain list reads English), and the hand takes its language.

Speed: the bricks, panels, ground lines and labels depend on the number of players (and the
language) only and are drawn once for each; walls, rubble, trash chips and cards are cached
sprites. A picture is then a copy, some pastes, a little text and the PNG encoding.

The package: `layout.py` (colours and boxes), `cards.py` (card sprites), `words.py` (names and
captions), `fortress.py` and `battlefield.py` (the public picture) and `hand.py` (the hand
picture). The names below are what the bot and the tests use.
"""

from __future__ import annotations

from render.trashwar.battlefield import battlefield_image, draw_battlefield
from render.trashwar.cards import card_face, card_sprite, style_of
from render.trashwar.hand import draw_hand, hand_card_box, hand_size_px
from render.trashwar.layout import (
    DANGER,
    FLIGHT_NOW,
    HAND_CARD,
    HAND_STRIP_H,
    KIND_STYLES,
    MINI_CARD,
    MORTAR,
    OUT_STAMP,
    board_size,
    fortress_box,
    hand_backs_box,
    header_box,
    wall_box,
)
from render.trashwar.words import caption

__all__ = [
    "DANGER",
    "FLIGHT_NOW",
    "HAND_CARD",
    "HAND_STRIP_H",
    "KIND_STYLES",
    "MINI_CARD",
    "MORTAR",
    "OUT_STAMP",
    "battlefield_image",
    "board_size",
    "caption",
    "card_face",
    "card_sprite",
    "draw_battlefield",
    "draw_hand",
    "fortress_box",
    "hand_backs_box",
    "hand_card_box",
    "hand_size_px",
    "header_box",
    "style_of",
    "wall_box",
]

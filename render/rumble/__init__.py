"""Pictures for Rumble in the Dungeon, drawn from a `RumbleObservation` only.

- `draw_dungeon(obs, names)`: the public board for the channel: the 4 x 3 dungeon, the
  characters still inside, the chest, this rumble's exit line and the players' points.
- `draw_secret(obs, name)`: a player's own two secret characters, for an ephemeral reply.
- `draw_reveal(result, names)`: the end-of-rumble reveal of everyone's characters.

Speed: everything that depends only on the dungeon's layout (stone, walls, doors, labels)
is drawn once, at twice the size for smooth edges, and cached; tokens and the chest are
cached sprites. A board is then a copy, a few pastes, some text and the PNG encoding.

The package: `layout.py` (colours and boxes), `sprites.py` (tokens and the chest), `dungeon.py`
(the public picture), `panel.py` (its side panel) and `reveal.py` (the secret and reveal
pictures). The names below are what the bot and the tests use.
"""

from __future__ import annotations

from render.rumble.dungeon import draw_dungeon, dungeon_image
from render.rumble.layout import (
    BOARD_SIZE,
    CHARACTER_COLOURS,
    CHARACTER_MARKS,
    CHEST_WOOD,
    EXIT_BOX,
    REVEAL_WIDTH,
    SECRET_SIZE,
    player_row_box,
    tile_box,
)
from render.rumble.reveal import draw_reveal, draw_secret

__all__ = [
    "BOARD_SIZE",
    "CHARACTER_COLOURS",
    "CHARACTER_MARKS",
    "CHEST_WOOD",
    "EXIT_BOX",
    "REVEAL_WIDTH",
    "SECRET_SIZE",
    "draw_dungeon",
    "draw_reveal",
    "draw_secret",
    "dungeon_image",
    "player_row_box",
    "tile_box",
]

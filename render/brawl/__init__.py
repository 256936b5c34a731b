"""Pictures for Dumpster Brawl!, drawn from a `BrawlObservation` (and player names) only.

- `draw_table(obs, names, since)`: the public picture for the channel: an alley wall with one
  placard per seat (player, character and animal, its affinity item, the hand size as a fan
  of card backs, tags for the attacker, the defender, the King's crown, Stink Cloud and
  Slippery Lid, the winners), Rummy's laid-down cards and points, and a strip with the trash
  and discard piles, the Blockers set aside and what is shuffled into this game. A caption
  says what is being decided and what is left (draws, discards, spoils); arrows between
  fans say how many cards went from hand to hand after step `since` (`handovers.py`). It
  never reads `obs["hand"]`: the same picture for every viewer.
- `draw_rolls(obs, names, since_step)`: the dice rolled since `since_step`, one row a roll,
  each die a blue or green rounded square with a crowbar or a trash-can lid and its sign,
  and the counts that matter; with the start-player roll first when `since_step` is 0.
- `draw_hand(obs, name, language)`: a player's own cards grouped by kind, sets highlighted,
  Slugs and Boosters explained, and a line saying how far the hand is from winning.

Every word is said through the catalogues (`lang`): in `names.language` where `names` is a
`rules.phrases.Readers`, else in the language given (English by default).

The 13 trash kinds each get a little icon drawn with Pillow primitives; their colours and
drawing functions are in the one table `KIND_ART` in `icons.py`. Icons, dice, card faces, fans of
card backs and the alley wall are cached sprites, so a picture is mostly pastes and text.

The package: `icons.py` (kinds, card sprites, colours), `dice.py` (dice sprites and the dice
picture), `words.py` (names and captions), `table.py` (the public picture) and `hand.py` (the
hand picture). The names below are what the bot and the tests use.
"""

from __future__ import annotations

from render.brawl.dice import ROLL_ROW_H, ROLLS_W, START_ROW_H, draw_rolls, new_rolls, roll_counts
from render.brawl.hand import draw_hand, hand_groups, hand_layout, hand_verdict
from render.brawl.icons import (
    CROWN_GOLD,
    DIE_BLUE,
    DIE_GREEN,
    KIND_ART,
    SET_GLOW,
    SLIPPERY,
    STINK,
    kind_icon,
)
from render.brawl.table import (
    CELL_H,
    GRID_TOP,
    band_box,
    draw_table,
    placard_box,
    strip_box,
    table_image,
    table_size,
)
from render.brawl.words import caption, who

__all__ = [
    "CELL_H",
    "CROWN_GOLD",
    "DIE_BLUE",
    "DIE_GREEN",
    "GRID_TOP",
    "KIND_ART",
    "ROLLS_W",
    "ROLL_ROW_H",
    "SET_GLOW",
    "SLIPPERY",
    "START_ROW_H",
    "STINK",
    "band_box",
    "caption",
    "draw_hand",
    "draw_rolls",
    "draw_table",
    "hand_groups",
    "hand_layout",
    "hand_verdict",
    "kind_icon",
    "new_rolls",
    "placard_box",
    "roll_counts",
    "strip_box",
    "table_image",
    "table_size",
    "who",
]

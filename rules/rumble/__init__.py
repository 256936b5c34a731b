"""Rumble in the Dungeon: twelve heroes, one chest, three rumbles."""

from rules.rumble.ai import choose, random_choice
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import FIXED_LAYOUTS, LAYOUT_CHOICES, Layout, random_layout
from rules.rumble.engine import RUMBLE, Rumble, State, character_points

__all__ = [
    "CHARACTERS",
    "FIXED_LAYOUTS",
    "LAYOUT_CHOICES",
    "RUMBLE",
    "Layout",
    "Rumble",
    "State",
    "character_points",
    "choose",
    "random_choice",
    "random_layout",
]

# The modules of this package a picture may import (tests/test_architecture.py reads this):
# the observation and the heroes' table; never the engine.
RENDER_READS = ("observation", "characters")

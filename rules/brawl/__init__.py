"""Dumpster Brawl!: animals brawl over the alley's trash for three sets (three ways to play)."""

from rules.brawl.ai import choose, random_choice
from rules.brawl.data import BLOCKERS, BOOSTERS, CARDS, CHARACTERS, KINDS, Card
from rules.brawl.engine import BRAWL, Brawl, State
from rules.brawl.observation import BrawlObservation

__all__ = [
    "BLOCKERS",
    "BOOSTERS",
    "BRAWL",
    "CARDS",
    "CHARACTERS",
    "KINDS",
    "Brawl",
    "BrawlObservation",
    "Card",
    "State",
    "choose",
    "random_choice",
]

# The modules of this package a picture may import (tests/test_architecture.py reads this):
# the observation, the card and character tables (data.py) and their words; never the engine.
RENDER_READS = ("observation", "data", "words")

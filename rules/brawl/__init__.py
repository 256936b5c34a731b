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

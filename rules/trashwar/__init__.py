"""Trash War: knights throw junk at each other's fortress walls until one is left."""

from rules.trashwar.ai import choose, random_choice
from rules.trashwar.cards import CARDS, DECK_LIST, TRASH_NAMES, Card, Row
from rules.trashwar.engine import TRASH_WAR, Flight, State, TrashWar, Wall
from rules.trashwar.observation import TrashWarObservation

__all__ = [
    "CARDS",
    "DECK_LIST",
    "TRASH_NAMES",
    "TRASH_WAR",
    "Card",
    "Flight",
    "Row",
    "State",
    "TrashWar",
    "TrashWarObservation",
    "Wall",
    "choose",
    "random_choice",
]

# The modules of this package a picture may import (tests/test_architecture.py reads this):
# the observation, the card table and the walls' words; never the engine.
RENDER_READS = ("observation", "cards", "words")

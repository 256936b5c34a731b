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

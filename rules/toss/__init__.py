"""Toss It in the Trash: forty pieces of garbage, one simulated bin, six counters."""

from rules.toss.ai import choose, random_choice
from rules.toss.bin import KINDS, Kind, Piece, drop, prefill, simulate
from rules.toss.engine import TOSS, Toss
from rules.toss.state import State

__all__ = [
    "KINDS",
    "TOSS",
    "Kind",
    "Piece",
    "State",
    "Toss",
    "choose",
    "drop",
    "prefill",
    "random_choice",
    "simulate",
]

# The modules of this package a picture may import (tests/test_architecture.py reads this):
# the observation, the pieces' kinds and the bin's sizes (bin.py) and their words; never the
# engine.
RENDER_READS = ("observation", "bin", "words")

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

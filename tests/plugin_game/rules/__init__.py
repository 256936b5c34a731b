"""Last Lid's engine package: what becomes `rules/<game>/__init__.py` in a real game.

The bot offers every `Game` instance a rules package names in `__all__` (bot/games.py
walks `rules/`); the template, kept in tests/, is offered by its plug-in instead.
"""

from .engine import LAST_LID, LastLid, State
from .observation import LastLidObservation

__all__ = ["LAST_LID", "LastLid", "LastLidObservation", "State"]

# The modules of this package a picture may import (tests/test_architecture.py reads this):
# the observation's shape and plain data tables, never the engine, so a picture can show
# only what an observation holds.
RENDER_READS = ("observation",)

"""The game engines: the shared contract and helpers here, one package per game."""

# The shared modules a picture may import (tests/test_architecture.py reads this; each
# game's package lists its own): phrases, the observation types every game shares, and
# English words. Never `base` or `search`, which belong to the engines.
RENDER_READS = ("observation", "phrases", "words")

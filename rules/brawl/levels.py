"""Dumpster Brawl!'s AI at its three levels, the engine's `ai` (`rules.base.Chooser`):
`choose_easy` the beginner (`easy.py`), `choose` the normal AI (`ai.py`) and `choose_hard`
the search (`hard.py`)."""

from rules.brawl.ai import choose
from rules.brawl.easy import choose_easy
from rules.brawl.hard import choose_hard

__all__ = ["choose", "choose_easy", "choose_hard"]

"""Last Lid's AI, at the three levels of `rules.base.Chooser`, deciding from its own
observation and legal actions only."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.base import AnyGame


def choose_easy(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    # A beginner who has not seen the trick takes any number.
    return rng.choice(legal)


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    # Leave the next player a multiple of (most + 1) lids: whatever they take, the pile can
    # be brought back to a multiple, down to 0 on our turn.
    best = f"take {observation['lids'] % (observation['most'] + 1)}"
    return best if best in legal else rng.choice(legal)


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    # The normal level already plays perfectly; a deeper game would search here
    # (rules/search.py).
    return choose(observation, legal, rng)

"""Dumpster Brawl!'s easy level: a beginner. It plays as the normal AI (`ai.choose`) does,
reading only its own observation, with the habits of a player in a first game:

- it forgets trash affinity: it counts every kind to three, so it throws away the second
  card of its own character's item as readily as any odd card;
- it hoards Boosters, saving them for a better moment that never comes: it plays none of
  the turn Boosters (Dumpster Dive, Sneak Peek, Quick Swap, Clean Sweep) nor Second Wind,
  and never discards or gives one away, forgetting that a Booster in hand blocks a winning
  hand as surely as a Slug; only Extra Elbow and Sturdy Lid, which plainly help in a
  fight, get played;
- it attacks whoever holds the most cards (the richest pickings), not the one nearest to
  winning;
- in Rummy it keeps its sets in hand to lay the whole hand down at once when it goes out,
  so the cards a fight's winner takes from it are points lost, and a rival who goes out
  first leaves it with nothing on the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.brawl.ai import choose

# Booster plays it saves for later: the turn Boosters and Second Wind's reroll.
SAVED = ("play dive", "play peek", "play swap", "play sweep", "reroll")
PARTING = ("discard", "give")  # what it would never do with a Booster


def thinkable(obs: Mapping[str, Any], action: str) -> bool:
    """Does the beginner think of `action` at all (see the module's docstring)?"""
    words = action.split()
    boosters = {card["key"] for card in obs["hand"] or [] if card["type"] == "booster"}
    if action.startswith(SAVED):
        return False
    if words[0] in PARTING and words[1] in boosters:
        return False
    return words[0] != "lay"  # Rummy: only ever the whole hand, by going out


def choose_easy(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The beginner's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    hand = observation["hand"] or []
    # Affinity forgotten, and Boosters kept out of its reckoning of what is junk.
    obs = {
        **observation,
        "affinity": False,
        "hand": [card for card in hand if card["type"] != "booster"],
    }
    thought = [a for a in legal if thinkable(observation, a)] or legal
    choice = choose(obs, thought, rng)
    if choice.startswith("attack"):  # when to attack it knows; whom, it picks by greed
        sizes = obs["hand_sizes"]
        attacks = [a for a in thought if a.startswith("attack")]
        return max(
            attacks,
            key=lambda a: (sizes[int(a.split()[1][1:])], a.endswith("elbow"), rng.random()),
        )
    # Left holding only Boosters when a Garbage Truck comes, it throws one away after all.
    return choice if choice in thought else rng.choice(thought)

"""Players the bot provides for Dumpster Brawl!.

`choose` is the AI animal at the normal level (`levels.py` gathers the three levels: the
beginner in `easy.py`, the search in `hard.py`, which both start from this one). It reads
only its own observation (its hand, hand sizes, the laid-down cards, the dice) and its legal
actions:

- it values each trash kind in hand by how close it is to a set (count over the set size,
  two for its affinity when that is on); Slugs are worth least, then odd singletons;
- it dumps its least useful card whenever it may discard or give one (Slugs first, into an
  opponent's hand when it wins a fight), otherwise it takes a random card;
- it draws everything it may, declares a discard when it holds junk and a draw otherwise;
- it attacks the opponent nearest to winning: in Rummy the most points, otherwise the hand
  size nearest to a winning nine;
- it plays Boosters when they help: Extra Elbow and Sturdy Lid in every fight, Second Wind
  when losing the roll or on a rummage roll of few pluses, Dumpster Dive before attacking,
  Quick Swap and Clean Sweep to get rid of junk (in Rummy the Sweep alone, to be able to
  go out); Sneak Peek never changes its mind, so it keeps it to discard;
- in Rummy it goes out when it can, else lays down the most cards it may.

`random_choice` is the random player of the playout tests.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.brawl.data import DIVE_DRAWS

JUNK = 0.67  # below this a card is worth dumping
POOR_RUMMAGE = 3  # a rummage roll with fewer pluses is worth a Second Wind


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def card_values(obs: Mapping[str, Any]) -> dict[str, float]:
    """How much the AI wants to keep one card of each key it holds (higher: keep); the hard
    level searches throwing away only the least of these."""
    me = obs["seat"] if obs["seat"] is not None else obs["to_act"][0]
    affinity = obs["characters"][me]["affinity"] if obs["affinity"] else ""
    hand = obs["hand"] or []
    counts = Counter(card["key"] for card in hand if card["type"] == "trash")
    values: dict[str, float] = {}
    for card in hand:
        key = card["key"]
        if card["type"] == "slug":
            values[key] = -10.0
        elif card["type"] == "booster":
            values[key] = 0.5
        else:
            values[key] = counts[key] / (2 if key == affinity else 3)
    return values


def _worst(obs: Mapping[str, Any]) -> tuple[str, float]:
    values = card_values(obs)
    if not values:
        return "", 99.0
    key = min(values, key=lambda k: (values[k], k))
    return key, values[key]


def _nearness(obs: Mapping[str, Any], seat: int) -> float:
    if obs["mode"] == "rummy":
        return float(obs["points"][seat])
    return -abs(int(obs["hand_sizes"][seat]) - 9)


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if len(legal) == 1:
        return legal[0]
    obs = observation
    legal_set = set(legal)
    worst, worst_value = _worst(obs)
    phase = obs["phase"]
    if obs["truck"]:
        return f"discard {worst}"
    if "go out" in legal_set:
        return "go out"
    # Boosters on its own turn.
    # A Dive into piles holding fewer than its two cards draws back the Boosters just
    # played (the Dive itself among them): played again and again, the turn never ends.
    if "play dive" in legal_set and obs["trash_size"] + obs["discard_size"] >= DIVE_DRAWS:
        return "play dive"
    if worst_value < 0:
        swaps = [a for a in legal if a.startswith("play swap") and a.endswith(f" {worst}")]
        if swaps:
            return rng.choice(swaps)
    sweeps = [a for a in legal if a.startswith("play sweep")]
    if sweeps:
        values = card_values(obs)
        # "play sweep alone" sweeps no other card: it dumps only the Sweep, a Booster.
        swept = {a: [w for w in a.split()[2:] if w != "alone"] for a in sweeps}
        junk = [
            a
            for a in sweeps
            if all(values.get(w, 99.0) < JUNK for w in swept[a]) and swept[a] != ["sweep"]
        ]
        if junk:
            return max(junk, key=lambda a: (len(swept[a]), rng.random()))
    if phase == "declare":
        size = int(obs["hand_sizes"][obs["to_act"][0]])
        if worst_value < JUNK and size >= 6:
            return "declare discard" if worst_value < 0.4 or size >= 10 else "declare both"
        return "declare draw"
    poor = sum(v >> 1 for v in obs["rummage_dice"]) < POOR_RUMMAGE
    if "reroll" in legal_set and phase == "rummage" and poor:
        return "reroll"
    if phase in ("pre", "attack", "rummage"):
        if (
            f"discard {worst}" in legal_set
            and worst_value < JUNK
            and not any(a.startswith("draw") for a in legal)
        ):
            return f"discard {worst}"
        for source in ("draw trash", "draw discard"):
            if source in legal_set:
                return source
        if f"discard {worst}" in legal_set and worst_value < JUNK:
            return f"discard {worst}"
        attacks = [a for a in legal if a.startswith("attack")]
        if attacks:
            elbow = [a for a in attacks if a.endswith("elbow")] or attacks
            return max(elbow, key=lambda a: (_nearness(obs, int(a.split()[1][1:])), rng.random()))
        return "done" if "done" in legal_set else rng.choice(legal)
    if phase == "defend":
        return max(legal, key=len)
    if phase == "wind":
        if "reroll" not in legal_set:
            return "keep"
        me = obs["to_act"][0]
        bars = sum(v & 1 for v in obs["attack_dice"])
        lids = sum(1 - (v & 1) for v in obs["defence_dice"]) + obs["extra_lids"]
        winning = bars > lids if me == obs["turn"] else lids >= bars
        return "keep" if winning else "reroll"
    if phase == "spoils":
        if worst_value < JUNK and f"give {worst}" in legal_set:
            return f"give {worst}"
        return "take" if "take" in legal_set else "done"
    if phase == "lay":
        lays = [a for a in legal if a.startswith("lay ")]
        if lays:
            return max(lays, key=lambda a: (int(a.split()[2]), rng.random()))
        return "done"
    return "done" if "done" in legal_set else rng.choice(legal)

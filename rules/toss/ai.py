"""Players the bot provides for Toss It in the Trash.

`choose` is the sensible AI. It sees only its observation (the bin, the supply, its hand)
and the legal actions.

- Placing: it keeps to one kind (the one with the most pieces left, when it may pick) and
  tries a spread of spots across the opening, lying flat and standing up, in the
  simulation, also shifted each way by the table's wobble. Spots where any of those
  spill are out; of the rest it takes the one whose worst case leaves the pile lowest,
  then with the lowest centre of weight.
- Choosing a card: it estimates how many more pieces the bin can take from the free space
  under the rim. When the whole supply fits, it plays a card big enough to place the last
  piece; otherwise it plays the biggest card that still fits, or its smallest card.

`random_choice` is the random player the playout tests use.
"""

from __future__ import annotations

import math
import random
from typing import Any

from rules.toss.bin import (
    BIN_HEIGHT,
    BIN_WIDTH,
    KINDS,
    WOBBLE,
    Piece,
    grid_x,
    highest,
    simulate,
)

SPOT_STRIDE = 2  # try every second grid spot
ANGLES_TRIED = (0, 90)  # standing up and lying flat
PACKING = 0.55  # how much of the free space careful packing fills
HEAD_ROOM = 1.1  # the pile may stand this far above the rim (a share of the height)


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def _pieces(observation: dict[str, Any]) -> tuple[Piece, ...]:
    return tuple(
        Piece(p["kind"], round(p["x"] * 10), round(p["y"] * 10), round(p["angle"] * 1000))
        for p in observation["bin"]
    )


def room_left(observation: dict[str, Any]) -> float:
    """About how many more pieces the bin can take."""
    top = highest(_pieces(observation))
    free = max(0.0, BIN_HEIGHT * HEAD_ROOM - top) * BIN_WIDTH * PACKING
    sizes = [
        k.width * k.height if k.shape == "box" else math.pi * k.radius**2 for k in KINDS.values()
    ]
    return free / (sum(sizes) / len(sizes))


def _choose_card(observation: dict[str, Any], legal: list[str]) -> str:
    cards = sorted(int(action.split()[1]) for action in legal)
    room = room_left(observation)
    supply = sum(observation["supply"].values())
    if supply <= room:
        enough = [card for card in cards if card >= supply]
        if enough:
            return f"choose {enough[0]}"
    fitting = [card for card in cards if card <= room]
    return f"choose {fitting[-1] if fitting else cards[0]}"


def _place(observation: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    kinds = sorted({action.split()[1] for action in legal})
    supply = observation["supply"]
    kind = max(kinds, key=lambda k: (supply[k], rng.random()))
    pieces = _pieces(observation)
    spread, turn = WOBBLE.get(str(observation.get("wobble", "house")), (0.0, 0.0))
    shakes = [(0.0, 0.0)] + ([(-spread, -turn), (spread, turn)] if spread or turn else [])
    best: tuple[float, float, float] | None = None
    pick = ""
    for action in legal:
        _, k, x, angle = action.split()
        if k != kind or int(x) % SPOT_STRIDE or int(angle) not in ANGLES_TRIED:
            continue
        worst: tuple[float, float] = (0.0, 0.0)
        for dx, da in shakes:
            result = simulate(pieces, kind, grid_x(int(x)) + dx, math.radians(int(angle) + da))
            if result.spilled:
                break
            heights = [p.y for p in result.pieces]
            worst = max(worst, (highest(result.pieces), sum(heights) / len(heights)))
        else:
            score = (*worst, rng.random())
            if best is None or score < best:
                best, pick = score, action
    if not pick:
        return rng.choice([a for a in legal if a.split()[1] == kind])
    return pick


def choose(observation: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if legal[0].startswith("choose"):
        return _choose_card(observation, legal)
    return _place(observation, legal, rng)

"""How likely each knight is to win from a position: what the hard AI's search judges a
line by when it stops before the war is over.

A knight's score is a weighted sum of what they have (`features`: the fortress, the trash
flying at it, the turn, the cards in hand), and their chance to win is exp(score) over the
sum of every knight still in's exp(score). The weights were fitted to who went on to win
positions from games of three normal AIs (`bench/trashwar_judge_fit.py` plays the games
and fits them again).
"""

from __future__ import annotations

import math

from rules.trashwar.cards import BURN, CARDS, CATAPULT, DEFLECT, MACE, REPAIR, SHIELD, TRASH
from rules.trashwar.state import TOPPLE, State

VALUES = tuple(card.value for card in CARDS)
KINDS = tuple(card.kind for card in CARDS)

# The features of a knight and their fitted weights. Fitted by maximum likelihood
# (conditional logit) on four fifths of 50,351 positions, about one decision in twelve of
# 4,000 games of three normal AIs (seeds 100000-103999), and who won each game
# (`python -m bench.trashwar_judge_fit`). On the fifth held out, the log-likelihood a
# position was -0.734 with these weights, against -0.793 with the fortress features alone
# (the first five), -0.811 for judging the walls alone (room left less half the trash
# coming, squared) and -0.925 for an even guess.
WEIGHTS: dict[str, float] = {
    "log room": 1.058,  # log of the damage the walls can still take, less half the trash coming
    "room": 0.027,  # the damage the standing walls can still take
    "walls": 0.339,  # standing walls
    "coming": -0.095,  # the damage flying at the knight
    "on turn": 0.385,  # the turn is theirs
    "shield points": 0.203,  # the defence of the Shields in hand
    "maces": 0.418,
    "deflects": 0.213,
    "burn points": 0.118,  # what the Burns in hand can burn
    "trash points": 0.053,  # the damage of the Trash in hand
    "catapults": 0.332,
    "repairs": 0.745,
    "repairs for fallen walls": 0.315,  # on top: a Repair in hand while a wall is down
}
FEATURES = tuple(WEIGHTS)

# Which hand feature a card adds to, and how much (its value where it has one).
_HAND_FEATURE = {
    SHIELD: "shield points",
    MACE: "maces",
    DEFLECT: "deflects",
    BURN: "burn points",
    TRASH: "trash points",
    CATAPULT: "catapults",
    REPAIR: "repairs",
}


def features(state: State, seat: int) -> dict[str, float]:
    """What a knight still in has, by the names of `WEIGHTS`."""
    standing = [wall for wall in state.walls[seat] if wall.standing]
    room = sum(TOPPLE - sum([VALUES[c] for c in wall.trash]) for wall in standing)
    coming = sum([VALUES[f.card] for f in state.flight if f.target == seat])
    found = dict.fromkeys(FEATURES, 0.0)
    found["log room"] = math.log(max(0.5, room - coming / 2))
    found["room"] = room
    found["walls"] = len(standing)
    found["coming"] = coming
    found["on turn"] = float(state.turn == seat)
    for card in state.hands[seat]:
        kind = KINDS[card]
        if kind in _HAND_FEATURE:
            found[_HAND_FEATURE[kind]] += VALUES[card] or 1
    fallen = len(state.walls[seat]) - len(standing)
    found["repairs for fallen walls"] = min(found["repairs"], fallen)
    return found


def score(state: State, seat: int) -> float:
    """A knight's score: their `features` weighed by `WEIGHTS`."""
    return sum([WEIGHTS[name] * value for name, value in features(state, seat).items()])


def chances(state: State) -> tuple[float, ...]:
    """Each knight's chance to win, from their `score`s; 0 for a knight out of the war."""
    out = state.eliminated
    scores = [-math.inf if seat in out else score(state, seat) for seat in range(state.seats)]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)

"""Dumpster Brawl!'s hard level: an information-set search (`rules/search.py`) over worlds
drawn from the seat's own observation (`sample.py`), never the real state.

- Worlds: every hidden card (other hands, the discard pile, the trash pile's order) and the
  dice's seed drawn afresh for each iteration.
- Playouts: every seat plays as the normal AI would (`ai.choose`, fed the same few facts its
  observation gives it), for a short stretch: random play never builds a set, so a long
  random playout tells nothing.
- Where a playout stops, `evaluate` turns each hand into a win chance: outside Rummy by how
  few cards stand between it and a winning hand (cards to add to the sets it needs, plus the
  Slugs, Boosters and odd cards to get rid of), in Rummy by the points laid down and the sets
  waiting in hand; a softmax across the seats makes the chances sum to one.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from rules.base import Applied
from rules.brawl import ai
from rules.brawl.data import CARDS, CHARACTERS, TRASH
from rules.brawl.phases import perform
from rules.brawl.sample import sample
from rules.brawl.state import RUMMY, State, rummy_points, set_need
from rules.search import Rewards, Search, choose

if TYPE_CHECKING:
    from rules.base import AnyGame

SETS_TO_WIN = 3
# How sharply a card nearer to winning raises the win chance (softmax temperature), per
# card short of a winning hand (Round Rummage, King of the Heap) or per Rummy point.
SHARPNESS = {"distance": 0.9, "points": 0.35}
SET_IN_HAND = 0.8  # Rummy: a card of a set of three in hand, as a share of a laid point
PAIR_IN_HAND = 0.3  # Rummy: a card of a pair in hand
import os
ITERATIONS = int(os.environ.get("HARD_ITER", "60"))
DUMP = float(os.environ.get("HARD_DUMP", "0.15"))  # a card to get rid of, as a share of a card lacking from a set
DEPTH = int(os.environ.get("HARD_DEPTH", "30"))  # actions at most; a playout stops sooner when the turn is over
DUMPABLE = 3  # kinds of card the search weighs throwing away


def distance(state: State, seat: int) -> float:
    """How far `seat`'s hand is from a winning one: each card still lacking from the sets
    it is nearest to (up to three sets), and a little for each other card to get rid of.
    Discards come easily (declared, rummage minuses, a fight's gives), the right cards do
    not: a card lacking weighs one, a card to dump only `DUMP`."""
    hand = state.hands[seat]
    counts = Counter(CARDS[c].kind for c in hand if CARDS[c].type == TRASH)
    spare = len(hand) - sum(counts.values())  # Slugs and Boosters
    partial = sorted(
        (need - n, n) for k, n in counts.items() if (need := set_need(state, seat, k)) > n
    )
    sets = len(counts) - len(partial)
    missing = max(0, SETS_TO_WIN - sets)
    building, dumped = partial[:missing], partial[missing:]
    lacking = sum(lack for lack, _ in building) + 3 * (missing - len(building))
    spare += sum(n for _, n in dumped)
    return lacking + DUMP * spare


def rummy_value(state: State, seat: int) -> float:
    """Points laid down plus a share for the sets and pairs waiting in `seat`'s hand."""
    counts = Counter(CARDS[c].kind for c in state.hands[seat] if CARDS[c].type == TRASH)
    waiting = sum(
        n * (SET_IN_HAND if n >= 3 else PAIR_IN_HAND if n == 2 else 0) for n in counts.values()
    )
    return rummy_points(state)[seat] + waiting


def evaluate(game: AnyGame, state: State) -> Rewards:
    """Each seat's win chance guessed from the hands (see the module's docstring)."""
    seats = range(state.seats)
    if state.mode == RUMMY:
        scores = [SHARPNESS["points"] * rummy_value(state, p) for p in seats]
    else:
        scores = [-SHARPNESS["distance"] * distance(state, p) for p in seats]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def _glance(state: State, seat: int) -> dict[str, Any]:
    """The few facts of `seat`'s observation the normal AI reads, taken straight from a
    sampled world (a full `observe` costs more than the move itself)."""
    a, d = state.dice
    return {
        "seat": seat,
        "to_act": [seat],
        "mode": state.mode,
        "phase": state.phase,
        "turn": state.turn,
        "affinity": state.affinity,
        "characters": [{"affinity": CHARACTERS[k].affinity} for k in state.characters],
        "hand": [{"key": CARDS[c].key, "type": CARDS[c].type} for c in state.hands[seat]],
        "hand_sizes": [len(h) for h in state.hands],
        "points": rummy_points(state) if state.mode == RUMMY else [0] * state.seats,
        "truck": state.truck,
        "rummage_dice": state.rummage,
        "attack_dice": a,
        "defence_dice": d,
        "extra_lids": state.lids,
    }


def normal_playout(game: AnyGame, state: State, seat: int, rng: random.Random) -> str:
    """A playout move: what the normal AI would do in `seat`'s place."""
    return ai.choose(_glance(state, seat), game.legal_actions(state, seat), rng)


class _Trusting:
    """The engine as the search plays it: the actions it applies come from `legal_actions`
    already, so `apply` skips checking them again and writing the board's caption (together
    a third of the cost of a move)."""

    def __init__(self, game: AnyGame) -> None:
        self.outcome = game.outcome
        self.to_act = game.to_act
        self.legal_actions = game.legal_actions

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        return perform(state, seat, action).applied()


SEARCH = Search(
    sample=sample,
    iterations=ITERATIONS,
    evaluate=evaluate,
    depth=DEPTH,
    playout=normal_playout,
)


def candidates(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> list[str]:
    """The actions worth searching, the normal AI's choice first (ties go to it): of the
    cards to throw away, give or swap only the `DUMPABLE` least useful kinds, and no blind
    draw from the discard pile when the trash pile offers the same blind draw."""
    normal = ai.choose(observation, legal, rng)
    values = ai.card_values(observation)
    cheap = set(sorted(values, key=lambda k: (values[k], k))[:DUMPABLE])

    drawing = observation["phase"] == "rummage" and any(a.startswith("draw") for a in legal)

    def worth(action: str) -> bool:
        words = action.split()
        if drawing and words[0] in ("discard", "done"):
            return False
        if words[0] in ("discard", "give"):
            return words[1] in cheap
        if words[:2] == ["play", "swap"]:
            return words[3] in cheap
        if words[:2] == ["play", "sweep"]:
            return all(w in cheap for w in words[2:] if w != "alone")
        return action != "draw discard" or "draw trash" not in legal

    return [normal, *(a for a in legal if a != normal and worth(a))]


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level's action: the search's most visited, from the observation only."""
    if len(legal) == 1:
        return legal[0]
    worth = candidates(observation, legal, rng)
    turn = observation["turns"]

    def turn_over(game: AnyGame, state: State) -> bool:
        return state.turns > turn  # every line is judged when this turn is over

    search = replace(SEARCH, stop=turn_over)
    return choose(cast("AnyGame", _Trusting(game)), observation, worth, rng, search)

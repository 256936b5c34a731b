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
ITERATIONS = 60
DEPTH = 8


def distance(state: State, seat: int) -> int:
    """Cards between `seat`'s hand and a winning one: each card a set still lacks, for the
    fullest kinds up to three sets, and each other card to get rid of."""
    hand = state.hands[seat]
    counts = Counter(CARDS[c].kind for c in hand if CARDS[c].type == TRASH)
    junk = len(hand) - sum(counts.values())
    short: list[tuple[int, int]] = []  # (cards lacking, cards held) for each partial kind
    sets = 0
    for kind, n in counts.items():
        need = set_need(state, seat, kind)
        if n >= need:
            sets += 1
        else:
            short.append((need - n, n))
    short.sort()
    missing = max(0, SETS_TO_WIN - sets)
    completed, dumped = short[:missing], short[missing:]
    lacking = sum(lack for lack, _ in completed) + 3 * max(0, missing - len(short))
    return junk + lacking + sum(min(lack, held) for lack, held in dumped)


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


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level's action: the search's most visited, from the observation only."""
    return choose(cast("AnyGame", _Trusting(game)), observation, legal, rng, SEARCH)

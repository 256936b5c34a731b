"""Dumpster Brawl!'s hard level: an information-set search (`rules/search.py`) over worlds
drawn from the seat's own observation (`sample.py`), never the real state.

- A move that wins on the spot (the last odd card thrown away, going out ahead in Rummy) is
  taken without searching.
- Worlds: every hidden card (other hands, the discard pile, the trash pile's order) and the
  dice's seed are drawn afresh for each of `ITERATIONS` iterations.
- No playouts: a line is judged by `evaluate` the moment it leaves the tree. Random play
  never builds a set, and playouts by the normal AI to the end of the turn measured weaker
  (King of the Heap, 60 games: 40 % against 48 % without) at twice the time.
- `evaluate` turns each hand into a win chance: outside Rummy by how far it is from a
  winning hand (each card the nearest sets still lack, and a little for each Slug, Booster
  or odd card to get rid of, since discards come easily), in Rummy by the points laid down
  and the sets and pairs waiting in hand; a softmax across the seats makes the chances sum
  to one, so hurting the leader counts as much as helping oneself.
- The candidates (`candidates`): the normal AI's choice first, so ties go to it; of the
  cards to throw away, give or swap only the three least useful kinds; no blind draw from
  the discard pile beside the same blind draw from the trash pile; and a rummage's draws are
  always taken. A tree this small judges a draw by the average of everything that may
  follow it, and so below stopping at once: searched, the draws were given up and King of
  the Heap fell to 0-5 % (20 games).

What the search finds on top of the normal AI: a fight's winner takes a card from the loser
rather than giving its junk away (the taking empties the rival's sets and fills its own
hand), and it stops discarding a rummage's minuses once its odd cards are the makings of
its next sets.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from rules.base import Applied
from rules.brawl import ai
from rules.brawl.actions import parse_action
from rules.brawl.data import CARDS, TRASH
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
ITERATIONS = 150
DUMP = 0.3  # a card to get rid of, as a share of a card lacking from a set
DUMPABLE = 3  # kinds of card the search weighs throwing away
# Actions whose result no hidden card or die decides: only the seat's own cards move.
OWN_MOVES = ("discard", "give", "lay", "go out", "play sweep")


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


class _Trusting:
    """The engine as the search plays it: the actions it applies come from `legal_actions`
    already, so `apply` skips checking them again and writing the board's caption (together
    a third of the cost of a move)."""

    def __init__(self, game: AnyGame) -> None:
        self.outcome = game.outcome
        self.to_act = game.to_act
        self.legal_actions = game.legal_actions

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        return perform(state, seat, parse_action(action)).applied()


# No playout: every line is judged by `evaluate` the moment it leaves the tree (see the
# module's docstring for why).
SEARCH = Search(sample=sample, iterations=ITERATIONS, evaluate=evaluate, depth=0)


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


def winning_move(game: AnyGame, observation: Mapping[str, Any], legal: list[str]) -> str | None:
    """An action after which the seat has won, whatever the hidden cards: among those that
    move only its own cards (`OWN_MOVES`), tried in one sampled world."""
    me = observation["seat"]
    world = sample(observation, random.Random(observation["step"]))
    for action in (a for a in legal if a.startswith(OWN_MOVES)):
        outcome = game.outcome(game.apply(world, me, action).state)
        if outcome is not None and outcome.winners == (me,):
            return action
    return None


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level's action: the search's most visited, from the observation only."""
    if len(legal) == 1:
        return legal[0]
    trusting = cast("AnyGame", _Trusting(game))
    won = winning_move(trusting, observation, legal)
    if won is not None:
        return won
    worth = candidates(observation, legal, rng)
    return choose(trusting, observation, worth, rng, SEARCH)

"""Information-set Monte Carlo tree search: the search behind every game's hard AI.

A seat that cannot see the whole state (hands, secret characters, the deck's order) must not
search the real state. Each iteration starts instead from a *determinization*: a whole state
the game's `sample` draws at random among those consistent with the seat's observation.
One tree is grown over all of them, keyed by the actions taken (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012): a node's statistics mix every hidden world the seat
thinks possible, and a child counts as available only in the worlds where its action is
legal.

One iteration:

1. draw a world with `sample`;
2. walk down the tree, choosing among the children legal in that world by UCB (their mean
   reward for the seat that chooses there, plus an exploration bonus);
3. add one child for an action not tried yet in that world;
4. play on from there with `playout` for at most `depth` actions;
5. score the end: each seat's share of the win if the game ended, else `evaluate`'s guess;
6. add each seat's reward to the nodes where that seat chose.

Searching a fixed number of iterations with the caller's seeded generator makes the choice
a pure function of the observation and the seed: the same game replays the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.base import AnyGame, Outcome

Rewards = tuple[float, ...]  # per seat, in 0..1
Sampler = Callable[[Mapping[str, Any], random.Random], Any]
Policy = Callable[["AnyGame", Any, int, random.Random], str]
Evaluator = Callable[["AnyGame", Any], Rewards]


def random_playout(game: AnyGame, state: Any, seat: int, rng: random.Random) -> str:
    """The default playout: any legal action, uniformly."""
    return rng.choice(game.legal_actions(state, seat))


def win_shares(outcome: Outcome) -> Rewards:
    """Each seat's reward for a finished game: the winners share 1, the others get 0."""
    winners = outcome.winners
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(outcome.ranks)))


@dataclass(frozen=True)
class Search:
    """How one game searches: the parts only the game knows, and the budget."""

    # A whole state consistent with a seat's observation: the hidden parts drawn at random.
    sample: Sampler
    iterations: int
    # Each seat's chance of winning, guessed from a position the playout stopped in.
    evaluate: Evaluator
    # Actions played out past the tree before the position is judged by `evaluate`.
    depth: int = 1_000
    playout: Policy = random_playout
    exploration: float = 0.7


class Node:
    """One action in the tree: who chose it and how it has done for them."""

    __slots__ = ("available", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that chose the action leading here
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, for `seat`
        self.available = 1  # iterations in which this action was legal when offered

    def ucb(self, exploration: float) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


def choose(
    game: AnyGame,
    observation: Mapping[str, Any],
    legal: list[str],
    rng: random.Random,
    search: Search,
) -> str:
    """The most visited of `legal` after `search.iterations` iterations, for the seat whose
    observation this is. Reads nothing but the observation and the sampled worlds."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if len(legal) == 1:
        return legal[0]
    me: int = observation["seat"]
    root = Node(me)
    for _ in range(search.iterations):
        world = search.sample(observation, rng)
        _iterate(game, search, root, world, me, legal, rng)
    order = {action: index for index, action in enumerate(legal)}
    tried = [(child.visits, child.reward, -order[a], a) for a, child in root.children.items()]
    return max(tried)[3] if tried else legal[0]


def _iterate(
    game: AnyGame,
    search: Search,
    root: Node,
    state: Any,
    me: int,
    legal: list[str],
    rng: random.Random,
) -> None:
    """One iteration from the sampled world `state`: down the tree, one new node, a
    playout, and the rewards back up the path."""
    node, path = root, []
    while game.outcome(state) is None:
        # The root is the searching seat's own decision; below it, simultaneous choices are
        # taken one seat at a time (each sampled world already holds every hidden choice).
        seat = me if node is root else min(game.to_act(state))
        actions = legal if node is root else game.legal_actions(state, seat)
        untried = [a for a in actions if a not in node.children]
        for action in actions:
            if action in node.children:
                node.children[action].available += 1
        if untried:
            action = rng.choice(untried)
            node.children[action] = child = Node(seat)
            state = game.apply(state, seat, action).state
            path.append(child)
            break
        action = max(actions, key=lambda a: node.children[a].ucb(search.exploration))
        node = node.children[action]
        state = game.apply(state, seat, action).state
        path.append(node)
    rewards = _play_out(game, search, state, rng)
    for step in path:
        step.visits += 1
        step.reward += rewards[step.seat]


def _play_out(game: AnyGame, search: Search, state: Any, rng: random.Random) -> Rewards:
    """Each seat's reward after at most `search.depth` playout actions from `state`."""
    for _ in range(search.depth):
        outcome = game.outcome(state)
        if outcome is not None:
            return win_shares(outcome)
        seat = min(game.to_act(state))
        state = game.apply(state, seat, search.playout(game, state, seat, rng)).state
    outcome = game.outcome(state)
    if outcome is not None:
        return win_shares(outcome)
    return search.evaluate(game, state)

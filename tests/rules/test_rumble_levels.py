"""Rumble in the Dungeon: the AI's easy and hard levels and the worlds hard searches.

`sample` must draw a whole state that the seat could not tell from the real one (its
observation comes out unchanged) while the hidden parts, the other players' pairs and the
seed of the rumbles to come, vary. Every level is seeded and plays only legal actions; hard
sees only its observation and takes a sure win; easy has the beginner's habit its docstring
names (rules/rumble/ai.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import search
from rules.base import LEVELS, rng_for
from rules.rumble import ai
from rules.rumble.characters import CHARACTERS
from rules.rumble.engine import RUMBLE, State
from rules.rumble.sample import sample
from tests.rules.test_rumble import make_state

SEATS = 3
SECRETS = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]  # seat 0: knight


@cache
def played(seed: int) -> tuple[State, ...]:
    """Every state of a seeded three-player game between normal AIs, start to finish."""
    state = RUMBLE.new_game(SEATS, {}, seed)
    states = [state]
    while RUMBLE.outcome(state) is None:
        seat = state.turn
        legal = RUMBLE.legal_actions(state, seat)
        view = RUMBLE.observe(state, seat)
        action = RUMBLE.choose(view, legal, rng_for(seed, "ai", state.step, seat))
        state = RUMBLE.apply(state, seat, action).state
        states.append(state)
    return tuple(states)


positions = st.tuples(st.integers(0, 3), st.floats(0, 1), st.integers(0, 2**32))


def at(seed: int, where: float) -> State:
    states = played(seed)
    return states[min(len(states) - 1, int(where * len(states)))]


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard with a small budget: the promises below do not depend on its size."""
    monkeypatch.setattr(ai, "HARD_SEARCH", replace(ai.HARD_SEARCH, iterations=24))


# ---------------------------------------------------------------------------------------------
# The worlds hard searches


@settings(max_examples=60, deadline=None)
@given(positions)
def test_a_sampled_world_looks_the_same_to_its_seat(position: tuple[int, float, int]) -> None:
    """sample: whatever it draws, the seat (and the public) sees exactly its observation."""
    seed, where, draw = position
    state = at(seed, where)
    for seat in (*range(SEATS), None):
        view = RUMBLE.observe(state, seat)
        world = sample(view, random.Random(draw))
        assert RUMBLE.observe(world, seat) == view


def test_a_sampled_world_deals_the_hidden_pairs_afresh() -> None:
    """sample: the seat keeps its own pair; the others' pairs are dealt from the ten other
    characters, two each and none twice, and differ from draw to draw, as does the seed."""
    state = at(0, 0.3)
    view = RUMBLE.observe(state, 1)
    worlds = [sample(view, random.Random(draw)) for draw in range(40)]
    for world in worlds:
        assert world.secrets[1] == state.secrets[1]
        dealt = [c for pair in world.secrets for c in pair]
        assert len(set(dealt)) == len(dealt) == 2 * SEATS
        assert set(dealt) <= set(CHARACTERS)
    assert len({world.secrets for world in worlds}) > 20
    assert len({world.seed for world in worlds}) == len(worlds)


def test_the_rumbles_to_come_are_set_up_afresh_in_each_world() -> None:
    """sample: a world's seed is its own, so the next rumble's deal is not the real one."""
    states = played(1)
    last = next(s for s, then in pairwise(states) if then.rumble == 2)
    seat = last.turn
    legal = RUMBLE.legal_actions(last, seat)
    ending = next(a for a in legal if RUMBLE.apply(last, seat, a).state.rumble == 2)
    view = RUMBLE.observe(last, seat)
    deals = {
        RUMBLE.apply(sample(view, random.Random(draw)), seat, ending).state.secrets
        for draw in range(8)
    }
    assert len(deals) == 8


# ---------------------------------------------------------------------------------------------
# Every level


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_action_and_replays_with_its_seed(level: str) -> None:
    """Levels: each picks one of the legal actions, and the same observation with the same
    seed gives the same choice (a game replays the same way)."""
    for seed, where in [(0, 0.05), (1, 0.5), (2, 0.9)]:
        state = at(seed, where)
        seat = state.turn
        view = RUMBLE.observe(state, seat)
        legal = RUMBLE.legal_actions(state, seat)
        first = RUMBLE.choose(view, legal, random.Random(seed), level)  # type: ignore[arg-type]
        again = RUMBLE.choose(view, legal, random.Random(seed), level)  # type: ignore[arg-type]
        assert first in legal
        assert again == first


# ---------------------------------------------------------------------------------------------
# Hard


def test_hard_searches_worlds_drawn_from_its_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard: every world it searches shows seat 0 exactly what it sees, the others' pairs
    vary from world to world (it never searches the real deal), and two games that differ
    only in what seat 0 cannot see get the same choice from it."""
    searched: list[State] = []

    def spied(view: Mapping[str, Any], rng: random.Random) -> State:
        world = sample(view, rng)
        searched.append(world)
        return world

    monkeypatch.setattr(ai, "HARD_SEARCH", replace(ai.HARD_SEARCH, iterations=24, sample=spied))
    positions = {"knight": "B1", "goblin": "C1", "wizard": "A1", "troll": "B3", "cleric": "D3"}
    one = make_state(positions, secrets=SECRETS, seed=1)
    other = make_state(
        positions, secrets=[SECRETS[0], ("goblin", "cleric"), ("troll", "zombie")], seed=2
    )
    view = RUMBLE.observe(one, 0)
    assert RUMBLE.observe(other, 0) == view
    legal = RUMBLE.legal_actions(one, 0)
    picks = {
        RUMBLE.choose(RUMBLE.observe(state, 0), legal, random.Random(5), "hard")
        for state in (one, other)
    }
    assert len(picks) == 1
    assert all(RUMBLE.observe(world, 0) == view for world in searched)
    assert len({world.secrets for world in searched}) > 12  # of 24 worlds (twice the same)


def test_hard_grows_a_tree_of_its_own_choices_only() -> None:
    """Hard (rules/search.py's tree_depth 1): the tree holds seat 0's candidate actions and
    nothing below them, every reply coming from the normal AI's playout; each candidate is
    tried."""
    state = at(2, 0.2)
    seat = state.turn
    view = RUMBLE.observe(state, seat)
    legal = RUMBLE.legal_actions(state, seat)[: ai.HARD_CANDIDATES]
    hard = replace(ai.HARD_SEARCH, iterations=30)
    root = search.Node(seat)
    rng = random.Random(3)
    for _ in range(hard.iterations):
        search._iterate(RUMBLE, hard, root, sample(view, rng), seat, legal, rng)
    assert set(root.children) == set(legal)
    assert all(not child.children for child in root.children.values())
    assert sum(child.visits for child in root.children.values()) == hard.iterations


def test_hard_takes_a_sure_win() -> None:
    """Hard: in the last rumble, with the Knight (ours) and the chest in the entrance, going
    out with it scores 10 and wins the game whatever happens after."""
    state = make_state(
        {"knight": "A3", "troll": "B3", "goblin": "C2", "zombie": "D3", "cleric": "D2"},
        chest="A3",
        secrets=SECRETS,
        totals=(5, 5, 5),
        rumble=3,
    )
    legal = RUMBLE.legal_actions(state, 0)
    assert "exit knight" in legal
    assert RUMBLE.choose(RUMBLE.observe(state, 0), legal, random.Random(0), "hard") == (
        "exit knight"
    )


# ---------------------------------------------------------------------------------------------
# Easy


def test_easy_walks_into_a_crowded_room_that_normal_avoids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Easy: it does not see that the next player may throw out a character sharing a room,
    so it walks the Knight (ours) from B1 in beside the Goblin in C1, one step from the
    chest; the normal AI never does."""
    monkeypatch.setattr(ai, "STIR_CHANCE", 0.0)  # no stand-off-breaking whims
    state = make_state(
        {
            "knight": "B1",
            "goblin": "C1",
            "wizard": "A1",
            "troll": "B3",
            "zombie": "C3",
            "cleric": "D3",
        },
        secrets=SECRETS,
    )
    view = RUMBLE.observe(state, 0)
    legal = RUMBLE.legal_actions(state, 0)
    easy = Counter(ai.choose_easy(view, legal, random.Random(seed)) for seed in range(20))
    normal = Counter(ai.choose(view, legal, random.Random(seed)) for seed in range(20))
    assert easy["move knight E"] == 20
    assert normal["move knight E"] == 0

"""Toss It in the Trash: seeded whole games played to the end, invariants checked each step.

Games of 2 to 5 players with every wobble. Seats choose their cards with the AI or at
random; drops are random (the AI's placing search simulates dozens of drops per piece,
so a separate test plays a shorter game with AI placing). At every step:

- all forty pieces are accounted for: ten of each kind between the bin and the supply;
- all six counters are accounted for: on the stack or taken, each value once;
- no view holds another seat's chosen card before the reveal: the view stays the same
  whatever the other seats laid down;
- the state survives a JSON round trip exactly, and the views are JSON;
- the seats to act have legal actions and nobody else has.

`PLAYOUT_GAMES` sets the number of games (default 64, about half a minute on one core),
run in chunks of 16 that pytest's workers share; the issue's full run is
`PLAYOUT_GAMES=500`.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from dataclasses import replace

import pytest

from rules.base import rng_for
from rules.toss.ai import random_choice
from rules.toss.bin import KINDS, PIECES_EACH, count_kinds
from rules.toss.engine import KIND_ORDER, TOSS, State
from rules.toss.observation import ROUNDS, TossObservation
from rules.toss.state import COUNTERS

GAMES = int(os.environ.get("PLAYOUT_GAMES", "32"))
CHUNK = 16  # games per test, so that pytest-xdist can share them out
STEP_CAP = 2000
VIEW_KEYS = TossObservation.__required_keys__
WOBBLES = ("steady", "house", "shaky")


def check_state(state: State) -> None:
    inside = count_kinds(state.pieces)
    for index, kind in enumerate(KIND_ORDER):
        assert inside[kind] + state.supply[index] == PIECES_EACH, (kind, inside, state.supply)
    assert len(KINDS) * PIECES_EACH == 40
    taken = [abs(c) for seat in state.taken for c in seat]
    assert sorted([*state.counters, *taken]) == list(COUNTERS)
    assert list(state.counters) == sorted(state.counters)
    assert 1 <= state.round <= ROUNDS
    assert TOSS.from_json(json.loads(json.dumps(TOSS.to_json(state)))) == state
    assert (TOSS.outcome(state) is None) != state.finished


def check_views(state: State) -> None:
    for seat in [None, *range(state.seats)]:
        view = TOSS.observe(state, seat)
        assert view.keys() == VIEW_KEYS
        json.dumps(view)
        if state.phase == "choose":
            assert view["revealed"] == [None] * state.seats
            expected = state.chosen[seat] if seat is not None else None
            assert view["my_choice"] == expected
        if seat is None:
            assert view["hand"] is None and view["my_choice"] is None
        if state.phase == "choose":
            # Other seats' cards swapped for one nobody holds: a view that changes leaks.
            hidden = tuple(
                card if card is None or other == seat else 99
                for other, card in enumerate(state.chosen)
            )
            assert TOSS.observe(replace(state, chosen=hidden), seat) == view


def check_turn(state: State) -> None:
    acting = TOSS.to_act(state)
    for seat in range(state.seats):
        assert bool(TOSS.legal_actions(state, seat)) == (seat in acting)


def play_game(seed: int) -> State:
    seats = 2 + seed % 4
    wobble = WOBBLES[seed % 3]
    state = TOSS.new_game(seats, {"wobble": wobble}, seed)
    rng = rng_for(seed, "players")
    ai_cards = [(seed + seat) % 2 == 0 for seat in range(seats)]
    while not state.finished:
        assert state.step < STEP_CAP
        check_state(state)
        check_views(state)
        check_turn(state)
        seat = min(TOSS.to_act(state))
        legal = TOSS.legal_actions(state, seat)
        if state.phase == "choose" and ai_cards[seat]:
            action = TOSS.choose(TOSS.observe(state, seat), legal, rng)
        else:
            action = random_choice(legal, rng)
        assert action in legal
        before = TOSS.to_json(state)
        applied = TOSS.apply(state, seat, action)
        assert TOSS.to_json(state) == before  # the input is left alone
        assert applied.state.step == state.step + 1
        state = applied.state
    check_state(state)
    check_views(state)
    check_turn(state)
    return state


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_seeded_games_end_with_every_invariant_kept(first: int) -> None:
    start = time.perf_counter()
    seeds = range(first, min(first + CHUNK, GAMES))
    finals = [play_game(seed) for seed in seeds]
    steps = [s.step for s in finals]
    early = sum(1 for s in finals if not s.counters)
    print(
        f"\nseeds {seeds.start}-{seeds.stop - 1}: {len(finals)} games in"
        f" {time.perf_counter() - start:.1f}s, mean {statistics.mean(steps):.0f} steps;"
        f" {early} ended on the last counter"
    )
    assert all(s.finished for s in finals)


def test_playouts_are_reproducible() -> None:
    """(house rule: one seeded generator per game)"""
    assert play_game(7) == play_game(7)


def test_a_game_with_ai_placing_ends() -> None:
    """Two AI seats play a short game (steady hands, three rounds) to its end."""
    state = TOSS.new_game(2, {"wobble": "steady"}, 11)
    rng = random.Random(11)
    while not state.finished and state.round <= 3:
        check_state(state)
        seat = min(TOSS.to_act(state))
        legal = TOSS.legal_actions(state, seat)
        state = TOSS.apply(state, seat, TOSS.choose(TOSS.observe(state, seat), legal, rng)).state
    check_state(state)

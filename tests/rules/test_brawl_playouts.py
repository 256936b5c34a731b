"""Dumpster Brawl!: whole seeded games per mode, with invariants checked at every step.

Seats cycle 3..6, options vary with the seed (Slugs, Boosters, Blockers, affinity), about
two seats in three are the AI and the rest random. At every step:

- every card in play is accounted for exactly once: the 91 trash cards plus the game's
  Slugs, Boosters and Blockers, across hands, trash pile, discard pile, Rummy scoring areas
  and the Blockers set aside;
- no Blocker ever sits in a hand;
- no view shows a card of another seat's hand: the public view has no hand and none of its
  cards is in a hand; a seat's view is the public view plus its own hand;
- the state survives a JSON round trip exactly;
- the seat to act has a legal action and no other seat has one; actions (and, early in
  each game, their labels) fit in 80 characters;
- no game runs past a step cap (a stalled game fails).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Any

import pytest

from rules.base import rng_for
from rules.brawl.ai import random_choice
from rules.brawl.data import CARDS, TRASH_IDS
from rules.brawl.engine import BRAWL, KING, ROUND, RUMMY, TURN_LIMIT, State, to_act
from rules.brawl.observation import BrawlObservation

STEP_CAP = 20000
LABELLED_STEPS = 40  # steps of each game whose button labels are checked
# Games per mode: a sample in `make test`; `make bench` plays the 1,000 per mode
# (PLAYOUT_GAMES=1000), about 25 minutes on two cores.
GAMES = {ROUND: 10, KING: 20, RUMMY: 40}
if os.environ.get("PLAYOUT_GAMES"):
    GAMES = dict.fromkeys(GAMES, int(os.environ["PLAYOUT_GAMES"]))
VIEW_KEYS = BrawlObservation.__required_keys__


def check_state(state: State) -> None:
    everything = [
        *(c for hand in state.hands for c in hand),
        *state.trash,
        *state.discard,
        *state.aside,
        *(c for area in state.laid for c in area),
    ]
    assert sorted(everything) == sorted([*TRASH_IDS, *state.in_play])
    assert not any(CARDS[c].type == "blocker" for hand in state.hands for c in hand)
    assert all(CARDS[c].type == "blocker" for c in state.aside)
    outcome = BRAWL.outcome(state)
    assert (outcome is None) != state.finished


def check_views(state: State) -> list[dict[str, Any]]:
    public = BRAWL.observe(state, None)
    assert public.keys() == VIEW_KEYS and public["hand"] is None
    held = {c for hand in state.hands for c in hand}
    shown = {c["id"] for area in public["laid"] for c in area} | {c["id"] for c in public["aside"]}
    assert not shown & held
    # The winner's hand is laid face up once the game is over (the rulebook's winning sets),
    # never before.
    laid_down = [c["id"] for c in public["winning_hand"]]
    assert not laid_down or (state.finished and laid_down == list(state.hands[state.winners[0]]))
    views = []
    for seat in range(state.seats):
        view = BRAWL.observe(state, seat)
        assert [c["id"] for c in view["hand"]] == list(state.hands[seat])
        assert view == {**public, "seat": seat, "hand": view["hand"]}
        views.append(view)
    return views


def check_turn(state: State) -> list[str]:
    if state.finished:
        assert all(BRAWL.legal_actions(state, p) == [] for p in range(state.seats))
        return []
    seat = to_act(state)
    assert seat is not None and BRAWL.to_act(state) == {seat}
    legal = BRAWL.legal_actions(state, seat)
    assert legal and len(set(legal)) == len(legal)
    assert all(len(action) <= 80 for action in legal)
    if state.step < LABELLED_STEPS:
        assert all(0 < len(str(BRAWL.describe(state, action))) <= 80 for action in legal)
    assert BRAWL.legal_actions(state, (seat + 1) % state.seats) == []
    return legal


def play_game(mode: str, seed: int) -> State:
    seats = 3 + seed % 4
    options = {
        "mode": mode,
        "slugs": str(seed % 7),
        "boosters": str(seed % 8),
        "blockers": str((seed // 2) % 6),
        "affinity": "off" if seed % 5 == 0 else "on",
    }
    state = BRAWL.new_game(seats, options, seed)
    ai_seats = [(seed + p) % 3 != 0 for p in range(seats)]
    rng = rng_for(seed, "players")
    while True:
        check_state(state)
        assert BRAWL.from_json(json.loads(json.dumps(BRAWL.to_json(state)))) == state
        views = check_views(state)
        legal = check_turn(state)
        if state.finished:
            return state
        assert state.step < STEP_CAP, f"{mode} game {seed} stalled"
        seat = to_act(state)
        assert seat is not None
        if ai_seats[seat]:
            action = BRAWL.choose(views[seat], legal, rng)
        else:
            action = random_choice(legal, rng)
        assert action in legal
        applied = BRAWL.apply(state, seat, action)
        assert applied.events
        assert applied.state.step == state.step + 1
        state = applied.state


# A Round Rummage game takes about a second here: the 1,000 of `make bench` need more than
# the suite's five-minute limit per test.
MODES = [
    pytest.param(mode, marks=pytest.mark.timeout(max(300, 3 * GAMES[mode])))
    for mode in (ROUND, KING, RUMMY)
]


@pytest.mark.parametrize("mode", MODES)
def test_seeded_games_end_with_every_invariant_kept(mode: str) -> None:
    start = time.perf_counter()
    games = [play_game(mode, seed) for seed in range(GAMES[mode])]
    took = time.perf_counter() - start
    steps = [g.step for g in games]
    turns = [g.turns for g in games]
    draws = sum(g.turns >= TURN_LIMIT for g in games)
    print(
        f"\n{mode}: {len(games)} games in {took:.1f} s; turns median {statistics.median(turns)}, "
        f"longest {max(turns)}, shortest {min(turns)}; actions median {statistics.median(steps)}, "
        f"longest {max(steps)}; turn-limit draws {draws}"
    )
    assert all(g.finished for g in games)

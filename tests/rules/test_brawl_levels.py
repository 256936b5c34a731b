"""Dumpster Brawl!'s AI levels (issue 39): the worlds the hard level samples, and each
level's promises. Each test names the promise it checks: "(promise: ...)" for the issue's,
"(easy: ...)" or "(hard: ...)" for a level's character as its module documents it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import LEVELS, Level, rng_for
from rules.brawl import ai, easy
from rules.brawl.data import CARDS, COPIES, KINDS
from rules.brawl.engine import BRAWL, MODES, ROUND, RUMMY, State, to_act
from rules.brawl.sample import sample
from rules.brawl.state import winning_hand
from tests.rules.test_brawl import build

# A few positions of seeded normal play in each way to play, cached: every test reads them.
_POSITIONS: dict[tuple[str, int], list[State]] = {}


def positions(mode: str, seed: int, every: int = 9, most: int = 400) -> list[State]:
    """States of a seeded game between normal AIs, one every `every` actions."""
    if (mode, seed) not in _POSITIONS:
        state = BRAWL.new_game(3, {"mode": mode}, seed)
        found = []
        for step in range(most):
            seat = to_act(state)
            if seat is None:
                break
            if step % every == 0:
                found.append(state)
            legal = BRAWL.legal_actions(state, seat)
            action = BRAWL.choose(BRAWL.observe(state, seat), legal, rng_for(seed, step))
            state = BRAWL.apply(state, seat, action).state
        _POSITIONS[mode, seed] = found
    return _POSITIONS[mode, seed]


def honest(state: State) -> State:
    """A hand-built table (`build`) whose game holds only the specials it shows: `sample`
    counts every card of the game somewhere."""
    shown = {c for pile in (*state.hands, state.trash, state.discard) for c in pile}
    return replace(state, in_play=tuple(c for c in state.in_play if c in shown))


# --- sample -------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2),
    index=st.integers(0, 40),
    seat=st.integers(0, 2),
    draw=st.integers(0, 2**16),
)
def test_a_sampled_world_looks_the_same_from_the_seat(
    mode: str, seed: int, index: int, seat: int, draw: int
) -> None:
    """(promise: the hard AI samples worlds consistent with its observation) Whatever was
    played, the seat sees in a sampled world exactly what it sees in the real one, and may
    do exactly the same there."""
    found = positions(mode, seed)
    state = found[index % len(found)]
    obs = BRAWL.observe(state, seat)
    world = sample(obs, random.Random(draw))
    assert BRAWL.observe(world, seat) == obs
    assert BRAWL.legal_actions(world, seat) == BRAWL.legal_actions(state, seat)


@pytest.mark.parametrize("mode", MODES)
def test_a_sampled_world_redraws_every_hidden_card(mode: str) -> None:
    """(promise: never one fixed world) The other hands, the discard pile and the trash
    pile's order, and the dice's seed, differ from one sample to the next; the seat's own
    hand never does."""
    state = positions(mode, 0)[12]
    obs = BRAWL.observe(state, 0)
    worlds = [sample(obs, random.Random(n)) for n in range(6)]
    assert len({w.hands[1:] for w in worlds}) == len(worlds)
    assert len({w.trash for w in worlds}) == len(worlds)
    assert len({w.seed for w in worlds}) == len(worlds)
    assert all(w.hands[0] == state.hands[0] for w in worlds)


def test_unseen_blockers_stay_in_the_trash_pile() -> None:
    """(rulebook: a Blocker is resolved and set aside as it is drawn) No sampled world puts
    a Blocker into a hand or onto the discard pile."""
    for state in positions(ROUND, 1):
        world = sample(BRAWL.observe(state, 1), random.Random(state.step))
        held = [c for pile in (*world.hands, world.discard) for c in pile]
        assert all(CARDS[c].type != "blocker" for c in held)


def test_no_sampled_world_hands_a_rival_a_winning_hand() -> None:
    """(rulebook: victory on the spot) A rival holding three sets would have won already,
    so no sampled world deals one. Here the seat holds every other trash card, so only ten
    are unseen and nine of them make three sets: one deal in ten would hand those nine to
    the rival of nine cards."""
    rivals = {1: ["soda"] * 3 + ["apple"] * 3 + ["fish"] * 2 + ["pizza"], 2: ["fish"]}
    unseen = Counter(key for hand in rivals.values() for key in hand)
    mine = [kind.key for kind in KINDS for _ in range(COPIES - unseen[kind.key])]
    state = honest(build({0: mine, **rivals}, affinity=False, empty_trash=True))
    obs = BRAWL.observe(state, 0)
    for n in range(40):
        world = sample(obs, random.Random(n))
        assert not any(winning_hand(world, p) for p in (1, 2))


# --- every level ----------------------------------------------------------------------------------


def _decisions(mode: str) -> list[tuple[State, int, list[str]]]:
    """A handful of real choices (more than one legal action) from seeded play."""
    found = []
    for state in positions(mode, 1, every=7):
        seat = to_act(state)
        assert seat is not None
        legal = BRAWL.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((state, seat, legal))
    return found[::6][:2]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_seeded_and_legal(mode: str, level: str) -> None:
    """(promise: the same seed and level give the same game; an AI only plays legal moves)
    The same observation and the same seed give the same choice, and it is legal."""
    for state, seat, legal in _decisions(mode):
        obs = BRAWL.observe(state, seat)
        first = BRAWL.choose(obs, legal, random.Random(7), level)  # type: ignore[arg-type]
        again = BRAWL.choose(obs, legal, random.Random(7), level)  # type: ignore[arg-type]
        assert first == again and first in legal


# --- hard -----------------------------------------------------------------------------------------

SETS = ["soda"] * 3 + ["apple"] * 3 + ["fish"] * 3


def test_hard_takes_the_discard_that_wins() -> None:
    """(hard: takes an immediate win) Three sets and a Slug, one discard left in the
    rummage: hard throws the Slug away and wins at once, rather than drawing first."""
    state = honest(
        build(
            {0: [*SETS, "slug"], 1: ["pizza", "milk"], 2: ["tin", "egg"]},
            affinity=False,
            phase="rummage",
            actor=0,
            defender=1,
            draws=1,
            discards=1,
        )
    )
    legal = BRAWL.legal_actions(state, 0)
    assert "draw trash" in legal and "discard slug" in legal
    choice = BRAWL.choose(BRAWL.observe(state, 0), legal, random.Random(3), "hard")
    assert choice == "discard slug"


def test_hard_goes_out_in_rummy_when_it_leads() -> None:
    """(hard: takes an immediate win) In Rummy, ahead on points with a hand that can all be
    laid down, hard goes out and ends the game as its winner."""
    state = honest(
        build(
            {0: ["soda"] * 3, 1: ["pizza", "milk", "tin"], 2: ["egg", "bear", "news"]},
            mode=RUMMY,
            laid={0: ["apple"] * 4, 1: ["fish"] * 3, 2: []},
            phase="pre",
            draws=2,
        )
    )
    legal = BRAWL.legal_actions(state, 0)
    assert "go out" in legal
    assert BRAWL.choose(BRAWL.observe(state, 0), legal, random.Random(3), "hard") == "go out"


# --- easy -----------------------------------------------------------------------------------------


def test_easy_hoards_its_turn_boosters() -> None:
    """(easy: saves its Boosters for a better moment) Where the normal AI dives into the
    dumpster and sweeps its junk away, the beginner plays neither and keeps both."""
    state = honest(
        build({0: ["dive", "sweep", "slug", "pizza"], 1: ["fish"], 2: ["milk"]}, phase="attack")
    )
    obs = BRAWL.observe(state, 0)
    legal = BRAWL.legal_actions(state, 0)
    assert ai.choose(obs, legal, random.Random(1)) == "play dive"
    choice = easy.choose_easy(obs, legal, random.Random(1))
    assert choice.startswith("attack")


def normal_and_easy(state: State) -> tuple[str, str]:
    """What the normal AI and the beginner each choose for seat 0 (the same seed)."""
    obs, legal = BRAWL.observe(state, 0), BRAWL.legal_actions(state, 0)
    return ai.choose(obs, legal, random.Random(1)), easy.choose_easy(obs, legal, random.Random(1))


def test_easy_never_throws_a_booster_away() -> None:
    """(easy: forgets that a Booster blocks a winning hand) With a discard to make and two
    pairs, the normal AI throws away its Sneak Peek; the beginner breaks a pair instead."""
    state = honest(
        build(
            {0: ["peek", "pizza", "pizza", "milk", "milk"], 1: ["fish"], 2: ["tin"]},
            phase="pre",
            discards=1,
        )
    )
    assert normal_and_easy(state) == ("discard peek", "discard milk")


def test_easy_attacks_the_biggest_hand_not_the_nearest_win() -> None:
    """(easy: attacks the richest pickings) The normal AI attacks the hand nearest to a
    winning nine cards; the beginner attacks the biggest."""
    state = honest(
        build(
            {
                0: ["pizza"] * 2,
                1: ["fish"] * 5 + ["tin"] * 4,
                2: ["milk"] * 4 + ["egg"] * 4 + ["news"] * 4,
            },
            phase="attack",
        )
    )
    assert normal_and_easy(state) == ("attack p1", "attack p2")


def test_easy_lays_down_only_by_going_out() -> None:
    """(easy: keeps its sets in hand in Rummy) With a set of three it may lay down, the
    normal AI lays it; the beginner says done and keeps it."""
    state = honest(
        build(
            {0: ["soda"] * 3 + ["pizza"], 1: ["fish"], 2: ["milk"]},
            mode=RUMMY,
            phase="lay",
            layers=(0, 1),
            defender=1,
        )
    )
    assert normal_and_easy(state) == ("lay soda 3", "done")


def test_hard_as_a_fights_winner_robs_the_leader() -> None:
    """(hard: what its search finds) Having beaten a rival one card short of three sets,
    the normal AI hands them its Slug; hard takes a card from them instead, breaking into
    their sets."""
    state = honest(
        build(
            {
                0: ["slug", "pizza", "pizza", "milk", "tin"],
                1: ["soda"] * 3 + ["apple"] * 3 + ["fish"] * 2,
                2: ["egg", "news", "bear", "bear"],
            },
            affinity=False,
            phase="spoils",
            actor=0,
            defender=1,
            spoils=1,
        )
    )
    obs = BRAWL.observe(state, 0)
    legal = BRAWL.legal_actions(state, 0)
    assert ai.choose(obs, legal, random.Random(1)) == "give slug"
    assert BRAWL.choose(obs, legal, random.Random(1), "hard") == "take"


def test_hard_never_gives_up_a_rummages_draws() -> None:
    """(hard: a rummage's draws are always taken) With draws left, hard neither stops nor
    starts discarding (which ends the draws), whatever its search would make of it."""
    state = honest(
        build(
            {0: ["slug", "news", "sneaker", "takeout"], 1: ["fish"], 2: ["milk"]},
            phase="rummage",
            actor=0,
            defender=1,
            draws=2,
            discards=3,
        )
    )
    legal = BRAWL.legal_actions(state, 0)
    assert "done" in legal and "discard slug" in legal
    for seed in range(3):
        choice = BRAWL.choose(BRAWL.observe(state, 0), legal, random.Random(seed), "hard")
        assert choice == "draw trash"


def test_a_turn_of_dives_and_sweeps_on_empty_piles_ends() -> None:
    """A Dumpster Dive into piles holding fewer cards than it draws brings back the
    Boosters just played: the AI that dove whenever it could played Dive and Clean Sweep
    in turn forever (seed 1221, an easy seat and two normal ones, Rummy). Every level
    builds on the normal AI's choices, so the game must now end."""
    seed = 1221
    levels: list[Level] = ["normal", "normal", "normal"]
    levels[seed % 3] = "easy"
    state = BRAWL.new_game(3, {"mode": RUMMY}, seed)
    for _ in range(5_000):
        if BRAWL.outcome(state) is not None:
            return
        seat = min(BRAWL.to_act(state))
        legal = BRAWL.legal_actions(state, seat)
        rng = rng_for(seed, "ai", BRAWL.step(state), seat)
        action = BRAWL.choose(BRAWL.observe(state, seat), legal, rng, levels[seat])
        state = BRAWL.apply(state, seat, action).state
    raise AssertionError("the game never ended")

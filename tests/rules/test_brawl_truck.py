"""Dumpster Brawl!: the Garbage Truck in Rummy (issue 36).

Same conventions as `test_brawl.py` (whose hand-made tables these tests use): each test
names the rule it checks, "(rulebook: ...)", "(house rule: ...)" or "(table rule: ...)".
"""

from __future__ import annotations

import pytest

from rules.brawl.data import CARDS
from rules.brawl.engine import BRAWL, KING, ROUND, RUMMY, State, legal_moves, rummy_points, to_act
from tests.rules.test_brawl import build, keys, play

HANDS = {0: ["pizza", "bear"], 1: ["fish"], 2: ["milk", "milk"]}


def _table(mode: str) -> State:
    """Seat 0 is about to draw the Garbage Truck before its attack: from the trash pile in
    Round Rummage and Rummy, with Dumpster Dive in King of the Heap (no declaration there;
    the Dive's second card waits for the Truck). Seat 1 holds one fish and, in Rummy, has a
    set down: throwing the fish away would empty its hand."""
    if mode == KING:
        return build(
            {**HANDS, 0: ["dive", *HANDS[0]]},
            mode=mode,
            trash_top=["truck", "egg"],
            phase="attack",
            king=1,
        )
    return build(
        HANDS,
        mode=mode,
        trash_top=["truck"],
        discard=["egg"],
        laid={1: ["tin"] * 3} if mode == RUMMY else None,
        phase="pre",
        draws=2,
    )


def _truck_drawn(mode: str) -> State:
    return play(_table(mode), "play dive" if mode == KING else "draw trash")


def test_truck_in_rummy_makes_nobody_discard() -> None:
    """(table rule: the Garbage Truck in Rummy; rulebook: Rummy has no discard) The Truck
    is set aside like any Blocker and uses up the draw, but nobody discards: every hand
    stays as it was and the drawer's turn goes on."""
    before = build(HANDS, mode=RUMMY)
    state = _truck_drawn(RUMMY)
    assert [CARDS[c].key for c in state.aside] == ["truck"]
    assert state.truck == () and state.hands == before.hands
    assert [CARDS[c].key for c in state.discard] == ["egg"]
    assert state.phase == "pre" and state.draws == 1 and to_act(state) == 0
    assert not any(a.startswith("discard") for a in legal_moves(state, 0))
    said = [str(e.text) for e in BRAWL.apply(_table(RUMMY), 0, "draw trash").events]
    assert "There is no discard in Rummy: the Garbage Truck drives past." in said


def test_truck_in_rummy_is_no_way_to_go_out() -> None:
    """(table rule: the Garbage Truck in Rummy) Seat 1 holds one card and has a set down:
    it is not asked to discard it, so it cannot go out on seat 0's Truck (which would have
    won it 3 points for the set and 2 for going out)."""
    state = _truck_drawn(RUMMY)
    assert state.truck == () and to_act(state) == 0  # nobody waits to discard
    for seat in range(state.seats):
        assert not [a for a in legal_moves(state, seat) if a.startswith("discard")]
    assert keys(state, 1) == ["fish"] and not state.finished and state.went_out == -1
    assert rummy_points(state) == [0, 3, 0]


def test_dive_in_rummy_draws_on_past_the_truck() -> None:
    """(table rule: the Garbage Truck in Rummy; rulebook: a Blocker is resolved as it is
    drawn) With no discards to wait for, Dumpster Dive's second card follows at once."""
    state = build(
        {0: ["dive", "pizza"], 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        trash_top=["truck", "egg"],
        phase="pre",
        draws=2,
    )
    state = play(state, "play dive")
    assert keys(state, 0) == ["egg", "pizza"] and keys(state, 1) == ["fish"]
    assert state.truck == () and state.dive == 0 and to_act(state) == 0


@pytest.mark.parametrize("mode", [ROUND, KING])
def test_truck_outside_rummy_still_makes_everyone_discard(mode: str) -> None:
    """(house rule: Garbage Truck; table rule: clockwise from the drawer) Outside Rummy
    every player with cards still throws one of their choice onto the discard pile."""
    state = _truck_drawn(mode)
    assert state.truck == (0, 1, 2) and to_act(state) == 0
    assert legal_moves(state, 0) == ["discard bear", "discard pizza"]
    state = play(state, "discard bear", "discard fish", "discard milk")
    assert state.truck == () and keys(state, 1) == [] and keys(state, 2) == ["milk"]
    assert keys(state, 0) == (["egg", "pizza"] if mode == KING else ["pizza"])
    assert not state.finished and to_act(state) == 0  # the interrupted turn goes on

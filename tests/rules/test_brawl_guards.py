"""Dumpster Brawl!: guards for seven rules an audit broke without any test noticing (issue 36).

Same conventions as `test_brawl.py` (whose hand-made tables these tests use): each test
names the rule it checks, "(rulebook: ...)", "(house rule: ...)" or "(table rule: ...)".
Each test was seen to fail with the engine broken in the way its rule names.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.base import IllegalAction
from rules.brawl.data import CARDS, CHARACTER_INDEX
from rules.brawl.engine import (
    BRAWL,
    RUMMY,
    crowbars,
    legal_moves,
    to_act,
    winning_hand,
)
from tests.rules.test_brawl import _fight, build, keys, play

ISCRATCHU = CHARACTER_INDEX["iscratchu"]

# --- 1. a win needs three sets -----------------------------------------------------------------


def test_two_sets_of_three_alone_do_not_win() -> None:
    """(rulebook: winning) A winning hand is at least three sets and nothing else: two sets,
    however large, are one set short. Drawing into two triples ends nothing; a third set
    does."""
    two = build({0: ["soda"] * 3 + ["apple"] * 3}, affinity=False)
    assert not winning_hand(two, 0)
    bigger = build({0: ["soda"] * 4 + ["apple"] * 5}, affinity=False)
    assert not winning_hand(bigger, 0)
    # Two triples and an affinity pair are three sets (Iscratchu likes Take Out) ...
    cat = build(
        {0: ["soda"] * 3 + ["apple"] * 3 + ["takeout"] * 2},
        characters=(ISCRATCHU, 1, 2),
    )
    assert winning_hand(cat, 0)
    # ... but a triple and an affinity pair are only two.
    short = build({0: ["soda"] * 3 + ["takeout"] * 2}, characters=(ISCRATCHU, 1, 2))
    assert not winning_hand(short, 0)

    state = build(
        {0: ["soda"] * 3 + ["apple"] * 2, 1: ["fish"], 2: ["milk"]},
        affinity=False,
        trash_top=["apple", "pizza", "pizza", "pizza"],
        phase="rummage",
        actor=0,
        draws=4,
        defender=1,
    )
    state = play(state, "draw trash")
    assert keys(state, 0) == ["apple"] * 3 + ["soda"] * 3
    assert not state.finished and state.phase == "rummage"
    state = play(state, "draw trash", "draw trash")
    assert not state.finished
    state = play(state, "draw trash")  # the third Pizza Box: three sets
    assert state.finished and state.winners == (0,)


# --- 2. Sturdy Lid ----------------------------------------------------------------------------


def test_a_sturdy_lid_played_in_defence_counts_as_a_lid() -> None:
    """(house rule: Sturdy Lid, count one extra lid when you defend) The Booster played in
    "defend" adds one lid to the green dice's lids in the fight's reckoning, so four
    crowbars against three rolled lids and the Sturdy Lid is a tie, which the defender
    wins."""
    state = build({0: ["pizza"], 1: ["lid", "fish"], 2: ["milk"]}, phase="attack")
    state = play(state, "attack p1", "defend lid")
    assert state.lids == 1 and keys(state, 1) == ["fish"]
    assert CARDS[state.discard[-1]].key == "lid"
    rolled_lids = len(state.dice[1]) - crowbars(state.dice[1])
    state = play(state, "keep", "keep")
    verdict = state.verdicts[-1]
    assert verdict.defender == 1 and verdict.lids == rolled_lids + 1

    tie = play(_fight(4, 3, lids=1), "keep", "keep")
    assert tie.verdicts[-1].lids == 4 and tie.verdicts[-1].winner == 1
    assert tie.phase == "spoils" and tie.actor == 1 and tie.spoils == 2
    without = play(_fight(4, 3), "keep", "keep")  # the same dice with no Sturdy Lid
    assert without.verdicts[-1].winner == 0 and without.actor == 0


# --- 3. Stink Cloud and a stolen last card in Rummy ---------------------------------------------


def test_a_stinking_rummy_player_robbed_of_the_last_card_does_not_go_out() -> None:
    """(rulebook: Rummy, a player whose last card is stolen goes out if a set is down; house
    rule: Stink Cloud, you cannot win until your next turn ends; table rule: in Rummy the
    cloud forbids going out) The cloud holds even when the hand is emptied by someone
    else: no one goes out, the game goes on, and the thief rummages as usual."""
    state = build(
        {0: ["pizza"], 1: ["milk"], 2: ["egg"]},
        mode=RUMMY,
        laid={1: ["fish"] * 3},
        stink=(0, 1, 0),
        phase="spoils",
        actor=0,
        spoils=1,
        defender=1,
    )
    state = play(state, "take")
    assert state.hands[1] == () and keys(state, 0) == ["milk", "pizza"]
    assert not state.finished and state.went_out == -1 and state.winners == ()
    assert state.phase == "rummage" and to_act(state) == 0


# --- 4. the first Rummy lay-down ----------------------------------------------------------------


def test_a_pair_is_no_first_rummy_lay_down() -> None:
    """(rulebook: Rummy, a player's opening lay-down is three or more of one kind) A pair
    may not open a player's scoring area, not even of a kind another player has a set
    of, and a hand of pairs cannot go out; three of the kind may open it."""
    state = build(
        {0: ["pizza"] * 2 + ["bear"] * 2 + ["egg"] * 3, 1: ["milk"], 2: ["fish"]},
        mode=RUMMY,
        laid={1: ["pizza"] * 3},
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    legal = legal_moves(state, 0)
    assert "lay pizza 2" not in legal and "lay bear 2" not in legal
    assert not any(a.startswith(("lay pizza", "lay bear")) for a in legal)
    with pytest.raises(IllegalAction):
        BRAWL.apply(state, 0, "lay pizza 2")
    assert "lay egg 3" in legal
    opened = play(state, "lay egg 3")
    assert "lay pizza 2" in legal_moves(opened, 0)  # once a set is down, pizza joins seat 1's

    pairs = build(
        {0: ["pizza"] * 2 + ["bear"] * 2, 1: ["milk"], 2: ["fish"]},
        mode=RUMMY,
        laid={1: ["pizza"] * 3, 2: ["bear"] * 3},
        phase="pre",
        draws=2,
    )
    assert "go out" not in legal_moves(pairs, 0)


# --- 5. rummage: draws, then discards -----------------------------------------------------------


def test_a_rummage_discard_ends_the_rummage_draws() -> None:
    """(rulebook: rummage, draw up to the pluses, then discard up to the minuses) The draws
    come before the discards: once the roller has discarded, no draw is offered any more,
    even with pluses unused, and the discards left may still be made."""
    state = build(
        {0: ["pizza", "bear", "slug"], 1: ["fish"], 2: ["milk"]},
        phase="rummage",
        actor=0,
        draws=3,
        discards=3,
        defender=1,
    )
    state = play(state, "draw trash")
    legal = legal_moves(state, 0)
    assert "draw trash" in legal and "discard slug" in legal
    state = play(state, "discard slug")
    legal = legal_moves(state, 0)
    assert state.draws == 0 and state.discards == 2
    assert not any(a.startswith("draw") for a in legal)
    assert "discard pizza" in legal and "done" in legal
    with pytest.raises(IllegalAction):
        BRAWL.apply(state, 0, "draw trash")


# --- 6. "both": one draw and one discard ---------------------------------------------------------


@pytest.mark.parametrize("first", ["draw trash", "discard bear"])
def test_declaring_both_gives_one_draw_and_one_discard(first: str) -> None:
    """(rulebook: before the attack, one card drawn and one discarded when declared) "both"
    gives exactly one draw and one discard, in either order: after the one draw no second
    draw is offered, and once both are made the attack is all that is left."""
    state = build({0: ["pizza", "bear"], 1: ["fish"], 2: ["milk"]}, trash_top=["egg", "egg"])
    state = play(state, "declare both")
    assert (state.phase, state.draws, state.discards) == ("pre", 1, 1)
    state = play(state, first)
    legal = legal_moves(state, 0)
    if first.startswith("draw"):
        assert not any(a.startswith("draw") for a in legal)
        assert "discard bear" in legal
        state = play(state, "discard bear")
    else:
        assert not any(a.startswith("discard") for a in legal)
        assert "draw trash" in legal
        state = play(state, "draw trash")
    assert keys(state, 0) == ["egg", "pizza"]
    assert state.phase == "attack" and state.draws == 0 and state.discards == 0
    assert not any(a.startswith(("draw", "discard")) for a in legal_moves(state, 0))


# --- 7. Spilled Bag shuffles --------------------------------------------------------------------

SPILLED = ["pizza", "apple", "soda", "takeout", "bear", "fish", "banana", "milk", "tin", "egg"]


@pytest.mark.parametrize("seed", [5, 17, 2024])
def test_spilled_bag_shuffles_the_discard_pile_into_the_trash_pile(seed: int) -> None:
    """(house rule: Spilled Bag, the discard pile is shuffled into the trash pile) The
    discard pile's cards all go to the trash pile and none is lost, but not in the order
    they lay in: ten cards kept in their old order would mean no shuffle was made (a
    shuffle keeps them so one time in 3,628,800; the seeds here are fixed, so the test
    always gives the same answer)."""
    state = build(
        {0: ["coffee"], 1: ["news"], 2: ["sneaker"]},
        trash_top=["spill"],
        discard=SPILLED,
        phase="pre",
        draws=2,
        seed=seed,
    )
    old_discard = state.discard
    old_trash = state.trash[:-1]  # the Spilled Bag itself is drawn and set aside
    state = play(state, "draw trash")
    assert CARDS[state.aside[-1]].key == "spill" and state.discard == ()
    assert Counter(state.trash) == Counter(old_trash + old_discard)
    spilled = tuple(c for c in state.trash if c in set(old_discard))
    assert sorted(spilled) == sorted(old_discard)
    assert spilled != old_discard
    assert state.trash != old_discard + old_trash and state.trash != old_trash + old_discard

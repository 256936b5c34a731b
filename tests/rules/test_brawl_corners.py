"""Dumpster Brawl!: the corners of issue 11 and the rule breaks no test caught before.

Same conventions as `test_brawl.py` (whose hand-made tables these tests use): each test
names the rule it checks, "(rulebook: ...)", "(house rule: ...)" or "(table rule: ...)".
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules.brawl import ai
from rules.brawl.data import BOOSTERS, CARDS, KINDS
from rules.brawl.engine import (
    BRAWL,
    KING,
    ROLL_PURPOSES,
    RUMMY,
    State,
    legal_moves,
    pluses,
    to_act,
)
from tests.rules.test_brawl import _fight, build, keys, play

# --- a Blocker drawn by Dumpster Dive -----------------------------------------------------------


def test_dive_resolves_a_garbage_truck_before_its_second_draw() -> None:
    """(rulebook: draw one card at a time; a Blocker is resolved as it is drawn, before any
    more cards are drawn) Dumpster Dive draws the Garbage Truck; every discard is made
    before the Dive's second card, the egg carton, is drawn."""
    state = build(
        {0: ["dive", "pizza"], 1: ["fish"], 2: ["milk"]}, trash_top=["truck", "egg"], discard=[]
    )
    state = play(state, "play dive")
    assert keys(state, 0) == ["pizza"] and state.truck == (0, 1, 2) and state.dive == 1
    state = play(state, "discard pizza", "discard fish")
    assert keys(state, 0) == [] and state.dive == 1  # still waiting for seat 2
    state = play(state, "discard milk")
    assert keys(state, 0) == ["egg"] and state.dive == 0 and state.truck == ()
    assert state.phase == "declare" and to_act(state) == 0  # the interrupted turn goes on


# --- Clean Sweep ---------------------------------------------------------------------------------


def test_clean_sweep_may_discard_nothing() -> None:
    """(house rule: Clean Sweep discards up to two cards) Up to two includes none: the
    Booster alone goes to the discard pile."""
    state = build({0: ["sweep", "pizza"], 1: ["fish"], 2: ["milk"]})
    state = play(state, "play sweep alone")
    assert keys(state, 0) == ["pizza"] and [CARDS[c].key for c in state.discard] == ["sweep"]


def test_clean_sweep_in_rummy_sweeps_only_itself() -> None:
    """(table rule: Clean Sweep in Rummy; rulebook: Rummy has no discard) Clean Sweep is
    played alone, so it is no dead card: it leaves the hand and its holder can go out."""
    state = build({0: ["sweep", "pizza", "pizza", "pizza"], 1: ["fish"], 2: ["milk"]}, mode=RUMMY)
    state = replace(state, phase="pre", draws=2)
    sweeps = [a for a in legal_moves(state, 0) if a.startswith("play sweep")]
    assert sweeps == ["play sweep alone"]
    assert "go out" not in legal_moves(state, 0)  # the Booster cannot be laid down
    state = play(state, "play sweep alone")
    assert keys(state, 0) == ["pizza"] * 3
    state = play(state, "go out")
    assert state.finished and state.went_out == 0


# --- going out under Stink Cloud -----------------------------------------------------------------


def test_no_going_out_under_stink_cloud() -> None:
    """(house rule: Stink Cloud, you cannot win until your next turn ends; table rule: in
    Rummy that means you may not go out) "go out" is not offered, and no lay-down may
    empty the hand; laying down while keeping a card is still allowed."""
    state = build(
        {0: ["pizza"] * 3, 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="pre",
        draws=2,
        stink=(1, 0, 0),
    )
    assert "go out" not in legal_moves(state, 0)
    lay = build(
        {0: ["pizza"] * 3, 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
        stink=(1, 0, 0),
    )
    assert "go out" not in legal_moves(lay, 0) and "lay pizza 3" not in legal_moves(lay, 0)
    kept = build(
        {0: ["pizza"] * 3 + ["fish"], 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
        stink=(1, 0, 0),
    )
    kept = play(kept, "lay pizza 3")
    assert keys(kept, 0) == ["fish"] and not kept.finished


def test_going_out_ends_the_game() -> None:
    """(rulebook: Rummy, the first player with no cards and a set down ends the game) Once
    the cloud is gone, the same hand goes out and the game is over at once."""
    state = build({0: ["pizza"] * 3, 1: ["fish"], 2: ["milk"]}, mode=RUMMY, phase="pre", draws=2)
    state = play(state, "go out")
    assert state.finished and state.went_out == 0 and to_act(state) is None


# --- Second Wind after any roll of one's own -----------------------------------------------------


def _rummaging() -> State:
    """Seat 0 (holding Second Wind) has just won a fight and made its rummage roll."""
    state = _fight(5, 0)
    state = replace(state, hands=(state.hands[0] + (_card("wind"),), *state.hands[1:]))
    state = play(state, "keep", "keep")
    if state.phase == "spoils":
        state = play(state, "done")
    assert state.phase == "rummage" and state.actor == 0
    return state


def _card(key: str) -> int:
    return next(c.id for c in CARDS if c.key == key)


def test_second_wind_rerolls_a_rummage_roll() -> None:
    """(house rule: Second Wind is played right after you roll) Right after the rummage
    roll the roller may reroll all six dice; the new roll sets the draws and discards."""
    state = _rummaging()
    assert "reroll" in legal_moves(state, 0)
    state = play(state, "reroll")
    step, seat, colour, purpose, *dice = state.roll_log[-1]
    assert (seat, colour, ROLL_PURPOSES[purpose]) == (0, 0, "rummage") and step == state.step
    assert state.roll_log[-2][:2] == (step - 1, 0)  # the roll it replaced
    assert state.draws == pluses(dice) and state.discards == 6 - pluses(dice)
    assert _card("wind") in state.discard and "reroll" not in legal_moves(state, 0)


def test_second_wind_only_right_after_the_rummage_roll() -> None:
    """(house rule: right after you roll) Once a card of the rummage has been drawn or
    discarded, the roll can no longer be rerolled."""
    state = _rummaging()
    assert state.discards > 1 and "reroll" in legal_moves(state, 0)
    used = play(state, "discard pizza")
    assert used.phase == "rummage" and "reroll" not in legal_moves(used, 0)


def test_second_wind_rerolls_the_kings_green_rummage() -> None:
    """(house rule: Second Wind; rulebook: a King who holds rummages with green dice) A King
    rerolls in the colour of the roll."""
    state = _fight(0, 5, mode=KING, king=1, turn=0)
    state = replace(state, hands=(state.hands[0], state.hands[1] + (_card("wind"),), ()))
    state = play(state, "keep", "keep")
    assert state.phase == "rummage" and state.actor == 1 and "reroll" in legal_moves(state, 1)
    state = play(state, "reroll")
    assert state.roll_log[-1][1:3] == (1, 1)  # seat 1, green


# --- the Booster timing table --------------------------------------------------------------------

# Written from the house rules' "when" column, independently of `data.BOOSTERS`: the phases
# in which the seat deciding may play each Booster. "Your turn" is every phase in which the
# turn's attacker decides (the defence is the defender's decision).
YOUR_TURN = {"declare", "pre", "attack", "wind", "spoils", "rummage", "lay"}
TIMING = {
    "elbow": {"pre", "attack", "defend"},  # with the attack or into the defence
    "wind": {"wind", "rummage"},  # right after a fight roll or a rummage roll
    "lid": {"defend"},
    "dive": {"declare", "pre", "attack"},  # your turn, before attacking
    "peek": YOUR_TURN,
    "swap": YOUR_TURN,
    "sweep": YOUR_TURN,
}
EVERY_BOOSTER = [b.key for b in BOOSTERS]


def _table_in(phase: str) -> tuple[State, int]:
    """A table in `phase` whose deciding seat holds every Booster and a Pizza Box."""
    hand = [*EVERY_BOOSTER, "pizza"]
    fights = {"defender": 1, "dice": ((1,) * 6, (1,) * 5)}
    tables = {
        "declare": build({0: hand, 1: ["fish"], 2: ["milk"]}),
        "pre": build({0: hand, 1: ["fish"], 2: ["milk"]}, phase="pre", draws=1),
        "attack": build({0: hand, 1: ["fish"], 2: ["milk"]}, phase="attack"),
        "defend": build({0: ["fish"], 1: hand, 2: ["milk"]}, phase="defend", defender=1),
        "wind": build({0: hand, 1: ["fish"], 2: ["milk"]}, phase="wind", winds=(0, 1), **fights),
        "spoils": build(
            {0: hand, 1: ["fish"], 2: ["milk"]}, phase="spoils", actor=0, spoils=1, **fights
        ),
        "rummage": build(
            {0: hand, 1: ["fish"], 2: ["milk"]},
            phase="rummage",
            actor=0,
            draws=3,
            discards=3,
            roll_log=((0, 0, 0, ROLL_PURPOSES.index("rummage"), 1, 1, 1, 2, 2, 2),),
        ),
        "lay": build(
            {0: hand, 1: ["fish"], 2: ["milk"]},
            mode=RUMMY,
            phase="lay",
            layers=(0, 1),
            defender=1,
        ),
    }
    state = tables[phase]
    seat = to_act(state)
    assert seat is not None
    return state, seat


def _offered(action: str) -> set[str]:
    """The Boosters an action plays."""
    words = action.split()
    if words[0] == "play":
        return {words[1]}
    if words[0] == "reroll":
        return {"wind"}
    if words[0] in ("attack", "defend"):
        return {w for w in words[1:] if w in ("elbow", "lid")}
    return set()


@pytest.mark.parametrize("booster", EVERY_BOOSTER)
def test_each_booster_is_offered_exactly_in_its_phases(booster: str) -> None:
    """(house rule: the Boosters' "when" column; table rule: the timing table in
    docs/rules) A holder may play the Booster in the phases of its timing and no other."""
    phases = ["declare", "pre", "attack", "defend", "wind", "spoils", "rummage", "lay"]
    offered = set()
    for phase in phases:
        state, seat = _table_in(phase)
        if any(booster in _offered(a) for a in BRAWL.legal_actions(state, seat)):
            offered.add(phase)
    assert offered == TIMING[booster]


def test_turn_boosters_are_the_attackers_alone() -> None:
    """(house rule: Dive, Peek, Swap and Sweep are played on your turn) A defender deciding
    the spoils or laying down, and a King rummaging after holding the heap, play none."""
    hand = [*EVERY_BOOSTER, "pizza"]
    spoils = build({0: ["fish"], 1: hand, 2: ["milk"]}, phase="spoils", actor=1, defender=1)
    lay = build(
        {0: ["fish"], 1: hand, 2: ["milk"]}, mode=RUMMY, phase="lay", layers=(1,), defender=1
    )
    king = build(
        {0: ["fish"], 1: hand, 2: ["milk"]},
        mode=KING,
        king=1,
        turn=0,
        defender=1,
        phase="rummage",
        actor=1,
        draws=2,
    )
    for state in (spoils, lay, king):
        assert to_act(state) == 1
        assert not any(a.startswith("play") for a in legal_moves(state, 1)), state.phase


def test_the_timing_table_is_the_engines() -> None:
    """(contract) The engine's table in data.BOOSTERS is the one the rules notes state."""
    assert {b.key: set(b.phases) for b in BOOSTERS} == TIMING


# --- rule breaks that passed every test before ---------------------------------------------------


def test_rummy_rummage_minuses_are_no_discards() -> None:
    """(rulebook: Rummy, there is no discard and the rolled minuses have no use) A Rummy
    rummage roll with minuses offers draws only."""
    state = _fight(5, 0, mode=RUMMY)
    state = play(state, "keep", "keep", "done")
    assert state.phase == "rummage"
    assert pluses(state.rummage) < len(state.rummage)  # the roll shows minuses
    assert state.discards == 0
    assert not any(a.startswith("discard") for a in legal_moves(state, 0))


def test_rummy_later_turns_offer_no_discard() -> None:
    """(rulebook: Rummy, the attacker may only draw before attacking) Not on the first turn
    nor on any later one: the next player after a full turn draws, never discards."""
    state = build(
        {0: ["pizza"], 1: ["milk", "egg"], 2: ["egg"]},
        mode=RUMMY,
        phase="lay",
        layers=(0,),
        defender=1,
        turns=5,
    )
    state = play(state, "done")
    assert state.turn == 1 and state.phase == "pre" and state.discards == 0
    assert not any(a.startswith("discard") for a in legal_moves(state, 1))
    state = play(state, "draw trash")
    assert not any(a.startswith("discard") for a in legal_moves(state, 1))


def test_the_empty_trash_pile_is_refilled_shuffled() -> None:
    """(rulebook: when the trash pile is empty, shuffle the discard pile and make it the
    trash pile) The new pile holds the same cards, but not in the discard pile's order."""
    every_kind = [kind.key for kind in KINDS]
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        discard=every_kind,
        empty_trash=True,
        phase="pre",
        draws=2,
    )
    after = play(state, "draw trash")
    drawn = next(c for c in after.hands[0] if c not in state.hands[0])
    refilled = (*after.trash, drawn)  # the new pile as it stood, top card last
    assert sorted(refilled) == sorted(state.discard)
    assert refilled != state.discard


def test_a_losing_attacker_is_not_crowned() -> None:
    """(rulebook: King of the Heap, a King who holds keeps the crown) After the King beats
    an attack and rummages, the King is the same and the next attacker comes on."""
    state = _fight(3, 3, mode=KING, king=1, turn=0)
    state = play(state, "keep", "keep")
    assert state.king == 1 and state.phase == "rummage" and state.actor == 1
    state = play(state, "done")
    assert state.king == 1 and state.turn == 2 and state.phase == "attack"


def test_ai_rerolls_a_poor_rummage_roll() -> None:
    """(issue: the AI) With Second Wind in hand the AI rerolls a rummage roll of fewer than
    three pluses and uses a good one."""
    poor = _rummaging()
    assert pluses(poor.rummage) == 0
    choice = ai.choose(BRAWL.observe(poor, 0), legal_moves(poor, 0), random.Random(1))
    assert choice == "reroll"
    good = replace(poor, rummage=(2,) * 6, draws=6, discards=0)
    choice = ai.choose(BRAWL.observe(good, 0), legal_moves(good, 0), random.Random(1))
    assert choice == "draw trash"


def test_ai_sweeps_the_clean_sweep_away_in_rummy() -> None:
    """(issue: the AI) In Rummy the AI plays Clean Sweep alone, so it can go out later."""
    state = build({0: ["sweep", "pizza", "fish"], 1: ["fish"], 2: ["milk"]}, mode=RUMMY)
    state = replace(state, phase="pre", draws=2)
    choice = ai.choose(BRAWL.observe(state, 0), legal_moves(state, 0), random.Random(1))
    assert choice == "play sweep alone"

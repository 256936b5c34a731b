"""Toss It in the Trash: the course of a turn and a round as the log and the views tell it,
and the refusals, pinned where the mutation run (docs/mutation.md) found them unchecked.

The drops are into nearly empty bins at steady hands, so each test runs a few drops (and at
most one pre-fill of twelve pieces).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import Applied, IllegalAction
from rules.toss.engine import TOSS, Choose, State, allowed_kinds
from rules.toss.phases import _apply_choose
from tests.rules.test_toss_details import OUTSIDE, new, placing


def texts(applied: Applied[State]) -> list[str]:
    return [str(event.text) for event in applied.events]


# ---------------------------------------------------------------------------------------------
# Laying down and turning up the cards


def test_the_cards_are_turned_up_together_lowest_first() -> None:
    """(rulebook: the cards are laid face down, then shown together; the lowest goes first,
    equal numbers by fewer mice) Each laying down is told without the card; the reveal
    lists every seat's card in turn order."""
    state = replace(
        new(3), colours=("purple", "red", "green"), hands=((2, 5, 9), (5, 6, 7), (1, 5, 8))
    )
    logs = []
    for seat, card in enumerate([5, 5, 1]):
        applied = TOSS.apply(state, seat, f"choose {card}")
        logs.append(texts(applied))
        state = applied.state
    assert logs == [
        ["{p0} lays down a card."],
        ["{p1} lays down a card."],
        ["{p2} lays down a card.", "Round 1: the cards are turned up: {p2} 1, {p1} 5 and {p0} 5."],
    ]
    assert state.turn == 2 and state.to_place == 1 and state.kind is None


def test_a_card_laid_down_cannot_be_taken_back() -> None:
    """(table rule: the choice of card cannot be taken back) A second card the same round is
    refused by the choice itself, not only by the turn check that leaves the seat out of
    `to_act`."""
    state = new(2)
    state = TOSS.apply(state, 0, f"choose {state.hands[0][0]}").state
    with pytest.raises(IllegalAction, match=r"^You have already laid down a card this round\.$"):
        _apply_choose(state, 0, Choose(state.hands[0][0]))


def test_refusals_say_what_is_wrong() -> None:
    """(rulebook: each player lays down one of their hand cards, then the garbage is placed)
    A card not in hand, a drop before the cards are down, a card once they are, and words
    outside the grammar are each refused with their own reason."""
    state = replace(new(2), hands=((1, 2, 3), (4, 5, 6)))
    with pytest.raises(IllegalAction, match=r"^You have no 10 in your hand\.$"):
        TOSS.apply(state, 0, "choose 10")
    with pytest.raises(
        IllegalAction, match=r"^First lay down a card: everyone chooses one in secret\.$"
    ):
        TOSS.apply(state, 0, "place can 10 0")
    placing_now = placing(2, [2, 3])
    with pytest.raises(
        IllegalAction, match=r"^The cards are down: now it is time to place garbage\.$"
    ):
        TOSS.apply(placing_now, 0, "choose 2")
    for bad in ["place can x 0", "place can 3 x", "place can -1 0", "choose two", "place"]:
        with pytest.raises(IllegalAction, match=r"^That is not a move in this game\.$"):
            TOSS.apply(placing_now, 0, bad)


def test_a_new_game_refuses_a_wrong_table_by_name() -> None:
    """(rulebook: two to five players; house rule: the wobble is steady, house or shaky)
    An empty wobble option is the house wobble."""
    with pytest.raises(IllegalAction, match=r"^Toss It in the Trash takes 2 to 5 players\.$"):
        TOSS.new_game(6, {}, 1)
    with pytest.raises(
        IllegalAction, match=r"^There is no wobble 'drunk': pick steady, house, shaky\.$"
    ):
        TOSS.new_game(2, {"wobble": "drunk"}, 1)
    assert TOSS.new_game(5, {"wobble": ""}, 1).wobble == "house"


# ---------------------------------------------------------------------------------------------
# Placing


def test_each_piece_placed_is_told_with_the_pieces_still_to_go() -> None:
    """(rulebook: a card's number is how many pieces its player places, one after another)
    The log counts down; the bin's newest piece is marked as this step's drop, and the view
    shows the kind the turn is now bound to."""
    state = placing(2, [2, 3])
    applied = TOSS.apply(state, 0, "place can 10 0")
    after = applied.state
    assert texts(applied) == ["{p0} places a tin can (1 more to go)."]
    assert after.dropped_at == after.step == state.step + 1
    assert TOSS.observe(after, 1)["kind"] == "can"
    assert TOSS.observe(after, 1)["dropped_at"] == after.step


def test_the_last_piece_of_a_turn_passes_it_on() -> None:
    """(rulebook: after a player's pieces the next higher card plays) The next seat places
    its own card's number, free to pick any kind."""
    state = placing(2, [1, 3])
    applied = TOSS.apply(state, 0, "place apple 10 0")
    assert texts(applied) == ["{p0} places an apple core."]
    after = applied.state
    assert after.turn == 1 and after.to_place == 3 and after.kind is None
    assert allowed_kinds(after) == ["carton", "can", "bottle", "apple"]


def test_the_last_piece_of_a_round_opens_the_next() -> None:
    """(rulebook: when everyone has placed, everyone draws and the next round starts)"""
    state = placing(2, [1, 1])
    first, last = state.order  # equal cards: fewer mice first
    state = TOSS.apply(state, first, "place can 10 0").state
    applied = TOSS.apply(state, last, "place can 3 0")
    assert texts(applied) == [
        f"{{p{last}}} places a tin can.",
        "Round 2: everyone lays down a card face down.",
    ]


def test_the_turns_kind_stays_bound_while_one_piece_of_it_is_left() -> None:
    """(rulebook: only the first kind chosen until none of it is left)"""
    state = placing(2, [3, 3], kind="can", supply=(5, 1, 5, 5))
    assert allowed_kinds(state) == ["can"]
    assert allowed_kinds(replace(state, supply=(5, 0, 5, 5))) == ["carton", "bottle", "apple"]


def test_the_very_last_piece_earns_the_top_counter_and_a_fresh_bin() -> None:
    """(rulebook: the last piece of the supply placed without a spill earns the top counter
    plus side up; the bin is emptied and pre-filled again) The refill is a fresh random
    draw: no piece in it is marked as the last drop, and it is not the opening bin again."""
    opening = new(2)
    assert opening.counter == 1  # the opening pre-fill is one draw
    state = placing(2, [2, 3], supply=(0, 1, 0, 0))
    applied = TOSS.apply(state, 0, "place can 10 0")
    assert texts(applied) == [
        "{p0} places the very last piece, a tin can, and scores 1 point!",
        "The bin is emptied and pre-filled again.",
    ]
    after = applied.state
    assert after.counter == state.counter + 2  # the drop's wobble and the refill
    assert after.dropped_at == -1
    assert len(after.pieces) == 12 and after.pieces != opening.pieces


def test_a_spill_that_ends_the_game_marks_no_piece_as_the_last_drop() -> None:
    """(rulebook: a spill takes the top counter minus side up; the last counter ends the
    game at once) The bin stays as the spill left it, the spill's step is kept, and the
    outcome carries the points."""
    state = TOSS.apply(placing(2, [2, 3]), 0, "place can 10 0").state
    assert state.dropped_at == state.step
    state = replace(state, counters=(6,), pieces=(*state.pieces, OUTSIDE))
    applied = TOSS.apply(state, 0, "place can 3 0")
    after = applied.state
    assert texts(applied) == [
        "{p0} drops a tin can and garbage falls out! {p0} loses 6 points.",
        "The game is over: {p1} wins with 0 points!",
    ]
    assert after.finished and after.dropped_at == -1 and after.spilled_at == after.step
    outcome = TOSS.outcome(after)
    assert outcome is not None
    assert outcome.points == (-6, 0) and outcome.ranks == (1, 0)


def test_a_spill_by_the_last_seat_starts_the_next_round_with_nothing_to_place() -> None:
    """(rulebook: a spill ends the turn at once; after the round everyone draws) The round
    ends though the spilling seat had pieces left to place; the spill is shown with the
    step that made it and cleared by the next action."""
    state = TOSS.apply(placing(2, [1, 3]), 0, "place can 10 0").state
    state = replace(state, pieces=(OUTSIDE,))
    after = TOSS.apply(state, 1, "place can 10 0").state
    assert after.round == 2 and after.phase == "choose"
    assert after.to_place == 0 and TOSS.observe(after, None)["to_place"] == 0
    assert after.spill and after.spilled_at == after.step
    cleared = TOSS.apply(after, 0, f"choose {after.hands[0][0]}").state
    assert cleared.spill == ()
    assert TOSS.observe(cleared, None)["spill"] == []

"""Toss It in the Trash: one test per rule, on hand-made states where that reads best.

Each test says which rule it checks: "(rulebook: ...)" paraphrases the published rules,
"(house rule: ...)" the project's house rules, "(table rule: ...)" a choice this engine made
where both are silent (listed in the engine's docstring).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import pytest

from rules.base import IllegalAction, rng_for
from rules.toss import ai
from rules.toss.bin import (
    ANGLES,
    BIN_WIDTH,
    KINDS,
    X_STEPS,
    Piece,
    count_kinds,
    drop,
    prefill,
    simulate,
)
from rules.toss.engine import COLOURS, KIND_ORDER, TOSS, State, scores
from rules.toss.observation import TossObservation
from rules.toss.state import PREFILL


def new(seats: int = 3, seed: int = 1, wobble: str = "house") -> State:
    return TOSS.new_game(seats, {"wobble": wobble}, seed)


def choose_all(state: State, cards: list[int] | None = None) -> State:
    """Every seat lays down a card (the given ones, else its lowest)."""
    for seat in range(state.seats):
        card = cards[seat] if cards else min(state.hands[seat])
        state = TOSS.apply(state, seat, f"choose {card}").state
    return state


def placing(
    seats: int = 2,
    *,
    supply: tuple[int, ...] | None = None,
    pieces: tuple[Piece, ...] = (),
    counters: tuple[int, ...] = (1, 2, 3, 4, 5, 6),
    round_: int = 1,
    cards: list[int] | None = None,
) -> State:
    """A state in the placing phase: cards laid down (given values), the bin as given."""
    state = new(seats)
    hands = tuple(tuple(sorted({*(cards or [])} | {1, 2, 3})) for _ in range(seats))
    state = replace(state, hands=hands)
    state = choose_all(state, cards or [1] * seats)
    return replace(
        state,
        pieces=pieces,
        supply=supply if supply is not None else state.supply,
        counters=counters,
        round=round_,
    )


def first_spill(state: State, rng: random.Random) -> tuple[State, State, int]:
    """Play random legal drops until one spills: (state before, state after, the seat)."""
    for _ in range(2000):
        if state.phase == "choose":
            for s in sorted(TOSS.to_act(state)):
                state = TOSS.apply(state, s, rng.choice(TOSS.legal_actions(state, s))).state
            continue
        (seat,) = TOSS.to_act(state)
        action = rng.choice(TOSS.legal_actions(state, seat))
        after = TOSS.apply(state, seat, action)
        if any("falls out" in str(event.text) for event in after.events):
            return state, after.state, seat
        state = after.state
    raise AssertionError("no spill found")


def test_prefill_follows_the_table() -> None:
    """(rulebook: pre-fill table) 2 players: 3 of each kind; 3: 2; 4: 1; 5: none."""
    for seats, each in [(2, 3), (3, 2), (4, 1), (5, 0)]:
        assert PREFILL[seats] == each
        state = new(seats)
        assert count_kinds(state.pieces) == dict.fromkeys(KINDS, each)
        assert state.supply == (10 - each,) * 4


def test_prefill_is_random_from_the_seed() -> None:
    """(house rule: the pre-fill is dropped at random spots from the seed)."""
    assert new(2, seed=1).pieces == new(2, seed=1).pieces
    assert new(2, seed=1).pieces != new(2, seed=2).pieces


def test_prefill_never_leaves_a_piece_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """(rulebook: pre-fill table, every piece goes in) Even when every random spot spills
    twenty times in a row, the careful search puts each piece in the bin."""
    from rules.toss import bin as toss_bin

    real_drop = toss_bin.drop
    tries: dict[int, int] = {}

    def unlucky_drop(pieces: tuple[Piece, ...], *args: object) -> tuple[tuple[Piece, ...], bool]:
        tries[len(pieces)] = tries.get(len(pieces), 0) + 1
        if tries[len(pieces)] <= toss_bin.PREFILL_TRIES:
            return pieces, True  # every random spot spills
        return real_drop(pieces, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(toss_bin, "drop", unlucky_drop)
    counts = dict.fromkeys(KINDS, 2)
    pieces = prefill(counts, rng_for(3, "prefill"))
    assert count_kinds(pieces) == counts
    assert all(n > toss_bin.PREFILL_TRIES for n in tries.values())


def test_cards_and_counters_at_the_start() -> None:
    """(rulebook: ten cards 1..10 per colour, three in hand; six counters, 1 on top)"""
    state = new(4)
    for hand, deck in zip(state.hands, state.decks, strict=True):
        assert len(hand) == 3 and len(deck) == 7
        assert sorted(hand + deck) == list(range(1, 11))
    assert state.counters == (1, 2, 3, 4, 5, 6)
    assert len(set(state.colours)) == 4 and set(state.colours) <= set(COLOURS)


def test_colours_are_dealt_at_random_from_the_seed() -> None:
    """(table rule: colours, and so mice, are dealt to seats at random from the seed)"""
    deals = {new(5, seed=seed).colours for seed in range(8)}
    assert len(deals) > 1
    assert new(5, seed=3).colours == new(5, seed=3).colours


def test_choice_is_simultaneous_and_hidden_until_all_have_chosen() -> None:
    """(rulebook: cards are laid face down and turned up together)"""
    state = new(3)
    assert TOSS.to_act(state) == {0, 1, 2}
    card = state.hands[0][0]
    state = TOSS.apply(state, 0, f"choose {card}").state
    assert TOSS.to_act(state) == {1, 2}
    assert TOSS.legal_actions(state, 0) == []
    for seat in (None, 1, 2):
        view = TOSS.observe(state, seat)
        assert view["revealed"] == [None, None, None]
        assert view["chosen"] == [True, False, False]
        assert view["my_choice"] is None
        assert str(card) not in json.dumps(view["revealed"])
    assert TOSS.observe(state, 0)["my_choice"] == card
    with pytest.raises(IllegalAction):
        TOSS.apply(state, 0, f"choose {state.hands[0][0]}")
    state = TOSS.apply(state, 1, f"choose {state.hands[1][0]}").state
    applied = TOSS.apply(state, 2, f"choose {state.hands[2][0]}")
    assert "turned up" in str(applied.events[-1].text)
    view = TOSS.observe(applied.state, None)
    assert None not in view["revealed"] and view["phase"] == "place"


def test_order_by_number_then_fewer_mice() -> None:
    """(rulebook: the lowest number goes first; equal numbers go by fewer mice)"""
    state = new(3)
    state = replace(
        state,
        colours=("purple", "red", "green"),
        hands=((2, 5, 9), (5, 6, 7), (1, 5, 8)),
    )
    after = choose_all(state, [5, 5, 1])
    assert after.order == (2, 1, 0)  # 1 first; then the two fives: red (1 mouse), purple (5)
    assert TOSS.to_act(after) == {2} and after.to_place == 1


def test_one_kind_until_it_runs_out() -> None:
    """(rulebook: pieces of the first kind chosen until none is left, then another)"""
    state = placing(cards=[3, 3])
    seat = state.turn
    assert seat is not None
    state = replace(state, to_place=3)
    assert {a.split()[1] for a in TOSS.legal_actions(state, seat)} == set(KINDS)
    state = TOSS.apply(state, seat, "place can 10 0").state
    assert state.kind == "can"
    assert {a.split()[1] for a in TOSS.legal_actions(state, seat)} == {"can"}
    with pytest.raises(IllegalAction, match="until they run out"):
        TOSS.apply(state, seat, "place bottle 10 0")
    supply = list(state.supply)
    supply[KIND_ORDER.index("can")] = 0
    state = replace(state, supply=tuple(supply))
    assert {a.split()[1] for a in TOSS.legal_actions(state, seat)} == {"carton", "bottle", "apple"}


def test_a_spill_ends_the_turn_with_a_minus_counter_and_a_refill() -> None:
    """(rulebook: anything falling out ends the turn at once; the player takes the top
    counter minus side up; the bin is emptied and pre-filled again; the round goes on)"""
    before, after, seat = first_spill(new(3, seed=4, wobble="shaky"), random.Random(4))
    top = before.counters[0]
    assert after.taken[seat] == (*before.taken[seat], -top)
    assert after.counters == before.counters[1:]
    assert count_kinds(after.pieces) == dict.fromkeys(KINDS, PREFILL[3])
    assert after.supply == (10 - PREFILL[3],) * 4
    assert after.turn != seat or after.round != before.round
    if before.turn_index + 1 < len(before.order):
        assert after.turn == before.order[before.turn_index + 1]
        assert after.round == before.round


def test_placing_the_last_piece_gives_a_plus_counter_and_a_refill() -> None:
    """(rulebook: the last piece of the supply placed without a spill earns the top counter
    plus side up; the turn ends; the bin is emptied and pre-filled again)"""
    state = placing(seats=3, supply=(0, 1, 0, 0), cards=[5, 6, 7])
    seat = state.turn
    assert seat is not None
    applied = TOSS.apply(state, seat, "place can 10 0")
    after = applied.state
    assert after.taken[seat] == (1,)
    assert after.counters == (2, 3, 4, 5, 6)
    assert count_kinds(after.pieces) == dict.fromkeys(KINDS, PREFILL[3])
    assert after.supply == (10 - PREFILL[3],) * 4
    assert after.turn == state.order[1] and after.kind is None


def test_more_pieces_asked_than_left_stops_at_the_last() -> None:
    """(table rule: a card bigger than the supply places until it is empty)"""
    state = placing(seats=2, supply=(0, 0, 2, 0), cards=[9, 9])
    seat = state.turn
    assert seat is not None and state.to_place == 9
    state = TOSS.apply(state, seat, "place bottle 10 90").state
    assert state.turn == seat and state.to_place == 8
    state = TOSS.apply(state, seat, "place bottle 4 90").state
    assert state.taken[seat] == (1,) and state.turn != seat


def test_the_game_ends_after_ten_rounds() -> None:
    """(rulebook: at most ten rounds; everyone draws a card between rounds)"""
    state = placing(seats=2, round_=9, cards=[1, 1])
    for _ in range(2):
        seat = state.turn
        assert seat is not None
        state = TOSS.apply(state, seat, "place can 10 0").state
    assert state.round == 10 and state.phase == "choose"
    state = replace(state, hands=((4,), (5,)))
    state = choose_all(state, [4, 5])
    state = replace(state, to_place=1, chosen=(1, 1))
    for _ in range(2):
        seat = state.turn
        assert seat is not None
        state = TOSS.apply(state, seat, "place can 10 0").state
    assert state.finished and TOSS.outcome(state) is not None
    assert TOSS.to_act(state) == frozenset()


def test_a_round_ends_with_everyone_drawing() -> None:
    """(rulebook: each player draws a card before the next round)"""
    state = new(2)
    decks = state.decks
    state = choose_all(state)
    while state.phase == "place":
        seat = state.turn
        assert seat is not None
        state = TOSS.apply(state, seat, TOSS.legal_actions(state, seat)[0]).state
    assert state.round == 2
    assert all(len(h) == 3 for h in state.hands)
    assert all(len(d) == len(d0) - 1 for d, d0 in zip(state.decks, decks, strict=True))


def test_the_game_ends_at_once_on_the_last_counter() -> None:
    """(rulebook: whoever takes the last counter ends the game at once)"""
    state = placing(seats=3, supply=(0, 1, 0, 0), counters=(6,), cards=[2, 3, 4])
    seat = state.turn
    assert seat is not None
    state = TOSS.apply(state, seat, "place can 10 0").state
    assert state.finished
    assert state.taken[seat] == (6,)
    assert TOSS.to_act(state) == frozenset()


def test_ties_share_the_win_and_no_counters_score_zero() -> None:
    """(rulebook: points are the sum of counters, none is 0; ties share the win)"""
    state = replace(new(3), phase="over", taken=((-1, 3), (2,), ()))
    assert scores(state) == (2, 2, 0)
    outcome = TOSS.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.ranks == (0, 0, 1)


def test_save_and_reload_mid_turn_changes_nothing() -> None:
    """(house rule: deterministic; a JSON save and reload in the middle of a turn gives
    the same bin and the same drops)"""
    state = placing(seats=2, cards=[6, 6])
    seat = state.turn
    assert seat is not None
    state = TOSS.apply(state, seat, "place carton 3 0").state
    state = TOSS.apply(state, seat, "place carton 15 90").state
    saved = json.loads(json.dumps(TOSS.to_json(state)))
    reloaded = TOSS.from_json(saved)
    assert reloaded == state
    for action in ["place carton 8 45", "place carton 12 0", "place carton 1 90"]:
        state = TOSS.apply(state, seat, action).state
        reloaded = TOSS.from_json(json.loads(json.dumps(TOSS.to_json(reloaded))))
        reloaded = TOSS.apply(reloaded, seat, action).state
        assert reloaded == state


def test_same_seed_same_actions_same_game() -> None:
    """(house rule: one seeded generator per game)"""

    def play(seed: int) -> State:
        state = new(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if state.finished:
                break
            seat = min(TOSS.to_act(state))
            state = TOSS.apply(state, seat, rng.choice(TOSS.legal_actions(state, seat))).state
        return state

    assert play(5) == play(5)


def test_drop_is_deterministic_and_reports_spills() -> None:
    """(house rule: a piece falls out when it crosses a wall below the rim or rests beyond)"""
    pieces = prefill(dict.fromkeys(KINDS, 3), rng_for(1, "x"))
    one = drop(pieces, "bottle", 7, 45, "house", rng_for(1, "d"))
    two = drop(pieces, "bottle", 7, 45, "house", rng_for(1, "d"))
    assert one == two and not one[1]
    # A piece that crosses a wall below the rim has fallen out: a spill.
    outside = Piece("can", (BIN_WIDTH + 40) * 10, 500, 0)
    assert simulate((outside,), "apple", BIN_WIDTH / 2, 0.0).spilled
    assert not simulate((), "can", BIN_WIDTH / 2, 0.0).spilled
    # The hand always lets go with the whole piece between the walls.
    assert not simulate((), "can", BIN_WIDTH + 40, 0.0).spilled
    # Poses are whole numbers, so JSON keeps them exactly.
    assert all(isinstance(v, int) for p in one[0] for v in (p.x, p.y, p.angle))


def test_wobble_option_and_seat_counts() -> None:
    """(house rule: wobble steady, house or shaky; the game takes 2 to 5 players)"""
    assert TOSS.options[0].default == "house"
    assert TOSS.options[0].choices == ("steady", "house", "shaky")
    with pytest.raises(IllegalAction):
        TOSS.new_game(3, {"wobble": "drunk"}, 1)
    with pytest.raises(IllegalAction):
        TOSS.new_game(1, {}, 1)
    with pytest.raises(IllegalAction):
        TOSS.new_game(6, {}, 1)
    assert TOSS.new_game(3, {}, 1).wobble == "house"


def test_action_grammar() -> None:
    """(table rule: actions are "choose <n>" and "place <kind> <x> <angle>")"""
    state = placing(cards=[2, 2])
    seat = state.turn
    assert seat is not None
    legal = TOSS.legal_actions(state, seat)
    assert len(legal) == len(KINDS) * X_STEPS * len(ANGLES)
    assert all(len(a) < 80 for a in legal)
    for bad in ["place can 21 0", "place can 3 10", "place sofa 3 0", "choose 3", "jump"]:
        with pytest.raises(IllegalAction):
            TOSS.apply(state, seat, bad)
    assert str(TOSS.describe(state, "place can 3 45")) == "Tin can at 3/20, turned 45°"


def test_views_have_the_documented_keys() -> None:
    state = new(2)
    for seat in (None, 0, 1):
        assert TOSS.observe(state, seat).keys() == TossObservation.__required_keys__
    assert TOSS.observe(state, None)["hand"] is None
    assert TOSS.observe(state, 1)["hand"] == list(state.hands[1])


def test_ai_picks_legal_actions_and_places_safely() -> None:
    state = new(2, seed=3)
    for seat in range(2):
        legal = TOSS.legal_actions(state, seat)
        assert TOSS.choose(TOSS.observe(state, seat), legal, random.Random(0)) in legal
    state = choose_all(state)
    seat = state.turn
    assert seat is not None
    legal = TOSS.legal_actions(state, seat)
    action = ai.choose(TOSS.observe(state, seat), legal, random.Random(0))
    assert action in legal
    steady = replace(state, wobble="steady")
    assert not any("falls out" in str(e.text) for e in TOSS.apply(steady, seat, action).events)


def test_ai_is_deterministic_lays_long_pieces_flat_and_cannot_see_the_seed() -> None:
    """The AI decides from its view and its own generator only: the same view and the same
    generator give the same drop, whatever the game's seed (and so its next wobble)."""
    one = replace(placing(cards=[2, 2]), pieces=new(2).pieces)
    other = replace(one, seed=one.seed + 1)
    seat = one.turn
    assert seat is not None
    bottles = [a for a in TOSS.legal_actions(one, seat) if a.split()[1] == "bottle"]
    picks = {
        ai.choose(TOSS.observe(state, seat), bottles, random.Random(4)) for state in (one, other)
    }
    assert len(picks) == 1
    # On an empty bin a bottle goes in lying down, not standing on its end.
    empty = replace(one, pieces=())
    pick = ai.choose(TOSS.observe(empty, seat), bottles, random.Random(4))
    assert pick.split()[3] == "90"


def test_ai_plays_its_card_by_the_room_left() -> None:
    state = new(2, seed=3)
    hands = ((1, 5, 9), (1, 5, 9))
    empty = replace(state, pieces=(), hands=hands)
    assert ai.room_left(TOSS.observe(empty, 0)) > 30
    # Plenty of room and a big supply: the biggest card that fits.
    assert (
        ai.choose(TOSS.observe(empty, 0), ["choose 1", "choose 5", "choose 9"], random.Random(0))
        == "choose 9"
    )
    # Room for the rest of the supply: a card big enough to place the last piece.
    few = replace(empty, supply=(1, 1, 1, 1), pieces=())
    assert (
        ai.choose(TOSS.observe(few, 0), ["choose 1", "choose 5", "choose 9"], random.Random(0))
        == "choose 5"
    )
    # A bin heaped high over the rim: the smallest card.
    heap = tuple(
        Piece("can", x * 10, y * 10, 0) for x in range(20, 150, 40) for y in range(16, 400, 32)
    )
    full = replace(empty, pieces=heap)
    assert ai.room_left(TOSS.observe(full, 0)) < 1
    assert (
        ai.choose(TOSS.observe(full, 0), ["choose 1", "choose 5", "choose 9"], random.Random(0))
        == "choose 1"
    )


def test_apples_roll_cans_stack_and_bottles_bridge() -> None:
    """(house rule: an apple core is round and hard to build on; a bottle is a long block)"""
    # An apple dropped a little off the top of another apple rolls off; a can on a can stays.
    apples = simulate((Piece("apple", 750, 150, 0),), "apple", 78, 0.0).pieces
    assert all(p.y < 200 for p in apples)
    cans = simulate((Piece("can", 750, 160, 0),), "can", 78, 0.0).pieces
    assert cans[-1].y > 400
    # A bottle lying across two cans with a gap between them rests on both, off the floor.
    posts = (Piece("can", 200, 160, 0), Piece("can", 1300, 160, 0))
    bottle = simulate(posts, "bottle", BIN_WIDTH / 2, math.pi / 2).pieces[-1]
    assert bottle.y > 350 and abs(abs(bottle.angle) - 1571) < 50

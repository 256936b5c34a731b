"""Toss It in the Trash: the details the mutation run (docs/mutation.md) found unchecked:
the end-of-game texts, the menu groups of drops, the bin's height measures, the order of the
careful pre-fill search, and the AI's measures (skyline, waste, room left) and card choice.

Each test says which rule it checks, in the words of tests/rules/test_toss.py. Every test
works on hand-made bins of a few pieces, so none runs more than a few drops.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules.base import IllegalAction, rng_for
from rules.toss import ai
from rules.toss.bin import (
    ANGLES,
    BIN_HEIGHT,
    BIN_WIDTH,
    KINDS,
    WOBBLE,
    X_STEPS,
    Drop,
    Piece,
    careful_spots,
    grid_x,
    highest,
    pile_top,
    wobbled,
)
from rules.toss.engine import (
    COLOURS,
    TOSS,
    State,
    open_spots,
    parse_spot_group,
    spot_group,
)
from rules.toss.phases import _finish

# A can lying outside the right wall, below the rim: any drop onto this bin spills.
OUTSIDE = Piece("can", (BIN_WIDTH + 40) * 10, 500, 0)


def new(seats: int = 2, seed: int = 1) -> State:
    return TOSS.new_game(seats, {"wobble": "steady"}, seed)


def placing(seats: int, cards: list[int], **changes: object) -> State:
    """Every seat has laid down its card; then the state changed as given."""
    state = new(seats)
    hands = tuple(tuple(sorted({card, 11 + seat, 12 + seat})) for seat, card in enumerate(cards))
    state = replace(state, hands=hands)
    for seat, card in enumerate(cards):
        state = TOSS.apply(state, seat, f"choose {card}").state
    return replace(state, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The end of the game and its texts


def test_the_last_counter_taken_on_a_plus_ends_the_game_with_the_winner_named() -> None:
    """(rulebook: whoever takes the last counter ends the game at once; the highest score
    wins) The end text names the one winner and the points; nobody is left to place."""
    state = placing(3, [2, 3, 4], counters=(6,), supply=(0, 1, 0, 0), taken=((1,), (-2,), ()))
    seat = state.turn
    assert seat == 0
    applied = TOSS.apply(state, seat, "place can 10 0")
    assert str(applied.events[-1].text) == "The game is over: {p0} wins with 7 points!"
    view = TOSS.observe(applied.state, None)
    assert view["finished"] and view["to_place"] == 0 and view["kind"] is None
    assert view["scores"] == [7, -2, 0]


def test_the_last_counter_taken_on_a_spill_ends_the_game_with_a_shared_win() -> None:
    """(rulebook: a spill takes the top counter minus side up; the last counter ends the
    game at once; ties share the win) The end text names every winner, in seat order."""
    state = placing(3, [2, 3, 4], counters=(6,), pieces=(OUTSIDE,), taken=((-1,), (4,), (4,)))
    seat = state.turn
    assert seat == 0
    applied = TOSS.apply(state, seat, "place can 10 0")
    texts = [str(event.text) for event in applied.events]
    assert texts == [
        "{p0} drops a tin can and garbage falls out! {p0} loses 6 points.",
        "The game is over: {p1} and {p2} share the win with 4 points!",
    ]
    assert applied.state.finished and applied.state.to_place == 0
    assert applied.state.kind is None
    # (table rule: the piece that spills leaves the supply like any other) The game ends
    # with the bin as the spill left it: nothing is emptied or pre-filled.
    assert applied.state.supply == (8, 7, 8, 8)
    assert applied.state.pieces == applied.state.spill and len(applied.state.pieces) == 2


def test_a_game_that_ends_with_one_winner_says_so() -> None:
    """(rulebook: the highest score wins) The end of the tenth round names the winner."""
    state = replace(new(2), taken=((-1,), (2, 3)))
    finished, events = _finish(state)
    assert [str(event.text) for event in events] == ["The game is over: {p1} wins with 5 points!"]
    assert finished.phase == "over"


def test_the_first_round_opens_with_everyone_laying_down_a_card() -> None:
    """(rulebook: a round starts with every player laying down one card face down)"""
    texts = [str(event.text) for event in TOSS.opening_events(new(2))]
    assert texts == ["Round 1: everyone lays down a card face down."]


# ---------------------------------------------------------------------------------------------
# The menu groups of drops


def test_a_drop_is_grouped_by_its_kind_and_spot() -> None:
    """(table rule: actions are "place <kind> <x> <angle>"; a drop's menu entry is its kind
    and spot, the turn being chosen after) Other actions stand for themselves."""
    assert TOSS.group_of("place can 3 45") == "place can 3"
    assert TOSS.group_of("place apple 20 0") == spot_group("apple", 20) == "place apple 20"
    assert TOSS.group_of("choose 4") == "choose 4"
    assert TOSS.group_of("jump over") == "jump over"


def test_a_menu_entry_names_its_kind_and_spot() -> None:
    """(table rule: the menu entry of a drop reads back as its kind and spot)"""
    assert parse_spot_group("place can 3") == ("can", 3)
    assert parse_spot_group(spot_group("bottle", 20)) == ("bottle", 20)
    for other in ["place can", "place can 3 45", "place sofa 3", "place can x", "drop can 3"]:
        assert parse_spot_group(other) is None


def test_the_open_spots_of_each_kind_are_listed_once_in_order() -> None:
    """(rulebook: only the turn's kind until it runs out) The spots open to each kind among
    the legal drops, each once, left to right."""
    state = placing(2, [3, 3])
    seat = state.turn
    assert seat is not None
    every = list(range(X_STEPS))
    assert open_spots(TOSS.legal_actions(state, seat)) == dict.fromkeys(KINDS, every)
    assert open_spots(["place can 7 0", "place can 7 90", "place can 2 0"]) == {"can": [7, 2]}
    assert open_spots(["choose 3"]) == {}


# ---------------------------------------------------------------------------------------------
# The bin's height measures and the careful pre-fill search


def test_the_pile_top_is_the_highest_point_reaching_into_a_span() -> None:
    """(house rule: a piece is held just above whatever already lies under it) A can lying
    flat on the floor reaches 54.5..95.5 mm across and 32.5 mm up (with its rounded edge)."""
    can = (Piece("can", 750, 160, 0),)
    assert pile_top((), 0, BIN_WIDTH) == 0.0
    assert highest(()) == 0.0
    assert pile_top(can, 95.5, 200) == 32.5
    assert pile_top(can, 0, 54.5) == 32.5
    assert pile_top(can, 95.6, 200) == 0.0
    assert pile_top(can, 0, 54.4) == 0.0
    assert highest(can) == 32.5
    stacked = (*can, Piece("apple", 300, 150, 0))
    assert highest(stacked) == 32.5
    assert pile_top(stacked, 0, 40) == pytest.approx(30.0)


def test_the_careful_search_tries_the_middle_first_at_each_angle() -> None:
    """(table rule: after twenty spills in a row every spot and angle is tried in a fixed
    order) Each angle in turn, from the middle of the bin outwards."""
    spots = careful_spots()
    assert len(spots) == len(set(spots)) == X_STEPS * len(ANGLES)
    middle_out = [10, 9, 11, 8, 12, 7, 13, 6, 14, 5, 15, 4, 16, 3, 17, 2, 18, 1, 19, 0, 20]
    assert spots[:X_STEPS] == [(x, 0) for x in middle_out]
    assert spots[X_STEPS : 2 * X_STEPS] == [(x, ANGLES[1]) for x in middle_out]
    assert spots[-1] == (20, ANGLES[-1])


# ---------------------------------------------------------------------------------------------
# The AI's measures


def test_ai_reads_the_bin_from_its_view() -> None:
    """The AI's bin is the engine's, pose for pose, read from the view alone."""
    state = new(2, seed=3)
    assert state.pieces
    assert ai._pieces(TOSS.observe(state, 0)) == state.pieces


def test_ai_piece_areas() -> None:
    """The AI's area of a piece: a box's width times height, an apple core's circle."""
    assert ai.area(KINDS["can"]) == 40 * 32
    assert ai.area(KINDS["carton"]) == 36 * 70
    assert ai.area(KINDS["apple"]) == pytest.approx(math.pi * 15**2)


def _columns() -> list[float]:
    return [BIN_WIDTH * (i + 0.5) / ai.COLUMNS for i in range(ai.COLUMNS)]


def test_ai_skyline_follows_a_round_piece() -> None:
    """The skyline over an apple core is its upper half circle, and nothing at its edge."""
    apple = Piece("apple", 625, 150, 0)  # its edges fall exactly on two sample points
    tops = ai.skyline((apple,))
    for x, top in zip(_columns(), tops, strict=True):
        d = x - 62.5
        expected = 15 + math.sqrt(15**2 - d * d) if abs(d) < 15 else 0.0
        assert top == pytest.approx(expected)
    assert tops[9] == 0.0 and tops[15] == 0.0  # x = 47.5 and 77.5: the very edges


@pytest.mark.parametrize("angle", [785, -1300, 2900])  # milliradians
def test_ai_skyline_follows_a_turned_box(angle: int) -> None:
    """The skyline over a turned box rises to its top corner and falls again, whichever
    side ends up on top."""
    can = Piece("can", 750, 600, angle)
    tops = ai.skyline((can,))
    c, s = math.cos(angle / 1000), math.sin(angle / 1000)
    corners = [
        (75 + c * u - s * v, 60 + s * u + c * v)
        for u, v in ((-20, -16), (20, -16), (20, 16), (-20, 16))
    ]
    left = min(x for x, _ in corners)
    right = max(x for x, _ in corners)
    for x, top in zip(_columns(), tops, strict=True):
        if not left < x < right:
            assert top == 0.0
            continue
        upper = max(
            y0 + (y1 - y0) * (x - x0) / (x1 - x0)
            for (x0, y0), (x1, y1) in itertools.pairwise([*corners, corners[0]])
            if min(x0, x1) <= x <= max(x0, x1)
        )
        assert top == pytest.approx(upper)
    assert max(tops) > 60 + 16


def test_ai_skyline_has_nothing_at_the_very_sides_of_a_box() -> None:
    """A can lying flat with its sides exactly on two sample points tops only the points
    strictly between them."""
    tops = ai.skyline((Piece("can", 525, 160, 0),))  # 32.5 .. 72.5 mm: points 6 and 14
    assert tops[6] == 0.0 and tops[14] == 0.0
    assert tops[7:14] == [pytest.approx(32.0)] * 7


def test_ai_waste_counts_the_gaps_the_height_the_bumps_and_the_rim() -> None:
    """The AI's waste of a bin: the area under the skyline no piece fills, plus weights for
    the highest point, the ups and downs, and each millimetre over the rim."""
    assert ai.waste(()) == 0.0
    flat = (Piece("can", 750, 160, 0),)  # 32 mm high over eight of the thirty columns
    assert ai.waste(flat) == pytest.approx(0.3 * 150 * 32 + 0.5 * 64)
    high = (Piece("can", 750, BIN_HEIGHT * 10 + 200, 0),)  # top 36 mm over the rim
    top = BIN_HEIGHT + 20 + 16
    under = 8 * top * 5
    assert ai.waste(high) == pytest.approx(
        under - 1280 + 0.3 * 150 * top + 0.5 * 2 * top + 20.0 * 150 * 36
    )


def test_ai_room_left_is_the_free_area_to_the_heap_over_the_mean_piece() -> None:
    """The AI's room left: the free area up to 1.3 times the rim over the mean area of the
    pieces still in supply (of all kinds alike when the supply is empty)."""
    state = new(5)  # five players: an empty bin
    heap = BIN_HEIGHT * ai.HEAP
    areas = {key: ai.area(kind) for key, kind in KINDS.items()}
    view = TOSS.observe(state, 0)
    mean = sum(areas.values()) / 4
    assert ai.room_left(view) == pytest.approx(heap * BIN_WIDTH / mean)
    cans_only = {**view, "supply": {"carton": 0, "can": 3, "bottle": 0, "apple": 0}}
    assert ai.room_left(cans_only) == pytest.approx(heap * BIN_WIDTH / areas["can"])
    mixed = {**view, "supply": {"carton": 1, "can": 3, "bottle": 0, "apple": 0}}
    mixed_mean = (areas["carton"] + 3 * areas["can"]) / 4
    assert ai.room_left(mixed) == pytest.approx(heap * BIN_WIDTH / mixed_mean)
    none_left = {**view, "supply": dict.fromkeys(KINDS, 0)}
    assert ai.room_left(none_left) == pytest.approx(heap * BIN_WIDTH / mean)
    # A can whose top is over the heap height leaves no room in its columns, not less.
    over = replace(state, pieces=(Piece("can", 750, round(heap * 10) + 100, 0),))
    free = (ai.COLUMNS - 8) * heap * BIN_WIDTH / ai.COLUMNS
    assert ai.room_left(TOSS.observe(over, 0)) == pytest.approx(free / mean)


def test_ai_expects_the_lower_cards_of_the_others_to_go_first() -> None:
    """The AI's guess of the pieces others place before its card: each other card equally
    likely 1 to 10, the lower ones placing their number first."""
    assert ai.ahead(1, 4) == 0
    assert ai.ahead(5, 1) == pytest.approx(1.0)
    assert ai.ahead(9, 1) == pytest.approx(3.6)
    assert ai.ahead(10, 3) == pytest.approx(13.5)


CARDS = ["choose 1", "choose 5", "choose 9"]


def test_ai_card_choice_fits_its_card_after_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI plays the biggest card whose pieces still fit after the others' lower cards;
    a card that just fits is played; with more players fewer fit."""
    state = new(5)  # supply 40, more than the room below
    monkeypatch.setattr(ai, "room_left", lambda observation: 8.0)
    view = TOSS.observe(state, 0)
    assert ai.choose({**view, "seats": 4}, CARDS, random.Random(0)) == "choose 5"  # 3 + 5 <= 8
    assert ai.choose({**view, "seats": 5}, CARDS, random.Random(0)) == "choose 1"  # 4 + 5 > 8
    monkeypatch.setattr(ai, "room_left", lambda observation: 12.6)
    assert ai.choose({**view, "seats": 2}, CARDS, random.Random(0)) == "choose 9"  # 3.6 + 9


def test_ai_plays_a_card_that_just_places_the_last_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the whole supply fits, even exactly, the AI plays the smallest card big enough
    to place the last piece: one equal to the supply will do."""
    state = replace(new(2), supply=(2, 1, 1, 1))
    monkeypatch.setattr(ai, "room_left", lambda observation: 5.0)
    assert ai.choose(TOSS.observe(state, 0), CARDS, random.Random(0)) == "choose 5"


def test_ai_first_pass_spots_and_rotations() -> None:
    """The AI's first pass: evenly spread spots, five when every kind is open, eleven for
    one kind; boxes standing up and lying flat, an apple core once."""
    assert ai._angles("apple") == (0,)
    assert ai._angles("can") == (0, 90)
    state = placing(2, [3, 3])
    seat = state.turn
    assert seat is not None
    legal = TOSS.legal_actions(state, seat)
    first = ai._first_pass(legal)
    spread = [0, 5, 10, 15, 20]
    assert set(first) == {
        f"place {kind} {x} {angle}"
        for kind in KINDS
        for x in spread
        for angle in ((0,) if kind == "apple" else (0, 90))
    }
    cans = [a for a in legal if a.split()[1] == "can"]
    assert {a for a in ai._first_pass(cans)} == {
        f"place can {x} {angle}" for x in range(0, 21, 2) for angle in (0, 90)
    }


def test_random_player_picks_from_the_legal_actions() -> None:
    legal = ["choose 1", "choose 5", "choose 9"]
    assert ai.random_choice(legal, random.Random(7)) == random.Random(7).choice(legal)


def test_ai_needs_a_legal_action_and_takes_the_only_one() -> None:
    with pytest.raises(ValueError, match=r"^No legal action to choose from\.$"):
        ai.choose(TOSS.observe(new(2), 0), [], random.Random(0))
    assert ai.choose(TOSS.observe(new(2), 0), ["choose 4"], random.Random(0)) == "choose 4"


# ---------------------------------------------------------------------------------------------
# The AI's placing, on a stand-in bin: each drop's result is set by the test


class OneSigmaHand(random.Random):
    """The AI's own generator, but every wobble it draws is one standard deviation up."""

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return mu + sigma


Outcome = Callable[[int, int, bool, int], float | None]


def stand_in_bin(monkeypatch: pytest.MonkeyPatch, outcome: Outcome) -> list[tuple[int, int, bool]]:
    """Replace the AI's simulation: a drop of a can aimed at (spot, angle), exact or shaken
    one standard deviation of the house wobble up, wastes `outcome(spot, angle, shaken, n)`
    (n: how many such drops were made before), None for a spill. Returns the drops made."""
    calls: list[tuple[int, int, bool]] = []
    spread, turn = WOBBLE["house"]

    def simulate(pieces: tuple[Piece, ...], kind: str, x: float, angle: float) -> Drop:
        degrees = math.degrees(angle)
        for spot, aim, shaken in itertools.product(range(X_STEPS), ANGLES, (False, True)):
            dx, da = (spread, turn) if shaken else (0.0, 0.0)
            if math.isclose(x, grid_x(spot) + dx) and math.isclose(degrees, aim + da, abs_tol=1e-9):
                made = calls.count((spot, aim, shaken))
                calls.append((spot, aim, shaken))
                result = outcome(spot, aim, shaken, made)
                marker = Piece(kind, spot, aim, round(1000 * (result or 0.0)))
                return Drop((*pieces, marker), result is None, 1)
        raise AssertionError(f"a drop at {x} mm, {degrees} degrees")

    monkeypatch.setattr(ai, "simulate", simulate)
    monkeypatch.setattr(ai, "waste", lambda pieces: pieces[-1].angle / 1000)
    return calls


def _place(wobble: str, legal: list[str]) -> str:
    view = {**TOSS.observe(new(5), 0), "wobble": wobble}
    return ai.choose(view, legal, OneSigmaHand(0))


CAN_SPOTS = [f"place can {x} 0" for x in range(X_STEPS)]


def test_ai_with_steady_hands_takes_the_least_waste(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without wobble the AI drops where the exact drop wastes least; with the house wobble
    it tries its best three again shaken and rules out one that spills."""

    def outcome(spot: int, angle: int, shaken: bool, made: int) -> float | None:
        if not shaken:
            return {10: 1.0, 8: 2.0, 6: 3.0}.get(spot, 10.0 + spot)
        return {10: None, 8: 50.0, 6: 5.0}.get(spot, 20.0)

    calls = stand_in_bin(monkeypatch, outcome)
    assert _place("steady", CAN_SPOTS) == "place can 10 0"
    assert not any(shaken for _, _, shaken in calls)
    calls.clear()
    assert _place("house", CAN_SPOTS) == "place can 6 0"
    shaken = [(spot, angle) for spot, angle, wobbled in calls if wobbled]
    assert sorted(shaken) == sorted([(10, 0), (8, 0), (6, 0)] * ai.SHAKES)


def test_ai_judges_a_candidate_by_its_spills_then_its_worst_shake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fewer of its shaken drops spill the better; among equals the worst waste counts."""

    def outcome(spot: int, angle: int, shaken: bool, made: int) -> float | None:
        if not shaken:
            return {10: 1.0, 8: 2.0, 6: 3.0}.get(spot, 10.0 + spot)
        if spot == 10:  # two spills in three
            return None if made < 2 else 100.0
        if spot == 8:  # one spill in three
            return None if made < 1 else 200.0
        return None  # three spills

    stand_in_bin(monkeypatch, outcome)
    assert _place("house", CAN_SPOTS) == "place can 8 0"


def test_ai_rescue_tries_more_spots_and_turns_when_the_first_pass_spills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When every first-pass drop spills the AI tries the other spots at the rescue turns
    (0, 45, 90, 135 degrees) and takes the least waste; when all spill, any legal drop."""
    legal = [f"place can {x} {a}" for x in range(11) for a in (0, 15, 45, 90)]

    def outcome(spot: int, angle: int, shaken: bool, made: int) -> float | None:
        if angle == 45:
            return 1.0 + abs(spot - 7)
        if angle == 15:
            return 0.5  # better, but not a rescue turn
        return None

    stand_in_bin(monkeypatch, outcome)
    assert _place("steady", legal) == "place can 7 45"
    stand_in_bin(monkeypatch, lambda spot, angle, shaken, made: None)
    assert _place("steady", legal) in legal


def test_views_show_the_game_as_it_stands_after_a_spill() -> None:
    """(rulebook: a spill takes the top counter minus side up and the bin is pre-filled
    again) Every field of a view after a spill, as the renderers read it."""
    state = placing(2, [2, 3], pieces=(OUTSIDE,), last_drop=None, step=7)
    seat = state.turn
    assert seat == 0
    applied = TOSS.apply(state, seat, "place can 10 45")
    assert [str(event.text) for event in applied.events] == [
        "{p0} drops a tin can and garbage falls out! {p0} loses 1 point.",
        "The bin is emptied and pre-filled again.",
    ]
    after = applied.state
    view = TOSS.observe(after, 1)
    assert view["game"] == "toss" and view["seat"] == 1 and view["seats"] == 2
    assert view["wobble"] == "steady" and view["step"] == 8 and view["round"] == 1
    assert view["phase"] == "place" and view["to_act"] == [1] and view["turn"] == 1
    assert view["colours"] == list(after.colours)
    assert view["mice"] == [COLOURS[colour] for colour in after.colours]
    assert view["hand_sizes"] == [2, 2] and view["deck_sizes"] == [7, 7]
    assert view["order"] == [0, 1] and view["to_place"] == 3 and view["kind"] is None
    assert view["counters"] == [2, 3, 4, 5, 6]
    assert view["taken"] == [[-1], []] and view["scores"] == [-1, 0]
    assert view["taken_log"] == [{"round": 1, "seat": 0, "value": -1}]
    assert view["last_drop"] == [grid_x(10), 45.0]
    assert view["dropped_at"] == -1 and view["spilled_at"] == 8
    assert view["supply"] == dict(zip(KINDS, after.supply, strict=True))
    assert view["bin"] == [
        {"kind": p.kind, "x": p.x / 10, "y": p.y / 10, "angle": p.angle / 1000}
        for p in after.pieces
    ]
    assert len(view["spill"]) == 2
    assert view["spill"] == [
        {"kind": p.kind, "x": p.x / 10, "y": p.y / 10, "angle": p.angle / 1000} for p in after.spill
    ]
    assert view["spill"][0]["kind"] == "can" and view["spill"][0]["x"] > BIN_WIDTH
    assert view["finished"] is False and view["hand"] == list(after.hands[1])
    assert view["my_choice"] == 3
    # A seat number past the table is not a player: no hand, no choice.
    assert TOSS.observe(after, 2)["hand"] is None
    assert TOSS.observe(after, 2)["my_choice"] is None


def test_a_piece_of_a_kind_that_has_run_out_is_refused_by_name() -> None:
    """(rulebook: pieces of the first kind chosen until none is left, then another) The
    refusals name the kind that has run out, or the kind the turn is bound to."""
    state = placing(2, [3, 3], supply=(10, 0, 10, 10))
    seat = state.turn
    assert seat is not None
    with pytest.raises(IllegalAction, match=r"^There are no tin cans left in the supply\.$"):
        TOSS.apply(state, seat, "place can 10 0")
    bound = replace(state, kind="carton", supply=(10, 1, 10, 10))
    with pytest.raises(
        IllegalAction, match=r"^This turn places milk cartons until they run out\.$"
    ):
        TOSS.apply(bound, seat, "place can 10 0")


def test_each_drop_draws_its_own_wobble_from_the_game_seed() -> None:
    """(house rule: one seeded generator per game; the wobble shifts each drop a little)
    The same aim twice wobbles differently, and so does the same drop in another game;
    each drop counts one draw."""
    state = placing(2, [3, 3], pieces=(), wobble="house")
    seat = state.turn
    assert seat is not None
    one = TOSS.apply(state, seat, "place can 10 0").state
    assert one.counter == state.counter + 1
    two = TOSS.apply(one, seat, "place can 10 0").state
    assert two.counter == one.counter + 1
    assert one.last_drop is not None and two.last_drop is not None
    assert one.last_drop[0] != two.last_drop[0]
    other = TOSS.apply(replace(state, seed=state.seed + 1), seat, "place can 10 0").state
    assert other.last_drop is not None and other.last_drop[0] != one.last_drop[0]
    x, angle = wobbled(grid_x(10), 0, "house", rng_for(state.seed, "drop", state.counter))
    assert one.last_drop == (round(x * 10), round(math.degrees(angle) * 10))


def test_a_new_round_starts_with_nobody_placing() -> None:
    """(rulebook: after the round everyone draws a card and lays down a new one) The new
    round has no turn order, nobody placing and no kind bound until the cards are up."""
    state = placing(2, [1, 1])
    for _ in range(2):
        seat = state.turn
        assert seat is not None
        state = TOSS.apply(state, seat, "place can 10 0").state
    assert state.round == 2 and state.phase == "choose"
    assert state.order == () and state.turn_index == 0
    view = TOSS.observe(state, None)
    assert view["order"] == [] and view["turn"] is None
    assert view["to_place"] == 0 and view["kind"] is None


def test_the_game_ends_when_everyone_has_played_their_last_card() -> None:
    """(rulebook: the game ends when all players have played their last card)"""
    state = placing(2, [1, 1])
    state = replace(state, round=5, hands=((), ()), decks=((), ()))
    for _ in range(2):
        seat = state.turn
        assert seat is not None
        applied = TOSS.apply(state, seat, "place can 10 0")
        state = applied.state
    assert state.finished and state.round == 6
    assert str(applied.events[-1].text).startswith("The game is over:")


def test_ai_among_equally_safe_drops_takes_the_mildest_worst_shake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When no shaken drop spills anywhere, the worst waste of each candidate's shakes
    decides, whatever the random tie-break (tried with several generators)."""

    def outcome(spot: int, angle: int, shaken: bool, made: int) -> float | None:
        if not shaken:
            return {10: 1.0, 8: 2.0, 6: 3.0}.get(spot, 10.0 + spot)
        return {10: 90.0, 8: 40.0, 6: 60.0}.get(spot, 99.0)

    stand_in_bin(monkeypatch, outcome)
    view = {**TOSS.observe(new(5), 0), "wobble": "house"}
    for seed in range(6):
        assert ai.choose(view, CAN_SPOTS, OneSigmaHand(seed)) == "place can 8 0"


def test_ai_with_one_drop_open_takes_it_whatever_the_wobble() -> None:
    """A single legal drop is the AI's drop, shaken candidates or not."""
    view = TOSS.observe(replace(new(5), wobble="house"), 0)
    assert ai.choose(view, ["place can 10 0"], random.Random(0)) == "place can 10 0"

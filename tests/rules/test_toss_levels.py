"""Toss It in the Trash: the easy and hard levels, and the worlds the hard level samples.

- `sample` draws a whole state the seat cannot tell from the real one: its view of the
  sample is its view of the game, at every position of a seeded game and for every seat,
  while the hidden parts (other hands, draw piles, the seed behind future wobbles) vary;
- every level is seeded (same view and seed, same choice) and only returns legal actions;
- easy's named habits: it forgets that lower cards go first, and never turns a piece;
- hard counts the game out: with the last counter left and the bin full to the top it
  lays down its biggest card, so the others drop first (normal plays its smallest).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from rules.base import Level
from rules.toss import ai, levels
from rules.toss.ai import random_choice
from rules.toss.bin import X_STEPS, Drop, Piece, grid_x
from rules.toss.bin import simulate as real_simulate
from rules.toss.engine import CHOOSE, PLACE, TOSS, State
from rules.toss.sample import sample

LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


@cache
def positions() -> tuple[State, ...]:
    """Every position of a seeded three-player game played to its end with random cards
    and drops (random drops spill often: refills, counters and spills get covered)."""
    state = TOSS.new_game(3, {}, 11)
    rng = random.Random(11)
    seen = [state]
    while TOSS.outcome(state) is None:
        seat = min(TOSS.to_act(state))
        state = TOSS.apply(state, seat, random_choice(TOSS.legal_actions(state, seat), rng)).state
        seen.append(state)
    return tuple(seen)


def test_a_sample_looks_the_same_as_the_game_to_its_seat() -> None:
    games = positions()
    assert games[-1].finished
    for index, state in enumerate(games[::2]):
        for seat in range(state.seats):
            view = TOSS.observe(state, seat)
            world = sample(view, random.Random(index))
            assert TOSS.observe(world, seat) == view, (index, seat)


def test_a_sample_can_be_played_on() -> None:
    """The sampled hands hold the cards the seats must lay down."""
    for index, state in enumerate(positions()[:40:3]):
        for seat in TOSS.to_act(state):
            world = sample(TOSS.observe(state, seat), random.Random(index))
            for other in TOSS.to_act(world):
                action = TOSS.legal_actions(world, other)[0]
                TOSS.apply(world, other, action)


def test_the_hidden_parts_vary_between_samples() -> None:
    state = TOSS.new_game(3, {}, 5)
    view = TOSS.observe(state, 0)
    worlds = [sample(view, random.Random(n)) for n in range(20)]
    assert len({w.hands[1] for w in worlds}) > 5  # another seat's hand
    assert len({w.decks[0] for w in worlds}) > 5  # own draw pile's order
    assert len({w.seed for w in worlds}) == 20  # future wobbles and pre-fills
    assert {w.hands[0] for w in worlds} == {state.hands[0]}  # own hand as seen


def test_a_card_laid_down_face_down_is_sampled_from_the_seats_cards() -> None:
    state = TOSS.apply(
        TOSS.new_game(3, {}, 5), 1, "choose " + str(TOSS.new_game(3, {}, 5).hands[1][0])
    ).state
    view = TOSS.observe(state, 0)
    laid = {sample(view, random.Random(n)).chosen[1] for n in range(30)}
    assert None not in laid and len(laid) > 3


def a_choice(seed: int) -> State:
    return TOSS.new_game(3, {}, seed)


def a_drop(seed: int) -> State:
    state = TOSS.new_game(3, {}, seed)
    for seat in range(3):
        state = TOSS.apply(state, seat, TOSS.legal_actions(state, seat)[-1]).state
    assert state.phase == PLACE
    return state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("position", [a_choice, a_drop])
def test_each_level_is_seeded_and_legal(level: Level, position: object) -> None:
    state = position(4)  # type: ignore[operator]
    seat = min(TOSS.to_act(state))
    view = TOSS.observe(state, seat)
    legal = TOSS.legal_actions(state, seat)
    first = TOSS.choose(view, legal, random.Random(9), level)
    assert first in legal
    assert TOSS.choose(view, legal, random.Random(9), level) == first


def test_easy_forgets_that_lower_cards_go_first() -> None:
    # Room for 11 to 18 pieces: a 10 fits if it placed first, not after others' cards.
    views = [TOSS.observe(state, 0) for state in positions()]
    view = next(v for v in views if 11 < ai.room_left(v) < 18 and sum(v["supply"].values()) > 18)
    legal = ["choose 2", "choose 5", "choose 10"]
    assert levels.choose_easy(view, legal, random.Random(1)) == "choose 10"
    assert ai.choose(view, legal, random.Random(1)) != "choose 10"


def test_easy_never_turns_a_piece() -> None:
    """Where the normal level turns a box at least once, easy drops every piece as it comes."""
    drops = [s for s in positions() if s.phase == PLACE][:20:5]
    easy, normal = set(), set()
    for index, state in enumerate(drops):
        seat = min(TOSS.to_act(state))
        view, legal = TOSS.observe(state, seat), TOSS.legal_actions(state, seat)
        easy.add(levels.choose_easy(view, legal, random.Random(index)).split()[3])
        normal.add(ai.choose(view, legal, random.Random(index)).split()[3])
    assert easy == {"0"}
    assert normal != {"0"}


def _simulated(
    monkeypatch: pytest.MonkeyPatch, spill: bool = False
) -> list[tuple[str, float, float]]:
    """Record every drop the AI simulates (kind, x, angle); with `spill`, every one spills."""
    made: list[tuple[str, float, float]] = []

    def simulate(pieces: tuple[Piece, ...], kind: str, x: float, angle: float) -> Drop:
        made.append((kind, x, angle))
        return Drop(pieces, True, 1) if spill else real_simulate(pieces, kind, x, angle)

    monkeypatch.setattr(ai, "simulate", simulate)
    return made


AIMED = {(grid_x(spot), 0.0) for spot in levels.EASY_AIM}  # easy's drops: upright, middle


def test_easy_aims_at_the_middle_and_trusts_one_exact_drop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Easy tries its drops at the middle spots only, exactly where it aims, and takes the
    best of those as it is: normal tries spots out to the walls and drops shaken by a
    wobble before it trusts one."""
    state = next(s for s in positions() if s.phase == PLACE)
    seat = min(TOSS.to_act(state))
    view, legal = TOSS.observe(state, seat), TOSS.legal_actions(state, seat)
    made = _simulated(monkeypatch)
    action = levels.choose_easy(view, legal, random.Random(2))
    assert int(action.split()[2]) in levels.EASY_AIM
    assert {(x, angle) for _, x, angle in made} <= AIMED and len(made) == len(set(made))
    made.clear()
    ai.choose(view, legal, random.Random(2))
    spots = {x for _, x, angle in made if angle == 0.0}
    assert min(spots) < min(x for x, _ in AIMED) < max(x for x, _ in AIMED) < max(spots)
    assert any((x, angle) not in AIMED and angle != 0.0 for _, x, angle in made)  # turned
    assert any(x not in map(grid_x, range(X_STEPS)) for _, x, _ in made)  # shaken off the grid


def test_easy_drops_anyway_when_every_drop_it_tries_spills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Easy does not see how near the top the pile is: when every drop it tries spills it
    lets go at one of them all the same; normal looks for a rescue at other spots and
    turns first."""
    state = next(s for s in positions() if s.phase == PLACE)
    seat = min(TOSS.to_act(state))
    view, legal = TOSS.observe(state, seat), TOSS.legal_actions(state, seat)
    made = _simulated(monkeypatch, spill=True)
    action = levels.choose_easy(view, legal, random.Random(2))
    assert (grid_x(int(action.split()[2])), 0.0) in AIMED and action.endswith(" 0")
    assert {(x, angle) for _, x, angle in made} <= AIMED
    made.clear()
    ai.choose(view, legal, random.Random(2))
    assert len(made) > ai.FIRST_PASS  # the first pass and the rescue


def full_bin_last_counter() -> State:
    """The last counter on the stack, seat 0 ahead unless it spills, plenty of supply, and
    a bin heaped to its top: a row of cans lying across the bin above the rim (the card
    choice reads only the skyline)."""
    state = positions()[0]
    pieces = tuple(Piece("can", x, 3800, 0) for x in range(100, 1500, 100))
    return replace(
        state,
        pieces=pieces,
        supply=(5, 5, 5, 5),
        counters=(6,),
        taken=((3,), (2, -4), (1, -5)),
        phase=CHOOSE,
        hands=((1, 10), (3, 4), (5, 6)),
    )


def test_hard_lets_the_others_drop_first_into_a_full_bin_at_the_end() -> None:
    state = full_bin_last_counter()
    view = TOSS.observe(state, 0)
    assert ai.room_left(view) < levels.SPILL_CHANCE[0][0]
    legal = TOSS.legal_actions(state, 0)
    assert levels.choose_hard(TOSS, view, legal, random.Random(3)) == "choose 10"
    assert ai.choose(view, legal, random.Random(3)) == "choose 1"

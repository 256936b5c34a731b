"""Trash War's plans (issue 55, "one decision, one press"): the moves that only lead to the
next decision, listed with the moves after them (`rules.trashwar.plans`).

Each test says which rule it checks, as in `test_trashwar.py`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules.trashwar import TRASH_WAR, State
from rules.trashwar import plans as planning
from rules.trashwar.actions import Discard
from rules.trashwar.plans import plans
from rules.trashwar.sample import sample
from rules.trashwar.state import ATTACK, BURNING, DEFEND
from tests.rules.test_trashwar import build


def decisions(seeds: range, seats: int) -> Iterator[tuple[State, int, list[str]]]:
    """Every decision of seeded games of random play: the state, the seat, its moves."""
    for seed in seeds:
        rng, state = random.Random(seed), TRASH_WAR.new_game(seats, {}, seed)
        while TRASH_WAR.outcome(state) is None and state.step < 400:
            (seat,) = TRASH_WAR.to_act(state)
            legal = TRASH_WAR.legal_actions(state, seat)
            yield state, seat, legal
            state = TRASH_WAR.apply(state, seat, rng.choice(legal)).state


def after(state: State, seat: int, action: str) -> list[str]:
    """The seat's moves, one of each decision, once `action` is played on the real state."""
    following = TRASH_WAR.apply(state, seat, action).state
    return TRASH_WAR.one_of_each(following, TRASH_WAR.legal_actions(following, seat))


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_the_redraw_waits_for_the_turns_end_so_a_pass_leads_to_the_same_hands_attack(
    seats: int,
) -> None:
    """(house rule: hands refill to five at the Re-draw, the end of the turn; rulebook:
    phase 2, burn or repair, then phase 3, the counter-attack) a pass draws nothing, so
    the attacks open after it are known before it: the plans of a pass are exactly the
    moves the engine opens once the pass is played, one of each decision, and the hand
    they are made with is the hand held while deciding."""
    seen = 0
    for state, seat, legal in decisions(range(4), seats):
        listed = plans(TRASH_WAR.observe(state, seat), legal)
        if state.phase != BURNING or "pass" not in legal:
            assert "pass" not in listed
            continue
        played = TRASH_WAR.apply(state, seat, "pass").state
        assert played.hands[seat] == state.hands[seat] and played.phase == ATTACK
        assert listed["pass"] == after(state, seat, "pass")
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_a_mace_swung_is_aimed_in_the_same_decision(seats: int) -> None:
    """(rulebook: "if you use a Mace card, you may immediately bat incoming trash at
    another player's fortress") the Mace's card says whom it bats at, and their walls are
    on the table: the plans of each swing are exactly where the engine then lets the trash
    fly."""
    seen = 0
    for state, seat, legal in decisions(range(8), seats):
        swings = [a for a in legal if a.startswith("play mace")]
        listed = plans(TRASH_WAR.observe(state, seat), legal)
        if state.phase != DEFEND:
            assert not set(swings) & set(listed)
            continue
        for swing in swings:
            assert listed[swing] == after(state, seat, swing)
            seen += 1
    assert seen >= 5


def test_plans_read_only_what_the_seat_sees() -> None:
    """(house rule: hands are secret) the plans come from the seat's own view: any world
    that view allows (other hands and the draw pile dealt at random) gives the same."""
    state = build(
        3,
        hands={0: ["toaster2", "car1", "burn3", "mace-left"]},
        walls={0: [["teeth1"], [], []]},
        phase="burn",
    )
    view = TRASH_WAR.observe(state, 0)
    legal = TRASH_WAR.legal_actions(state, 0)
    listed = plans(view, legal)
    assert listed == {"pass": after(state, 0, "pass")} and len(listed["pass"]) == 12
    rng = random.Random(1)
    for _ in range(5):
        world = sample(view, rng)
        assert plans(TRASH_WAR.observe(world, 0), legal) == listed


def test_a_discard_is_never_planned_as_the_card_drawn_may_be_thrown_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(rulebook: with no Trash card, discard 1 card and draw a replacement; a Trash card
    drawn must be played immediately) what comes after a discard depends on the card
    drawn, which nobody sees beforehand: even offered as a first move, a discard gets no
    plan, the draw giving it away (in the seat's view of the table the draw pile is
    unknown: the recycle pile is shuffled into it and a card drawn, told the drawer
    only)."""
    state = build(
        3, hands={0: ["shield2", "burn3"]}, draw_top=["toaster2"], recycle=["tv2"], phase="attack"
    )
    legal = TRASH_WAR.legal_actions(state, 0)
    assert legal == ["discard burn3", "discard shield2"]
    assert plans(TRASH_WAR.observe(state, 0), legal) == {}
    monkeypatch.setattr(planning, "FIRSTS", (*planning.FIRSTS, Discard))
    monkeypatch.setattr(planning, "PHASES", (*planning.PHASES, ATTACK))
    assert plans(TRASH_WAR.observe(state, 0), legal) == {}
    # Drawn from the real draw pile, the toaster would be thrown at once after either.
    assert TRASH_WAR.apply(state, 0, legal[0]).state.phase == "drawn"

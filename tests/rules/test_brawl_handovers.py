"""Dumpster Brawl!: cards handed from one hand into another are kept on record for the board
(issue 14: "cards moved between hands shown by count and direction"): who gave, who got, how
many and at which step, never which cards.

Cards go straight from hand to hand in four ways (rulebook: the fight's winner takes a
random card from the loser or puts one into their hand; house rules: Raccoon Raid, Quick
Swap). Same conventions as `test_brawl.py`, whose hand-made tables these tests use.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.brawl.engine import BRAWL, State
from rules.brawl.state import HANDOVERS_KEPT, Handover
from tests.rules.test_brawl import _draw_blocker, _fight, build, play


def moved(state: State, step: int) -> Counter[tuple[int, int]]:
    """Cards handed over at `step` on record, by (giver, receiver)."""
    return (
        Counter({(h.giver, h.receiver): h.cards for h in state.handovers if h.step == step})
        + Counter()
    )


def changed_hands(before: State, after: State) -> Counter[tuple[int, int]]:
    """Cards that were in one hand before and are in another after, by (giver, receiver)."""
    where = {card: seat for seat, hand in enumerate(before.hands) for card in hand}
    return Counter(
        (where[card], seat)
        for seat, hand in enumerate(after.hands)
        for card in hand
        if card in where and where[card] != seat
    )


@pytest.mark.parametrize(
    ("how", "table", "actions", "pairs"),
    [
        ("the winner takes", lambda: _fight(3, 3), ["keep", "keep", "take", "take"], {(0, 1)}),
        ("the winner gives", lambda: _fight(5, 0), ["keep", "keep", "give slug"], {(0, 1)}),
        (
            "Quick Swap",
            lambda: build({0: ["swap", "slug"], 1: ["fish"], 2: ["milk"]}),
            ["play swap p1 slug"],
            {(0, 1), (1, 0)},
        ),
    ],
)
def test_each_card_handed_over_is_recorded_with_its_step(how, table, actions, pairs) -> None:
    """(rulebook: spoils; house rule: Quick Swap) Each action that hands cards over records
    them, one card a record, at the step the action made."""
    state = table()
    for action in actions:
        after = play(state, action)
        assert moved(after, after.step) == changed_hands(state, after), (how, action)
        state = after
    assert {(h.giver, h.receiver) for h in state.handovers} == pairs


def test_a_raccoon_raid_is_recorded_from_the_drawer_to_the_left() -> None:
    """(house rule: Raccoon Raid) The left neighbour's random card from the drawer is on
    record: one card from seat 0 to seat 1, at the draw's step."""
    state = _draw_blocker("raid")
    assert state.handovers == (Handover(state.step, 0, 1, 1),)


def test_every_card_that_changes_hands_in_random_games_is_on_record() -> None:
    """Whatever way cards go from hand to hand, the record of the step says so exactly, and
    only the latest records are kept. Seeded random games in every mode, four seats."""
    ways: Counter[str] = Counter()
    for mode in ("round-rummage", "king-of-the-heap", "rummy"):
        for seed in range(3):
            rng, state = random.Random(seed), BRAWL.new_game(4, {"mode": mode}, seed)
            while BRAWL.outcome(state) is None and state.step < 300:
                seat = min(BRAWL.to_act(state))
                action = rng.choice(BRAWL.legal_actions(state, seat))
                after = BRAWL.apply(state, seat, action).state
                assert moved(after, after.step) == changed_hands(state, after), action
                assert len(after.handovers) <= HANDOVERS_KEPT
                if moved(after, after.step):
                    ways[action.split()[0]] += 1
                state = after
    assert {"take", "give"} <= set(ways)

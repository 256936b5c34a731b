"""Rumble in the Dungeon: how the AI weighs a board and breaks stand-offs, checked by the
choices it makes on hand-made dungeons (rules/rumble/ai.py's docstring states each habit).

The boards are the open layout's (every neighbour joined; entrance A3, chest room D1).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from rules.rumble import ai
from rules.rumble.dungeon import distances, passage
from rules.rumble.engine import RUMBLE, State
from tests.rules.test_rumble import ALL, OPEN, make_state

SECRETS = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]  # seat 0: knight


def picks(state: State, seeds: int = 60) -> Counter[str]:
    """Seat 0's choices over `seeds` random streams, each checked legal."""
    legal = RUMBLE.legal_actions(state, 0)
    view = RUMBLE.observe(state, 0)
    chosen: Counter[str] = Counter()
    for seed in range(seeds):
        action = RUMBLE.choose(view, legal, random.Random(seed))
        assert action in legal
        chosen[action] += 1
    return chosen


def crowds(state: State, action: str) -> bool:
    """Whether `action` is a move into a room that already holds someone."""
    words = action.split()
    if words[0] != "move":
        return False
    goal = passage(OPEN, state.positions[words[1]], words[2])
    return goal in state.positions.values()


@pytest.fixture
def calm(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI without its occasional stand-off-breaking whim."""
    monkeypatch.setattr(ai, "STIR_CHANCE", 0.0)


@pytest.fixture
def stirring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI taking its stand-off-breaking whim on every turn."""
    monkeypatch.setattr(ai, "STIR_CHANCE", 1.0)


def quiet_dungeon() -> State:
    """Everyone alone, so no fight: the Knight (ours) in B2, the chest in D1, two steps from
    C2 and three from B2; our Wizard alone in A1."""
    return make_state(
        {"knight": "B2", "troll": "C3", "wizard": "A1", "cube": "D3", "bard": "B1"},
        chest="D1",
        secrets=SECRETS,
    )


def test_with_nothing_better_to_do_the_ai_walks_its_character_toward_the_chest(
    calm: None,
) -> None:
    """Our character alone, with no fight to pick, is pulled toward the chest, counting steps
    through passages (ai: a pull toward the chest for a character of ours)."""
    state = quiet_dungeon()
    to_chest = distances(OPEN, "D1")
    assert to_chest["C2"] < to_chest["B2"]
    assert picks(state) == Counter({"move knight E": 60})


def test_the_whim_picks_a_crowding_move_nearly_as_good_as_the_best(stirring: None) -> None:
    """When the whim strikes, the AI plays a move into an occupied room instead of its quiet
    best, choosing among several at random (ai: stand-offs are broken by fights, exits and
    crowding moves that look nearly as good)."""
    state = quiet_dungeon()
    chosen = picks(state)
    assert all(crowds(state, action) for action in chosen), chosen
    assert len(chosen) >= 3


def test_the_whim_may_pick_a_fight_or_a_crowding_move(stirring: None) -> None:
    """A fight stirs things up too: with fights on offer the whim picks fights and crowding
    moves, never a quiet one (ai: STIR_CHANCE)."""
    state = make_state(
        {"knight": "B2", "troll": "C3", "cube": "C3", "wizard": "A1", "bard": "B1"},
        chest="D1",
        secrets=SECRETS,
    )
    chosen = picks(state)
    assert any(action.startswith("fight") for action in chosen), chosen
    assert any(crowds(state, action) for action in chosen), chosen
    assert all(action.startswith("fight") or crowds(state, action) for action in chosen)


def test_the_whim_never_picks_a_move_far_worse_than_the_best(stirring: None) -> None:
    """Crowding the AI's own lone character would cost it dearly: the whim leaves such moves
    alone and keeps to a fight or a harmless crowding move (ai: only actions within
    STIR_MARGIN of the best)."""
    state = make_state(
        {"knight": "B2", "wizard": "A1", "goblin": "A1", "bard": "B1", "troll": "D3"},
        chest="D1",
        secrets=SECRETS,
    )
    chosen = picks(state, seeds=100)
    # The Bard stepping south, or the Knight north, would leave the Knight in company.
    assert set(chosen) == {"fight goblin", "move bard W"}, chosen


def test_an_impatient_ai_plays_at_random_but_never_throws_out_its_own(calm: None) -> None:
    """Far more actions than usual without anyone leaving make the AI play a random action
    about half the time, still never one throwing out its own character while it has another
    choice (ai: impatience; never throws out its own)."""
    state = quiet_dungeon()
    # Seven are out (make_state's exit line): 20 + 8 x 7 actions are allowed beyond the
    # seven that took them out.
    patient = replace(state, step=7 + 20 + 8 * 7)
    assert ai.impatience(RUMBLE.observe(patient, 0)) == 0
    assert picks(patient) == Counter({"move knight E": 60})
    restless = picks(replace(state, step=10_000), seeds=100)
    assert 30 <= 100 - restless["move knight E"] <= 70, restless
    fights = make_state(
        {"knight": "B2", "troll": "B2", "wizard": "C3", "cleric": "C3"}, secrets=SECRETS
    )
    chosen = picks(replace(fights, step=10_000), seeds=100)
    assert set(chosen) == {"fight troll", "fight cleric"}, chosen


def view(step: int, rumbles_done: int, out: int, chest_gone: bool) -> dict[str, Any]:
    """The parts of an observation that impatience reads."""
    return {
        "step": step,
        "history": [{}] * rumbles_done,
        "exit_line": ["x"] * out,
        "chest_exited_with": "thief" if chest_gone else None,
    }


@pytest.mark.parametrize(
    ("step", "rumbles_done", "out", "chest_gone", "expected"),
    [
        (0, 0, 0, False, 0),
        (20, 0, 0, False, 0),  # each rumble may take 20 actions with nobody leaving
        (25, 0, 0, False, 5),
        (3 + 20 + 24 + 10, 0, 3, False, 10),  # and 8 more per character gone
        (4 + 20 + 32 + 1, 0, 3, True, 1),  # the chest's bearer is gone too
        (11 + 40 + 88 + 7, 1, 0, False, 7),  # a finished rumble: 11 gone and 20 more
        (24 + 60 + 192, 2, 2, False, 0),  # 24 gone after two rumbles and two fights
        (24 + 60 + 192 + 2, 2, 2, False, 2),
    ],
)
def test_impatience_counts_actions_beyond_those_allowed(
    step: int, rumbles_done: int, out: int, chest_gone: bool, expected: int
) -> None:
    """Impatience is the number of actions played beyond 20 per rumble so far plus 8 per
    character gone, after taking off one action for each character gone (ai: it counts the
    actions played against the characters gone)."""
    assert ai.impatience(view(step, rumbles_done, out, chest_gone)) == expected


def test_the_ai_plays_on_after_its_character_got_away_with_the_chest(calm: None) -> None:
    """Once its character has left with the chest, that one has its prize; the AI plays on
    for its other character, throwing out whoever stands with it (ai: one that got away with
    the chest has its prize)."""
    state = make_state(
        {"wizard": "B2", "troll": "B2", "cube": "C3"}, exited="knight", chest=None, secrets=SECRETS
    )
    assert picks(state) == Counter({"fight troll": 60})


def test_the_ai_refuses_to_choose_from_nothing() -> None:
    """Asked to choose with no legal action, the AI says so (ai: choose)."""
    state = quiet_dungeon()
    with pytest.raises(ValueError, match=r"^No legal action to choose from\.$"):
        ai.choose(RUMBLE.observe(state, 0), [], random.Random(0))


def test_with_two_characters_left_the_ai_still_heads_for_the_chest(calm: None) -> None:
    """The rumble is not over while two characters remain: the AI's lone character keeps
    walking toward the chest rather than idling (ai: a pull toward the chest)."""
    state = make_state({"knight": "B2", "troll": "D3"}, chest="D1", secrets=SECRETS)
    assert set(picks(state)) == {"move knight N", "move knight E"}  # both two steps from D1


def test_the_ai_does_not_carry_the_chest_into_the_entrance_for_another(calm: None) -> None:
    """Another character standing in the entrance with the chest could leave with it next
    turn: the AI never brings that about (ai: the chest in the entrance with only others
    beside it is a risk)."""
    state = make_state(
        {"troll": "A2", "knight": "C1", "wizard": "D3", "cube": "B3", "bard": "B1"},
        chest="A2",
        secrets=SECRETS,
    )
    assert "move troll S chest" in RUMBLE.legal_actions(state, 0)
    assert picks(state) == Counter({"move troll E chest": 60})


def test_the_ai_frees_its_chest_bearer_with_a_fight(calm: None) -> None:
    """Our character holds the chest in company: throwing out its companion leaves it alone
    with the chest, which beats walking off with it (ai: a fight leaves the chest where it
    is; a lone bearer is fairly safe)."""
    state = make_state(
        {"knight": "B3", "troll": "B3", "wizard": "D1", "cube": "C1", "bard": "D2"},
        chest="B3",
        secrets=SECRETS,
    )
    assert picks(state) == Counter({"fight troll": 60})


# --- How the AI values a board -----------------------------------------------------------------
# Where no choice can show it, the valuation itself (ai.value, a board and the set of
# characters backed) is compared on two boards.

MINE = frozenset({"knight", "wizard"})
PLAN = ai.dungeon_map(OPEN)


def finished(last: str, line: tuple[str, ...], exited: str | None = None) -> ai.Board:
    return ai.Board({last: "B2"}, None if exited else "D1", exited, line)


def test_a_finished_rumble_is_worth_its_points_with_the_spare_as_a_little_extra() -> None:
    """Once one character remains, the AI values the board as the rules score it: the
    better character's points, plus SPARE of the other's (ai: only the better fully counts;
    rulebook: places 1 and 2 score nothing, then one more per place; 10 for the last one,
    9 when the chest left with another, who scores 10)."""
    others = [c for c in ALL if c not in MINE and c != "troll"]
    first_two = finished("troll", ("knight", "wizard", *others))
    assert ai.value(first_two, PLAN, MINE) == 0.0
    fifth_and_ninth = ("bard", "goblin", "zombie", "cube", "knight", "thief", "cleric")
    line = (*fifth_and_ninth, "ranger", "wizard", "skeleton", "barbarian")
    assert ai.value(finished("troll", line), PLAN, MINE) == 7 + ai.SPARE * 3
    chest_gone = ("bard", "goblin", "wizard", "cube", "thief", "cleric", "zombie")
    line = (*chest_gone, "ranger", "skeleton", "barbarian")
    assert ai.value(finished("knight", line, exited="troll"), PLAN, MINE) == 9 + ai.SPARE
    assert ai.value(finished("knight", (*line, "troll")), PLAN, MINE) == 10 + ai.SPARE


def test_the_chest_in_the_entrance_beside_another_costs_the_chest_risk() -> None:
    """The same board, but for another character standing in the entrance with the chest,
    is worse by exactly CHEST_RISK (ai: the cost of the chest in the entrance with only
    others beside it)."""
    line = ("bard", "goblin", "zombie", "cube", "thief", "cleric", "ranger")
    positions = {"knight": "C1", "wizard": "D3", "barbarian": "B1", "skeleton": "C3"}
    beside = ai.Board({**positions, "troll": "A3"}, "A3", None, line)
    alone = ai.Board({**positions, "troll": "B3"}, "A3", None, line)
    assert ai.value(alone, PLAN, MINE) - ai.value(beside, PLAN, MINE) == pytest.approx(
        ai.CHEST_RISK
    )
    assert ai.value(alone, PLAN, MINE) > ai.value(beside, PLAN, MINE)

"""Trash War: how a war ends when it cannot go on.

Table rule (docs/rules/README.md): when no knight still in the war holds a card and both the
draw pile and the recycle pile are empty, nobody can ever act again. The war then ends at
once, and the knights still in with the most walls up win, sharing the win on a tie. The
outcome ranks the knights still in by walls up, then the knights out, the last out first.
"""

from __future__ import annotations

from rules.trashwar.engine import TRASH_WAR
from tests.rules.test_trashwar import build, legal, play, texts


def test_a_war_nobody_can_go_on_with_ends_and_the_most_walls_up_share_the_win() -> None:
    """The last card held is torched, nothing is left to draw: the war ends at once (it used
    to pass the turn round for ever) and the two knights with three walls up share it."""
    state = build(3, hands={0: ["catapult+"]}, walls={2: [[], None, []]}, draw=[])
    lines = texts(state, 0, "discard catapult+")
    assert lines[-3:] == [
        "{p1} has no cards left to attack with.",
        "No knight holds a card and none is left to draw: the war can go no further.",
        "{p0} and {p1} share the win, with 3 walls up each.",
    ]
    state = play(state, 0, "discard catapult+")
    assert state.finished and state.phase == "over"
    assert TRASH_WAR.to_act(state) == frozenset()
    assert all(legal(state, seat) == [] for seat in range(3))
    outcome = TRASH_WAR.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 0, 1) and outcome.winners == (0, 1)
    view = TRASH_WAR.observe(state, None)
    assert view["winners"] == [0, 1] and view["winner"] is None


def test_a_stuck_war_with_one_knight_ahead_on_walls_has_one_winner() -> None:
    """Walls up decide the ranks of the knights still in; a knight out ranks after them."""
    state = build(
        4,
        hands={0: ["catapult+"]},
        walls={1: [None, [], []], 2: [None, [], None]},
        eliminated=[3],
        draw=[],
    )
    state = play(state, 0, "discard catapult+")
    # Bo has a wall to repair: the phase is offered (with nothing to play, only a pass).
    assert legal(state, 1) == ["pass"]
    lines = texts(state, 1, "pass")
    assert lines[-1] == "{p0} has the most walls up (3 walls) and wins the Trash War!"
    state = play(state, 1, "pass")
    outcome = TRASH_WAR.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 1, 2, 3)
    view = TRASH_WAR.observe(state, None)
    assert view["winners"] == [0] and view["winner"] == 0


def test_a_knight_without_cards_passes_while_someone_still_holds_one() -> None:
    """Only a war where nobody holds a card is stuck: with a card still held elsewhere the
    empty-handed knight passes to the left as before (table rule: empty piles)."""
    state = build(3, hands={0: ["catapult+"], 2: ["shield1"]}, draw=[])
    lines = texts(state, 0, "discard catapult+")
    assert lines[-2:] == [
        "{p1} has no cards left to attack with.",
        "Play passes to the left, to {p2}.",
    ]
    assert not play(state, 0, "discard catapult+").finished

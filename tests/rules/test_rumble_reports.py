"""Rumble in the Dungeon: what the engine reports about play, beside the rules themselves.

The trail of moves, fights and exits that boards draw, the lines the log shows at a rumble's
end, what an observation and a finished rumble's reveal hold, and how the next rumble is
dealt. Each test says which rule or promise it checks, as in test_rumble.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import IllegalAction
from rules.rumble.dungeon import ROOMS
from rules.rumble.engine import RUMBLE, State, character_points
from rules.rumble.observation import TraceView
from rules.rumble.state import TRACES_KEPT, Trace
from tests.rules.test_rumble import ALL, MAZE, PAIRS, make_state, play

# --- The trail --------------------------------------------------------------------------------


def test_the_trail_marks_a_move_a_chest_move_a_fight_and_an_exit() -> None:
    """Every action leaves a trace: who, from which room to which ("" once out of the
    dungeon), and how (engine contract: the board draws the traces since its last one)."""
    state = make_state(
        {"knight": "C2", "troll": "B2", "wizard": "B2", "thief": "B3", "cube": "D3"},
        chest="C2",
        rumble=2,
    )
    state = replace(state, step=40)
    state = play(state, 0, "move knight W chest")  # into B2 with the chest
    state = play(state, 1, "move thief E")  # B3 to C3
    state = play(state, 2, "fight troll")
    state = play(state, 0, "move knight S chest")  # B2 to B3
    state = play(state, 1, "move knight W chest")  # B3 to A3, the entrance
    state = play(state, 2, "exit knight")
    assert state.trail == (
        Trace(41, 2, "knight", "C2", "B2", "chest"),
        Trace(42, 2, "thief", "B3", "C3", "move"),
        Trace(43, 2, "troll", "B2", "", "fight"),
        Trace(44, 2, "knight", "B2", "B3", "chest"),
        Trace(45, 2, "knight", "B3", "A3", "chest"),
        Trace(46, 2, "knight", "A3", "", "exit"),
    )
    view = RUMBLE.observe(state, None)
    assert view["trail"] == [
        TraceView(
            step=t.step,
            rumble=t.rumble,
            character=t.character,
            start=t.start,
            goal=t.goal,
            kind=t.kind,
        )
        for t in state.trail
    ]


def test_the_trail_keeps_only_the_newest_traces() -> None:
    """A long rumble keeps the newest TRACES_KEPT traces, oldest first, numbered by the
    step that made them (engine contract: a board needs only the latest ones)."""
    state = make_state({"knight": "B2", "troll": "D3"})
    sides = ["E", "W"] * 10  # the Knight paces between B2 and C2
    for turn, side in enumerate(sides):
        state = play(state, turn % 3, f"move knight {side}")
    assert len(state.trail) == TRACES_KEPT == 12
    assert [t.step for t in state.trail] == list(range(9, 21))
    assert [(t.start, t.goal) for t in state.trail[:2]] == [("B2", "C2"), ("C2", "B2")]
    assert all(t.kind == "move" and t.character == "knight" for t in state.trail)


# --- The log at a rumble's end ----------------------------------------------------------------


def test_the_end_of_a_rumble_tells_who_got_away_with_the_chest() -> None:
    """When the chest left with someone, the rumble's end says so after the last one
    standing (rulebook: the chest's bearer scores)."""
    state = make_state({"thief": "A3", "troll": "C1"}, chest="A3")
    applied = RUMBLE.apply(state, 0, "exit thief")
    assert str(applied.events[1].text) == (
        "Rumble 1 is over: the Troll is the last one standing. The Thief got away with the chest."
    )


def test_the_reveal_says_one_point_and_several_points() -> None:
    """A player's reveal line counts points in good English: "1 point", "3 points"."""
    before = make_state({"knight": "B2", "troll": "B2"}, seats=4, totals=(0, 2, 0, 0))
    texts = [str(event.text) for event in RUMBLE.apply(before, 0, "fight troll").events]
    assert texts[3] == (
        "{p1} was secretly backing the Wizard and the Cleric: 1 point for the Cleric (total 3)."
    )
    assert texts[4] == (
        "{p2} was secretly backing the Barbarian and the Ranger: 3 points for the Ranger (total 3)."
    )


def test_a_starter_drawn_among_the_tied_is_announced_as_drawn() -> None:
    """When several players share the fewest points, the log says the starter was drawn
    among them (table rule: ties for the next start are drawn from the seed)."""
    before = make_state({"knight": "B2", "troll": "B2"}, seats=4, totals=(0, 2, 0, 0))
    applied = RUMBLE.apply(before, 0, "fight troll")
    starter = applied.state.starter
    assert str(applied.events[-1].text) == (
        f"{{p{starter}}} has the fewest points (drawn at random among the tied) and starts "
        "rumble 2."
    )


def test_three_players_sharing_the_win_are_all_named() -> None:
    """Equal top totals share the win (house rule), and the last line names every winner."""
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    # This last rumble scores 10, 9 and 6 (see make_state's exit line).
    state = make_state(
        {"knight": "B2", "troll": "B2"}, secrets=secrets, totals=(10, 11, 14), rumble=3
    )
    applied = RUMBLE.apply(state, 0, "fight troll")
    assert applied.state.totals == (20, 20, 20)
    assert str(applied.events[-1].text) == "{p0}, {p1} and {p2} share the win with 20 points!"


def test_an_unknown_layout_is_refused_with_the_choices() -> None:
    """The lobby option `layout` names a fixed layout or "random"; anything else is refused
    with the list of choices."""
    with pytest.raises(IllegalAction) as caught:
        RUMBLE.new_game(3, {"layout": "castle"}, 1)
    assert str(caught.value) == "There is no layout 'castle': pick random, classic, maze, open."


# --- Observation and reveal -----------------------------------------------------------------


def test_a_finished_game_shows_its_end_in_the_observation() -> None:
    """Once over, the view shows the game finished in its third rumble with no one to act,
    and the chest's fate (engine contract: observe)."""
    state = make_state({"thief": "A3", "troll": "A3", "knight": "A2"}, chest="A3", rumble=3)
    state = play(state, 0, "exit thief")
    during = RUMBLE.observe(state, 1)
    assert during["chest_exited_with"] == "thief" and during["chest"] is None
    assert during["rumble"] == 3 and not during["finished"] and during["to_act"] == [1]
    state = play(state, 1, "move knight S")  # into A3 beside the Troll
    state = play(state, 2, "fight troll")
    assert state.finished
    view = RUMBLE.observe(state, None)
    assert view["finished"] is True and view["to_act"] == [] and view["rumble"] == 3
    assert view["chest_exited_with"] == "thief"


def test_the_history_holds_each_finished_rumble_as_revealed() -> None:
    """A finished rumble's reveal shows every field: the rumble, each pair, the points and
    the character they came from, the last one standing, the chest's bearer and the exit
    line (rulebook: everyone reveals at a rumble's end)."""
    line = [c for c in ALL if c not in ("knight", "thief", "troll")]
    state = make_state(
        {"thief": "A3", "troll": "C1", "knight": "C1"}, chest="A3", rumble=2, exit_line=line
    )
    state = play(state, 0, "exit thief")
    state = play(state, 1, "fight troll")
    (reveal,) = state.history
    (result,) = RUMBLE.observe(state, 0)["history"]
    assert result == {
        "rumble": 2,
        "secrets": [list(pair) for pair in PAIRS[:3]],
        "points": [10, 0, 2],  # the Thief's 10; places 1 and 2; place 4
        "best": ["thief", "wizard", "ranger"],
        "last_standing": "knight",
        "chest_exited_with": "thief",
        "exit_line": [*line, "troll"],
    }
    assert result == reveal.as_result()


# --- Scoring a rumble under way and dealing the next one -------------------------------------


def test_characters_still_in_the_dungeon_have_scored_nothing_yet() -> None:
    """Mid-rumble, only the characters already out have points: those inside score nothing
    until the end (rulebook: scoring happens when one remains)."""
    line = ["goblin", "zombie", "skeleton"]
    state = make_state({"knight": "B2", "troll": "B2", "thief": "C1"}, exit_line=line)
    points = character_points(state)
    assert (points["knight"], points["troll"], points["thief"]) == (0, 0, 0)
    assert points["skeleton"] == 1 and points["goblin"] == 0


def test_after_the_chest_got_away_the_next_rumble_has_it_back() -> None:
    """The next rumble starts afresh: the chest is back in its starting room and nobody has
    left with it (rulebook: after scoring)."""
    state = make_state({"thief": "A1", "troll": "C1"}, chest="A1", layout=MAZE)
    state = play(state, 0, "exit thief")
    assert state.rumble == 2
    assert state.chest == MAZE.treasure_room and state.chest_exited_with is None
    assert RUMBLE.observe(state, None)["chest_exited_with"] is None


def end_rumble(state: State) -> State:
    """The same state with all but the Knight and the Troll gone, then the Troll thrown out."""
    kept = {"knight": "B2", "troll": "B2"}
    line = tuple(c for c in ALL if c not in kept)
    return play(
        replace(state, positions=kept, exit_line=line, chest="D1"), state.turn, "fight troll"
    )


def test_each_rumble_is_dealt_afresh_from_the_seed() -> None:
    """Every rumble places the characters and deals the pairs with a new draw from the
    seed, so two rumbles in a row are not dealt alike (rulebook: after scoring; engine
    contract: the state counts its draws)."""
    state = RUMBLE.new_game(3, {"layout": "open"}, 11)
    assert state.counter == 1
    second = end_rumble(state)
    assert second.rumble == 2 and second.counter == 2
    third = end_rumble(second)
    assert third.rumble == 3 and third.counter == 3
    dealt = [(s.positions, s.secrets) for s in (state, second, third)]
    assert dealt[0] != dealt[1] != dealt[2] != dealt[0]
    assert sorted(third.positions.values()) == sorted(ROOMS)

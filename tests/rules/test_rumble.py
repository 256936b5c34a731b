"""Rumble in the Dungeon: one test per rule, on hand-made dungeons where that reads best.

Each test says which rule it checks: "(rulebook: ...)" paraphrases the published rules,
"(house rule: ...)" the project's house rules, "(table rule: ...)" a choice this engine made
where both are silent (listed in the engine's docstring).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from rules.base import IllegalAction, Outcome
from rules.rumble import ai
from rules.rumble.actions import Move, legal_moves, ordinal, parse_action
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import (
    FIXED_LAYOUTS,
    LAYOUT_CHOICES,
    ROOMS,
    Layout,
    distances,
    is_connected,
    neighbour,
    passage,
    random_layout,
    room_name,
    room_place,
)
from rules.rumble.engine import RUMBLE, Reveal, State, character_points
from rules.rumble.observation import RumbleObservation

OPEN = FIXED_LAYOUTS["open"]  # every neighbour joined; entrance A3, treasure room D1
MAZE = FIXED_LAYOUTS["maze"]  # one corridor; A2 has an east door that meets B2's wall
ALL = list(CHARACTERS)
PAIRS = [(ALL[2 * i], ALL[2 * i + 1]) for i in range(6)]  # knight+thief, wizard+cleric, ...


def make_state(
    positions: dict[str, str],
    *,
    chest: str | None = "D1",
    exited: str | None = None,
    exit_line: list[str] | None = None,
    seats: int = 3,
    turn: int = 0,
    secrets: list[tuple[str, str]] | None = None,
    totals: tuple[int, ...] | None = None,
    rumble: int = 1,
    layout: Layout = OPEN,
    seed: int = 7,
) -> State:
    """A state with a hand-made dungeon. Characters not placed and not gone with the chest
    stand on the exit line (in character order) unless `exit_line` says otherwise."""
    if exit_line is None:
        exit_line = [c for c in ALL if c not in positions and c != exited]
    return State(
        seed=seed,
        seats=seats,
        layout=layout,
        counter=1,
        rumble=rumble,
        starter=turn,
        turn=turn,
        positions=dict(positions),
        chest=chest,
        chest_exited_with=exited,
        exit_line=tuple(exit_line),
        secrets=tuple(secrets or PAIRS[:seats]),
        totals=totals or (0,) * seats,
    )


def crowded_start() -> dict[str, str]:
    """Everyone alone in a room except the Knight and the Troll, who share B2."""
    rooms = [room for room in ROOMS if room != "B2"]
    others = [c for c in ALL if c not in ("knight", "troll")]
    return {"knight": "B2", "troll": "B2", **dict(zip(others, rooms, strict=False))}


def play(state: State, seat: int, action: str) -> State:
    return RUMBLE.apply(state, seat, action).state


def refuse(state: State, seat: int, action: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        RUMBLE.apply(state, seat, action)
    return str(caught.value)


# --- The dungeon --------------------------------------------------------------------------


def test_room_names_run_by_column_letter_and_row_number() -> None:
    """Rooms A1..D3: column letter left to right, row number top to bottom (house rule:
    a 4 x 3 grid of twelve tiles)."""
    assert len(ROOMS) == 12
    assert ROOMS[:4] == ("A1", "B1", "C1", "D1")
    assert room_name(1, 2) == "C2"
    assert room_place("D3") == (2, 3)


@pytest.mark.parametrize("name", list(FIXED_LAYOUTS))
def test_fixed_layouts_are_connected_with_entrance_left_and_treasure_right(name: str) -> None:
    """Every room reaches the entrance, which faces the treasure room across the dungeon
    (rulebook: the two special tiles at opposite ends; house rule: first and last column,
    every tile linked to the entrance)."""
    layout = FIXED_LAYOUTS[name]
    assert is_connected(layout)
    assert layout.entrance[0] == "A" and layout.treasure_room[0] == "D"
    assert len(layout.doors) == 12
    assert all(set(doors) <= set("NESW") for doors in layout.doors)


def test_random_layouts_are_connected_and_vary() -> None:
    """A layout drawn from the seed is redrawn until every room reaches the entrance (house
    rule), with the entrance in column A and the treasure room in column D."""
    layouts = [random_layout(random.Random(seed)) for seed in range(150)]
    for layout in layouts:
        assert is_connected(layout)
        assert layout.entrance[0] == "A" and layout.treasure_room[0] == "D"
        assert all("".join(sorted(d, key="NESW".index)) == d for d in layout.doors)
    assert len({layout.doors for layout in layouts}) > 140
    assert {layout.entrance for layout in layouts} == {"A1", "A2", "A3"}
    assert {layout.treasure_room for layout in layouts} == {"D1", "D2", "D3"}
    # Some doors open onto walls (rulebook: a passage can end at a wall).
    assert any(
        passage(layout, room, side) is None
        for layout in layouts
        for room in ROOMS
        for side in layout.doors_of(room)
    )


def test_a_passage_needs_a_door_on_both_sides() -> None:
    """Two rooms connect only where both tiles have a door on the shared side (house rule)."""
    assert "E" in MAZE.doors_of("A2") and "W" not in MAZE.doors_of("B2")
    assert passage(MAZE, "A2", "E") is None
    assert passage(MAZE, "B2", "W") is None
    assert passage(MAZE, "A2", "S") == "A3"


def test_each_side_of_a_room_faces_its_grid_neighbour() -> None:
    """North is the row above, south the row below, east the next column letter, west the
    one before; past the grid's edge there is no room (house rule: a 4 x 3 grid)."""
    assert [neighbour("B2", side) for side in "NESW"] == ["B1", "C2", "B3", "A2"]
    assert [neighbour("C3", side) for side in "NESW"] == ["C2", "D3", None, "B3"]
    assert [neighbour("A1", side) for side in "NW"] == [None, None]
    assert [neighbour("D1", side) for side in "NE"] == [None, None]


def test_distances_count_the_steps_through_passages() -> None:
    """A room's distance is the number of passages walked to reach it, the shortest way
    (house rule: only joined doors connect). The maze is one corridor, so its rooms lie 0 to
    11 steps from its start."""
    distances.cache_clear()  # worked out here, not read from an earlier test's answers
    corridor = Layout("corridor", MAZE.doors, "A1", "D3")
    order = ["A1", "A2", "A3", "B3", "B2", "B1", "C1", "D1", "D2", "C2", "C3", "D3"]
    assert distances(corridor, "A1") == {room: step for step, room in enumerate(order)}
    assert distances(corridor, "B2") == {room: abs(step - 4) for step, room in enumerate(order)}


def test_the_entrance_tile_always_has_a_west_door() -> None:
    """The entrance of a drawn layout always has a west door, the way in from outside
    (house rule: the entrance tile's door to the outside)."""
    for seed in range(60):
        layout = random_layout(random.Random(seed))
        doors = layout.doors_of(layout.entrance)
        assert doors.endswith("W")


def test_a_door_on_the_outer_edge_leads_nowhere() -> None:
    """A door on the grid's edge is drawn but joins nothing (rulebook: a passage can end at a
    wall)."""
    assert "W" in OPEN.doors_of("A3")
    assert passage(OPEN, "A3", "W") is None


def test_layout_option_picks_a_fixed_layout_or_draws_one_from_the_seed() -> None:
    """The lobby option `layout` chooses a fixed layout; "random" (the default) draws one
    from the seed, the same seed giving the same dungeon (house rule: every game)."""
    assert LAYOUT_CHOICES == ("random", "classic", "maze", "open")
    assert RUMBLE.new_game(3, {"layout": "maze"}, 1).layout == MAZE
    assert RUMBLE.new_game(3, {}, 5).layout == RUMBLE.new_game(3, {"layout": "random"}, 5).layout
    assert RUMBLE.new_game(3, {}, 5).layout != RUMBLE.new_game(3, {}, 6).layout
    with pytest.raises(IllegalAction, match="no layout"):
        RUMBLE.new_game(3, {"layout": "castle"}, 1)


def test_two_to_six_players() -> None:
    """3 to 6 players, with 2 as an unofficial option (house rule)."""
    assert (RUMBLE.min_seats, RUMBLE.max_seats) == (2, 6)
    for seats in (1, 7):
        with pytest.raises(IllegalAction, match="2 to 6 players"):
            RUMBLE.new_game(seats, {}, 1)


# --- Setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_one_character_per_room_chest_in_treasure_room_two_secrets_each(
    seats: int,
) -> None:
    """Each room starts with exactly one character, the chest starts where the treasure is,
    and each player gets two hidden characters, no two alike (rulebook: setup)."""
    state = RUMBLE.new_game(seats, {}, 40 + seats)
    assert sorted(state.positions) == sorted(ALL)
    assert sorted(state.positions.values()) == sorted(ROOMS)
    assert state.chest == state.layout.treasure_room
    assert state.exit_line == () and state.chest_exited_with is None
    assert len(state.secrets) == seats
    dealt = [c for pair in state.secrets for c in pair]
    assert all(len(pair) == 2 for pair in state.secrets)
    assert len(set(dealt)) == 2 * seats and set(dealt) <= set(ALL)
    assert state.rumble == 1 and state.totals == (0,) * seats


def test_first_starting_player_is_random() -> None:
    """The first rumble's starting player is picked at random (rulebook)."""
    starters = {RUMBLE.new_game(4, {}, seed).starter for seed in range(60)}
    assert starters == {0, 1, 2, 3}
    state = RUMBLE.new_game(4, {}, 3)
    assert state.turn == state.starter
    assert RUMBLE.to_act(state) == frozenset({state.starter})


def test_same_seed_and_actions_give_the_same_game() -> None:
    """One seeded generator per game: same seed, same actions, same state (house rule)."""
    a, b = RUMBLE.new_game(4, {}, 11), RUMBLE.new_game(4, {}, 11)
    for _ in range(30):
        assert a == b
        action = RUMBLE.legal_actions(a, a.turn)[0]
        a, b = play(a, a.turn, action), play(b, b.turn, action)
    assert a == b


# --- Turns ------------------------------------------------------------------------------------


def test_turns_go_clockwise() -> None:
    """After seat n comes seat n+1, wrapping round the table (rulebook: turns pass to the
    left, clockwise)."""
    state = make_state({**crowded_start()}, seats=4, turn=3, exit_line=[])
    state = play(state, 3, RUMBLE.legal_actions(state, 3)[0])
    assert state.turn == 0
    state = play(state, 0, RUMBLE.legal_actions(state, 0)[0])
    assert state.turn == 1


def test_only_the_seat_to_act_may_act() -> None:
    """One player acts per turn: another seat gets no actions and is refused (rulebook:
    one player acts at a time)."""
    state = make_state(crowded_start(), exit_line=[])
    assert RUMBLE.legal_actions(state, 1) == []
    assert refuse(state, 1, "fight troll") == "It is not your turn."
    assert refuse(state, 9, "fight troll") == "It is not your turn."


def test_exactly_one_action_per_turn() -> None:
    """A turn is one action: a move, a fight or an exit (rulebook: how to play)."""
    state = make_state(crowded_start(), exit_line=[])
    after = play(state, 0, "fight troll")
    assert after.step == state.step + 1 and after.turn == 1
    assert refuse(after, 0, "move knight E") == "It is not your turn."


def test_malformed_actions_are_refused() -> None:
    """Only the action grammar is understood; anything else is no move in this game
    (engine contract: actions are short strings, refused with a reason)."""
    state = make_state(crowded_start(), exit_line=[])
    for text in [
        "",
        "move",
        "move knight",
        "move knight X",
        "move knight e",
        "move knight E chest now",
        "move knight E box",
        "fight",
        "fight dragon",
        "fight troll knight",
        "exit",
        "exit knight now",
        "jump knight",
        "MOVE knight E",
    ]:
        assert refuse(state, 0, text) == "That is not a move in this game."


# --- Moving -------------------------------------------------------------------------------------


def test_move_goes_through_a_connected_passage_into_the_next_room() -> None:
    """A character steps through a passage to the neighbouring room (rulebook: the move
    action)."""
    state = make_state({"knight": "B2", "troll": "C3", "wizard": "C3"}, chest="D1")
    applied = RUMBLE.apply(state, 0, "move knight E")
    assert applied.state.positions["knight"] == "C2"
    assert [str(e.text) for e in applied.events] == ["{p0} moves the Knight east from B2 to C2."]
    assert applied.events[0].to is None


def test_no_move_without_a_passage() -> None:
    """Moves go through passages only: not through a door facing a wall, nor past the edge
    (rulebook: a passage can end at a wall; house rule: both doors needed)."""
    state = make_state({"knight": "A2", "troll": "C3", "wizard": "C3"}, layout=MAZE, chest="D3")
    assert refuse(state, 0, "move knight E") == "There is no passage east from A2."
    assert refuse(state, 0, "move knight W") == "There is no passage west from A2."
    assert sorted(RUMBLE.legal_actions(state, 0)) == sorted(
        ["move knight N", "move knight S", "fight troll", "fight wizard"]
    )
    state = make_state({"knight": "B2", "troll": "C3", "wizard": "C3"}, layout=MAZE, chest="D3")
    assert refuse(state, 0, "move knight E") == "There is no passage east from B2."


def test_a_character_sharing_its_room_cannot_move() -> None:
    """Only a character that begins the turn alone in its room may be moved (rulebook:
    the move action)."""
    state = make_state(crowded_start(), exit_line=[])
    assert refuse(state, 0, "move knight E") == (
        "The Knight shares its room, so it cannot move: only a character alone in its room "
        "(or with the chest) may move."
    )
    legal = RUMBLE.legal_actions(state, 0)
    assert not any(a.startswith(("move knight", "move troll")) for a in legal)


def test_any_character_may_be_moved_and_may_walk_into_a_crowded_room() -> None:
    """A player may move any character, theirs or not, and a lone character may enter a room
    that holds others (rulebook: you may move characters you do not back)."""
    state = make_state(crowded_start(), exit_line=[], secrets=PAIRS[:3])
    mover = next(c for c, room in state.positions.items() if room == "B1")
    assert mover not in PAIRS[0]
    state = play(state, 0, f"move {mover} S")
    assert state.positions[mover] == "B2"
    assert Counter(state.positions.values())["B2"] == 3


def test_a_character_with_the_chest_may_move_even_in_company_and_takes_the_chest() -> None:
    """A character that begins the turn with the chest may move even when others share the
    room, taking the chest along (rulebook: treasure chest; house rule: with others there
    the chest must go)."""
    state = make_state({"knight": "C2", "troll": "C2", "wizard": "A1"}, chest="C2")
    legal = RUMBLE.legal_actions(state, 0)
    assert "move knight E chest" in legal and "move troll E chest" in legal
    assert "move knight E" not in legal and "move troll E" not in legal
    assert refuse(state, 0, "move knight E") == "With others in the room, the chest must go along."
    applied = RUMBLE.apply(state, 0, "move knight E chest")
    assert applied.state.positions == {"knight": "D2", "troll": "C2", "wizard": "A1"}
    assert applied.state.chest == "D2"
    assert str(applied.events[0].text) == (
        "{p0} moves the Knight east from C2 to D2, taking the chest."
    )


def test_a_character_alone_with_the_chest_may_take_it_or_leave_it() -> None:
    """Alone with the chest, the mover chooses whether the chest goes along (house rule)."""
    state = make_state({"knight": "C2", "troll": "A1", "wizard": "A1"}, chest="C2")
    legal = RUMBLE.legal_actions(state, 0)
    assert {"move knight E", "move knight E chest"} <= set(legal)
    assert play(state, 0, "move knight E").chest == "C2"
    assert play(state, 0, "move knight E chest").chest == "D2"


def test_the_chest_goes_along_only_from_its_own_room() -> None:
    """Only a character in the chest's room can carry it (rulebook: treasure chest)."""
    state = make_state({"knight": "C2", "troll": "A1", "wizard": "A1"}, chest="D1")
    assert refuse(state, 0, "move knight E chest") == (
        "The chest is not in C2, so it cannot go along."
    )
    assert "move knight E chest" not in RUMBLE.legal_actions(state, 0)


def test_a_character_no_longer_in_the_dungeon_cannot_act() -> None:
    """Only characters still inside can be moved, thrown out or taken out (rulebook: a
    removed character is gone for the rumble)."""
    state = make_state(crowded_start(), exit_line=[])
    state = play(state, 0, "fight troll")
    assert refuse(state, 1, "fight troll") == "The Troll is no longer in the dungeon."
    assert refuse(state, 1, "move troll E") == "The Troll is no longer in the dungeon."


# --- Fights ---------------------------------------------------------------------------------


def test_a_fight_needs_two_or_more_characters_in_the_room() -> None:
    """Start a fight only in a room holding at least two characters (rulebook: action 2)."""
    state = make_state(crowded_start(), exit_line=[])
    lone = next(c for c, room in state.positions.items() if room == "C3")
    assert refuse(state, 0, f"fight {lone}").endswith(
        "a fight needs two or more characters in the room."
    )
    fights = [a for a in RUMBLE.legal_actions(state, 0) if a.startswith("fight")]
    assert fights == ["fight knight", "fight troll"]


def test_a_fight_removes_one_character_who_joins_the_exit_line_in_order() -> None:
    """The fight's victim leaves the dungeon and lines up after those already out; the order
    counts for scoring (rulebook: action 2)."""
    state = make_state(
        {"knight": "B2", "troll": "B2", "cleric": "C3", "bard": "C3", "cube": "C3"},
        exit_line=["goblin"],
    )
    applied = RUMBLE.apply(state, 0, "fight troll")
    state = applied.state
    assert "troll" not in state.positions and state.positions["knight"] == "B2"
    assert state.exit_line == ("goblin", "troll")
    assert str(applied.events[0].text) == (
        "{p0} starts a fight in B2: the Troll is thrown out (2nd out)."
    )
    state = play(state, 1, "fight bard")  # any of three may be picked
    assert state.exit_line == ("goblin", "troll", "bard")
    assert state.positions["cleric"] == state.positions["cube"] == "C3"


def test_a_character_thrown_out_leaves_the_chest_in_the_room() -> None:
    """A character removed in a fight while with the chest leaves the chest where it is
    (house rule)."""
    state = make_state({"knight": "C2", "troll": "C2", "wizard": "A1"}, chest="C2")
    state = play(state, 0, "fight knight")
    assert state.chest == "C2"
    assert state.positions == {"troll": "C2", "wizard": "A1"}


# --- Leaving with the chest -------------------------------------------------------------


def test_a_character_in_the_entrance_with_the_chest_may_leave_and_the_rumble_goes_on() -> None:
    """Standing at the entrance beside the chest, a character may be taken out with it as
    the turn's action, and play carries on (rulebook: leaving with the treasure; house
    rule)."""
    state = make_state({"thief": "A3", "troll": "A3", "wizard": "C1"}, chest="A3")
    legal = RUMBLE.legal_actions(state, 0)
    assert "exit thief" in legal and "exit troll" in legal
    applied = RUMBLE.apply(state, 0, "exit thief")
    state = applied.state
    assert str(applied.events[0].text) == "{p0} sneaks the Thief out of the dungeon with the chest!"
    assert state.chest is None and state.chest_exited_with == "thief"
    assert state.positions == {"troll": "A3", "wizard": "C1"}
    assert len(state.history) == 0 and state.rumble == 1 and state.turn == 1
    assert not any(a.startswith("exit") for a in RUMBLE.legal_actions(state, 1))


def test_the_character_leaving_with_the_chest_takes_no_place_in_the_exit_line() -> None:
    """The exit line holds only characters thrown out in fights (table rule)."""
    state = make_state({"thief": "A3", "troll": "B1", "wizard": "C1"}, chest="A3")
    line = state.exit_line
    state = play(state, 0, "exit thief")
    assert state.exit_line == line


def test_only_from_the_entrance_and_only_with_the_chest() -> None:
    """Exiting needs the entrance tile and the chest in it (rulebook: treasure chest)."""
    reason = "Only a character in the entrance room with the chest may exit."
    elsewhere = make_state({"thief": "B3", "troll": "C1", "wizard": "C1"}, chest="B3")
    assert refuse(elsewhere, 0, "exit thief") == reason
    no_chest = make_state({"thief": "A3", "troll": "C1", "wizard": "C1"}, chest="B3")
    assert refuse(no_chest, 0, "exit thief") == reason
    assert not any(a.startswith("exit") for a in RUMBLE.legal_actions(no_chest, 0))


# --- End of a rumble and scoring -----------------------------------------------------------


def test_the_rumble_ends_when_one_character_remains() -> None:
    """A rumble is over as soon as a single character is left inside; then everyone shows
    their hidden characters (rulebook: end of a rumble)."""
    state = make_state({"knight": "B2", "troll": "B2", "wizard": "C3"})
    state = play(state, 0, "fight troll")
    assert len(state.history) == 0  # two still in
    applied = RUMBLE.apply(make_state({"knight": "B2", "troll": "B2"}), 0, "fight troll")
    (reveal,) = applied.state.history
    assert reveal.last_standing == "knight" and reveal.rumble == 1
    assert reveal.secrets == tuple(PAIRS[:3])
    texts = [str(e.text) for e in applied.events]
    assert texts[1] == "Rumble 1 is over: the Knight is the last one standing."
    assert texts[2] == (
        "{p0} was secretly backing the Knight and the Thief: 10 points for the Knight (total 10)."
    )
    assert all(e.to is None for e in applied.events)


def test_scoring_with_the_chest_still_in_the_dungeon() -> None:
    """Chest still in: 10 for the survivor; along the exit line nothing for places 1 and 2,
    then one point more per place from 1 at place 3 (rulebook: scoring, treasure inside)."""
    line = [c for c in ALL if c != "knight"]
    state = make_state({"knight": "B2"}, exit_line=line, chest="B2")
    points = character_points(state)
    assert points["knight"] == 10
    assert [points[c] for c in line] == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_scoring_with_the_chest_taken_out() -> None:
    """Chest out: the one that left with it scores 10, the last one standing 9, the exit line
    as before (rulebook: scoring, treasure removed; table rule: the leaver is not in the
    line)."""
    line = [c for c in ALL if c not in ("knight", "thief")]
    state = make_state({"knight": "B2"}, exited="thief", exit_line=line, chest=None)
    points = character_points(state)
    assert (points["thief"], points["knight"]) == (10, 9)
    assert [points[c] for c in line] == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]


def test_only_the_better_of_a_players_two_characters_scores() -> None:
    """Each player scores only their higher-scoring character, not both (rulebook)."""
    line = [c for c in ALL if c not in ("knight", "troll")] + ["troll"]  # troll: 11th, 9 pts
    secrets = [("knight", "troll"), ("wizard", "cleric"), ("bard", "goblin")]
    state = make_state({"knight": "B2", "troll": "B2"}, exit_line=line[:-1], secrets=secrets)
    state = play(state, 0, "fight troll")
    (reveal,) = state.history
    assert reveal.points[0] == 10 and reveal.best[0] == "knight"
    assert state.totals[0] == 10


def test_a_secret_character_that_scored_nothing_gives_zero() -> None:
    """Characters that left first and second score nothing, so a player holding both scores
    0 (rulebook: scoring)."""
    line = ["wizard", "cleric"] + [
        c for c in ALL if c not in ("knight", "troll", "wizard", "cleric")
    ]
    secrets = [("knight", "thief"), ("wizard", "cleric"), ("bard", "goblin")]
    state = make_state({"knight": "B2", "troll": "B2"}, exit_line=line, secrets=secrets)
    state = play(state, 0, "fight troll")
    (reveal,) = state.history
    assert reveal.exit_line[:2] == ("wizard", "cleric")
    assert reveal.points[1] == 0 and reveal.best[1] in ("wizard", "cleric")


def test_chest_exit_then_last_fight_scores_both_prizes() -> None:
    """Taking the chest out with two characters left leaves one: the rumble ends, the
    leaver scores 10 and the last one 9 (rulebook: scoring, treasure removed)."""
    secrets = [("thief", "wizard"), ("troll", "cleric"), ("bard", "goblin")]
    state = make_state({"thief": "A3", "troll": "C1"}, chest="A3", secrets=secrets)
    state = play(state, 0, "exit thief")
    (reveal,) = state.history
    assert reveal.chest_exited_with == "thief" and reveal.last_standing == "troll"
    assert reveal.points[:2] == (10, 9)
    assert "thief" not in reveal.exit_line


def test_the_lowest_scorer_opens_the_next_rumble() -> None:
    """Whoever has scored least so far opens the following rumble (rulebook: after
    scoring)."""
    line = ["goblin", "zombie"] + [
        c for c in ALL if c not in ("knight", "troll", "goblin", "zombie")
    ]
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    state = make_state(
        {"knight": "B2", "troll": "B2"},
        exit_line=line,
        secrets=secrets,
        totals=(1, 2, 3),
    )
    applied = RUMBLE.apply(state, 0, "fight troll")
    state = applied.state
    assert state.totals[2] == 3 and min(state.totals) == 3
    assert state.starter == 2 and state.turn == 2 and state.rumble == 2
    assert str(applied.events[-1].text) == "{p2} has the fewest points and starts rumble 2."


def test_a_tie_for_the_fewest_points_is_broken_at_random() -> None:
    """Tied for the fewest points, the starter is drawn from the game's seed among them
    (table rule)."""
    starters = set()
    for seed in range(40):
        # This rumble scores 10, 1, 3, 5 (see make_state's pairs and exit line): with these
        # totals, seats 1 and 2 end tied on 3.
        before = make_state(
            {"knight": "B2", "troll": "B2"}, seats=4, seed=seed, totals=(0, 2, 0, 0)
        )
        state = play(before, 0, "fight troll")
        assert state.totals == (10, 3, 3, 5)
        assert state.starter in (1, 2) and state.turn == state.starter
        assert play(before, 0, "fight troll").starter == state.starter  # seeded
        starters.add(state.starter)
    assert starters == {1, 2}


def test_the_next_rumble_starts_afresh_in_the_same_dungeon() -> None:
    """Everyone returns to a room, the chest goes back to its starting room, and each
    player is dealt a fresh pair of hidden characters (rulebook: after scoring)."""
    old = make_state({"knight": "B2", "troll": "B2"}, layout=MAZE, chest="A1")
    state = play(old, 0, "fight troll")
    assert state.rumble == 2 and state.layout == MAZE
    assert sorted(state.positions.values()) == sorted(ROOMS)
    assert state.chest == MAZE.treasure_room
    assert state.exit_line == () and state.chest_exited_with is None
    dealt = [c for pair in state.secrets for c in pair]
    assert len(state.secrets) == 3 and len(set(dealt)) == 6
    assert state.secrets != old.secrets


def test_three_rumbles_make_a_game_and_ties_share_the_win() -> None:
    """After the third rumble the highest total wins; equal totals share the win (rulebook:
    three rumbles; house rule: final ties are shared)."""
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    # This last rumble scores 10, 9 and 6 (see make_state's exit line).
    state = make_state(
        {"knight": "B2", "troll": "B2"}, secrets=secrets, totals=(5, 15, 3), rumble=3
    )
    assert RUMBLE.outcome(state) is None
    applied = RUMBLE.apply(state, 0, "fight troll")
    state = applied.state
    assert state.finished and state.rumble == 3 and len(state.history) == 1
    assert state.totals == (15, 24, 9)
    outcome = RUMBLE.outcome(state)
    assert outcome is not None
    assert outcome.points == (15, 24, 9) and outcome.ranks == (1, 0, 2)
    assert str(applied.events[-1].text) == "{p1} wins the game with 24 points!"
    assert RUMBLE.to_act(state) == frozenset()
    assert RUMBLE.legal_actions(state, state.turn) == []
    assert refuse(state, state.turn, "fight knight") == "That game is over."
    tie = make_state({"knight": "B2", "troll": "B2"}, secrets=secrets, totals=(14, 15, 0), rumble=3)
    applied = RUMBLE.apply(tie, 0, "fight troll")
    assert RUMBLE.outcome(applied.state) == Outcome(ranks=(0, 0, 1), points=(24, 24, 6))
    assert str(applied.events[-1].text) == "{p0} and {p1} share the win with 24 points!"


def test_a_whole_game_has_three_rumbles() -> None:
    """Play goes on for three rumbles, then the game is over (rulebook)."""
    state = RUMBLE.new_game(3, {}, 2)
    rng = random.Random(2)
    rumbles_seen = {1}
    while not state.finished:
        state = play(state, state.turn, rng.choice(RUMBLE.legal_actions(state, state.turn)))
        rumbles_seen.add(state.rumble)
    assert rumbles_seen == {1, 2, 3} and len(state.history) == 3
    assert [r.rumble for r in state.history] == [1, 2, 3]
    assert state.totals == tuple(map(sum, zip(*(r.points for r in state.history), strict=True)))


# --- Observation, JSON, labels ----------------------------------------------------------------


def observation_keys() -> set[str]:
    return set(RumbleObservation.__required_keys__)


def test_observe_has_the_documented_shape_and_shows_only_your_own_secret() -> None:
    """A seat sees its own two secret characters and nobody else's; the public view none
    (rulebook: each player's pair stays hidden)."""
    state = RUMBLE.new_game(4, {"layout": "classic"}, 3)
    public = RUMBLE.observe(state, None)
    assert set(public) == observation_keys()
    assert public["secret"] is None and public["seat"] is None
    assert public["game"] == "rumble" and public["seats"] == 4
    assert public["to_act"] == [state.turn] and public["starter"] == state.starter
    assert public["entrance"] == "A2" and public["treasure_room"] == "D2"
    assert [t["room"] for t in public["tiles"]] == list(ROOMS)
    assert public["tiles"][5] == {"room": "B2", "row": 1, "col": 1, "doors": "ESW"}
    assert public["positions"] == state.positions and public["chest"] == "D2"
    assert public["history"] == [] and public["totals"] == [0, 0, 0, 0]
    for seat in range(4):
        view = RUMBLE.observe(state, seat)
        assert view["secret"] == list(state.secrets[seat]) and view["seat"] == seat
        assert set(view) == observation_keys()
    assert RUMBLE.observe(state, 4)["secret"] is None
    json.dumps(public)


def test_observe_never_holds_another_seats_current_secret() -> None:
    """Hidden information leaves the state only through a seat's own view (rulebook:
    players hide whom they back)."""
    state = RUMBLE.new_game(3, {}, 8)
    for viewer in (None, 0, 1, 2):
        view = RUMBLE.observe(state, viewer)
        flat = json.dumps({k: v for k, v in view.items() if k not in ("positions",)})
        for seat, pair in enumerate(state.secrets):
            if seat != viewer:
                assert all(f'"{c}"' not in flat for c in pair)


def test_history_reveals_a_finished_rumble() -> None:
    """At the end of a rumble everyone reveals their secret characters (rulebook)."""
    state = play(make_state({"knight": "B2", "troll": "B2"}), 0, "fight troll")
    (result,) = RUMBLE.observe(state, None)["history"]
    assert result["secrets"] == [list(pair) for pair in PAIRS[:3]]
    assert result["last_standing"] == "knight" and result["points"][0] == 10
    assert set(result) == set(Reveal.__dataclass_fields__)


def test_json_round_trip_is_exact() -> None:
    """A saved game is a whole game: to_json and from_json are inverses (engine contract)."""
    state = RUMBLE.new_game(5, {}, 21)
    rng = random.Random(0)
    for _ in range(120):
        data = RUMBLE.to_json(state)
        assert RUMBLE.from_json(data) == state
        assert RUMBLE.from_json(json.loads(json.dumps(data))) == state
        if state.finished:
            break
        state = play(state, state.turn, rng.choice(RUMBLE.legal_actions(state, state.turn)))
    with pytest.raises(ValueError, match="version"):
        RUMBLE.from_json({**RUMBLE.to_json(state), "version": 99})


def test_apply_leaves_the_given_state_alone() -> None:
    """apply returns a new state and never changes its input (engine contract)."""
    state = make_state({"knight": "C2", "troll": "C2", "wizard": "A1"}, chest="C2")
    before = json.dumps(RUMBLE.to_json(state))
    play(state, 0, "move knight E chest")
    play(state, 0, "fight knight")
    assert json.dumps(RUMBLE.to_json(state)) == before


def test_step_counts_actions() -> None:
    """The step number is the count of applied actions (engine contract)."""
    state = RUMBLE.new_game(3, {}, 1)
    assert RUMBLE.step(state) == 0
    state = play(state, state.turn, RUMBLE.legal_actions(state, state.turn)[0])
    assert RUMBLE.step(state) == 1 and RUMBLE.observe(state, None)["step"] == 1


def test_describe_gives_short_button_labels() -> None:
    """Labels name the character, the way and the room (engine contract: describe)."""
    state = make_state(
        {"knight": "B2", "troll": "C2", "cube": "C2", "thief": "A3", "bard": "A3"}, chest="A3"
    )
    assert str(RUMBLE.describe(state, "move knight E")) == "Move Knight east to C2"
    chest_room = make_state({"knight": "B2", "troll": "C2"}, chest="B2")
    assert str(RUMBLE.describe(chest_room, "move knight E chest")) == (
        "Move Knight east to C2 (with chest)"
    )
    assert str(RUMBLE.describe(state, "fight troll")) == "Fight in C2: remove Troll"
    assert str(RUMBLE.describe(state, "fight cube")) == "Fight in C2: remove Gelatinous Cube"
    assert str(RUMBLE.describe(state, "exit thief")) == "Exit with the chest (Thief)"


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (10, "10th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (20, "20th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
        (121, "121st"),
        (1011, "1011th"),
    ],
)
def test_ordinal_numbers_read_as_english(n: int, text: str) -> None:
    """Places in the exit line ("11th out") read as English ordinals: 1st, 2nd, 3rd, but 11th,
    12th, 13th, and again 21st, 101st (the standings and boards use it for larger numbers)."""
    assert ordinal(n) == text


def test_the_legal_moves_are_the_actions_their_words_stand_for() -> None:
    """Each legal action, written out and read back, is the same action (engine contract:
    legal_actions lists what apply accepts), including a lone mover leaving the chest."""
    state = make_state({"knight": "C2", "troll": "A1", "wizard": "B3"}, chest="C2")
    moves = legal_moves(state)
    assert Move("knight", "E", with_chest=False) in moves
    assert Move("knight", "E", with_chest=True) in moves
    assert Move("troll", "E", with_chest=False) in moves
    for text in RUMBLE.legal_actions(state, 0):
        assert parse_action(text) in moves


def test_a_fight_in_a_room_of_one_is_refused_with_the_reason() -> None:
    """A fight needs company; the refusal names the character and the room (rulebook:
    action 2)."""
    state = make_state({"knight": "B2", "troll": "C3", "wizard": "C3"})
    assert refuse(state, 0, "fight knight") == (
        "The Knight is alone in B2: a fight needs two or more characters in the room."
    )


def test_moves_are_grouped_under_their_character_and_other_actions_stand_alone() -> None:
    """In a player's menu a move sits under the character it moves (the side and the chest
    are picked after); a fight, an exit or an unreadable action is its own entry (engine
    contract: group_of)."""
    assert RUMBLE.group_of("move knight E") == "move knight"
    assert RUMBLE.group_of("move troll N chest") == "move troll"
    assert RUMBLE.group_of("fight troll") == "fight troll"
    assert RUMBLE.group_of("exit thief") == "exit thief"
    assert RUMBLE.group_of("dance knight") == "dance knight"
    assert RUMBLE.in_group("move knight S chest", "move knight")
    assert not RUMBLE.in_group("move thief S", "move knight")


def test_legal_actions_come_in_a_fixed_order() -> None:
    """Moves, then fights, then exits, in character order: the same list every time
    (engine contract: legal_actions is deterministic)."""
    state = make_state({"thief": "A3", "troll": "A3", "knight": "C1"}, chest="A3")
    assert RUMBLE.legal_actions(state, 0) == [
        "move knight E",
        "move knight S",
        "move knight W",
        "move thief N chest",
        "move thief E chest",
        "move troll N chest",
        "move troll E chest",
        "fight thief",
        "fight troll",
        "exit thief",
        "exit troll",
    ]


# --- The AI -----------------------------------------------------------------------------------


@pytest.fixture
def steady(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI without its occasional stand-off-breaking whim."""
    monkeypatch.setattr(ai, "STIR_CHANCE", 0.0)


def ai_pick(state: State, seat: int, seed: int) -> str:
    legal = RUMBLE.legal_actions(state, seat)
    choice = RUMBLE.choose(RUMBLE.observe(state, seat), legal, random.Random(seed))
    assert choice in legal
    return choice


def test_ai_never_throws_out_its_own_character_while_it_has_a_choice() -> None:
    """The AI protects its secret characters in fights (architecture: a sensible AI per
    game, working from its own view)."""
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    state = make_state(crowded_start(), exit_line=[], secrets=secrets)
    for seed in range(40):
        assert ai_pick(state, 0, seed) != "fight knight"
    cornered = make_state({"knight": "B2", "wizard": "B2"}, secrets=secrets, chest="D1")
    assert ai_pick(cornered, 0, 1) in ("fight knight", "fight wizard")


def test_ai_throws_out_whoever_shares_a_room_with_its_character(steady: None) -> None:
    """The AI removes others, favouring those standing with its own characters
    (rulebook: a fight throws one character out)."""
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    state = make_state(crowded_start(), exit_line=[], secrets=secrets)
    for seed in range(20):
        assert ai_pick(state, 0, seed) == "fight troll"


def test_ai_leaves_with_the_chest_when_its_character_can(steady: None) -> None:
    """The AI takes its own character out with the chest when it stands in the entrance
    (rulebook: exiting with the chest scores 10)."""
    secrets = [("thief", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    state = make_state(
        {"thief": "A3", "troll": "A3", "knight": "C1", "bard": "D2"}, chest="A3", secrets=secrets
    )
    for seed in range(20):
        assert ai_pick(state, 0, seed) == "exit thief"


def test_ai_carries_the_chest_toward_the_entrance(steady: None) -> None:
    """The AI walks its chest bearer toward the entrance, counting steps through passages
    (rulebook: a character with the chest can leave from the entrance)."""
    secrets = [("thief", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    state = make_state(
        {"thief": "C3", "troll": "A1", "knight": "C1", "bard": "D2"}, chest="C3", secrets=secrets
    )
    to_entrance = distances(OPEN, OPEN.entrance)
    for seed in range(20):
        action = ai_pick(state, 0, seed)
        assert action.startswith("move thief") and action.endswith("chest")
        moved = play(state, 0, action)
        assert to_entrance[moved.positions["thief"]] < to_entrance["C3"]


def test_ai_does_not_walk_its_character_into_company(steady: None) -> None:
    """The AI keeps its own lone character out of rooms where a fight could remove it
    (rulebook: fights need company)."""
    secrets = [("knight", "wizard"), ("troll", "cleric"), ("goblin", "zombie")]
    # Everyone alone, so no fight; the knight could step next to the troll.
    state = make_state(
        {"knight": "B2", "troll": "C2", "wizard": "A1", "cube": "D3"}, chest="D1", secrets=secrets
    )
    for seed in range(20):
        moved = play(state, 0, ai_pick(state, 0, seed))
        room = moved.positions["knight"]
        assert list(moved.positions.values()).count(room) == 1


def test_ai_and_random_players_only_pick_legal_actions() -> None:
    """Both bot players answer with one of the legal actions (architecture: the AI fills
    seats and drives the playouts)."""
    state = RUMBLE.new_game(4, {}, 5)
    legal = RUMBLE.legal_actions(state, state.turn)
    rng = random.Random(3)
    assert ai.random_choice(legal, rng) in legal
    assert RUMBLE.choose(RUMBLE.observe(state, state.turn), legal, rng) in legal
    with pytest.raises(ValueError):
        ai.choose(RUMBLE.observe(state, state.turn), [], rng)


def test_ai_works_from_the_observation_alone() -> None:
    """The AI reads a JSON-round-tripped observation just as well (architecture: the AI
    works from its observation and legal actions only)."""
    state = RUMBLE.new_game(3, {}, 9)
    seat = state.turn
    view: dict[str, Any] = json.loads(json.dumps(RUMBLE.observe(state, seat)))
    legal = RUMBLE.legal_actions(state, seat)
    assert RUMBLE.choose(view, legal, random.Random(1)) == RUMBLE.choose(
        RUMBLE.observe(state, seat), legal, random.Random(1)
    )

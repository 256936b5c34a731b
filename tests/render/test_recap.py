"""Each game's recap picture (issue 15, item 1), checked from what the renderer noted it drew
(`render/common/record.py`): a finished game's story from its public view. Rumble: each
player's points in each of the three rumbles and the character that scored them; Toss It:
the counters each player took, round by round; Trash War: the knights in the order they
fell; Dumpster Brawl!: the winner's hand face up, or each player's Rummy table."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from render.brawl.recap import draw_recap as brawl_recap
from render.common.recap import cell_note
from render.common.record import Drawn, recording
from render.rumble.layout import character_name
from render.rumble.recap import draw_recap as rumble_recap
from render.rumble.recap import rumble_column
from render.toss.recap import draw_recap as toss_recap
from render.toss.recap import round_column
from render.trashwar.recap import draw_recap as trashwar_recap
from rules.base import AnyGame
from rules.brawl.engine import BRAWL, RUMMY
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR
from tests.rules.test_brawl import ISCRATCHU, MOOSETACHE, SETS, build, play

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def cells(notes: list[Drawn]) -> set[str]:
    return {n.text for n in notes if n.kind == "cell"}


def rows_in_order(notes: list[Drawn]) -> list[int]:
    """The seats of the table's rows, top to bottom."""
    totals = sorted((n.box[1], n.text) for n in notes if n.kind == "cell" and "|total|" in n.text)
    return [int(text.split("|")[0]) for _, text in totals]


def random_game(engine: AnyGame, seats: int, seed: int) -> tuple[Any, list[Any]]:
    """A seeded game of random legal moves to its end: the last state, and every state."""
    rng, state = random.Random(seed), engine.new_game(seats, {}, seed)
    states = [state]
    while engine.outcome(state) is None:
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    return state, states


def test_rumble_recap_has_every_rumble_side_by_side_and_the_totals_best_first() -> None:
    state, _ = random_game(RUMBLE, 4, 3)
    obs = RUMBLE.observe(state, None)
    with recording() as notes:
        rumble_recap(obs, NAMES)
    expected = set()
    for seat in range(4):
        for result in obs["history"]:
            scored = f"{result['points'][seat]}\n{character_name(result['best'][seat])}"
            expected.add(cell_note(seat, rumble_column(result["rumble"]), scored))
        expected.add(cell_note(seat, "total", str(obs["totals"][seat])))
    assert len(obs["history"]) == 3 and cells(notes) == expected
    order = rows_in_order(notes)
    assert [obs["totals"][s] for s in order] == sorted(obs["totals"], reverse=True)


def test_toss_recap_shows_the_counters_each_player_took_in_each_round() -> None:
    """The round of each counter is followed from outside: the round the state was in when
    the seat's counters grew."""
    state, states = random_game(TOSS, 3, 2)
    taken: dict[tuple[int, int], list[int]] = {}
    for before, after in pairwise(states):
        for seat in range(3):
            for value in after.taken[seat][len(before.taken[seat]) :]:
                taken.setdefault((seat, before.round), []).append(value)
    assert taken  # the seed's game takes counters
    obs = TOSS.observe(state, None)
    with recording() as notes:
        toss_recap(obs, NAMES)
    drawn = {text for text in cells(notes) if "|total|" not in text and not text.endswith("|")}
    assert drawn == {
        cell_note(seat, round_column(number), " ".join(f"{v:+d}" for v in values))
        for (seat, number), values in taken.items()
    }
    assert {cell_note(s, "total", str(sum(state.taken[s]))) for s in range(3)} <= cells(notes)


def test_trashwar_recap_lists_the_knights_in_the_order_they_fell() -> None:
    state, _ = random_game(TRASH_WAR, 4, 5)
    obs = TRASH_WAR.observe(state, None)
    with recording() as notes:
        trashwar_recap(obs, NAMES)
    out = list(state.eliminated)
    assert len(out) == 3
    assert rows_in_order(notes) == [obs["winner"], *reversed(out)]
    assert cell_note(out[0], "Fell", "1st out") in cells(notes)
    assert cell_note(obs["winner"], "Fell", "standing") in cells(notes)


def test_brawl_recap_lays_the_winning_hand_face_up_once_the_game_is_over() -> None:
    """(rulebook: the winner lays down their winning sets) Before the winning draw the public
    view holds no hand and the recap no card; after it, the winner's whole hand."""
    state = build(
        {0: [*SETS, "takeout"], 1: ["pizza"]},
        characters=(ISCRATCHU, MOOSETACHE, 2),
        trash_top=["takeout"],
        phase="rummage",
        actor=0,
        draws=1,
        defender=1,
    )
    assert BRAWL.observe(state, None)["winning_hand"] == []  # a secret while the game is on
    state = play(state, "draw trash")
    obs = BRAWL.observe(state, None)
    assert state.finished and obs["hand"] is None
    with recording() as notes:
        brawl_recap(obs, NAMES)
    drawn = sorted(int(n.text) for n in notes if n.kind == "card")
    assert drawn == sorted(state.hands[0]) and len(drawn) == 8


def test_brawl_rummy_recap_shows_every_table() -> None:
    state = build(
        {0: ["pizza"] * 3, 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        laid={1: ["soda"] * 3, 2: ["apple"] * 4},
        phase="pre",
        draws=2,
    )
    state = play(state, "go out")
    obs = BRAWL.observe(state, None)
    assert state.finished and obs["winning_hand"] == []  # Rummy's tables are public anyway
    with recording() as notes:
        brawl_recap(obs, NAMES)
    drawn = sorted(int(n.text) for n in notes if n.kind == "card")
    assert drawn == sorted(c for area in state.laid for c in area) and len(drawn) == 10


def test_toss_recap_of_a_game_saved_before_the_counters_rounds_were_kept() -> None:
    """A state saved without the counter log loads (the field's default) and its recap still
    gives every player's score, with no round it cannot know."""
    state, _ = random_game(TOSS, 3, 2)
    saved = TOSS.to_json(state)
    del saved["taken_log"]
    obs = TOSS.observe(TOSS.from_json(saved), None)
    with recording() as notes:
        toss_recap(obs, NAMES)
    assert cells(notes) == {cell_note(s, "total", str(sum(state.taken[s]))) for s in range(3)} | {
        cell_note(s, round_column(n), "") for s in range(3) for n in range(1, 11)
    }

"""The last move on the board (issue 14): Trash War frames and tags each wall where something
happened since the board before, checked from what the renderer noted it drew."""

from __future__ import annotations

import random

from render.common.record import recording
from render.trashwar import draw_battlefield
from rules.trashwar import TRASH_WAR
from rules.trashwar.state import WALL_NAMES

NAMES = ["Ann", "Bob", "Cy"]


def test_every_wall_event_is_marked_on_the_next_board_and_only_there() -> None:
    rng, state, seen = random.Random(7), TRASH_WAR.new_game(3, {}, 11), set()
    while TRASH_WAR.outcome(state) is None and state.step < 400:
        seat = min(TRASH_WAR.to_act(state))
        before = state.step
        action = rng.choice(TRASH_WAR.legal_actions(state, seat))
        state = TRASH_WAR.apply(state, seat, action).state
        obs = TRASH_WAR.observe(state, None)
        with recording() as notes:
            draw_battlefield(obs, NAMES, before)
        drawn = {note.text for note in notes if note.kind == "wall"}
        newest = {(m.seat, m.wall): m.what for m in state.marks if m.step > before}
        assert drawn == {f"{s} {WALL_NAMES[w]} {what}" for (s, w), what in newest.items()}
        seen.update(newest.values())
        with recording() as later:  # the board after this one: nothing new to mark
            draw_battlefield(obs, NAMES, state.step)
        assert not [note for note in later if note.kind == "wall"]
    assert {"hit", "shielded"} <= seen  # the seed's game has both


def test_a_hit_and_a_fall_are_marked_with_the_card_that_did_it() -> None:
    rng, state, kinds = random.Random(2), TRASH_WAR.new_game(3, {}, 5), set()
    while TRASH_WAR.outcome(state) is None and state.step < 2000:
        seat = min(TRASH_WAR.to_act(state))
        applied = TRASH_WAR.apply(state, seat, rng.choice(TRASH_WAR.legal_actions(state, seat)))
        marks = [m for m in applied.state.marks if m.step == applied.state.step]
        for event in applied.events:
            if " takes the " in event.text:  # "{p1}'s left wall takes the Toaster: ..."
                what = "felled" if "wall falls" in event.text else "hit"
                assert any(m.what == what and m.card for m in marks), event.text
                kinds.add(what)
        state = applied.state
    assert kinds == {"hit", "felled"}

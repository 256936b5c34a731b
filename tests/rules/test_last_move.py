"""Every game's view carries its last move (issue 38's caption): who made it and the lines
the whole channel read of it, the same in every seat's view, never a line for one seat; a
game saved before the field existed loads without one."""

from __future__ import annotations

import random

import pytest

from rules.base import AnyGame
from rules.brawl import BRAWL
from rules.phrases import to_json
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR

GAMES: dict[str, AnyGame] = {g.key: g for g in (RUMBLE, TRASH_WAR, BRAWL, TOSS)}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_view_has_the_last_move_in_public_words_only(key: str) -> None:
    game = GAMES[key]
    rng, state = random.Random(9), game.new_game(3, {}, 9)
    assert game.observe(state, None)["last_move"] is None
    private = 0
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        applied = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        state = applied.state
        public = [to_json(e.text) for e in applied.events if e.to is None]
        expected = {"seat": seat, "step": state.step, "lines": public}
        for viewer in (None, *range(state.seats)):
            assert game.observe(state, viewer)["last_move"] == expected
        private += len(applied.events) - len(public)
    assert private or key in ("rumble", "toss")  # cards drawn were told to one seat


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_saved_before_the_last_move_was_kept_loads_without_one(key: str) -> None:
    game = GAMES[key]
    state = game.new_game(3, {}, 2)
    seat = min(game.to_act(state))
    state = game.apply(state, seat, game.legal_actions(state, seat)[0]).state
    data = game.to_json(state)
    assert data.pop("last_move")[0] == seat  # (seat, step, lines)
    assert game.observe(game.from_json(data), None)["last_move"] is None

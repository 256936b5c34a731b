"""One JSON codec for every game's state (issue 13: "one dataclass-to-JSON codec that every
engine uses"): rules/codec.py, led by the state's type hints.

The saved states in data/saved_states.json were written by the hand-written codecs each
engine had before (commit 11a6320), at the start, middle and late in a seeded game of each
kind: games saved then must load now, and save again as the same JSON.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pytest

from rules import codec
from rules.base import AnyGame
from rules.brawl import BRAWL
from rules.rumble import RUMBLE
from rules.toss.engine import TOSS
from rules.trashwar import TRASH_WAR

GAMES: dict[str, AnyGame] = {g.key: g for g in (RUMBLE, TRASH_WAR, BRAWL, TOSS)}
SAVED = json.loads((Path(__file__).parent / "data" / "saved_states.json").read_text())


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_saved_by_the_old_codec_loads_and_saves_the_same(key: str) -> None:
    game = GAMES[key]
    blank = game.to_json(game.new_game(game.min_seats, {}, 1))
    for data in SAVED[key]:
        state = game.from_json(data)
        saved = game.to_json(state)
        assert {name: value for name, value in saved.items() if name in data} == data
        # Fields added since (Trash War's wall marks) are saved as a new game has them.
        added = set(saved) - set(data)
        assert all(saved[name] == blank[name] for name in added), added
        if game.outcome(state) is None:  # and the game plays on from it
            seat = min(game.to_act(state))
            game.apply(state, seat, game.legal_actions(state, seat)[0])


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_state_of_a_game_survives_a_json_round_trip(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(3)
    state = game.new_game(game.min_seats + 1, {}, 3)
    for _ in range(6 if key == "toss" else 120):
        data = json.loads(json.dumps(game.to_json(state)))  # plain JSON, nothing else
        assert game.from_json(data) == state
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state


def test_a_state_of_another_version_is_refused() -> None:
    data = RUMBLE.to_json(RUMBLE.new_game(3, {}, 1))
    with pytest.raises(ValueError, match="Unknown state version 99"):
        RUMBLE.from_json({**data, "version": 99})


class Spot(NamedTuple):
    x: int
    label: str = ""


@dataclass(frozen=True)
class Sample:
    step: int
    spots: tuple[Spot, ...]
    pairs: tuple[tuple[int, str], ...]
    names: dict[str, int]
    maybe: int | None
    added_later: tuple[str, ...] = ("a default",)


def test_the_codec_reads_back_every_shape_a_state_holds() -> None:
    sample = Sample(4, (Spot(1, "a"), Spot(2)), ((1, "x"),), {"k": 3}, None)
    data = json.loads(json.dumps(codec.to_json(sample)))
    assert data["spots"] == [[1, "a"], [2, ""]]  # a NamedTuple is a list
    assert codec.from_json(Sample, data) == sample
    del data["added_later"]  # saved before the field existed: it takes its default
    assert codec.from_json(Sample, data).added_later == ("a default",)

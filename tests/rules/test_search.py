"""The shared search behind every hard AI (rules/search.py), on a game small enough to know
its right answers: Take the Last, two or three players take one or two lids in turn from a
pile, and whoever takes the last lid wins. Every world the search samples is the real one
(nothing is hidden), so a sound search must find the moves the game's arithmetic dictates."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from rules import search
from rules.base import Applied, Game, Outcome


@dataclass(frozen=True)
class Pile:
    seats: int
    lids: int
    turn: int = 0
    step: int = 0
    winner: int | None = None


class TakeTheLast(Game[Pile, dict[str, Any]]):
    key = "takethelast"
    title = "Take the Last"
    min_seats, max_seats = 2, 3

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> Pile:
        return Pile(seats, int(options["lids"]))

    def to_act(self, state: Pile) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: Pile, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"take {n}" for n in (1, 2) if n <= state.lids]

    def apply(self, state: Pile, seat: int, action: str) -> Applied[Pile]:
        self.check_turn(state, seat)
        lids = state.lids - int(action.split()[1])
        turn = (seat + 1) % state.seats
        winner = seat if lids == 0 else None
        return Applied(replace(state, lids=lids, turn=turn, step=state.step + 1, winner=winner))

    def observe(self, state: Pile, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "seats": state.seats, "lids": state.lids, "turn": state.turn}

    def outcome(self, state: Pile) -> Outcome | None:
        if state.winner is None:
            return None
        ranks = tuple(0 if s == state.winner else 1 for s in range(state.seats))
        return Outcome(ranks, (0,) * state.seats)

    def describe(self, state: Pile, action: str) -> str:
        return action


GAME = TakeTheLast()


def the_pile(observation: Mapping[str, Any], rng: random.Random) -> Pile:
    """Nothing is hidden: the one world consistent with the observation."""
    return Pile(observation["seats"], observation["lids"], observation["turn"])


def even(game: Any, state: Pile) -> tuple[float, ...]:
    return (1 / state.seats,) * state.seats


SEARCH = search.Search(sample=the_pile, iterations=400, evaluate=even)


def pick(lids: int, seats: int = 2, seed: int = 1, how: search.Search = SEARCH) -> str:
    state = Pile(seats, lids)
    observation = GAME.observe(state, 0)
    return search.choose(GAME, observation, GAME.legal_actions(state, 0), random.Random(seed), how)


@pytest.mark.parametrize("lids", [1, 2, 4, 5, 7, 8, 10, 11])
@pytest.mark.parametrize("seed", range(3))
def test_two_players_the_search_leaves_a_multiple_of_three(lids: int, seed: int) -> None:
    """With one or two lids a turn, a pile of a multiple of three is lost for whoever
    faces it: the search must hand the opponent one whenever it can, which it sees only
    if it credits each seat's own wins to the moves that seat chose."""
    assert pick(lids, seed=seed) == f"take {lids % 3}"


@pytest.mark.parametrize("seed", range(5))
def test_the_choice_is_a_function_of_the_observation_and_the_seed(seed: int) -> None:
    """The same observation and generator seed give the same move: games replay."""
    assert pick(6, seats=3, seed=seed) == pick(6, seats=3, seed=seed)


def test_a_single_legal_action_is_played_without_searching() -> None:
    def never(observation: Mapping[str, Any], rng: random.Random) -> Pile:
        raise AssertionError("sampled a world for a forced move")

    assert pick(1, how=search.Search(sample=never, iterations=10, evaluate=even)) == "take 1"


def test_a_playout_cut_short_is_judged_by_evaluate() -> None:
    """With no playout and one iteration per move, the search sees only where each of its
    moves lands, judged by `evaluate`: told that a pile of four is a win for seat 0, it
    takes one from five, and told the opposite, two."""

    def four_is_lost(game: Any, state: Pile) -> tuple[float, ...]:
        return (1.0, 0.0) if state.lids == 4 else (0.0, 1.0)

    def four_is_won(game: Any, state: Pile) -> tuple[float, ...]:
        return (0.0, 1.0) if state.lids == 4 else (1.0, 0.0)

    how = search.Search(sample=the_pile, iterations=2, evaluate=four_is_lost, depth=0)
    assert pick(5, how=how) == "take 1"
    how = search.Search(sample=the_pile, iterations=2, evaluate=four_is_won, depth=0)
    assert pick(5, how=how) == "take 2"


def test_win_shares_split_a_shared_win() -> None:
    assert search.win_shares(Outcome((0, 1, 0), (0, 0, 0))) == (0.5, 0.0, 0.5)

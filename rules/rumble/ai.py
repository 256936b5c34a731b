"""Players the bot provides for Rumble in the Dungeon.

`choose` is the sensible AI. It sees only what its seat's observation holds (the dungeon,
the exit line, its own two secret characters) and the legal actions. For each action it
pictures the dungeon one move later and scores that picture from its own point of view:

- its characters: one alone in a room is fairly safe; one sharing a room may be thrown out
  by the next player; one with the chest is worth more the nearer it stands to the entrance
  (distances run through the passages), and one that got away with the chest has its prize;
- only the better of its two characters fully counts, as in the scoring (the other a little,
  as a spare);
- every other character still in the dungeon costs a little, so fights beat idle moves.

It never throws out one of its own characters while it has any other choice. Ties are
broken with `rng`.

Games between AIs must end, yet two players can each keep the other from winning forever
(one carries the chest into the entrance, the other carries it back out). Two things break
such stand-offs, and also keep the AI's secret harder to read:

- now and then (`STIR_CHANCE`) it picks a fight, an exit or a crowding move that looks
  nearly as good as its best;
- it counts the actions played against the characters gone from the dungeon; when far more
  actions than usual went by without anyone leaving, it grows impatient and, more and more
  often, plays any action at random.

`random_choice` is the random player the playout tests use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.base import AnyGame

from rules.rumble.dungeon import ROOMS, Layout, distances, passages

# Scoring, as the rulebook gives it (the engine counts the real score with its own table).
LAST_STANDING = 10
LAST_STANDING_CHEST_GONE = 9
CHEST_EXIT = 10
FREE_PLACES = 2
LEAVERS_PER_RUMBLE = 11  # every rumble ends when all but one character have left

# How the AI weighs a board.
THREAT = 0.7  # how likely the next player throws out a character that shares a room
CHEST_HOPE = 0.6  # how much of the chest prize a bearer in the entrance counts on
APPROACH = 0.1  # a pull toward the chest for a character of ours
CROWD_COST = 0.3  # the cost of each other character still in the dungeon
CHEST_RISK = 1.0  # the cost of the chest in the entrance with only others beside it
SPARE = 0.25  # how much our weaker character counts

# How the AI breaks stand-offs.
STIR_CHANCE = 0.1  # how often to pick a fight, exit or crowding move that is nearly as good
STIR_MARGIN = 2.0  # how much worse than the best such an action may look
PATIENCE_PER_RUMBLE = 20  # actions without anyone leaving that any rumble may take
PATIENCE_PER_LEAVER = 8  # and more for each character that has left so far
IMPATIENCE_RATE = 0.01  # the chance of a random action grows this much per action over
MOST_IMPATIENT = 0.5


@dataclass(frozen=True)
class Board:
    """The part of an observation that actions change."""

    positions: dict[str, str]  # character -> room, for those in the dungeon
    chest: str | None
    chest_exited_with: str | None
    exit_line: tuple[str, ...]


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    mine = frozenset(observation.get("secret") or ())
    plan = dungeon_map(_layout(observation))
    board = Board(
        positions=dict(observation["positions"]),
        chest=observation["chest"],
        chest_exited_with=observation["chest_exited_with"],
        exit_line=tuple(observation["exit_line"]),
    )
    # Never throw out one of our own while there is anything else to do.
    choices = [a for a in legal if not _throws_out_own(a, mine)] or legal
    if rng.random() < min(MOST_IMPATIENT, IMPATIENCE_RATE * impatience(observation)):
        return rng.choice(choices)
    scored = [(value(after(board, plan, a), plan, mine), rng.random(), a) for a in choices]
    best = max(scored)
    if rng.random() < STIR_CHANCE:
        near = best[0] - STIR_MARGIN
        stirring = [a for v, _, a in scored if v >= near and _stirs(board, plan, a)]
        if stirring:
            return rng.choice(stirring)
    return best[2]


def impatience(observation: Mapping[str, Any]) -> int:
    """How many more actions than usual were played for the characters that have left."""
    history = observation["history"]
    leavers = LEAVERS_PER_RUMBLE * len(history) + len(observation["exit_line"])
    leavers += observation["chest_exited_with"] is not None
    idle = observation["step"] - leavers
    allowed = PATIENCE_PER_RUMBLE * (len(history) + 1) + PATIENCE_PER_LEAVER * leavers
    return int(max(0, idle - allowed))


@dataclass(frozen=True)
class Map:
    """The dungeon as the AI reads it: where each passage leads and how far rooms are."""

    passages: dict[str, dict[str, str]]  # room -> side -> room
    steps: dict[str, dict[str, int]]  # room -> room -> steps through passages
    entrance: str


@lru_cache(maxsize=64)
def dungeon_map(layout: Layout) -> Map:
    """Worked out once per layout: every decision of a game reads the same map."""
    return Map(
        passages=passages(layout),
        steps={room: distances(layout, room) for room in ROOMS},
        entrance=layout.entrance,
    )


def _layout(observation: Mapping[str, Any]) -> Layout:
    return Layout(
        name="seen",
        doors=tuple(tile["doors"] for tile in observation["tiles"]),
        entrance=observation["entrance"],
        treasure_room=observation["treasure_room"],
    )


def _throws_out_own(action: str, mine: frozenset[str]) -> bool:
    verb, character = action.split()[:2]
    return verb == "fight" and character in mine


def _stirs(board: Board, plan: Map, action: str) -> bool:
    """A fight, an exit, or a move into a room that already holds someone."""
    words = action.split()
    if words[0] != "move":
        return True
    goal = plan.passages[board.positions[words[1]]][words[2]]
    return goal in board.positions.values()


def after(board: Board, plan: Map, action: str) -> Board:
    """The board once a legal `action` is done."""
    words = action.split()
    verb, character = words[0], words[1]
    positions = dict(board.positions)
    if verb == "move":
        goal = plan.passages[positions[character]][words[2]]
        positions[character] = goal
        chest = goal if words[3:] == ["chest"] else board.chest
        return Board(positions, chest, board.chest_exited_with, board.exit_line)
    del positions[character]
    if verb == "fight":
        return Board(positions, board.chest, board.chest_exited_with, (*board.exit_line, character))
    return Board(positions, None, character, board.exit_line)  # out with the chest


def value(board: Board, plan: Map, mine: frozenset[str]) -> float:
    """How good `board` looks for a player backing the characters in `mine`."""
    rooms = list(board.positions.values())
    worth = [_worth(board, plan, character, rooms) for character in mine]
    # Only the better character scores; the other is a spare, should the first fall.
    score = max(worth) + SPARE * (sum(worth) - max(worth)) if worth else 0.0
    if len(rooms) == 1:
        return score  # the rumble is over: nothing else matters
    others = [c for c in board.positions if c not in mine]
    score -= CROWD_COST * len(others)
    entrance = plan.entrance
    if board.chest == entrance and any(board.positions[c] == entrance for c in others):
        score -= CHEST_RISK
    return score


def _worth(board: Board, plan: Map, character: str, rooms: list[str]) -> float:
    """What one of our characters is likely to score, seen from this board."""
    if character == board.chest_exited_with:
        return CHEST_EXIT
    room = board.positions.get(character)
    if room is None:  # thrown out already
        return float(_place_points(board.exit_line.index(character) + 1))
    prize = LAST_STANDING if board.chest_exited_with is None else LAST_STANDING_CHEST_GONE
    if len(rooms) == 1:
        return float(prize)
    # Thrown out next, it would score `floor`; staying in, it can only do better.
    floor = float(_place_points(len(board.exit_line) + 1))
    alive = floor + (prize - floor) * 1.5 / len(rooms)
    if board.chest == room:
        to_entrance = plan.steps[room].get(plan.entrance, len(ROOMS))
        alive += (CHEST_EXIT - alive) * CHEST_HOPE / (1 + to_entrance)
    elif board.chest is not None:
        to_chest = plan.steps[room].get(board.chest, len(ROOMS))
        alive += (CHEST_EXIT - alive) * APPROACH / (1 + to_chest)
    if rooms.count(room) > 1:
        alive = floor + (alive - floor) * (1 - THREAT)
    return alive


def _place_points(place: int) -> int:
    """Points for the character at `place` (counted from 1) in the exit line."""
    return max(0, place - FREE_PLACES)


def choose_easy(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The easy level. (Interim: the normal AI, until this game's beginner is written.)"""
    return choose(observation, legal, rng)


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level. (Interim: the normal AI, until this game's search is written.)"""
    return choose(observation, legal, rng)

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

`choose_easy` is a beginner. It chooses the way `choose` does (the same look one move ahead,
the same stand-off breakers) but with a beginner's sense of a board (`BEGINNER`):

- it does not see what the next player threatens: a character of ours sharing a room looks
  as safe as one alone, so it walks its characters in beside others on the way to the chest;
- it forgets that only the better of its two characters scores, and backs both alike;
- it grabs the chest and runs for the exit, whoever waits in the entrance.

`choose_hard` searches (rules/search.py) instead of judging one move ahead. It takes the
`HARD_CANDIDATES` actions the normal AI likes best and tries each in `HARD_ITERATIONS` worlds
drawn from its observation (`sample.py`: the others' pairs dealt at random from the
characters it does not hold, a fresh seed for the rumbles to come). In each world the normal
AI plays every seat, with the pair it holds there, for `HARD_DEPTH` actions; then `judge`
turns each seat's total and likely points into a chance to win (a seat that can no longer
catch up has none). It plays the action tried most, the search spending its tries on those
that win most. It never sees the others' pairs: only the worlds it drew.

`random_choice` is the random player the playout tests use.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.base import AnyGame

from rules import search
from rules.rumble.dungeon import ROOMS, Layout, distances, passages
from rules.rumble.sample import sample, seen_layout
from rules.rumble.state import State

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


@dataclass(frozen=True)
class Weights:
    """How a player weighs a board: the normal AI's sense, or a beginner's (`BEGINNER`)."""

    threat: float = THREAT
    chest_hope: float = CHEST_HOPE
    approach: float = APPROACH
    crowd_cost: float = CROWD_COST
    chest_risk: float = CHEST_RISK
    spare: float = SPARE


SENSIBLE = Weights()
# A beginner's sense of a board: it does not see that the next player may throw out a
# character sharing a room, counts both its characters as if both scored, runs for the exit
# with the chest whatever waits there.
BEGINNER = Weights(threat=0.0, chest_hope=1.0, chest_risk=0.0, spare=1.0)


def random_choice(legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal)


def choose(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The AI's action, from its observation and its legal actions only."""
    return _decide(observation, legal, rng, SENSIBLE)


def choose_easy(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The easy level: the normal AI's way of choosing, with a beginner's sense of a board
    (`BEGINNER`)."""
    return _decide(observation, legal, rng, BEGINNER)


def _decide(
    observation: Mapping[str, Any], legal: list[str], rng: random.Random, weights: Weights
) -> str:
    if not legal:
        raise ValueError("No legal action to choose from.")
    mine = frozenset(observation.get("secret") or ())
    plan = dungeon_map(seen_layout(observation))
    # Never throw out one of our own while there is anything else to do.
    choices = [a for a in legal if not _throws_out_own(a, mine)] or legal
    if rng.random() < min(MOST_IMPATIENT, IMPATIENCE_RATE * impatience(observation)):
        return rng.choice(choices)
    return pick(board_of(observation), plan, mine, choices, rng, weights)


def board_of(seen: Mapping[str, Any] | State) -> Board:
    """The board of an observation, or of a whole state (the hard AI's sampled worlds)."""
    if isinstance(seen, State):
        return Board(dict(seen.positions), seen.chest, seen.chest_exited_with, seen.exit_line)
    return Board(
        positions=dict(seen["positions"]),
        chest=seen["chest"],
        chest_exited_with=seen["chest_exited_with"],
        exit_line=tuple(seen["exit_line"]),
    )


def pick(
    board: Board,
    plan: Map,
    mine: frozenset[str],
    choices: list[str],
    rng: random.Random,
    weights: Weights = SENSIBLE,
) -> str:
    """The best-looking of `choices`, or now and then a stirring one nearly as good."""
    scored = [(value(after(board, plan, a), plan, mine, weights), rng.random(), a) for a in choices]
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


def value(board: Board, plan: Map, mine: frozenset[str], weights: Weights = SENSIBLE) -> float:
    """How good `board` looks for a player backing the characters in `mine`."""
    rooms = list(board.positions.values())
    worth = [_worth(board, plan, character, rooms, weights) for character in mine]
    # Only the better character scores; the other is a spare, should the first fall.
    score = max(worth) + weights.spare * (sum(worth) - max(worth)) if worth else 0.0
    if len(rooms) == 1:
        return score  # the rumble is over: nothing else matters
    others = [c for c in board.positions if c not in mine]
    score -= weights.crowd_cost * len(others)
    entrance = plan.entrance
    if board.chest == entrance and any(board.positions[c] == entrance for c in others):
        score -= weights.chest_risk
    return score


def _worth(
    board: Board, plan: Map, character: str, rooms: list[str], weights: Weights = SENSIBLE
) -> float:
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
        alive += (CHEST_EXIT - alive) * weights.chest_hope / (1 + to_entrance)
    elif board.chest is not None:
        to_chest = plan.steps[room].get(board.chest, len(ROOMS))
        alive += (CHEST_EXIT - alive) * weights.approach / (1 + to_chest)
    if rooms.count(room) > 1:
        alive = floor + (alive - floor) * (1 - weights.threat)
    return alive


def _place_points(place: int) -> int:
    """Points for the character at `place` (counted from 1) in the exit line."""
    return max(0, place - FREE_PLACES)


# ---------------------------------------------------------------------------------------------
# Hard: a rollout search over worlds drawn from the observation

# How the hard AI searches (measured with bench/ai_strength.py; see the module docstring).
HARD_CANDIDATES = 8  # the normal AI's best-looking actions the search weighs
HARD_ITERATIONS = 160  # worlds drawn and played out per decision
HARD_DEPTH = 4  # actions played out past the candidate before the board is judged
HARD_EXPLORATION = 0.2
# How much doubt a lead in points leaves (`judge`): a lead this many points bigger makes a
# win e times likelier. More points are still to come, so more doubt, in earlier rumbles.
SPREAD_THIS_RUMBLE = 3.0
SPREAD_PER_RUMBLE_TO_COME = 4.0
RUMBLES = 3
BEST_RUMBLE = max(LAST_STANDING, CHEST_EXIT)  # the most one rumble can score


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level: the normal AI's few best-looking actions, each tried in many worlds
    drawn from the observation and played on by the normal AI; the one that wins most."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    mine = frozenset(observation.get("secret") or ())
    plan = dungeon_map(seen_layout(observation))
    board = board_of(observation)
    choices = [a for a in legal if not _throws_out_own(a, mine)] or legal
    ranked = sorted(choices, key=lambda a: value(after(board, plan, a), plan, mine), reverse=True)
    return search.choose(game, observation, ranked[:HARD_CANDIDATES], rng, HARD_SEARCH)


def play_on(game: AnyGame, state: State, seat: int, rng: random.Random) -> str:
    """The playout policy: the normal AI, for any seat, with the pair it holds in the world."""
    legal = game.legal_actions(state, seat)
    mine = frozenset(state.secrets[seat])
    choices = [a for a in legal if not _throws_out_own(a, mine)] or legal
    return pick(board_of(state), dungeon_map(state.layout), mine, choices, rng)


def judge(game: AnyGame, state: State) -> tuple[float, ...]:
    """Each seat's chance to win, guessed from a world where the playout stopped: its total
    so far plus what its better character is likely to score this rumble, against the
    others', with more doubt the more rumbles are still to come. A seat that can no longer
    catch up with another's sure points has no chance at all."""
    board = board_of(state)
    plan = dungeon_map(state.layout)
    rooms = list(board.positions.values())
    to_come = RUMBLES - state.rumble
    expected, least, most = [], [], []
    for total, pair in zip(state.totals, state.secrets, strict=True):
        worth = [_worth(board, plan, character, rooms) for character in pair]
        expected.append(total + max(worth) + SPARE * min(worth))
        least.append(total + max(_sure_points(board, character) for character in pair))
        best = max(_most_points(board, character) for character in pair)
        most.append(total + best + BEST_RUMBLE * to_come)
    spread = SPREAD_THIS_RUMBLE + SPREAD_PER_RUMBLE_TO_COME * to_come
    top = max(expected)
    weights = [
        0.0
        if any(most[seat] < least[other] for other in range(len(least)) if other != seat)
        else math.exp((points - top) / spread)
        for seat, points in enumerate(expected)
    ]
    return tuple(weight / sum(weights) for weight in weights)


def _sure_points(board: Board, character: str) -> int:
    """What `character` scores this rumble at the least, whatever happens from `board`."""
    if character == board.chest_exited_with:
        return CHEST_EXIT
    if character in board.exit_line:
        return _place_points(board.exit_line.index(character) + 1)
    # Still in: thrown out next at the worst; every later place, and staying, scores more.
    return _place_points(len(board.exit_line) + 1)


def _most_points(board: Board, character: str) -> int:
    """What `character` scores this rumble at the most, whatever happens from `board`."""
    if character == board.chest_exited_with:
        return CHEST_EXIT
    if character in board.exit_line:
        return _place_points(board.exit_line.index(character) + 1)
    return BEST_RUMBLE if board.chest is not None else LAST_STANDING_CHEST_GONE


HARD_SEARCH = search.Search(
    sample=sample,
    iterations=HARD_ITERATIONS,
    evaluate=judge,
    depth=HARD_DEPTH,
    playout=play_on,
    exploration=HARD_EXPLORATION,
    tree_depth=1,
)

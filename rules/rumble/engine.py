"""Rumble in the Dungeon: the rules engine.

Twelve characters crowd a dungeon of twelve rooms. Each player secretly backs two of them.
On a turn a player does exactly one thing, to any character, theirs or not:

- walk a character through a passage to a neighbouring room. Only a character alone in its
  room may move, except that any character in the chest's room may move, carrying the
  chest. Leaving the chest's room with others still in it, the chest must go along; leaving
  it alone, the mover chooses whether the chest comes too;
- pick a room where two or more characters stand and throw one of them out of the
  dungeon; the thrown-out characters queue up in the exit line, in order;
- take a character standing in the entrance with the chest out of the dungeon, chest and
  all. The rumble goes on.

A rumble ends when a single character is left in the dungeon. Each player scores only the
better of their two characters (see `character_points`). Three rumbles make a game; the
lowest scorer so far opens each later rumble.

Table rules of this bot, where the rulebook and the house rules are silent (tests check
each one):

- The character that leaves with the chest takes no place in the exit line: the line holds
  only characters thrown out in fights, so the third one thrown out scores 1 whether or not
  the chest left before it.
- When several players share the fewest points, the one to start the next rumble is drawn
  at random from the game's seed.
- A turn cannot be passed: every turn is one of the actions below (the rulebook makes the
  action compulsory, so there is no "do nothing").

House rules applied here: two players is an unofficial option; the dungeon is a 4 x 3 grid
(see `dungeon.py`); a character thrown out while standing with the chest leaves the chest in
the room; leaving a crowded chest room takes the chest along, leaving it alone the mover
chooses; play carries on after the chest leaves; final ties are shared wins.

Actions are strings, with character keys from `characters.py` and sides N, E, S, W:

    move <character> <side>          move a character alone in its room (without the chest)
    move <character> <side> chest    move a character out of the chest's room, chest and all
    fight <character>                start a fight in that character's room, throwing it out
    exit <character>                 leave the dungeon from the entrance with the chest
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.base import (
    JSON,
    Applied,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    ranks_from_points,
    rng_for,
)
from rules.rumble import ai
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import (
    LAYOUT_CHOICES,
    RANDOM,
    ROOMS,
    SIDE_NAMES,
    SIDES,
    Layout,
    layout_from_json,
    layout_to_json,
    make_layout,
    passage,
    passages,
    tiles,
)
from rules.rumble.observation import RumbleObservation, RumbleResult

SCHEMA = 1
RUMBLES = 3  # rumbles in a game
SECRETS_EACH = 2  # secret characters dealt to every player

# Scoring (rulebook): the last character standing, and the one that got away with the chest.
LAST_STANDING_POINTS = 10
LAST_STANDING_POINTS_CHEST_GONE = 9
CHEST_EXIT_POINTS = 10
FREE_PLACES = 2  # the first two out of the dungeon score nothing; each later one a point more

NOT_A_MOVE = "That is not a move in this game."


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class Reveal:
    """A finished rumble, with everyone's secret characters turned face up."""

    rumble: int
    secrets: tuple[tuple[str, ...], ...]  # per seat
    points: tuple[int, ...]  # per seat, this rumble
    best: tuple[str, ...]  # per seat, the character those points came from
    last_standing: str
    chest_exited_with: str | None
    exit_line: tuple[str, ...]

    def as_result(self) -> RumbleResult:
        return RumbleResult(
            rumble=self.rumble,
            secrets=[list(pair) for pair in self.secrets],
            points=list(self.points),
            best=list(self.best),
            last_standing=self.last_standing,
            chest_exited_with=self.chest_exited_with,
            exit_line=list(self.exit_line),
        )


@dataclass(frozen=True)
class State:
    """A whole game. Never changed in place: `apply` builds a new one.

    `positions` is a dict for easy reading; treat it as read-only.
    """

    seed: int
    seats: int
    layout: Layout
    version: int = SCHEMA
    counter: int = 0  # random draws made from the seed so far (one per rumble set-up)
    step: int = 0  # actions applied in the whole game
    rumble: int = 1  # 1..3
    starter: int = 0  # the seat that started this rumble
    turn: int = 0  # the seat to act
    positions: dict[str, str] = field(default_factory=dict)  # character -> room, in dungeon
    chest: str | None = None  # the chest's room; None once it has left the dungeon
    chest_exited_with: str | None = None  # the character that left with the chest
    exit_line: tuple[str, ...] = ()  # characters thrown out in fights, in order
    secrets: tuple[tuple[str, ...], ...] = ()  # per seat, two characters
    totals: tuple[int, ...] = ()  # per seat, over the finished rumbles
    history: tuple[Reveal, ...] = ()  # finished rumbles
    finished: bool = False


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class Move:
    character: str
    side: str
    with_chest: bool


@dataclass(frozen=True)
class Fight:
    victim: str


@dataclass(frozen=True)
class Exit:
    character: str


Action = Move | Fight | Exit


def parse_action(text: str) -> Action:
    """Read an action string; raises `IllegalAction` for anything outside the grammar."""
    words = text.split()
    if len(words) < 2 or words[1] not in CHARACTERS:
        raise IllegalAction(NOT_A_MOVE)
    verb, character, rest = words[0], words[1], words[2:]
    if verb == "move" and rest and rest[0] in SIDES and rest[1:] in ([], ["chest"]):
        return Move(character, rest[0], with_chest=rest[1:] == ["chest"])
    if verb == "fight" and not rest:
        return Fight(character)
    if verb == "exit" and not rest:
        return Exit(character)
    raise IllegalAction(NOT_A_MOVE)


def action_text(action: Action) -> str:
    """The string form of an action: the inverse of `parse_action`."""
    if isinstance(action, Move):
        return f"move {action.character} {action.side}" + (" chest" if action.with_chest else "")
    if isinstance(action, Fight):
        return f"fight {action.victim}"
    return f"exit {action.character}"


def name(character: str, *, capital: bool = False) -> str:
    """'the Knight' ('The Knight' to start a sentence): how events and reasons say it."""
    return f"{'The' if capital else 'the'} {CHARACTERS[character]}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def crowd(positions: Mapping[str, str]) -> Counter[str]:
    """How many characters stand in each room."""
    return Counter(positions.values())


def _may_move(state: State, room: str, head_count: Counter[str]) -> bool:
    """Only a character alone in its room may move, or any character with the chest."""
    return head_count[room] == 1 or state.chest == room


def legal_moves(state: State) -> list[Action]:
    """Every action the rules allow now, in a fixed order: moves, fights, exits."""
    head_count = crowd(state.positions)
    joined = passages(state.layout)
    moves: list[Action] = []
    fights: list[Action] = []
    exits: list[Action] = []
    for character in CHARACTERS:
        room = state.positions.get(character)
        if room is None:
            continue
        if _may_move(state, room, head_count):
            for side in joined[room]:
                if state.chest == room:
                    if head_count[room] == 1:  # alone with the chest: the mover chooses
                        moves.append(Move(character, side, with_chest=False))
                    moves.append(Move(character, side, with_chest=True))
                else:
                    moves.append(Move(character, side, with_chest=False))
        if head_count[room] >= 2:
            fights.append(Fight(character))
        if room == state.layout.entrance and state.chest == room:
            exits.append(Exit(character))
    return moves + fights + exits


def _check(state: State, action: Action) -> None:
    """Raise `IllegalAction` naming the rule when `action` breaks one."""
    character = action.victim if isinstance(action, Fight) else action.character
    room = state.positions.get(character)
    if room is None:
        raise IllegalAction(f"{name(character, capital=True)} is no longer in the dungeon.")
    head_count = crowd(state.positions)
    if isinstance(action, Move):
        _check_move(state, action, room, head_count)
    elif isinstance(action, Fight):
        if head_count[room] < 2:
            raise IllegalAction(
                f"{name(character, capital=True)} is alone in {room}: "
                "a fight needs two or more characters in the room."
            )
    elif room != state.layout.entrance or state.chest != room:
        raise IllegalAction("Only a character in the entrance room with the chest may exit.")


def _check_move(state: State, move: Move, room: str, head_count: Counter[str]) -> None:
    if not _may_move(state, room, head_count):
        raise IllegalAction(
            f"{name(move.character, capital=True)} shares its room, so it cannot move: "
            "only a character alone in its room (or with the chest) may move."
        )
    if passage(state.layout, room, move.side) is None:
        raise IllegalAction(f"There is no passage {SIDE_NAMES[move.side]} from {room}.")
    if move.with_chest and state.chest != room:
        raise IllegalAction(f"The chest is not in {room}, so it cannot go along.")
    if not move.with_chest and state.chest == room and head_count[room] > 1:
        raise IllegalAction("With others in the room, the chest must go along.")


# ---------------------------------------------------------------------------------------------
# Scoring


def character_points(state: State) -> dict[str, int]:
    """What each of the twelve characters scores when the rumble ends now (rulebook).

    Places 1 and 2 of the exit line score nothing; from place 3 on, a place scores its
    number less two. The last character standing scores 10, or 9 when the chest has left
    with another character, who scores 10. Characters still in the dungeon beside the last
    one (none, once the rumble is over) score nothing.
    """
    points = dict.fromkeys(CHARACTERS, 0)
    for place, character in enumerate(state.exit_line, start=1):
        points[character] = max(0, place - FREE_PLACES)
    if state.chest_exited_with is not None:
        points[state.chest_exited_with] = CHEST_EXIT_POINTS
    if len(state.positions) == 1:
        (last,) = state.positions
        points[last] = (
            LAST_STANDING_POINTS
            if state.chest_exited_with is None
            else LAST_STANDING_POINTS_CHEST_GONE
        )
    return points


def best_of(pair: tuple[str, ...], points: Mapping[str, int]) -> str:
    """The one of a player's characters that counts: only the better scores (rulebook)."""
    return max(pair, key=lambda character: points[character])


def _reveal(state: State) -> Reveal:
    points = character_points(state)
    best = tuple(best_of(pair, points) for pair in state.secrets)
    (last,) = state.positions
    return Reveal(
        rumble=state.rumble,
        secrets=state.secrets,
        points=tuple(points[character] for character in best),
        best=best,
        last_standing=last,
        chest_exited_with=state.chest_exited_with,
        exit_line=state.exit_line,
    )


# ---------------------------------------------------------------------------------------------
# Setting up a rumble


def _set_up_rumble(state: State, rumble: int, candidates: list[int]) -> State:
    """Every character to a random room, the chest to its starting room, fresh secrets
    dealt, and a starter drawn from `candidates`. Uses one random draw from the seed."""
    rng = rng_for(state.seed, "rumble", state.counter)
    placed = list(CHARACTERS)
    rng.shuffle(placed)
    room_of = dict(zip(placed, ROOMS, strict=True))
    deck = list(CHARACTERS)
    rng.shuffle(deck)
    secrets = tuple(
        tuple(deck[seat * SECRETS_EACH : (seat + 1) * SECRETS_EACH]) for seat in range(state.seats)
    )
    starter = rng.choice(candidates)
    return replace(
        state,
        counter=state.counter + 1,
        rumble=rumble,
        starter=starter,
        turn=starter,
        positions={character: room_of[character] for character in CHARACTERS},
        chest=state.layout.treasure_room,
        chest_exited_with=None,
        exit_line=(),
        secrets=secrets,
    )


def fewest_points(totals: tuple[int, ...]) -> list[int]:
    """The seats with the fewest points: the next rumble's starter comes from them."""
    low = min(totals)
    return [seat for seat, total in enumerate(totals) if total == low]


# ---------------------------------------------------------------------------------------------
# Applying an action


def _perform(state: State, seat: int, action: Action) -> tuple[dict[str, Any], Event]:
    """What a checked action changes in the state, and the line that tells it."""
    who = f"{{p{seat}}}"
    if isinstance(action, Move):
        return _perform_move(state, who, action)
    if isinstance(action, Fight):
        room = state.positions[action.victim]
        exit_line = (*state.exit_line, action.victim)
        text = (
            f"{who} starts a fight in {room}: {name(action.victim)} is thrown out "
            f"({ordinal(len(exit_line))} out)."
        )
        # The chest stays where it is, even when its bearer is thrown out (house rule).
        return {"positions": _without(state, action.victim), "exit_line": exit_line}, Event(text)
    text = f"{who} sneaks {name(action.character)} out of the dungeon with the chest!"
    changes = {
        "positions": _without(state, action.character),
        "chest": None,
        "chest_exited_with": action.character,
    }
    return changes, Event(text)


def _without(state: State, character: str) -> dict[str, str]:
    return {c: room for c, room in state.positions.items() if c != character}


def _perform_move(state: State, who: str, move: Move) -> tuple[dict[str, Any], Event]:
    start = state.positions[move.character]
    goal = passages(state.layout)[start][move.side]
    positions = dict(state.positions)
    positions[move.character] = goal
    taking = ", taking the chest." if move.with_chest else "."
    text = f"{who} moves {name(move.character)} {SIDE_NAMES[move.side]} from {start} to {goal}"
    text += taking
    if move.with_chest:
        return {"positions": positions, "chest": goal}, Event(text)
    return {"positions": positions}, Event(text)


def _end_rumble(state: State) -> tuple[State, list[Event]]:
    """Reveal, score, and either set up the next rumble or finish the game."""
    reveal = _reveal(state)
    totals = tuple(t + p for t, p in zip(state.totals, reveal.points, strict=True))
    state = replace(state, totals=totals, history=(*state.history, reveal))
    events = [Event(_rumble_over_text(reveal))]
    for seat, pair in enumerate(reveal.secrets):
        events.append(Event(_seat_reveal_text(seat, pair, reveal, totals[seat])))
    if state.rumble < RUMBLES:
        candidates = fewest_points(totals)
        state = _set_up_rumble(state, state.rumble + 1, candidates)
        tie = " (drawn at random among the tied)" if len(candidates) > 1 else ""
        events.append(
            Event(
                f"{{p{state.starter}}} has the fewest points{tie} and starts rumble {state.rumble}."
            )
        )
    else:
        state = replace(state, finished=True)
        events.append(Event(_winners_text(totals)))
    return state, events


def _rumble_over_text(reveal: Reveal) -> str:
    text = f"Rumble {reveal.rumble} is over: {name(reveal.last_standing)} is the last one standing."
    if reveal.chest_exited_with is not None:
        text += f" {name(reveal.chest_exited_with, capital=True)} got away with the chest."
    return text


def _seat_reveal_text(seat: int, pair: tuple[str, ...], reveal: Reveal, total: int) -> str:
    names = " and ".join(name(character) for character in pair)
    points = reveal.points[seat]
    return (
        f"{{p{seat}}} was secretly backing {names}: {points} point{'s' * (points != 1)} "
        f"for {name(reveal.best[seat])} (total {total})."
    )


def _winners_text(totals: tuple[int, ...]) -> str:
    top = max(totals)
    winners = [f"{{p{seat}}}" for seat, total in enumerate(totals) if total == top]
    if len(winners) == 1:
        return f"{winners[0]} wins the game with {top} points!"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {top} points!"


# ---------------------------------------------------------------------------------------------
# JSON


def state_to_json(state: State) -> JSON:
    return {
        "version": state.version,
        "seed": state.seed,
        "seats": state.seats,
        "layout": layout_to_json(state.layout),
        "counter": state.counter,
        "step": state.step,
        "rumble": state.rumble,
        "starter": state.starter,
        "turn": state.turn,
        "positions": dict(state.positions),
        "chest": state.chest,
        "chest_exited_with": state.chest_exited_with,
        "exit_line": list(state.exit_line),
        "secrets": [list(pair) for pair in state.secrets],
        "totals": list(state.totals),
        "history": [dict(reveal.as_result()) for reveal in state.history],
        "finished": state.finished,
    }


def _reveal_from_json(data: Mapping[str, Any]) -> Reveal:
    return Reveal(
        rumble=int(data["rumble"]),
        secrets=tuple(tuple(pair) for pair in data["secrets"]),
        points=tuple(int(p) for p in data["points"]),
        best=tuple(data["best"]),
        last_standing=str(data["last_standing"]),
        chest_exited_with=data["chest_exited_with"],
        exit_line=tuple(data["exit_line"]),
    )


def state_from_json(data: JSON) -> State:
    if data.get("version") != SCHEMA:
        raise ValueError(f"Unknown Rumble state version {data.get('version')!r}")
    return State(
        version=SCHEMA,
        seed=int(data["seed"]),
        seats=int(data["seats"]),
        layout=layout_from_json(data["layout"]),
        counter=int(data["counter"]),
        step=int(data["step"]),
        rumble=int(data["rumble"]),
        starter=int(data["starter"]),
        turn=int(data["turn"]),
        positions={str(c): str(r) for c, r in data["positions"].items()},
        chest=data["chest"],
        chest_exited_with=data["chest_exited_with"],
        exit_line=tuple(data["exit_line"]),
        secrets=tuple(tuple(pair) for pair in data["secrets"]),
        totals=tuple(int(t) for t in data["totals"]),
        history=tuple(_reveal_from_json(reveal) for reveal in data["history"]),
        finished=bool(data["finished"]),
    )


# ---------------------------------------------------------------------------------------------
# The game


class Rumble(Game):
    key = "rumble"
    title = "Rumble in the Dungeon"
    min_seats = 2  # unofficial (house rules); the box says 3
    max_seats = 6
    options = (
        Option(
            name="layout",
            description="The dungeon: drawn at random from the seed, or a fixed one.",
            choices=LAYOUT_CHOICES,
            default=RANDOM,
        ),
    )

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                f"Rumble in the Dungeon takes {self.min_seats} to {self.max_seats} players."
            )
        # Options other games use are ignored: `layout` is the only one this game reads.
        choice = options.get("layout", RANDOM) or RANDOM
        if choice not in LAYOUT_CHOICES:
            raise IllegalAction(f"There is no layout '{choice}': pick {', '.join(LAYOUT_CHOICES)}.")
        layout = make_layout(choice, rng_for(seed, "layout"))
        state = State(seed=seed, seats=seats, layout=layout, totals=(0,) * seats)
        # The first rumble's starting player is picked at random (rulebook).
        return _set_up_rumble(state, 1, list(range(seats)))

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.finished else frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.finished or seat != state.turn:
            return []
        return [action_text(action) for action in legal_moves(state)]

    def apply(self, state: State, seat: int, action: str) -> Applied:
        if state.finished:
            raise IllegalAction("That game is over.")
        if seat != state.turn:
            raise IllegalAction("It is not your turn.")
        parsed = parse_action(action)
        _check(state, parsed)
        changes, event = _perform(state, seat, parsed)
        # Play passes clockwise.
        state = replace(state, step=state.step + 1, turn=(seat + 1) % state.seats, **changes)
        events = [event]
        if len(state.positions) == 1:  # one character left: the rumble is over
            state, more = _end_rumble(state)
            events += more
        return Applied(state, events)

    def observe(self, state: State, seat: int | None) -> JSON:
        # A seat sees its own pair and nothing of anyone else's; the public view sees none.
        secret = list(state.secrets[seat]) if seat is not None and 0 <= seat < state.seats else None
        view = RumbleObservation(
            game="rumble",
            seat=seat,
            seats=state.seats,
            step=state.step,
            rumble=state.rumble,
            to_act=[] if state.finished else [state.turn],
            starter=state.starter,
            finished=state.finished,
            tiles=tiles(state.layout),
            entrance=state.layout.entrance,
            treasure_room=state.layout.treasure_room,
            positions=dict(state.positions),
            chest=state.chest,
            chest_exited_with=state.chest_exited_with,
            exit_line=list(state.exit_line),
            totals=list(state.totals),
            history=[reveal.as_result() for reveal in state.history],
            secret=secret,
        )
        return dict(view)

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        return Outcome(ranks=ranks_from_points(state.totals), points=state.totals)

    def to_json(self, state: State) -> JSON:
        return state_to_json(state)

    def from_json(self, data: JSON) -> State:
        return state_from_json(data)

    def describe(self, state: State, action: str) -> str:
        try:
            parsed = parse_action(action)
        except IllegalAction:
            return action
        return describe_action(state, parsed)

    def choose(self, observation: JSON, legal: list[str], rng: random.Random) -> str:
        return ai.choose(observation, legal, rng)


def describe_action(state: State, action: Action) -> str:
    """A short button label: "Move Knight east to C2 (with chest)"."""
    if isinstance(action, Move):
        who = CHARACTERS[action.character]
        room = state.positions.get(action.character)
        goal = passage(state.layout, room, action.side) if room else None
        label = f"Move {who} {SIDE_NAMES[action.side]}" + (f" to {goal}" if goal else "")
        return label + (" (with chest)" if action.with_chest else "")
    if isinstance(action, Fight):
        room = state.positions.get(action.victim, "?")
        return f"Fight in {room}: remove {CHARACTERS[action.victim]}"
    return f"Exit with the chest ({CHARACTERS[action.character]})"


RUMBLE = Rumble()

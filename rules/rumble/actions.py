"""Rumble's actions (move, fight, exit): their text for buttons and the log, the legal moves of
the seat to act, the checks with the refusal a player reads, and the sentence that describes
one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import NOT_A_MOVE, IllegalAction
from rules.phrases import Phrase, phrase
from rules.rumble.characters import CHARACTERS, named, the
from rules.rumble.dungeon import SIDES, direction, passage, passages
from rules.rumble.state import State

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


def ordinal(n: int) -> str:
    """An English ordinal, "3rd" (the English of `place`)."""
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


def check(state: State, action: Action) -> None:
    """Raise `IllegalAction` naming the rule when `action` breaks one."""
    character = action.victim if isinstance(action, Fight) else action.character
    room = state.positions.get(character)
    if room is None:
        raise IllegalAction(
            phrase(
                "{character} is no longer in the dungeon.", character=the(character, starting=True)
            )
        )
    _CHECKS[type(action)](state, action, room, crowd(state.positions))


def _check_fight(state: State, fight: Fight, room: str, head_count: Counter[str]) -> None:
    if head_count[room] < 2:
        raise IllegalAction(
            phrase(
                "{character} is alone in {room}: a fight needs two or more characters in the room.",
                character=the(fight.victim, starting=True),
                room=room,
            )
        )


def _check_exit(state: State, leaving: Exit, room: str, head_count: Counter[str]) -> None:
    if room != state.layout.entrance or state.chest != room:
        raise IllegalAction(
            phrase("Only a character in the entrance room with the chest may exit.")
        )


def _check_move(state: State, move: Move, room: str, head_count: Counter[str]) -> None:
    if not _may_move(state, room, head_count):
        raise IllegalAction(
            phrase(
                "{character} shares its room, so it cannot move: "
                "only a character alone in its room (or with the chest) may move.",
                character=the(move.character, starting=True),
            )
        )
    if passage(state.layout, room, move.side) is None:
        raise IllegalAction(
            phrase(
                "There is no passage {direction} from {room}.",
                direction=direction(move.side),
                room=room,
            )
        )
    if move.with_chest and state.chest != room:
        raise IllegalAction(phrase("The chest is not in {room}, so it cannot go along.", room=room))
    if not move.with_chest and state.chest == room and head_count[room] > 1:
        raise IllegalAction(phrase("With others in the room, the chest must go along."))


# Each action's rules, by its type, once its character is known to be in the dungeon.
_CHECKS: dict[type[Any], Callable[[State, Any, str, Counter[str]], None]] = {
    Move: _check_move,
    Fight: _check_fight,
    Exit: _check_exit,
}


def describe_action(state: State, action: Action) -> Phrase:
    """A short button label: "Move Knight east to C2 (with chest)"."""
    if isinstance(action, Move):
        who, way = named(action.character), direction(action.side)
        room = state.positions.get(action.character)
        goal = passage(state.layout, room, action.side) if room else None
        if goal is None:  # not a legal move: no room to name
            if action.with_chest:
                return phrase(
                    "Move {character} {direction} (with chest)", character=who, direction=way
                )
            return phrase("Move {character} {direction}", character=who, direction=way)
        if action.with_chest:
            return phrase(
                "Move {character} {direction} to {room} (with chest)",
                character=who,
                direction=way,
                room=goal,
            )
        return phrase(
            "Move {character} {direction} to {room}", character=who, direction=way, room=goal
        )
    if isinstance(action, Fight):
        room = state.positions.get(action.victim, "?")
        return phrase(
            "Fight in {room}: remove {character}", room=room, character=named(action.victim)
        )
    return phrase("Exit with the chest ({character})", character=named(action.character))

"""Rumble's actions (move, fight, exit): their text for buttons and the log, the legal moves of
the seat to act, the checks with the refusal a player reads, and the sentence that describes
one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from rules.base import IllegalAction
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import SIDE_NAMES, SIDES, passage, passages
from rules.rumble.state import NOT_A_MOVE, State

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


def check(state: State, action: Action) -> None:
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

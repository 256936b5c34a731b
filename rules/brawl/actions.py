"""Dumpster Brawl!'s actions: one small class per move, read from an action's text once
(`parse_action`) so that the moves in `phases.py` read fields rather than words. The text is
what `legal.py` lists and the game log keeps (the grammar is in `engine.py`'s docstring).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.base import NOT_A_MOVE, IllegalAction
from rules.brawl.data import CARDS, KIND_INDEX
from rules.brawl.state import DECLARATIONS

_CARD_KEYS = frozenset(c.key for c in CARDS) | frozenset(KIND_INDEX)


@dataclass(frozen=True)
class Declare:
    how: str  # a key of `DECLARATIONS`: draw, discard, both, neither


@dataclass(frozen=True)
class Draw:
    source: str  # "trash" or "discard", the pile drawn from


@dataclass(frozen=True)
class Discard:
    key: str  # the card's word: its kind's key, or a special card's key


@dataclass(frozen=True)
class Attack:
    target: int
    elbow: bool  # with Extra Elbow


@dataclass(frozen=True)
class Defend:
    elbow: bool
    lid: bool


@dataclass(frozen=True)
class Keep:
    pass


@dataclass(frozen=True)
class Reroll:
    pass


@dataclass(frozen=True)
class Take:
    pass


@dataclass(frozen=True)
class Give:
    key: str


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Lay:
    kind: str  # a trash kind's key
    n: int


@dataclass(frozen=True)
class GoOut:
    pass


@dataclass(frozen=True)
class Dive:
    booster: ClassVar[str] = "dive"  # the card played


@dataclass(frozen=True)
class Peek:
    booster: ClassVar[str] = "peek"  # the card played
    target: int


@dataclass(frozen=True)
class Swap:
    booster: ClassVar[str] = "swap"  # the card played
    target: int
    key: str  # the card given


@dataclass(frozen=True)
class Sweep:
    booster: ClassVar[str] = "sweep"  # the card played
    keys: tuple[str, ...]  # the other cards swept, none to two


Play = Dive | Peek | Swap | Sweep  # a turn Booster, played in any phase its timing allows
Action = (
    Declare | Draw | Discard | Attack | Defend | Keep | Reroll | Take | Give | Done | Lay | GoOut
) | Play


def _seat(word: str) -> int:
    """`p2` -> 2."""
    if len(word) != 2 or word[0] != "p" or not word[1].isdigit():
        raise IllegalAction(NOT_A_MOVE)
    return int(word[1])


def _key(word: str) -> str:
    if word not in _CARD_KEYS:
        raise IllegalAction(NOT_A_MOVE)
    return word


def parse_action(text: str) -> Action:
    """Read an action's text; raises `IllegalAction` for anything outside the grammar."""
    verb, *rest = text.split() or [""]
    n = len(rest)
    if verb == "declare" and n == 1 and rest[0] in DECLARATIONS:
        return Declare(rest[0])
    if verb == "draw" and rest in (["trash"], ["discard"]):
        return Draw(rest[0])
    if verb in ("discard", "give") and n == 1:
        return Discard(_key(rest[0])) if verb == "discard" else Give(_key(rest[0]))
    if verb == "attack" and rest[1:] in ([], ["elbow"]) and n:
        return Attack(_seat(rest[0]), elbow=n == 2)
    if verb == "defend" and rest in ([], ["elbow"], ["lid"], ["elbow", "lid"]):
        return Defend(elbow="elbow" in rest, lid="lid" in rest)
    if verb == "lay" and n == 2 and rest[0] in KIND_INDEX and rest[1].isdigit():
        return Lay(rest[0], int(rest[1]))
    if verb == "go" and rest == ["out"]:
        return GoOut()
    if verb == "play" and n:
        return _parse_play(rest[0], rest[1:])
    plain: dict[str, type[Keep | Reroll | Take | Done]] = {
        "keep": Keep,
        "reroll": Reroll,
        "take": Take,
        "done": Done,
    }
    if verb in plain and not n:
        return plain[verb]()
    raise IllegalAction(NOT_A_MOVE)


def _parse_play(key: str, rest: list[str]) -> Play:
    if key == "dive" and not rest:
        return Dive()
    if key == "peek" and len(rest) == 1:
        return Peek(_seat(rest[0]))
    if key == "swap" and len(rest) == 2:
        return Swap(_seat(rest[0]), _key(rest[1]))
    if key == "sweep" and rest == ["alone"]:
        return Sweep(())
    if key == "sweep" and 1 <= len(rest) <= 2:
        return Sweep(tuple(_key(word) for word in rest))
    raise IllegalAction(NOT_A_MOVE)

"""Toss It's actions: choosing a card and placing a piece, one small class each, read from
their text once (`parse_action`) and written back (`action_text`); the grammar is in
`engine.py`'s docstring.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import NOT_A_MOVE, IllegalAction
from rules.toss.bin import ANGLES, KINDS, X_STEPS


@dataclass(frozen=True)
class Choose:
    card: int


@dataclass(frozen=True)
class Place:
    kind: str
    x: int
    angle: int


Action = Choose | Place


def parse_action(text: str) -> Action:
    """Read an action string; raises `IllegalAction` for anything outside the grammar."""
    words = text.split()
    if len(words) == 2 and words[0] == "choose" and words[1].isdigit():
        return Choose(int(words[1]))
    if (
        len(words) == 4
        and words[0] == "place"
        and words[1] in KINDS
        and words[2].isdigit()
        and words[3].isdigit()
    ):
        x, angle = int(words[2]), int(words[3])
        if 0 <= x < X_STEPS and angle in ANGLES:
            return Place(words[1], x, angle)
    raise IllegalAction(NOT_A_MOVE)


def action_text(action: Action) -> str:
    """The string form of an action: the inverse of `parse_action`."""
    if isinstance(action, Choose):
        return f"choose {action.card}"
    return f"place {action.kind} {action.x} {action.angle}"

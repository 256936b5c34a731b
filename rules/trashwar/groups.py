"""How Trash War's choices are made in two steps: first the card, then where it goes.

A card that can go several places (the same trash at any of fifteen walls, a Deflect onto
either other wall, a Burn of this or that trash) is one choice, its group (`group_of`); the
player then picks among the group's moves by what sets them apart (`within_group`: "{p1} ·
middle wall"). The grammar of actions is the engine's, so it is read here and in
`actions.py` only.
"""

from __future__ import annotations

from rules.trashwar.actions import (
    Action,
    Burn,
    Deflect,
    Repair,
    Throw,
    action_text,
    burnt_wordings,
    fit,
    thrown_wordings,
)
from rules.trashwar.cards import BURN, BY_CODE, CATAPULT, DEFLECT, REPAIR, TRASH
from rules.trashwar.state import LABEL_LIMIT, WALL_NAMES, _p

MORE = " …"  # a card button's label ends so when its targets come next

# What the second step asks, by the kind of the card chosen first.
QUESTIONS = {
    TRASH: "At which wall?",
    CATAPULT: "At which wall?",
    DEFLECT: "Onto which of your walls?",
    REPAIR: "Which of your fallen walls do you raise?",
    BURN: "Which trash do you burn off your walls?",
}


def group_of(action: Action) -> str:
    """The card part of a move that has a target, "play <codes>" (a throw: every card
    thrown, so one card alone and that card with others are different groups); any other
    move is its own group."""
    if isinstance(action, Throw):
        return action_text(action).partition(" at ")[0]
    if isinstance(action, Deflect | Repair | Burn):
        return f"play {action.code}"
    return action_text(action)


def within_group(action: Action) -> str:
    """A move's label once its card is chosen: only where it goes, naming seats as `{p1}`
    like the events do."""
    if isinstance(action, Throw):
        return f"{_p(action.target)} · {WALL_NAMES[action.wall]} wall"
    if isinstance(action, Deflect | Repair):
        return f"your {WALL_NAMES[action.wall]} wall"
    if isinstance(action, Burn):
        return fit(*burnt_wordings(action)[1:])  # "toaster (2) off left; egg (1) off middle"
    return action_text(action)


def group_wording(group: str) -> tuple[str, str]:
    """The label of the button that stands for a group (the card, ending in " …") and the
    question its moves answer. A group this game never makes is shown as it is."""
    words = group.split(" ")
    codes = words[1:]
    if words[0] != "play" or not codes or any(code not in BY_CODE for code in codes):
        return group, "Pick one of these:"
    first = BY_CODE[codes[0]]
    if first.kind == CATAPULT:
        wordings = thrown_wordings(tuple(codes[1:]), codes[0])
    elif first.kind == TRASH:
        wordings = thrown_wordings(tuple(codes), None)
    else:
        wordings = (first.title,)
    label = next((w for w in wordings if len(w + MORE) <= LABEL_LIMIT), wordings[-1])
    return label + MORE, QUESTIONS.get(first.kind, "Pick one of these:")

"""How Trash War's choices are made in two steps: first the card, then where it goes.

A card that can go several places (the same trash at any of fifteen walls, a Deflect onto
either other wall, a Burn of this or that trash) is one choice, its group (`group_of`); the
player then picks among the group's moves by what sets them apart (`within_group`: "{p1} ·
middle wall"). The engine's `describe` of a group is its button's label. Trash cards of one
damage and torches but different names play alike: their moves are one choice
(`same_choice`), offered once. The grammar of
actions is the engine's, so it is read here and in `actions.py` only.
"""

from __future__ import annotations

from functools import lru_cache

from rules.phrases import Filling, SeatName, english, phrase
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
from rules.trashwar.cards import BURN, BY_CODE, CATAPULT, DEFLECT, REPAIR, TRASH, TRASH_FACES
from rules.trashwar.state import (
    LABEL_LIMIT,
)
from rules.trashwar.words import wall_words

MORE = " …"  # a card button's label ends so when its targets come next

# What the second step asks, by the kind of the card chosen first.
QUESTIONS = {
    TRASH: phrase("At which wall?"),
    CATAPULT: phrase("At which wall?"),
    DEFLECT: phrase("Onto which of your walls?"),
    REPAIR: phrase("Which of your fallen walls do you raise?"),
    BURN: phrase("Which trash do you burn off your walls?"),
}
PICK_ONE = phrase("Pick one of these:")
# The prompt of a menu of cards (when there are too many for buttons): no action, but the
# engine's `describe` says it like a label, so it reaches the reader in their language.
MENU_PROMPT = "choose your card"


def group_of(action: Action) -> str:
    """The card part of a move that has a target, "play <codes>" (a throw: every card
    thrown, so one card alone and that card with others are different groups); any other
    move is its own group."""
    if isinstance(action, Throw):
        return action_text(action).partition(" at ")[0]
    if isinstance(action, Deflect | Repair | Burn):
        return f"play {action.code}"
    return action_text(action)


@lru_cache(maxsize=4096)  # a pure function of the text, asked of every legal move a reply
def same_choice(action: str) -> str:
    """What a move decides, as a key: its text with each Trash card by its face alone
    (damage and torches), since no rule reads a Trash card's flavour name, so throwing the
    toaster (2) or the television (2) at one wall is one decision. The faces of a volley
    (or of a burn's wall) are sorted, so cards listed in another order make one key."""
    key: list[str] = []
    faces: list[str] = []  # the Trash cards read since the last other word
    for word in action.split(" "):
        face = TRASH_FACES.get(word)
        if face is not None:
            faces.append(face)
            continue
        key += [*sorted(faces), word]
        faces = []
    return " ".join(key + sorted(faces))


def within_group(action: Action) -> Filling:
    """A move's label once its card is chosen: only where it goes, naming seats as
    `SeatName`s like the events do."""
    if isinstance(action, Throw):
        return phrase(
            "{player} · {wall}", player=SeatName(action.target), wall=wall_words(action.wall)
        )
    if isinstance(action, Deflect | Repair):
        return phrase("your {wall}", wall=wall_words(action.wall))
    if isinstance(action, Burn):
        return fit(*burnt_wordings(action)[1:])  # "toaster (2) off left; egg (1) off middle"
    return action_text(action)


def group_card(group: str) -> tuple[Filling, Filling]:
    """The card a group stands for, as its button names it, and the question its moves
    answer. A group this game never makes is shown as it is."""
    words = group.split(" ")
    codes = words[1:]
    if words[0] != "play" or not codes or any(code not in BY_CODE for code in codes):
        return group, PICK_ONE
    first = BY_CODE[codes[0]]
    wordings: tuple[Filling, ...]
    if first.kind == CATAPULT:
        wordings = thrown_wordings(tuple(codes[1:]), codes[0])
    elif first.kind == TRASH:
        wordings = thrown_wordings(tuple(codes), None)
    else:
        wordings = (first.words(),)
    label = next((w for w in wordings if len(english(w) + MORE) <= LABEL_LIMIT), wordings[-1])
    return label, QUESTIONS.get(first.kind, PICK_ONE)


def group_wording(group: str) -> tuple[Filling, Filling]:
    """The label of the button that stands for a group (the card, ending in " …") and the
    question its moves answer (see `group_card`)."""
    card, question = group_card(group)
    if isinstance(card, str):
        return card, question
    return phrase("{card} …", card=card), question

"""Trash War's actions: one small class per move (throw, discard, take, block, deflect, swing,
bat, burn, repair, pass), their text for buttons and the log (`parse_action`, `action_text`)
and the sentence that describes one (`describe_action`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import NOT_A_MOVE, IllegalAction
from rules.phrases import Filling, Phrase, SeatName, english, listing, phrase, phrase_in
from rules.trashwar.cards import (
    BURN,
    BY_CODE,
    CARDS,
    CATAPULT,
    DEFLECT,
    MACE,
    REPAIR,
    SHIELD,
    TRASH,
)
from rules.trashwar.state import (
    LABEL_LIMIT,
    VOLLEY,
    WALL_NAMES,
    State,
    mace_targets,
)
from rules.trashwar.words import WALL_LABELS, joined, wall_of, wall_words

# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class Throw:
    trash: tuple[str, ...]  # codes, heaviest first
    catapult: str | None
    target: int
    wall: int


@dataclass(frozen=True)
class Discard:
    code: str


@dataclass(frozen=True)
class Take:
    pass


@dataclass(frozen=True)
class Block:
    code: str  # a Shield


@dataclass(frozen=True)
class Deflect:
    code: str
    wall: int


@dataclass(frozen=True)
class Swing:
    code: str  # a Mace


@dataclass(frozen=True)
class Bat:
    target: int
    wall: int


@dataclass(frozen=True)
class Burn:
    code: str
    picks: tuple[tuple[int, str], ...]  # (wall, trash code), in wall order, heaviest first


@dataclass(frozen=True)
class Repair:
    code: str
    wall: int


@dataclass(frozen=True)
class Pass:
    pass


Action = Throw | Discard | Take | Block | Deflect | Swing | Bat | Burn | Repair | Pass


def weight(code: str) -> tuple[int, str]:
    """Sort key: heaviest first, then by code."""
    return (-BY_CODE[code].value, code)


def _target(words: list[str]) -> tuple[int, int]:
    """`at p<N> <wall>` -> (seat, wall)."""
    if len(words) != 3 or words[0] != "at" or words[2] not in WALL_NAMES:
        raise IllegalAction(NOT_A_MOVE)
    seat = words[1]
    if len(seat) != 2 or seat[0] != "p" or not seat[1].isdigit():
        raise IllegalAction(NOT_A_MOVE)
    return int(seat[1]), WALL_NAMES.index(words[2])


def hand_cards(action: Action) -> tuple[str, ...]:
    """The codes of the cards from the player's hand that `action` plays or discards."""
    trash: tuple[str, ...] = getattr(action, "trash", ())
    catapult: str | None = getattr(action, "catapult", None)
    code: str | None = getattr(action, "code", None)
    return tuple(c for c in (*trash, catapult, code) if c)


def parse_action(text: str) -> Action:
    """Read an action string; raises `IllegalAction` for anything outside the grammar."""
    words = text.split(" ")
    verb, rest = words[0], words[1:]
    if verb in ("take", "pass"):
        if rest:
            raise IllegalAction(NOT_A_MOVE)
        return Take() if verb == "take" else Pass()
    if verb == "at":
        return Bat(*_target(words))
    if not rest or rest[0] not in BY_CODE:
        raise IllegalAction(NOT_A_MOVE)
    code, args = rest[0], rest[1:]
    card = BY_CODE[code]
    if verb == "discard":
        if args:
            raise IllegalAction(NOT_A_MOVE)
        return Discard(code)
    if verb != "play":
        raise IllegalAction(NOT_A_MOVE)
    if card.kind == TRASH:
        return Throw((code,), None, *_target(args))
    if card.kind == CATAPULT:
        volley = args[:-3]
        if not 1 <= len(volley) <= VOLLEY or any(
            w not in BY_CODE or BY_CODE[w].kind != TRASH for w in volley
        ):
            raise IllegalAction(NOT_A_MOVE)
        return Throw(tuple(sorted(volley, key=weight)), code, *_target(args[-3:]))
    if card.kind in (SHIELD, MACE):
        if args:
            raise IllegalAction(NOT_A_MOVE)
        return Block(code) if card.kind == SHIELD else Swing(code)
    if card.kind in (DEFLECT, REPAIR):
        if len(args) != 1 or args[0] not in WALL_NAMES:
            raise IllegalAction(NOT_A_MOVE)
        wall = WALL_NAMES.index(args[0])
        return Deflect(code, wall) if card.kind == DEFLECT else Repair(code, wall)
    if card.kind == BURN:
        return Burn(code, _burn_picks(args))
    raise IllegalAction(NOT_A_MOVE)


def _burn_picks(args: list[str]) -> tuple[tuple[int, str], ...]:
    picks: list[tuple[int, str]] = []
    wall: int | None = None
    for word in args:
        if word in WALL_NAMES:
            wall = WALL_NAMES.index(word)
        elif wall is not None and word in BY_CODE and BY_CODE[word].kind == TRASH:
            picks.append((wall, word))
        else:
            raise IllegalAction(NOT_A_MOVE)
    if not picks:
        raise IllegalAction(NOT_A_MOVE)
    return tuple(sorted(picks, key=lambda pick: (pick[0], *weight(pick[1]))))


def action_text(action: Action) -> str:
    """The string form of an action: the inverse of `parse_action`."""
    if isinstance(action, Throw):
        cards = " ".join(action.trash)
        if action.catapult:
            cards = f"{action.catapult} {cards}"
        return f"play {cards} at p{action.target} {WALL_NAMES[action.wall]}"
    if isinstance(action, Discard):
        return f"discard {action.code}"
    if isinstance(action, Take):
        return "take"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Block | Swing):
        return f"play {action.code}"
    if isinstance(action, Deflect | Repair):
        return f"play {action.code} {WALL_NAMES[action.wall]}"
    if isinstance(action, Bat):
        return f"at p{action.target} {WALL_NAMES[action.wall]}"
    words = [f"play {action.code}"]
    last = None
    for wall, code in action.picks:
        if wall != last:
            words.append(WALL_NAMES[wall])
            last = wall
        words.append(code)
    return " ".join(words)


def fit(*labels: Filling) -> Filling:
    """The first label short enough for a button (80 characters) in English, else the last
    (a longer translation is clipped where it is shown)."""
    return next((label for label in labels if len(english(label)) <= LABEL_LIMIT), labels[-1])


# ---------------------------------------------------------------------------------------------
# Labels


def describe_action(state: State, action: Action) -> Filling:
    """A short button label (at most 80 characters) for the seat that may take the action,
    naming seats as `SeatName`s like the events do."""
    if isinstance(action, Throw):
        where = wall_of(action.target, action.wall)
        return fit(*thrown_wordings(action.trash, action.catapult, where))
    if isinstance(action, Discard):
        return phrase("Discard {card} and draw", card=BY_CODE[action.code].words())
    if isinstance(action, Pass):
        return phrase("Neither burn nor repair")
    if isinstance(action, Burn):
        return _describe_burn(action)
    if isinstance(action, Repair):
        return phrase(
            "{card}: raise your {wall}",
            card=BY_CODE[action.code].words(),
            wall=wall_words(action.wall),
        )
    if isinstance(action, Bat):
        return phrase("Bat it at {wall}", wall=wall_of(action.target, action.wall))
    if not state.flight:
        return action_text(action)
    head = state.flight[0]
    trash = CARDS[head.card].words("the")
    if isinstance(action, Take):
        if not state.walls[head.target][head.wall].standing:
            return phrase("Let {trash} fall into the rubble", trash=trash)
        return phrase(
            "Take the hit: {trash} on your {wall}", trash=trash, wall=wall_words(head.wall)
        )
    if isinstance(action, Block):
        return phrase("{shield} against {trash}", shield=BY_CODE[action.code].words(), trash=trash)
    if isinstance(action, Deflect):
        return phrase(
            "{deflect} {trash} onto your {wall}",
            deflect=BY_CODE[action.code].words(),
            trash=trash,
            wall=wall_words(action.wall),
        )
    mace = BY_CODE[action.code]
    aims = mace_targets(state, head.target, mace.direction, head.sender)
    if len(aims) == 1:
        return phrase(
            "{mace}: bat {trash} at {player}",
            mace=mace.words(),
            trash=trash,
            player=SeatName(aims[0]),
        )
    return phrase("{mace}: bat {trash}", mace=mace.words(), trash=trash)


def thrown_wordings(
    trash: tuple[str, ...], catapult: str | None, where: Phrase | None = None
) -> tuple[Phrase, ...]:
    """What a throw sends (at `where`, when given), longest wording first: "Throw the
    toaster (2)", "Catapult the toaster (2) and the egg (1)", "Catapult toaster (2) and
    egg (1)", "Catapult 2 + 1"."""
    cards = [BY_CODE[code] for code in trash]
    if catapult is None:
        if where is None:
            return (phrase("Throw {trash}", trash=cards[0].words("the")),)
        return (phrase("Throw {trash} at {wall}", trash=cards[0].words("the"), wall=where),)
    lists: tuple[Filling, ...] = (
        listing([card.words("the") for card in cards]),
        listing([card.words() for card in cards]),
        " + ".join(str(card.value) for card in cards),
    )
    if where is None:
        return tuple(phrase("Catapult {cards}", cards=said) for said in lists)
    return tuple(phrase("Catapult {cards} at {wall}", cards=said, wall=where) for said in lists)


def _describe_burn(action: Burn) -> Filling:
    title = BY_CODE[action.code].words()
    return fit(
        *(phrase("{burn}: {what}", burn=title, what=words) for words in burnt_wordings(action))
    )


def burnt_wordings(action: Burn) -> tuple[Filling, Filling, Filling]:
    """What a Burn takes off which walls, in three lengths: "the toaster (2) off your left
    wall", "toaster (2) off left", "2 off left"."""
    walls = sorted({w for w, _ in action.picks})
    cards = {w: [BY_CODE[code] for v, code in action.picks if v == w] for w in walls}
    full: list[Filling] = [
        phrase(
            "{cards} off your {wall}",
            cards=listing([c.words("the") for c in cards[w]]),
            wall=wall_words(w),
        )
        for w in walls
    ]
    short: list[Filling] = [
        phrase(
            "{cards} off {wall}",
            cards=joined([c.words() for c in cards[w]]),
            wall=phrase_in("wall position", WALL_LABELS[w]),
        )
        for w in walls
    ]
    tiny: list[Filling] = [
        phrase(
            "{cards} off {wall}",
            cards="+".join(str(c.value) for c in cards[w]),
            wall=phrase_in("wall position", WALL_LABELS[w]),
        )
        for w in walls
    ]
    return listing(full), joined(short, comma=False), joined(tiny)

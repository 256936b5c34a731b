"""Dumpster Brawl!'s state and how to read it: the modes and phases, the `State` itself, the
dice values, whose turn it is, what a hand holds and whether it wins or may be laid down,
Rummy's points, and saving a state to JSON and back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rules.base import LastMove
from rules.brawl.data import (
    BLUE_FACES,
    CARDS,
    CHARACTERS,
    CROWBAR,
    GREEN_FACES,
    KIND_INDEX,
    TRASH,
    Face,
)

SCHEMA = 1
_KIND: tuple[int, ...] = tuple(card.kind if card.type == TRASH else -1 for card in CARDS)
ROUND = "round-rummage"
KING = "king-of-the-heap"
RUMMY = "rummy"
MODES = (ROUND, KING, RUMMY)
TURN_LIMIT = 400
GOING_OUT = 2  # Rummy bonus (house rules)
# May a card go from a hand onto the discard pile in this mode? Rummy has no discard
# (rulebook); from that one fact its table rules follow: rummage minuses are unused, Clean
# Sweep throws away only itself and a Garbage Truck makes nobody discard.
HAS_DISCARD = {ROUND: True, KING: True, RUMMY: False}

DECLARE, PRE, ATTACK, DEFEND, WIND, SPOILS, RUMMAGE, LAY, OVER = (
    "declare",
    "pre",
    "attack",
    "defend",
    "wind",
    "spoils",
    "rummage",
    "lay",
    "over",
)
DECLARATIONS = {"draw": (2, 0), "discard": (0, 2), "both": (1, 1), "neither": (0, 0)}
TURN_BOOSTERS = ("dive", "peek", "swap", "sweep")  # played with "play <key> ..."
# Why a roll was made, as kept in the roll log (a number in the state, a word in observations).
ROLL_PURPOSES = ("attack", "defence", "reroll", "rummage", "roll-off")
ROLL_COLOURS = ("blue", "green")
DICE_FACES = {"blue": BLUE_FACES, "green": GREEN_FACES}
ROLL_LOG = 16  # rolls kept for the pictures: enough for the AI turns between two boards


class Verdict(NamedTuple):
    """How a fight ended, for the dice picture."""

    step: int  # the action that decided it
    attacker: int
    defender: int
    crowbars: int  # the attack's crowbars
    lids: int  # the defence's lids, Booster lids included
    winner: int


VERDICTS_KEPT = 8


class Handover(NamedTuple):
    """Cards that went from one hand straight into another (spoils taken or given, a Raid,
    a Quick Swap), for the pictures: how many, never which."""

    step: int  # the action that moved them
    giver: int
    receiver: int
    cards: int


HANDOVERS_KEPT = 8  # enough for the AI turns between two boards


@dataclass(frozen=True)
class State:
    """A whole game. Piles are tuples of card ids with the top card last."""

    seed: int
    seats: int
    mode: str
    affinity: bool
    characters: tuple[int, ...]
    in_play: tuple[int, ...]  # Slugs, Boosters and Blockers in this game
    start_rolls: tuple[tuple[int, ...], ...]  # per round and seat: 1 crowbar, 0 lid, -1 out
    starter: int
    hands: tuple[tuple[int, ...], ...]
    trash: tuple[int, ...]
    discard: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()  # Blockers resolved and set aside
    laid: tuple[tuple[int, ...], ...] = ()  # Rummy scoring areas
    version: int = SCHEMA
    step: int = 0
    rolls: int = 0  # dice rolls and shuffles so far: the salt of the next one
    turns: int = 1
    turn: int = 0
    phase: str = DECLARE
    actor: int = 0  # who decides in spoils / rummage
    defender: int = -1
    king: int = -1
    draws: int = 0  # left in pre / rummage
    discards: int = 0
    spoils: int = 0
    elbows: tuple[int, ...] = ()  # fighters who added Extra Elbow to this fight
    lids: int = 0  # Sturdy Lids added by the defender
    dice: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # last combat (see die_value)
    rummage: tuple[int, ...] = ()  # the last rummage roll (see die_value)
    winds: tuple[int, ...] = ()  # fighters still to answer keep/reroll
    layers: tuple[int, ...] = ()  # Rummy: fighters still to lay down
    truck: tuple[int, ...] = ()  # Garbage Truck: seats still to discard
    slippery: tuple[int, ...] = ()  # seats whose next rummage roll is skipped
    stink: tuple[int, ...] = ()  # per seat: turn ends left before it may win
    dive: int = 0  # Dumpster Dive draws waiting for a Garbage Truck's discards
    finished: bool = False
    winners: tuple[int, ...] = ()
    went_out: int = -1
    # The latest rolls, oldest first: (step, seat, colour, purpose, *dice), colour and
    # purpose as positions in ROLL_COLOURS and ROLL_PURPOSES, step the action that rolled.
    roll_log: tuple[tuple[int, ...], ...] = ()
    verdicts: tuple[Verdict, ...] = ()  # the latest fights' ends, oldest first
    handovers: tuple[Handover, ...] = ()  # the latest cards passed between hands, oldest first
    last_move: LastMove | None = None  # for the board's caption; None before any move


# ---------------------------------------------------------------------------------------------
# Reading a table

# A rolled die is kept as a number: 1 for a crowbar, plus 2 when the face shows a plus.
# With the house rules' faces a die is 1 (crowbar, minus) or 2 (lid, plus).


def die_value(face: Face) -> int:
    return int(face.symbol == CROWBAR) + (2 if face.sign > 0 else 0)


def crowbars(dice: Sequence[int]) -> int:
    return sum(v & 1 for v in dice)


def pluses(dice: Sequence[int]) -> int:
    return sum(v >> 1 for v in dice)


def set_need(state: State, seat: int, kind: int) -> int:
    """Cards of `kind` a set needs for `seat`: 2 for the affinity item when it is on."""
    if state.affinity and KIND_INDEX[CHARACTERS[state.characters[seat]].affinity] == kind:
        return 2
    return 3


def winning_hand(state: State, seat: int, hand: Sequence[int] | None = None) -> bool:
    """Three or more sets and nothing else (rulebook; affinity as the options say)."""
    if hand is None:
        hand = state.hands[seat]
    if len(hand) < 6 or any(_KIND[c] < 0 for c in hand):
        return False
    counts = Counter(_KIND[c] for c in hand)
    return len(counts) >= 3 and all(n >= set_need(state, seat, k) for k, n in counts.items())


def to_act(state: State) -> int | None:
    if state.finished:
        return None
    if state.truck:
        return state.truck[0]
    if state.phase in (DECLARE, PRE, ATTACK):
        return state.turn
    if state.phase == DEFEND:
        return state.defender
    if state.phase == WIND:
        return state.winds[0]
    if state.phase == LAY:
        return state.layers[0]
    return state.actor


def held_card(state: State, seat: int, key: str) -> int | None:
    return next((c for c in state.hands[seat] if CARDS[c].key == key), None)


def card_keys(hand: tuple[int, ...]) -> list[str]:
    return sorted({CARDS[c].key for c in hand})


def opponents(state: State, seat: int) -> list[int]:
    return [p for p in range(state.seats) if p != seat]


def booster_in_game(state: State, key: str) -> bool:
    return any(CARDS[c].key == key for c in state.in_play)


def has_set_down(state: State, seat: int) -> bool:
    return any(n >= 3 for n in Counter(CARDS[c].kind for c in state.laid[seat]).values())


def can_lay(state: State, seat: int, kind: int, n: int) -> bool:
    """Rummy: may `seat` lay `n` cards of `kind` now? Under Stink Cloud not the last card."""
    held = sum(1 for c in state.hands[seat] if CARDS[c].kind == kind)
    if n < 1 or n > held:
        return False
    if state.stink[seat] and n >= len(state.hands[seat]):
        return False  # that would be going out, which the cloud forbids
    if n >= 3:
        return True
    if not has_set_down(state, seat):
        return False
    own = sum(1 for c in state.laid[seat] if CARDS[c].kind == kind)
    others = any(
        sum(1 for c in state.laid[p] if CARDS[c].kind == kind) >= 3 for p in opponents(state, seat)
    )
    return own >= 3 or others


def can_go_out(state: State, seat: int) -> bool:
    """Rummy: could the whole hand be laid down now, leaving a set in front of `seat`?
    Never under Stink Cloud: going out ends the game, which a stinking player may not win."""
    hand = state.hands[seat]
    if not hand or state.stink[seat] or any(CARDS[c].type != TRASH for c in hand):
        return False
    counts = Counter(CARDS[c].kind for c in hand)
    has_set = has_set_down(state, seat) or any(n >= 3 for n in counts.values())
    if not has_set:
        return False
    laid = Counter(CARDS[c].kind for c in state.laid[seat])
    sets = {
        k
        for p in range(state.seats)
        for k, n in Counter(CARDS[c].kind for c in state.laid[p]).items()
        if n >= 3
    }
    sets |= {k for k, n in counts.items() if n >= 3}
    return all(n >= 3 or laid[k] >= 3 or k in sets for k, n in counts.items())


def rummy_points(state: State) -> list[int]:
    """One point per card laid down, two more for going out (house rules)."""
    return [
        len(state.laid[p]) + (GOING_OUT if p == state.went_out else 0) for p in range(state.seats)
    ]

"""What a seat may know of a Dumpster Brawl! game: the shape `observe` returns.

The public view (`seat=None`) shows the characters, the size of every hand and pile, the
Rummy scoring areas, the Blockers set aside and the last combat dice; a seat's own view adds
`hand`. No view holds a card of another player's hand, the order of the trash pile or the
face-down discard pile.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from rules.observation import LastMoveView


class CardView(TypedDict):
    """One card a viewer may see."""

    id: int
    """The card's number (0..108), fixed for every game (see `data.py`)."""
    type: str
    """trash, slug, booster or blocker."""
    key: str
    """Its word in actions: the trash kind ("pizza"), "slug" or the Booster's key."""
    name: str
    """How players call it: "Pizza Box", "Slug", "Extra Elbow"."""


class CharacterView(TypedDict):
    """A seat's character placard."""

    key: str
    """The character's key ("iscratchu")."""
    name: str
    """Its name ("Iscratchu")."""
    animal: str
    """What animal it is ("alley cat")."""
    affinity: str
    """The trash kind key a set of two is enough for, when affinity is on."""


class RollView(TypedDict):
    """One roll of the dice, for the pictures."""

    step: int
    """The action that made it (the game's `step` right after that action)."""
    seat: int
    """Who rolled."""
    colour: str
    """blue or green."""
    purpose: str
    """attack, defence, reroll (Second Wind), rummage or roll-off."""
    dice: list[int]
    """One number a die, as in `attack_dice`."""
    crowbars: int
    """Crowbars rolled."""
    pluses: int
    """Pluses rolled (the lids with the house rules' faces)."""


class VerdictView(TypedDict):
    """How a fight ended."""

    step: int
    """The action that decided it."""
    attacker: int
    defender: int
    crowbars: int
    """The attack's crowbars."""
    lids: int
    """The defence's lids, Booster lids included."""
    winner: int


class HandoverView(TypedDict):
    """Cards that went from one hand into another: how many, never which."""

    step: int
    """The action that moved them."""
    giver: int
    receiver: int
    cards: int


class BrawlObservation(TypedDict):
    """Everything `seat` may know (`seat=None`: anyone in the channel)."""

    game: Literal["brawl"]
    """Always "brawl"."""
    seat: int | None
    """Whose view this is; None for the public view."""
    seats: int
    """Number of players (seats sit clockwise in seat order)."""
    mode: str
    """round-rummage, king-of-the-heap or rummy."""
    affinity: bool
    """True when trash affinity is in use (never in Rummy)."""
    step: int
    """Actions applied so far."""
    turns: int
    """Turns begun so far."""
    finished: bool
    """True once the game is over."""
    phase: str
    """What is being decided: declare, pre, attack, defend, wind, spoils, rummage, lay or over
    (see the engine's docstring)."""
    turn: int
    """The attacker of this turn."""
    to_act: list[int]
    """The seat that must decide now (empty once the game is over)."""
    actor: int
    """In spoils and rummage: the seat taking them."""
    defender: int
    """The seat attacked this turn (-1 before the attack)."""
    king: int
    """King of the Heap: the King's seat; -1 in the other modes."""
    starter: int
    """Who won the start-player roll."""
    characters: list[CharacterView]
    """Every seat's character, in seat order."""
    in_play: list[str]
    """Keys of the Slugs, Boosters and Blockers shuffled into this game."""
    hand_sizes: list[int]
    """How many cards each seat holds (never which)."""
    laid: list[list[CardView]]
    """Rummy: each seat's scoring area, face up; empty lists in the other modes."""
    trash_size: int
    """Cards left in the face-down trash pile."""
    discard_size: int
    """Cards in the face-down discard pile."""
    aside: list[CardView]
    """Blockers drawn, resolved and set aside."""
    draws: int
    """Draws left now (declared before the attack, or the pluses of a rummage)."""
    discards: int
    """Discards left now (declared, or the minuses of a rummage)."""
    spoils: int
    """Takes or gives left to the fight's winner."""
    attack_dice: list[int]
    """The attacker's last combat dice, one number a die: bit 1 a crowbar (else a lid), bit 2
    a plus (else a minus); with the house rules' faces 1 is a crowbar-minus, 2 a lid-plus."""
    defence_dice: list[int]
    """The defender's last combat dice, numbered as `attack_dice`."""
    extra_lids: int
    """Lids the defender added with Sturdy Lid this fight."""
    rummage_dice: list[int]
    """The last rummage roll, numbered as `attack_dice`."""
    rolls: list[RollView]
    """The latest rolls (up to 16), oldest first: the board pictures those since it was last
    posted."""
    verdicts: list[VerdictView]
    handovers: list[HandoverView]
    """Cards lately handed from one hand into another (up to 8), oldest first: how many and
    between whom, never which."""
    """The latest fights' ends (up to 8), oldest first: the dice picture ends with those
    since the board before."""
    start_rolls: list[list[int]]
    """The start-player roll, one list per round, one number per seat: 1 a crowbar (rolls
    on), 0 a lid (drops out), -1 already out."""
    truck: list[int]
    """Garbage Truck: seats still to discard a card, the first deciding now."""
    slippery: list[int]
    """Seats whose next rummage roll is skipped (Slippery Lid)."""
    stink: list[int]
    """Per seat: turn ends left before a Stink Cloud lets it win (0: free to win)."""
    points: list[int]
    """Rummy points so far (cards laid, two more for going out); zeros in other modes."""
    winners: list[int]
    """The winner once the game is over (every seat when the turn limit calls a draw)."""
    went_out: int
    """Rummy: who went out first (-1 if nobody)."""
    winning_hand: list[CardView]
    """Once the game is over, the lone winner's hand laid face up (their winning sets);
    empty before, in Rummy and in a draw."""
    hand: list[CardView] | None
    """This seat's own cards; None in the public view."""
    last_move: NotRequired[LastMoveView | None]
    """Who made the last move and what the log said (None before any; absent in older
    pictures' samples)."""

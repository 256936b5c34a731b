"""Dumpster Brawl!: the rules engine, for all three ways to play.

Three to six animals rummage through an alley's trash. A hand wins (Round Rummage, King of
the Heap) when it is three or more sets and nothing else: a set is three or more trash cards
of one kind, or two of the holder's affinity kind when trash affinity is on. Slugs, Boosters
and odd cards in hand all block the win. Round Rummage Rummy scores laid-down cards instead.
The tables (kinds, characters, dice, Boosters, Blockers) are in `data.py`.

Setup (rulebook): characters are picked (lobby option `characters`, else drawn at random),
the chosen Slugs and Boosters are shuffled into the trash, everyone rolls one die for the
start player (a lid drops out, a crowbar rolls on, all lids roll again, until one crowbar is
left), the start player deals one card at a time clockwise, as many cards each as there are
players but at least four, and only then are the Blockers shuffled in. Seats sit clockwise
in seat order: a seat's left neighbour is the next seat.

Round Rummage, each turn (phases in `observe`):

- "declare": the attacker declares draw (one or two cards), discard (one or two, to the
  discard pile), both (one of each, in either order) or neither;
- "pre": the declared draws and discards, one card per action, then the attack: naming
  an opponent ends the phase, what is left of the declaration is given up;
- "defend": the defender may add Boosters to the defence (asked only when Extra Elbow or
  Sturdy Lid is in the game, so the pace tells nothing about a hand);
- the dice: six blue for the attacker, five green for the defender, rolled by the engine;
- "wind": each fighter holding nothing or Second Wind says keep or reroll (asked only when
  Second Wind is in the game);
- "spoils": the fight's winner takes or gives cards: the attacker one (take a random card
  or give one), the defender up to two in any mix;
- the attacker's rummage roll (six blue), then "rummage": draw up to the pluses, then
  discard up to the minuses, one card per action, "done" to stop; right after the roll,
  before using it, the roller may "reroll" it with Second Wind.

King of the Heap: the start player is King; seats attack the King in turn, the first the
King's left neighbour, then counter-clockwise (the previous seat), skipping the King. The
"attack" phase offers only the King; the tie goes to the King; a winning attacker becomes
King and rummages with six blue dice, a King who holds rummages with six green.

Round Rummage Rummy: no affinity, no discard to the pile. "pre" offers up to two draws, then
the attack; "go out" when the whole hand can be laid down. After the fight ("lay"), first the
attacker then the defender lay down cards until "done": the first lay-down of a player is a
set of three or more of a kind; after it, sets of three or more, any number onto one's own
set of that kind, or one or more of a kind someone else has a set of. The game ends the
moment a player has no cards and a set down (a steal can do it); points are one per card laid
and two for going out; ties go to most cards laid, then a crowbar roll-off.

House rules applied: victory is checked after every action, for every seat, and declared by
the bot; simultaneous winners are split by the larger winning hand, then six-dice crowbar
roll-offs. A Blocker is resolved the moment it is drawn and set aside, before any further
card is drawn (Dumpster Dive's second draw waits for a Garbage Truck's discards); Boosters
are played from hand (then go face down to the discard pile).

Table rules of this bot, where the rulebook and the house rules are silent (each tested):

- A Blocker drawn uses up the draw it came from (the drawer does not draw a replacement).
- The trash pile is refilled from the shuffled discard pile the moment a card is to be drawn
  from an empty trash pile; drawing is not offered when both piles are empty.
- Drawing from the discard pile takes its top card, face down and blind.
- Garbage Truck: starting with the drawer and going clockwise, each player with cards
  discards one of their choice (a player with no cards is skipped); the interrupted turn
  (or Dumpster Dive) then goes on.
- Stink Cloud: drawn on your own turn, it lasts to the end of your next turn; drawn on
  someone else's, to the end of your next turn. In King of the Heap every fight counts as
  a turn of both the attacker and the King. In Rummy it forbids going out: no "go out",
  and no lay-down of one's last card (laying down while keeping a card is allowed).
- Slippery Lid skips the drawer's next rummage roll (the fight's spoils still happen).
- Booster timing: the phases in which each Booster may be played are the `phases` column
  of `data.BOOSTERS` (docs/rules/README.md shows the table). Extra Elbow goes with the
  attack ("attack p1 elbow") or into "defend"; Sturdy Lid into "defend"; Second Wind in
  "wind" (once per fighter per fight) and right after a rummage roll, never after a
  roll-off (the engine rolls those to settle a finished game). "Your turn" (Dive, before
  attacking; Peek, Swap, Sweep) is every phase in which the turn's attacker decides.
- Clean Sweep discards up to two cards, none included; in Rummy, which has no discard, it
  is played alone and only leaves the hand.
- A game that reaches 400 turns ends; Rummy is scored as it stands (no going-out bonus),
  the other modes end in a draw for all. Rummy also ends, scored the same way, when a turn
  ends with both piles empty.
- In KotH the next attacker follows the last attacker counter-clockwise, skipping the King.
- Rummy: when two players could go out at once, the one who emptied a hand by the action
  taken goes out; "go out" is offered in "pre" and "lay".

Actions (seats `p0`..`p5`, cards named by their key in `data.py`):

    declare draw|discard|both|neither      Round Rummage, before the attack
    draw trash | draw discard              one card from the trash or discard pile
    discard <kind>                         one card from hand to the discard pile
    attack p<N> [elbow]                    attack a seat (with Extra Elbow)
    defend [elbow] [lid]                   the defender's Boosters (or none)
    keep | reroll                          Second Wind after the combat roll
    reroll                                 Second Wind right after the rummage roll
    take | give <kind> | done              spoils; "done" also ends a rummage or lay-down
    play dive | play peek p<N> | play sweep alone|<kind> [<kind>] | play swap p<N> <kind>
    lay <kind> <n> | go out                Rummy lay-downs
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.base import JSON, Applied, Event, Game, IllegalAction, Option, Outcome, rng_for
from rules.brawl import ai
from rules.brawl.data import (
    ATTACK_DICE,
    BLOCKER,
    BLOCKER_IDS,
    BLUE_FACES,
    BOOSTER_IDS,
    BOOSTER_PHASES,
    BOOSTERS,
    CARDS,
    CHARACTER_INDEX,
    CHARACTERS,
    CROWBAR,
    DEFAULT_BLOCKERS,
    DEFAULT_BOOSTERS,
    DEFAULT_SLUGS,
    DEFENCE_DICE,
    GREEN_FACES,
    KIND_INDEX,
    KINDS,
    MAX_SLUGS,
    RUMMAGE_DICE,
    SLUG_IDS,
    TRASH,
    TRASH_IDS,
    Face,
)
from rules.brawl.observation import BrawlObservation, CardView, RollView

SCHEMA = 1
_KIND: tuple[int, ...] = tuple(card.kind if card.type == TRASH else -1 for card in CARDS)
ROUND = "round-rummage"
KING = "king-of-the-heap"
RUMMY = "rummy"
MODES = (ROUND, KING, RUMMY)
TURN_LIMIT = 400
GOING_OUT = 2  # Rummy bonus (house rules)

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


def _p(seat: int) -> str:
    return "{p" + str(seat) + "}"


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


def _held(state: State, seat: int, key: str) -> int | None:
    return next((c for c in state.hands[seat] if CARDS[c].key == key), None)


def _keys(hand: tuple[int, ...]) -> list[str]:
    return sorted({CARDS[c].key for c in hand})


def _opponents(state: State, seat: int) -> list[int]:
    return [p for p in range(state.seats) if p != seat]


def _booster_in_game(state: State, key: str) -> bool:
    return any(CARDS[c].key == key for c in state.in_play)


def _has_set_down(state: State, seat: int) -> bool:
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
    if not _has_set_down(state, seat):
        return False
    own = sum(1 for c in state.laid[seat] if CARDS[c].kind == kind)
    others = any(
        sum(1 for c in state.laid[p] if CARDS[c].kind == kind) >= 3 for p in _opponents(state, seat)
    )
    return own >= 3 or others


def can_go_out(state: State, seat: int) -> bool:
    """Rummy: could the whole hand be laid down now, leaving a set in front of `seat`?
    Never under Stink Cloud: going out ends the game, which a stinking player may not win."""
    hand = state.hands[seat]
    if not hand or state.stink[seat] or any(CARDS[c].type != TRASH for c in hand):
        return False
    counts = Counter(CARDS[c].kind for c in hand)
    has_set = _has_set_down(state, seat) or any(n >= 3 for n in counts.values())
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


# ---------------------------------------------------------------------------------------------
# Legal actions


def may_play(state: State, seat: int, key: str) -> bool:
    """Does `seat` hold Booster `key` in a phase of its timing (`data.BOOSTERS`)? Turn
    Boosters are the turn's attacker's alone; Second Wind in "rummage" only right after the
    roll, before the roll has been used or rerolled."""
    if state.phase not in BOOSTER_PHASES[key] or _held(state, seat, key) is None:
        return False
    if key in TURN_BOOSTERS and seat != state.turn:
        return False
    if key == "wind" and state.phase == RUMMAGE:
        return just_rolled(state, seat)
    return True


def just_rolled(state: State, seat: int) -> bool:
    """Has `seat` made a rummage roll with the very last action (Second Wind's moment)? A
    Second Wind reroll is logged as a rummage roll too (the pictures show it as one); the
    game's one Second Wind is on the discard pile by then, so no roll is rerolled twice."""
    if state.phase != RUMMAGE or not state.roll_log:
        return False
    step, roller, _, purpose = state.roll_log[-1][:4]
    return step == state.step and roller == seat and ROLL_PURPOSES[purpose] == "rummage"


def _turn_boosters(state: State, seat: int) -> list[str]:
    hand = state.hands[seat]
    keys = _keys(hand)
    counts = Counter(CARDS[c].key for c in hand)
    found: list[str] = []
    if may_play(state, seat, "dive") and (state.trash or state.discard):
        found.append("play dive")
    if may_play(state, seat, "peek"):
        found += [f"play peek p{p}" for p in _opponents(state, seat)]
    if may_play(state, seat, "swap"):
        rest = [k for k in keys if k != "swap" or counts["swap"] > 1]
        for p in _opponents(state, seat):
            if state.hands[p]:
                found += [f"play swap p{p} {k}" for k in rest]
    if may_play(state, seat, "sweep"):
        # Up to two cards, none included ("alone": a word no card key uses, so that no
        # action is the start of another); Rummy has no discard, so there the Sweep only
        # leaves the hand itself (table rule).
        found.append("play sweep alone")
        if state.mode != RUMMY:
            counts["sweep"] -= 1
            rest = [k for k in keys if counts[k] > 0]
            found += [f"play sweep {k}" for k in rest]
            for i, a in enumerate(rest):
                for b in rest[i:]:
                    if a != b or counts[a] >= 2:
                        found.append(f"play sweep {a} {b}")
    return found


def _draws(state: State) -> list[str]:
    found = []
    if state.trash or state.discard:
        found.append("draw trash")
    if state.discard:
        found.append("draw discard")
    return found


def legal_moves(state: State, seat: int) -> list[str]:
    if seat != to_act(state):
        return []
    hand = state.hands[seat]
    if state.truck:
        return [f"discard {k}" for k in _keys(hand)]
    phase = state.phase
    found: list[str] = []
    if phase == DECLARE:
        found = [f"declare {d}" for d in DECLARATIONS]
    elif phase in (PRE, ATTACK):
        if state.draws:
            found += _draws(state)
        if state.discards:
            found += [f"discard {k}" for k in _keys(hand)]
        if state.mode == RUMMY and can_go_out(state, seat):
            found.append("go out")
        targets = [state.king] if state.mode == KING else _opponents(state, seat)
        elbow = may_play(state, seat, "elbow")
        for p in targets:
            found.append(f"attack p{p}")
            if elbow:
                found.append(f"attack p{p} elbow")
    elif phase == DEFEND:
        found = ["defend"]
        elbow = may_play(state, seat, "elbow")
        lid = may_play(state, seat, "lid")
        if elbow:
            found.append("defend elbow")
        if lid:
            found.append("defend lid")
        if elbow and lid:
            found.append("defend elbow lid")
    elif phase == WIND:
        found = ["keep"]
        if may_play(state, seat, "wind"):
            found.append("reroll")
    elif phase == SPOILS:
        other = state.defender if seat == state.turn else state.turn
        if state.hands[other]:
            found.append("take")
        found += [f"give {k}" for k in _keys(hand)]
        found.append("done")
    elif phase == RUMMAGE:
        if may_play(state, seat, "wind"):
            found.append("reroll")
        if state.draws:
            found += _draws(state)
        if state.discards:
            found += [f"discard {k}" for k in _keys(hand)]
        found.append("done")
    elif phase == LAY:
        counts = Counter(CARDS[c].kind for c in hand if CARDS[c].type == TRASH)
        for k in sorted(counts):
            found += [
                f"lay {KINDS[k].key} {n}"
                for n in range(1, counts[k] + 1)
                if can_lay(state, seat, k, n)
            ]
        if can_go_out(state, seat):
            found.append("go out")
        found.append("done")
    return found + _turn_boosters(state, seat)


# ---------------------------------------------------------------------------------------------
# Applying an action: a mutable working copy of the state


class _Table:
    def __init__(self, state: State) -> None:
        self.state = state
        self.hands = [list(h) for h in state.hands]
        self.laid = [list(h) for h in state.laid]
        self.trash = list(state.trash)
        self.discard = list(state.discard)
        self.aside = list(state.aside)
        self.stink = list(state.stink)
        self.slippery = list(state.slippery)
        self.truck = list(state.truck)
        self.rolls = state.rolls
        self.roll_log = list(state.roll_log)
        self.events: list[Event] = []
        self.changes: dict[str, Any] = {}

    # --- basics

    def say(self, text: str, to: int | None = None) -> None:
        self.events.append(Event(text, to))

    def rng(self) -> random.Random:
        self.rolls += 1
        return rng_for(self.state.seed, "roll", self.rolls)

    def get(self, name: str) -> Any:
        return self.changes.get(name, getattr(self.state, name))

    def set(self, **changes: Any) -> None:
        self.changes.update(changes)

    def roll(self, n: int, colour: str, seat: int, purpose: str) -> tuple[int, ...]:
        """Roll `n` dice of a colour for a seat, and log the roll for the pictures."""
        faces = DICE_FACES[colour]
        rng = self.rng()
        dice = tuple(die_value(rng.choice(faces)) for _ in range(n))
        code = (ROLL_COLOURS.index(colour), ROLL_PURPOSES.index(purpose))
        entry = (self.state.step + 1, seat, *code, *dice)
        self.roll_log = [*self.roll_log, entry][-ROLL_LOG:]
        return dice

    def take_from_hand(self, seat: int, key: str) -> int:
        hand = self.hands[seat]
        for card in reversed(hand):  # of several alike, the latest
            if CARDS[card].key == key:
                hand.remove(card)
                return card
        raise IllegalAction(f"You hold no {key}.")

    def refill(self) -> None:
        if not self.trash and self.discard:
            self.trash = self.discard
            self.discard = []
            self.rng().shuffle(self.trash)
            self.say("The trash pile is empty: the discard pile is shuffled into a new one.")

    def draw(self, seat: int, source: str) -> None:
        """One card, one at a time; a Blocker is resolved at once."""
        if source == "discard":
            if not self.discard:
                raise IllegalAction("The discard pile is empty.")
            card = self.discard.pop()
        else:
            self.refill()
            if not self.trash:
                raise IllegalAction("There is nothing left to draw.")
            card = self.trash.pop()
        where = "the discard pile" if source == "discard" else "the trash pile"
        if CARDS[card].type == BLOCKER:
            self.say(f"{_p(seat)} draws the Blocker {CARDS[card].name} from {where}!")
            self.aside.append(card)
            self.blocker(seat, CARDS[card].key)
            return
        self.hands[seat].append(card)
        self.say(f"{_p(seat)} draws a card from {where}.")
        self.say(f"You drew a {CARDS[card].name}.", seat)

    def truck_waiting(self) -> bool:
        """Has a Garbage Truck discards still to come (from hands that hold cards)?"""
        return any(self.hands[p] for p in self.truck)

    def dive(self, seat: int, draws: int) -> None:
        """Dumpster Dive's draws from the trash pile, one at a time: a Garbage Truck drawn
        on the way is resolved, every discard made, before the next card is drawn
        (rulebook: a Blocker is resolved as it is drawn). The draws left wait in `dive`."""
        while draws and (self.trash or self.discard):
            draws -= 1
            self.draw(seat, "trash")
            if self.truck_waiting():
                break
        self.set(dive=draws if self.truck_waiting() else 0)

    def blocker(self, seat: int, key: str) -> None:
        state = self.state
        if key == "truck":
            order = [(seat + k) % state.seats for k in range(state.seats)]
            self.truck += [p for p in order if self.hands[p] and p not in self.truck]
            self.say("Every player discards one card of their choice.")
        elif key == "raid":
            left = (seat + 1) % state.seats
            if self.hands[seat]:
                card = self.hands[seat].pop(self.rng().randrange(len(self.hands[seat])))
                self.hands[left].append(card)
                self.say(f"{_p(left)} takes a random card from {_p(seat)}.")
                self.say(f"{_p(left)} took your {CARDS[card].name}.", seat)
                self.say(f"You took a {CARDS[card].name}.", left)
        elif key == "slippery":
            if seat not in self.slippery:
                self.slippery.append(seat)
            self.say(f"{_p(seat)}'s next rummage roll is skipped.")
        elif key == "spill":
            self.trash = self.discard + self.trash
            self.discard = []
            self.rng().shuffle(self.trash)
            self.say("The discard pile is shuffled into the trash pile.")
        elif key == "stink":
            own = seat == state.turn or (state.mode == KING and seat == self.get("king"))
            self.stink[seat] = 2 if own else 1
            self.say(f"{_p(seat)} cannot win until the end of their next turn.")

    def to_discard(self, seat: int, key: str) -> None:
        self.discard.append(self.take_from_hand(seat, key))

    # --- victory

    def freeze(self) -> State:
        self.truck = [p for p in self.truck if self.hands[p]]  # nothing left to discard
        return replace(
            self.state,
            step=self.state.step + 1,
            rolls=self.rolls,
            roll_log=tuple(self.roll_log),
            hands=tuple(tuple(h) for h in self.hands),
            laid=tuple(tuple(h) for h in self.laid),
            trash=tuple(self.trash),
            discard=tuple(self.discard),
            aside=tuple(self.aside),
            stink=tuple(self.stink),
            slippery=tuple(self.slippery),
            truck=tuple(self.truck),
            **self.changes,
        )

    def check_victory(self) -> None:
        state = self.state
        if self.get("finished"):
            return
        if state.mode == RUMMY:
            self.check_out(self.freeze())
            return
        found = [
            p
            for p in range(state.seats)
            if not self.stink[p] and winning_hand(state, p, self.hands[p])
        ]
        if not found:
            return
        state = self.freeze()
        if len(found) > 1:
            self.say("More than one hand wins at once: the largest victory set takes it.")
            top = max(len(state.hands[p]) for p in found)
            found = [p for p in found if len(state.hands[p]) == top]
        winner = self.roll_off(found)
        self.say(f"{_p(winner)} lays down three sets and wins!")
        self.finish((winner,))

    def roll_off(self, seats: list[int]) -> int:
        while len(seats) > 1:
            rolls = {p: crowbars(self.roll(ATTACK_DICE, "blue", p, "roll-off")) for p in seats}
            self.say(
                "Roll-off: " + ", ".join(f"{_p(p)} {n} crowbars" for p, n in rolls.items()) + "."
            )
            top = max(rolls.values())
            seats = [p for p in seats if rolls[p] == top]
        return seats[0]

    def finish(self, winners: tuple[int, ...]) -> None:
        self.set(finished=True, winners=winners, phase=OVER)
        self.truck = []

    def check_out(self, state: State, *, actor: int | None = None) -> None:
        out = [
            p
            for p in range(state.seats)
            if not state.hands[p] and not state.stink[p] and _has_set_down(state, p)
        ]
        if not out:
            return
        seat = actor if actor in out else out[0]
        self.say(f"{_p(seat)} goes out!")
        self.set(went_out=seat)
        self.score_rummy(seat)

    def score_rummy(self, went_out: int) -> None:
        state = self.freeze()
        points = rummy_points(replace(state, went_out=went_out))
        top = max(points)
        best = [p for p in range(state.seats) if points[p] == top]
        if len(best) > 1:
            most = max(len(state.laid[p]) for p in best)
            best = [p for p in best if len(state.laid[p]) == most]
        winner = self.roll_off(best)
        self.say(f"{_p(winner)} wins with {points[winner]} points.")
        self.finish((winner,))

    # --- turns

    def end_turn(self) -> None:
        state = self.state
        turn = state.turn
        for seat in {turn, self.get("king")}:
            if seat >= 0 and self.stink[seat]:
                self.stink[seat] -= 1
        self.check_victory()
        if self.get("finished"):
            return
        if state.mode == RUMMY and not self.trash and not self.discard:
            self.say("Both piles are empty: the game is scored as it stands.")
            self.score_rummy(-1)
            return
        if state.turns >= TURN_LIMIT:
            self.say("The alley is worn out: the game ends in a draw.")
            if state.mode == RUMMY:
                self.score_rummy(-1)
            else:
                self.finish(tuple(range(state.seats)))
            return
        self.set(turns=state.turns + 1, elbows=(), lids=0, winds=(), layers=(), defender=-1)
        if state.mode == KING:
            king = self.get("king")
            nxt = (turn - 1) % state.seats
            if nxt == king:
                nxt = (nxt - 1) % state.seats
            self.set(turn=nxt, phase=ATTACK, draws=0, discards=0)
        else:
            nxt = (turn + 1) % state.seats
            if state.mode == RUMMY:
                self.set(turn=nxt, phase=PRE, draws=2, discards=0)
            else:
                self.set(turn=nxt, phase=DECLARE, draws=0, discards=0)

    def fight(self) -> None:
        """Roll the combat dice (the attack and any defence Boosters are in)."""
        state = self.state
        defender = self.get("defender")
        elbows = self.get("elbows")
        attacker = state.turn
        a = self.roll(ATTACK_DICE + (attacker in elbows), "blue", attacker, "attack")
        d = self.roll(DEFENCE_DICE + (defender in elbows), "green", defender, "defence")
        self.set(dice=(a, d))
        self.say_dice(attacker, a, "blue")
        self.say_dice(defender, d, "green")
        if _booster_in_game(state, "wind"):
            self.set(phase=WIND, winds=(attacker, defender))
        else:
            self.resolve()

    def say_dice(self, seat: int, dice: tuple[int, ...], colour: str) -> None:
        bars = crowbars(dice)
        self.say(
            f"{_p(seat)} rolls {len(dice)} {colour} dice: {bars} crowbars, {len(dice) - bars} lids."
        )

    def resolve(self) -> None:
        state = self.state
        a, d = self.get("dice")
        attacker, defender = state.turn, self.get("defender")
        bars, lids = crowbars(a), len(d) - crowbars(d) + self.get("lids")
        if bars > lids:
            self.say(f"{bars} crowbars beat {lids} lids: {_p(attacker)} wins the fight.")
            if state.mode == KING:
                self.say(f"{_p(attacker)} is the new King of the Heap!")
                self.set(king=attacker)
                self.rummage(attacker, "blue")
            else:
                self.set(phase=SPOILS, actor=attacker, spoils=1)
        else:
            self.say(f"{lids} lids hold off {bars} crowbars: {_p(defender)} wins the fight.")
            if state.mode == KING:
                self.rummage(defender, "green")
            else:
                self.set(phase=SPOILS, actor=defender, spoils=2)

    def rummage(self, seat: int, colour: str) -> None:
        if seat in self.slippery:
            self.slippery.remove(seat)
            self.say(f"Slippery Lid: {_p(seat)}'s rummage roll is skipped.")
            self.after_fight()
            return
        dice = self.roll(RUMMAGE_DICE, colour, seat, "rummage")
        self.set(rummage=dice)
        plus = pluses(dice)
        minus = len(dice) - plus
        if self.state.mode == RUMMY:
            minus = 0
        self.say(f"{_p(seat)} rummages with {len(dice)} {colour} dice: {plus} plus, {minus} minus.")
        self.set(phase=RUMMAGE, actor=seat, draws=plus, discards=minus)

    def after_fight(self) -> None:
        if self.state.mode == RUMMY:
            self.set(phase=LAY, layers=(self.state.turn, self.get("defender")))
        else:
            self.end_turn()


def rummy_points(state: State) -> list[int]:
    """One point per card laid down, two more for going out (house rules)."""
    return [
        len(state.laid[p]) + (GOING_OUT if p == state.went_out else 0) for p in range(state.seats)
    ]


def _perform(state: State, seat: int, action: str) -> _Table:
    """Apply one legal action to a working copy of the state. A Garbage Truck waiting for
    discards comes first and a Booster may be played in several phases; every other action
    goes to the handler of the phase it was taken in (`_PHASES`)."""
    t = _Table(state)
    words = action.split()
    if state.truck:
        _truck_discard(t, seat, words)
    elif words[0] == "play":
        _play_booster(t, seat, words)
        t.check_victory()
    else:
        _PHASES[state.phase](t, seat, words)
    return t


def _truck_discard(t: _Table, seat: int, words: list[str]) -> None:
    state = t.state
    if words[0] != "discard" or len(words) != 2:
        raise IllegalAction("Garbage Truck: discard one card first.")
    t.to_discard(seat, words[1])
    t.truck.pop(0)
    t.say(f"{_p(seat)} throws a card onto the discard pile.")
    t.check_victory()
    if state.dive and not t.get("finished") and not t.truck_waiting():
        t.dive(state.turn, state.dive)  # the Truck is resolved: the Dive draws on
        t.check_victory()


def _declare(t: _Table, seat: int, words: list[str]) -> None:
    how = words[1]
    draws, discards = DECLARATIONS[how]
    t.say(f"{_p(seat)} declares: {how}.")
    t.set(phase=PRE if draws or discards else ATTACK, draws=draws, discards=discards)
    t.check_victory()


def _draw_discard_or_attack(t: _Table, seat: int, words: list[str]) -> None:
    """The PRE and ATTACK phases: the declared draws and discards, then an attack (or, in
    Rummy, going out)."""
    state = t.state
    verb = words[0]
    if verb == "draw":
        t.draw(seat, words[1])
        t.set(draws=state.draws - 1)
    elif verb == "discard":
        t.to_discard(seat, words[1])
        t.say(f"{_p(seat)} discards a card face down.")
        t.set(discards=state.discards - 1)
    elif verb == "go":
        _go_out(t, seat)
        return
    elif verb == "attack":
        target = int(words[1][1:])
        elbows: tuple[int, ...] = ()
        if len(words) > 2:
            t.discard.append(t.take_from_hand(seat, "elbow"))
            elbows = (seat,)
            t.say(f"{_p(seat)} plays Extra Elbow.")
        t.say(f"{_p(seat)} attacks {_p(target)}!")
        t.set(defender=target, elbows=elbows, lids=0, draws=0, discards=0)
        if _booster_in_game(state, "elbow") or _booster_in_game(state, "lid"):
            t.set(phase=DEFEND)
        else:
            t.fight()
    if t.get("phase") == PRE and not t.get("draws") and not t.get("discards"):
        t.set(phase=ATTACK)
    t.check_victory()


def _defend(t: _Table, seat: int, words: list[str]) -> None:
    lids = 0
    elbows = t.get("elbows")
    for word in words[1:]:
        if word == "elbow":
            t.discard.append(t.take_from_hand(seat, "elbow"))
            elbows = (*elbows, seat)
            t.say(f"{_p(seat)} plays Extra Elbow.")
        else:
            t.discard.append(t.take_from_hand(seat, "lid"))
            lids = 1
            t.say(f"{_p(seat)} plays Sturdy Lid.")
    if len(words) == 1:
        t.say(f"{_p(seat)} braces for the attack.")
    t.set(elbows=elbows, lids=lids)
    t.fight()
    t.check_victory()


def _second_wind(t: _Table, seat: int, words: list[str]) -> None:
    state = t.state
    winds = state.winds[1:]
    t.set(winds=winds)
    if words[0] == "reroll":
        t.discard.append(t.take_from_hand(seat, "wind"))
        a, d = state.dice
        attacker = seat == state.turn
        if attacker:
            a = t.roll(len(a), "blue", seat, "reroll")
        else:
            d = t.roll(len(d), "green", seat, "reroll")
        t.say(f"{_p(seat)} plays Second Wind and rerolls.")
        t.say_dice(seat, a if attacker else d, "blue" if attacker else "green")
        t.set(dice=(a, d))
    else:
        t.say(f"{_p(seat)} keeps the roll.")
    if not winds:
        t.resolve()
    t.check_victory()


def _spoils(t: _Table, seat: int, words: list[str]) -> None:
    state = t.state
    verb = words[0]
    other = state.defender if seat == state.turn else state.turn
    if verb == "done":
        t.say(f"{_p(seat)} is done with the spoils.")
        t.set(spoils=0)
    elif verb == "take":
        hand = t.hands[other]
        card = hand.pop(t.rng().randrange(len(hand)))
        t.hands[seat].append(card)
        t.say(f"{_p(seat)} takes a random card from {_p(other)}.")
        t.say(f"You took a {CARDS[card].name}.", seat)
        t.say(f"{_p(seat)} took your {CARDS[card].name}.", other)
        t.set(spoils=state.spoils - 1)
    else:
        card = t.take_from_hand(seat, words[1])
        t.hands[other].append(card)
        t.say(f"{_p(seat)} puts a card into {_p(other)}'s hand.")
        t.say(f"{_p(seat)} gave you a {CARDS[card].name}.", other)
        t.set(spoils=state.spoils - 1)
    if state.mode == RUMMY:
        t.check_out(t.freeze(), actor=other if verb == "take" else seat)
    else:
        t.check_victory()
    if not t.get("finished") and not t.get("spoils"):
        if seat == state.turn:
            t.rummage(seat, "blue")
        else:
            t.after_fight()


def _rummage(t: _Table, seat: int, words: list[str]) -> None:
    state = t.state
    verb = words[0]
    if verb == "reroll":
        t.discard.append(t.take_from_hand(seat, "wind"))
        t.say(f"{_p(seat)} plays Second Wind and rerolls.")
        colour = ROLL_COLOURS[state.roll_log[-1][2]]  # King's green stays green
        t.rummage(seat, colour)
        return
    if verb == "draw":
        t.draw(seat, words[1])
        t.set(draws=state.draws - 1)
    elif verb == "discard":
        t.to_discard(seat, words[1])
        t.say(f"{_p(seat)} discards a card face down.")
        t.set(draws=0, discards=state.discards - 1)
    else:
        t.say(f"{_p(seat)} is done rummaging.")
        t.set(draws=0, discards=0)
    if not t.get("draws") and not t.get("discards"):
        t.check_victory()
        if not t.get("finished"):
            t.after_fight()
        return
    t.check_victory()


def _lay(t: _Table, seat: int, words: list[str]) -> None:
    """Rummy's laying down after a turn: sets, going out, or done."""
    state = t.state
    verb = words[0]
    if verb == "lay":
        kind, n = KIND_INDEX[words[1]], int(words[2])
        for _ in range(n):
            t.laid[seat].append(t.take_from_hand(seat, KINDS[kind].key))
        t.say(f"{_p(seat)} lays down {n} {KINDS[kind].name}.")
    elif verb == "go":
        _go_out(t, seat)
        return
    else:
        t.say(f"{_p(seat)} is done laying down.")
        layers = state.layers[1:]
        t.set(layers=layers)
        if not layers:
            t.check_victory()
            if not t.get("finished"):
                t.end_turn()
            return
    t.check_victory()


# Which handler takes an action, by the phase it is taken in (the Truck and Boosters aside).
_PHASES: dict[str, Callable[[_Table, int, list[str]], None]] = {
    DECLARE: _declare,
    PRE: _draw_discard_or_attack,
    ATTACK: _draw_discard_or_attack,
    DEFEND: _defend,
    WIND: _second_wind,
    SPOILS: _spoils,
    RUMMAGE: _rummage,
    LAY: _lay,
}


def _go_out(t: _Table, seat: int) -> None:
    counts = Counter(CARDS[c].kind for c in t.hands[seat])
    for k in sorted(counts, key=lambda k: -counts[k]):
        for _ in range(counts[k]):
            t.laid[seat].append(t.take_from_hand(seat, KINDS[k].key))
    t.say(f"{_p(seat)} lays down the whole hand.")
    t.check_out(t.freeze(), actor=seat)


def _play_booster(t: _Table, seat: int, words: list[str]) -> None:
    key = words[1]
    t.discard.append(t.take_from_hand(seat, key))
    t.say(f"{_p(seat)} plays {CARDS[BOOSTER_IDS[[b.key for b in BOOSTERS].index(key)]].name}.")
    if key == "dive":
        t.dive(seat, 2)
    elif key == "peek":
        other = int(words[2][1:])
        names = ", ".join(sorted(CARDS[c].name for c in t.hands[other])) or "nothing"
        t.say(f"{_p(seat)} peeks at {_p(other)}'s hand.")
        t.say(f"{_p(other)} holds: {names}.", seat)
    elif key == "swap":
        other = int(words[2][1:])
        mine = t.take_from_hand(seat, words[3])
        theirs = t.hands[other].pop(t.rng().randrange(len(t.hands[other])))
        t.hands[other].append(mine)
        t.hands[seat].append(theirs)
        t.say(f"{_p(seat)} swaps a card with {_p(other)}.")
        t.say(f"You got a {CARDS[theirs].name}.", seat)
        t.say(f"{_p(seat)} swapped your {CARDS[theirs].name} for a {CARDS[mine].name}.", other)
    else:
        swept = [w for w in words[2:] if w != "alone"]
        for key2 in swept:
            t.to_discard(seat, key2)
        t.say(f"{_p(seat)} sweeps {len(swept)} card(s) onto the discard pile.")


# ---------------------------------------------------------------------------------------------
# Setting up


def _option_int(options: Mapping[str, str], name: str, default: int, top: int) -> int:
    raw = options.get(name, "") or str(default)
    try:
        value = int(raw)
    except ValueError:
        raise IllegalAction(f"{name} must be a number from 0 to {top}.") from None
    if not 0 <= value <= top:
        raise IllegalAction(f"{name} must be a number from 0 to {top}.")
    return value


def _characters(picks: str, seats: int, seed: int) -> tuple[int, ...]:
    """Each seat's character: the ones picked (by seat, blank for none), the rest drawn at
    random from the characters nobody picked."""
    picked = [w.strip() for w in picks.split(",")] if picks else []
    if len(picked) > seats:
        raise IllegalAction("More characters than players.")
    chosen = [w for w in picked if w]
    if any(w not in CHARACTER_INDEX for w in chosen) or len(set(chosen)) != len(chosen):
        raise IllegalAction("Characters are distinct keys: " + ", ".join(CHARACTER_INDEX))
    rest = [k for k in range(len(CHARACTERS)) if CHARACTERS[k].key not in chosen]
    rng_for(seed, "characters").shuffle(rest)
    picked += [""] * (seats - len(picked))
    return tuple(CHARACTER_INDEX[w] if w else rest.pop() for w in picked)


def start_roll(seed: int, seats: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Everyone rolls a die: lids drop out, crowbars roll on, all lids roll again."""
    rolling = list(range(seats))
    rounds: list[tuple[int, ...]] = []
    n = 0
    while True:
        n += 1
        rng = rng_for(seed, "start", n)
        row = [-1] * seats
        for p in rolling:
            row[p] = int(rng.choice(BLUE_FACES).symbol == CROWBAR)
        rounds.append(tuple(row))
        bars = [p for p in rolling if row[p] == 1]
        if len(bars) == 1:
            return bars[0], tuple(rounds)
        if bars:
            rolling = bars


def new_state(seats: int, options: Mapping[str, str], seed: int) -> State:
    mode = options.get("mode", "") or ROUND
    if mode not in MODES:
        raise IllegalAction(f"There is no mode '{mode}': pick {', '.join(MODES)}.")
    aff = options.get("affinity", "") or "on"
    if aff not in ("on", "off"):
        raise IllegalAction("affinity is on or off.")
    slugs = _option_int(options, "slugs", DEFAULT_SLUGS, MAX_SLUGS)
    boosters = _option_int(options, "boosters", DEFAULT_BOOSTERS, len(BOOSTER_IDS))
    blockers = _option_int(options, "blockers", DEFAULT_BLOCKERS, len(BLOCKER_IDS))
    characters = _characters(options.get("characters", "") or "", seats, seed)
    chosen_boosters = sorted(rng_for(seed, "boosters").sample(BOOSTER_IDS, boosters))
    chosen_blockers = sorted(rng_for(seed, "blockers").sample(BLOCKER_IDS, blockers))
    starter, rounds = start_roll(seed, seats)
    deck = list(TRASH_IDS) + list(SLUG_IDS[:slugs]) + chosen_boosters
    rng_for(seed, "deal").shuffle(deck)
    each = max(seats, 4)
    hands: list[list[int]] = [[] for _ in range(seats)]
    for _ in range(each):
        for k in range(seats):
            hands[(starter + k) % seats].append(deck.pop())
    deck += chosen_blockers
    rng_for(seed, "blockers-in").shuffle(deck)
    king = starter if mode == KING else -1
    turn = (starter + 1) % seats if mode == KING else starter
    phase = {ROUND: DECLARE, KING: ATTACK, RUMMY: PRE}[mode]
    state = State(
        seed=seed,
        seats=seats,
        mode=mode,
        affinity=aff == "on" and mode != RUMMY,
        characters=characters,
        in_play=tuple(list(SLUG_IDS[:slugs]) + chosen_boosters + chosen_blockers),
        start_rolls=rounds,
        starter=starter,
        hands=tuple(tuple(h) for h in hands),
        trash=tuple(deck),
        laid=((),) * seats,
        turn=turn,
        phase=phase,
        king=king,
        draws=2 if mode == RUMMY else 0,
        stink=(0,) * seats,
    )
    if mode != RUMMY:
        t = _Table(state)
        t.check_victory()
        if t.get("finished"):
            state = replace(t.freeze(), step=0)
    return state


def opening_events(state: State) -> list[Event]:
    events = []
    for n, row in enumerate(state.start_rolls, 1):
        parts = [
            f"{_p(p)} {'crowbar' if face else 'lid'}" for p, face in enumerate(row) if face >= 0
        ]
        events.append(Event(f"Start roll {n}: " + ", ".join(parts) + "."))
    events.append(Event(f"{_p(state.starter)} rolled the last crowbar and goes first."))
    each = max(state.seats, 4)
    events.append(Event(f"{_p(state.starter)} deals {each} cards to everyone."))
    if state.mode == KING:
        events.append(Event(f"{_p(state.starter)} is King of the Heap."))
    if state.finished:
        events += [Event(f"{_p(p)} was dealt three sets and wins!") for p in state.winners]
    return events


# ---------------------------------------------------------------------------------------------
# Observation


_VIEWS: tuple[CardView, ...] = tuple(
    {"id": c.id, "type": c.type, "key": c.key, "name": c.name} for c in CARDS
)


def _card(card: int) -> CardView:
    return _VIEWS[card].copy()


def _roll_view(entry: tuple[int, ...]) -> RollView:
    step, seat, colour, purpose, *dice = entry
    return {
        "step": step,
        "seat": seat,
        "colour": ROLL_COLOURS[colour],
        "purpose": ROLL_PURPOSES[purpose],
        "dice": dice,
        "crowbars": crowbars(dice),
        "pluses": pluses(dice),
    }


def observe(state: State, seat: int | None) -> BrawlObservation:
    own = seat is not None and 0 <= seat < state.seats
    acting = to_act(state)
    a, d = state.dice
    view: BrawlObservation = {
        "game": "brawl",
        "seat": seat,
        "seats": state.seats,
        "mode": state.mode,
        "affinity": state.affinity,
        "step": state.step,
        "turns": state.turns,
        "finished": state.finished,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": [] if acting is None else [acting],
        "actor": state.actor,
        "defender": state.defender,
        "king": state.king,
        "starter": state.starter,
        "characters": [
            {
                "key": CHARACTERS[k].key,
                "name": CHARACTERS[k].name,
                "animal": CHARACTERS[k].animal,
                "affinity": CHARACTERS[k].affinity,
            }
            for k in state.characters
        ],
        "in_play": [CARDS[c].key for c in state.in_play],
        "hand_sizes": [len(h) for h in state.hands],
        "laid": [[_card(c) for c in area] for area in state.laid],
        "trash_size": len(state.trash),
        "discard_size": len(state.discard),
        "aside": [_card(c) for c in state.aside],
        "draws": state.draws,
        "discards": state.discards,
        "spoils": state.spoils,
        "attack_dice": list(a),
        "defence_dice": list(d),
        "extra_lids": state.lids,
        "rummage_dice": list(state.rummage),
        "rolls": [_roll_view(entry) for entry in state.roll_log],
        "start_rolls": [list(r) for r in state.start_rolls],
        "truck": list(state.truck),
        "slippery": list(state.slippery),
        "stink": list(state.stink),
        "points": rummy_points(state) if state.mode == RUMMY else [0] * state.seats,
        "winners": list(state.winners),
        "went_out": state.went_out,
        "hand": [_card(c) for c in state.hands[seat]] if own and seat is not None else None,
    }
    return view


# ---------------------------------------------------------------------------------------------
# JSON

_TUPLES = (
    "characters",
    "in_play",
    "trash",
    "discard",
    "aside",
    "elbows",
    "winds",
    "layers",
    "rummage",
)
_TUPLES2 = ("truck", "slippery", "stink", "winners")
_NESTED = ("start_rolls", "hands", "laid", "roll_log")


def state_to_json(state: State) -> JSON:
    data: JSON = {}
    for name in State.__dataclass_fields__:
        value = getattr(state, name)
        if name in _NESTED or name == "dice":
            data[name] = [list(v) for v in value]
        elif isinstance(value, tuple):
            data[name] = list(value)
        else:
            data[name] = value
    return data


def state_from_json(data: JSON) -> State:
    if data.get("version") != SCHEMA:
        raise ValueError(f"Unknown Dumpster Brawl! state version {data.get('version')!r}")
    values: dict[str, Any] = {}
    for name, field in State.__dataclass_fields__.items():
        if name not in data:  # a field added after the game was saved: its default
            values[name] = field.default
            continue
        value = data[name]
        if name in _NESTED:
            values[name] = tuple([tuple(v) for v in value])  # JSON numbers are ints
        elif name == "dice":
            values[name] = (tuple(value[0]), tuple(value[1]))
        elif name in _TUPLES or name in _TUPLES2:
            values[name] = tuple(value)
        elif isinstance(value, bool):
            values[name] = value
        elif isinstance(value, int):
            values[name] = int(value)
        else:
            values[name] = str(value)
    return State(**values)


# ---------------------------------------------------------------------------------------------
# Labels


def _name(key: str) -> str:
    if key in KIND_INDEX:
        return KINDS[KIND_INDEX[key]].name
    return next((c.name for c in CARDS if c.key == key), key)


def describe_action(action: str) -> str:
    words = action.split()
    verb = words[0]
    if verb == "declare":
        return {
            "draw": "Declare: draw one or two",
            "discard": "Declare: discard one or two",
            "both": "Declare: discard one and draw one",
            "neither": "Declare: neither draw nor discard",
        }[words[1]]
    if verb == "draw":
        return "Draw from the trash pile" if words[1] == "trash" else "Draw from the discard pile"
    if verb == "discard":
        return f"Discard a {_name(words[1])}"
    if verb == "attack":
        return f"Attack {words[1].replace('p', '{p')}}}" + (
            " with Extra Elbow" if len(words) > 2 else ""
        )
    if verb == "defend":
        extra = " and ".join(_name(w) for w in words[1:])
        return f"Defend with {extra}" if extra else "Defend"
    if verb == "take":
        return "Take a random card"
    if verb == "give":
        return f"Give a {_name(words[1])}"
    if verb == "lay":
        return f"Lay down {words[2]} {_name(words[1])}"
    if verb == "go":
        return "Lay down everything and go out"
    if verb == "keep":
        return "Keep the roll"
    if verb == "reroll":
        return "Second Wind: reroll"
    if verb == "done":
        return "Done"
    if action == "play sweep alone":
        return "Play Clean Sweep alone (sweep no other card)"
    if verb == "play":
        rest = [
            w.replace("p", "{p") + "}" if w[:1] == "p" and w[1:].isdigit() else _name(w)
            for w in words[2:]
        ]
        return f"Play {_name(words[1])}" + (": " + ", ".join(rest) if rest else "")
    return action


_WHY = {
    DECLARE: "First declare whether you draw, discard, do both or neither.",
    PRE: "Draw or discard only as declared (one card at a time), then attack.",
    ATTACK: "Now attack: name the player you attack.",
    DEFEND: "Defend, with Extra Elbow or Sturdy Lid if you hold them.",
    WIND: "Keep the roll, or reroll it with Second Wind if you hold it.",
    SPOILS: "Take a random card, give one of yours, or be done.",
    RUMMAGE: "Draw up to your pluses, then discard up to your minuses, or be done.",
    LAY: "Lay down a set of three or more, or cards onto a set on the table, or be done.",
}


def _why_not(state: State) -> str:
    """The rule a refused action breaks, in a player's words."""
    if state.truck:
        return "Garbage Truck: discard one card of your choice first."
    return _WHY.get(state.phase, "The rules do not allow that now.")


# ---------------------------------------------------------------------------------------------
# The game


class Brawl(Game):
    key = "brawl"
    title = "Dumpster Brawl!"
    min_seats = 3
    max_seats = 6
    options = (
        Option("mode", "How to play.", MODES, ROUND),
        Option("affinity", "Trash affinity (never in Rummy).", ("on", "off"), "on"),
        Option("slugs", "Slug cards in the deck (0 to 6).", (), str(DEFAULT_SLUGS)),
        Option("boosters", "Booster cards (0 to 7).", (), str(DEFAULT_BOOSTERS)),
        Option("blockers", "Blocker cards (0 to 5).", (), str(DEFAULT_BLOCKERS)),
    )
    seat_pick = Option(
        "characters",
        "Your character (its affinity item needs only two for a set).",
        tuple(c.key for c in CHARACTERS),
        "",
        tuple(f"{c.name}, {c.animal} ({KINDS[KIND_INDEX[c.affinity]].name})" for c in CHARACTERS),
    )

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction("Dumpster Brawl! takes 3 to 6 players.")
        return new_state(seats, options, seed)

    def opening_events(self, state: State) -> list[Event]:
        return opening_events(state)

    def to_act(self, state: State) -> frozenset[int]:
        seat = to_act(state)
        return frozenset() if seat is None else frozenset({seat})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return legal_moves(state, seat)

    def apply(self, state: State, seat: int, action: str) -> Applied:
        if state.finished:
            raise IllegalAction("That game is over.")
        if seat != to_act(state):
            raise IllegalAction("It is not your turn to decide.")
        if action not in legal_moves(state, seat):
            raise IllegalAction(_why_not(state))
        table = _perform(state, seat, action)
        return Applied(table.freeze(), table.events)

    def observe(self, state: State, seat: int | None) -> JSON:
        return dict(observe(state, seat))

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        winners = set(state.winners)
        if state.mode == RUMMY:
            points = rummy_points(state)
            others = sorted(
                {points[p] for p in range(state.seats) if p not in winners}, reverse=True
            )
            ranks = tuple(
                0 if p in winners else 1 + others.index(points[p]) for p in range(state.seats)
            )
            return Outcome(ranks=ranks, points=tuple(points))
        ranks = tuple(0 if p in winners else 1 for p in range(state.seats))
        return Outcome(ranks=ranks, points=(0,) * state.seats)

    def to_json(self, state: State) -> JSON:
        return state_to_json(state)

    def from_json(self, data: JSON) -> State:
        return state_from_json(data)

    def describe(self, state: State, action: str) -> str:
        return describe_action(action)

    def choose(self, observation: JSON, legal: list[str], rng: random.Random) -> str:
        return ai.choose(observation, legal, rng)


BRAWL = Brawl()

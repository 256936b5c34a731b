"""Trash War: the rules engine.

Two to six knights each guard a fortress of three Wall cards and throw trash at each
other's walls. A wall that has taken 4 damage topples; a knight whose three walls are all
down is out; the last one standing wins. The deck, values and torches are the table in
`cards.py`.

Setup: three walls and five cards each, a starting player drawn at random (standing in for
the fiercest threat at the table), who opens the war by throwing one Trash card at any
standing wall of any opponent. With no Trash card, the opener discards one card and draws
one: a Trash card drawn is thrown at once, anything else passes the opening to the player on
the left.

A turn belongs to whoever was hit and has these phases, one decision per action:

1. Defence. Each incoming Trash card is met in turn with one card or none: a Shield whose
   value is at least the damage blocks it; a Deflect moves it onto another standing wall of
   the defender's; a Mace bats it at another player (the card says whom: the player on the
   left, on the right, back at whoever sent it, or anyone), the batter then choosing which
   standing wall it flies at; or the defender takes the hit. A Catapult volley (up to three
   Trash cards at one wall) is met card by card, heaviest first. Hits land at once: a wall
   can fall, and a knight can be knocked out, before any burn.
2. Burn or repair (not after a Mace), at most one card: a Burn removes Trash cards from the
   player's own standing walls, across walls, whose damage adds up to at most its value; a
   Repair Wall raises a fallen wall with no damage on it; or pass.
3. Attack (not after a Mace): a Trash card, or a Catapult with one to three Trash cards,
   at any standing wall of any opponent. The attack is compulsory while the hand holds
   Trash. With none, discard one card and draw one: Trash is thrown at once, anything else
   passes the turn to the player on the left.
4. Re-draw to five cards.

The player who is attacked takes the next turn. A player who batted trash with a Mace skips
phases 2 and 3; the turn goes to whoever received the last trash they batted. Seats sit
clockwise in seat order, so a seat's left neighbour is the next seat. The last knight
standing wins; `Outcome.ranks` follow the order of elimination (the winner 0, the last
knight out 1, and so on) and `points` are all 0, the game keeping no score.

Cards leaving play go to the recycle pile, or by their torches (house rule) to the torched
pile in torching phase 1 (1 torch) and phase 2 (1 or 2 torches), or out of the game from
phase 3 on. When the draw pile runs out, the recycle pile is shuffled into a new one, the
torched pile leaves the game and the next torching phase begins.

Table rules of this bot, where the rulebooks and the house rules are silent (tests check
each one):

- The opening attack is a single Trash card, as the rulebook tells it: no Catapult before
  the war has begun. A player passed the opening (no Trash drawn) opens in their turn.
- A turn that starts with no trash incoming (after "play passes to the left", or after the
  knight who held the turn was knocked out) still offers burn or repair before the attack.
  The opener has nothing to burn or repair, so they just attack.
- The player who discards and draws and then passes the turn still re-draws to five.
- A volley is met heaviest card first. Trash aimed at a wall that fell earlier in the same
  volley lands in the rubble and goes to the discard piles; its defender may still bat it
  with a Mace, but a Shield or a Deflect is not offered against it.
- A Deflect moves the trash to another of the defender's standing walls, not the one aimed
  at. A Mace sends trash to a standing wall of a player still in the war; "left" and
  "right" skip players who are out (so with two left, both mean the other one), and
  "back" needs the sender (whoever threw or last batted the card) still in.
- Trash batted during a turn waits until that player's defence is over, then flies. Trash
  batted at a player who does not take the next turn is met by that player at once, as a
  defence of its own (shield, deflect, mace or take the hit) with no burn, repair or
  attack, after which that player re-draws to five. Then the next turn begins.
- When the knight whose turn it is is knocked out and batted nothing, the turn passes to
  the next knight on their left. Trash still flying at a knight who is out goes to the
  discard piles.
- A Burn must burn at least one Trash card. Burn or repair is asked only when the player
  has trash on a standing wall or a fallen wall (otherwise the phase is skipped, which
  tells nobody anything about their hand); when it is asked, "pass" is always there, even
  for a player holding neither card. Likewise a defence is always asked, "take" being
  always there: nobody learns from the game's pace what a hand holds.
- Every card that goes to the discard piles (played, discarded, shielded or burned trash,
  the trash of a fallen wall, the hand of a knight who is out) goes where its torches send
  it. Wall cards of seats not in play stay in the box.
- The draw pile is recycled the moment it runs out, if the recycle pile holds any card
  (otherwise as soon as a card is needed and one is there). Should both be empty, a player
  draws what there is; a player with no card left at all when they must attack passes the
  turn to the left.

Actions are strings, each under 80 characters. A card is named by its `code` (see
`cards.py`): cards with the same code look the same to the player, so the code names
exactly what its owner can see (of several alike, the one held longest is played). Legal
actions of a seat are shown to that seat only; the only card an action reveals is the one
it plays face up. Seats are `p0`..`p5`, walls `left`, `middle`, `right`. The phase in
`observe` tells which kind of action is due: "attack", "drawn", "defend", "bat", "burn".

    play <trash> at p<N> <wall>                  throw a Trash card (attack)
    play <catapult> <trash> [<trash> [<trash>]] at p<N> <wall>
                                                 a Catapult volley, heaviest first
    discard <card>                               no Trash in hand: discard one and draw
    take                                         let the incoming trash land where aimed
    play <shield>                                block the incoming trash
    play <deflect> <wall>                        move it onto another of your walls
    play <mace>                                  bat it away (then `at`)
    at p<N> <wall>                               where the batted trash flies
    play <burn> <wall> <trash>... [<wall> <trash>...]
                                                 burn trash from your walls
    play <repair> <wall>                         raise a fallen wall
    pass                                         neither burn nor repair

For example `play toaster2 at p1 left`, `play catapult+ drum4+ toaster2 at p2 middle`,
`play shield3`, `play deflect++ right`, `play mace-any++`, `at p0 middle`,
`play burn3 left toaster2 right tv1`, `play repair+ middle`, `discard burn2`. A volley or
a burn with its cards listed in another order is read as the same action.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from rules.base import JSON, Applied, Event, Game, IllegalAction, Outcome, rng_for
from rules.trashwar import ai
from rules.trashwar.cards import (
    BACK,
    BURN,
    BY_CODE,
    CARDS,
    CATAPULT,
    DEFLECT,
    LEFT,
    MACE,
    PLAY_IDS,
    REPAIR,
    RIGHT,
    SHIELD,
    TRASH,
    WALL_IDS,
    Card,
)
from rules.trashwar.observation import (
    CardView,
    FlightView,
    PlayerView,
    TrashWarObservation,
    WallView,
)

SCHEMA = 1
WALLS_EACH = 3
HAND_SIZE = 5
TOPPLE = 4  # damage that brings a wall down
VOLLEY = 3  # most Trash cards one Catapult throws
WALL_NAMES = ("left", "middle", "right")

# Phases: what is being decided now.
ATTACK = "attack"
DRAWN = "drawn"
DEFEND = "defend"
BAT = "bat"
BURNING = "burn"
OVER = "over"
PHASES = (ATTACK, DRAWN, DEFEND, BAT, BURNING, OVER)

NOT_A_MOVE = "That is not a move in this game."
LABEL_LIMIT = 80  # a Discord button label


# ---------------------------------------------------------------------------------------------
# State


class Wall(NamedTuple):
    """One Wall card of a fortress."""

    card: int  # the Wall card's id
    standing: bool = True
    trash: tuple[int, ...] = ()  # Trash card ids, in the order they landed


class Flight(NamedTuple):
    """A Trash card in the air."""

    card: int
    target: int  # the seat it flies at
    wall: int  # 0..2, the wall it is aimed at
    sender: int  # the seat that threw or last batted it


@dataclass(frozen=True)
class State:
    """A whole game. Never changed in place: `apply` builds a new one.

    Piles are tuples of card ids with the top card last.
    """

    seed: int
    seats: int
    version: int = SCHEMA
    step: int = 0  # actions applied
    turns: int = 0  # turns begun
    recycles: int = 0  # times the draw pile was recycled (salts the shuffle)
    torch_phase: int = 1
    phase: str = ATTACK
    turn: int = 0  # whose turn it is
    starter: int = 0
    opening: bool = True  # no Trash thrown yet
    draw: tuple[int, ...] = ()
    recycle: tuple[int, ...] = ()
    torched: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # out of the game
    box: tuple[int, ...] = ()  # Wall cards of seats not in play
    hands: tuple[tuple[int, ...], ...] = ()
    walls: tuple[tuple[Wall, ...], ...] = ()
    flight: tuple[Flight, ...] = ()  # to be met in this order
    held: tuple[Flight, ...] = ()  # batted by the turn's player, flying when their defence ends
    swing: str | None = None  # the direction of the Mace being swung (phase "bat")
    drawn: int | None = None  # the Trash card just drawn that must be thrown (phase "drawn")
    eliminated: tuple[int, ...] = ()  # first out first
    finished: bool = False


def to_act(state: State) -> int | None:
    """The seat that decides now."""
    if state.finished:
        return None
    if state.phase in (DEFEND, BAT):
        return state.flight[0].target
    return state.turn


def standing(state: State, seat: int) -> bool:
    return seat not in state.eliminated


def left_of(seats: int, eliminated: Iterable[int], seat: int) -> int:
    """The next knight still in the war on `seat`'s left (clockwise: the next seat)."""
    out = set(eliminated)
    for step in range(1, seats):
        other = (seat + step) % seats
        if other not in out:
            return other
    return seat


def right_of(seats: int, eliminated: Iterable[int], seat: int) -> int:
    out = set(eliminated)
    for step in range(1, seats):
        other = (seat - step) % seats
        if other not in out:
            return other
    return seat


def mace_targets(state: State, seat: int, direction: str, sender: int) -> list[int]:
    """The players a Mace of this direction may bat trash at."""
    if direction == LEFT:
        found = [left_of(state.seats, state.eliminated, seat)]
    elif direction == RIGHT:
        found = [right_of(state.seats, state.eliminated, seat)]
    elif direction == BACK:
        found = [sender]
    else:
        found = list(range(state.seats))
    return [p for p in found if p != seat and standing(state, p)]


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


def _weight(code: str) -> tuple[int, str]:
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
        return Throw(tuple(sorted(volley, key=_weight)), code, *_target(args[-3:]))
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
    return tuple(sorted(picks, key=lambda pick: (pick[0], *_weight(pick[1]))))


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


# ---------------------------------------------------------------------------------------------
# Legal actions


def _codes(cards: Iterable[int], kind: str) -> list[str]:
    """Distinct codes of the cards of `kind`, heaviest first."""
    return sorted({CARDS[c].code for c in cards if CARDS[c].kind == kind}, key=_weight)


def targets(state: State, seat: int) -> list[tuple[int, int]]:
    """Every standing wall of every opponent still in the war: (seat, wall)."""
    return [
        (p, i)
        for p in range(state.seats)
        if p != seat and standing(state, p)
        for i, wall in enumerate(state.walls[p])
        if wall.standing
    ]


def volleys(hand: Iterable[int]) -> list[tuple[str, ...]]:
    """Every choice of one to three Trash cards from `hand`, as codes, heaviest first."""
    codes = sorted((CARDS[c].code for c in hand if CARDS[c].kind == TRASH), key=_weight)
    found: dict[tuple[str, ...], None] = {}
    for size in range(1, min(VOLLEY, len(codes)) + 1):
        for combo in combinations(codes, size):
            found[combo] = None
    return list(found)


def burn_choices(state: State, seat: int, value: int) -> list[tuple[tuple[int, str], ...]]:
    """Every set of Trash cards on `seat`'s standing walls whose damage adds up to at most
    `value` (at least one card)."""
    items = [
        (i, CARDS[c].code)
        for i, wall in enumerate(state.walls[seat])
        if wall.standing
        for c in wall.trash
    ]
    items.sort(key=lambda pick: (pick[0], *_weight(pick[1])))
    found: dict[tuple[tuple[int, str], ...], None] = {}
    for size in range(1, len(items) + 1):
        for combo in combinations(items, size):
            if sum(BY_CODE[code].value for _, code in combo) <= value:
                found[combo] = None
    return list(found)


def legal_moves(state: State) -> list[Action]:
    """Every action the seat to act may take now, in a fixed order."""
    seat = to_act(state)
    if seat is None:
        return []
    hand = state.hands[seat]
    phase = state.phase
    if phase == DRAWN:
        assert state.drawn is not None
        code = CARDS[state.drawn].code
        return [Throw((code,), None, p, i) for p, i in targets(state, seat)]
    if phase == ATTACK:
        trash = _codes(hand, TRASH)
        if not trash:
            return [Discard(code) for code in sorted({CARDS[c].code for c in hand})]
        aims = targets(state, seat)
        moves: list[Action] = [Throw((code,), None, p, i) for code in trash for p, i in aims]
        if not state.opening:
            for catapult in _codes(hand, CATAPULT):
                for volley in volleys(hand):
                    moves += [Throw(volley, catapult, p, i) for p, i in aims]
        return moves
    if phase == DEFEND:
        return _defences(state, seat, hand)
    if phase == BAT:
        assert state.swing is not None
        head = state.flight[0]
        return [
            Bat(p, i)
            for p in mace_targets(state, seat, state.swing, head.sender)
            for i, wall in enumerate(state.walls[p])
            if wall.standing
        ]
    moves = [Pass()]
    for code in _codes(hand, BURN):
        moves += [Burn(code, picks) for picks in burn_choices(state, seat, BY_CODE[code].value)]
    for code in _codes(hand, REPAIR):
        moves += [Repair(code, i) for i, wall in enumerate(state.walls[seat]) if not wall.standing]
    return moves


def legal_attacks(state: State, seat: int) -> list[str]:
    """The attack phase's actions as text, as `legal_moves` gives them (faster)."""
    hand = state.hands[seat]
    trash = _codes(hand, TRASH)
    if not trash:
        return [f"discard {code}" for code in sorted({CARDS[c].code for c in hand})]
    aims = [f" at p{p} {WALL_NAMES[i]}" for p, i in targets(state, seat)]
    moves = [f"play {code}{aim}" for code in trash for aim in aims]
    if not state.opening:
        for catapult in _codes(hand, CATAPULT):
            for volley in volleys(hand):
                cards = f"play {catapult} {' '.join(volley)}"
                moves += [cards + aim for aim in aims]
    return moves


def _defences(state: State, seat: int, hand: tuple[int, ...]) -> list[Action]:
    head = state.flight[0]
    damage = CARDS[head.card].value
    moves: list[Action] = [Take()]
    own = state.walls[seat]
    if own[head.wall].standing:
        moves += [Block(code) for code in _codes(hand, SHIELD) if BY_CODE[code].value >= damage]
        others = [i for i, wall in enumerate(own) if wall.standing and i != head.wall]
        moves += [Deflect(code, i) for code in _codes(hand, DEFLECT) for i in others]
    for code in _codes(hand, MACE):
        if mace_targets(state, seat, BY_CODE[code].direction, head.sender):
            moves.append(Swing(code))
    return moves


# ---------------------------------------------------------------------------------------------
# Checking an action


def _in_hand(hand: tuple[int, ...], code: str) -> int:
    """The id of a card of `code` in `hand` (the one held longest)."""
    for c in hand:
        if CARDS[c].code == code:
            return c
    raise IllegalAction(f"You hold no {BY_CODE[code].title}.")


def _check(state: State, seat: int, action: Action) -> None:
    """Raise `IllegalAction` naming the rule when `action` breaks one."""
    phase = state.phase
    hand = state.hands[seat]
    if isinstance(action, Throw):
        _check_throw(state, seat, action)
    elif isinstance(action, Discard):
        if phase != ATTACK:
            raise IllegalAction("You discard and draw only when it is time to attack.")
        if any(CARDS[c].kind == TRASH for c in hand):
            raise IllegalAction("You hold Trash, so you must attack with it.")
        _in_hand(hand, action.code)
    elif isinstance(action, Take | Block | Deflect | Swing):
        _check_defence(state, seat, action)
    elif isinstance(action, Bat):
        if phase != BAT:
            raise IllegalAction("There is no Mace being swung.")
        assert state.swing is not None
        head = state.flight[0]
        if action.target not in mace_targets(state, seat, state.swing, head.sender):
            raise IllegalAction(f"This Mace ({state.swing}) cannot bat trash at that player.")
        _check_wall(state, action.target, action.wall)
    else:
        _check_burn_or_repair(state, seat, action)


def _check_wall(state: State, seat: int, wall: int) -> None:
    if not 0 <= seat < state.seats or not standing(state, seat):
        raise IllegalAction("That player is not in the war.")
    if not state.walls[seat][wall].standing:
        raise IllegalAction("That wall has fallen: aim at a standing wall.")


def _check_throw(state: State, seat: int, action: Throw) -> None:
    if state.phase == DRAWN:
        assert state.drawn is not None
        if action.catapult or action.trash != (CARDS[state.drawn].code,):
            raise IllegalAction("The Trash card you drew must be thrown at once, on its own.")
    elif state.phase != ATTACK:
        raise IllegalAction("You can throw trash only when you attack.")
    if action.catapult:
        if state.opening:
            raise IllegalAction("The war opens with a single Trash card, not a Catapult.")
        _in_hand(state.hands[seat], action.catapult)
    need = Counter(action.trash)
    have = Counter(CARDS[c].code for c in state.hands[seat])
    for code, count in need.items():
        if have[code] < count:
            raise IllegalAction(f"You hold no {'more ' * (have[code] > 0)}{BY_CODE[code].title}.")
    if action.target == seat:
        raise IllegalAction("Throw your trash at an opponent, not at your own walls.")
    _check_wall(state, action.target, action.wall)


def _check_defence(state: State, seat: int, action: Take | Block | Deflect | Swing) -> None:
    if state.phase == BAT:
        raise IllegalAction("First choose where your Mace bats the trash.")
    if state.phase != DEFEND:
        raise IllegalAction("No trash is flying at you to defend against.")
    if isinstance(action, Take):
        return
    head = state.flight[0]
    damage = CARDS[head.card].value
    card = CARDS[_in_hand(state.hands[seat], action.code)]
    aimed_down = not state.walls[seat][head.wall].standing
    if isinstance(action, Block):
        if aimed_down:
            raise IllegalAction("That trash falls into rubble: there is nothing to shield.")
        if card.value < damage:
            raise IllegalAction(
                f"A Shield {card.value} cannot block damage {damage}: "
                "the shield's value must be at least the damage."
            )
    elif isinstance(action, Deflect):
        if aimed_down:
            raise IllegalAction("That trash falls into rubble: there is nothing to deflect.")
        if action.wall == head.wall or not state.walls[seat][action.wall].standing:
            raise IllegalAction("Deflect the trash onto another of your standing walls.")
    elif not mace_targets(state, seat, card.direction, head.sender):
        raise IllegalAction("There is nobody that Mace can bat the trash at.")


def _check_burn_or_repair(state: State, seat: int, action: Action) -> None:
    if state.phase != BURNING:
        if state.phase == DEFEND and not isinstance(action, Pass):
            raise IllegalAction("Burn or repair comes after the defence, never against incoming.")
        raise IllegalAction("It is not the time to burn or repair.")
    if isinstance(action, Burn):
        burn = CARDS[_in_hand(state.hands[seat], action.code)]
        on_walls: Counter[tuple[int, str]] = Counter(
            (i, CARDS[c].code)
            for i, wall in enumerate(state.walls[seat])
            if wall.standing
            for c in wall.trash
        )
        if any(count > on_walls[pick] for pick, count in Counter(action.picks).items()):
            raise IllegalAction("Burn only trash that is on your own standing walls.")
        total = sum(BY_CODE[code].value for _, code in action.picks)
        if total > burn.value:
            raise IllegalAction(
                f"A Burn {burn.value} burns trash worth at most {burn.value} in all, not {total}."
            )
    elif isinstance(action, Repair):
        _in_hand(state.hands[seat], action.code)
        if state.walls[seat][action.wall].standing:
            raise IllegalAction("That wall is standing: a Repair Wall raises a fallen one.")


# ---------------------------------------------------------------------------------------------
# Applying an action: a working copy of the state, changed in place, then frozen


def _p(seat: int) -> str:
    return f"{{p{seat}}}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _fit(*labels: str) -> str:
    """The first label short enough for a button (80 characters), else the last."""
    return next((label for label in labels if len(label) <= LABEL_LIMIT), labels[-1])


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


class _Table:
    """A mutable copy of a state for one `apply`."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.seats = state.seats
        self.turns = state.turns
        self.recycles = state.recycles
        self.torch_phase = state.torch_phase
        self.phase = state.phase
        self.turn = state.turn
        self.opening = state.opening
        self.draw = list(state.draw)
        self.recycle = list(state.recycle)
        self.torched = list(state.torched)
        self.out = list(state.out)
        self.hands = [list(hand) for hand in state.hands]
        self.standing = [[w.standing for w in walls] for walls in state.walls]
        self.touched: set[int] = set()  # seats whose walls changed
        self.trash = [[list(w.trash) for w in walls] for walls in state.walls]
        self.flight = list(state.flight)
        self.held = list(state.held)
        self.swing = state.swing
        self.drawn = state.drawn
        self.eliminated = list(state.eliminated)
        self.finished = state.finished
        self.events: list[Event] = []

    def freeze(self) -> State:
        s = self.state
        return State(
            seed=s.seed,
            seats=s.seats,
            step=s.step + 1,
            turns=self.turns,
            recycles=self.recycles,
            torch_phase=self.torch_phase,
            phase=OVER if self.finished else self.phase,
            turn=self.turn,
            starter=s.starter,
            opening=self.opening,
            draw=tuple(self.draw),
            recycle=tuple(self.recycle),
            torched=tuple(self.torched),
            out=tuple(self.out),
            box=s.box,
            hands=tuple(tuple(hand) for hand in self.hands),
            walls=tuple(
                tuple(
                    Wall(w.card, self.standing[p][i], tuple(self.trash[p][i]))
                    for i, w in enumerate(walls)
                )
                if p in self.touched
                else walls
                for p, walls in enumerate(s.walls)
            ),
            flight=tuple(self.flight),
            held=tuple(self.held),
            swing=self.swing,
            drawn=self.drawn,
            eliminated=tuple(self.eliminated),
            finished=self.finished,
        )

    # --- small helpers ------------------------------------------------------------------

    def say(self, text: str, to: int | None = None) -> None:
        self.events.append(Event(text, to))

    def take_from_hand(self, seat: int, code: str) -> int:
        hand = self.hands[seat]
        for k, c in enumerate(hand):
            if CARDS[c].code == code:
                del hand[k]
                return c
        raise IllegalAction(f"You hold no {BY_CODE[code].title}.")  # checked before

    def discard(self, card: int) -> None:
        """Off to the discard piles: the torches decide which (house rule)."""
        torches = CARDS[card].torches
        if not torches or (self.torch_phase == 1 and torches != 1):
            self.recycle.append(card)
        elif self.torch_phase <= 2:
            self.torched.append(card)
        else:
            self.out.append(card)

    def damage(self, seat: int, wall: int) -> int:
        return sum(CARDS[c].value for c in self.trash[seat][wall])

    def left_of(self, seat: int) -> int:
        return left_of(self.seats, self.eliminated, seat)

    # --- the piles ----------------------------------------------------------------------

    def recycle_pile(self) -> None:
        """The recycle pile becomes the draw pile; the torched pile leaves the game."""
        if not self.recycle:
            return
        gone = len(self.torched)
        self.out += self.torched
        self.torched = []
        pile = self.recycle
        rng_for(self.state.seed, "recycle", self.recycles).shuffle(pile)
        self.draw, self.recycle = pile, []
        self.recycles += 1
        self.torch_phase += 1
        self.say(
            f"The draw pile is empty: the recycle pile is shuffled into a new one "
            f"({len(self.draw)} cards). Torching phase {self.torch_phase} begins"
            + (
                f"; {_count(gone, 'torched card')} {'leave' if gone != 1 else 'leaves'} the game."
                if gone
                else "."
            )
        )

    def draw_one(self) -> int | None:
        if not self.draw:
            self.recycle_pile()
            if not self.draw:
                return None
        card = self.draw.pop()
        if not self.draw:
            self.recycle_pile()  # recycled the moment it runs out
        return card

    def refill(self, seat: int) -> None:
        """The re-draw: back up to five cards, as far as the piles allow."""
        hand = self.hands[seat]
        drawn: list[int] = []
        while len(hand) < HAND_SIZE:
            card = self.draw_one()
            if card is None:
                break
            hand.append(card)
            drawn.append(card)
        if drawn:
            count = len(drawn)
            self.say(f"{_p(seat)} draws {count} card{'s' * (count != 1)}.")
            self.say(f"You draw {_listing([CARDS[c].a for c in drawn])}.", to=seat)

    # --- hits, falls and knock-outs -------------------------------------------------------

    def hit(self, card: int, seat: int, wall: int) -> None:
        trash = CARDS[card]
        where = f"{_p(seat)}'s {WALL_NAMES[wall]} wall"
        if not self.standing[seat][wall]:
            self.discard(card)
            self.say(f"{where} is down already: the rubble swallows the {trash.title}.")
            return
        self.touched.add(seat)
        self.trash[seat][wall].append(card)
        total = self.damage(seat, wall)
        if total < TOPPLE:
            self.say(f"{where} takes the {trash.title}: {total} damage of {TOPPLE}.")
            return
        self.say(f"{where} takes the {trash.title}: {total} damage, and the wall falls!")
        self.standing[seat][wall] = False
        for c in self.trash[seat][wall]:
            self.discard(c)
        self.trash[seat][wall] = []
        if not any(self.standing[seat]):
            self.knock_out(seat)

    def knock_out(self, seat: int) -> None:
        self.eliminated.append(seat)
        for c in self.hands[seat]:
            self.discard(c)
        self.hands[seat] = []
        self.say(f"{_p(seat)}'s last wall is down: {_p(seat)} is out of the war.")
        left = [p for p in range(self.seats) if p not in self.eliminated]
        if len(left) == 1:
            self.finished = True
            self.phase = OVER
            self.say(f"{_p(left[0])} is the last knight standing and wins the Trash War!")

    # --- the flow of a turn ---------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        self.turn = seat
        self.turns += 1
        self.held = []
        self.drawn = None
        self.next_defence(None)

    def next_defence(self, last: int | None) -> None:
        """After a card in flight is settled, or as a turn starts: who decides next."""
        if self.finished:
            return
        while self.flight and self.flight[0].target in self.eliminated:
            gone = self.flight.pop(0)
            self.discard(gone.card)
            self.say(
                f"{_p(gone.target)} is out already: the ruins swallow the {CARDS[gone.card].title}."
            )
        following = self.flight[0].target if self.flight else None
        if (
            last is not None
            and last != self.turn
            and following != last
            and last not in self.eliminated
        ):
            self.refill(last)  # a defence out of turn ends with its own re-draw
        if self.flight:
            self.phase = DEFEND
            return
        self.end_defence()

    def end_defence(self) -> None:
        seat = self.turn
        if self.held:
            # A Mace ends the turn: straight to the re-draw, then the trash flies on.
            if seat not in self.eliminated:
                self.refill(seat)
            receiver = self.held[-1].target
            self.flight = [f for f in self.held if f.target != receiver]
            self.flight += [f for f in self.held if f.target == receiver]
            count = len(self.held)
            self.say(
                f"The batted trash flies on ({count} card{'s' * (count != 1)}); "
                f"the turn passes to {_p(receiver)}."
            )
            self.start_turn(receiver)
        elif seat in self.eliminated:
            following = self.left_of(seat)
            self.say(f"The turn passes to {_p(following)}.")
            self.start_turn(following)
        elif not all(self.standing[seat]) or any(self.trash[seat]):
            self.phase = BURNING  # there is something to burn or to repair
        else:
            self.to_attack()

    def to_attack(self) -> None:
        if self.hands[self.turn]:
            self.phase = ATTACK
            return
        self.say(f"{_p(self.turn)} has no cards left to attack with.")
        self.pass_left()

    def pass_left(self) -> None:
        seat = self.turn
        self.refill(seat)
        following = self.left_of(seat)
        self.say(f"Play passes to the left, to {_p(following)}.")
        self.start_turn(following)

    # --- the actions ----------------------------------------------------------------------

    def throw(self, seat: int, action: Throw) -> None:
        cards = [self.take_from_hand(seat, code) for code in action.trash]
        where = f"{_p(action.target)}'s {WALL_NAMES[action.wall]} wall"
        names = _listing([CARDS[c].a for c in cards])
        if action.catapult:
            self.discard(self.take_from_hand(seat, action.catapult))
            self.say(f"{_p(seat)}'s Catapult throws {names} at {where}.")
        else:
            self.say(f"{_p(seat)} throws {names} at {where}.")
        self.flight = [Flight(c, action.target, action.wall, seat) for c in cards]
        self.opening = False
        self.drawn = None
        self.refill(seat)
        self.start_turn(action.target)

    def discard_and_draw(self, seat: int, action: Discard) -> None:
        card = self.take_from_hand(seat, action.code)
        self.discard(card)
        self.say(f"{_p(seat)} has no Trash: discards {CARDS[card].a} and draws a card.")
        new = self.draw_one()
        if new is None:
            self.say("There is no card left to draw.")
            self.pass_left()
            return
        self.hands[seat].append(new)
        self.say(f"You draw {CARDS[new].a}.", to=seat)
        if CARDS[new].kind == TRASH:
            self.drawn = new
            self.phase = DRAWN
            self.say(f"It is Trash: {_p(seat)} must throw it at once.")
        else:
            self.say("The card drawn is no Trash.")
            self.pass_left()

    def defend(self, seat: int, action: Take | Block | Deflect | Swing) -> None:
        head = self.flight[0]
        trash = CARDS[head.card]
        if isinstance(action, Swing):
            mace = self.take_from_hand(seat, action.code)
            self.discard(mace)
            self.swing = CARDS[mace].direction
            self.phase = BAT
            self.say(f"{_p(seat)} swings {CARDS[mace].a} at the {trash.title}.")
            return
        self.flight.pop(0)
        if isinstance(action, Take):
            self.hit(head.card, seat, head.wall)
        elif isinstance(action, Block):
            shield = self.take_from_hand(seat, action.code)
            self.discard(shield)
            self.discard(head.card)
            self.say(f"{_p(seat)} shields the {trash.title} with {CARDS[shield].a}.")
        else:
            self.discard(self.take_from_hand(seat, action.code))
            self.say(
                f"{_p(seat)} deflects the {trash.title} onto their {WALL_NAMES[action.wall]} wall."
            )
            self.hit(head.card, seat, action.wall)
        self.next_defence(seat)

    def bat(self, seat: int, action: Bat) -> None:
        head = self.flight.pop(0)
        batted = Flight(head.card, action.target, action.wall, seat)
        self.swing = None
        self.say(
            f"{_p(seat)} bats the {CARDS[head.card].title} at "
            f"{_p(action.target)}'s {WALL_NAMES[action.wall]} wall."
        )
        if seat == self.turn:
            self.held.append(batted)  # flies when this defence is over
        elif action.target == self.turn:
            self.flight.append(batted)
        else:
            mine = [k for k, f in enumerate(self.flight) if f.target == self.turn]
            self.flight.insert(mine[0] if mine else len(self.flight), batted)
        self.next_defence(seat)

    def burn_or_repair(self, seat: int, action: Action) -> None:
        if isinstance(action, Burn):
            burn = self.take_from_hand(seat, action.code)
            self.discard(burn)
            parts = []
            for wall in sorted({w for w, _ in action.picks}):
                names = []
                for w, code in action.picks:
                    if w != wall:
                        continue
                    self.touched.add(seat)
                    pile = self.trash[seat][wall]
                    card = next(c for c in pile if CARDS[c].code == code)
                    pile.remove(card)
                    self.discard(card)
                    names.append(f"the {CARDS[card].title}")
                parts.append(f"{_listing(names)} off their {WALL_NAMES[wall]} wall")
            self.say(f"{_p(seat)} burns {_listing(parts)} with {CARDS[burn].a}.")
        elif isinstance(action, Repair):
            self.discard(self.take_from_hand(seat, action.code))
            self.touched.add(seat)
            self.standing[seat][action.wall] = True
            self.say(f"{_p(seat)} repairs their {WALL_NAMES[action.wall]} wall.")
        else:
            self.say(f"{_p(seat)} neither burns nor repairs.")
        self.to_attack()


def _perform(state: State, seat: int, action: Action) -> _Table:
    table = _Table(state)
    if isinstance(action, Throw):
        table.throw(seat, action)
    elif isinstance(action, Discard):
        table.discard_and_draw(seat, action)
    elif isinstance(action, Take | Block | Deflect | Swing):
        table.defend(seat, action)
    elif isinstance(action, Bat):
        table.bat(seat, action)
    else:
        table.burn_or_repair(seat, action)
    return table


# ---------------------------------------------------------------------------------------------
# Setting up


def new_state(seats: int, seed: int) -> State:
    """Three walls and five cards each, the rest the draw pile, a random opener."""
    deck = list(PLAY_IDS)
    rng_for(seed, "deal").shuffle(deck)
    hands = tuple(tuple(deck[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(seats))
    draw = tuple(deck[seats * HAND_SIZE :])
    walls = tuple(
        tuple(Wall(WALL_IDS[p * WALLS_EACH + i]) for i in range(WALLS_EACH)) for p in range(seats)
    )
    starter = rng_for(seed, "start").randrange(seats)
    state = State(
        seed=seed,
        seats=seats,
        turns=1,
        phase=ATTACK,
        turn=starter,
        starter=starter,
        draw=draw,
        hands=hands,
        walls=walls,
        box=WALL_IDS[seats * WALLS_EACH :],
    )
    return state


def opening_event(starter: int) -> Event:
    """The log line that names who opens the war."""
    return Event(f"{_p(starter)} roars the fiercest threat at the table and opens the war.")


# ---------------------------------------------------------------------------------------------
# Observation


def _card_view(card: Card) -> CardView:
    return CardView(
        id=card.id,
        code=card.code,
        kind=card.kind,
        value=card.value,
        torches=card.torches,
        direction=card.direction,
        name=card.name,
        title=card.title,
    )


_VIEWS: tuple[CardView, ...] = tuple(_card_view(card) for card in CARDS)


_VALUES: tuple[int, ...] = tuple(card.value for card in CARDS)


def _flight_view(flight: Flight) -> FlightView:
    return {
        "card": _VIEWS[flight.card].copy(),
        "target": flight.target,
        "wall": WALL_NAMES[flight.wall],
        "sender": flight.sender,
    }


def _wall_view(position: str, wall: Wall) -> WallView:
    trash = wall[2]
    if not trash:
        return {"position": position, "standing": wall[1], "trash": [], "damage": 0}
    return {
        "position": position,
        "standing": wall[1],
        "trash": [_VIEWS[c].copy() for c in trash],
        "damage": sum([_VALUES[c] for c in trash]),
    }


def _players_view(state: State) -> list[PlayerView]:
    under_attack = [0] * state.seats
    for f in state.flight:
        under_attack[f.target] += _VALUES[f.card]
    out, hands = state.eliminated, state.hands
    left, middle, right = WALL_NAMES
    return [
        {
            "seat": seat,
            "in_game": seat not in out,
            "walls": [_wall_view(left, a), _wall_view(middle, b), _wall_view(right, c)],
            "hand_size": len(hands[seat]),
            "under_attack": under_attack[seat],
        }
        for seat, (a, b, c) in enumerate(state.walls)
    ]


def observe(state: State, seat: int | None) -> TrashWarObservation:
    """What `seat` may know; `None` for the public view (see `observation.py`)."""
    out = state.eliminated
    players = _players_view(state)
    own = seat is not None and 0 <= seat < state.seats
    acting = to_act(state)
    winner = next(p for p in range(state.seats) if p not in out) if state.finished else None
    return {
        "game": "trashwar",
        "seat": seat,
        "seats": state.seats,
        "step": state.step,
        "turns": state.turns,
        "finished": state.finished,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": [] if acting is None else [acting],
        "opening": state.opening,
        "torch_phase": state.torch_phase,
        "draw_size": len(state.draw),
        "recycle_size": len(state.recycle),
        "recycle_top": _VIEWS[state.recycle[-1]].copy() if state.recycle else None,
        "torched_size": len(state.torched),
        "torched_top": _VIEWS[state.torched[-1]].copy() if state.torched else None,
        "out_size": len(state.out),
        "players": players,
        "incoming": [_flight_view(f) for f in state.flight],
        "held": [_flight_view(f) for f in state.held],
        "swing": state.swing,
        "maced": bool(state.held),
        "eliminated": list(state.eliminated),
        "winner": winner,
        "hand": [_VIEWS[c].copy() for c in state.hands[seat]] if own and seat is not None else None,
    }


# ---------------------------------------------------------------------------------------------
# JSON


def state_to_json(state: State) -> JSON:
    return {
        "version": state.version,
        "seed": state.seed,
        "seats": state.seats,
        "step": state.step,
        "turns": state.turns,
        "recycles": state.recycles,
        "torch_phase": state.torch_phase,
        "phase": state.phase,
        "turn": state.turn,
        "starter": state.starter,
        "opening": state.opening,
        "draw": list(state.draw),
        "recycle": list(state.recycle),
        "torched": list(state.torched),
        "out": list(state.out),
        "box": list(state.box),
        "hands": [list(hand) for hand in state.hands],
        "walls": [
            [[wall.card, wall.standing, list(wall.trash)] for wall in walls]
            for walls in state.walls
        ],
        "flight": [[f.card, f.target, f.wall, f.sender] for f in state.flight],
        "held": [[f.card, f.target, f.wall, f.sender] for f in state.held],
        "swing": state.swing,
        "drawn": state.drawn,
        "eliminated": list(state.eliminated),
        "finished": state.finished,
    }


def state_from_json(data: JSON) -> State:
    if data.get("version") != SCHEMA:
        raise ValueError(f"Unknown Trash War state version {data.get('version')!r}")
    return State(
        version=SCHEMA,
        seed=int(data["seed"]),
        seats=int(data["seats"]),
        step=int(data["step"]),
        turns=int(data["turns"]),
        recycles=int(data["recycles"]),
        torch_phase=int(data["torch_phase"]),
        phase=str(data["phase"]),
        turn=int(data["turn"]),
        starter=int(data["starter"]),
        opening=bool(data["opening"]),
        draw=tuple(data["draw"]),
        recycle=tuple(data["recycle"]),
        torched=tuple(data["torched"]),
        out=tuple(data["out"]),
        box=tuple(data["box"]),
        hands=tuple(map(tuple, data["hands"])),
        walls=tuple(
            [
                tuple([Wall(card, up, tuple(trash)) for card, up, trash in ws])
                for ws in data["walls"]
            ]
        ),
        flight=tuple([Flight(*f) for f in data["flight"]]),
        held=tuple([Flight(*f) for f in data["held"]]),
        swing=None if data["swing"] is None else str(data["swing"]),
        drawn=None if data["drawn"] is None else int(data["drawn"]),
        eliminated=tuple(data["eliminated"]),
        finished=bool(data["finished"]),
    )


# ---------------------------------------------------------------------------------------------
# Labels


def describe_action(state: State, action: Action) -> str:
    """A short button label (at most 80 characters) for the seat that may take the action,
    naming seats as `{p0}`, `{p1}`, ... like the events do."""
    if isinstance(action, Throw):
        where = f"{_p(action.target)}'s {WALL_NAMES[action.wall]} wall"
        cards = [BY_CODE[code] for code in action.trash]
        if action.catapult is None:
            return f"Throw {cards[0].the} at {where}"
        return _fit(
            f"Catapult {_listing([card.the for card in cards])} at {where}",
            f"Catapult {_listing([card.title for card in cards])} at {where}",
            f"Catapult {' + '.join(str(card.value) for card in cards)} at {where}",
        )
    if isinstance(action, Discard):
        return f"Discard {BY_CODE[action.code].title} and draw"
    if isinstance(action, Pass):
        return "Neither burn nor repair"
    if isinstance(action, Burn):
        return _describe_burn(action)
    if isinstance(action, Repair):
        return f"{BY_CODE[action.code].title}: raise your {WALL_NAMES[action.wall]} wall"
    if isinstance(action, Bat):
        return f"Bat it at {_p(action.target)}'s {WALL_NAMES[action.wall]} wall"
    if not state.flight:
        return action_text(action)
    head = state.flight[0]
    trash = CARDS[head.card].the
    if isinstance(action, Take):
        if not state.walls[head.target][head.wall].standing:
            return f"Let {trash} fall into the rubble"
        return f"Take the hit: {trash} on your {WALL_NAMES[head.wall]} wall"
    if isinstance(action, Block):
        return f"{BY_CODE[action.code].title} against {trash}"
    if isinstance(action, Deflect):
        return f"{BY_CODE[action.code].title} {trash} onto your {WALL_NAMES[action.wall]} wall"
    mace = BY_CODE[action.code]
    aims = mace_targets(state, head.target, mace.direction, head.sender)
    at = f" at {_p(aims[0])}" if len(aims) == 1 else ""
    return f"{mace.title}: bat {trash}{at}"


def _describe_burn(action: Burn) -> str:
    walls = sorted({w for w, _ in action.picks})
    cards = {w: [BY_CODE[code] for v, code in action.picks if v == w] for w in walls}
    title = BY_CODE[action.code].title
    full = [f"{_listing([c.the for c in cards[w]])} off your {WALL_NAMES[w]} wall" for w in walls]
    short = [f"{', '.join(c.title for c in cards[w])} off {WALL_NAMES[w]}" for w in walls]
    tiny = [f"{'+'.join(str(c.value) for c in cards[w])} off {WALL_NAMES[w]}" for w in walls]
    return _fit(
        f"{title}: {_listing(full)}", f"{title}: {'; '.join(short)}", f"{title}: {', '.join(tiny)}"
    )


# ---------------------------------------------------------------------------------------------
# The game


class TrashWar(Game):
    key = "trashwar"
    title = "Trash War"
    min_seats = 2
    max_seats = 6
    options = ()

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(f"Trash War takes {self.min_seats} to {self.max_seats} players.")
        # No lobby option changes the rules; options other games use are ignored.
        return new_state(seats, seed)

    def opening_events(self, state: State) -> list[Event]:
        """What to log when the game starts (`new_game` returns the state only)."""
        return [opening_event(state.starter)]

    def to_act(self, state: State) -> frozenset[int]:
        seat = to_act(state)
        return frozenset() if seat is None else frozenset({seat})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat != to_act(state):
            return []
        if state.phase == ATTACK:
            return legal_attacks(state, seat)  # the longest lists: straight to text
        return [action_text(action) for action in legal_moves(state)]

    def apply(self, state: State, seat: int, action: str) -> Applied:
        if state.finished:
            raise IllegalAction("That game is over.")
        if seat != to_act(state):
            raise IllegalAction("It is not your turn to decide.")
        parsed = parse_action(action)
        _check(state, seat, parsed)
        table = _perform(state, seat, parsed)
        return Applied(table.freeze(), table.events)

    def observe(self, state: State, seat: int | None) -> JSON:
        return dict(observe(state, seat))

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        last = state.seats - 1
        ranks = [0] * state.seats
        for place, seat in enumerate(state.eliminated):
            ranks[seat] = last - place  # the first out is last; the last out second
        return Outcome(ranks=tuple(ranks), points=(0,) * state.seats)

    def to_json(self, state: State) -> JSON:
        return state_to_json(state)

    def from_json(self, data: JSON) -> State:
        return state_from_json(data)

    def describe(self, state: State, action: str) -> str:
        try:
            parsed = parse_action(action)
        except IllegalAction:
            return action
        return describe_action(state, parsed)

    def choose(self, observation: JSON, legal: list[str], rng: random.Random) -> str:
        return ai.choose(observation, legal, rng)


TRASH_WAR = TrashWar()

"""The three levels of Toss It in the Trash: the engine's chooser. Normal is `ai.choose`.

Like `choose`, both decide from the seat's observation and legal actions only, with the
caller's seeded generator.

`choose_easy`, a beginner:

- Card: it looks at the room left in the bin and lays down the biggest card whose pieces
  would fit, as if it placed first: it forgets that every lower card goes before it. When
  the bin looks full it plays its smallest card.
- Placing: it never turns a piece (boxes stand as they come) and aims at the middle of
  the opening (`EASY_AIM`), never out towards the walls. It trusts its aim: it tries each
  of those spots once, exactly, and takes the one that packs best, never checking how a
  shaky hand might land it. When every spot it tries spills, it does not see the bin is
  too full for them: it drops at one of them all the same.

`choose_hard`, a careful card counter:

- Card: it plays the rest of the game out many times in a quick model of the table, each
  time in a world `sample` draws from its view (the others' hands and draw piles, its own
  pile's order), and lays down the card that wins most often. In the model the others
  choose as the normal AI does, each drop spills with the chance the normal AI's drops
  were measured to spill at that much room left (`SPILL_CHANCE`), a drop takes about
  `ROOM_PER_PIECE` of room, and a spill or the last piece refills the bin.
- Placing: while the bin has plenty of room it places as the normal AI does; near the top,
  where drops spill, it takes much more care: more spots and rotations, and more wobbled
  drops of more candidates (`CLOSE_CARE`), drawing the wobbles from its own generator.

Why not `rules/search.py`'s tree search: a drop costs 2 to 10 ms of physics, so a tree over
drops gets a few dozen playouts a decision. What a seat cannot see is all in the cards
(hands, piles, the others' face-down choice) and the future wobbles, so the sampling is
spent there, with a model that plays a whole game out in a fraction of a millisecond.

Budget: hard's card choice is `WORLDS` model games per card (no physics, about 0.15 s);
its drops simulate normal's 45 drops while the room is safe, about 80 near the top.

Measured against two normal seats (3 players, house wobble, seats rotated): hard won 58 %
of 108 games, easy 12 % of 160 (aiming at the middle 40 % of the opening, 18 % of 60); pieces in
before a spill from an empty bin (10 games each, `bench/toss_measure.py`): easy 33.8,
normal 38.5, hard 39.5.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from rules.toss import ai
from rules.toss.bin import KINDS, PIECES_EACH
from rules.toss.observation import ROUNDS
from rules.toss.sample import sample
from rules.toss.state import KIND_ORDER, PREFILL, mice

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from rules.base import AnyGame
    from rules.toss.observation import TossObservation
    from rules.toss.state import State

choose = ai.choose  # the normal level

# --------------------------------------------------------------------------------------------
# Easy

EASY_AIM = range(8, 13)  # the grid spots it aims at: the middle fifth of the opening
# Each kind at each spot it aims at, dropped exactly once: nothing more, even when all spill.
EASY_CARE = ai.Care(first_pass=len(KINDS) * len(EASY_AIM), keep=0, shakes=0)


def choose_easy(observation: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
    """The beginner's action: see the module's docstring for its habits."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if legal[0].startswith("choose"):
        cards = sorted(int(action.split()[1]) for action in legal)
        supply = sum(observation["supply"].values())
        # Others' cards forgotten: as if it placed first.
        return f"choose {ai.pick_card(cards, ai.room_left(observation), supply, others=0)}"
    aimed = [
        action
        for action in legal
        if action.endswith(" 0") and int(action.split()[2]) in EASY_AIM  # upright, middle
    ]
    return ai.place(observation, aimed or legal, rng, EASY_CARE)


# --------------------------------------------------------------------------------------------
# Hard: the model of the table

# Per drop, the chance the normal AI's drop spills by the room left in the bin (in pieces,
# `ai.room_left`): measured over the 631 drops (20 spills) of four seeded 3-player games of
# normal seats, house wobble: 14 of 28 drops spilled below 1.25, 5 of 43 below 3.25, 1 of 54
# below 5.75, none of 506 above.
# Each entry is (room below which it applies, chance); room above the last spills never.
SPILL_CHANCE = ((1.25, 0.5), (3.25, 0.1), (5.75, 0.02))
ROOM_PER_PIECE = 0.9  # room a placed piece takes, on average (same games: 25.5 at 8 in, 0.7 at 37)
LEAST_ROOM = 0.3  # the room estimate stops falling there: pieces heap above the rim
# Room in a freshly pre-filled bin: 25.3 measured for three seats (the first two games), the
# others estimated from their pre-fill (a piece of each kind more or less per seat).
REFILLED_ROOM = {2: 21.7, 3: 25.3, 4: 28.9, 5: 32.5}
WORLDS = 200  # model games per card: about 0.15 s a card choice


_BOUNDS = [bound for bound, _ in SPILL_CHANCE]
SAFE_ROOM = _BOUNDS[-1]  # room from which a drop never spills in the model


def spill_chance(room: float) -> float:
    """The chance a drop spills with `room` pieces' worth of space left in the bin."""
    index = bisect.bisect_right(_BOUNDS, room)
    return SPILL_CHANCE[index][1] if index < len(SPILL_CHANCE) else 0.0


@dataclass
class Table:
    """A sampled game reduced to what the model needs: cards, room, supply and counters."""

    seats: int
    mice: list[int]
    hands: list[list[int]]
    decks: list[list[int]]
    room: float
    supply: int
    counters: list[int]
    scores: list[int]
    round: int

    def refill(self) -> None:
        self.room = REFILLED_ROOM[self.seats]
        self.supply = len(KIND_ORDER) * (PIECES_EACH - PREFILL[self.seats])

    def play_round(self, cards: list[int], dice: random.Random) -> None:
        """Every seat places its card's pieces in turn order, as the engine does."""
        order = sorted(range(self.seats), key=lambda seat: (cards[seat], self.mice[seat]))
        for seat in order:
            for _ in range(cards[seat]):
                if not self.counters:
                    return
                # (no dice thrown while the room is safe: a third of the model's time)
                if self.room < SAFE_ROOM and dice.random() < spill_chance(self.room):
                    self.scores[seat] -= self.counters.pop(0)
                    self.refill()
                    break
                self.room = max(LEAST_ROOM, self.room - ROOM_PER_PIECE)
                self.supply -= 1
                if not self.supply:
                    self.scores[seat] += self.counters.pop(0)
                    self.refill()
                    break

    def normal_cards(self) -> list[int]:
        """The card each seat lays down, chosen as the normal AI chooses."""
        cards = []
        for hand in self.hands:
            card = ai.pick_card(sorted(hand), self.room, self.supply, self.seats - 1)
            hand.remove(card)
            cards.append(card)
        return cards

    def draw(self) -> None:
        for hand, deck in zip(self.hands, self.decks, strict=True):
            if deck:
                hand.append(deck.pop(0))

    def share(self, seat: int) -> float:
        """`seat`'s share of the win once the model game is over."""
        best = max(self.scores)
        winners = [s for s, score in enumerate(self.scores) if score == best]
        return 1 / len(winners) if seat in winners else 0.0


def _table(world: State, room: float) -> Table:
    return Table(
        seats=world.seats,
        mice=[mice(world, seat) for seat in range(world.seats)],
        hands=[list(hand) for hand in world.hands],
        decks=[list(deck) for deck in world.decks],
        room=room,
        supply=sum(world.supply),
        counters=list(world.counters),
        scores=[sum(taken) for taken in world.taken],
        round=world.round,
    )


def play_out(
    table: Table, me: int, card: int, laid: list[int | None], dice: random.Random
) -> float:
    """`me`'s share of the win when it lays down `card` now and the game is played out in
    the model. `laid` holds the cards others have already laid down in the world (their
    choice is then remade the normal way from their hand and that card)."""
    for seat, hand in enumerate(table.hands):
        card_down = laid[seat]
        if seat != me and card_down is not None:
            hand.append(card_down)
    table.hands[me].remove(card)
    cards = []
    for seat, hand in enumerate(table.hands):
        if seat == me:
            cards.append(card)
            continue
        pick = ai.pick_card(sorted(hand), table.room, table.supply, table.seats - 1)
        hand.remove(pick)
        cards.append(pick)
    while True:
        table.play_round(cards, dice)
        if not table.counters or table.round >= ROUNDS:
            return table.share(me)
        table.draw()
        table.round += 1
        if not any(table.hands):
            return table.share(me)
        cards = table.normal_cards()


def hard_card(observation: TossObservation, legal: list[str], rng: random.Random) -> str:
    """The card that wins most often over `WORLDS` sampled worlds played out in the model
    (the same worlds and dice for every card, so the cards are compared fairly)."""
    me = observation["seat"]
    if me is None:
        raise ValueError("The hard level plays a seat, not the public view.")
    cards = sorted(int(action.split()[1]) for action in legal)
    if len(cards) == 1:
        return legal[0]
    wins = dict.fromkeys(cards, 0.0)
    room = ai.room_left(observation)
    for _ in range(WORLDS):
        world = sample(observation, rng)
        laid = list(world.chosen)
        dice_seed = rng.getrandbits(32)
        for card in cards:
            table = _table(world, room)
            wins[card] += play_out(table, me, card, laid, random.Random(dice_seed))
    best = max(cards, key=lambda card: (wins[card], -card))  # a tie: the smaller card
    return f"choose {best}"


# --------------------------------------------------------------------------------------------
# Hard: placing

# Room (in pieces) below which drops spill: take more care there. Near the top a drop takes
# longer to settle (about 5 ms), so the care is sized to keep those decisions near 0.5 s.
CLOSE = 3.25
CLOSE_CARE = ai.Care(first_pass=48, max_spots=21, keep=6, shakes=5)


def choose_hard(
    game: AnyGame, observation: Mapping[str, Any], legal: list[str], rng: random.Random
) -> str:
    """The hard level's action: see the module's docstring."""
    del game  # the model of the table and the bin's own simulation are all it needs
    if not legal:
        raise ValueError("No legal action to choose from.")
    view = cast("TossObservation", observation)
    if legal[0].startswith("choose"):
        return hard_card(view, legal, rng)
    if ai.room_left(observation) < CLOSE:
        return ai.place(observation, legal, rng, CLOSE_CARE)
    return ai.place(observation, legal, rng)

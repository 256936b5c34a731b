"""Trash War's working copy of a state: `_Table` is changed in place by the moves of
`phases.py` (cards drawn and discarded, the piles recycled, walls hit and toppling, knights
going out) and then frozen, with the events for the log.
"""

from __future__ import annotations

from rules.base import Event, IllegalAction, WorkingCopy, rng_for
from rules.phrases import SeatName, listing, phrase, phrase_n
from rules.trashwar.cards import BY_CODE, CARDS
from rules.trashwar.state import (
    HAND_SIZE,
    MARKS_KEPT,
    OVER,
    TOPPLE,
    Mark,
    State,
    Wall,
    left_of,
)
from rules.trashwar.words import wall_of

# ---------------------------------------------------------------------------------------------
# Applying an action: a working copy of the state, changed in place, then frozen


class _Table(WorkingCopy[State]):
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
        self.reshuffled = state.reshuffled
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
        self.marks = list(state.marks)
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
            reshuffled=self.reshuffled,
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
            marks=tuple(self.marks[-MARKS_KEPT:]),
        )

    def mark(
        self, seat: int, wall: int, what: str, cards: list[int] | tuple[int, ...] = ()
    ) -> None:
        """Note for the board what this action did at `seat`'s `wall`, and with which cards
        (their codes: the board names them in its readers' language)."""
        codes = " ".join(CARDS[c].code for c in cards)
        self.marks.append(Mark(self.state.step + 1, seat, wall, what, codes))

    # --- small helpers ------------------------------------------------------------------

    def take_from_hand(self, seat: int, code: str) -> int:
        hand = self.hands[seat]
        for k, c in enumerate(hand):
            if CARDS[c].code == code:
                del hand[k]
                return c
        raise IllegalAction(phrase("You hold no {card}.", card=BY_CODE[code].words()))  # checked

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
        self.reshuffled = tuple(sorted(pile))
        rng_for(self.state.seed, "recycle", self.recycles).shuffle(pile)
        self.draw, self.recycle = pile, []
        self.recycles += 1
        self.torch_phase += 1
        cards = phrase_n("{n} card", "{n} cards", len(self.draw))
        if gone:
            self.say(
                phrase(
                    "The draw pile is empty: the recycle pile is shuffled into a new one "
                    "({cards}). Torching phase {phase} begins; {gone}.",
                    cards=cards,
                    phase=self.torch_phase,
                    gone=phrase_n(
                        "{n} torched card leaves the game",
                        "{n} torched cards leave the game",
                        gone,
                    ),
                )
            )
        else:
            self.say(
                phrase(
                    "The draw pile is empty: the recycle pile is shuffled into a new one "
                    "({cards}). Torching phase {phase} begins.",
                    cards=cards,
                    phase=self.torch_phase,
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
            self.say(
                phrase_n(
                    "{player} draws {n} card.",
                    "{player} draws {n} cards.",
                    count,
                    player=SeatName(seat),
                )
            )
            cards = listing([CARDS[c].words("a") for c in drawn])
            self.say(phrase("You draw {cards}.", cards=cards), to=seat)

    # --- hits, falls and knock-outs -------------------------------------------------------

    def hit(self, card: int, seat: int, wall: int) -> None:
        trash = CARDS[card]
        where = wall_of(seat, wall)
        if not self.standing[seat][wall]:
            self.discard(card)
            self.say(
                phrase(
                    "{wall} is down already: the rubble swallows {trash}.",
                    wall=where,
                    trash=trash.words("the"),
                )
            )
            return
        self.touched.add(seat)
        self.trash[seat][wall].append(card)
        total = self.damage(seat, wall)
        if total < TOPPLE:
            self.say(
                phrase(
                    "{wall} takes {trash}: {damage} damage of {most}.",
                    wall=where,
                    trash=trash.words("the"),
                    damage=total,
                    most=TOPPLE,
                )
            )
            self.mark(seat, wall, "hit", [card])
            return
        self.say(
            phrase(
                "{wall} takes {trash}: {damage} damage, and the wall falls!",
                wall=where,
                trash=trash.words("the"),
                damage=total,
            )
        )
        self.mark(seat, wall, "felled", [card])
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
        self.say(
            phrase(
                "{player}'s last wall is down: {player} is out of the war.", player=SeatName(seat)
            )
        )
        left = [p for p in range(self.seats) if p not in self.eliminated]
        if len(left) == 1:
            self.finished = True
            self.phase = OVER
            self.say(
                phrase(
                    "{player} is the last knight standing and wins the Trash War!",
                    player=SeatName(left[0]),
                )
            )

"""Applying a Trash War action: `_Table` is a working copy of the state changed in place
(throws, defences, walls toppling, knights going out, the turn passing) and then frozen, with
the events for the log; `perform` sends each action to its handler.
"""

from __future__ import annotations

from rules.base import Event, IllegalAction, WorkingCopy, rng_for
from rules.phrases import Phrase, listing, phrase, phrase_n
from rules.trashwar.actions import (
    Action,
    Bat,
    Block,
    Burn,
    Deflect,
    Discard,
    Repair,
    Swing,
    Take,
    Throw,
)
from rules.trashwar.cards import BY_CODE, CARDS, TRASH
from rules.trashwar.state import (
    ATTACK,
    BAT,
    BURNING,
    DEFEND,
    DRAWN,
    HAND_SIZE,
    MARKS_KEPT,
    OVER,
    TOPPLE,
    Flight,
    Mark,
    State,
    Wall,
    _p,
    left_of,
    most_walls_up,
)
from rules.trashwar.words import wall_of, wall_words

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
                    "{player} draws {n} card.", "{player} draws {n} cards.", count, player=_p(seat)
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
            phrase("{player}'s last wall is down: {player} is out of the war.", player=_p(seat))
        )
        left = [p for p in range(self.seats) if p not in self.eliminated]
        if len(left) == 1:
            self.finished = True
            self.phase = OVER
            self.say(
                phrase(
                    "{player} is the last knight standing and wins the Trash War!",
                    player=_p(left[0]),
                )
            )

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
                phrase(
                    "{player} is out already: the ruins swallow {trash}.",
                    player=_p(gone.target),
                    trash=CARDS[gone.card].words("the"),
                )
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
            self.say(
                phrase_n(
                    "The batted trash flies on; the turn passes to {player}.",
                    "The {n} batted cards fly on; the turn passes to {player}.",
                    len(self.held),
                    player=_p(receiver),
                )
            )
            self.start_turn(receiver)
        elif seat in self.eliminated:
            following = self.left_of(seat)
            self.say(phrase("The turn passes to {player}.", player=_p(following)))
            self.start_turn(following)
        elif not all(self.standing[seat]) or any(self.trash[seat]):
            self.phase = BURNING  # there is something to burn or to repair
        else:
            self.to_attack()

    def to_attack(self) -> None:
        if self.hands[self.turn]:
            self.phase = ATTACK
            return
        self.say(phrase("{player} has no cards left to attack with.", player=_p(self.turn)))
        if self.stuck():
            self.end_stuck_war()
            return
        self.pass_left()

    def stuck(self) -> bool:
        """No knight holds a card and there is none to draw: nobody can ever act again."""
        return not self.draw and not self.recycle and not any(self.hands)

    def end_stuck_war(self) -> None:
        """Table rule: a stuck war ends; the knights with the most walls up share the win."""
        self.finished = True
        self.phase = OVER
        best = most_walls_up(self.standing, self.eliminated)
        most = sum(self.standing[best[0]])
        walls = phrase_n("{n} wall", "{n} walls", most)
        self.say(
            phrase("No knight holds a card and none is left to draw: the war can go no further.")
        )
        if len(best) == 1:
            self.say(
                phrase(
                    "{player} has the most walls up ({walls}) and wins the Trash War!",
                    player=_p(best[0]),
                    walls=walls,
                )
            )
        else:
            self.say(
                phrase(
                    "{players} share the win, with {walls} up each.",
                    players=listing([_p(p) for p in best]),
                    walls=walls,
                )
            )

    def pass_left(self) -> None:
        seat = self.turn
        self.refill(seat)
        following = self.left_of(seat)
        self.say(phrase("Play passes to the left, to {player}.", player=_p(following)))
        self.start_turn(following)

    # --- the actions ----------------------------------------------------------------------

    def throw(self, seat: int, action: Throw) -> None:
        cards = [self.take_from_hand(seat, code) for code in action.trash]
        where = wall_of(action.target, action.wall)
        names = listing([CARDS[c].words("a") for c in cards])
        if action.catapult:
            self.discard(self.take_from_hand(seat, action.catapult))
            self.say(
                phrase(
                    "{player}'s Catapult throws {cards} at {wall}.",
                    player=_p(seat),
                    cards=names,
                    wall=where,
                )
            )
        else:
            self.say(
                phrase(
                    "{player} throws {cards} at {wall}.", player=_p(seat), cards=names, wall=where
                )
            )
        self.flight = [Flight(c, action.target, action.wall, seat) for c in cards]
        self.opening = False
        self.drawn = None
        self.refill(seat)
        self.start_turn(action.target)

    def discard_and_draw(self, seat: int, action: Discard) -> None:
        card = self.take_from_hand(seat, action.code)
        self.discard(card)
        self.say(
            phrase(
                "{player} has no Trash: discards {card} and draws a card.",
                player=_p(seat),
                card=CARDS[card].words("a"),
            )
        )
        new = self.draw_one()
        if new is None:
            self.say(phrase("There is no card left to draw."))
            self.pass_left()
            return
        self.hands[seat].append(new)
        self.say(phrase("You draw {cards}.", cards=CARDS[new].words("a")), to=seat)
        if CARDS[new].kind == TRASH:
            self.drawn = new
            self.phase = DRAWN
            self.say(phrase("It is Trash: {player} must throw it at once.", player=_p(seat)))
        else:
            self.say(phrase("The card drawn is no Trash."))
            self.pass_left()

    def defend(self, seat: int, action: Take | Block | Deflect | Swing) -> None:
        head = self.flight[0]
        trash = CARDS[head.card]
        if isinstance(action, Swing):
            mace = self.take_from_hand(seat, action.code)
            self.discard(mace)
            self.swing = CARDS[mace].direction
            self.phase = BAT
            self.say(
                phrase(
                    "{player} swings {mace} at {trash}.",
                    player=_p(seat),
                    mace=CARDS[mace].words("a"),
                    trash=trash.words("the"),
                )
            )
            return
        self.flight.pop(0)
        if isinstance(action, Take):
            self.hit(head.card, seat, head.wall)
        elif isinstance(action, Block):
            shield = self.take_from_hand(seat, action.code)
            self.discard(shield)
            self.discard(head.card)
            self.say(
                phrase(
                    "{player} shields {trash} with {shield}.",
                    player=_p(seat),
                    trash=trash.words("the"),
                    shield=CARDS[shield].words("a"),
                )
            )
            self.mark(seat, head.wall, "shielded", [head.card])
        else:
            self.discard(self.take_from_hand(seat, action.code))
            self.say(
                phrase(
                    "{player} deflects {trash} onto their {wall}.",
                    player=_p(seat),
                    trash=trash.words("the"),
                    wall=wall_words(action.wall),
                )
            )
            self.hit(head.card, seat, action.wall)
        self.next_defence(seat)

    def bat(self, seat: int, action: Bat) -> None:
        head = self.flight.pop(0)
        batted = Flight(head.card, action.target, action.wall, seat)
        self.swing = None
        self.mark(action.target, action.wall, "batted at", [head.card])
        self.say(
            phrase(
                "{player} bats {trash} at {wall}.",
                player=_p(seat),
                trash=CARDS[head.card].words("the"),
                wall=wall_of(action.target, action.wall),
            )
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
                names: list[Phrase] = []
                burned: list[int] = []
                for w, code in action.picks:
                    if w != wall:
                        continue
                    self.touched.add(seat)
                    pile = self.trash[seat][wall]
                    card = next(c for c in pile if CARDS[c].code == code)
                    pile.remove(card)
                    self.discard(card)
                    burned.append(card)
                    names.append(CARDS[card].words("the"))
                self.mark(seat, wall, "burned", burned)
                parts.append(
                    phrase("{cards} off their {wall}", cards=listing(names), wall=wall_words(wall))
                )
            self.say(
                phrase(
                    "{player} burns {parts} with {burn}.",
                    player=_p(seat),
                    parts=listing(parts),
                    burn=CARDS[burn].words("a"),
                )
            )
        elif isinstance(action, Repair):
            self.discard(self.take_from_hand(seat, action.code))
            self.touched.add(seat)
            self.standing[seat][action.wall] = True
            self.mark(seat, action.wall, "repaired")
            self.say(
                phrase(
                    "{player} repairs their {wall}.",
                    player=_p(seat),
                    wall=wall_words(action.wall),
                )
            )
        else:
            self.say(phrase("{player} neither burns nor repairs.", player=_p(seat)))
        self.to_attack()


def perform(state: State, seat: int, action: Action) -> _Table:
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

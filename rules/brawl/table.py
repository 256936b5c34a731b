"""Applying a Dumpster Brawl! action, the working part: `_Table` is a mutable copy of the state
with the steps every handler uses (drawing, discarding, rolling, fighting, rummaging, checking
for a winner, ending the turn), frozen back into a `State` at the end.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from rules.base import Event, IllegalAction, WorkingCopy, clockwise_from, next_seat, rng_for
from rules.brawl.data import ATTACK_DICE, BLOCKER, CARDS, DEFENCE_DICE, RUMMAGE_DICE
from rules.brawl.state import (
    ATTACK,
    DECLARE,
    DICE_FACES,
    HANDOVERS_KEPT,
    HAS_DISCARD,
    KING,
    LAY,
    OVER,
    PRE,
    ROLL_COLOURS,
    ROLL_LOG,
    ROLL_PURPOSES,
    RUMMAGE,
    RUMMY,
    SPOILS,
    TURN_LIMIT,
    VERDICTS_KEPT,
    WIND,
    Handover,
    State,
    Verdict,
    booster_in_game,
    crowbars,
    die_value,
    has_set_down,
    pluses,
    rummy_points,
    winning_hand,
)
from rules.brawl.words import a_card, card, card_name, commas, name_of
from rules.phrases import SeatName, phrase, phrase_n

# The log's lines that name a pile or a dice colour, one whole sentence for each (the
# languages build them differently), by the pile's or the colour's word.
DRAWS = {
    "trash": lambda seat: phrase(
        "{player} draws a card from the trash pile.", player=SeatName(seat)
    ),
    "discard": lambda seat: phrase(
        "{player} draws a card from the discard pile.", player=SeatName(seat)
    ),
}
DRAWS_BLOCKER = {
    "trash": lambda seat, blocker: phrase(
        "{player} draws the Blocker {card} from the trash pile!",
        player=SeatName(seat),
        card=blocker,
    ),
    "discard": lambda seat, blocker: phrase(
        "{player} draws the Blocker {card} from the discard pile!",
        player=SeatName(seat),
        card=blocker,
    ),
}
ROLLS = {
    "blue": lambda seat, n, bars, lids: phrase_n(
        "{player} rolls {n} blue die: {crowbars}, {lids}.",
        "{player} rolls {n} blue dice: {crowbars}, {lids}.",
        n,
        player=SeatName(seat),
        crowbars=bars,
        lids=lids,
    ),
    "green": lambda seat, n, bars, lids: phrase_n(
        "{player} rolls {n} green die: {crowbars}, {lids}.",
        "{player} rolls {n} green dice: {crowbars}, {lids}.",
        n,
        player=SeatName(seat),
        crowbars=bars,
        lids=lids,
    ),
}
RUMMAGES = {
    "blue": lambda seat, n, plus, minus: phrase(
        "{player} rummages with {n} blue dice: {plus} plus, {minus} minus.",
        player=SeatName(seat),
        n=n,
        plus=plus,
        minus=minus,
    ),
    "green": lambda seat, n, plus, minus: phrase(
        "{player} rummages with {n} green dice: {plus} plus, {minus} minus.",
        player=SeatName(seat),
        n=n,
        plus=plus,
        minus=minus,
    ),
}

# ---------------------------------------------------------------------------------------------
# Applying an action: a mutable working copy of the state


class _Table(WorkingCopy[State]):
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
        self.verdicts = list(state.verdicts)
        self.handovers = list(state.handovers)
        self.events: list[Event] = []
        self.changes: dict[str, Any] = {}

    # --- basics

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

    def held(self, seat: int, key: str) -> int:
        """The card of `key` in `seat`'s hand: of several alike, the latest."""
        for one in reversed(self.hands[seat]):
            if CARDS[one].key == key:
                return one
        raise IllegalAction(phrase("You hold no {card}.", card=card(card_name(key))))

    def take_from_hand(self, seat: int, key: str) -> int:
        card = self.held(seat, key)
        self.hands[seat].remove(card)
        return card

    def refill(self) -> None:
        if not self.trash and self.discard:
            self.trash = self.discard
            self.discard = []
            self.rng().shuffle(self.trash)
            self.say(
                phrase("The trash pile is empty: the discard pile is shuffled into a new one.")
            )

    def draw(self, seat: int, source: str) -> None:
        """One card, one at a time; a Blocker is resolved at once."""
        if source == "discard":
            if not self.discard:
                raise IllegalAction(phrase("The discard pile is empty."))
            card = self.discard.pop()
        else:
            self.refill()
            if not self.trash:
                raise IllegalAction(phrase("There is nothing left to draw."))
            card = self.trash.pop()
        pile = "discard" if source == "discard" else "trash"
        if CARDS[card].type == BLOCKER:
            self.say(DRAWS_BLOCKER[pile](seat, name_of(card)))
            self.aside.append(card)
            self.blocker(seat, CARDS[card].key)
            return
        self.hands[seat].append(card)
        self.say(DRAWS[pile](seat))
        self.say(phrase("You drew {card}.", card=a_card(CARDS[card].name)), seat)

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
        if key == "truck" and not HAS_DISCARD[state.mode]:
            # Table rule: a mode without discard (Rummy) has the Truck take nothing, so no
            # hand is emptied by it (as Clean Sweep there throws away only itself).
            self.say(phrase("There is no discard in Rummy: the Garbage Truck drives past."))
        elif key == "truck":
            order = clockwise_from(state.seats, seat)
            self.truck += [p for p in order if self.hands[p] and p not in self.truck]
            self.say(phrase("Every player discards one card of their choice."))
        elif key == "raid":
            if self.hands[seat]:
                self.take_random(next_seat(state.seats, seat), seat)
        elif key == "slippery":
            if seat not in self.slippery:
                self.slippery.append(seat)
            self.say(phrase("{player}'s next rummage roll is skipped.", player=SeatName(seat)))
        elif key == "spill":
            self.trash = self.discard + self.trash
            self.discard = []
            self.rng().shuffle(self.trash)
            self.say(phrase("The discard pile is shuffled into the trash pile."))
        elif key == "stink":
            own = seat == state.turn or (state.mode == KING and seat == self.get("king"))
            self.stink[seat] = 2 if own else 1
            self.say(
                phrase(
                    "{player} cannot win until the end of their next turn.", player=SeatName(seat)
                )
            )

    def take_random(self, taker: int, giver: int) -> None:
        """`taker` takes a card from `giver`'s hand without looking; only the two of them
        are told which."""
        card = self.hands[giver][self.rng().randrange(len(self.hands[giver]))]
        self.hand_over(giver, taker, card)
        self.say(
            phrase(
                "{player} takes a random card from {other}.",
                player=SeatName(taker),
                other=SeatName(giver),
            )
        )
        self.say(phrase("You took {card}.", card=a_card(CARDS[card].name)), taker)
        took = phrase("{player} took your {card}.", player=SeatName(taker), card=name_of(card))
        self.say(took, giver)

    def hand_over(self, giver: int, receiver: int, card: int) -> None:
        """`card` goes from `giver`'s hand into `receiver`'s, and the public record of it
        (who to whom, not which card) is kept for the board."""
        self.hands[giver].remove(card)
        self.hands[receiver].append(card)
        self.handovers.append(Handover(self.state.step + 1, giver, receiver, 1))

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
            verdicts=tuple(self.verdicts[-VERDICTS_KEPT:]),
            handovers=tuple(self.handovers[-HANDOVERS_KEPT:]),
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
            self.say(phrase("More than one hand wins at once: the largest victory set takes it."))
            top = max(len(state.hands[p]) for p in found)
            found = [p for p in found if len(state.hands[p]) == top]
        winner = self.roll_off(found)
        self.say(phrase("{player} lays down three sets and wins!", player=SeatName(winner)))
        self.finish((winner,))

    def roll_off(self, seats: list[int]) -> int:
        while len(seats) > 1:
            rolls = {p: crowbars(self.roll(ATTACK_DICE, "blue", p, "roll-off")) for p in seats}
            each = [
                phrase_n("{player} {n} crowbar", "{player} {n} crowbars", n, player=SeatName(p))
                for p, n in rolls.items()
            ]
            self.say(phrase("Roll-off: {rolls}.", rolls=commas(each)))
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
            if not state.hands[p] and not state.stink[p] and has_set_down(state, p)
        ]
        if not out:
            return
        seat = actor if actor in out else out[0]
        self.say(phrase("{player} goes out!", player=SeatName(seat)))
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
        self.say(
            phrase_n(
                "{player} wins with {n} point.",
                "{player} wins with {n} points.",
                points[winner],
                player=SeatName(winner),
            )
        )
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
            self.say(phrase("Both piles are empty: the game is scored as it stands."))
            self.score_rummy(-1)
            return
        if state.turns >= TURN_LIMIT:
            self.say(phrase("The alley is worn out: the game ends in a draw."))
            if state.mode == RUMMY:
                self.score_rummy(-1)
            else:
                self.finish(tuple(range(state.seats)))
            return
        self.set(turns=state.turns + 1, elbows=(), lids=0, winds=(), layers=(), defender=-1)
        if state.mode == KING:
            nxt = next_seat(state.seats, turn, step=-1, skip={self.get("king")})
            self.set(turn=nxt, phase=ATTACK, draws=0, discards=0)
        else:
            nxt = next_seat(state.seats, turn)
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
        if booster_in_game(state, "wind"):
            self.set(phase=WIND, winds=(attacker, defender))
        else:
            self.resolve()

    def say_dice(self, seat: int, dice: tuple[int, ...], colour: str) -> None:
        bars = crowbars(dice)
        self.say(
            ROLLS[colour](
                seat,
                len(dice),
                phrase_n("{n} crowbar", "{n} crowbars", bars),
                phrase_n("{n} lid", "{n} lids", len(dice) - bars),
            )
        )

    def resolve(self) -> None:
        state = self.state
        a, d = self.get("dice")
        attacker, defender = state.turn, self.get("defender")
        bars, lids = crowbars(a), len(d) - crowbars(d) + self.get("lids")
        winner = attacker if bars > lids else defender
        self.verdicts.append(Verdict(state.step + 1, attacker, defender, bars, lids, winner))
        if bars > lids:
            self.say(
                phrase_n(
                    "{n} crowbar beats {lids}: {player} wins the fight.",
                    "{n} crowbars beat {lids}: {player} wins the fight.",
                    bars,
                    lids=phrase_n("{n} lid", "{n} lids", lids),
                    player=SeatName(attacker),
                )
            )
            if state.mode == KING:
                self.say(phrase("{player} is the new King of the Heap!", player=SeatName(attacker)))
                self.set(king=attacker)
                self.rummage(attacker, "blue")
            else:
                self.set(phase=SPOILS, actor=attacker, spoils=1)
        else:
            self.say(
                phrase_n(
                    "{n} lid holds off {crowbars}: {player} wins the fight.",
                    "{n} lids hold off {crowbars}: {player} wins the fight.",
                    lids,
                    crowbars=phrase_n("{n} crowbar", "{n} crowbars", bars),
                    player=SeatName(defender),
                )
            )
            if state.mode == KING:
                self.rummage(defender, "green")
            else:
                self.set(phase=SPOILS, actor=defender, spoils=2)

    def rummage(self, seat: int, colour: str) -> None:
        if seat in self.slippery:
            self.slippery.remove(seat)
            self.say(
                phrase("Slippery Lid: {player}'s rummage roll is skipped.", player=SeatName(seat))
            )
            self.after_fight()
            return
        dice = self.roll(RUMMAGE_DICE, colour, seat, "rummage")
        self.set(rummage=dice)
        plus = pluses(dice)
        minus = len(dice) - plus if HAS_DISCARD[self.state.mode] else 0
        self.say(RUMMAGES[colour](seat, len(dice), plus, minus))
        self.set(phase=RUMMAGE, actor=seat, draws=plus, discards=minus)

    def after_fight(self) -> None:
        if self.state.mode == RUMMY:
            self.set(phase=LAY, layers=(self.state.turn, self.get("defender")))
        else:
            self.end_turn()

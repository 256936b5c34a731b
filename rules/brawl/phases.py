"""What each Dumpster Brawl! action does: `perform` sends an action to the handler of the phase
it is taken in (declare, draw and discard, attack, defend, second wind, spoils, rummage, lay
down), a table from phase to handler in the manner of boardgame.io, with the Garbage Truck and
the Boosters handled first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rules.base import IllegalAction
from rules.brawl.data import BOOSTER_IDS, BOOSTERS, CARDS, DIVE_DRAWS, KIND_INDEX, KINDS
from rules.brawl.labels import lays_down
from rules.brawl.state import (
    ATTACK,
    DECLARATIONS,
    DECLARE,
    DEFEND,
    LAY,
    PRE,
    ROLL_COLOURS,
    RUMMAGE,
    RUMMY,
    SPOILS,
    WIND,
    State,
    booster_in_game,
)
from rules.brawl.table import _Table
from rules.brawl.words import a_card, card, commas, name_of
from rules.phrases import Phrase, SeatName, phrase, phrase_n

S = SeatName  # a player in a line of the log

# "{player} declares: ...", by the declaration's word in actions.
DECLARED = {
    "draw": lambda seat: phrase("{player} declares: draw.", player=S(seat)),
    "discard": lambda seat: phrase("{player} declares: discard.", player=S(seat)),
    "both": lambda seat: phrase("{player} declares: both.", player=S(seat)),
    "neither": lambda seat: phrase("{player} declares: neither.", player=S(seat)),
}


def _plays(seat: int, name: str) -> Phrase:
    return phrase("{player} plays {card}.", player=S(seat), card=card(name))


def perform(state: State, seat: int, action: str) -> _Table:
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
        raise IllegalAction(phrase("Garbage Truck: discard one card first."))
    t.to_discard(seat, words[1])
    t.truck.pop(0)
    t.say(phrase("{player} throws a card onto the discard pile.", player=S(seat)))
    t.check_victory()
    if state.dive and not t.get("finished") and not t.truck_waiting():
        t.dive(state.turn, state.dive)  # the Truck is resolved: the Dive draws on
        t.check_victory()


def _declare(t: _Table, seat: int, words: list[str]) -> None:
    how = words[1]
    draws, discards = DECLARATIONS[how]
    t.say(DECLARED[how](seat))
    t.set(phase=PRE if draws or discards else ATTACK, draws=draws, discards=discards)
    t.check_victory()


def _draw_one(t: _Table, seat: int, source: str) -> None:
    """One of the draws the seat has left (declared, or won in a rummage)."""
    t.draw(seat, source)
    t.set(draws=t.state.draws - 1)


def _discard_one(t: _Table, seat: int, key: str) -> None:
    """One of the discards the seat has left, face down: nobody learns what went."""
    t.to_discard(seat, key)
    t.say(phrase("{player} discards a card face down.", player=S(seat)))
    t.set(discards=t.state.discards - 1)


def _draw_discard_or_attack(t: _Table, seat: int, words: list[str]) -> None:
    """The PRE and ATTACK phases: the declared draws and discards, then an attack (or, in
    Rummy, going out)."""
    state = t.state
    verb = words[0]
    if verb == "draw":
        _draw_one(t, seat, words[1])
    elif verb == "discard":
        _discard_one(t, seat, words[1])
    elif verb == "go":
        _go_out(t, seat)
        return
    elif verb == "attack":
        target = int(words[1][1:])
        elbows: tuple[int, ...] = ()
        if len(words) > 2:
            t.discard.append(t.take_from_hand(seat, "elbow"))
            elbows = (seat,)
            t.say(_plays(seat, "Extra Elbow"))
        t.say(phrase("{player} attacks {target}!", player=S(seat), target=S(target)))
        t.set(defender=target, elbows=elbows, lids=0, draws=0, discards=0)
        if booster_in_game(state, "elbow") or booster_in_game(state, "lid"):
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
            t.say(_plays(seat, "Extra Elbow"))
        else:
            t.discard.append(t.take_from_hand(seat, "lid"))
            lids = 1
            t.say(_plays(seat, "Sturdy Lid"))
    if len(words) == 1:
        t.say(phrase("{player} braces for the attack.", player=S(seat)))
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
        t.say(phrase("{player} plays Second Wind and rerolls.", player=S(seat)))
        t.say_dice(seat, a if attacker else d, "blue" if attacker else "green")
        t.set(dice=(a, d))
    else:
        t.say(phrase("{player} keeps the roll.", player=S(seat)))
    if not winds:
        t.resolve()
    t.check_victory()


def _spoils(t: _Table, seat: int, words: list[str]) -> None:
    state = t.state
    verb = words[0]
    other = state.defender if seat == state.turn else state.turn
    if verb == "done":
        t.say(phrase("{player} is done with the spoils.", player=S(seat)))
        t.set(spoils=0)
    elif verb == "take":
        hand = t.hands[other]
        card = hand[t.rng().randrange(len(hand))]
        t.hand_over(other, seat, card)
        t.say(phrase("{player} takes a random card from {other}.", player=S(seat), other=S(other)))
        t.say(phrase("You took {card}.", card=a_card(CARDS[card].name)), seat)
        t.say(phrase("{player} took your {card}.", player=S(seat), card=name_of(card)), other)
        t.set(spoils=state.spoils - 1)
    else:
        card = t.held(seat, words[1])
        t.hand_over(seat, other, card)
        t.say(phrase("{player} puts a card into {other}'s hand.", player=S(seat), other=S(other)))
        t.say(
            phrase("{player} gave you {card}.", player=S(seat), card=a_card(CARDS[card].name)),
            other,
        )
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
        t.say(phrase("{player} plays Second Wind and rerolls.", player=S(seat)))
        colour = ROLL_COLOURS[state.roll_log[-1][2]]  # King's green stays green
        t.rummage(seat, colour)
        return
    if verb == "draw":
        _draw_one(t, seat, words[1])
    elif verb == "discard":
        _discard_one(t, seat, words[1])
        t.set(draws=0)  # draws come first: once the seat discards, its draws are over
    else:
        t.say(phrase("{player} is done rummaging.", player=S(seat)))
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
        t.say(lays_down(seat, KINDS[kind].name, n))
    elif verb == "go":
        _go_out(t, seat)
        return
    else:
        t.say(phrase("{player} is done laying down.", player=S(seat)))
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
    t.say(phrase("{player} lays down the whole hand.", player=S(seat)))
    t.check_out(t.freeze(), actor=seat)


def _play_booster(t: _Table, seat: int, words: list[str]) -> None:
    key = words[1]
    t.discard.append(t.take_from_hand(seat, key))
    t.say(_plays(seat, CARDS[BOOSTER_IDS[[b.key for b in BOOSTERS].index(key)]].name))
    if key == "dive":
        t.dive(seat, DIVE_DRAWS)
    elif key == "peek":
        other = int(words[2][1:])
        held = [name_of(c) for c in sorted(t.hands[other], key=lambda c: CARDS[c].name)]
        t.say(phrase("{player} peeks at {other}'s hand.", player=S(seat), other=S(other)))
        if held:
            t.say(phrase("{player} holds: {cards}.", player=S(other), cards=commas(held)), seat)
        else:
            t.say(phrase("{player} holds: nothing.", player=S(other)), seat)
    elif key == "swap":
        other = int(words[2][1:])
        mine = t.held(seat, words[3])
        theirs = t.hands[other][t.rng().randrange(len(t.hands[other]))]
        t.hand_over(other, seat, theirs)  # (their card is drawn before yours joins them)
        t.hand_over(seat, other, mine)
        t.say(phrase("{player} swaps a card with {other}.", player=S(seat), other=S(other)))
        t.say(phrase("You got {card}.", card=a_card(CARDS[theirs].name)), seat)
        swapped = phrase(
            "{player} swapped your {card} for {given}.",
            player=S(seat),
            card=name_of(theirs),
            given=a_card(CARDS[mine].name),
        )
        t.say(swapped, other)
    else:
        swept = [w for w in words[2:] if w != "alone"]
        for key2 in swept:
            t.to_discard(seat, key2)
        if swept:
            t.say(
                phrase_n(
                    "{player} sweeps {n} card onto the discard pile.",
                    "{player} sweeps {n} cards onto the discard pile.",
                    len(swept),
                    player=S(seat),
                )
            )
        else:
            t.say(phrase("{player} sweeps no other card onto the discard pile.", player=S(seat)))

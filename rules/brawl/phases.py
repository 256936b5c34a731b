"""What each Dumpster Brawl! action does: the phase table `PHASES` (in the shape of
`rules/phases.py`) gives each phase's moves (declare, draw and discard, attack, defend, second
wind, spoils, rummage, lay down) by action type; a Garbage Truck waiting for discards and the
turn Boosters come before it, in whatever phase they are played.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.base import IllegalAction
from rules.brawl.actions import (
    Action,
    Attack,
    Declare,
    Defend,
    Discard,
    Dive,
    Done,
    Draw,
    Give,
    GoOut,
    Keep,
    Lay,
    Peek,
    Play,
    Reroll,
    Swap,
    Take,
)
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
from rules.phases import Move, Phase, Phases, play
from rules.phrases import Phrase, SeatName, phrase, phrase_n

BOOSTER_KEYS = [b.key for b in BOOSTERS]

# "{player} declares: ...", by the declaration's word in actions.
DECLARED = {
    "draw": lambda seat: phrase("{player} declares: draw.", player=SeatName(seat)),
    "discard": lambda seat: phrase("{player} declares: discard.", player=SeatName(seat)),
    "both": lambda seat: phrase("{player} declares: both.", player=SeatName(seat)),
    "neither": lambda seat: phrase("{player} declares: neither.", player=SeatName(seat)),
}


def _plays(seat: int, name: str) -> Phrase:
    return phrase("{player} plays {card}.", player=SeatName(seat), card=card(name))


def perform(state: State, seat: int, move: Action) -> _Table:
    """Apply one legal action to a working copy of the state. A Garbage Truck waiting for
    discards comes first and a Booster may be played in several phases; every other action
    is a move of the phase it was taken in (`PHASES`)."""
    t = _Table(state)
    if state.truck:
        _truck_discard(t, seat, move)
    elif isinstance(move, Play):
        _play_booster(t, seat, move)
        t.check_victory()
    else:
        play(PHASES, state.phase, t, seat, move)
    return t


def _truck_discard(t: _Table, seat: int, move: object) -> None:
    state = t.state
    if not isinstance(move, Discard):
        raise IllegalAction(phrase("Garbage Truck: discard one card first."))
    t.to_discard(seat, move.key)
    t.truck.pop(0)
    t.say(phrase("{player} throws a card onto the discard pile.", player=SeatName(seat)))
    t.check_victory()
    if state.dive and not t.get("finished") and not t.truck_waiting():
        t.dive(state.turn, state.dive)  # the Truck is resolved: the Dive draws on
        t.check_victory()


def _declare(t: _Table, seat: int, move: Declare) -> None:
    draws, discards = DECLARATIONS[move.how]
    t.say(DECLARED[move.how](seat))
    t.set(phase=PRE if draws or discards else ATTACK, draws=draws, discards=discards)
    t.check_victory()


def _draw(t: _Table, seat: int, move: Draw) -> None:
    """One of the draws the seat has left (declared, or won in a rummage)."""
    t.draw(seat, move.source)
    t.set(draws=t.state.draws - 1)


def _discard(t: _Table, seat: int, move: Discard) -> None:
    """One of the discards the seat has left, face down: nobody learns what went."""
    t.to_discard(seat, move.key)
    t.say(phrase("{player} discards a card face down.", player=SeatName(seat)))
    t.set(discards=t.state.discards - 1)


def _pre_draw(t: _Table, seat: int, move: Draw) -> None:
    _draw(t, seat, move)
    t.check_victory()


def _pre_discard(t: _Table, seat: int, move: Discard) -> None:
    _discard(t, seat, move)
    t.check_victory()


def _attack(t: _Table, seat: int, move: Attack) -> None:
    """Naming the opponent attacked ends what is left of the declaration."""
    elbows: tuple[int, ...] = ()
    if move.elbow:
        t.discard.append(t.take_from_hand(seat, "elbow"))
        elbows = (seat,)
        t.say(_plays(seat, "Extra Elbow"))
    t.say(phrase("{player} attacks {target}!", player=SeatName(seat), target=SeatName(move.target)))
    t.set(defender=move.target, elbows=elbows, lids=0, draws=0, discards=0)
    if booster_in_game(t.state, "elbow") or booster_in_game(t.state, "lid"):
        t.set(phase=DEFEND)
    else:
        t.fight()
    t.check_victory()


def _declared_done(t: _Table) -> bool:
    """The declared draws and discards are all made (and no move left "pre" already)."""
    return t.get("phase") == PRE and not t.get("draws") and not t.get("discards")


def _defend(t: _Table, seat: int, move: Defend) -> None:
    elbows = t.get("elbows")
    if move.elbow:
        t.discard.append(t.take_from_hand(seat, "elbow"))
        elbows = (*elbows, seat)
        t.say(_plays(seat, "Extra Elbow"))
    if move.lid:
        t.discard.append(t.take_from_hand(seat, "lid"))
        t.say(_plays(seat, "Sturdy Lid"))
    if not move.elbow and not move.lid:
        t.say(phrase("{player} braces for the attack.", player=SeatName(seat)))
    t.set(elbows=elbows, lids=int(move.lid))
    t.fight()
    t.check_victory()


def _wind_reroll(t: _Table, seat: int, move: Reroll) -> None:
    state = t.state
    t.set(winds=state.winds[1:])
    t.discard.append(t.take_from_hand(seat, "wind"))
    a, d = state.dice
    attacker = seat == state.turn
    if attacker:
        a = t.roll(len(a), "blue", seat, "reroll")
    else:
        d = t.roll(len(d), "green", seat, "reroll")
    t.say(phrase("{player} plays Second Wind and rerolls.", player=SeatName(seat)))
    t.say_dice(seat, a if attacker else d, "blue" if attacker else "green")
    t.set(dice=(a, d))
    _next_wind(t)


def _keep(t: _Table, seat: int, move: Keep) -> None:
    t.set(winds=t.state.winds[1:])
    t.say(phrase("{player} keeps the roll.", player=SeatName(seat)))
    _next_wind(t)


def _next_wind(t: _Table) -> None:
    """One fighter has answered (and left `winds`): the next is asked, or the fight settled."""
    if not t.get("winds"):
        t.resolve()
    t.check_victory()


def _spoils_other(t: _Table, seat: int) -> int:
    """The other fighter, whose hand the spoils come from or go to."""
    return t.state.defender if seat == t.state.turn else t.state.turn


def _take(t: _Table, seat: int, move: Take) -> None:
    other = _spoils_other(t, seat)
    t.take_random(seat, other)
    t.set(spoils=t.state.spoils - 1)
    _after_spoil(t, seat, actor=other)


def _give(t: _Table, seat: int, move: Give) -> None:
    other = _spoils_other(t, seat)
    card = t.held(seat, move.key)
    t.hand_over(seat, other, card)
    t.say(
        phrase(
            "{player} puts a card into {other}'s hand.",
            player=SeatName(seat),
            other=SeatName(other),
        )
    )
    t.say(
        phrase("{player} gave you {card}.", player=SeatName(seat), card=a_card(CARDS[card].name)),
        other,
    )
    t.set(spoils=t.state.spoils - 1)
    _after_spoil(t, seat, actor=seat)


def _spoils_done(t: _Table, seat: int, move: Done) -> None:
    t.say(phrase("{player} is done with the spoils.", player=SeatName(seat)))
    t.set(spoils=0)
    _after_spoil(t, seat, actor=seat)


def _after_spoil(t: _Table, seat: int, actor: int) -> None:
    """In Rummy `actor` (who emptied a hand, if anyone) goes out first; with the spoils over,
    the attacker rummages, or the fight is over."""
    state = t.state
    if state.mode == RUMMY:
        t.check_out(t.freeze(), actor=actor)
    else:
        t.check_victory()
    if not t.get("finished") and not t.get("spoils"):
        if seat == state.turn:
            t.rummage(seat, "blue")
        else:
            t.after_fight()


def _rummage_reroll(t: _Table, seat: int, move: Reroll) -> None:
    t.discard.append(t.take_from_hand(seat, "wind"))
    t.say(phrase("{player} plays Second Wind and rerolls.", player=SeatName(seat)))
    colour = ROLL_COLOURS[t.state.roll_log[-1][2]]  # King's green stays green
    t.rummage(seat, colour)


def _rummage_draw(t: _Table, seat: int, move: Draw) -> None:
    _draw(t, seat, move)
    _rummaged(t)


def _rummage_discard(t: _Table, seat: int, move: Discard) -> None:
    _discard(t, seat, move)
    t.set(draws=0)  # draws come first: once the seat discards, its draws are over
    _rummaged(t)


def _rummage_done(t: _Table, seat: int, move: Done) -> None:
    t.say(phrase("{player} is done rummaging.", player=SeatName(seat)))
    t.set(draws=0, discards=0)
    _rummaged(t)


def _rummaged(t: _Table) -> None:
    """After a draw or discard of the rummage: with none left, the fight is over."""
    t.check_victory()
    if not t.get("draws") and not t.get("discards") and not t.get("finished"):
        t.after_fight()


def _lay(t: _Table, seat: int, move: Lay) -> None:
    """Rummy's laying down after a turn: a set, or cards onto sets."""
    kind = KIND_INDEX[move.kind]
    for _ in range(move.n):
        t.laid[seat].append(t.take_from_hand(seat, KINDS[kind].key))
    t.say(lays_down(seat, KINDS[kind].name, move.n))
    t.check_victory()


def _lay_done(t: _Table, seat: int, move: Done) -> None:
    t.say(phrase("{player} is done laying down.", player=SeatName(seat)))
    layers = t.state.layers[1:]
    t.set(layers=layers)
    t.check_victory()
    if not layers and not t.get("finished"):
        t.end_turn()


def _go_out(t: _Table, seat: int, move: GoOut) -> None:
    """Rummy: the whole hand laid down at once, the kind held most of first."""
    counts = Counter(CARDS[c].kind for c in t.hands[seat])
    for k in sorted(counts, key=lambda k: -counts[k]):
        for _ in range(counts[k]):
            t.laid[seat].append(t.take_from_hand(seat, KINDS[k].key))
    t.say(phrase("{player} lays down the whole hand.", player=SeatName(seat)))
    t.check_out(t.freeze(), actor=seat)


_DECLARED_MOVES: dict[type[Any], Move[_Table]] = {
    Draw: _pre_draw,
    Discard: _pre_discard,
    GoOut: _go_out,
    Attack: _attack,
}

# The moves of each phase, by action type (the Truck and the turn Boosters aside).
PHASES: Phases[_Table] = {
    DECLARE: Phase({Declare: _declare}),
    # The declared draws and discards; the phase ends when they are made.
    PRE: Phase(_DECLARED_MOVES, ends=_declared_done, end=lambda t: t.set(phase=ATTACK)),
    ATTACK: Phase(_DECLARED_MOVES),
    DEFEND: Phase({Defend: _defend}),
    WIND: Phase({Keep: _keep, Reroll: _wind_reroll}),
    SPOILS: Phase({Take: _take, Give: _give, Done: _spoils_done}),
    RUMMAGE: Phase(
        {
            Reroll: _rummage_reroll,
            Draw: _rummage_draw,
            Discard: _rummage_discard,
            Done: _rummage_done,
        }
    ),
    LAY: Phase({Lay: _lay, GoOut: _go_out, Done: _lay_done}),
}


def _play_booster(t: _Table, seat: int, move: Play) -> None:
    t.discard.append(t.take_from_hand(seat, move.booster))
    t.say(_plays(seat, CARDS[BOOSTER_IDS[BOOSTER_KEYS.index(move.booster)]].name))
    if isinstance(move, Dive):
        t.dive(seat, DIVE_DRAWS)
    elif isinstance(move, Peek):
        other = move.target
        held = [name_of(c) for c in sorted(t.hands[other], key=lambda c: CARDS[c].name)]
        t.say(
            phrase(
                "{player} peeks at {other}'s hand.", player=SeatName(seat), other=SeatName(other)
            )
        )
        if held:
            t.say(
                phrase("{player} holds: {cards}.", player=SeatName(other), cards=commas(held)), seat
            )
        else:
            t.say(phrase("{player} holds: nothing.", player=SeatName(other)), seat)
    elif isinstance(move, Swap):
        other = move.target
        mine = t.held(seat, move.key)
        theirs = t.hands[other][t.rng().randrange(len(t.hands[other]))]
        t.hand_over(other, seat, theirs)  # (their card is drawn before yours joins them)
        t.hand_over(seat, other, mine)
        t.say(
            phrase(
                "{player} swaps a card with {other}.", player=SeatName(seat), other=SeatName(other)
            )
        )
        t.say(phrase("You got {card}.", card=a_card(CARDS[theirs].name)), seat)
        swapped = phrase(
            "{player} swapped your {card} for {given}.",
            player=SeatName(seat),
            card=name_of(theirs),
            given=a_card(CARDS[mine].name),
        )
        t.say(swapped, other)
    else:
        for swept in move.keys:
            t.to_discard(seat, swept)
        if move.keys:
            t.say(
                phrase_n(
                    "{player} sweeps {n} card onto the discard pile.",
                    "{player} sweeps {n} cards onto the discard pile.",
                    len(move.keys),
                    player=SeatName(seat),
                )
            )
        else:
            t.say(
                phrase(
                    "{player} sweeps no other card onto the discard pile.", player=SeatName(seat)
                )
            )

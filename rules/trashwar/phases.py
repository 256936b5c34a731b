"""What each Trash War action does: the phase table `PHASES` (in the shape of
`rules/phases.py`) gives each phase's moves by action type (attack, the drawn card's throw,
defence, the Mace's bat, burn or repair) and what entering a phase does; the flow of a turn
between them (a defence settled, the turn passing) is here too. The moves change `_Table`, the
working copy of the state (`table.py`).
"""

from __future__ import annotations

from rules.phases import Phase, Phases, enter, play
from rules.phrases import Phrase, SeatName, listing, phrase, phrase_n
from rules.trashwar.actions import (
    Action,
    Bat,
    Block,
    Burn,
    Deflect,
    Discard,
    Pass,
    Repair,
    Swing,
    Take,
    Throw,
)
from rules.trashwar.cards import CARDS, TRASH
from rules.trashwar.state import (
    ATTACK,
    BAT,
    BURNING,
    DEFEND,
    DRAWN,
    OVER,
    Flight,
    State,
    most_walls_up,
)
from rules.trashwar.table import _Table
from rules.trashwar.words import wall_of, wall_words


def perform(state: State, seat: int, action: Action) -> _Table:
    """Apply one checked action to a working copy of the state: a move of the phase it is
    taken in (`PHASES`)."""
    table = _Table(state)
    play(PHASES, state.phase, table, seat, action)
    return table


# ---------------------------------------------------------------------------------------------
# The flow of a turn


def start_turn(t: _Table, seat: int) -> None:
    t.turn = seat
    t.turns += 1
    t.held = []
    t.drawn = None
    next_defence(t, None)


def next_defence(t: _Table, last: int | None) -> None:
    """After a card in flight is settled, or as a turn starts: who decides next."""
    if t.finished:
        return
    while t.flight and t.flight[0].target in t.eliminated:
        gone = t.flight.pop(0)
        t.discard(gone.card)
        t.say(
            phrase(
                "{player} is out already: the ruins swallow {trash}.",
                player=SeatName(gone.target),
                trash=CARDS[gone.card].words("the"),
            )
        )
    following = t.flight[0].target if t.flight else None
    if last is not None and last != t.turn and following != last and last not in t.eliminated:
        t.refill(last)  # a defence out of turn ends with its own re-draw
    if t.flight:
        to_phase(t, DEFEND)
        return
    end_defence(t)


def end_defence(t: _Table) -> None:
    seat = t.turn
    if t.held:
        # A Mace ends the turn: straight to the re-draw, then the trash flies on.
        if seat not in t.eliminated:
            t.refill(seat)
        receiver = t.held[-1].target
        t.flight = [f for f in t.held if f.target != receiver]
        t.flight += [f for f in t.held if f.target == receiver]
        t.say(
            phrase_n(
                "The batted trash flies on; the turn passes to {player}.",
                "The {n} batted cards fly on; the turn passes to {player}.",
                len(t.held),
                player=SeatName(receiver),
            )
        )
        start_turn(t, receiver)
    elif seat in t.eliminated:
        following = t.left_of(seat)
        t.say(phrase("The turn passes to {player}.", player=SeatName(following)))
        start_turn(t, following)
    else:
        to_phase(t, BURNING)


def to_phase(t: _Table, name: str) -> None:
    """Enter phase `name`, doing what entering it does (`PHASES`)."""
    t.phase = name
    enter(PHASES, name, t)


def _burning_begins(t: _Table) -> None:
    """Burn or repair is asked only with something to burn or repair."""
    seat = t.turn
    if all(t.standing[seat]) and not any(t.trash[seat]):
        to_phase(t, ATTACK)


def _attack_begins(t: _Table) -> None:
    """A knight with no card to attack with passes the turn (or, nobody holding one, the
    war is over)."""
    if t.hands[t.turn]:
        return
    t.say(phrase("{player} has no cards left to attack with.", player=SeatName(t.turn)))
    if stuck(t):
        end_stuck_war(t)
        return
    pass_left(t)


def stuck(t: _Table) -> bool:
    """No knight holds a card and there is none to draw: nobody can ever act again."""
    return not t.draw and not t.recycle and not any(t.hands)


def end_stuck_war(t: _Table) -> None:
    """Table rule: a stuck war ends; the knights with the most walls up share the win."""
    t.finished = True
    t.phase = OVER
    best = most_walls_up(t.standing, t.eliminated)
    most = sum(t.standing[best[0]])
    walls = phrase_n("{n} wall", "{n} walls", most)
    t.say(phrase("No knight holds a card and none is left to draw: the war can go no further."))
    if len(best) == 1:
        t.say(
            phrase(
                "{player} has the most walls up ({walls}) and wins the Trash War!",
                player=SeatName(best[0]),
                walls=walls,
            )
        )
    else:
        t.say(
            phrase(
                "{players} share the win, with {walls} up each.",
                players=listing([SeatName(p) for p in best]),
                walls=walls,
            )
        )


def pass_left(t: _Table) -> None:
    seat = t.turn
    t.refill(seat)
    following = t.left_of(seat)
    t.say(phrase("Play passes to the left, to {player}.", player=SeatName(following)))
    start_turn(t, following)


# ---------------------------------------------------------------------------------------------
# The moves


def throw(t: _Table, seat: int, action: Throw) -> None:
    cards = [t.take_from_hand(seat, code) for code in action.trash]
    where = wall_of(action.target, action.wall)
    names = listing([CARDS[c].words("a") for c in cards])
    if action.catapult:
        t.discard(t.take_from_hand(seat, action.catapult))
        t.say(
            phrase(
                "{player}'s Catapult throws {cards} at {wall}.",
                player=SeatName(seat),
                cards=names,
                wall=where,
            )
        )
    else:
        t.say(
            phrase(
                "{player} throws {cards} at {wall}.", player=SeatName(seat), cards=names, wall=where
            )
        )
    t.flight = [Flight(c, action.target, action.wall, seat) for c in cards]
    t.opening = False
    t.drawn = None
    t.refill(seat)
    start_turn(t, action.target)


def discard_and_draw(t: _Table, seat: int, action: Discard) -> None:
    card = t.take_from_hand(seat, action.code)
    t.discard(card)
    t.say(
        phrase(
            "{player} has no Trash: discards {card} and draws a card.",
            player=SeatName(seat),
            card=CARDS[card].words("a"),
        )
    )
    new = t.draw_one()
    if new is None:
        t.say(phrase("There is no card left to draw."))
        pass_left(t)
        return
    t.hands[seat].append(new)
    t.say(phrase("You draw {cards}.", cards=CARDS[new].words("a")), to=seat)
    if CARDS[new].kind == TRASH:
        t.drawn = new
        to_phase(t, DRAWN)
        t.say(phrase("It is Trash: {player} must throw it at once.", player=SeatName(seat)))
    else:
        t.say(phrase("The card drawn is no Trash."))
        pass_left(t)


def swing(t: _Table, seat: int, action: Swing) -> None:
    """A Mace is swung: the batter then chooses where the trash flies (`bat`)."""
    head = t.flight[0]
    mace = t.take_from_hand(seat, action.code)
    t.discard(mace)
    t.swing = CARDS[mace].direction
    to_phase(t, BAT)
    t.say(
        phrase(
            "{player} swings {mace} at {trash}.",
            player=SeatName(seat),
            mace=CARDS[mace].words("a"),
            trash=CARDS[head.card].words("the"),
        )
    )


def take_hit(t: _Table, seat: int, action: Take) -> None:
    head = t.flight.pop(0)
    t.hit(head.card, seat, head.wall)
    next_defence(t, seat)


def block(t: _Table, seat: int, action: Block) -> None:
    head = t.flight.pop(0)
    shield = t.take_from_hand(seat, action.code)
    t.discard(shield)
    t.discard(head.card)
    t.say(
        phrase(
            "{player} shields {trash} with {shield}.",
            player=SeatName(seat),
            trash=CARDS[head.card].words("the"),
            shield=CARDS[shield].words("a"),
        )
    )
    t.mark(seat, head.wall, "shielded", [head.card])
    next_defence(t, seat)


def deflect(t: _Table, seat: int, action: Deflect) -> None:
    head = t.flight.pop(0)
    t.discard(t.take_from_hand(seat, action.code))
    t.say(
        phrase(
            "{player} deflects {trash} onto their {wall}.",
            player=SeatName(seat),
            trash=CARDS[head.card].words("the"),
            wall=wall_words(action.wall),
        )
    )
    t.hit(head.card, seat, action.wall)
    next_defence(t, seat)


def bat(t: _Table, seat: int, action: Bat) -> None:
    head = t.flight.pop(0)
    batted = Flight(head.card, action.target, action.wall, seat)
    t.swing = None
    t.mark(action.target, action.wall, "batted at", [head.card])
    t.say(
        phrase(
            "{player} bats {trash} at {wall}.",
            player=SeatName(seat),
            trash=CARDS[head.card].words("the"),
            wall=wall_of(action.target, action.wall),
        )
    )
    if seat == t.turn:
        t.held.append(batted)  # flies when this defence is over
    elif action.target == t.turn:
        t.flight.append(batted)
    else:
        mine = [k for k, f in enumerate(t.flight) if f.target == t.turn]
        t.flight.insert(mine[0] if mine else len(t.flight), batted)
    next_defence(t, seat)


def burn(t: _Table, seat: int, action: Burn) -> None:
    burn = t.take_from_hand(seat, action.code)
    t.discard(burn)
    parts = []
    for wall in sorted({w for w, _ in action.picks}):
        names: list[Phrase] = []
        burned: list[int] = []
        for w, code in action.picks:
            if w != wall:
                continue
            t.touched.add(seat)
            pile = t.trash[seat][wall]
            card = next(c for c in pile if CARDS[c].code == code)
            pile.remove(card)
            t.discard(card)
            burned.append(card)
            names.append(CARDS[card].words("the"))
        t.mark(seat, wall, "burned", burned)
        parts.append(
            phrase("{cards} off their {wall}", cards=listing(names), wall=wall_words(wall))
        )
    t.say(
        phrase(
            "{player} burns {parts} with {burn}.",
            player=SeatName(seat),
            parts=listing(parts),
            burn=CARDS[burn].words("a"),
        )
    )
    to_phase(t, ATTACK)


def repair(t: _Table, seat: int, action: Repair) -> None:
    t.discard(t.take_from_hand(seat, action.code))
    t.touched.add(seat)
    t.standing[seat][action.wall] = True
    t.mark(seat, action.wall, "repaired")
    t.say(
        phrase(
            "{player} repairs their {wall}.", player=SeatName(seat), wall=wall_words(action.wall)
        )
    )
    to_phase(t, ATTACK)


def neither(t: _Table, seat: int, action: Pass) -> None:
    t.say(phrase("{player} neither burns nor repairs.", player=SeatName(seat)))
    to_phase(t, ATTACK)


# The moves of each phase, by action type, and what entering a phase does.
PHASES: Phases[_Table] = {
    ATTACK: Phase({Throw: throw, Discard: discard_and_draw}, begin=_attack_begins),
    DRAWN: Phase({Throw: throw}),  # the Trash drawn is thrown at once
    DEFEND: Phase({Take: take_hit, Block: block, Deflect: deflect, Swing: swing}),
    BAT: Phase({Bat: bat}),
    BURNING: Phase({Burn: burn, Repair: repair, Pass: neither}, begin=_burning_begins),
}

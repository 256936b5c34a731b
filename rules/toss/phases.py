"""What each Toss It action does: the phase table `PHASES` (in the shape of
`rules/phases.py`) gives each phase's one move: "choose" takes a hand card (the round's cards
are turned up once all have chosen), "place" drops a piece into the bin, simulated in `bin.py`
(a spill or the supply's last piece takes a counter; the turns and rounds follow). The moves
build the next frozen state, on the shared `Turn`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules.base import Event, IllegalAction, rng_for
from rules.phases import Phase, Phases, Turn, play
from rules.phrases import Phrase, SeatName, listing, phrase, phrase_n
from rules.toss.actions import Action, Choose, Place
from rules.toss.bin import PIECES_EACH, count_kinds, grid_x, prefill, simulate, wobbled
from rules.toss.observation import ROUNDS
from rules.toss.state import (
    CHOOSE,
    KIND_ORDER,
    OVER,
    PLACE,
    PREFILL,
    State,
    mice,
    scores,
    supply_of,
)
from rules.toss.words import a_piece, pieces


def perform(state: State, seat: int, action: Action) -> Turn[State]:
    """Apply one action: the move its phase has for it (`PHASES`)."""
    turn = Turn(state)
    play(PHASES, state.phase, turn, seat, action)
    turn.state = replace(turn.state, step=turn.state.step + 1)
    return turn


def allowed_kinds(state: State) -> list[str]:
    """The kinds the player placing now may take: the turn's kind until it runs out."""
    return kinds_open(state.kind, dict(zip(KIND_ORDER, state.supply, strict=True)))


def kinds_open(kind: str | None, supply: Mapping[str, int]) -> list[str]:
    """`allowed_kinds` from what everyone sees (an observation's turn kind and supply)."""
    if kind is not None and supply.get(kind, 0) > 0:
        return [kind]
    return [k for k in KIND_ORDER if supply.get(k, 0) > 0]


# ---------------------------------------------------------------------------------------------
# Setting up


def fill_bin(state: State) -> State:
    """Empty the bin and pre-fill it for the number of players, from a fresh random draw."""
    each = PREFILL[state.seats]
    pieces = prefill(dict.fromkeys(KIND_ORDER, each), rng_for(state.seed, "prefill", state.counter))
    inside = count_kinds(pieces)
    supply = tuple(PIECES_EACH - inside[kind] for kind in KIND_ORDER)
    return replace(state, pieces=pieces, supply=supply, counter=state.counter + 1, dropped_at=-1)


def _reveal(state: State) -> tuple[State, Event]:
    chosen = [card for card in state.chosen if card is not None]
    order = tuple(sorted(range(state.seats), key=lambda seat: (chosen[seat], mice(state, seat))))
    first = order[0]
    state = replace(
        state, phase=PLACE, order=order, turn_index=0, to_place=chosen[first], kind=None
    )
    shown = listing(
        phrase("{player} {card}", player=SeatName(seat), card=chosen[seat]) for seat in order
    )
    text = phrase(
        "Round {round}: the cards are turned up: {cards}.", round=state.round, cards=shown
    )
    return state, Event(text)


def _next_turn(state: State) -> tuple[State, list[Event]]:
    """The turn is over: the next seat in order, or the round's end."""
    if state.turn_index + 1 < len(state.order):
        index = state.turn_index + 1
        seat = state.order[index]
        card = state.chosen[seat] or 0
        return replace(state, turn_index=index, to_place=card, kind=None), []
    # Everyone has placed: each draws a card, and the next round starts.
    if state.round >= ROUNDS:
        return _finish(state)
    hands = []
    decks = []
    for hand, deck in zip(state.hands, state.decks, strict=True):
        hands.append(tuple(sorted((*hand, *deck[:1]))))
        decks.append(deck[1:])
    state = replace(
        state,
        hands=tuple(hands),
        decks=tuple(decks),
        round=state.round + 1,
        phase=CHOOSE,
        chosen=(None,) * state.seats,
        order=(),
        turn_index=0,
        to_place=0,
        kind=None,
    )
    if not any(state.hands):
        return _finish(state)
    return state, [Event(round_starts(state.round))]


def round_starts(number: int) -> Phrase:
    return phrase("Round {round}: everyone lays down a card face down.", round=number)


def _finish(state: State) -> tuple[State, list[Event]]:
    state = replace(state, phase=OVER, to_place=0, kind=None)
    points = scores(state)
    top = max(points)
    winners = [SeatName(seat) for seat, p in enumerate(points) if p == top]
    if len(winners) == 1:
        text = phrase_n(
            "The game is over: {winner} wins with {n} point!",
            "The game is over: {winner} wins with {n} points!",
            top,
            winner=winners[0],
        )
    else:
        text = phrase_n(
            "The game is over: {winners} share the win with {n} point!",
            "The game is over: {winners} share the win with {n} points!",
            top,
            winners=listing(winners),
        )
    return state, [Event(text)]


def _take_counter(state: State, seat: int, plus: bool) -> State:
    value = state.counters[0]
    taken = list(state.taken)
    signed = value if plus else -value
    taken[seat] = (*taken[seat], signed)
    log = (*state.taken_log, (state.round, seat, signed))
    return replace(state, counters=state.counters[1:], taken=tuple(taken), taken_log=log)


# ---------------------------------------------------------------------------------------------
# The moves


def _apply_choose(state: State, seat: int, action: Choose) -> tuple[State, list[Event]]:
    if state.chosen[seat] is not None:
        raise IllegalAction(phrase("You have already laid down a card this round."))
    if action.card not in state.hands[seat]:
        raise IllegalAction(phrase("You have no {card} in your hand.", card=action.card))
    hand = list(state.hands[seat])
    hand.remove(action.card)
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    chosen = list(state.chosen)
    chosen[seat] = action.card
    state = replace(state, hands=tuple(hands), chosen=tuple(chosen))
    events = [Event(phrase("{player} lays down a card.", player=SeatName(seat)))]
    if all(card is not None for card in state.chosen):
        state, event = _reveal(state)
        events.append(event)
    return state, events


def _apply_place(state: State, seat: int, action: Place) -> tuple[State, list[Event]]:
    if action.kind not in allowed_kinds(state):
        if supply_of(state, action.kind) == 0:
            raise IllegalAction(
                phrase("There are no {pieces} left in the supply.", pieces=pieces(action.kind))
            )
        bound = pieces(state.kind or action.kind)
        raise IllegalAction(phrase("This turn places {pieces} until they run out.", pieces=bound))
    rng = rng_for(state.seed, "drop", state.counter)
    x, angle = wobbled(grid_x(action.x), action.angle, state.wobble, rng)
    result = simulate(state.pieces, action.kind, x, angle)
    last_drop = (round(x * 10), round(math.degrees(angle) * 10))
    state = replace(state, counter=state.counter + 1, last_drop=last_drop, kind=action.kind)
    piece, player = a_piece(action.kind), SeatName(seat)
    supply = list(state.supply)
    supply[KIND_ORDER.index(action.kind)] -= 1  # the piece has left the supply either way
    if result.spilled:
        value = state.counters[0]
        state = replace(
            state,
            pieces=result.pieces,
            supply=tuple(supply),
            spill=result.pieces,
            spilled_at=state.step + 1,
            dropped_at=-1,
        )
        state = _take_counter(state, seat, plus=False)
        # The counter is taken minus side up.
        lost = phrase_n(
            "{player} drops {piece} and garbage falls out! {player} loses {n} point.",
            "{player} drops {piece} and garbage falls out! {player} loses {n} points.",
            value,
            player=player,
            piece=piece,
        )
        events = [Event(lost)]
        return _after_counter(state, events)
    state = replace(
        state,
        pieces=result.pieces,
        supply=tuple(supply),
        to_place=state.to_place - 1,
        dropped_at=state.step + 1,
    )
    if sum(state.supply) == 0:
        value = state.counters[0]
        state = _take_counter(state, seat, plus=True)
        # The counter is taken plus side up.
        won = phrase_n(
            "{player} places the very last piece, {piece}, and scores {n} point!",
            "{player} places the very last piece, {piece}, and scores {n} points!",
            value,
            player=player,
            piece=piece,
        )
        events = [Event(won)]
        return _after_counter(state, events)
    # The count of pieces still to place only while there are some: the turn's last says none.
    placed = phrase_n(
        "{player} places {piece} ({n} more to go).",
        "{player} places {piece} ({n} more to go).",
        state.to_place,
        player=player,
        piece=piece,
    )
    if not state.to_place:
        placed = phrase("{player} places {piece}.", player=player, piece=piece)
    events = [Event(placed)]
    if state.to_place == 0:
        state, more = _next_turn(state)
        events += more
    return state, events


def _after_counter(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """A counter was taken: the game ends on the last one; else empty, refill, next turn."""
    if not state.counters:
        state, more = _finish(state)
        return state, events + more
    state = fill_bin(state)
    events.append(Event(phrase("The bin is emptied and pre-filled again.")))
    state, more = _next_turn(state)
    return state, events + more


def _choose(t: Turn[State], seat: int, action: Choose) -> None:
    t.state, events = _apply_choose(t.state, seat, action)
    t.events += events


def _place(t: Turn[State], seat: int, action: Place) -> None:
    t.state, events = _apply_place(t.state, seat, action)
    t.events += events


# Each phase's move by action type, and the refusal for the other.
PHASES: Phases[Turn[State]] = {
    CHOOSE: Phase(
        {Choose: _choose},
        refusal=phrase("First lay down a card: everyone chooses one in secret."),
    ),
    PLACE: Phase(
        {Place: _place}, refusal=phrase("The cards are down: now it is time to place garbage.")
    ),
}

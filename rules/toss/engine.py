"""Toss It in the Trash: the rules engine.

Two to five players take turns stuffing forty pieces of garbage (ten each of milk cartons,
tin cans, bottles and apple cores) into one bin, simulated in `bin.py`. Each player has a
colour's ten cards numbered 1..10, shuffled into a draw pile, with three in hand.

A round: every player secretly lays down one hand card (the choice is simultaneous, so
`to_act` holds every seat that has not chosen yet). Once all have chosen, the cards are
revealed together and the players take turns from the lowest number up; equal numbers go
by the mice on the cards, fewer first. On a turn a player places as many pieces as their
card's number, one at a time: the first piece's kind binds the turn, and only once that
kind's supply is used up may they pick another. If anything falls out, the turn ends at
once and the player takes the top point-counter minus side up. If the player places the
last piece of the supply without a spill, the turn ends and they take the top counter plus
side up. After either the bin is emptied and pre-filled again (two players: three of each
kind; three: two; four: one; five: none) and the round goes on. After the round everyone
draws a card. The game ends after the tenth round, or at once when the last counter is
taken. Scores are the sums of the counters; the highest wins and ties share the win.

House rules: card colours show 1 (red) to 5 (purple) mice; the counters stack with 1 on
top down to 6; the pre-fill is dropped at random spots from the seed; a piece has fallen out
when it crosses a wall below the rim or rests beyond one; the wobble option sets how
unsteady the hand is (see `bin.WOBBLE`).

Table rules of this bot, where the rulebook and the house rules are silent (tests check
each one):

- Colours are dealt to the seats at random from the seed (the tie-break by mice is then
  fair between seats).
- The choice of card cannot be taken back; nobody (the channel included) sees any card
  before everyone has chosen.
- A player whose card asks for more pieces than remain simply places until the supply is
  empty, taking the plus counter on the last one.
- When the last counter is taken the game ends at once, even mid-round.
- No drop may be passed: a turn is exactly the card's number of drops unless it ends early.
- The hand always lets go with the whole piece between the walls: a spot too near a wall
  for the piece's width at its rotation is moved in just far enough (`bin.inside_opening`).
- A pre-fill piece whose random spot spills is dropped again; after twenty spills in a row
  every spot and angle is tried in a fixed order (`bin.prefill`), so none is left out.
- The piece that spills leaves the supply like any other; it goes back with the rest when
  the bin is emptied (so forty pieces are always in the bin, on the floor or in supply).

Actions are strings:

    choose <n>                       lay down the hand card numbered n (1..10), face down
    place <kind> <x> <angle>         drop a piece of <kind> (carton, can, bottle, apple) at
                                     grid spot x (0..20, left wall to right wall) turned
                                     <angle> degrees (0..165 in steps of 15)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from rules.base import (
    Applied,
    Chooser,
    Codec,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    last_move_view,
    ranks_from_points,
    read_parsed,
    rng_for,
    with_last_move,
)
from rules.phrases import Filling, Phrase, SeatName, listing, phrase, phrase_n, term
from rules.toss import levels as toss_levels
from rules.toss.bin import (
    ANGLES,
    KINDS,
    PIECES_EACH,
    WOBBLE,
    X_STEPS,
    count_kinds,
    grid_x,
    prefill,
    simulate,
    wobbled,
)
from rules.toss.observation import ROUNDS, BinPiece, CounterTaken, TossObservation
from rules.toss.state import (
    CARDS,
    CHOOSE,
    COLOURS,
    HAND,
    KIND_ORDER,
    OVER,
    PLACE,
    PREFILL,
    SCHEMA,
    State,
    mice,
    scores,
    supply_of,
)
from rules.toss.words import a_piece, piece_label, pieces

NOT_A_MOVE = phrase("That is not a move in this game.")


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class Choose:
    card: int


@dataclass(frozen=True)
class Place:
    kind: str
    x: int
    angle: int


Action = Choose | Place


def parse_action(text: str) -> Action:
    """Read an action string; raises `IllegalAction` for anything outside the grammar."""
    words = text.split()
    if len(words) == 2 and words[0] == "choose" and words[1].isdigit():
        return Choose(int(words[1]))
    if (
        len(words) == 4
        and words[0] == "place"
        and words[1] in KINDS
        and words[2].isdigit()
        and words[3].isdigit()
    ):
        x, angle = int(words[2]), int(words[3])
        if 0 <= x < X_STEPS and angle in ANGLES:
            return Place(words[1], x, angle)
    raise IllegalAction(NOT_A_MOVE)


def action_text(action: Action) -> str:
    if isinstance(action, Choose):
        return f"choose {action.card}"
    return f"place {action.kind} {action.x} {action.angle}"


def allowed_kinds(state: State) -> list[str]:
    """The kinds the player placing now may take: the turn's kind until it runs out."""
    if state.kind is not None and supply_of(state, state.kind) > 0:
        return [state.kind]
    return [kind for kind in KIND_ORDER if supply_of(state, kind) > 0]


# ---------------------------------------------------------------------------------------------
# Setting up


def _prefill(state: State) -> State:
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
    return state, [Event(_round_starts(state.round))]


def _round_starts(number: int) -> Phrase:
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
# Applying actions


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
    state = _prefill(state)
    events.append(Event(phrase("The bin is emptied and pre-filled again.")))
    state, more = _next_turn(state)
    return state, events + more


# ---------------------------------------------------------------------------------------------
# The game


class Toss(Game[State, TossObservation]):
    key = "toss"
    title = "Toss It in the Trash"
    tagline = term(
        "tagline",
        "Stuff garbage into one bin in turn; knock a piece out and it counts against you.",
    )
    board_each_action = True
    heavy = True  # a drop, and each pre-fill, runs the physics simulation
    min_seats = 2
    max_seats = 5
    ai: ClassVar[Chooser] = toss_levels  # normal from ai.py, easy and hard from levels.py
    codec: ClassVar[Codec] = Codec(State, SCHEMA)
    options = (
        Option(
            name="wobble",
            description="How unsteady the hand that drops the garbage is",
            choices=tuple(WOBBLE),
            default="house",
            heading=term("lobby option", "Hands"),
            labels=(
                term("choice", "Steady hands (the piece lands where you aim)"),
                term("choice", "House wobble (a little shake)"),
                term("choice", "Shaky hands (a lot of shake)"),
            ),
        ),
    )

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                phrase(
                    "Toss It in the Trash takes {low} to {high} players.",
                    low=self.min_seats,
                    high=self.max_seats,
                )
            )
        wobble = options.get("wobble", "house") or "house"
        if wobble not in WOBBLE:
            raise IllegalAction(
                phrase(
                    "There is no wobble '{wobble}': pick {choices}.",
                    wobble=wobble,
                    choices=", ".join(WOBBLE),  # the option's own words, as typed
                )
            )
        rng = rng_for(seed, "deal")
        colours = list(COLOURS)
        rng.shuffle(colours)
        decks = []
        hands = []
        for _ in range(seats):
            deck = list(CARDS)
            rng.shuffle(deck)
            hands.append(tuple(sorted(deck[:HAND])))
            decks.append(tuple(deck[HAND:]))
        state = State(
            seed=seed,
            seats=seats,
            wobble=wobble,
            colours=tuple(colours[:seats]),
            decks=tuple(decks),
            hands=tuple(hands),
            pieces=(),
            supply=(PIECES_EACH,) * len(KIND_ORDER),
            chosen=(None,) * seats,
            taken=((),) * seats,
        )
        return _prefill(state)

    def opening_events(self, state: State) -> list[Event]:
        return [Event(_round_starts(1))]

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == CHOOSE:
            return frozenset(seat for seat in range(state.seats) if state.chosen[seat] is None)
        if state.phase == PLACE:
            return frozenset({state.order[state.turn_index]})
        return frozenset()

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.phase == CHOOSE:
            return [f"choose {card}" for card in sorted(set(state.hands[seat]))]
        return [
            f"place {kind} {x} {angle}"
            for kind in allowed_kinds(state)
            for x in range(X_STEPS)
            for angle in ANGLES
        ]

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        self.check_turn(state, seat)
        parsed = parse_action(action)
        if state.spill:  # shown on the spill's own board only: not saved on and on after
            state = replace(state, spill=())
        if state.phase == CHOOSE:
            if not isinstance(parsed, Choose):
                raise IllegalAction(
                    phrase("First lay down a card: everyone chooses one in secret.")
                )
            state, events = _apply_choose(state, seat, parsed)
        else:
            if not isinstance(parsed, Place):
                raise IllegalAction(phrase("The cards are down: now it is time to place garbage."))
            state, events = _apply_place(state, seat, parsed)
        return with_last_move(Applied(replace(state, step=state.step + 1), events), seat)

    def observe(self, state: State, seat: int | None) -> TossObservation:
        own = seat is not None and 0 <= seat < state.seats
        revealed = state.phase != CHOOSE
        view = TossObservation(
            game="toss",
            seat=seat,
            seats=state.seats,
            wobble=state.wobble,
            step=state.step,
            round=state.round,
            phase=state.phase,
            to_act=sorted(self.to_act(state)),
            colours=list(state.colours),
            mice=[mice(state, s) for s in range(state.seats)],
            hand_sizes=[len(hand) for hand in state.hands],
            deck_sizes=[len(deck) for deck in state.decks],
            chosen=[card is not None for card in state.chosen],
            revealed=list(state.chosen) if revealed else [None] * state.seats,
            order=list(state.order),
            turn=state.turn,
            to_place=state.to_place,
            kind=state.kind,
            bin=[
                BinPiece(kind=p.kind, x=p.x / 10, y=p.y / 10, angle=p.angle / 1000)
                for p in state.pieces
            ],
            supply=dict(zip(KIND_ORDER, state.supply, strict=True)),
            counters=list(state.counters),
            taken=[list(t) for t in state.taken],
            scores=list(scores(state)),
            taken_log=[
                CounterTaken(round=r, seat=s, value=value) for r, s, value in state.taken_log
            ],
            last_drop=None
            if state.last_drop is None
            else [state.last_drop[0] / 10, state.last_drop[1] / 10],
            dropped_at=state.dropped_at,
            spill=[
                BinPiece(kind=p.kind, x=p.x / 10, y=p.y / 10, angle=p.angle / 1000)
                for p in state.spill
            ],
            spilled_at=state.spilled_at,
            finished=state.finished,
            hand=list(state.hands[seat]) if own and seat is not None else None,
            my_choice=state.chosen[seat] if own and seat is not None else None,
            last_move=last_move_view(state.last_move),
        )
        return view

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        points = scores(state)
        return Outcome(ranks=ranks_from_points(points), points=points)

    def describe(self, state: State, action: str) -> Filling:
        try:
            return _label(parse_action(action))
        except IllegalAction:
            return action  # an older game's action stands for itself (see `read_parsed`)

    def group_of(self, action: str) -> str:
        # A drop's menu entry is its kind and spot: the turn is chosen after, with a preview.
        return read_parsed(
            action,
            parse_action,
            lambda drop: spot_group(drop.kind, drop.x) if isinstance(drop, Place) else action,
        )


def _label(parsed: Choose | Place) -> Phrase:
    if isinstance(parsed, Choose):
        return phrase("Lay down your {card}", card=parsed.card)
    return phrase(
        "{piece} at {spot}/{last}, turned {angle}°",
        piece=piece_label(parsed.kind),
        spot=parsed.x,
        last=X_STEPS - 1,
        angle=parsed.angle,
    )


def spot_group(kind: str, x: int) -> str:
    """The menu entry for dropping a `kind` at spot `x`, whatever its turn."""
    return f"place {kind} {x}"


def parse_spot_group(group: str) -> tuple[str, int] | None:
    """The kind and spot a drop's menu entry names (`spot_group`), or None for any other."""
    words = group.split()
    if len(words) == 3 and words[0] == "place" and words[1] in KINDS and words[2].isdigit():
        return words[1], int(words[2])
    return None


def open_spots(legal: list[str]) -> dict[str, list[int]]:
    """The spots open for each kind of garbage among the legal drops, in order."""
    spots: dict[str, list[int]] = {}
    for action in legal:
        parsed = parse_action(action)
        if isinstance(parsed, Place) and parsed.x not in spots.setdefault(parsed.kind, []):
            spots[parsed.kind].append(parsed.x)
    return spots


TOSS = Toss()

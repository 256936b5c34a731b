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

The engine ties the parts together: `state.py` (state and JSON), `actions.py` (actions and
their text), `phases.py` (the phase table of moves: applying an action), `bin.py` (the bin's
physics) and `observation.py`; the `Game` itself is here, with the labels and menu groups of
actions. Its AI at three levels is `levels.py` (the normal one in `ai.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
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
from rules.phrases import Filling, Phrase, phrase, term
from rules.toss import levels as toss_levels
from rules.toss.actions import Choose, Place, parse_action
from rules.toss.bin import (
    ANGLES,
    KINDS,
    PIECES_EACH,
    WOBBLE,
    X_STEPS,
)
from rules.toss.observation import BinPiece, CounterTaken, TossObservation
from rules.toss.phases import allowed_kinds, fill_bin, perform, round_starts
from rules.toss.state import (
    CARDS,
    CHOOSE,
    COLOURS,
    HAND,
    KIND_ORDER,
    PLACE,
    SCHEMA,
    State,
    mice,
    scores,
)
from rules.toss.words import piece_label

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
        return fill_bin(state)

    def opening_events(self, state: State) -> list[Event]:
        return [Event(round_starts(1))]

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
        return with_last_move(perform(state, seat, parsed).applied(), seat)

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
        return read_parsed(action, parse_action, _label)

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

"""A whole Toss It in the Trash state drawn from what one seat may see: the hard AI's worlds.

What a seat cannot see, and how a sample fills it in:

- the other seats' hands and draw piles, and which of its own cards are still in its pile:
  the observation keeps no history of earlier rounds' cards, so any set of cards that fits
  the counts is possible. Each seat's unseen cards are drawn at random from the numbers
  1..10 it is not seen to hold or to have laid down this round;
- a card another seat has laid down but not yet turned up: one more card from that draw;
- the seed, which fixes every future wobble and every future pre-fill: a fresh random one,
  so a sampled world's hands shake the way the real game's might, not the way they will.

Everything else (the bin, the supply, the counters, the turn) is copied from the view, so
`observe(sample(view, rng), seat) == view`.
"""

from __future__ import annotations

import random

from rules.base import LastMove
from rules.toss.bin import Piece
from rules.toss.observation import BinPiece, TossObservation
from rules.toss.state import CARDS, KIND_ORDER, PLACE, SCHEMA, State


def _pieces(view: list[BinPiece]) -> tuple[Piece, ...]:
    """The bin as the engine keeps it: tenths of a millimetre and milliradians."""
    return tuple(
        Piece(p["kind"], round(p["x"] * 10), round(p["y"] * 10), round(p["angle"] * 1000))
        for p in view
    )


def _cards(
    observation: TossObservation, seat: int, rng: random.Random
) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
    """One seat's hand, draw pile (top first) and card laid down this round, drawn among
    the ones consistent with the view."""
    me = observation["seat"]
    laid = observation["revealed"][seat]
    if seat == me and observation["my_choice"] is not None:
        laid = observation["my_choice"]
    hand = list(observation["hand"] or []) if seat == me else []
    hidden_laid = laid is None and observation["chosen"][seat]
    unseen = [card for card in CARDS if card not in hand and card != laid]
    rng.shuffle(unseen)
    if hidden_laid:
        laid = unseen.pop()
    if seat != me:
        hand = unseen[: observation["hand_sizes"][seat]]
        unseen = unseen[len(hand) :]
    deck = unseen[: observation["deck_sizes"][seat]]
    return tuple(sorted(hand)), tuple(deck), laid


def sample(observation: TossObservation, rng: random.Random) -> State:
    """A whole state the seat of `observation` cannot tell from the real one."""
    seats = observation["seats"]
    dealt = [_cards(observation, seat, rng) for seat in range(seats)]
    order = tuple(observation["order"])
    turn = observation["turn"]
    last_drop = observation["last_drop"]
    last_move = observation.get("last_move")
    return State(
        seed=rng.getrandbits(48),
        seats=seats,
        wobble=observation["wobble"],
        colours=tuple(observation["colours"]),
        decks=tuple(deck for _, deck, _ in dealt),
        hands=tuple(hand for hand, _, _ in dealt),
        pieces=_pieces(observation["bin"]),
        supply=tuple(observation["supply"][kind] for kind in KIND_ORDER),
        version=SCHEMA,
        counter=0,  # the fresh seed's draws start afresh
        step=observation["step"],
        round=observation["round"],
        phase=observation["phase"],
        chosen=tuple(laid for _, _, laid in dealt),
        order=order,
        turn_index=order.index(turn) if observation["phase"] == PLACE and turn is not None else 0,
        to_place=observation["to_place"],
        kind=observation["kind"],
        counters=tuple(observation["counters"]),
        taken=tuple(tuple(t) for t in observation["taken"]),
        taken_log=tuple((t["round"], t["seat"], t["value"]) for t in observation["taken_log"]),
        last_drop=None
        if last_drop is None
        else (round(last_drop[0] * 10), round(last_drop[1] * 10)),
        dropped_at=observation["dropped_at"],
        spill=_pieces(observation["spill"]),
        spilled_at=observation["spilled_at"],
        last_move=None
        if last_move is None
        else LastMove(last_move["seat"], last_move["step"], tuple(last_move["lines"])),
    )

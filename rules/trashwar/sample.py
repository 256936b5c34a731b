"""A whole Trash War state drawn from what one seat can see: the hard AI's hidden worlds.

Everything on the table is public: the fortresses and the trash on them, the trash in
flight, and every card in the recycle, torched and out-of-game piles, since each reached its
pile face up (`recycle_pile` and the others in the observation: a player with a good memory
counts cards the same way). What a seat cannot see is the other hands and the draw pile.
`sample` deals the cards left unseen into those places at random, keeping what the
observation does tell:

- each hand and the draw pile get exactly the number of cards the observation counts;
- once the draw pile has been recycled, it holds only cards of the recycle pile it was
  shuffled from (`shuffled_into_draw`), the ones not seen since;
- the card a knight has just drawn and must throw (phase "drawn") is Trash, last in the hand.

The draw pile is dealt first, then each hand, each card drawn uniformly among those allowed
there: close to, though not exactly, uniform over every consistent deal. The seed is drawn
too, as it orders the next recycling's shuffle, which nobody can foresee.

`sample` reads the observation only; `Knowledge` keeps what it read so a search drawing
hundreds of worlds from one observation reads it once.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.base import LastMove
from rules.trashwar.cards import CARDS, TRASH, WALL_IDS
from rules.trashwar.observation import out_of_sight
from rules.trashwar.state import (
    DRAWN,
    SCHEMA,
    WALL_NAMES,
    WALLS_EACH,
    Flight,
    Mark,
    State,
    Wall,
)

RETRIES = 20  # deals tried before dealing the draw pile from any unseen card


def _flight(view: Mapping[str, Any]) -> Flight:
    return Flight(
        int(view["card"]["id"]),
        int(view["target"]),
        WALL_NAMES.index(view["wall"]),
        int(view["sender"]),
    )


@dataclass(frozen=True)
class Knowledge:
    """What an observation tells of the state: the public state with the hidden places
    empty, and the cards and room for each hidden place."""

    public: State  # hands of unseen seats empty, the draw pile empty
    unseen: tuple[int, ...]  # every card the seat cannot see, in id order
    hands: tuple[int, ...]  # cards to deal each seat (0 for the observer)
    draw: int
    drawable: frozenset[int]  # the cards the draw pile may hold (empty: any unseen card)
    drawn_by: int | None  # the seat whose last card was just drawn and is unseen Trash

    @classmethod
    def read(cls, observation: Mapping[str, Any]) -> Knowledge:
        seats = int(observation["seats"])
        me = observation["seat"]
        own = tuple(int(card["id"]) for card in observation["hand"] or ())
        players = observation["players"]
        walls = tuple(
            tuple(
                Wall(
                    WALL_IDS[seat * WALLS_EACH + index],
                    bool(wall["standing"]),
                    tuple(int(card["id"]) for card in wall["trash"]),
                )
                for index, wall in enumerate(player["walls"])
            )
            for seat, player in enumerate(players)
        )
        flight = tuple(_flight(f) for f in observation["incoming"])
        held = tuple(_flight(f) for f in observation["held"])
        recycle = tuple(int(c) for c in observation["recycle_pile"])
        torched = tuple(int(c) for c in observation["torched_pile"])
        out = tuple(int(c) for c in observation["out_pile"])
        reshuffled = tuple(int(c) for c in observation["shuffled_into_draw"])
        unseen = tuple(out_of_sight(observation))
        hands = tuple(() if seat != me else own for seat in range(seats))
        move = observation.get("last_move")
        phase = int(observation["torch_phase"])
        public = State(
            seed=0,
            seats=seats,
            version=SCHEMA,
            step=int(observation["step"]),
            turns=int(observation["turns"]),
            recycles=phase - 1,  # each recycling starts the next torching phase
            torch_phase=phase,
            phase=str(observation["phase"]),
            turn=int(observation["turn"]),
            starter=int(observation["turn"]),  # only the opening's log line names it
            opening=bool(observation["opening"]),
            recycle=recycle,
            torched=torched,
            out=out,
            reshuffled=reshuffled,
            box=WALL_IDS[seats * WALLS_EACH :],
            hands=hands,
            walls=walls,
            flight=flight,
            held=held,
            swing=observation["swing"],
            drawn=own[-1] if observation["phase"] == DRAWN and me == observation["turn"] else None,
            eliminated=tuple(int(p) for p in observation["eliminated"]),
            finished=bool(observation["finished"]),
            marks=tuple(
                Mark(m["step"], m["seat"], WALL_NAMES.index(m["wall"]), m["what"], m["card"])
                for m in observation["marks"]
            ),
            last_move=None
            if move is None
            else LastMove(int(move["seat"]), int(move["step"]), tuple(move["lines"])),
        )
        drawn_by = None
        if observation["phase"] == DRAWN and me != observation["turn"]:
            drawn_by = int(observation["turn"])
        return cls(
            public=public,
            unseen=unseen,
            hands=tuple(0 if seat == me else int(p["hand_size"]) for seat, p in enumerate(players)),
            draw=int(observation["draw_size"]),
            drawable=frozenset(reshuffled).intersection(unseen),
            drawn_by=drawn_by,
        )

    def sample(self, rng: random.Random) -> State:
        """One world: the unseen cards dealt at random into the hidden places."""
        for _ in range(RETRIES):
            world = self._deal(rng, self.drawable)
            if world is not None:
                return world
        # Twenty deals that each left no Trash for the knight who has just drawn one (the
        # draw pile took it every time): a world a little looser beats no world at all.
        world = self._deal(rng, frozenset())
        assert world is not None  # with the draw pile open to any card every deal fits
        return world

    def _deal(self, rng: random.Random, drawable: frozenset[int]) -> State | None:
        pool = list(self.unseen)
        rng.shuffle(pool)

        def take(count: int, allowed: frozenset[int] = frozenset(), kind: str = "") -> list[int]:
            taken: list[int] = []
            for k in range(len(pool) - 1, -1, -1):
                if len(taken) == count:
                    break
                card = pool[k]
                if (not allowed or card in allowed) and (not kind or CARDS[card].kind == kind):
                    taken.append(pool.pop(k))
            if len(taken) < count:
                raise _NoDeal
            return taken

        try:
            draw = take(self.draw, drawable)  # the most constrained place first
            drawn = take(1, kind=TRASH) if self.drawn_by is not None else []
            hands = [list(hand) for hand in self.public.hands]
            for seat, count in enumerate(self.hands):
                hands[seat] += take(count - (seat == self.drawn_by))
        except _NoDeal:
            return None
        public = self.public
        if self.drawn_by is not None:
            hands[self.drawn_by] += drawn
        return replace(
            public,
            seed=rng.getrandbits(32),
            draw=tuple(draw),
            hands=tuple(tuple(hand) for hand in hands),
            drawn=drawn[0] if drawn else public.drawn,
        )


class _NoDeal(Exception):
    """A deal ran out of cards a place may hold."""


def sample(observation: Mapping[str, Any], rng: random.Random) -> State:
    """A whole state consistent with `observation`, its hidden parts drawn with `rng`."""
    return Knowledge.read(observation).sample(rng)

"""A whole Trash War state drawn from what one seat can see: the hard AI's hidden worlds.

Everything on the table is public: the fortresses and the trash on them, the trash in
flight, the tops of the recycle and torched piles, the pile sizes. What a seat cannot see
is the other hands, the order of the draw pile, the cards under the two face-up tops and
the cards out of the game. `sample` deals every card the observation does not show into
those places at random, keeping what the observation does tell:

- each hand and pile gets exactly the number of cards the observation counts;
- the torches decide which pile a discarded card went to (house rule, see
  `table.discard`), so a pile only gets cards that could be there in this torching phase:
  the recycle pile cards with no torch (or two, in phase 1), the torched pile torch cards,
  the out-of-game pile torch cards of earlier phases, and from phase 2 on the draw pile the
  recycle pile of the phase before;
- the card a knight has just drawn and must throw (phase "drawn") is Trash, last in the hand.

The most constrained piles are dealt first, each card drawn uniformly among those allowed
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
from rules.trashwar.cards import CARDS, PLAY_IDS, TRASH, WALL_IDS
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

ALL_TORCHES = frozenset({0, 1, 2})
RETRIES = 20  # deals tried before dropping the torch rule (only for odd corner cases)


def _recycle_torches(phase: int) -> frozenset[int]:
    """Torches of the cards the recycle pile takes in torching phase `phase`."""
    return frozenset({0, 2}) if phase == 1 else frozenset({0})


def _torched_torches(phase: int) -> frozenset[int]:
    return frozenset({1}) if phase == 1 else frozenset({1, 2})


def _out_torches(phase: int) -> frozenset[int]:
    """The out pile: the torched piles of phases before, and torch cards from phase 3 on."""
    return frozenset({1}) if phase <= 2 else frozenset({1, 2})


def _draw_torches(phase: int) -> frozenset[int]:
    """From phase 2 on, the draw pile is the recycle pile of the phase before."""
    return ALL_TORCHES if phase == 1 else _recycle_torches(phase - 1)


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

    public: State  # hands of unseen seats empty, hidden piles empty
    unseen: tuple[int, ...]  # every card the seat cannot see, in id order
    hands: tuple[int, ...]  # cards to deal each seat (0 for the observer and those out)
    draw: int
    recycle: int  # under the face-up top
    torched: int  # under the face-up top
    out: int
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
        recycle_top = observation["recycle_top"]
        torched_top = observation["torched_top"]
        seen = set(own)
        seen.update(c for fortress in walls for wall in fortress for c in wall.trash)
        seen.update(f.card for f in flight + held)
        recycle = (int(recycle_top["id"]),) if recycle_top else ()
        torched = (int(torched_top["id"]),) if torched_top else ()
        seen.update(recycle + torched)
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
            unseen=tuple(c for c in PLAY_IDS if c not in seen),
            hands=tuple(0 if seat == me else int(p["hand_size"]) for seat, p in enumerate(players)),
            draw=int(observation["draw_size"]),
            recycle=int(observation["recycle_size"]) - len(recycle),
            torched=int(observation["torched_size"]) - len(torched),
            out=int(observation["out_size"]),
            drawn_by=drawn_by,
        )

    def sample(self, rng: random.Random) -> State:
        """One world: the unseen cards dealt at random into the hidden places."""
        for _ in range(RETRIES):
            world = self._deal(rng, torch_rule=True)
            if world is not None:
                return world
        world = self._deal(rng, torch_rule=False)
        assert world is not None  # without the torch rule every deal fits the counts
        return world

    def _deal(self, rng: random.Random, torch_rule: bool) -> State | None:
        pool = list(self.unseen)
        rng.shuffle(pool)
        phase = self.public.torch_phase

        def take(count: int, torches: frozenset[int], kind: str | None = None) -> list[int]:
            if not torch_rule:
                torches = ALL_TORCHES
            taken: list[int] = []
            for k in range(len(pool) - 1, -1, -1):
                if len(taken) == count:
                    break
                card = CARDS[pool[k]]
                if card.torches in torches and (kind is None or card.kind == kind):
                    taken.append(pool.pop(k))
            if len(taken) < count:
                raise _NoDeal
            return taken

        try:
            drawn = take(1, ALL_TORCHES, TRASH) if self.drawn_by is not None else []
            # The most constrained places first, so the others still find their cards.
            out = take(self.out, _out_torches(phase))
            recycle = take(self.recycle, _recycle_torches(phase))
            torched = take(self.torched, _torched_torches(phase))
            draw = take(self.draw, _draw_torches(phase))
            hands = [list(hand) for hand in self.public.hands]
            for seat, count in enumerate(self.hands):
                hands[seat] += take(count - (seat == self.drawn_by), ALL_TORCHES)
        except _NoDeal:
            return None
        public = self.public
        if self.drawn_by is not None:
            hands[self.drawn_by] += drawn
        return replace(
            public,
            seed=rng.getrandbits(32),
            draw=tuple(draw),
            recycle=tuple(recycle) + public.recycle,
            torched=tuple(torched) + public.torched,
            out=tuple(out),
            hands=tuple(tuple(hand) for hand in hands),
            drawn=drawn[0] if drawn else public.drawn,
        )


class _NoDeal(Exception):
    """A deal ran out of cards a place may hold."""


def sample(observation: Mapping[str, Any], rng: random.Random) -> State:
    """A whole state consistent with `observation`, its hidden parts drawn with `rng`."""
    return Knowledge.read(observation).sample(rng)

"""Last Lid: the tests' own small game, to prove a game is a plug-in.

Lids lie on a pile; in turn each player takes one up to the table's most; whoever takes the
last lid wins. Nothing is hidden but each player's own tally, shown in "My hand". It lives
only in tests/ and reaches the bot through EXTRA_EXTENSIONS, without any edit to shared code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.base import JSON, Applied, Codec, Event, Game, IllegalAction, Level, Option, Outcome


@dataclass(frozen=True)
class State:
    seats: int
    lids: int  # left on the pile
    most: int  # a turn takes 1 up to this many
    turn: int
    step: int
    seed: int
    taken: tuple[int, ...]  # each seat's own tally
    winner: int | None = None
    version: int = 1  # the schema version its JSON carries


class LastLid(Game[State, JSON]):
    key = "lastlid"
    codec: ClassVar[Codec] = Codec(State, 1)  # the one codec every game's state uses
    title = "Last Lid"
    min_seats = 2
    max_seats = 4
    options = (
        Option("lids", "Lids on the pile at the start", (), "7", low=3, high=15),
        Option("most", "Most lids one turn takes", ("2", "3"), "2", ("one or two", "up to three")),
    )

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        lids, most = int(options.get("lids", "7")), int(options.get("most", "2"))
        return State(seats, lids, most, 0, 0, seed, (0,) * seats)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"take {n}" for n in range(1, min(state.most, state.lids) + 1)]

    def apply(self, state: State, seat: int, action: str) -> Applied:
        self.check_turn(state, seat)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"A turn takes 1 to {min(state.most, state.lids)} lids.")
        n = int(action.split()[1])
        taken = tuple(t + n if s == seat else t for s, t in enumerate(state.taken))
        lids = state.lids - n
        after = replace(
            state,
            lids=lids,
            taken=taken,
            step=state.step + 1,
            turn=(seat + 1) % state.seats,
            winner=seat if lids == 0 else None,
        )
        events = [Event(f"{{p{seat}}} takes {n}; {lids} left.")]
        if lids == 0:
            events.append(Event(f"{{p{seat}}} took the last lid and wins."))
        return Applied(after, events)

    def observe(self, state: State, seat: int | None) -> JSON:
        public = {"lids": state.lids, "most": state.most, "turn": state.turn, "step": state.step}
        public["winner"] = state.winner
        if seat is not None:
            public |= {"seat": seat, "mine": state.taken[seat]}
        return public

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        ranks = tuple(0 if s == state.winner else 1 for s in range(state.seats))
        return Outcome(ranks, tuple(state.taken))

    def describe(self, state: Any, action: str) -> str:
        n = int(action.split()[1])
        return f"Take {n} lid" + ("s" if n > 1 else "")

    def choose(
        self, observation: JSON, legal: list[str], rng: random.Random, level: Level = "normal"
    ) -> str:
        # The easy AI takes any number, as a beginner who has not seen the trick does;
        # normal and hard leave the next player a multiple of (most + 1) when possible.
        best = f"take {observation['lids'] % (observation['most'] + 1)}"
        return best if best in legal and level != "easy" else rng.choice(legal)


LAST_LID = LastLid()

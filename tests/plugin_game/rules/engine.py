"""Last Lid: the template game, small enough to read in one sitting.

Lids lie on a pile; in turn each player takes one up to the table's most; whoever takes the
last lid wins. Nothing is hidden but each player's own tally, shown in "My tally".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from rules.base import Applied, Chooser, Codec, Event, Game, IllegalAction, Option, Outcome
from rules.phrases import Filling, SeatName, phrase, phrase_n, term

from . import ai as lastlid_ai
from .observation import LastLidObservation


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
    version: int = 1  # the schema version its JSON carries (the codec checks it)


class LastLid(Game[State, LastLidObservation]):
    key = "lastlid"  # the slash command group, `/lastlid new`: a copy gets a key of its own
    title = "Last Lid"
    tagline = term("tagline", "Take lids from the pile; whoever takes the last one wins.")
    min_seats = 2
    max_seats = 4
    options = (
        Option("lids", "Lids on the pile at the start", default="7", low=3, high=15),
        Option(
            "most",
            "Most lids one turn takes",
            ("2", "3"),
            "2",
            (term("choice", "one or two"), term("choice", "up to three")),
        ),
    )
    ai: ClassVar[Chooser] = lastlid_ai
    codec: ClassVar[Codec] = Codec(State, 1)

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        lids, most = int(options.get("lids", "7")), int(options.get("most", "2"))
        return State(seats, lids, most, 0, 0, seed, (0,) * seats)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"take {n}" for n in range(1, min(state.most, state.lids) + 1)]

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        self.check_turn(state, seat)
        if action not in self.legal_actions(state, seat):
            most = min(state.most, state.lids)
            raise IllegalAction(phrase("A turn takes 1 to {most} lids.", most=most))
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
        player = SeatName(seat)
        events = [
            Event(phrase_n("{player} takes {n} lid.", "{player} takes {n} lids.", n, player=player))
        ]
        if lids == 0:
            events.append(Event(phrase("{player} took the last lid and wins.", player=player)))
        return Applied(after, events)

    def observe(self, state: State, seat: int | None) -> LastLidObservation:
        return LastLidObservation(
            lids=state.lids,
            most=state.most,
            turn=state.turn,
            step=state.step,
            winner=state.winner,
            seat=seat,
            mine=None if seat is None else state.taken[seat],
        )

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        ranks = tuple(0 if s == state.winner else 1 for s in range(state.seats))
        return Outcome(ranks, state.taken)

    def describe(self, state: State, action: str) -> Filling:
        n = int(action.split()[1])
        return phrase_n("Take {n} lid", "Take {n} lids", n)


LAST_LID = LastLid()

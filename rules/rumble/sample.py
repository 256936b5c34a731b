"""A whole Rumble state drawn from what one seat sees: the hard AI's worlds to search.

A seat sees the dungeon, where every character stands, the chest, the exit line, the
totals, the reveals of finished rumbles and its own two secret characters. It does not see
the other players' pairs, nor the seed that will place the characters and deal the secrets
of the rumbles to come. `sample` keeps everything seen and draws the rest:

- every other player's pair, dealt from the ten characters this seat does not hold (all
  twelve for the public view), as the real deal would (two each, no character twice);
- a fresh seed, so the rumbles still to come are set up afresh in each world.

It reads the observation only, never a real state: `observe(sample(obs), seat) == obs`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.base import LastMove
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import Layout
from rules.rumble.state import SECRETS_EACH, Reveal, State, Trace

SEEDS = 2**63  # a world's seed is drawn from this many


def sample(observation: Mapping[str, Any], rng: random.Random) -> State:
    """A state consistent with `observation`, its hidden parts drawn with `rng`."""
    seats: int = observation["seats"]
    seat: int | None = observation["seat"]
    rumble: int = observation["rumble"]
    return State(
        seed=rng.randrange(SEEDS),
        seats=seats,
        layout=seen_layout(observation),
        counter=rumble,  # one draw from the seed per rumble set up so far
        step=observation["step"],
        rumble=rumble,
        starter=observation["starter"],
        # A finished game shows no one to act; any seat will do, as nobody acts again.
        turn=observation["to_act"][0] if observation["to_act"] else 0,
        positions=dict(observation["positions"]),
        chest=observation["chest"],
        chest_exited_with=observation["chest_exited_with"],
        exit_line=tuple(observation["exit_line"]),
        secrets=deal(observation.get("secret"), seat, seats, rng),
        totals=tuple(observation["totals"]),
        history=tuple(_reveal(result) for result in observation["history"]),
        finished=observation["finished"],
        trail=tuple(Trace(**trace) for trace in observation["trail"]),
        last_move=_last_move(observation.get("last_move")),
    )


def deal(
    secret: list[str] | None, seat: int | None, seats: int, rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """Every seat's pair: `seat` keeps the one it holds, the others are dealt at random from
    the characters left, two each and none twice, as the real deal is."""
    held = tuple(secret or ())
    deck = [character for character in CHARACTERS if character not in held]
    rng.shuffle(deck)
    pairs: list[tuple[str, ...]] = []
    for other in range(seats):
        if other == seat and held:
            pairs.append(held)
        else:
            pairs.append(tuple(deck[:SECRETS_EACH]))
            del deck[:SECRETS_EACH]
    return tuple(pairs)


def seen_layout(observation: Mapping[str, Any]) -> Layout:
    """The dungeon as its tiles show it. Its name (random or fixed) is not shown and changes
    nothing in play."""
    return Layout(
        name="seen",
        doors=tuple(tile["doors"] for tile in observation["tiles"]),
        entrance=observation["entrance"],
        treasure_room=observation["treasure_room"],
    )


def _reveal(result: Mapping[str, Any]) -> Reveal:
    return Reveal(
        rumble=result["rumble"],
        secrets=tuple(tuple(pair) for pair in result["secrets"]),
        points=tuple(result["points"]),
        best=tuple(result["best"]),
        last_standing=result["last_standing"],
        chest_exited_with=result["chest_exited_with"],
        exit_line=tuple(result["exit_line"]),
    )


def _last_move(view: Mapping[str, Any] | None) -> LastMove | None:
    if view is None:
        return None
    return LastMove(view["seat"], view["step"], tuple(view["lines"]))

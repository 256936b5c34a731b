"""Scoring a Rumble and setting up the next one: each character's points at the end of a
rumble, the reveal of every player's pair, and who deals the next rumble's secrets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.base import rng_for
from rules.rumble.characters import CHARACTERS
from rules.rumble.dungeon import ROOMS
from rules.rumble.state import (
    CHEST_EXIT_POINTS,
    FREE_PLACES,
    LAST_STANDING_POINTS,
    LAST_STANDING_POINTS_CHEST_GONE,
    SECRETS_EACH,
    Reveal,
    State,
)

# ---------------------------------------------------------------------------------------------
# Scoring


def character_points(state: State) -> dict[str, int]:
    """What each of the twelve characters scores when the rumble ends now (rulebook).

    Places 1 and 2 of the exit line score nothing; from place 3 on, a place scores its
    number less two. The last character standing scores 10, or 9 when the chest has left
    with another character, who scores 10. Characters still in the dungeon beside the last
    one (none, once the rumble is over) score nothing.
    """
    points = dict.fromkeys(CHARACTERS, 0)
    for place, character in enumerate(state.exit_line, start=1):
        points[character] = max(0, place - FREE_PLACES)
    if state.chest_exited_with is not None:
        points[state.chest_exited_with] = CHEST_EXIT_POINTS
    if len(state.positions) == 1:
        (last,) = state.positions
        points[last] = (
            LAST_STANDING_POINTS
            if state.chest_exited_with is None
            else LAST_STANDING_POINTS_CHEST_GONE
        )
    return points


def best_of(pair: tuple[str, ...], points: Mapping[str, int]) -> str:
    """The one of a player's characters that counts: only the better scores (rulebook)."""
    return max(pair, key=lambda character: points[character])


def make_reveal(state: State) -> Reveal:
    points = character_points(state)
    best = tuple(best_of(pair, points) for pair in state.secrets)
    (last,) = state.positions
    return Reveal(
        rumble=state.rumble,
        secrets=state.secrets,
        points=tuple(points[character] for character in best),
        best=best,
        last_standing=last,
        chest_exited_with=state.chest_exited_with,
        exit_line=state.exit_line,
    )


# ---------------------------------------------------------------------------------------------
# Setting up a rumble


def set_up_rumble(state: State, rumble: int, candidates: list[int]) -> State:
    """Every character to a random room, the chest to its starting room, fresh secrets
    dealt, and a starter drawn from `candidates`. Uses one random draw from the seed."""
    rng = rng_for(state.seed, "rumble", state.counter)
    placed = list(CHARACTERS)
    rng.shuffle(placed)
    room_of = dict(zip(placed, ROOMS, strict=True))
    deck = list(CHARACTERS)
    rng.shuffle(deck)
    secrets = tuple(
        tuple(deck[seat * SECRETS_EACH : (seat + 1) * SECRETS_EACH]) for seat in range(state.seats)
    )
    starter = rng.choice(candidates)
    return replace(
        state,
        counter=state.counter + 1,
        rumble=rumble,
        starter=starter,
        turn=starter,
        positions={character: room_of[character] for character in CHARACTERS},
        chest=state.layout.treasure_room,
        chest_exited_with=None,
        exit_line=(),
        secrets=secrets,
    )


def fewest_points(totals: tuple[int, ...]) -> list[int]:
    """The seats with the fewest points: the next rumble's starter comes from them."""
    low = min(totals)
    return [seat for seat, total in enumerate(totals) if total == low]

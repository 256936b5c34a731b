"""What a seat may know of a Last Lid game: the shape `observe` returns, all that the
pictures (`render/`) and the presenter ever receive."""

from __future__ import annotations

from typing import TypedDict


class LastLidObservation(TypedDict):
    lids: int  # left on the pile
    most: int  # a turn takes 1 up to this many
    turn: int  # the seat to act
    step: int
    winner: int | None  # the seat that took the last lid, once the game is over
    seat: int | None  # whose view this is (None: the channel's)
    mine: int | None  # the lids this seat has taken (None in the channel's view)

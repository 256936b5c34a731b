"""What a seat may know of a Toss It in the Trash game: the shape `observe` returns.

`render/` and `cogs/` read only this. The public view (`seat=None`) has `hand=None` and
`my_choice=None`; before the reveal nobody's view holds another seat's chosen card, only
whether that seat has chosen.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from rules.observation import LastMoveView

ROUNDS = 10
"""Rounds in a game (rulebook): a view's `round` counts up to it."""


class BinPiece(TypedDict):
    """One piece at rest in the bin."""

    kind: str
    """Piece kind key: "carton", "can", "bottle" or "apple"."""
    x: float
    """Centre, millimetres from the inside of the left wall."""
    y: float
    """Centre, millimetres above the floor."""
    angle: float
    """Rotation in radians, counter-clockwise."""


class CounterTaken(TypedDict):
    """One point counter taken, for the story of the game."""

    round: int
    """The round it was taken in."""
    seat: int
    value: int
    """Its number, signed: minus side or plus side up."""


class TossObservation(TypedDict):
    """Everything one seat (or the channel) may know."""

    game: Literal["toss"]
    """Always "toss"."""
    seat: int | None
    """Whose view this is; None for the public view."""
    seats: int
    """Number of players."""
    wobble: str
    """How unsteady hands are: "steady", "house" or "shaky" (the lobby option)."""
    step: int
    """Actions applied so far in the whole game."""
    round: int
    """The round being played, 1..10 (the last one played once the game is over)."""
    phase: str
    """"choose" (secret card choice), "place" (turns) or "over"."""
    to_act: list[int]
    """Seats that must act now: several while choosing, one while placing."""
    colours: list[str]
    """Per seat, the colour of their cards."""
    mice: list[int]
    """Per seat, the mice shown on each of their cards (tie-break: fewer goes first)."""
    hand_sizes: list[int]
    """Per seat, cards in hand."""
    deck_sizes: list[int]
    """Per seat, cards left in the draw pile."""
    chosen: list[bool]
    """Per seat, whether they have laid down a card this round (its value stays hidden)."""
    revealed: list[int | None]
    """Per seat, the card turned up this round; all None until everyone has chosen."""
    order: list[int]
    """This round's turn order after the reveal (empty before it)."""
    turn: int | None
    """The seat placing pieces now, or None."""
    to_place: int
    """Pieces the seat whose turn it is still has to place."""
    kind: str | None
    """The kind the current turn is bound to (None before its first piece)."""
    bin: list[BinPiece]
    """Every piece in the bin, at rest."""
    supply: dict[str, int]
    """Pieces of each kind left beside the bin."""
    counters: list[int]
    """The point-counter stack, top first, as the number on each (1..6)."""
    taken: list[list[int]]
    """Per seat, the counters taken, signed (minus side or plus side up)."""
    scores: list[int]
    """Per seat, the sum of their counters."""
    taken_log: list[CounterTaken]
    """Every counter taken so far, in order (empty for a game saved before it was kept)."""
    dropped_at: int
    """The step whose drop is the last piece of `bin` (-1 when none is: a refilled bin)."""
    spill: list[BinPiece]
    """After a drop that spilled: the bin as the spill left it (pieces that fell are outside
    the can), before it was emptied and refilled; empty from the next action on."""
    spilled_at: int
    """The step of that spill (-1 before any)."""
    last_drop: list[float] | None
    """The last drop: spot x (mm) and angle (degrees) after the wobble; None before any."""
    finished: bool
    """Whether the game is over."""
    hand: list[int] | None
    """This seat's own cards in hand; None in the public view."""
    my_choice: int | None
    """The card this seat laid down this round; None in the public view or before choosing."""
    last_move: NotRequired[LastMoveView | None]
    """Who made the last move and what the log said (None before any; absent in older
    pictures' samples)."""

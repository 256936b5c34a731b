"""What a seat may know of a Rumble in the Dungeon game: the shape `observe` returns.

`render/` and `cogs/` read only this. The public view (`seat=None`) has `secret=None`; a
player's own view adds their two secret characters. Secrets of a finished rumble are public
from the reveal on, in `history`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from rules.observation import LastMoveView


class Tile(TypedDict):
    room: str  # "A1" .. "D3": column letter (A is the entrance side), row number from the top
    row: int  # 0..2, top to bottom
    col: int  # 0..3, left (entrance side) to right (treasure side)
    doors: str  # the sides with a door, a subset of "NESW" in that order


class RumbleResult(TypedDict):
    rumble: int  # 1..3
    secrets: list[list[str]]  # per seat, the two secret characters (revealed)
    points: list[int]  # per seat, what this rumble scored
    best: list[str]  # per seat, the character that scored those points
    last_standing: str  # the character left alone in the dungeon
    chest_exited_with: str | None  # the character that left with the chest, if any
    exit_line: list[str]  # characters removed in fights, in order


class TraceView(TypedDict):
    step: int  # the action that made it: a board draws those after the step it last showed
    rumble: int  # the rumble it happened in
    character: str
    start: str  # the room it was in
    goal: str  # the room it went to ("" when it left the dungeon)
    kind: str  # "move", "chest" (moved with the chest), "fight" (thrown out) or "exit"


class RumbleObservation(TypedDict):
    game: Literal["rumble"]
    seat: int | None  # whose view this is; None for the public view
    seats: int  # number of players
    step: int  # actions applied so far in the whole game
    rumble: int  # the rumble being played, 1..3 (3 once the game is over)
    to_act: list[int]  # the seat whose turn it is (empty once the game is over)
    starter: int  # the seat that started this rumble
    finished: bool
    tiles: list[Tile]  # all 12, row by row
    entrance: str  # room of the entrance tile
    treasure_room: str  # room where the chest starts
    positions: dict[str, str]  # character key -> room, for characters still in the dungeon
    chest: str | None  # room holding the chest; None once it has left the dungeon
    chest_exited_with: str | None  # the character that left with the chest this rumble
    exit_line: list[str]  # this rumble's characters removed in fights, in order
    totals: list[int]  # points per seat over the finished rumbles
    history: list[RumbleResult]  # finished rumbles, oldest first, with the reveal
    trail: list[TraceView]  # the newest actions' traces (moves, fights, exits), oldest first
    secret: list[str] | None  # this seat's two characters in the current rumble
    last_move: NotRequired[LastMoveView | None]  # who moved last and the log's words for it

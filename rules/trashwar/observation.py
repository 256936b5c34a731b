"""What a seat may know of a Trash War game: the shape `observe` returns.

`render/` and `cogs/` read only this. The public view (`seat=None`) shows every fortress,
every card on the table and every card in flight, every card in the discard piles (each
landed there face up), but of the hands only their sizes; a player's own view is the same
with `hand` filled in. No view ever holds a card of another player's hand, nor the order
of the draw pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

from rules.observation import LastMoveView
from rules.trashwar.cards import PLAY_IDS


class CardView(TypedDict):
    """One face-up card."""

    id: int
    """The card's number in the deck (0..111), the same for the whole game."""
    code: str
    """The card's word in actions: "toaster2", "shield3", "mace-any++", "deflect"."""
    kind: str
    """wall, trash, shield, mace, deflect, catapult, burn or repair."""
    value: int
    """Damage (Trash), defence (Shield) or burn value (Burn); 0 for the other kinds."""
    torches: int
    """Torch marks in the card's corner: 0, 1 or 2."""
    direction: str
    """Mace only: left, right, back or any; "" for the other kinds."""
    name: str
    """The flavour name of a Trash card ("toaster"); the kind's title for the rest."""
    title: str
    """How the log names it: "toaster (2)", "Shield 3", "Deflect (2 torches)"."""


class WallView(TypedDict):
    """One of a player's three Wall cards."""

    position: str
    """left, middle or right, as the player sees their own fortress."""
    standing: bool
    """False once the wall has toppled (turned face down); a Repair Wall raises it again."""
    trash: list[CardView]
    """The Trash cards that hit the wall and are still on it, oldest first."""
    damage: int
    """The sum of their damage; the wall falls when it reaches 4."""


class PlayerView(TypedDict):
    """One seat's fortress and what anyone can see of its hand."""

    seat: int
    """The seat this is (players are listed in seat order)."""
    in_game: bool
    """False once all three walls are down: the player is out."""
    walls: list[WallView]
    """Left, middle, right."""
    hand_size: int
    """How many cards the player holds (never which)."""
    under_attack: int
    """Total damage of the trash in flight at this player, waiting to be defended."""


class FlightView(TypedDict):
    """A Trash card thrown or batted, not yet landed."""

    card: CardView
    """The Trash card, face up for all to see."""
    target: int
    """The seat it flies at."""
    wall: str
    """The wall it is aimed at (left, middle, right)."""
    sender: int
    """The seat that threw or last batted it ("back at the sender" sends it here)."""


class MarkView(TypedDict):
    """Something that happened at a wall (all of it public)."""

    step: int
    """The action that did it: a board marks those after the step it last showed."""
    seat: int
    wall: str
    """left, middle or right."""
    what: str
    """hit, felled, shielded, batted at, burned or repaired."""
    card: str
    """The card(s) that did it, by code, space-separated ("toaster1"; "" for a repair): the
    board names them in its readers' language. A board saved before held English titles."""


class TrashWarObservation(TypedDict):
    """Everything `seat` may know (`seat=None`: anyone in the channel)."""

    game: Literal["trashwar"]
    """Always "trashwar"."""
    seat: int | None
    """Whose view this is; None for the public view."""
    seats: int
    """Number of players."""
    step: int
    """Actions applied so far."""
    turns: int
    """Turns begun so far (a turn: defend, burn or repair, attack, re-draw)."""
    finished: bool
    """True once one knight is left."""
    phase: str
    """What is being decided now: "attack" (throw trash, or with none discard one and
    draw), "drawn" (throw the Trash card just drawn), "defend" (meet the first card of
    `incoming`), "bat" (choose where a swung Mace sends it), "burn" (burn, repair or
    pass) or "over"."""
    turn: int
    """The seat whose turn it is. During "defend" and "bat" the seat deciding may be
    another one: a player meeting trash batted at them while the turn is elsewhere."""
    to_act: list[int]
    """The seat that must decide now (empty once the game is over)."""
    opening: bool
    """True until the first Trash card of the game is thrown (the opening attack is a single
    Trash card)."""
    torch_phase: int
    """1 at the start; each recycling of the draw pile starts the next one."""
    draw_size: int
    """Cards left in the face-down draw pile."""
    recycle_size: int
    """The recycle discard pile, face up: it becomes the next draw pile."""
    recycle_top: CardView | None
    """The face-up top card of the recycle pile (None when it is empty)."""
    torched_size: int
    """The torched pile, face up: it leaves the game at the next recycling."""
    torched_top: CardView | None
    """The face-up top card of the torched pile (None when it is empty)."""
    out_size: int
    """Cards thrown out of the game for good (torched piles of past phases, torch cards
    played from the third torching phase on)."""
    recycle_pile: list[int]
    """The ids (`CardView.id`) of every card in the recycle pile, bottom first. Each card
    reached a pile face up in front of the table, so what the piles hold is public: a
    player who remembers every card played knows it, and the hard AI counts cards with it."""
    torched_pile: list[int]
    """The ids of the torched pile's cards, bottom first."""
    out_pile: list[int]
    """The ids of the cards out of the game."""
    shuffled_into_draw: list[int]
    """The ids of the recycle pile the draw pile was last made from, in id order (empty
    before the first recycling): which cards the draw pile can hold, never their order."""
    players: list[PlayerView]
    """Every seat, in seat order (clockwise: a seat's left neighbour is the next seat)."""
    incoming: list[FlightView]
    """Trash in flight, in the order it will be met; the first is the one being decided."""
    held: list[FlightView]
    """Trash the player whose turn it is has batted with a Mace this turn: it flies on
    when their defence is over."""
    swing: str | None
    """During "bat": the direction of the Mace being swung (left, right, back, any)."""
    maced: bool
    """The player whose turn it is has used a Mace this turn: no burn, repair or attack
    follows, only the re-draw."""
    eliminated: list[int]
    """Seats that are out, first out first."""
    winner: int | None
    """The one winner of a finished war (None while it goes on, or when the win is shared)."""
    winners: list[int]
    """Every winner of a finished war: the last knight standing, or the knights sharing the
    win of a war that got stuck (table rule); empty while it goes on."""
    marks: list[MarkView]
    """What happened at walls lately, oldest first (the newest sixteen)."""
    hand: list[CardView] | None
    """This seat's own cards; None in the public view."""
    playable: list[bool] | None
    """For each card of `hand`, while the seat is deciding: whether some move open to it
    plays or discards the card (None in the public view and while others decide)."""
    last_move: NotRequired[LastMoveView | None]
    """Who made the last move and what the log said (None before any; absent in older
    pictures' samples)."""


def out_of_sight(observation: Mapping[str, Any]) -> list[int]:
    """The ids of the cards `observation`'s seat cannot see now, in id order: those in the
    draw pile and in the other hands. Every other card lies face up on the table (on a
    wall, in flight, in a discard pile) or in the seat's own hand."""
    seen = {int(card["id"]) for card in observation["hand"] or ()}
    for player in observation["players"]:
        seen.update(int(card["id"]) for wall in player["walls"] for card in wall["trash"])
    seen.update(int(f["card"]["id"]) for f in observation["incoming"] + observation["held"])
    for pile in ("recycle_pile", "torched_pile", "out_pile"):
        seen.update(int(card) for card in observation[pile])
    return [card for card in PLAY_IDS if card not in seen]

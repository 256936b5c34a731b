"""Rumble in the Dungeon: the rules engine.

Twelve characters crowd a dungeon of twelve rooms. Each player secretly backs two of them.
On a turn a player does exactly one thing, to any character, theirs or not:

- walk a character through a passage to a neighbouring room. Only a character alone in its
  room may move, except that any character in the chest's room may move, carrying the
  chest. Leaving the chest's room with others still in it, the chest must go along; leaving
  it alone, the mover chooses whether the chest comes too;
- pick a room where two or more characters stand and throw one of them out of the
  dungeon; the thrown-out characters queue up in the exit line, in order;
- take a character standing in the entrance with the chest out of the dungeon, chest and
  all. The rumble goes on.

A rumble ends when a single character is left in the dungeon. Each player scores only the
better of their two characters (see `character_points`). Three rumbles make a game; the
lowest scorer so far opens each later rumble.

Table rules of this bot, where the rulebook and the house rules are silent (tests check
each one):

- The character that leaves with the chest takes no place in the exit line: the line holds
  only characters thrown out in fights, so the third one thrown out scores 1 whether or not
  the chest left before it.
- When several players share the fewest points, the one to start the next rumble is drawn
  at random from the game's seed.
- A turn cannot be passed: every turn is one of the actions below (the rulebook makes the
  action compulsory, so there is no "do nothing").

House rules applied here: two players is an unofficial option; the dungeon is a 4 x 3 grid
(see `dungeon.py`); a character thrown out while standing with the chest leaves the chest in
the room; leaving a crowded chest room takes the chest along, leaving it alone the mover
chooses; play carries on after the chest leaves; final ties are shared wins.

Actions are strings, with character keys from `characters.py` and sides N, E, S, W:

    move <character> <side>          move a character alone in its room (without the chest)
    move <character> <side> chest    move a character out of the chest's room, chest and all
    fight <character>                start a fight in that character's room, throwing it out
    exit <character>                 leave the dungeon from the entrance with the chest

The engine ties the parts together: `state.py` (state and JSON), `actions.py` (actions, legal
moves, checks, their words), `phases.py` (the phase table of moves: applying an action) and
`scoring.py` (points, reveals, the next rumble); the `Game` itself is here. Outside code
imports the names below from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rules.base import (
    Applied,
    Chooser,
    Codec,
    Game,
    IllegalAction,
    Option,
    Outcome,
    last_move_view,
    ranks_from_points,
    read_parsed,
    rng_for,
    with_last_move,
)
from rules.phrases import Filling, phrase, term
from rules.rumble import ai as rumble_ai
from rules.rumble.actions import (
    Move,
    action_text,
    check,
    describe_action,
    legal_moves,
    parse_action,
)
from rules.rumble.dungeon import LAYOUT_CHOICES, RANDOM, make_layout, tiles
from rules.rumble.observation import RumbleObservation, TraceView
from rules.rumble.phases import perform
from rules.rumble.scoring import character_points, set_up_rumble
from rules.rumble.state import RUMBLES, SCHEMA, Reveal, State

__all__ = [
    "RUMBLE",
    "RUMBLES",
    "Reveal",
    "Rumble",
    "State",
    "character_points",
]

# ---------------------------------------------------------------------------------------------
# The game


class Rumble(Game[State, RumbleObservation]):
    key = "rumble"
    title = "Rumble in the Dungeon"
    tagline = term(
        "tagline", "Back two adventurers in secret; move them, start fights, and grab the chest."
    )
    min_seats = 2  # unofficial (house rules); the box says 3
    max_seats = 6
    ai: ClassVar[Chooser] = rumble_ai
    codec: ClassVar[Codec] = Codec(State, SCHEMA)
    options = (
        Option(
            name="layout",
            description="The dungeon: drawn at random, or one of the fixed layouts",
            choices=LAYOUT_CHOICES,
            default=RANDOM,
            labels=(
                term("choice", "drawn at random"),
                term("choice", "classic"),
                term("choice", "maze"),
                term("choice", "open"),
            ),
            heading=term("lobby option", "Dungeon"),
        ),
    )

    def new_game(self, seats: int, options: Mapping[str, str], seed: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                phrase(
                    "{game} takes {low} to {high} players.",
                    game=self.title,
                    low=self.min_seats,
                    high=self.max_seats,
                )
            )
        # Options other games use are ignored: `layout` is the only one this game reads.
        choice = options.get("layout", RANDOM) or RANDOM
        if choice not in LAYOUT_CHOICES:
            raise IllegalAction(
                phrase(
                    "There is no layout '{layout}': pick {layouts}.",
                    layout=choice,
                    layouts=", ".join(LAYOUT_CHOICES),
                )
            )
        layout = make_layout(choice, rng_for(seed, "layout"))
        state = State(seed=seed, seats=seats, layout=layout, totals=(0,) * seats)
        # The first rumble's starting player is picked at random (rulebook).
        return set_up_rumble(state, 1, list(range(seats)))

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.finished else frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.finished or seat != state.turn:
            return []
        return [action_text(action) for action in legal_moves(state)]

    def apply(self, state: State, seat: int, action: str) -> Applied[State]:
        self.check_turn(state, seat)
        parsed = parse_action(action)
        check(state, parsed)
        return with_last_move(perform(state, seat, parsed).applied(), seat)

    def observe(self, state: State, seat: int | None) -> RumbleObservation:
        # A seat sees its own pair and nothing of anyone else's; the public view sees none.
        secret = list(state.secrets[seat]) if seat is not None and 0 <= seat < state.seats else None
        view = RumbleObservation(
            game="rumble",
            seat=seat,
            seats=state.seats,
            step=state.step,
            rumble=state.rumble,
            to_act=[] if state.finished else [state.turn],
            starter=state.starter,
            finished=state.finished,
            tiles=tiles(state.layout),
            entrance=state.layout.entrance,
            treasure_room=state.layout.treasure_room,
            positions=dict(state.positions),
            chest=state.chest,
            chest_exited_with=state.chest_exited_with,
            exit_line=list(state.exit_line),
            totals=list(state.totals),
            history=[reveal.as_result() for reveal in state.history],
            trail=[
                TraceView(
                    step=t.step,
                    rumble=t.rumble,
                    character=t.character,
                    start=t.start,
                    goal=t.goal,
                    kind=t.kind,
                )
                for t in state.trail
            ],
            secret=secret,
            last_move=last_move_view(state.last_move),
        )
        return view

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        return Outcome(ranks=ranks_from_points(state.totals), points=state.totals)

    def describe(self, state: State, action: str) -> Filling:
        return read_parsed(action, parse_action, lambda parsed: describe_action(state, parsed))

    def group_of(self, action: str) -> str:
        # A move's menu entry is the character: the side (and the chest) are chosen after.
        return read_parsed(
            action,
            parse_action,
            lambda move: mover_group(move.character) if isinstance(move, Move) else action,
        )


def mover_group(character: str) -> str:
    """The menu entry for moving `character`, whichever way."""
    return f"move {character}"


RUMBLE = Rumble()

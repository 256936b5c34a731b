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
moves, checks, their words) and `scoring.py` (points, reveals, the next rumble); applying an
action and the `Game` itself are here. Outside code imports the names below from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from rules.base import (
    Applied,
    Chooser,
    Codec,
    Event,
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
from rules.phrases import Filling, Phrase, SeatName, listing, phrase, phrase_n, term
from rules.rumble import ai as rumble_ai
from rules.rumble.actions import (
    Action,
    Fight,
    Move,
    action_text,
    check,
    describe_action,
    legal_moves,
    parse_action,
)
from rules.rumble.characters import place, the
from rules.rumble.dungeon import LAYOUT_CHOICES, RANDOM, direction, make_layout, passages, tiles
from rules.rumble.observation import RumbleObservation, TraceView
from rules.rumble.scoring import character_points, fewest_points, make_reveal, set_up_rumble
from rules.rumble.state import RUMBLES, SCHEMA, TRACES_KEPT, Reveal, State, Trace

__all__ = [
    "RUMBLE",
    "RUMBLES",
    "Reveal",
    "Rumble",
    "State",
    "character_points",
]

# ---------------------------------------------------------------------------------------------
# Applying an action


def _perform(state: State, seat: int, action: Action) -> tuple[dict[str, Any], Event]:
    """What a checked action changes in the state, and the line that tells it."""
    who = SeatName(seat)
    if isinstance(action, Move):
        return _perform_move(state, who, action)
    if isinstance(action, Fight):
        room = state.positions[action.victim]
        exit_line = (*state.exit_line, action.victim)
        text = phrase(
            "{player} starts a fight in {room}: {character} is thrown out ({place} out).",
            player=who,
            room=room,
            character=the(action.victim),
            place=place(len(exit_line)),
        )
        # The chest stays where it is, even when its bearer is thrown out (house rule).
        changes: dict[str, Any] = {
            "positions": _without(state, action.victim),
            "exit_line": exit_line,
            "trail": _traced(state, action.victim, room, "", "fight"),
        }
        return changes, Event(text)
    text = phrase(
        "{player} sneaks {character} out of the dungeon with the chest!",
        player=who,
        character=the(action.character),
    )
    changes = {
        "positions": _without(state, action.character),
        "chest": None,
        "chest_exited_with": action.character,
        "trail": _traced(state, action.character, state.positions[action.character], "", "exit"),
    }
    return changes, Event(text)


def _traced(state: State, character: str, start: str, goal: str, kind: str) -> tuple[Trace, ...]:
    """The state's trail with this action's trace added (the newest TRACES_KEPT kept)."""
    trace = Trace(state.step + 1, state.rumble, character, start, goal, kind)
    return (*state.trail, trace)[-TRACES_KEPT:]


def _without(state: State, character: str) -> dict[str, str]:
    return {c: room for c, room in state.positions.items() if c != character}


def _perform_move(state: State, who: SeatName, move: Move) -> tuple[dict[str, Any], Event]:
    start = state.positions[move.character]
    goal = passages(state.layout)[start][move.side]
    positions = dict(state.positions)
    positions[move.character] = goal
    fill: dict[str, Filling] = {
        "player": who,
        "character": the(move.character),
        "direction": direction(move.side),
        "start": start,
        "goal": goal,
    }
    if move.with_chest:
        text = phrase(
            "{player} moves {character} {direction} from {start} to {goal}, taking the chest.",
            **fill,
        )
    else:
        text = phrase("{player} moves {character} {direction} from {start} to {goal}.", **fill)
    kind = "chest" if move.with_chest else "move"
    changes: dict[str, Any] = {
        "positions": positions,
        "trail": _traced(state, move.character, start, goal, kind),
    }
    if move.with_chest:
        changes["chest"] = goal
    return changes, Event(text)


def _end_rumble(state: State) -> tuple[State, list[Event]]:
    """Reveal, score, and either set up the next rumble or finish the game."""
    reveal = make_reveal(state)
    totals = tuple(t + p for t, p in zip(state.totals, reveal.points, strict=True))
    state = replace(state, totals=totals, history=(*state.history, reveal))
    events = [Event(_rumble_over_text(reveal))]
    for seat, pair in enumerate(reveal.secrets):
        events.append(Event(_seat_reveal_text(seat, pair, reveal, totals[seat])))
    if state.rumble < RUMBLES:
        candidates = fewest_points(totals)
        state = set_up_rumble(state, state.rumble + 1, candidates)
        starter = SeatName(state.starter)
        if len(candidates) > 1:
            text = phrase(
                "{player} has the fewest points (drawn at random among the tied) "
                "and starts rumble {rumble}.",
                player=starter,
                rumble=state.rumble,
            )
        else:
            text = phrase(
                "{player} has the fewest points and starts rumble {rumble}.",
                player=starter,
                rumble=state.rumble,
            )
        events.append(Event(text))
    else:
        state = replace(state, finished=True)
        events.append(Event(_winners_text(totals)))
    return state, events


def _rumble_over_text(reveal: Reveal) -> Phrase:
    last = the(reveal.last_standing)
    if reveal.chest_exited_with is None:
        return phrase(
            "Rumble {rumble} is over: {character} is the last one standing.",
            rumble=reveal.rumble,
            character=last,
        )
    return phrase(
        "Rumble {rumble} is over: {character} is the last one standing. "
        "{carrier} got away with the chest.",
        rumble=reveal.rumble,
        character=last,
        carrier=the(reveal.chest_exited_with, starting=True),
    )


def _seat_reveal_text(seat: int, pair: tuple[str, ...], reveal: Reveal, total: int) -> Phrase:
    first, second = pair  # two each (SECRETS_EACH)
    return phrase_n(
        "{player} was secretly backing {first} and {second}: {n} point for {best} (total {total}).",
        "{player} was secretly backing {first} and {second}: {n} points for {best} "
        "(total {total}).",
        reveal.points[seat],
        player=SeatName(seat),
        first=the(first),
        second=the(second),
        best=the(reveal.best[seat]),
        total=total,
    )


def _winners_text(totals: tuple[int, ...]) -> Phrase:
    top = max(totals)
    winners = [SeatName(seat) for seat, total in enumerate(totals) if total == top]
    if len(winners) == 1:
        return phrase_n(
            "{player} wins the game with {n} point!",
            "{player} wins the game with {n} points!",
            top,
            player=winners[0],
        )
    return phrase_n(
        "{players} share the win with {n} point!",
        "{players} share the win with {n} points!",
        top,
        players=listing(winners),
    )


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
        changes, event = _perform(state, seat, parsed)
        # Play passes clockwise.
        state = replace(state, step=state.step + 1, turn=(seat + 1) % state.seats, **changes)
        events = [event]
        if len(state.positions) == 1:  # one character left: the rumble is over
            state, more = _end_rumble(state)
            events += more
        return with_last_move(Applied(state, events), seat)

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
        try:
            parsed = parse_action(action)
        except IllegalAction:
            return action  # an older game's action stands for itself (see `read_parsed`)
        return describe_action(state, parsed)

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

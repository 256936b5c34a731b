"""What each Rumble action does: the phase table `PHASES` (in the shape of `rules/phases.py`)
gives the moves by action type (move, fight, exit). A rumble is the game's one phase: it ends
when a single character is left in the dungeon, and ending it reveals the secrets, scores,
and sets up the next rumble or finishes the game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.base import next_seat
from rules.phases import Phase, Phases, Turn, play
from rules.phrases import Filling, Phrase, SeatName, listing, phrase, phrase_n
from rules.rumble.actions import Action, Exit, Fight, Move
from rules.rumble.characters import place, the
from rules.rumble.dungeon import direction, passages
from rules.rumble.scoring import fewest_points, make_reveal, set_up_rumble
from rules.rumble.state import RUMBLES, TRACES_KEPT, Reveal, State, Trace

RUMBLE_PHASE = "rumble"  # the one phase (the state keeps no phase of its own)


def _moved(t: Turn[State], seat: int, text: Phrase, **changes: Any) -> None:
    """A move's changes to the state and the line that tells it; play passes clockwise."""
    state = t.state
    t.state = replace(state, step=state.step + 1, turn=next_seat(state.seats, seat), **changes)
    t.say(text)


def perform(state: State, seat: int, action: Action) -> Turn[State]:
    """Apply one checked action: a move of the rumble phase (`PHASES`)."""
    turn = Turn(state)
    play(PHASES, RUMBLE_PHASE, turn, seat, action)
    return turn


# ---------------------------------------------------------------------------------------------
# The moves


def _move(t: Turn[State], seat: int, move: Move) -> None:
    state = t.state
    start = state.positions[move.character]
    goal = passages(state.layout)[start][move.side]
    positions = dict(state.positions)
    positions[move.character] = goal
    fill: dict[str, Filling] = {
        "player": SeatName(seat),
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
    _moved(t, seat, text, **changes)


def _fight(t: Turn[State], seat: int, fight: Fight) -> None:
    state = t.state
    room = state.positions[fight.victim]
    exit_line = (*state.exit_line, fight.victim)
    text = phrase(
        "{player} starts a fight in {room}: {character} is thrown out ({place} out).",
        player=SeatName(seat),
        room=room,
        character=the(fight.victim),
        place=place(len(exit_line)),
    )
    # The chest stays where it is, even when its bearer is thrown out (house rule).
    _moved(
        t,
        seat,
        text,
        positions=_without(state, fight.victim),
        exit_line=exit_line,
        trail=_traced(state, fight.victim, room, "", "fight"),
    )


def _exit(t: Turn[State], seat: int, leaving: Exit) -> None:
    state = t.state
    text = phrase(
        "{player} sneaks {character} out of the dungeon with the chest!",
        player=SeatName(seat),
        character=the(leaving.character),
    )
    _moved(
        t,
        seat,
        text,
        positions=_without(state, leaving.character),
        chest=None,
        chest_exited_with=leaving.character,
        trail=_traced(state, leaving.character, state.positions[leaving.character], "", "exit"),
    )


def _traced(state: State, character: str, start: str, goal: str, kind: str) -> tuple[Trace, ...]:
    """The state's trail with this action's trace added (the newest TRACES_KEPT kept)."""
    trace = Trace(state.step + 1, state.rumble, character, start, goal, kind)
    return (*state.trail, trace)[-TRACES_KEPT:]


def _without(state: State, character: str) -> dict[str, str]:
    return {c: room for c, room in state.positions.items() if c != character}


def _end_rumble(t: Turn[State]) -> None:
    """Reveal, score, and either set up the next rumble or finish the game."""
    state = t.state
    reveal = make_reveal(state)
    totals = tuple(t + p for t, p in zip(state.totals, reveal.points, strict=True))
    state = replace(state, totals=totals, history=(*state.history, reveal))
    t.say(_rumble_over_text(reveal))
    for seat, pair in enumerate(reveal.secrets):
        t.say(_seat_reveal_text(seat, pair, reveal, totals[seat]))
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
        t.say(text)
    else:
        state = replace(state, finished=True)
        t.say(_winners_text(totals))
    t.state = state


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


def _one_left(t: Turn[State]) -> bool:
    return len(t.state.positions) == 1


PHASES: Phases[Turn[State]] = {
    RUMBLE_PHASE: Phase({Move: _move, Fight: _fight, Exit: _exit}, ends=_one_left, end=_end_rumble),
}

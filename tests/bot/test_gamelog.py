"""`/game log`'s rebuild (bot/gamelog.py): the public lines of a game so far, as the boards
wrote them, and never a line meant for one seat (a card drawn into a hand)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.gamelog import Moves, public_lines
from bot.games import GAMES
from bot.requests import format_event
from rules.base import Event

NAMES = ["Ann", "Bob", "Zoë"]


def played(kind: str, seats: int, steps: int, seed: int) -> tuple[Moves, list[Event]]:
    """A game played at random for `steps` actions: its moves and every event it caused."""
    engine, rng = GAMES[kind], random.Random(seed)
    state = engine.new_game(seats, {}, seed)
    events, actions = list(engine.opening_events(state)), []
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        applied = engine.apply(state, seat, action)
        state, events = applied.state, events + applied.events
        actions.append((seat, action))
    return Moves(kind, seats, {}, seed, actions, NAMES[:seats]), events


def test_the_log_is_every_public_line_and_no_private_one() -> None:
    moves, events = played("trashwar", 3, 60, seed=4)
    lines = public_lines(moves)
    private = [format_event(e, moves.names) for e in events if e.to is not None]
    assert private and any("You draw" in line for line in private)  # hands were dealt to
    assert lines == [format_event(e, moves.names) for e in events if e.to is None]
    assert not set(private) & set(lines)


def test_a_move_the_rules_now_refuse_ends_the_log_there() -> None:
    moves, _ = played("rumble", 2, 6, seed=2)
    kept = replace(moves, actions=moves.actions[:3])
    broken = replace(moves, actions=[*kept.actions, (0, "no such move"), *moves.actions[3:]])
    assert public_lines(kept) and public_lines(broken) == public_lines(kept)

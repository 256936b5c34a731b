"""The replay stepper's words (issue 38, item 6): each frame's lines are the public events
(`to` None) of the actions since the board before it, in order, and never a line meant for
one seat. Games played with random legal actions, straight through the engines."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.games import GAMES
from bot.replays import GameLog, ReplayRefused, rebuild, turn_starts
from rules.phrases import Filling, english


def played(kind: str, seed: int) -> tuple[GameLog, list[Filling], set[str]]:
    """A whole game of random legal actions: its log (every step shown), its public lines
    in order, and the texts of its private ones that no public line shares."""
    engine = GAMES[kind]
    rng = random.Random(seed)
    state = engine.new_game(3, {}, seed)
    actions, public, private = [], [], set()
    while engine.outcome(state) is None:
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        actions.append((engine.step(state), seat, action))
        applied = engine.apply(state, seat, action)
        public += [event.text for event in applied.events if event.to is None]
        private |= {english(event.text) for event in applied.events if event.to is not None}
        state = applied.state
    log = GameLog(1, kind, 3, {}, seed, actions, [], engine.to_json(state))
    return log, public, private - {english(line) for line in public}


@pytest.mark.parametrize("kind", ["trashwar", "brawl"])
def test_each_frame_says_what_happened_in_public_words_only(kind: str) -> None:
    log, public, private = played(kind, seed=7)
    assert private  # secrets to keep: cards drawn, hands peeked at
    frames = rebuild(log)
    assert [line for frame in frames for line in frame.lines] == public
    # Boards shown only now and then (a turn's last): each gathers the lines since the one
    # before, so nothing is lost between them.
    steps = [frame.step for frame in frames]
    shown = [*steps[:1], *steps[1::5], *steps[-1:]]
    sparse = rebuild(replace(log, shown=sorted(set(shown))))
    assert [line for frame in sparse for line in frame.lines] == public
    assert not private & {english(line) for frame in sparse for line in frame.lines}
    assert turn_starts(sparse)[0] == 0


def test_a_game_saved_before_its_state_gained_a_field_still_replays() -> None:
    """(replays: a finished game stays watchable) a Trash War saved before its state kept
    the recycled pile, or begun before and saved after, replays as it was played; one
    whose saved end differs is refused."""
    log, _, _ = played("trashwar", seed=7)
    assert log.final["reshuffled"], "the war went through a recycling"
    older = {key: value for key, value in log.final.items() if key != "reshuffled"}
    assert rebuild(replace(log, final=older))
    # Begun before the field and saved after it: the field was read back empty.
    assert rebuild(replace(log, final={**older, "reshuffled": []}))
    changed = {**older, "turns": older["turns"] + 1}
    with pytest.raises(ReplayRefused):
        rebuild(replace(log, final=changed))

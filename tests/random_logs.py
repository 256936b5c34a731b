"""Random games kept as the bot keeps them, to replay: for tests of `/game replay` and
for bench/replay_sizes.py, which measures replays of the longest."""

from __future__ import annotations

import random

from bot.replays import GameLog
from rules.base import AnyGame

# The longest names Discord allows (32 characters), with emoji and wide letters.
NAMES = [
    "🗑️ Annabelle-Marguerite Trashcan",
    "Bartholomew the Bin-Diver 🦝🦝🦝",
    "Цветана Мусорщикова-Контейнерова",
    "ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ箱の王様ゴミ",
    "Wolfgang Amadeus Dumpsterfire 🔥",
    "Ξανθίππη Σκουπιδοτενεκέ Πρώτη 🐀",
]


def game_log(game: AnyGame, seed: int) -> GameLog:
    """The random game `seed` as the bot keeps it: every action, and a board at every step."""
    rng = random.Random(seed)
    state = game.new_game(game.max_seats, {}, seed)
    actions, shown = [], [game.step(state)]
    while game.outcome(state) is None:
        (seat, *_) = sorted(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        actions.append((game.step(state), seat, action))
        state = game.apply(state, seat, action).state
        shown.append(game.step(state))
    return GameLog(
        id=seed,
        kind=game.key,
        seats=game.max_seats,
        options={},
        seed=seed,
        actions=actions,
        shown=shown,
        final=game.to_json(state),
    )

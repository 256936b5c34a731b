"""The games a benchmark measures: every game plug-in the bot would load, found the way
the bot finds them (`bot.extensions.walk_extensions`), never a list written by hand.

A plug-in kept outside `cogs/` counts when named in EXTRA_EXTENSIONS, as for the bot
(`EXTRA_EXTENSIONS=tests.plugin_game python -m bench --only lastlid`); the bot processes a
tool starts inherit the variable, so they offer the same games. What a tool needs to know of
a game is read from its plug-in: its engine, its presenter's pictures and controls.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Mapping
from typing import Any

from bot.extensions import walk_extensions
from cogs.shared.plugin import PLUGINS, GamePlugin
from rules.base import AnyGame

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Fred"]


@functools.cache
def plugins() -> dict[str, GamePlugin]:
    """Every game plug-in, by key, sorted: importing the extensions registers them."""
    extra = os.environ.get("EXTRA_EXTENSIONS", "")
    walk_extensions("cogs", [name.strip() for name in extra.split(",") if name.strip()])
    return dict(sorted(PLUGINS.items()))


def keys() -> list[str]:
    return list(plugins())


def board_file(key: str) -> str:
    """The file name of the picture a game's board message carries (`dungeon.png`): a
    board is told apart from the channel's other messages by it."""
    plugin = plugins()[key]
    game = plugin.engine
    state = game.new_game(game.min_seats, {}, 0)
    names = NAMES[: game.min_seats]
    return plugin.presenter.board(game.observe(state, None), names, 0)[0].filename


def ways(game: AnyGame) -> list[dict[str, str]]:
    """The ways to play a game its options declare (Dumpster Brawl!'s modes), each to be
    measured apart; one way, the defaults, for a game with none."""
    for option in game.options:
        if option.ways:
            return [{option.name: choice} for choice in option.choices]
    return [{}]


def seats_for(game: AnyGame, seed: int) -> int:
    """3 up to the game's most players, cycling with the seed (Toss It: 3 to 5)."""
    low = max(3, game.min_seats)
    return low + seed % (game.max_seats - low + 1)


def random_game(
    game: AnyGame,
    seats: int,
    seed: int,
    on_state: Callable[[Any], None] | None = None,
    options: Mapping[str, str] | None = None,
) -> tuple[int, int, bool]:
    """One game of uniformly random legal actions: (actions, of which drops into the bin,
    whether every seat tied: in Dumpster Brawl! that is a game worn out at the turn limit)."""
    rng = random.Random(seed)
    state = game.new_game(seats, options or {}, seed)
    steps = drops = 0
    while game.outcome(state) is None:
        (seat, *_) = sorted(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action).state
        steps += 1
        drops += action.startswith("place ")  # Toss It only: each one is a simulated drop
        if on_state is not None:
            on_state(state)
    outcome = game.outcome(state)
    return steps, drops, outcome is not None and not any(outcome.ranks)


def engine(key: str) -> AnyGame:
    """The engine of game `key` (in a worker process too: the registry is made again there
    from the same extensions)."""
    return plugins()[key].engine


if __name__ == "__main__":  # `python -m bench.games`: the keys, for the Makefile's loops
    print(*keys())

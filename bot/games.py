"""Which games the bot offers: engine key -> engine.

Every package under `rules/` that exposes a `Game` instance is a game; nothing lists them
by hand (the way OpenSpiel's games register themselves). A game whose engine lives
elsewhere (a plug-in in another package, such as the tests' own small game) calls
`register_game` when it is imported.
"""

from __future__ import annotations

import importlib
import pkgutil

import rules
from rules.base import AnyGame, Game

GAMES: dict[str, AnyGame] = {}


def register_game(game: AnyGame) -> None:
    """Offer `game`. The same engine made again (its extension reloaded) takes its place;
    a different engine under a key already taken is a mistake."""
    known = GAMES.setdefault(game.key, game)
    if _name(known) != _name(game):
        raise ValueError(f"two games use the key {game.key!r}: {_name(known)} and {_name(game)}")
    GAMES[game.key] = game


def _name(game: AnyGame) -> str:
    return f"{type(game).__module__}.{type(game).__qualname__}"


def _walk_rules() -> None:
    for found in pkgutil.iter_modules(rules.__path__, "rules."):
        if not found.ispkg:
            continue  # shared modules (base, words); each game is a package
        package = importlib.import_module(found.name)
        for name in getattr(package, "__all__", ()):
            value = getattr(package, name)
            if isinstance(value, Game):
                register_game(value)


_walk_rules()

# Names for AI seats, in the order they are handed out.
AI_NAMES = ("Rusty", "Grime", "Mopsy", "Soggy", "Clank", "Fumes", "Crumbs", "Gristle")


def ai_name(taken: set[str]) -> str:
    for name in AI_NAMES:
        label = f"{name} (AI)"
        if label not in taken:
            return label
    return f"AI {len(taken) + 1}"

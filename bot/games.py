"""Which games the bot offers: engine key -> engine. Cogs add their presentation on top."""

from __future__ import annotations

from rules.base import Game
from rules.brawl import BRAWL
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR

GAMES: dict[str, Game] = {game.key: game for game in (RUMBLE, TRASH_WAR, BRAWL, TOSS)}

# Names for AI seats, in the order they are handed out.
AI_NAMES = ("Rusty", "Grime", "Mopsy", "Soggy", "Clank", "Fumes", "Crumbs", "Gristle")


def ai_name(taken: set[str]) -> str:
    for name in AI_NAMES:
        label = f"{name} (AI)"
        if label not in taken:
            return label
    return f"AI {len(taken) + 1}"

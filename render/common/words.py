"""Words every game's pictures use: a seat's name, its colour, a count of things, and a list
said in English."""

from __future__ import annotations

from render.common.palette import PLAYER_COLOURS, Colour
from render.common.text import display_name


def player_name(names: list[str], seat: int) -> str:
    """A seat's display name as drawn, or "Player N" where there is none to draw."""
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def plural(count: int, word: str) -> str:
    """'1 card', '2 cards'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def and_list(items: list[str]) -> str:
    """'', 'a', 'a and b', 'a, b and c'."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

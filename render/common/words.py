"""Words every game's pictures use: a seat's name, its colour, a count of things, and a list
said in English."""

from __future__ import annotations

from render.common.palette import PLAYER_COLOURS, Colour
from render.common.text import display_name
from rules.words import and_list, counted

__all__ = ["and_list", "player_colour", "player_name", "plural"]


def player_name(names: list[str], seat: int) -> str:
    """A seat's display name as drawn, or "Player N" where there is none to draw."""
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def plural(count: int, word: str) -> str:
    """'1 card', '2 cards', '3 mice' (`rules.words.counted`)."""
    return counted(count, word)

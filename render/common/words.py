"""Words every game's pictures use: a seat's name and its colour. Counts and lists in
English come from `rules.words` (`counted`, `and_list`)."""

from __future__ import annotations

from lang import say
from render.common.palette import PLAYER_COLOURS, Colour
from render.common.text import display_name
from rules.phrases import language_of, phrase


def player_name(names: list[str], seat: int) -> str:
    """A seat's display name as drawn, or "Player N" where there is none to draw (in the
    language of `names`, a `Readers`)."""
    fallback = say(phrase("Player {n}", n=seat + 1), language_of(names))
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]

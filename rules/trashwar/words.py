"""Trash War's words that several parts say: the walls' names and a short list's joining.
Pictures read this module too (the engine's other modules are not theirs to read)."""

from __future__ import annotations

from rules.phrases import Filling, Phrase, SeatName, phrase, phrase_in, term

WALL_NAMES = ("left", "middle", "right")  # the walls in actions and observations
# A wall as sentences name it ("{player}'s {wall}", "your {wall}"), and as a label names it.
WALL_WORDS = (term("wall", "left wall"), term("wall", "middle wall"), term("wall", "right wall"))
WALL_LABELS = (
    term("wall position", "left"),
    term("wall position", "middle"),
    term("wall position", "right"),
)


def wall_words(wall: int) -> Phrase:
    """ "left wall", said as a wall of someone's ("your left wall")."""
    return phrase_in("wall", WALL_WORDS[wall])


def wall_of(seat: int, wall: int) -> Phrase:
    """ "{p1}'s left wall"."""
    return phrase("{player}'s {wall}", player=SeatName(seat), wall=wall_words(wall))


def joined(items: list[Filling], comma: bool = True) -> Filling:
    """Short items one after another, "a, b, c" (or "a; b; c" with `comma` False): a
    button's clipped wording or a picture's line, where "and" would not fit."""
    if len(items) == 1:
        return items[0]
    rest = joined(items[1:], comma)
    if comma:
        return phrase("{first}, {rest}", first=items[0], rest=rest)
    return phrase("{first}; {rest}", first=items[0], rest=rest)

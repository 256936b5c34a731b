"""The shared palette: the colour, box and size types, the dungeon-stone colours, the seat
colours used in every game, ink for a background and shades of a colour, and `Picture`, a
finished picture ready to attach to a message.
"""

from __future__ import annotations

from typing import Literal

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)
Size = tuple[int, int]  # width, height
Align = Literal["left", "center", "right"]

SUPERSAMPLE = 4  # how much larger curved masks are drawn before shrinking

# A dark dungeon-stone palette with warm torch light.
BACKDROP: Colour = (28, 25, 24)  # the rock around everything
STONE: Colour = (64, 60, 56)
STONE_DARK: Colour = (42, 39, 37)
STONE_LIGHT: Colour = (96, 90, 82)
PANEL: Colour = (36, 33, 31)
PANEL_EDGE: Colour = (88, 72, 52)
INK: Colour = (238, 230, 214)  # main text: warm off-white
MUTED: Colour = (165, 154, 138)  # secondary text
DARK_INK: Colour = (30, 24, 18)  # text on light backgrounds
TORCH: Colour = (244, 186, 72)  # headings and the treasure
EMBER: Colour = (214, 110, 40)
HIGHLIGHT: Colour = (240, 176, 64)  # whose turn it is
TITLE_BG: Colour = (22, 19, 18)

# Seat colours, the same in every game (the rulebooks' red, blue, green, yellow, purple and
# white markers). Chosen to differ in lightness too, for colour-blind players.
PLAYER_COLOURS: list[Colour] = [
    (222, 70, 58),  # red
    (66, 135, 225),  # blue
    (72, 178, 90),  # green
    (240, 206, 60),  # yellow
    (168, 98, 206),  # purple
    (226, 226, 226),  # white
]
PLAYER_COLOUR_NAMES = ["red", "blue", "green", "yellow", "purple", "white"]


def ink_for(background: Colour) -> Colour:
    """Dark or light text, whichever reads better on `background`."""
    red, green, blue = background
    return DARK_INK if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else INK


def shade(colour: Colour, factor: float) -> Colour:
    """Darker (factor < 1) or lighter (factor > 1) version of `colour`."""
    if factor <= 1:
        return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))
    lift = factor - 1
    return (
        round(colour[0] + (255 - colour[0]) * lift),
        round(colour[1] + (255 - colour[1]) * lift),
        round(colour[2] + (255 - colour[2]) * lift),
    )

"""The frame of a player's own picture, the one sent to them alone (their hand, their secret):
the backdrop under a title bar that says whose it is, and the panel that stands where the
cards would be when they hold none.
"""

from __future__ import annotations

from PIL import Image

from render.common.palette import BACKDROP, MUTED, PANEL, PANEL_EDGE, Box, Size
from render.common.shapes import rounded_box, title_bar
from render.common.text import cached_text_in_box


def own_picture(size: Size, title: str, note: str) -> Image.Image:
    """A blank picture of `size` under a title bar: `title` on the left and `note` (whose it
    is, and how many cards) on the right."""
    image = Image.new("RGB", size, BACKDROP)
    title_bar(image, title, note, 44, 22)
    return image


def no_cards(
    image: Image.Image, box: Box, radius: int, size: int, words: str = "No cards in hand"
) -> None:
    """The panel that fills `box` when there are no cards to show, its `words` (said in
    the reader's language by the caller) `size` high."""
    rounded_box(image, box, radius, PANEL, PANEL_EDGE, 2)
    cached_text_in_box(image, box, words, size, MUTED)

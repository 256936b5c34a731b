"""Rumble's cached sprites: a character's token (its colour and mark in a disc) and the
treasure chest, and pasting them onto a picture.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH
from render.common import SUPERSAMPLE, font, ink_for
from render.common.record import note, noting
from render.rumble.layout import (
    CHARACTER_COLOURS,
    CHEST_GOLD,
    CHEST_LID,
    CHEST_WOOD,
    WALL_EDGE,
    character_mark,
)

# --- sprites ----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _token(key: str, diameter: int, language: str) -> Image.Image:
    """A character token: a coloured disc with a dark rim, its two-letter mark, a shadow."""
    k = SUPERSAMPLE
    size = (diameter + 3) * k
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    colour = CHARACTER_COLOURS.get(key, (150, 150, 150))
    draw.ellipse((2 * k, 3 * k, size - 1, size - 1), fill=(0, 0, 0, 110))  # shadow
    rim = max(1, diameter // 14) * k
    draw.ellipse((0, 0, diameter * k - 1, diameter * k - 1), fill=(*WALL_EDGE, 255))
    draw.ellipse((rim, rim, diameter * k - rim - 1, diameter * k - rim - 1), fill=(*colour, 255))
    mark = character_mark(key, language)
    centre = diameter * k / 2
    draw.text(
        (centre, centre),
        mark,
        font=font(mark_size(diameter) * k),
        fill=ink_for(colour),
        anchor="mm",
    )
    return sprite.reduce(k)


@lru_cache(maxsize=8)
def _chest(width: int) -> Image.Image:
    """A small treasure chest: arched wooden lid, darker body, gold corners and lock."""
    k = SUPERSAMPLE
    w, h = width * k, int(width * 0.8) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    edge, gold, line = (*WALL_EDGE, 255), (*CHEST_GOLD, 255), max(k, w // 24)
    lid_h = h * 9 // 20
    draw.rounded_rectangle(
        (0, 0, w - 1, lid_h * 2), radius=w // 4, fill=(*CHEST_LID, 255), outline=edge, width=line
    )
    draw.rectangle((0, lid_h, w - 1, h - 1), fill=(*CHEST_WOOD, 255), outline=edge, width=line)
    trim = w // 8
    for x in (line, w - line - trim):  # gold corner bands over lid and body
        draw.rectangle((x, lid_h // 3, x + trim, h - line - 1), fill=gold)
    draw.rectangle((line, lid_h - line, w - line - 1, lid_h + line), fill=edge)  # the seam
    lock_w, lock_h = w // 6, h // 4
    lock = (w // 2 - lock_w // 2, lid_h - lock_h // 3, w // 2 + lock_w // 2, lid_h + lock_h)
    draw.rectangle(lock, fill=gold, outline=edge, width=max(1, line // 2))
    key_x, key_y = w // 2, lid_h + lock_h // 3
    draw.ellipse((key_x - line, key_y - line, key_x + line, key_y + line), fill=edge)
    return sprite.reduce(k)


def mark_size(diameter: int) -> int:
    """The font size of a token's two-letter mark."""
    return round(diameter * 0.52)


def paste_token(
    image: Image.Image,
    key: str,
    centre: tuple[int, int],
    diameter: int,
    language: str = ENGLISH,
) -> None:
    sprite = _token(key, diameter, language)
    left, top = centre[0] - diameter // 2, centre[1] - diameter // 2
    image.paste(sprite, (left, top), sprite)
    if noting():  # the mark is drawn inside the cached sprite: noted at each paste
        mark = character_mark(key, language)
        note("text", (left, top, left + diameter, top + diameter), mark, mark_size(diameter))


def paste_chest(image: Image.Image, left: int, top: int, width: int) -> None:
    sprite = _chest(width)
    image.paste(sprite, (left, top), sprite)

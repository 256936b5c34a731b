"""The generic playing card of the card games: a face (header, art box, name and value on old
parchment), a back with a brass frame, and pasting either onto a picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common.palette import EMBER, SUPERSAMPLE, TORCH, Box, Colour, Size, ink_for, shade
from render.common.shapes import rounded_box, rounded_mask
from render.common.text import text_in_box

# --- cards ------------------------------------------------------------------------------
#
# A generic playing card for the card games: a rounded card with a coloured header band
# (title on the left, corner marks such as torches on the right), a big value in the middle
# (or room there for a game's own icon, see `card_art_box`), a caption and a footer line.
# Card images are cached by face and size, so a hand is a few pastes after the first draw.

CARD_PAPER: Colour = (236, 225, 198)  # the face: old parchment
CARD_EDGE: Colour = (26, 21, 18)
CARD_BACK: Colour = (112, 44, 36)  # the back: oxblood with a brass frame
CARD_BACK_TRIM: Colour = (201, 152, 72)


@dataclass(frozen=True)
class CardFace:
    """What one card shows; every field is plain data, so faces can key a cache."""

    title: str
    """The header band's text ("TRASH")."""
    header: Colour
    """The header band's colour: the card's kind at a glance."""
    value: str = ""
    """Big text in the middle ("4"); empty leaves the middle for an icon."""
    caption: str = ""
    """Under the value: the card's name ("grand piano")."""
    footer: str = ""
    """The smallest line, at the bottom ("damage")."""
    marks: int = 0
    """Corner marks at the header's right (flames: Trash War's torches)."""
    body: Colour = CARD_PAPER


def card_radius(width: int) -> int:
    return max(3, width // 12)


def card_header_height(height: int) -> int:
    return max(8, round(height * 0.15))


CAPTION_SHARE = 0.085  # of the card's height: the caption's font size (0.12 on small cards)


def card_art_box(width: int, height: int, least: int = 0) -> Box:
    """Where a card's value or icon sits, relative to the card's top-left corner: above the
    caption, or the whole face under the header when the caption is too small to be drawn
    (`least`, see `card_image`)."""
    header = card_header_height(height)
    top = header + max(2, height // 40)
    share = CAPTION_SHARE if width >= 80 else 0.12
    if max(8, round(height * share)) < least:
        return (width // 10, top, width - width // 10, height - max(3, height // 14))
    bottom = round(height * 0.66) if width >= 80 else round(height * 0.8)
    return (width // 10, top, width - width // 10, bottom)


@lru_cache(maxsize=64)
def flame_mark(size: int, fill: Colour = EMBER, core: Colour = TORCH) -> Image.Image:
    """A small flame (RGBA, `size` square): a torch mark for a card's corner."""
    k = SUPERSAMPLE
    big = size * k
    sprite = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)

    def flame(scale: float, colour: Colour) -> None:
        w, h = big * 0.62 * scale, big * 0.92 * scale
        cx, bottom = big / 2, big * 0.97
        top = bottom - h
        draw.ellipse((cx - w / 2, bottom - w, cx + w / 2, bottom), fill=(*colour, 255))
        draw.polygon(
            [(cx - w / 2, bottom - w / 2), (cx + w * 0.05, top), (cx + w / 2, bottom - w / 2)],
            fill=(*colour, 255),
        )

    flame(1.0, CARD_EDGE)
    flame(0.82, fill)
    flame(0.45, core)
    return sprite.reduce(k)


@lru_cache(maxsize=1024)
def card_image(face: CardFace, width: int, height: int, least: int = 0) -> Image.Image:
    """The card as an RGBA image of `width` x `height` (smooth rounded corners).

    `least`: the smallest legible font size on the picture the card goes on. A line of the
    face that would be drawn smaller is left off: too small to read, it is noise, and the
    picture says what matters beside the card."""
    card = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    radius = card_radius(width)
    edge = max(1, width // 60)
    rounded_box(card, (0, 0, width, height), radius, CARD_EDGE)
    inner_w, inner_h = width - 2 * edge, height - 2 * edge
    inner_r = max(1, radius - edge)
    card.paste(face.body, (edge, edge), rounded_mask(inner_w, inner_h, inner_r))
    header = card_header_height(height)
    head_mask = rounded_mask(inner_w, inner_h, inner_r).copy()
    ImageDraw.Draw(head_mask).rectangle((0, header - edge, inner_w, inner_h), fill=0)
    card.paste(face.header, (edge, edge), head_mask)
    ImageDraw.Draw(card).line(
        (edge, header, width - edge - 1, header), fill=shade(face.header, 0.55), width=1
    )
    ink = ink_for(face.header)
    mark_size = max(6, round(header * 0.72))
    marks_w = face.marks * (mark_size - 1)
    for index in range(face.marks):
        mark = flame_mark(mark_size)
        x = width - edge - 3 - marks_w + index * (mark_size - 1)
        card.alpha_composite(mark, (x, (header - mark_size) // 2 + 1))
    pad = max(3, width // 16)
    title_right = width - pad - marks_w - (2 if face.marks else 0)
    title_size = max(7, round(header * 0.62))
    if face.title and title_right - pad > 12 and title_size >= least:
        text_in_box(
            card,
            (pad, 1, title_right, header),
            face.title,
            title_size,
            ink,
            "left",
            max(6, least),
            bold=True,
        )
    paper_ink = ink_for(face.body)
    art = card_art_box(width, height, least)
    if face.value:
        value_size = round((art[3] - art[1]) * 0.82)
        text_in_box(card, art, face.value, value_size, paper_ink, min_size=8, bold=width >= 60)
    lines = [(face.caption, CAPTION_SHARE, paper_ink), (face.footer, 0.062, shade(paper_ink, 1.6))]
    if width < 80:  # small cards: the caption alone, if anything
        lines = [(face.caption, 0.12, paper_ink)]
    top = art[3] + max(1, height // 60)
    for text, share, colour in lines:
        size = max(8, round(height * share))
        if text and size >= least:
            text_in_box(card, (pad, top, width - pad, top + size + 6), text, size, colour,
                        min_size=max(7, least))  # fmt: skip
        top += size + max(3, height // 40)
    return card


def paste_card(image: Image.Image, face: CardFace, left: int, top: int, size: Size) -> None:
    """Draw the card with its top-left corner at (`left`, `top`); `size` is (width, height)."""
    sprite = card_image(face, size[0], size[1])
    image.paste(sprite, (left, top), sprite)


@lru_cache(maxsize=64)
def card_back_image(
    width: int, height: int, colour: Colour = CARD_BACK, trim: Colour = CARD_BACK_TRIM
) -> Image.Image:
    """The back of a card (RGBA): `colour` with a `trim` frame and, when large, a diamond."""
    card = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    radius = card_radius(width)
    rounded_box(card, (0, 0, width, height), radius, CARD_EDGE)
    edge = max(1, width // 14)
    rounded_box(card, (1, 1, width - 1, height - 1), max(1, radius - 1), trim)
    rounded_box(card, (edge + 1, edge + 1, width - edge - 1, height - edge - 1), 2, colour)
    if width >= 28:
        cx, cy, r = width / 2, height / 2, width * 0.22
        ImageDraw.Draw(card).polygon(
            [(cx, cy - r * 1.4), (cx + r, cy), (cx, cy + r * 1.4), (cx - r, cy)],
            fill=(*trim, 255),
            outline=(*CARD_EDGE, 255),
        )
    return card


def paste_card_back(image: Image.Image, left: int, top: int, size: Size) -> None:
    sprite = card_back_image(size[0], size[1])
    image.paste(sprite, (left, top), sprite)

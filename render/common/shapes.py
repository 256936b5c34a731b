"""Shapes for every picture: anti-aliased rounded boxes and discs through masks drawn larger
and shrunk once (cached), the title bar, and the arrow of a last move.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common.palette import EMBER, INK, SUPERSAMPLE, TITLE_BG, TORCH, Box, Colour
from render.common.text import text_in_box

# --- shapes -----------------------------------------------------------------------------


def see_through(sprite: Image.Image, share: float) -> Image.Image:
    """A copy of an RGBA `sprite` at `share` of its opacity: a ghost, or a card or die
    dimmed by what is behind it."""
    faded = sprite.copy()
    faded.putalpha(sprite.getchannel("A").point(lambda a: round(a * share)))
    return faded


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: int, alpha: int = 255) -> Image.Image:
    """A smooth-edged rounded-rectangle mask ("L" mode), `alpha` inside."""
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * SUPERSAMPLE - 1, height * SUPERSAMPLE - 1),
        radius=radius * SUPERSAMPLE,
        fill=alpha,
    )
    return big.reduce(SUPERSAMPLE)


@lru_cache(maxsize=512)
def rounded_parts(width: int, height: int, radius: int) -> list[tuple[Box, Image.Image | None]]:
    """The opaque `rounded_mask` in pieces to paste a colour through: the bands of rows and
    of columns that are wholly inside (no mask needed), and the four corners with their
    part of the mask. A small box is one piece, the whole mask: one paste is quicker."""
    mask = rounded_mask(width, height, radius)
    if width * height < 8000:
        return [((0, 0, width, height), mask)]
    pixels = mask.tobytes()
    inside = b"\xff" * width
    rows = [y for y in range(height) if pixels[y * width : (y + 1) * width] == inside]
    column_sums = [sum(pixels[x::width]) for x in range(width)]
    columns = [x for x in range(width) if column_sums[x] == 255 * height]
    if not rows or not columns:
        return [((0, 0, width, height), mask)]
    top, bottom = rows[0], rows[-1] + 1
    left, right = columns[0], columns[-1] + 1
    corners = [
        (0, 0, left, top),
        (right, 0, width, top),
        (0, bottom, left, height),
        (right, bottom, width, height),
    ]
    parts: list[tuple[Box, Image.Image | None]] = [
        ((0, top, width, bottom), None),
        ((left, 0, right, height), None),
    ]
    parts += [(c, mask.crop(c)) for c in corners if c[2] > c[0] and c[3] > c[1]]
    return parts


def rounded_box(
    image: Image.Image,
    box: Box,
    radius: int,
    fill: Colour,
    outline: Colour | None = None,
    width: int = 2,
    alpha: int = 255,
) -> None:
    """A filled rounded box with smooth corners; `alpha` < 255 lets what is below show."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    if w <= 0 or h <= 0:
        return
    radius = min(radius, w // 2, h // 2)
    if outline is None:
        if alpha < 255:
            image.paste(fill, (left, top), rounded_mask(w, h, radius, alpha))
            return
        # Blending through a mask is slow; only the corners need it (same pixels).
        for (x0, y0, x1, y1), mask in rounded_parts(w, h, radius):
            image.paste(fill, (left + x0, top + y0, left + x1, top + y1), mask)
        return
    # The whole box in the outline colour, then the inside over it.
    rounded_box(image, box, radius, outline, alpha=alpha)
    inner = (left + width, top + width, right - width, bottom - width)
    rounded_box(image, inner, max(0, radius - width), fill, alpha=alpha)


def disc(
    image: Image.Image,
    centre: tuple[int, int],
    diameter: int,
    fill: Colour,
    outline: Colour | None = None,
    width: int = 2,
) -> None:
    """A smooth filled circle."""
    x, y = centre
    left, top = x - diameter // 2, y - diameter // 2
    box = (left, top, left + diameter, top + diameter)
    rounded_box(image, box, diameter // 2, fill, outline, width)


def title_bar(
    image: Image.Image,
    title: str,
    right_text: str = "",
    height: int = 48,
    size: int = 24,
) -> None:
    """A dark band across the top with a torch-gold title and an optional note on the right."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, image.width, height - 1), fill=TITLE_BG)
    draw.rectangle((0, height - 3, image.width, height - 1), fill=EMBER)
    note_width = 0
    if right_text:
        note_box = (image.width // 2, 0, image.width - 16, height - 3)
        note_width = text_in_box(image, note_box, right_text, size - 4, INK, "right", size - 8)
    title_box = (16, 0, image.width - 32 - note_width, height - 3)
    text_in_box(image, title_box, title, size, TORCH, "left", size - 8, bold=True)


ARROW_WIDTH = 7
HEAD = 18  # the arrowhead's length and half its width, about


def arrow(
    image: Image.Image,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: Colour,
    insets: tuple[float, float] = (34, 30),
) -> None:
    """A smooth arrow from `start` to `end`, its head at `end`, with a dark edge. It
    starts and stops `insets` short of the two points, so what sits there stays readable."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    x0, y0 = x0 + ux * insets[0], y0 + uy * insets[0]
    x1, y1 = x1 - ux * insets[1], y1 - uy * insets[1]
    left = int(min(x0, x1) - HEAD - 4)
    top = int(min(y0, y1) - HEAD - 4)
    width = int(max(x0, x1) + HEAD + 4) - left
    height = int(max(y0, y1) + HEAD + 4) - top
    k = SUPERSAMPLE

    def mask(grow: float) -> Image.Image:
        big = Image.new("L", (width * k, height * k), 0)
        draw = ImageDraw.Draw(big)
        tip = ((x1 - left) * k, (y1 - top) * k)
        base = ((x1 - left - ux * HEAD) * k, (y1 - top - uy * HEAD) * k)
        draw.line(
            ((x0 - left) * k, (y0 - top) * k, *base),
            fill=255,
            width=round((ARROW_WIDTH + grow) * k),
        )
        side = (HEAD * 0.75 + grow / 2) * k
        draw.polygon(
            [
                (tip[0] + ux * grow * k, tip[1] + uy * grow * k),
                (base[0] - uy * side, base[1] + ux * side),
                (base[0] + uy * side, base[1] - ux * side),
            ],
            fill=255,
        )
        return big.reduce(k)

    image.paste((20, 16, 14), (left, top), mask(4))
    image.paste(colour, (left, top), mask(0))

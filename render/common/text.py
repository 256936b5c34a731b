"""Text for every picture: the bundled font at any size, names cleaned to the glyphs it has,
text measured, fitted and drawn in a box (each text rendered once as a mask and pasted after
that), and small words such as ordinals.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.common.palette import Align, Box, Colour

# Characters the bundled font lacks, mapped to ones it has.
_REPLACEMENTS = {
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "\u00a0": " ",
}
# --- text -------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled Aileron Regular (no system fonts needed), at `size` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pillow needs FreeType support to draw text")
    return loaded


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(font(16).getmask("\ue000"))  # a private-use character: never in the font


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    return bytes(font(16).getmask(char)) != _missing_glyph()


@lru_cache(maxsize=1024)
def clean_text(text: str) -> str:
    """`text` with what the bundled font cannot draw folded away.

    The font covers ASCII only: accents are dropped (é -> e), symbols and emoji removed,
    and letters of other scripts become "?". Never returns an empty string for a non-empty
    input.
    """
    out: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if char in _REPLACEMENTS:
            out.append(_REPLACEMENTS[char])
        elif unicodedata.combining(char):
            continue
        elif _has_glyph(char):
            out.append(char)
        elif unicodedata.category(char)[0] not in "SC":  # a letter we cannot draw
            out.append("?")
    cleaned = " ".join("".join(out).split())
    return cleaned or ("?" if text.strip() else "")


def display_name(name: str, fallback: str) -> str:
    """A player's name as the font can draw it, or `fallback` when nothing legible is left
    (a name all in another script or emoji)."""
    cleaned = clean_text(name)
    return cleaned if any(c.isalnum() for c in cleaned) else fallback


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


@lru_cache(maxsize=4096)
def fit_text(text: str, max_width: int, size: int, min_size: int | None = None) -> tuple[str, int]:
    """Shrink `text` from `size` down to `min_size` until it fits; then cut it with "…".

    Returns the text to draw and the font size to draw it at.
    """
    text = clean_text(text)
    smallest = min(size, min_size if min_size is not None else size)
    for candidate in range(size, smallest - 1, -1):
        if text_width(text, candidate) <= max_width:
            return text, candidate
    cut = text
    while cut and text_width(cut + "…", smallest) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + "…" if cut else ""), smallest


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    stroke: Colour | None = None,
    bold: bool = False,
    cache: bool = False,
) -> None:
    """Draw `text` at `xy` (Pillow anchors: "la" top-left, "mm" centre, "rm" right-middle).

    `stroke` outlines the letters (for text over busy backgrounds); `bold` thickens them by
    drawing twice a pixel apart, as the bundled font has no bold face. Text is rendered once
    per text, size and sub-pixel position (`text_stamp`) and pasted after that, with the
    pixels Pillow's `draw.text` gives. `cache` instead rounds `xy` to whole pixels and
    pastes a single mask (no stroke; bold merged into it), as `cached_text_in_box` always
    has drawn.
    """
    if cache and stroke is None:
        mask, left, top = text_mask(clean_text(text), size, anchor, bold)
        image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)
        return
    x, y = xy
    if x >= 0 and y >= 0 and image.mode in ("RGB", "RGBA"):
        # The same pixels as Pillow's draw.text below, from masks rendered once (off the
        # picture's top or left, Pillow rounds differently: drawn there the slow way).
        (x_fraction, x_whole), (y_fraction, y_whole) = math.modf(x), math.modf(y)
        stamp = text_stamp(
            clean_text(text), size, anchor, x_fraction, y_fraction, stroke is not None
        )
        left, top = int(x_whole) + stamp.left, int(y_whole) + stamp.top
        for dx in (0, 1) if bold else (0,):
            if stroke is not None and stamp.stroke is not None:
                image.paste(stroke, (left + dx, top), stamp.stroke)
            image.paste(fill, (left + dx, top), stamp.fill)
        return
    draw = ImageDraw.Draw(image)
    shown, face = clean_text(text), font(size)
    for dx in (0, 1) if bold else (0,):
        draw.text(
            (xy[0] + dx, xy[1]),
            shown,
            font=face,
            fill=fill,
            anchor=anchor,
            stroke_width=1 if stroke else 0,
            stroke_fill=stroke,
        )


def text_in_box(
    image: Image.Image,
    box: Box,
    text: str,
    size: int,
    fill: Colour,
    align: Align = "center",
    min_size: int | None = None,
    stroke: Colour | None = None,
    bold: bool = False,
    cache: bool = False,
) -> int:
    """Draw `text` vertically centred in `box`, shrunk or cut with "…" to fit its width.

    Returns the width drawn, so a caller can put something after the text. `cache`: see
    `draw_text`.
    """
    left, top, right, bottom = box
    shown, shown_size = fit_text(text, right - left - (1 if bold else 0), size, min_size)
    x = {"left": left, "right": right - (1 if bold else 0), "center": (left + right) / 2}[align]
    anchor = {"left": "lm", "right": "rm", "center": "mm"}[align]
    draw_text(image, (x, (top + bottom) / 2), shown, shown_size, fill, anchor, stroke, bold, cache)
    return round(text_width(shown, shown_size))


def cached_text_in_box(
    image: Image.Image,
    box: Box,
    text: str,
    size: int,
    fill: Colour,
    align: Align = "center",
    min_size: int | None = None,
    bold: bool = False,
) -> int:
    """`text_in_box` with cached text masks, for what recurs on every picture (names,
    numbers, captions): whole-pixel placement (see `draw_text`)."""
    return text_in_box(image, box, text, size, fill, align, min_size, bold=bold, cache=True)


def cached_draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """`draw_text` with cached text masks (see `cached_text_in_box`)."""
    draw_text(image, xy, text, size, fill, anchor, bold=bold, cache=True)


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", bold: bool = False
) -> tuple[Image.Image, int, int]:
    """`text` rendered once into an "L" mask, with the offset from the anchor point to the
    mask's top-left corner: paste a colour through it to draw the text again."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    x0, y0 = math.floor(left), math.floor(top)
    width = max(1, math.ceil(right) - x0 + (1 if bold else 0))
    height = max(1, math.ceil(bottom) - y0)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for dx in (0, 1) if bold else (0,):
        draw.text((dx - x0, -y0), text, font=face, fill=255, anchor=anchor)
    return mask, x0, y0


@dataclass(frozen=True)
class TextStamp:
    """Text rendered once into "L" masks, placed as Pillow's `draw.text` places it: paste
    the outline colour through `stroke` (if any), then the fill through `fill`, with the
    masks' top-left corner at the whole part of the anchor point plus (`left`, `top`)."""

    fill: Image.Image
    stroke: Image.Image | None
    left: int
    top: int


@lru_cache(maxsize=2048)  # masks of a few kB each (a caption ~25 kB)
def text_stamp(
    text: str, size: int, anchor: str, x_fraction: float, y_fraction: float, stroked: bool
) -> TextStamp:
    """The masks `draw.text` would draw for `text` at an anchor point whose fractional
    parts are `x_fraction`, `y_fraction` (FreeType places glyphs to the sub-pixel)."""
    face = font(size)
    stroke_width = 1 if stroked else 0
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    # A pixel of margin each side for the fractional start, and the anchor point inside the
    # canvas (Pillow splits a negative coordinate differently).
    x0, y0 = min(0, math.floor(left) - 1), min(0, math.floor(top) - 1)
    canvas = (max(1, math.ceil(right) - x0 + 2), max(1, math.ceil(bottom) - y0 + 2))
    at = (x_fraction - x0, y_fraction - y0)
    fill = Image.new("L", canvas, 0)
    ImageDraw.Draw(fill).text(at, text, font=face, fill=255, anchor=anchor)
    outline = None
    if stroked:  # one draw with fill and outline alike gives just the outline's mask
        outline = Image.new("L", canvas, 0)
        ImageDraw.Draw(outline).text(
            at, text, font=face, fill=255, anchor=anchor, stroke_width=1, stroke_fill=255
        )
    return TextStamp(fill, outline, x0, y0)


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

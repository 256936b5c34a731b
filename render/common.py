"""Drawing helpers shared by every game's pictures.

Everything here is small and stateless: a palette, one font at any size, text that fits a
box, anti-aliased rounded boxes and discs, a title bar, and PNG encoding. Pictures are drawn
with Pillow only, from observations only (see the architecture notes).

Anti-aliasing: Pillow draws shapes without smoothing, so shapes with curves go through a
mask drawn at SUPERSAMPLE times the size and shrunk once; masks are cached, so after the
first picture a rounded box costs one `paste`. Text from FreeType is already smooth.
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)
Align = Literal["left", "center", "right"]

SUPERSAMPLE = 4  # how much larger curved masks are drawn before shrinking
PNG_COMPRESS_LEVEL = 3  # zlib level: fast to write; size barely matters for a Discord upload

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


@dataclass(frozen=True)
class Picture:
    """A finished picture, ready to attach to a message."""

    data: bytes
    filename: str
    width: int
    height: int


def picture(image: Image.Image, filename: str) -> Picture:
    return Picture(to_png(image), filename, image.width, image.height)


def to_png(image: Image.Image) -> bytes:
    """Encode as PNG, tuned for speed rather than size."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


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
) -> None:
    """Draw `text` at `xy` (Pillow anchors: "la" top-left, "mm" centre, "rm" right-middle).

    `stroke` outlines the letters (for text over busy backgrounds); `bold` thickens them by
    drawing twice a pixel apart, as the bundled font has no bold face.
    """
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
) -> int:
    """Draw `text` vertically centred in `box`, shrunk or cut with "…" to fit its width.

    Returns the width drawn, so a caller can put something after the text.
    """
    left, top, right, bottom = box
    shown, shown_size = fit_text(text, right - left - (1 if bold else 0), size, min_size)
    x = {"left": left, "right": right - (1 if bold else 0), "center": (left + right) / 2}[align]
    anchor = {"left": "lm", "right": "rm", "center": "mm"}[align]
    draw_text(image, (x, (top + bottom) / 2), shown, shown_size, fill, anchor, stroke, bold)
    return round(text_width(shown, shown_size))


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


# --- shapes -----------------------------------------------------------------------------


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
        image.paste(fill, (left, top), rounded_mask(w, h, radius, alpha))
        return
    image.paste(outline, (left, top), rounded_mask(w, h, radius, alpha))
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


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

"""Text for every picture: the bundled fonts at any size, text measured, fitted and drawn
in a box (each text rendered once as a mask and pasted after that), and small words such
as ordinals.

The fonts are Noto (render/fonts, with their licence): Noto Sans for Latin, Greek and
Cyrillic, then Noto Sans Symbols, a common-character cut of Noto Sans CJK, and the
one-colour Noto Emoji for what the ones before lack. A text is drawn in runs, each run in
the first font that has all its characters, so "Zoë", "Ёжик", "名無し" and "🦝" are drawn
as they are written; only what no font has (control characters, rare ideographs) is left
out.

How small: `least_size(width)` is the smallest font size a picture that wide may use, so
that its text is still 11 px once Discord shows it 550 px wide; every draw is noted for the
test that checks it (`render.common.record`).
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render.common.palette import Align, Box, Colour
from render.common.record import note, noting

FONT_FOLDER = Path(__file__).resolve().parent.parent / "fonts"
# In the order a character is looked for; the first is the face of every picture.
FACES = ("NotoSans.ttf", "NotoSansSymbols.ttf", "NotoSansCJK-common.otf", "NotoEmoji.ttf")

# How small a text may be: Discord shows a picture at most SHOWN_WIDTH px wide in the chat,
# and a player must still read every name, number and label there (issue 14).
SHOWN_WIDTH = 550
LEAST_SEEN = 11  # px, the font size once shown


def least_size(width: int) -> int:
    """The smallest font size for a picture `width` px wide: LEAST_SEEN px once shown."""
    return math.ceil(LEAST_SEEN * max(width, SHOWN_WIDTH) / SHOWN_WIDTH)


# --- text -------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def face(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Font `FACES[index]` at `size` pixels, laid out glyph by glyph (Pillow's BASIC layout).

    RAQM (HarfBuzz) places glyphs by their unhinted advances while FreeType draws them
    hinted, so small text came out "Ru mble 1" (issue 38); BASIC advances each glyph by its
    hinted width, as drawn. What BASIC lacks, shaping, none of our scripts needs: Latin,
    Greek and Cyrillic are composed (NFC) first, CJK and emoji are one glyph a character,
    and scripts that need shaping are not covered anyway (fonts/README.md).
    """
    path = str(FONT_FOLDER / FACES[index])
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


def font(size: int) -> ImageFont.FreeTypeFont:
    """The pictures' face (Noto Sans) at `size` pixels."""
    return face(0, size)


@lru_cache(maxsize=len(FACES))
def _missing_glyph(index: int) -> bytes:
    return bytes(face(index, 16).getmask("\ue000"))  # a private-use character: in no font


@lru_cache(maxsize=8192)
def face_of(char: str) -> int | None:
    """The first face that draws `char`, or None when none does."""
    for index in range(len(FACES)):
        if bytes(face(index, 16).getmask(char)) != _missing_glyph(index):
            return index
    return None


@lru_cache(maxsize=1024)
def clean_text(text: str) -> str:
    """`text` as the fonts can draw it: composed (NFC), with control and format characters
    (an emoji's joiners, say) and whatever no font has left out, and spaces collapsed."""
    kept = [
        " " if char.isspace() else char
        for char in unicodedata.normalize("NFC", text)
        if char.isspace() or (unicodedata.category(char)[0] != "C" and face_of(char) is not None)
    ]
    return " ".join("".join(kept).split())


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """`text` (cleaned) cut into runs of one face each: (face index, characters). Spaces
    are the main face's (the CJK and emoji faces have wider ones)."""
    out: list[tuple[int, str]] = []
    for char in text:
        index = 0 if char == " " else face_of(char)
        if index is None:
            continue
        if out and out[-1][0] == index:
            out[-1] = (index, out[-1][1] + char)
        else:
            out.append((index, char))
    return tuple(out)


def _one_face(text: str) -> bool:
    """Whether `text` is drawn with the main face alone (Pillow draws it directly)."""
    return all(index == 0 for index, _ in runs(text))


def display_name(name: str, fallback: str) -> str:
    """A player's name as the fonts draw it, or `fallback` when nothing legible is left
    (a name of control characters, say)."""
    cleaned = clean_text(name)
    return cleaned if any(unicodedata.category(c)[0] in "LNS" for c in cleaned) else fallback


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """How far `text` (cleaned) advances at `size`: its runs' advances added up.

    The faces have no kerning (Pillow's BASIC layout would apply a `kern` table), so a
    text's advance is its characters' advances added up: `char_width` sums give the same
    figure without measuring every longer text again (tests/render/test_text.py checks)."""
    return sum(face(index, size).getlength(part) for index, part in runs(text))


@lru_cache(maxsize=8192)
def char_width(char: str, size: int) -> float:
    """One character's advance at `size` (0 for one no face draws), as `text_width`."""
    return text_width.__wrapped__(char, size)


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
    cut = text[: _fitting_prefix(text, max_width - char_width("…", smallest), smallest)]
    return (cut.rstrip() + "…" if cut else ""), smallest


def _fitting_prefix(text: str, room: float, size: int) -> int:
    """How many of `text`'s first characters fit in `room` px: the longest prefix, as
    cutting a character at a time from the end finds it, from the characters' advances
    (a long caption measured again at every cut cost a board several milliseconds)."""
    used = 0.0
    for count, char in enumerate(text):
        used += char_width(char, size)
        if used > room:
            return count
    return len(text)


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
        left, top = round(xy[0]) + left, round(xy[1]) + top
        image.paste(fill, (left, top), mask)
        _note_text((left, top, left + mask.width, top + mask.height), text, size)
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
        _note_text((left, top, left + stamp.fill.width, top + stamp.fill.height), text, size)
        return
    shown = clean_text(text)
    if not _one_face(shown):
        if stroke is not None:
            outline, left, top = _mixed_mask(shown, size, anchor, True, stroke=True, bold=bold)
            image.paste(stroke, (round(x) + left, round(y) + top), outline)
        mask, left, top = _mixed_mask(shown, size, anchor, stroke is not None, bold=bold)
        left, top = round(x) + left, round(y) + top
        image.paste(fill, (left, top), mask)
        _note_text((left, top, left + mask.width, top + mask.height), text, size)
        return
    if noting():  # measured only while a test records
        ink = font(size).getbbox(shown, anchor=anchor, stroke_width=1 if stroke else 0)
        box = (math.floor(x + ink[0]), math.floor(y + ink[1]), math.ceil(x + ink[2]) + 1,
               math.ceil(y + ink[3]))  # fmt: skip
        _note_text(box, text, size)
    draw = ImageDraw.Draw(image)
    for dx in (0, 1) if bold else (0,):
        draw.text(
            (xy[0] + dx, xy[1]),
            shown,
            font=font(size),
            fill=fill,
            anchor=anchor,
            stroke_width=1 if stroke else 0,
            stroke_fill=stroke,
        )


def _note_text(box: Box, text: str, size: int) -> None:
    """Note a drawn text for tests (`render.common.record`): its box on the picture (the
    mask's, which may be a little larger than the ink) and its font size."""
    if noting() and (shown := clean_text(text)):
        note("text", box, shown, size)


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


def _mixed_mask(
    text: str,
    size: int,
    anchor: str,
    stroked: bool = False,
    stroke: bool = False,
    bold: bool = False,
) -> tuple[Image.Image, int, int]:
    """A mask of `text` drawn in runs of several faces, set on the main face's baseline, and
    the offset from the anchor point to its top-left corner (as `text_mask` gives).
    `stroked` makes room for a 1-pixel outline and `stroke` draws it; `bold` draws twice a
    pixel apart. Horizontal anchors use the whole run's advance, vertical ones the main
    face's ascender and descender, as Pillow does for one face."""
    parts, pens, boxes, pen = runs(text), [], [], 0.0
    width = 1 if stroked else 0
    for index, part in parts:
        left, top, right, bottom = face(index, size).getbbox(part, anchor="ls", stroke_width=width)
        boxes.append((pen + left, top, pen + right, bottom))
        pens.append(pen)
        pen += face(index, size).getlength(part)
    x0 = math.floor(min((b[0] for b in boxes), default=0))
    y0 = math.floor(min((b[1] for b in boxes), default=0))
    x1 = math.ceil(max((b[2] for b in boxes), default=1)) + (1 if bold else 0)
    y1 = math.ceil(max((b[3] for b in boxes), default=1))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    draw = ImageDraw.Draw(mask)
    for (index, part), at in zip(parts, pens, strict=True):
        for dx in (0, 1) if bold else (0,):
            draw.text(
                (at - x0 + dx, -y0), part, font=face(index, size), fill=255, anchor="ls",
                stroke_width=1 if stroke else 0, stroke_fill=255,
            )  # fmt: skip
    ascent, descent = font(size).getmetrics()
    anchor_x = {"l": 0.0, "m": pen / 2, "r": pen}[anchor[0]]
    anchor_y = {"a": -ascent, "t": y0, "m": (descent - ascent) / 2, "s": 0, "b": y1, "d": descent}
    return mask, math.floor(x0 - anchor_x), math.floor(y0 - anchor_y[anchor[1]])


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", bold: bool = False
) -> tuple[Image.Image, int, int]:
    """`text` rendered once into an "L" mask, with the offset from the anchor point to the
    mask's top-left corner: paste a colour through it to draw the text again."""
    if not _one_face(text):
        return _mixed_mask(text, size, anchor, bold=bold)
    main = font(size)
    left, top, right, bottom = main.getbbox(text, anchor=anchor)
    x0, y0 = math.floor(left), math.floor(top)
    width = max(1, math.ceil(right) - x0 + (1 if bold else 0))
    height = max(1, math.ceil(bottom) - y0)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for dx in (0, 1) if bold else (0,):
        draw.text((dx - x0, -y0), text, font=main, fill=255, anchor=anchor)
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
    if not _one_face(text):  # placed to the whole pixel
        fill_mask, left_at, top_at = _mixed_mask(text, size, anchor, stroked)
        outline_mask = _mixed_mask(text, size, anchor, stroked, stroke=True)[0] if stroked else None
        return TextStamp(fill_mask, outline_mask, left_at, top_at)
    main = font(size)
    stroke_width = 1 if stroked else 0
    left, top, right, bottom = main.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    # A pixel of margin each side for the fractional start, and the anchor point inside the
    # canvas (Pillow splits a negative coordinate differently).
    x0, y0 = min(0, math.floor(left) - 1), min(0, math.floor(top) - 1)
    canvas = (max(1, math.ceil(right) - x0 + 2), max(1, math.ceil(bottom) - y0 + 2))
    at = (x_fraction - x0, y_fraction - y0)
    fill = Image.new("L", canvas, 0)
    ImageDraw.Draw(fill).text(at, text, font=main, fill=255, anchor=anchor)
    outline = None
    if stroked:  # one draw with fill and outline alike gives just the outline's mask
        outline = Image.new("L", canvas, 0)
        ImageDraw.Draw(outline).text(
            at, text, font=main, fill=255, anchor=anchor, stroke_width=1, stroke_fill=255
        )
    return TextStamp(fill, outline, x0, y0)


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

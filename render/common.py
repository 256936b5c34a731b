"""Drawing helpers shared by every game's pictures.

Everything here is small and stateless: a palette, one font at any size, text that fits a
box, anti-aliased rounded boxes and discs, a title bar, a generic playing card (face and
back) for the card games, and PNG encoding. Pictures are drawn
with Pillow only, from observations only (see the architecture notes).

Anti-aliasing: Pillow draws shapes without smoothing, so shapes with curves go through a
mask drawn at SUPERSAMPLE times the size and shrunk once; masks are cached, so after the
first picture a rounded box costs one `paste`. Text from FreeType is already smooth; each
text is rendered once and pasted after that.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from render.png import to_png as to_png  # re-exported: the games import it from here

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


def card_art_box(width: int, height: int) -> Box:
    """Where a card's value or icon sits, relative to the card's top-left corner."""
    header = card_header_height(height)
    top = header + max(2, height // 40)
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
def card_image(face: CardFace, width: int, height: int) -> Image.Image:
    """The card as an RGBA image of `width` x `height` (smooth rounded corners)."""
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
    if face.title and title_right - pad > 12:
        text_in_box(
            card, (pad, 1, title_right, header), face.title, title_size, ink, "left", 6, bold=True
        )
    paper_ink = ink_for(face.body)
    art = card_art_box(width, height)
    if face.value:
        value_size = round((art[3] - art[1]) * 0.82)
        text_in_box(card, art, face.value, value_size, paper_ink, min_size=8, bold=width >= 60)
    lines = [(face.caption, 0.085, paper_ink), (face.footer, 0.062, shade(paper_ink, 1.6))]
    if width < 80:  # small cards: the caption alone, if anything
        lines = [(face.caption, 0.12, paper_ink)]
    top = art[3] + max(1, height // 60)
    for text, share, colour in lines:
        size = max(8, round(height * share))
        if text:
            text_in_box(
                card, (pad, top, width - pad, top + size + 6), text, size, colour, min_size=7
            )
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

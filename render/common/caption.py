"""The caption strip under a board: who made the last move and what the log said of it
(issue 38), the mover's numbered disc first. The words are the log's own lines with names
filled in, so the picture and the channel tell a move the same way.

The strip has room for two lines at the picture's least font size; a longer caption is cut
at the end of the second. Words wrap between words, never inside a name: a name is cut only
when it is wider than a whole line.
"""

from __future__ import annotations

import re

from PIL import Image

from lang import say
from render.common.palette import INK, MUTED, PANEL, PANEL_EDGE, Box, ink_for, shade
from render.common.record import note
from render.common.shapes import disc, rounded_box
from render.common.text import draw_text, fit_text, least_size, text_width
from render.common.words import player_colour, player_name
from rules.observation import LastMoveView
from rules.phrases import from_json, language_of, phrase

NO_MOVES = phrase("No moves yet.")

LINES = 2
MARGIN = 12  # left, right and under the strip's panel (the board's own margin is above)
PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def caption_height(width: int) -> int:
    """How tall the strip under a picture `width` px wide is."""
    return LINES * line_height(least_size(width)) + MARGIN + 16


def line_height(size: int) -> int:
    return round(size * 1.25)


def captioned(
    image: Image.Image, move: LastMoveView | None, names: list[str], seat_disc: bool = True
) -> Image.Image:
    """`image` with the caption strip added below it; `seat_disc`: the mover's numbered disc in
    their seat colour first (off where a game colours its players otherwise)."""
    return caption_below(with_caption_room(image), move, names, seat_disc)


def with_caption_room(image: Image.Image) -> Image.Image:
    """`image` on a taller canvas with the caption strip's backdrop below it: for a game's
    cached background, so that each board, drawn on a copy of it, gets its caption in
    place (`caption_below`) rather than by copying the whole picture again."""
    width, height = image.size
    out = Image.new(image.mode, (width, height + caption_height(width)), shade(PANEL, 0.8))
    out.paste(image, (0, 0))
    return out


def caption_below(
    image: Image.Image, move: LastMoveView | None, names: list[str], seat_disc: bool = True
) -> Image.Image:
    """`image` (from `with_caption_room`) with the caption drawn in its strip: what
    `captioned` gives for the picture above the strip, as long as nothing was drawn there."""
    width, height = image.size
    top = height - caption_height(width)
    draw_caption(image, (0, top, width, height), move, names, mark=seat_disc)
    return image


def caption_words(move: LastMoveView, names: list[str]) -> list[str]:
    """The caption's words, names filled in: a name with spaces stays one word."""
    language = language_of(names)
    lines = [say(from_json(line), language) for line in move["lines"]]
    said = " ".join(line.strip() for line in lines if line.strip())
    return [fill_names(word, names) for word in said.split()]


def fill_names(text: str, names: list[str]) -> str:
    return PLACEHOLDER.sub(lambda m: player_name(names, int(m.group(1))), text)


def wrap(words: list[str], width: int, size: int, lines: int = LINES) -> list[str]:
    """`words` in at most `lines` lines of `width` px; what does not fit ends in "…".

    A line's width is its words' and spaces' added up (`text_width`: no kerning), rather
    than each longer line measured again."""
    out: list[str] = []
    current, used = "", 0.0
    space = text_width(" ", size)
    for index, word in enumerate(words):
        advance = text_width(word, size)
        if advance > width:  # a word (a long name) alone wider than a line
            word = fit_text(word, width, size)[0]
            advance = text_width(word, size)
        joined = used + space + advance if current else advance
        if joined <= width:
            current, used = f"{current} {word}" if current else word, joined
            continue
        out.append(current)
        if len(out) == lines:  # no room left: the last line takes the rest, cut
            rest = " ".join([out.pop(), *words[index:]])
            out.append(fit_text(rest, width, size)[0])
            return out
        current, used = word, advance
    return [*out, current] if current else out


def draw_caption(
    image: Image.Image, box: Box, move: LastMoveView | None, names: list[str], mark: bool = True
) -> None:
    """The strip in `box`: the mover's disc (`mark`), then the caption in up to two lines."""
    left, top, right, bottom = box
    panel = (left + MARGIN, top + 4, right - MARGIN, bottom - MARGIN)
    rounded_box(image, panel, 10, PANEL, PANEL_EDGE, 2)
    size = least_size(right - left)
    middle = (panel[1] + panel[3]) // 2
    text_left = panel[0] + 14
    if mark and move is not None and move["seat"] >= 0:
        diameter = size + 10
        colour = player_colour(move["seat"])
        centre = (panel[0] + 10 + diameter // 2, middle)
        disc(image, centre, diameter, colour, shade(PANEL, 0.5))
        draw_text(image, centre, str(move["seat"] + 1), size, ink_for(colour), "mm")
        text_left = panel[0] + 20 + diameter
    words = caption_words(move, names) if move is not None else []
    nothing = say(NO_MOVES, language_of(names))
    lines = wrap(words, panel[2] - 12 - text_left, size) if words else [nothing]
    step = line_height(size)
    y = middle - step * (len(lines) - 1) / 2
    for line in lines:
        draw_text(image, (text_left, y), line, size, INK if words else MUTED, "lm")
        y += step
    note("caption", panel, " ".join(lines))

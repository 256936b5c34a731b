"""Cached layers draw exactly what a fresh draw would: the caches only save time."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from render import common
from render.common import Colour

OUTLINE: Colour = (20, 20, 20)


def fresh_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    anchor: str,
    stroke: Colour | None,
    bold: bool,
) -> None:
    """Pillow's own text drawing, every time from scratch (what draw_text did before)."""
    draw = ImageDraw.Draw(image)
    for dx in (0, 1) if bold else (0,):
        draw.text(
            (xy[0] + dx, xy[1]),
            common.clean_text(text),
            font=common.font(size),
            fill=fill,
            anchor=anchor,
            stroke_width=1 if stroke else 0,
            stroke_fill=stroke,
        )


@pytest.mark.parametrize(
    ("text", "anchor", "stroke", "bold"),
    [
        ("Alice", "la", None, False),
        ("R1: 3  ·  R2: 5", "lm", None, False),
        ("Ygg Qj", "mm", OUTLINE, False),
        ("TO PLAY", "rm", None, True),
        ("Ørjan", "ma", OUTLINE, True),
    ],
)
def test_cached_text_matches_pillows_own_drawing(
    text: str, anchor: str, stroke: Colour | None, bold: bool
) -> None:
    """draw_text pastes masks rendered once; the pixels equal Pillow's draw.text at whole,
    half and odd fractional positions, on RGB and RGBA pictures, drawn twice (cold, then
    from the cache)."""
    for mode, xy, size in itertools.product(
        ("RGB", "RGBA"), [(60, 30), (60.5, 30.5), (3.25, 0.75), (0, 0)], (11, 18)
    ):
        for _ in range(2):
            expected = Image.new(mode, (160, 60), (40, 60, 30))
            drawn = expected.copy()
            fresh_text(expected, xy, text, size, common.INK, anchor, stroke, bold)
            common.draw_text(drawn, xy, text, size, common.INK, anchor, stroke, bold)
            assert drawn.tobytes() == expected.tobytes(), (mode, xy, size)

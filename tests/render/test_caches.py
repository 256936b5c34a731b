"""Cached layers draw exactly what a fresh draw would: the caches only save time."""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

from render import brawl, common, rumble, toss, trashwar
from render.common import Colour
from rules.base import Game
from rules.brawl import BRAWL
from rules.rumble import RUMBLE
from rules.toss import TOSS
from rules.trashwar import TRASH_WAR

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


def clear_render_caches() -> None:
    """Forget every cached layer, sprite and text mask in render/, in every module of its
    packages too (render.brawl.icons and the like)."""
    modules = [m for name, m in sys.modules.items() if name.split(".")[0] == "render"]
    for module in modules:
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def observations(game: Game, seats: int, steps: int) -> list[Any]:
    """Public observations of the first `steps` states of a seeded random game, in order, as
    a channel sees them press after press."""
    rng = random.Random(16)
    state = game.new_game(seats, {}, 16)
    seen = [game.observe(state, None)]
    while len(seen) < steps and game.outcome(state) is None:
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        seen.append(game.observe(state, None))
    return seen


BOARDS: dict[str, tuple[Game, Callable[[Any, list[str]], Image.Image]]] = {
    "rumble": (RUMBLE, rumble.dungeon_image),
    "trashwar": (TRASH_WAR, trashwar.battlefield_image),
    "brawl": (BRAWL, brawl.table_image),
    "toss": (TOSS, toss.bin_image),
}


@pytest.mark.parametrize("board", list(BOARDS))
def test_boards_from_warm_caches_equal_fresh_draws(board: str) -> None:
    """A game's boards drawn one after another (then again, backwards), with backgrounds,
    piles, sprites and text reused from earlier boards, have exactly the pixels of the
    same boards drawn with every cache empty: nothing cached is stale or drawn on."""
    game, draw = BOARDS[board]
    names = ["Alice", "Bob", "Carol"]
    seen = observations(game, 3, 40)[::3]
    clear_render_caches()
    fresh = []
    for obs in seen:
        fresh.append(draw(obs, names).tobytes())
        clear_render_caches()
    warm = [draw(obs, names).tobytes() for obs in seen]
    again = [draw(obs, names).tobytes() for obs in reversed(seen)]
    assert warm == fresh
    assert again == fresh[::-1]


@pytest.mark.parametrize("size", [(420, 64), (200, 41), (90, 90), (600, 30), (12, 9)])
def test_rounded_box_in_parts_matches_one_masked_paste(size: tuple[int, int]) -> None:
    """rounded_box pastes the wholly-inside bands without a mask and only the corners
    through one (rounded_parts, cached): the pixels equal one paste through the whole
    rounded mask, over a busy background, with and without an outline."""
    width, height = size
    rng = random.Random(16)
    for mode, radius in itertools.product(("RGB", "RGBA"), (0, 5, 12, 40)):
        background = Image.frombytes(mode, (width + 20, height + 20), rng.randbytes(
            (width + 20) * (height + 20) * len(mode)
        ))  # fmt: skip
        box = (7, 9, 7 + width, 9 + height)
        expected, drawn = background.copy(), background.copy()
        r = min(radius, width // 2, height // 2)
        expected.paste(common.PANEL, box[:2], common.rounded_mask(width, height, r))
        common.rounded_box(drawn, box, radius, common.PANEL)
        assert drawn.tobytes() == expected.tobytes(), (mode, radius)
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
        expected.paste(common.TORCH, box[:2], common.rounded_mask(width, height, r))
        expected.paste(
            common.PANEL,
            inner[:2],
            common.rounded_mask(width - 4, height - 4, max(0, r - 2)),
        )
        common.rounded_box(drawn, box, radius, common.PANEL, common.TORCH, 2)
        assert drawn.tobytes() == expected.tobytes(), (mode, radius, "outline")

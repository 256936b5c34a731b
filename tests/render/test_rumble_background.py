"""Rumble's background pasted together from patches is the layout drawn whole."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from render.rumble import background
from render.rumble.layout import BOARD_SIZE, SCALE, scaled
from rules.rumble.dungeon import FIXED_LAYOUTS, Layout, random_layout, tiles
from tests.render.test_caches import clear_render_caches

LAYOUTS: dict[str, Layout] = {
    **FIXED_LAYOUTS,
    **{f"random {seed}": random_layout(random.Random(seed)) for seed in range(12)},
}


def key_of(layout: Layout) -> background.LayoutKey:
    return background.layout_key(tiles(layout), layout.entrance, layout.treasure_room)


def drawn_whole(key: background.LayoutKey) -> Image.Image:
    """Every feature of the layout drawn on the whole stone at SCALE, then shrunk once: what
    the background looked like before it was pasted together from patches."""
    big = background.stone().copy()
    canvas = ImageDraw.Draw(big)
    for name, args in background.features(key):
        _, draw = background.FEATURES[name](*args)
        draw(canvas, scaled)
    image = big.reduce(SCALE)
    background.draw_labels(image, key)
    return image


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_a_background_from_patches_is_the_layout_drawn_whole(name: str) -> None:
    """Each door, the way in and the treasure frame are drawn once on a patch of the stone
    and pasted: pixel for pixel what drawing them all on the whole board gives (a patch too
    small would cut a drawing off; patches that overlap would cover each other). Below the
    map, the caption strip's room."""
    clear_render_caches()
    key = key_of(LAYOUTS[name])
    whole = drawn_whole(key)
    layer = background.background(key)
    assert layer.crop((0, 0, *whole.size)).tobytes() == whole.tobytes()
    assert layer.size == BOARD_SIZE


def test_layouts_sharing_doors_share_their_patches() -> None:
    """The patches are the doors themselves, not whole layouts: a crowd of games with random
    layouts keeps reusing them."""
    clear_render_caches()
    for seed in range(40):
        background.background(key_of(random_layout(random.Random(seed))))
    info = background._patch.cache_info()
    assert info.currsize <= 12 * 4 * 2 + 3 + 40  # doors, ways in, treasure frames
    assert info.hits > 5 * info.misses

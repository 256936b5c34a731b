"""PNG encoding (render.png.to_png): the bytes decode to exactly the pixels drawn."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from render import common


def noisy_picture(mode: str, size: tuple[int, int]) -> Image.Image:
    """Random pixels with some flat runs, like a board: every byte value turns up."""
    rng = random.Random(16)
    image = Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * len(mode)))
    ImageDraw.Draw(image).rectangle((3, 3, size[0] - 3, size[1] // 2), fill="#2a2624")
    return image


def decode(data: bytes) -> Image.Image:
    checked = Image.open(io.BytesIO(data))
    checked.verify()  # chunk CRCs and structure
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_png_decodes_to_the_same_pixels(mode: str) -> None:
    """to_png is lossless for every mode the pictures use, in our own writer (RGB, RGBA)
    and through Pillow (others)."""
    image = noisy_picture(mode, (37, 23))
    decoded = decode(common.to_png(image))
    assert decoded.format == "PNG"
    assert (decoded.mode, decoded.size) == (mode, image.size)
    assert decoded.tobytes() == image.tobytes()


def test_a_board_png_decodes_to_the_board() -> None:
    """A real board, flat colours and text: the decoded PNG is the drawn picture, and small
    (a fraction of the raw pixels, far under Discord's upload limit)."""
    from render import rumble
    from tests.render import samples

    image = rumble.dungeon_image(samples.crowded(4), samples.NAMES[:4])
    data = common.to_png(image)
    assert decode(data).tobytes() == image.tobytes()
    assert len(data) < len(image.tobytes()) // 10

"""Last Lid's picture: what becomes `render/<game>/` in a real game. It is drawn from an
observation only (the modules `rules/__init__.py` lists in `RENDER_READS`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.png import to_png

from ..rules.observation import LastLidObservation

MOST_LIDS = 15  # the `lids` option's highest value: the picture is as wide as that pile


def draw_pile(obs: LastLidObservation) -> bytes:
    """The pile as the channel sees it: one disc a lid."""
    image = Image.new("RGB", (40 + 30 * MOST_LIDS, 80), (40, 44, 52))
    draw = ImageDraw.Draw(image)
    for i in range(obs["lids"]):
        draw.ellipse((20 + 30 * i, 25, 44 + 30 * i, 55), fill=(190, 190, 200))
    return to_png(image)

"""The ruler of drop spots along the bin's opening: a tick over each of the 21 spots the hand
can let go at (`rules.toss.bin.grid_x`), the numbers 0, 5, 10, 15 and 20 over the longer
ticks, and in a preview the spot being aimed at picked out in torch light, so the "spot 13"
of the controls can be found on the picture.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import INK, TORCH, draw_text
from render.common.record import note
from render.common.text import text_width
from render.toss.layout import PIECE_EDGE, RULER_TICK, BinView
from rules.toss.bin import X_STEPS, grid_x

LABEL_EVERY = 5  # the spots numbered: fewer would not say where 13 is, more would not fit
TICK, LONG_TICK = 5, RULER_TICK  # pixels


def spot_x(view: BinView, spot: int) -> int:
    """The pixel column of a drop spot."""
    return round(view.at(grid_x(spot), 0)[0])


def draw_ruler(
    image: Image.Image, view: BinView, baseline: int, size: int, aimed: int | None = None
) -> None:
    """The ruler with its ticks ending at y = `baseline`; `aimed` is the spot a preview
    holds the piece over (its number is drawn even between the numbered ones)."""
    draw = ImageDraw.Draw(image)
    left, right = spot_x(view, 0), spot_x(view, X_STEPS - 1)
    draw.line((left, baseline, right, baseline), fill=PIECE_EDGE, width=3)
    draw.line((left, baseline, right, baseline), fill=INK, width=1)
    labelled = [spot for spot in range(X_STEPS) if spot % LABEL_EVERY == 0]
    if aimed is not None:
        # The aimed spot's number, and the others only where they do not crowd it.
        labelled = [spot for spot in labelled if abs(spot - aimed) >= 4] + [aimed]
    for spot in range(X_STEPS):
        x = spot_x(view, spot)
        tick = LONG_TICK if spot in labelled else TICK
        colour = TORCH if spot == aimed else INK
        draw.line((x, baseline - tick, x, baseline), fill=PIECE_EDGE, width=3)
        draw.line((x, baseline - tick, x, baseline), fill=colour, width=1)
    for spot in labelled:
        x, label = spot_x(view, spot), str(spot)
        bottom = baseline - LONG_TICK - 2
        colour = TORCH if spot == aimed else INK
        draw_text(image, (x, bottom), label, size, colour, "ms", stroke=PIECE_EDGE)
        half = text_width(label, size) / 2
        note("ruler", (round(x - half), bottom - size, round(x + half), bottom), label, size)

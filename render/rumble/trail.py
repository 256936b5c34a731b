"""The last moves on Rumble's board: an arrow along each move since the board before (gold when
the chest went along), the room a character was thrown out of framed with its name, and an
arrow out of the entrance for a character gone with the chest."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.common import (
    EMBER,
    INK,
    SUPERSAMPLE,
    TORCH,
    Box,
    Colour,
    ink_for,
    rounded_box,
    text_width,
)
from render.common import cached_text_in_box as _text_in_box
from render.common.record import note
from render.rumble.layout import (
    GRID_LEFT,
    SMALL_TEXT,
    WALL_W,
    character_name,
    label_fit,
    room_boxes,
)
from rules.rumble.observation import RumbleObservation, TraceView

MOVE_COLOUR: Colour = INK
CHEST_COLOUR: Colour = TORCH
FIGHT_COLOUR: Colour = EMBER
ARROW_WIDTH = 7
HEAD = 18  # the arrowhead's length and half its width, about
TAG_H = 30  # the foot of a room a fight emptied: "OUT · Knight"


def draw_trail(image: Image.Image, obs: RumbleObservation, since: int) -> None:
    """Everything the actions after step `since` did, in this rumble (under the tokens)."""
    boxes = room_boxes(obs["tiles"])
    for trace in obs.get("trail") or []:  # a board saved before traces existed has none
        if trace["step"] <= since or trace["rumble"] != obs["rumble"]:
            continue
        start = boxes.get(trace["start"])
        if start is None:
            continue
        if trace["kind"] in ("move", "chest"):
            goal = boxes.get(trace["goal"])
            if goal is not None:
                colour = CHEST_COLOUR if trace["kind"] == "chest" else MOVE_COLOUR
                _arrow(image, _centre(start), _centre(goal), colour)
                note(trace["kind"], start, _said(trace))
        elif trace["kind"] == "fight":
            _thrown_out(image, start, trace["character"])
            note("fight", start, _said(trace))
        elif trace["kind"] == "exit":
            x, y = _centre(start)
            _arrow(image, (x, y), (GRID_LEFT - 24, y), CHEST_COLOUR)
            note("exit", start, _said(trace))


def fight_rooms(obs: RumbleObservation, since: int) -> set[str]:
    """The rooms `draw_trail` tags at their foot with who was thrown out (`TAG_H` tall)."""
    return {
        trace["start"]
        for trace in obs.get("trail") or []
        if trace["kind"] == "fight" and trace["step"] > since and trace["rumble"] == obs["rumble"]
    }


def _said(trace: TraceView) -> str:
    return f"{trace['character']} {trace['start']}-{trace['goal']}"


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 10)


def _arrow(
    image: Image.Image, start: tuple[float, float], end: tuple[float, float], colour: Colour
) -> None:
    """A smooth arrow from `start` to `end`, its head at `end`, with a dark edge."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # Start a little off the centre, so the arrow leaves the room's tokens readable.
    x0, y0 = x0 + ux * 34, y0 + uy * 34
    x1, y1 = x1 - ux * 30, y1 - uy * 30
    left = int(min(x0, x1) - HEAD - 4)
    top = int(min(y0, y1) - HEAD - 4)
    width = int(max(x0, x1) + HEAD + 4) - left
    height = int(max(y0, y1) + HEAD + 4) - top
    k = SUPERSAMPLE

    def mask(grow: float) -> Image.Image:
        big = Image.new("L", (width * k, height * k), 0)
        draw = ImageDraw.Draw(big)
        tip = ((x1 - left) * k, (y1 - top) * k)
        base = ((x1 - left - ux * HEAD) * k, (y1 - top - uy * HEAD) * k)
        draw.line(
            ((x0 - left) * k, (y0 - top) * k, *base),
            fill=255,
            width=round((ARROW_WIDTH + grow) * k),
        )
        side = (HEAD * 0.75 + grow / 2) * k
        draw.polygon(
            [
                (tip[0] + ux * grow * k, tip[1] + uy * grow * k),
                (base[0] - uy * side, base[1] + ux * side),
                (base[0] + uy * side, base[1] - ux * side),
            ],
            fill=255,
        )
        return big.reduce(k)

    image.paste((20, 16, 14), (left, top), mask(4))
    image.paste(colour, (left, top), mask(0))


def _thrown_out(image: Image.Image, box: Box, character: str) -> None:
    """The room a fight emptied of `character`: framed, with a tag naming who went."""
    left, top, right, bottom = box
    ImageDraw.Draw(image).rectangle(
        (left + 2, top + 2, right - 3, bottom - 3), outline=FIGHT_COLOUR, width=4
    )
    tag = (left + WALL_W + 4, bottom - WALL_W - TAG_H, right - WALL_W - 4, bottom - WALL_W - 3)
    rounded_box(image, tag, 8, FIGHT_COLOUR)
    words = f"OUT · {character_name(character)}"
    if text_width(words, SMALL_TEXT) + 1 > tag[2] - tag[0] - 8:  # a long name: the name alone
        words = label_fit(character, tag[2] - tag[0] - 9, SMALL_TEXT, SMALL_TEXT)[0]
    _text_in_box(image, (tag[0] + 4, tag[1], tag[2] - 4, tag[3]), words, SMALL_TEXT,
                 ink_for(FIGHT_COLOUR), bold=True)  # fmt: skip

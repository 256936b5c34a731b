"""The last moves on Rumble's board: an arrow along each move since the board before (gold when
the chest went along), the room a character was thrown out of framed with its name, and an
arrow out of the entrance for a character gone with the chest."""

from __future__ import annotations

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.common import (
    EMBER,
    INK,
    TORCH,
    Box,
    Colour,
    arrow,
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
from rules.phrases import phrase
from rules.rumble.observation import RumbleObservation, TraceView

MOVE_COLOUR: Colour = INK
CHEST_COLOUR: Colour = TORCH
FIGHT_COLOUR: Colour = EMBER
TAG_H = 30  # the foot of a room a fight emptied: "OUT · Knight"


def draw_trail(
    image: Image.Image, obs: RumbleObservation, since: int, language: str = ENGLISH
) -> None:
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
                arrow(image, _centre(start), _centre(goal), colour)
                note(trace["kind"], start, _said(trace))
        elif trace["kind"] == "fight":
            _thrown_out(image, start, trace["character"], language)
            note("fight", start, _said(trace))
        elif trace["kind"] == "exit":
            x, y = _centre(start)
            arrow(image, (x, y), (GRID_LEFT - 24, y), CHEST_COLOUR)
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


def _thrown_out(image: Image.Image, box: Box, character: str, language: str) -> None:
    """The room a fight emptied of `character`: framed, with a tag naming who went."""
    left, top, right, bottom = box
    ImageDraw.Draw(image).rectangle(
        (left + 2, top + 2, right - 3, bottom - 3), outline=FIGHT_COLOUR, width=4
    )
    tag = (left + WALL_W + 4, bottom - WALL_W - TAG_H, right - WALL_W - 4, bottom - WALL_W - 3)
    rounded_box(image, tag, 8, FIGHT_COLOUR)
    name = character_name(character, language)
    words = say(phrase("OUT · {character}", character=name), language)
    if text_width(words, SMALL_TEXT) + 1 > tag[2] - tag[0] - 8:  # a long name: the name alone
        words = label_fit(character, tag[2] - tag[0] - 9, SMALL_TEXT, SMALL_TEXT, language)[0]
    _text_in_box(image, (tag[0] + 4, tag[1], tag[2] - 4, tag[3]), words, SMALL_TEXT,
                 ink_for(FIGHT_COLOUR), bold=True)  # fmt: skip

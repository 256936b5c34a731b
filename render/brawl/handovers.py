"""Cards handed from one hand straight into another on Dumpster Brawl!'s board (spoils taken
or given, a Raid, a Quick Swap): for the actions since the board before, an arrow from the
giver's placard to the receiver's with how many went. Never which: the observation does not
say.

The arrows run along the placards' edges under the fans of cards (and across the gap
between two rows), where they cover no name or number."""

from __future__ import annotations

import math

from PIL import Image

from render.common import TORCH, Box, Colour, arrow, ink_for, rounded_box, text_width
from render.common import cached_text_in_box as _text
from render.common.record import note
from rules.brawl.observation import BrawlObservation
from rules.words import counted

HANDOVER_COLOUR: Colour = TORCH
EDGE_INK: Colour = (20, 16, 14)
SIDE_BY_SIDE = 9  # how far a swap's two arrows run apart
CHIP_TEXT = 20  # the count's size: about 11 px high on a board shown 550 px wide
CHIP_H = 32
Point = tuple[float, float]


def draw_handovers(image: Image.Image, obs: BrawlObservation, since: int, hands: list[Box]) -> None:
    """Every giver-to-receiver pair since step `since`, its cards added up; `hands[seat]` is
    the column of a seat's placard that holds its cards."""
    moved: dict[tuple[int, int], int] = {}
    for handover in obs.get("handovers") or []:  # a board saved before they were kept: none
        if handover["step"] > since:
            pair = (handover["giver"], handover["receiver"])
            moved[pair] = moved.get(pair, 0) + handover["cards"]
    for (giver, receiver), cards in moved.items():
        (x0, y0), (x1, y1) = _ends(hands[giver], hands[receiver])
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        # Cards went both ways (a swap): each arrow keeps to its own side.
        shift = SIDE_BY_SIDE if (receiver, giver) in moved else 0
        dx, dy = -(y1 - y0) / length * shift, (x1 - x0) / length * shift
        arrow(image, (x0 + dx, y0 + dy), (x1 + dx, y1 + dy), HANDOVER_COLOUR, (0, 0))
        words = counted(cards, "card")
        # The count by the receiver's end, beside the arrow (the other side for a swap's
        # second arrow), so the two counts of a swap do not overlap.
        near = (x0 + (x1 - x0) * 0.72 + dx * 2.6, y0 + (y1 - y0) * 0.72 + dy * 2.6)
        note("handover", _chip(image, near, words), f"{giver}>{receiver} {words}")


def _ends(giver: Box, receiver: Box) -> tuple[Point, Point]:
    """Where an arrow between two placards' hands starts and ends: along the bottom edges
    of two in one row, from the upper one's bottom edge to the lower one's top across
    rows."""
    x0, x1 = (giver[0] + giver[2]) / 2, (receiver[0] + receiver[2]) / 2
    if giver[1] == receiver[1]:
        return (x0, giver[3]), (x1, receiver[3])
    if giver[1] < receiver[1]:
        return (x0, giver[3]), (x1, receiver[1])
    return (x0, giver[1]), (x1, receiver[3])


def _chip(image: Image.Image, centre: Point, words: str) -> Box:
    width = round(text_width(words, CHIP_TEXT)) + 30  # room for the bold face
    left, top = round(centre[0] - width / 2), round(centre[1] - CHIP_H / 2)
    box: Box = (left, top, left + width, top + CHIP_H)
    rounded_box(image, box, CHIP_H // 2, HANDOVER_COLOUR, EDGE_INK, 2)
    _text(image, box, words, CHIP_TEXT, ink_for(HANDOVER_COLOUR), bold=True)
    return box

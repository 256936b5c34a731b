"""Cards handed from one hand straight into another on Dumpster Brawl!'s board (spoils taken
or given, a Raid, a Quick Swap): for the actions since the board before, an arrow from the
giver's placard to the receiver's with how many went. Never which: the observation does not
say.

The arrows run along the placards' edges under the fans of cards (and across the gap
between two rows); each count sits on its arrow where it covers no name band and no other
count (issue 38: "2 cards" lay over a player's name)."""

from __future__ import annotations

import math

from PIL import Image

from lang import ENGLISH, say
from render.common import TORCH, Box, Colour, arrow, ink_for, rounded_box, text_width
from render.common import cached_text_in_box as _text
from render.common.record import note
from rules.brawl.observation import BrawlObservation
from rules.phrases import phrase_n

HANDOVER_COLOUR: Colour = TORCH
EDGE_INK: Colour = (20, 16, 14)
SIDE_BY_SIDE = 9  # how far a swap's two arrows run apart
CHIP_TEXT = 20  # the count's size: about 11 px high on a board shown 550 px wide
CHIP_H = 32
Point = tuple[float, float]


# Where along its arrow a count may sit, in the order tried: by the receiver's end first.
ALONG = (0.72, 0.6, 0.5, 0.4, 0.84, 0.3, 0.2, 0.9)


def draw_handovers(
    image: Image.Image,
    obs: BrawlObservation,
    since: int,
    hands: list[Box],
    bands: tuple[Box, ...] = (),
    language: str = ENGLISH,
) -> None:
    """Every giver-to-receiver pair since step `since`, its cards added up; `hands[seat]` is
    the column of a seat's placard that holds its cards, `bands` the name bands no count
    may cover."""
    moved: dict[tuple[int, int], int] = {}
    for handover in obs.get("handovers") or []:  # a board saved before they were kept: none
        if handover["step"] > since:
            pair = (handover["giver"], handover["receiver"])
            moved[pair] = moved.get(pair, 0) + handover["cards"]
    taken: list[Box] = list(bands)
    chips: list[tuple[Box, str]] = []
    for (giver, receiver), cards in moved.items():
        (x0, y0), (x1, y1) = _ends(hands[giver], hands[receiver])
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        # Cards went both ways (a swap): each arrow keeps to its own side.
        shift = SIDE_BY_SIDE if (receiver, giver) in moved else 0
        dx, dy = -(y1 - y0) / length * shift, (x1 - x0) / length * shift
        arrow(image, (x0 + dx, y0 + dy), (x1 + dx, y1 + dy), HANDOVER_COLOUR, (0, 0))
        words = say(phrase_n("{n} card", "{n} cards", cards), language)
        # Beside the arrow (the other side for a swap's second arrow), at the first point
        # along it where the count covers nothing else.
        width = chip_width(words)
        spots = [(x0 + (x1 - x0) * t + dx * 2.6, y0 + (y1 - y0) * t + dy * 2.6) for t in ALONG]
        # A short arrow (across the gap between two rows) has no free point: then beside it.
        aside = [(0, -CHIP_H / 2 - 4), (0, CHIP_H / 2 + 4), (-width / 2 - 8, 0), (width / 2 + 8, 0)]
        aside += [(0, -CHIP_H - 8), (0, CHIP_H + 8)]
        spots += [(x + ax, y + ay) for ax, ay in aside for x, y in spots[:3]]
        boxes = [_chip_box(spot, width) for spot in spots]
        box = next((b for b in boxes if not any(_overlap(b, t) for t in taken)), boxes[0])
        taken.append(box)
        chips.append((box, words))
        note("handover", box, f"{giver}>{receiver} {words}")
    for box, words in chips:  # over every arrow: no later arrow crosses a count
        _chip(image, box, words)


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


def chip_width(words: str) -> int:
    return round(text_width(words, CHIP_TEXT)) + 30  # room for the bold face


def _chip_box(centre: Point, width: int) -> Box:
    left, top = round(centre[0] - width / 2), round(centre[1] - CHIP_H / 2)
    return (left, top, left + width, top + CHIP_H)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _chip(image: Image.Image, box: Box, words: str) -> None:
    rounded_box(image, box, CHIP_H // 2, HANDOVER_COLOUR, EDGE_INK, 2)
    _text(image, box, words, CHIP_TEXT, ink_for(HANDOVER_COLOUR), bold=True)

"""Rumble's side panel: the legend of the map's symbols, the status (rumble, turn, whose move)
and one row per player with their points and the crown for the leaders.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    STONE_DARK,
    TORCH,
    disc,
    draw_text,
    ink_for,
    rounded_box,
    shade,
    text_in_box,
)
from render.common.words import player_colour, player_name
from render.rumble.layout import (
    DEAD_DOOR,
    FLOOR,
    LEGEND_TOP,
    PASSAGE,
    SMALL_TEXT,
    STATUS_BOX,
    WALL,
    WALL_EDGE,
    player_row_box,
    said,
    winning_seats,
)
from render.rumble.sprites import paste_chest
from rules.phrases import language_of, phrase
from rules.rumble.observation import RumbleObservation

# --- side panel -------------------------------------------------------------------------


def draw_panel(image: Image.Image, obs: RumbleObservation, names: list[str]) -> None:
    winners = winning_seats(obs["totals"]) if obs["finished"] else []
    language = language_of(names)
    _draw_status(image, obs, names, winners)
    for seat in range(obs["seats"]):
        active = seat in obs["to_act"] and not obs["finished"]
        _draw_player_row(image, obs, names, seat, active, seat in winners)
    if player_row_box(obs["seats"] - 1)[3] < LEGEND_TOP - 8:
        _draw_legend(image, language)


LEGEND = (
    phrase("passage"),
    phrase("dead end"),
    phrase("treasure room"),
    phrase("the chest"),
)


def _draw_legend(image: Image.Image, language: str) -> None:
    """A key to the map's symbols, where the panel has room for it."""
    draw = ImageDraw.Draw(image)
    left, right = STATUS_BOX[0] + 4, STATUS_BOX[2]
    for index, label in enumerate(said(row, language) for row in LEGEND):
        middle = LEGEND_TOP + 12 + index * 24
        symbol = (left, middle - 7, left + 30, middle + 7)
        if index == 0:
            draw.rectangle(symbol, fill=PASSAGE, outline=WALL_EDGE)
        elif index == 1:
            draw.rectangle(symbol, fill=WALL, outline=WALL_EDGE)
            draw.rectangle((left + 8, middle - 7, left + 22, middle + 7), fill=DEAD_DOOR)
        elif index == 2:
            draw.rectangle(symbol, fill=FLOOR, outline=TORCH, width=2)
        else:
            paste_chest(image, left + 5, middle - 8, 20)
        box = (left + 40, middle - 12, right, middle + 12)
        text_in_box(image, box, label, SMALL_TEXT, MUTED, "left")


def _draw_status(
    image: Image.Image, obs: RumbleObservation, names: list[str], winners: list[int]
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) // 2
    language = language_of(names)
    if obs["finished"]:
        best = max(obs["totals"], default=0)
        if len(winners) == 1:
            heading = said(phrase("WINS WITH {points}", points=best), language)
        else:
            heading = said(phrase("SHARED WIN · {points}", points=best), language)
        line = " & ".join(player_name(names, seat) for seat in winners)
    else:
        heading = said(phrase("TO PLAY · {n} INSIDE", n=len(obs["positions"])), language)
        seat = obs["to_act"][0] if obs["to_act"] else None
        waiting = said(phrase("Waiting"), language)
        line = player_name(names, seat) if seat is not None else waiting
    # The whole width of the status box: "TO PLAY · 12 INSIDE" needs every pixel of it.
    text_in_box(image, (left, top, right, middle - 6), heading, SMALL_TEXT, TORCH, "left")
    text_in_box(image, (left + 4, middle - 4, right - 4, bottom), line, SMALL_TEXT, INK, "left",
                bold=True)  # fmt: skip


def _draw_player_row(
    image: Image.Image,
    obs: RumbleObservation,
    names: list[str],
    seat: int,
    active: bool,
    winner: bool,
) -> None:
    box = player_row_box(seat)
    left, top, right, bottom = box
    background = HIGHLIGHT if active else STONE_DARK
    rounded_box(image, box, 12, background, TORCH if winner else None, 3)
    ink = ink_for(background)
    soft = ink if active else MUTED
    disc(image, (left + 20, top + 24), 30, player_colour(seat), shade(background, 0.5))
    number_ink = ink_for(player_colour(seat))
    draw_text(image, (left + 20, top + 24), str(seat + 1), SMALL_TEXT, number_ink, "mm")
    # the name has the whole first line; the points, rumble by rumble, and the total below
    # every pixel to the disc's right is the name's: a name is cut only where it cannot fit
    name_right = right - 4 - (22 if winner else 0)
    name_w = text_in_box(image, (left + 38, top + 6, name_right, top + 40),
                         player_name(names, seat), SMALL_TEXT, ink, "left")  # fmt: skip
    if winner:
        _crown(image, (left + 42 + name_w, top + 14))
    total = str(obs["totals"][seat]) if seat < len(obs["totals"]) else "0"
    line_box = (left + 12, top + 40, right - 10, bottom - 2)
    total_w = text_in_box(image, line_box, total, 26, ink, "right", bold=True)
    history = [str(r["points"][seat]) for r in obs["history"] if seat < len(r["points"])]
    line = " + ".join(history) or said(
        phrase("no points yet"), language_of(names)
    )  # whose turn: the highlight and the status
    line_box = (line_box[0], line_box[1], line_box[2] - total_w - 10, line_box[3])
    text_in_box(image, line_box, line, SMALL_TEXT, soft, "left")


def _crown(image: Image.Image, at: tuple[int, int]) -> None:
    x, y = at
    points = [
        (x, y + 14),
        (x, y + 2),
        (x + 5, y + 8),
        (x + 9, y),
        (x + 13, y + 8),
        (x + 18, y + 2),
        (x + 18, y + 14),
    ]
    ImageDraw.Draw(image).polygon(points, fill=TORCH, outline=shade(TORCH, 0.5))

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
    LEGEND_TOP,
    PASSAGE,
    STATUS_BOX,
    WALL,
    WALL_EDGE,
    player_row_box,
    winning_seats,
)
from render.rumble.sprites import paste_chest
from rules.rumble.observation import RumbleObservation

# --- side panel -------------------------------------------------------------------------


def draw_panel(image: Image.Image, obs: RumbleObservation, names: list[str]) -> None:
    winners = winning_seats(obs["totals"]) if obs["finished"] else []
    _draw_status(image, obs, names, winners)
    for seat in range(obs["seats"]):
        active = seat in obs["to_act"] and not obs["finished"]
        _draw_player_row(image, obs, names, seat, active, seat in winners)
    if player_row_box(obs["seats"] - 1)[3] < LEGEND_TOP - 8:
        _draw_legend(image)


def _draw_legend(image: Image.Image) -> None:
    """A key to the map's symbols, where the panel has room for it."""
    draw = ImageDraw.Draw(image)
    left, right = STATUS_BOX[0] + 4, STATUS_BOX[2]
    draw_text(image, (left, LEGEND_TOP), "KEY", 12, MUTED, "lm")
    rows = ["passage between rooms", "door onto a wall", "the treasure chest"]
    for index, label in enumerate(rows):
        middle = LEGEND_TOP + 22 + index * 22
        symbol = (left, middle - 7, left + 30, middle + 7)
        if index == 0:
            draw.rectangle(symbol, fill=PASSAGE, outline=WALL_EDGE)
        elif index == 1:
            draw.rectangle(symbol, fill=WALL, outline=WALL_EDGE)
            draw.rectangle((left + 8, middle - 7, left + 22, middle + 7), fill=DEAD_DOOR)
        else:
            paste_chest(image, left + 5, middle - 8, 20)
        text_in_box(image, (left + 40, middle - 10, right, middle + 10), label, 13, MUTED, "left")


def _draw_status(
    image: Image.Image, obs: RumbleObservation, names: list[str], winners: list[int]
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) // 2
    if obs["finished"]:
        heading = "FINAL RESULT"
        who = " & ".join(player_name(names, seat) for seat in winners)
        best = max(obs["totals"], default=0)
        line = f"{who} {'wins' if len(winners) == 1 else 'share the win'} with {best}"
    else:
        inside = len(obs["positions"])
        heading = f"{inside} CHARACTER{'S' if inside != 1 else ''} STILL INSIDE"
        seat = obs["to_act"][0] if obs["to_act"] else None
        line = f"{player_name(names, seat)} to play" if seat is not None else "Waiting"
    text_in_box(image, (left + 4, top, right - 4, middle - 6), heading, 14, TORCH, "left", 11)
    text_in_box(
        image, (left + 4, middle - 4, right - 4, bottom), line, 21, INK, "left", 13, bold=True
    )


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
    disc(image, (left + 20, top + 24), 24, player_colour(seat), shade(background, 0.5))
    draw_text(image, (left + 20, top + 24), str(seat + 1), 13, ink_for(player_colour(seat)), "mm")
    total = str(obs["totals"][seat]) if seat < len(obs["totals"]) else "0"
    total_w = text_in_box(
        image, (right - 70, top + 4, right - 10, top + 44), total, 28, ink, "right"
    )
    name_right = right - 16 - total_w - (22 if winner else 0)
    text_in_box(
        image,
        (left + 38, top + 6, name_right, top + 40),
        player_name(names, seat),
        18,
        ink,
        "left",
        12,
    )
    if winner:
        _crown(image, (name_right + 2, top + 14))
    history = [
        f"R{r['rumble']}: {r['points'][seat]}" for r in obs["history"] if seat < len(r["points"])
    ]
    line_box = (left + 12, top + 44, right - 10, bottom - 4)
    if active:
        tag_w = text_in_box(image, line_box, "TO PLAY", 13, ink, "right")
        line_box = (line_box[0], line_box[1], line_box[2] - tag_w - 8, line_box[3])
    line = "  ·  ".join(history) or "no points yet"
    text_in_box(image, line_box, line, 13, soft, "left", 10)


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

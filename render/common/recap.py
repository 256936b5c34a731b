"""The frame every game's recap picture shares (`render/<game>/recap.py`): a title bar, then
a row per player best first, each with a seat disc and name, a column per stage of the game
(a rumble, a round) and the final figure. What each cell holds is noted for the tests
(`record.note("cell", box, "seat|column|value")`)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from render.common.palette import (
    BACKDROP,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Box,
    ink_for,
    shade,
)
from render.common.record import note
from render.common.shapes import disc, rounded_box, title_bar
from render.common.text import draw_text, text_in_box
from render.common.words import player_colour, player_name

TITLE_H = 48
HEADER_H = 34  # the column headings
ROW_H = 46
ROW_GAP = 6
NAME_W = 230
MARGIN = 16
FOOT_H = 34  # a line under the table


@dataclass(frozen=True)
class Row:
    """One player's line of the recap table."""

    seat: int
    cells: list[str]  # one per column: "5", "5\nKnight" (a figure, words under it), "" none
    total: str
    won: bool


def cell_note(seat: int, column: str, value: str) -> str:
    """How a cell is noted: the tests compare these with the observation."""
    return f"{seat}|{column}|{value}"


def table_image(
    title: str,
    names: list[str],
    columns: list[str],
    rows: list[Row],
    total: str,
    foot: str = "",
    cell_w: int = 92,
) -> Image.Image:
    """The recap table: `columns` headings, a row a player in the given order, `total` as
    the last column's heading, and `foot` as a line of words under it."""
    width = MARGIN * 2 + NAME_W + cell_w * (len(columns) + 1)
    height = TITLE_H + HEADER_H + len(rows) * (ROW_H + ROW_GAP) + MARGIN + (FOOT_H if foot else 0)
    image = Image.new("RGB", (width, height), BACKDROP)
    title_bar(image, title, "", TITLE_H)
    headings = [*columns, total]
    top = TITLE_H + 6
    for index, heading in enumerate(headings):
        left = MARGIN + NAME_W + index * cell_w
        colour = TORCH if index == len(columns) else MUTED
        text_in_box(
            image, (left, top, left + cell_w, top + HEADER_H - 6), heading, 15, colour, min_size=10
        )
    top = TITLE_H + HEADER_H
    for row in rows:
        _row(image, (MARGIN, top, width - MARGIN, top + ROW_H), row, names, columns, cell_w)
        top += ROW_H + ROW_GAP
    if foot:
        text_in_box(
            image, (MARGIN, top, width - MARGIN, top + FOOT_H - 8), foot, 15, MUTED, "left", 10
        )
    return image


def _row(
    image: Image.Image, box: Box, row: Row, names: list[str], columns: list[str], cell_w: int
) -> None:
    left, top, _right, bottom = box
    rounded_box(
        image,
        box,
        10,
        shade(TORCH, 0.3) if row.won else STONE_DARK,
        TORCH if row.won else PANEL_EDGE,
        2,
    )
    middle = (top + bottom) // 2
    colour = player_colour(row.seat)
    disc(image, (left + 22, middle), 26, colour, PANEL)
    draw_text(image, (left + 22, middle), str(row.seat + 1), 14, ink_for(colour), "mm")
    name = player_name(names, row.seat)
    text_in_box(image, (left + 42, top, left + NAME_W - 8, bottom), name, 19, INK, "left", 11)
    for index, (column, value) in enumerate(
        zip([*columns, "total"], [*row.cells, row.total], strict=True)
    ):
        cell_left = left + NAME_W + index * cell_w
        cell = (cell_left, top + 4, cell_left + cell_w, bottom - 4)
        last = index == len(columns)
        figure, _, words = value.partition("\n")  # a figure, and words under it
        if words:
            upper = (cell[0], cell[1], cell[2], middle + 4)
            text_in_box(image, upper, figure, 18, INK, min_size=10)
            text_in_box(
                image, (cell[0], middle + 2, cell[2], cell[3]), words, 12, MUTED, min_size=9
            )
        elif figure:
            text_in_box(
                image,
                cell,
                figure,
                22 if last else 18,
                TORCH if last else INK,
                min_size=10,
                bold=last,
            )
        note("cell", cell, cell_note(row.seat, column, value))

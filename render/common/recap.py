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
from render.common.text import draw_text, least_size, text_in_box
from render.common.words import player_colour, player_name

TITLE_H = 48
HEADER_H = 34  # the column headings
ROW_H = 52  # room for a figure and a line of words under it, both legible
ROW_GAP = 6
NAME_W = 200
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
    # Every text at least the least size for this width: the recap is shown 550 px wide
    # like the boards (issue 38).
    least = least_size(width)
    height = TITLE_H + HEADER_H + len(rows) * (ROW_H + ROW_GAP) + MARGIN + (FOOT_H if foot else 0)
    image = Image.new("RGB", (width, height), BACKDROP)
    title_bar(image, title, "", TITLE_H)
    headings = [*columns, total]
    top = TITLE_H + 6
    for index, heading in enumerate(headings):
        left = MARGIN + NAME_W + index * cell_w
        colour = TORCH if index == len(columns) else MUTED
        text_in_box(
            image, (left, top, left + cell_w, top + HEADER_H - 6), heading, max(15, least), colour,
            min_size=least,
        )  # fmt: skip
    top = TITLE_H + HEADER_H
    for row in rows:
        box = (MARGIN, top, width - MARGIN, top + ROW_H)
        _row(image, box, row, names, columns, cell_w, least)
        top += ROW_H + ROW_GAP
    if foot:
        foot_box = (MARGIN, top, width - MARGIN, top + FOOT_H - 8)
        text_in_box(image, foot_box, foot, max(15, least), MUTED, "left", least)
    return image


def _row(
    image: Image.Image,
    box: Box,
    row: Row,
    names: list[str],
    columns: list[str],
    cell_w: int,
    least: int,
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
    draw_text(image, (left + 22, middle), str(row.seat + 1), max(14, least), ink_for(colour), "mm")
    name = player_name(names, row.seat)
    name_box = (left + 42, top, left + NAME_W - 8, bottom)
    text_in_box(image, name_box, name, max(19, least), INK, "left", least)
    for index, (column, value) in enumerate(
        zip([*columns, "total"], [*row.cells, row.total], strict=True)
    ):
        cell_left = left + NAME_W + index * cell_w
        cell = (cell_left, top + 4, cell_left + cell_w, bottom - 4)
        last = index == len(columns)
        figure, _, words = value.partition("\n")  # a figure, and words under it
        if words:
            upper = (cell[0], cell[1], cell[2], middle + 2)
            text_in_box(image, upper, figure, max(18, least), INK, min_size=least)
            lower = (cell[0], middle + 2, cell[2], cell[3])
            text_in_box(image, lower, words, least, MUTED, min_size=least)
        elif figure:
            text_in_box(
                image,
                cell,
                figure,
                max(22 if last else 18, least),
                TORCH if last else INK,
                min_size=least,
                bold=last,
            )
        note("cell", cell, cell_note(row.seat, column, value))

"""Seats laid out in a grid of equal cells, one cell a player, for the public pictures."""

from __future__ import annotations

from render.common.palette import Box


def seat_cell(
    seat: int, seats: int, cols: int, cell_h: int, *, left: int, right: int, top: int, gap: int
) -> Box:
    """Where `seat`'s cell sits in a grid of `cols` columns spanning `left` to `right` from
    `top`, cells `gap` apart; a row with fewer cells than columns is centred."""
    cell_w = (right - left - (cols - 1) * gap) // cols
    row, col = divmod(seat, cols)
    in_row = min(cols, seats - row * cols)
    cell_left = left + (cols - in_row) * (cell_w + gap) // 2 + col * (cell_w + gap)
    cell_top = top + row * (cell_h + gap)
    return (cell_left, cell_top, cell_left + cell_w, cell_top + cell_h)

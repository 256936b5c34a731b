"""Things laid out in rows of equal cells: the seats of a public picture, one cell a player,
and the bricks of a wall behind a board.
"""

from __future__ import annotations

from collections.abc import Iterator

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


def bricks(width: int, height: int, brick_w: int, brick_h: int) -> Iterator[tuple[int, int, int]]:
    """(row, left, top) of every brick of a wall covering `width` x `height`, row by row from
    the top, each row shifted half a brick from the one above; the caller draws each brick
    in its own look."""
    for row, top in enumerate(range(0, height, brick_h)):
        offset = (row % 2) * brick_w // 2
        for left in range(-offset, width, brick_w):
            yield row, left, top

"""render/animation.py: a replay fits Discord's upload limit by keeping fewer boards, spread
evenly with the first and the last among them, and says how many it kept."""

from __future__ import annotations

import io
import random

from PIL import Image

from render.animation import _evenly, animate
from render.png import to_png


def noisy_board(seed: int) -> bytes:
    """A board-sized picture that compresses badly, so a few frames fill a budget."""
    rng = random.Random(seed)
    image = Image.frombytes("RGB", (900, 600), rng.randbytes(900 * 600 * 3))
    return to_png(image)


def test_a_long_replay_keeps_fewer_boards_to_fit_the_upload_limit() -> None:
    boards = [[noisy_board(seed)] for seed in range(12)]
    whole = animate(boards, budget=10**9, title="Test #1")
    assert (whole.frames, whole.boards) == (12, 12)
    budget = len(whole.data) // 3
    fitted = animate(boards, budget=budget, title="Test #1")
    assert len(fitted.data) <= budget
    assert 2 <= fitted.frames < 12 and fitted.boards == 12
    assert Image.open(io.BytesIO(fitted.data)).n_frames == fitted.frames


def test_the_boards_kept_are_spread_evenly_with_the_first_and_the_last() -> None:
    assert _evenly(5, 9) == [0, 1, 2, 3, 4]
    assert _evenly(41, 5) == [0, 10, 20, 30, 40]
    kept = _evenly(100, 7)
    assert kept[0] == 0 and kept[-1] == 99 and len(kept) == 7

"""render/animation.py: a replay fits its byte budget whatever the game's length: boards
picked before they are drawn (the first, the last and the turns' results first), then fewer
boards, fewer colours and smaller frames, and it says what it kept."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from render.animation import (
    FEWEST_FRAMES,
    SMALLEST_WIDTH,
    WIDTH,
    Board,
    TooLarge,
    _evenly,
    animate,
    pick,
)
from render.png import to_png


def noisy_board(seed: int) -> bytes:
    """A board-sized picture that compresses badly, so a few frames fill a budget."""
    rng = random.Random(seed)
    image = Image.frombytes("RGB", (900, 600), rng.randbytes(900 * 600 * 3))
    return to_png(image)


def moving_board(step: int) -> bytes:
    """A flat board with one piece moved a little each step, like a game's boards."""
    image = Image.new("RGB", (900, 600), (40, 60, 50))
    draw = ImageDraw.Draw(image)
    draw.rectangle((100, 100, 800, 500), fill=(120, 110, 90))
    x = 120 + step * 7 % 600
    draw.ellipse((x, 250, x + 60, 310), fill=(200, 60, 40))
    return to_png(image)


def frames_of(data: bytes) -> list[Image.Image]:
    animation = Image.open(io.BytesIO(data))
    frames = []
    for index in range(animation.n_frames):
        animation.seek(index)
        frames.append(animation.convert("RGB"))
    return frames


def test_a_replay_over_its_budget_gives_up_boards_then_colours_then_size() -> None:
    boards = [Board([noisy_board(seed)], seed) for seed in range(16)]
    whole = animate(boards, 16, budget=10**9, title="Test #1")
    assert (whole.shown, whole.boards, whole.width) == (list(range(16)), 16, WIDTH)
    assert whole.colours == 255
    budget = len(whole.data) // 3
    fitted = animate(boards, 16, budget=budget, title="Test #1")
    assert len(fitted.data) <= budget
    assert fitted.colours < 255 and fitted.frames < 16 and fitted.boards == 16
    assert fitted.shown[0] == 0 and fitted.shown[-1] == 15
    assert Image.open(io.BytesIO(fitted.data)).n_frames == fitted.frames
    # Fewer boards than FEWEST_FRAMES only once the frames are as small as they go.
    tiny = animate(boards, 16, budget=len(whole.data) // 40, title="Test #1")
    assert tiny.frames < FEWEST_FRAMES and tiny.width == SMALLEST_WIDTH
    assert tiny.shown[-1] == 15
    with pytest.raises(TooLarge):
        animate(boards, 16, budget=1000, title="Test #1")


def test_one_palette_makes_a_frame_cost_what_changed() -> None:
    """Boards that differ in one small piece: every frame after the first is a few hundred
    bytes, and each frame still shows its own board."""
    boards = [Board([moving_board(step)], step) for step in range(40)]
    animation = animate(boards, 40, budget=10**9, title="Test #2")
    first = len(animate(boards[:1], 1, budget=10**9, title="Test #2").data)
    assert (len(animation.data) - first) / 39 < 2500
    frames = frames_of(animation.data)
    assert len(frames) == 40
    # The piece is where its board put it (scaled from 900 to WIDTH pixels).
    for step in (0, 17, 39):
        x = (120 + step * 7 % 600 + 30) * WIDTH // 900
        red, green, _ = frames[step].getpixel((x, 280 * WIDTH // 900))
        assert red > 150 and green < 120, (step, red, green)


def test_the_boards_kept_are_the_first_the_last_and_the_turns_results() -> None:
    assert pick(5, [], 9) == [0, 1, 2, 3, 4]
    assert pick(41, [], 5) == [0, 10, 20, 30, 40]
    assert pick(100, [], 1) == [99]
    # Results first, spread evenly; the others only with room left.
    results = list(range(9, 100, 10))  # every tenth board ends a turn
    assert pick(100, results, 11) == [0, *results]
    assert pick(100, results, 12) == sorted([0, *results, 50])
    kept = pick(100, results, 7)
    assert kept[0] == 0 and kept[-1] == 99 and len(kept) == 7 and set(kept) <= {0, *results}
    more = pick(100, results, 20)
    assert set(results) <= set(more) and len(more) == 20
    assert _evenly(100, 7) == [0, 16, 33, 50, 66, 82, 99]

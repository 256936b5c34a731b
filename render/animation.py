"""A replay as one animated GIF: every board of a game, one frame each, under a size limit.

GIF because every Discord client plays it in the chat. Each frame is a board's pictures
stacked (a Brawl fight's dice under the alley), scaled to `WIDTH` and given its own
256-colour palette, with a caption counting the boards ("board 3 of 41"); the caption also
keeps two boards that look the same from merging into one frame. A game too long for the
upload limit keeps fewer boards, spread evenly (always the first and the last), and then a
smaller picture, and says so: `Animation.frames` against `Animation.boards`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from render.common.palette import BACKDROP, INK, TITLE_BG
from render.common.text import draw_text

WIDTH = 640  # the frames' width: Discord shows an attachment at most about this wide
SMALLEST_WIDTH = 400  # below this a board is not worth watching; fewer frames instead
CAPTION_HEIGHT = 30
CAPTION_SIZE = 18
FRAME_MS = 1600  # long enough to read the log line a board stands for
LAST_FRAME_MS = 6000  # the final board stays up a while before the loop starts again


@dataclass(frozen=True)
class Animation:
    data: bytes  # the GIF
    frames: int  # boards shown
    boards: int  # boards the game had
    width: int


def animate(boards: Sequence[Sequence[bytes]], budget: int, title: str) -> Animation:
    """The GIF of `boards` (each a board's PNG pictures, in order) in at most `budget`
    bytes. `title` heads each frame's caption ("Trash War #12")."""
    pictures = [_stacked(pngs) for pngs in boards]
    made: dict[tuple[int, int], Image.Image] = {}  # (board, width): its frame, ready

    def frame(index: int, width: int) -> Image.Image:
        if (index, width) not in made:
            caption = f"{title} · board {index + 1} of {len(pictures)}"
            made[index, width] = _frame(pictures[index], width, caption)
        return made[index, width]

    width, keep = WIDTH, len(pictures)
    while True:
        chosen = _evenly(len(pictures), keep)
        data = _gif([frame(index, width) for index in chosen])
        if len(data) <= budget or (keep <= 2 and width <= SMALLEST_WIDTH):
            return Animation(data, len(chosen), len(pictures), width)
        # Too big: fewer frames in proportion, with a margin; at the fewest worth keeping,
        # smaller ones.
        fewer = int(keep * budget / len(data) * 0.9)
        if fewer >= 2:
            keep = fewer
        else:
            keep, width = 2, max(SMALLEST_WIDTH, int(width * 0.8))


def _stacked(pngs: Sequence[bytes]) -> Image.Image:
    """A board's pictures one under the other, at the width of the first."""
    images = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    width = images[0].width
    scaled = [
        image
        if image.width == width
        else image.resize((width, image.height * width // image.width))
        for image in images
    ]
    stack = Image.new("RGB", (width, sum(image.height for image in scaled)), BACKDROP)
    top = 0
    for image in scaled:
        stack.paste(image, (0, top))
        top += image.height
    return stack


def _frame(picture: Image.Image, width: int, caption: str) -> Image.Image:
    height = picture.height * width // picture.width
    frame = Image.new("RGB", (width, height + CAPTION_HEIGHT), TITLE_BG)
    # BOX (the average of the pixels each one covers) is the fastest good filter for a
    # shrink of less than two times: LANCZOS took four times as long for a frame.
    frame.paste(picture.resize((width, height), Image.Resampling.BOX), (0, 0))
    draw_text(frame, (10, height + CAPTION_HEIGHT // 2), caption, CAPTION_SIZE, INK, "lm")
    return frame.quantize(256, method=Image.Quantize.FASTOCTREE)


def _gif(frames: list[Image.Image]) -> bytes:
    """Frames of different heights share the tallest one's canvas."""
    height = max(frame.height for frame in frames)
    width = frames[0].width
    canvases = []
    for frame in frames:
        canvas = frame
        if frame.height != height:
            canvas = Image.new("RGB", (width, height), BACKDROP)
            canvas.paste(frame.convert("RGB"), (0, 0))
            canvas = canvas.quantize(256, method=Image.Quantize.FASTOCTREE)
        canvases.append(canvas)
    durations = [FRAME_MS] * (len(canvases) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    canvases[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=canvases[1:],
        duration=durations,
        loop=0,
    )
    return buffer.getvalue()


def _evenly(total: int, keep: int) -> list[int]:
    """`keep` of the indexes 0 .. total-1, spread evenly, the first and the last among
    them."""
    if keep >= total:
        return list(range(total))
    if keep <= 1:
        return [total - 1]
    return sorted({round(i * (total - 1) / (keep - 1)) for i in range(keep)})

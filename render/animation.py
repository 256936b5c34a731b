"""A replay as one animated GIF: a game's boards, one frame each, within a byte budget.

GIF because every Discord client plays it in the chat. Each frame is a board's pictures
stacked (a Brawl fight's dice under the alley), scaled to `WIDTH`, with a caption counting
the boards ("board 3 of 41"; it also keeps two boards that look the same from merging).

What keeps a replay small is that one board differs from the next in a few places (a piece
moved, a panel's figures): every frame shares one palette, taken from a sample of the
frames, so a pixel that did not change keeps its palette index, and Pillow writes it as
the palette's spare (transparent) entry, which compresses to almost nothing: the same 150
boards of a long Trash War game take 2.3 MB so, 6.9 MB with a palette per frame
(docs/performance.md, "Replays").

Which boards become frames is decided before any is drawn (`pick`): a game far longer
than anyone watches keeps `MOST_FRAMES` of them, always the first and the last, then the
turns' results (the last board of a message: a Toss It turn's final drop), then the others,
each spread evenly. A replay still over its budget gives up, in order, what a player misses
least: boards down to `FEWEST_FRAMES` (fewer colours first, when a few per cent are enough:
the boards are flat drawings), width down to `SMALLEST_WIDTH`, then boards down to the last
alone; `Animation` says what it kept.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from lang import ENGLISH, say
from render.common.palette import BACKDROP, INK, TITLE_BG
from render.common.text import draw_text
from rules.phrases import phrase

WIDTH = 640  # the frames' width: Discord shows an attachment at most about this wide
SMALLEST_WIDTH = 400  # below this a board's text cannot be read
CAPTION_HEIGHT = 30
CAPTION_SIZE = 18
FRAME_MS = 1600  # long enough to read the log line a board stands for
LAST_FRAME_MS = 6000  # the final board stays up a while before the loop starts again
# At FRAME_MS a frame, four minutes: more than a table sits through to see a game again.
MOST_FRAMES = 150
FEWEST_FRAMES = 12  # fewer boards tell no story: smaller pictures before fewer than this
# Colours of the one palette, each step a little smaller file; one entry of the 256 stays
# free for Pillow to mark the pixels a frame leaves as they were.
COLOURS = (255, 127, 63)
PALETTE_SAMPLE = 8  # frames the palette is taken from, spread over the replay
SHRINK_MARGIN = 0.9  # a cut aims this far under the budget: sizes are not quite linear
FEW_PER_CENT = 0.85  # fewer colours are tried first when the replay is over by less


class TooLarge(Exception):
    """Not even the last board alone, at the smallest width, fits the budget."""


@dataclass(frozen=True)
class Board:
    """A board to show: its pictures (PNG bytes, drawn in order, stacked), its place among
    the game's boards (from 0) and whether it ends a turn (kept before those inside one)."""

    pngs: Sequence[bytes]
    number: int
    result: bool = True


@dataclass(frozen=True)
class Animation:
    data: bytes  # the GIF
    shown: list[int]  # the boards' numbers, in order, one frame each
    boards: int  # boards the game had
    width: int
    colours: int

    @property
    def frames(self) -> int:
        return len(self.shown)


def pick(total: int, results: Collection[int], keep: int) -> list[int]:
    """`keep` of the boards 0 .. total-1, in order: the first and the last, then as many
    of `results` as fit, then the others, each group spread evenly over the game."""
    if keep >= total:
        return list(range(total))
    chosen = {total - 1} if keep <= 1 else {0, total - 1}
    ends = sorted(set(results) - chosen)
    others = [i for i in range(total) if i not in chosen and i not in set(results)]
    for group in (ends, others):
        room = min(keep - len(chosen), len(group))
        if room <= 0:
            continue
        # Evenly between the first and the last board: the group's own ends are not
        # wanted more than its middle.
        spread = _evenly(len(group) + 2, room + 2)[1:-1]
        chosen.update(group[i - 1] for i in spread)
    return sorted(chosen)


def animate(
    boards: Sequence[Board], total: int, budget: int, title: str, language: str = ENGLISH
) -> Animation:
    """The GIF of `boards` (in order; `total` boards in the game) in at most `budget` bytes.
    `title` heads each frame's caption ("Trash War #12"), said in `language`. Raises
    `TooLarge` when even the last board alone does not fit."""
    frames = _Frames(boards, total, title, language)
    results = [i for i, board in enumerate(boards) if board.result]
    width, colours, keep = WIDTH, 0, len(boards)
    while True:
        chosen = pick(len(boards), results, keep)
        data = _gif(frames.made(chosen, width, COLOURS[colours]))
        if len(data) <= budget:
            shown = [boards[i].number for i in chosen]
            return Animation(data, shown, total, width, COLOURS[colours])
        share = budget / len(data) * SHRINK_MARGIN
        # Fewer colours save a few per cent a step: worth trying only when that is enough.
        if colours + 1 < len(COLOURS) and (share > FEW_PER_CENT or keep <= FEWEST_FRAMES):
            colours += 1
        elif keep > FEWEST_FRAMES:
            keep = max(FEWEST_FRAMES, min(keep - 1, int(keep * share)))
        elif width > SMALLEST_WIDTH:
            width = max(SMALLEST_WIDTH, min(width - 16, int(width * math.sqrt(share))))
        elif keep > 1:
            keep = max(1, min(keep - 1, int(keep * share)))
        else:
            raise TooLarge(f"{len(data)} bytes for one frame, over {budget}")


class _Frames:
    """The boards' frames at one width, on one palette of `COLOURS[0]` taken from a sample
    of them: each drawn once (decoding, scaling and captioning a board costs about as much
    as encoding it), kept as palette images (a byte a pixel), drawn again at a new width."""

    def __init__(
        self, boards: Sequence[Board], total: int, title: str, language: str = ENGLISH
    ) -> None:
        self.boards, self.total, self.title = boards, total, title
        self.language = language
        self.sizes = [[Image.open(io.BytesIO(png)).size for png in b.pngs] for b in boards]
        self.width = 0
        self.palette: Image.Image | None = None
        self.frames: dict[int, Image.Image] = {}

    def made(self, chosen: Sequence[int], width: int, colours: int) -> Iterator[Image.Image]:
        """The frames of `chosen`, in order, on a palette of `colours`."""
        if width != self.width:
            self.width, self.frames = width, {}
            # Every board fits the canvas, so a frame once made serves any choice of them.
            self.height = max(sum(_heights(s, width)) for s in self.sizes) + CAPTION_HEIGHT
            sample = _evenly(len(self.boards), PALETTE_SAMPLE)
            self.palette = _palette([self._rgb(i) for i in sample], COLOURS[0])
        if colours == COLOURS[0]:
            return (self._made(i) for i in chosen)
        sample = [chosen[i] for i in _evenly(len(chosen), PALETTE_SAMPLE)]
        fewer = _palette([self._made(i).convert("RGB") for i in sample], colours)
        return (_on(self._made(i).convert("RGB"), fewer) for i in chosen)

    def _made(self, index: int) -> Image.Image:
        if index not in self.frames:
            assert self.palette is not None
            self.frames[index] = _on(self._rgb(index), self.palette)
        return self.frames[index]

    def _rgb(self, index: int) -> Image.Image:
        board = self.boards[index]
        where = phrase("board {board} of {boards}", board=board.number + 1, boards=self.total)
        caption = f"{self.title} · {say(where, self.language)}"
        heights = _heights(self.sizes[index], self.width)
        return _frame(board.pngs, self.width, heights, self.height, caption)


def _heights(sizes: Sequence[tuple[int, int]], width: int) -> list[int]:
    """The heights of a board's pictures stacked at `width` (each scaled as the first)."""
    full = sizes[0][0]
    return [height * full // w * width // full for w, height in sizes]


def _frame(
    pngs: Sequence[bytes], width: int, heights: list[int], height: int, caption: str
) -> Image.Image:
    """A board's pictures stacked at `width` (each `heights` tall), captioned, on a canvas
    `height` tall (every frame of a GIF has the size of the first)."""
    frame = Image.new("RGB", (width, height), BACKDROP)
    top = 0
    for png, tall in zip(pngs, heights, strict=True):
        image = Image.open(io.BytesIO(png)).convert("RGB")
        # BOX (the average of the pixels each one covers) is the fastest good filter for a
        # shrink of less than two times: LANCZOS took four times as long for a frame.
        frame.paste(image.resize((width, tall), Image.Resampling.BOX), (0, top))
        top += tall
    frame.paste(TITLE_BG, (0, top, width, top + CAPTION_HEIGHT))
    draw_text(frame, (10, top + CAPTION_HEIGHT // 2), caption, CAPTION_SIZE, INK, "lm")
    return frame


def _palette(pictures: list[Image.Image], colours: int) -> Image.Image:
    """One palette of `colours` for all the frames, from `pictures` (a sample of them)."""
    width, height = pictures[0].size
    strip = Image.new("RGB", (width, height * len(pictures)))
    for index, picture in enumerate(pictures):
        strip.paste(picture, (0, index * height))
    return strip.quantize(colours, method=Image.Quantize.FASTOCTREE)


def _on(frame: Image.Image, palette: Image.Image) -> Image.Image:
    """`frame` on `palette`, without dithering: a pixel that did not change from one
    frame to the next keeps its index, and Pillow writes it as unchanged."""
    return frame.quantize(palette=palette, dither=Image.Dither.NONE)


def _gif(frames: Iterator[Image.Image]) -> bytes:
    """The frames as a looping GIF (Pillow takes them one at a time as it writes)."""
    first = next(frames)
    rest = list(frames)
    durations = [FRAME_MS] * len(rest) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    first.save(buffer, format="GIF", save_all=True, append_images=rest, duration=durations, loop=0)
    return buffer.getvalue()


def _evenly(total: int, keep: int) -> list[int]:
    """`keep` of the indexes 0 .. total-1, spread evenly, the first and the last among
    them."""
    if keep >= total:
        return list(range(total))
    if keep <= 1:
        return [total - 1]
    return sorted({round(i * (total - 1) / (keep - 1)) for i in range(keep)})

"""Toss It in the Trash's pieces: each piece drawn at its pose from the simulation, exactly its
`KINDS` outline with a carton's, can's, bottle's or apple's look painted inside, as cached
sprites.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import SUPERSAMPLE, TORCH, Colour, Size, see_through, shade
from render.toss.layout import GHOST_ALPHA, LOOKS, PIECE_EDGE, UNKNOWN_LOOK, BinView, PieceLook
from rules.toss.bin import KINDS, Kind
from rules.toss.observation import BinPiece

# --- pieces ------------------------------------------------------------------------------


def look_of(kind: str) -> PieceLook:
    return LOOKS.get(kind, UNKNOWN_LOOK)


# A piece as drawn: kind, centre in millimetres, whole degrees turned.
PileKey = tuple[tuple[str, float, float, int], ...]


def pile_key(pieces: list[BinPiece]) -> PileKey:
    return tuple(
        (piece["kind"], piece["x"], piece["y"], round(math.degrees(piece["angle"])) % 360)
        for piece in pieces
    )


def draw_pieces(image: Image.Image, view: BinView, pieces: list[BinPiece]) -> None:
    draw_pile(image, view, pile_key(pieces))


def draw_pile(image: Image.Image, view: BinView, pile: PileKey) -> None:
    for key, x, y, degrees in pile:
        kind = KINDS.get(key)
        if kind is None:
            continue
        sprite = piece_sprite(key, kind, view.scale, degrees, "solid")
        paste_centred(image, sprite, view.at(x, y))


def paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    left = round(centre[0] - sprite.width / 2)
    top = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (left, top), sprite)


def piece_size_px(kind: Kind, scale: float) -> Size:
    """The upright sprite's size: the physics outline at `scale` pixels per millimetre."""
    if kind.shape == "round":
        side = max(3, round(2 * kind.radius * scale))
        return side, side
    return max(3, round(kind.width * scale)), max(3, round(kind.height * scale))


@lru_cache(maxsize=1024)  # at most ~40 MB of turned sprites
def piece_sprite(key: str, kind: Kind, scale: float, degrees: int, style: str) -> Image.Image:
    """The piece (RGBA) turned `degrees` counter-clockwise around its centre. `style`:
    "solid" in the bin, "ghost" held over it, "outline" where it is let go, "faded" for
    a kind whose supply is used up."""
    upright = _upright_sprite(key, kind, scale)
    if style in ("ghost", "faded"):
        upright = see_through(upright, GHOST_ALPHA if style == "ghost" else 0.25)
    elif style == "outline":
        upright = _outline_sprite(kind, piece_size_px(kind, scale))
    if degrees % 360 == 0:
        return upright
    return upright.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True)


@lru_cache(maxsize=64)
def _outline_sprite(kind: Kind, size: Size) -> Image.Image:
    k = SUPERSAMPLE
    big = Image.new("RGBA", (size[0] * k, size[1] * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = (0, 0, size[0] * k - 1, size[1] * k - 1)
    fill = (*TORCH, 60)
    line = (*TORCH, 230)
    if kind.shape == "round":
        draw.ellipse(box, fill=fill, outline=line, width=k * 2)
    else:
        draw.rectangle(box, fill=fill, outline=line, width=k * 2)
    return big.reduce(k)


@lru_cache(maxsize=64)
def _upright_sprite(key: str, kind: Kind, scale: float) -> Image.Image:
    """The piece unturned (RGBA), exactly its outline's size, drawn large and shrunk."""
    width, height = piece_size_px(kind, scale)
    k = SUPERSAMPLE
    big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    look = look_of(key)
    _PAINTERS[look.painter](big, look, k)
    return big.reduce(k)


def rgba(colour: Colour, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


def _paint_carton(image: Image.Image, look: PieceLook, k: int) -> None:
    """A milk carton standing up: a gable top with its fin, a blue label band low down."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(w * 0.05))
    draw.rectangle((0, 0, w - 1, h - 1), fill=rgba(PIECE_EDGE))
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=rgba(look.body))
    fin, gable = round(h * 0.07), round(h * 0.2)
    draw.rectangle((edge, edge, w - 1 - edge, fin), fill=rgba(look.detail))
    draw.polygon(
        [(edge, gable), (w / 2, fin), (w - 1 - edge, gable)], fill=rgba(shade(look.body, 0.9))
    )
    draw.line((edge, gable, w - 1 - edge, gable), fill=rgba(look.detail), width=k)
    band_top, band_bottom = round(h * 0.6), round(h * 0.82)
    draw.rectangle((edge, band_top, w - 1 - edge, band_bottom), fill=rgba(look.accent))
    draw.rectangle(
        (edge, band_top, w - 1 - edge, band_top + k * 2), fill=rgba(shade(look.accent, 0.7))
    )
    # a white drop on the band
    cx, cy, r = w / 2, (band_top + band_bottom) / 2, (band_bottom - band_top) * 0.28
    draw.ellipse((cx - r, cy - r * 0.6, cx + r, cy + r * 1.2), fill=rgba(look.body))
    draw.polygon([(cx - r * 0.8, cy), (cx, cy - r * 1.6), (cx + r * 0.8, cy)], rgba(look.body))


def _paint_can(image: Image.Image, look: PieceLook, k: int) -> None:
    """A tin can: grey metal with rolled rims top and bottom and two pairs of ribs."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(min(w, h) * 0.05))
    draw.rectangle((0, 0, w - 1, h - 1), fill=rgba(PIECE_EDGE))
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=rgba(look.body))
    rim = round(h * 0.12)
    for top in (edge, h - 1 - edge - rim):
        draw.rectangle((edge, top, w - 1 - edge, top + rim), fill=rgba(look.accent))
        draw.rectangle((edge, top + k, w - 1 - edge, top + 2 * k), fill=rgba(look.detail))
    for share in (0.3, 0.38, 0.62, 0.7):
        y = round(h * share)
        draw.line((edge, y, w - 1 - edge, y), fill=rgba(shade(look.body, 0.82)), width=k)
    # a vertical shine
    x = round(w * 0.22)
    draw.rectangle((x, rim + edge, x + round(w * 0.08), h - 1 - edge - rim), rgba(look.detail))


def _paint_bottle(image: Image.Image, look: PieceLook, k: int) -> None:
    """A glass bottle: see-through green, a paler neck with a cap, a paper label."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(w * 0.07))
    draw.rectangle((0, 0, w - 1, h - 1), fill=rgba(shade(look.body, 0.35)))
    glass = rgba(look.body, look.alpha)
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=glass)
    # the shoulders and neck: the glass beside the neck is thinner, so paler
    neck_w, shoulder, cap = w * 0.22, round(h * 0.3), round(h * 0.07)
    pale = rgba(shade(look.body, 1.35), look.alpha - 70)
    for side in (-1, 1):
        outer = edge if side < 0 else w - 1 - edge
        inner = w / 2 + side * neck_w
        draw.polygon(
            [(outer, edge), (inner, edge), (inner, shoulder - h * 0.06), (outer, shoulder)],
            fill=pale,
        )
    draw.rectangle((w / 2 - neck_w - k, edge, w / 2 + neck_w + k, cap), fill=rgba(look.detail))
    label_top, label_bottom = round(h * 0.64), round(h * 0.84)
    draw.rectangle((edge, label_top, w - 1 - edge, label_bottom), fill=rgba(look.accent))
    shine = rgba(shade(look.body, 1.6), 150)
    draw.rectangle((round(w * 0.24), shoulder, round(w * 0.36), label_top - k * 2), fill=shine)


def _paint_apple(image: Image.Image, look: PieceLook, k: int) -> None:
    """An apple core: red-brown skin top and bottom, bitten pale flesh between, a stem, the
    core's outline and two seeds (the centre itself stays flesh)."""
    w, h = image.size
    size = min(w, h)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, size - 1, size - 1), fill=255)
    art = Image.new("RGBA", (w, h), rgba(look.body))
    draw = ImageDraw.Draw(art)
    # the skin left at top and bottom, curving like the apple did
    for y0, y1 in ((-size * 0.55, size * 0.24), (size * 0.76, size * 1.55)):
        draw.ellipse((-size * 0.2, y0, size * 1.2, y1), fill=rgba(look.accent))
    # bites browned at the edges
    for cx in (-size * 0.06, size * 1.06):
        draw.ellipse(
            (cx - size * 0.24, size * 0.24, cx + size * 0.24, size * 0.76),
            fill=rgba(shade(look.body, 0.8)),
        )
    # the core: an almond outline with a seed above and below the centre
    core = rgba(shade(look.body, 0.72))
    draw.ellipse((size * 0.34, size * 0.25, size * 0.66, size * 0.75), outline=core, width=k)
    for cy in (size * 0.36, size * 0.64):
        draw.ellipse(
            (size * 0.44, cy - size * 0.07, size * 0.56, cy + size * 0.07), fill=rgba(look.detail)
        )
    # the stem, inside the outline
    draw.line((size * 0.5, size * 0.2, size * 0.58, k), fill=rgba(look.detail), width=2 * k)
    ring = Image.new("L", (w, h), 0)
    ring_draw = ImageDraw.Draw(ring)
    ring_draw.ellipse((0, 0, size - 1, size - 1), fill=255)
    edge = max(k, round(size * 0.05))
    ring_draw.ellipse((edge, edge, size - 1 - edge, size - 1 - edge), fill=0)
    art.paste(rgba(PIECE_EDGE), (0, 0), ring)
    image.paste(art, (0, 0), mask)


_PAINTERS = {
    "carton": _paint_carton,
    "can": _paint_can,
    "bottle": _paint_bottle,
    "apple": _paint_apple,
}

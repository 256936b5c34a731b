"""Trash War's card sprites: a card's face (value, name, art and its kind's style) and the
cached sprites drawn from it, with the little icons on them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH
from render.common import SUPERSAMPLE, CardFace, Colour, Size, card_art_box, card_image, shade
from render.trashwar.layout import KIND_STYLES, MACE_CAPTIONS, UNKNOWN_STYLE, KindStyle
from render.trashwar.words import in_language, short_trash
from rules.phrases import phrase, phrase_in
from rules.trashwar.observation import CardView

# --- cards ------------------------------------------------------------------------------


def style_of(kind: str) -> KindStyle:
    return KIND_STYLES.get(kind, UNKNOWN_STYLE)


def card_face(card: CardView, language: str = ENGLISH) -> CardFace:
    """The generic card face for a Trash War card (icons are added by `card_sprite`), its
    words in `language`."""
    kind, value = card["kind"], card["value"]
    style = style_of(kind)
    mace = MACE_CAPTIONS.get(card["direction"])
    caption = {  # short: a hand's card has 148 px for it at the hand's least size
        "trash": short_trash(card["name"]),
        "shield": phrase("blocks {value} or less", value=value),
        "burn": phrase("burns up to {value}", value=value),
        "mace": phrase_in("card caption", mace) if mace else phrase_in("card caption", "bat"),
        "deflect": phrase("onto a new wall"),
        "catapult": phrase("up to 3 trash"),
        "repair": phrase("rebuild a wall"),
        "wall": phrase_in("card", "Wall"),
    }.get(kind)
    shown_value = str(value) if kind in ("trash", "shield", "burn") and value else ""
    title = in_language(phrase_in("card header", style.title), language)
    footer = in_language(phrase_in("card footer", style.footer), language) if style.footer else ""
    words = in_language(caption, language) if caption is not None else card["name"]
    return CardFace(title, style.colour, shown_value, words, footer, card["torches"])


def card_sprite(card: CardView, size: Size, least: int = 0, language: str = ENGLISH) -> Image.Image:
    """A Trash War card (RGBA): the generic face plus this kind's icon where it has no value;
    lines of the face smaller than `least` are left off (see `card_image`)."""
    return _card_sprite(card["kind"], card["value"], card["torches"], card["direction"],
                        card["name"], size, least, language)  # fmt: skip


@lru_cache(maxsize=512)
def _card_sprite(
    kind: str,
    value: int,
    torches: int,
    direction: str,
    name: str,
    size: Size,
    least: int,
    language: str,
) -> Image.Image:
    view = CardView(
        id=0, code="", kind=kind, value=value, torches=torches, direction=direction,
        name=name, title="",
    )  # fmt: skip
    face = card_face(view, language)
    sprite = card_image(face, *size, least)
    if face.value:
        return sprite
    art = card_art_box(*size, least)
    icon_size = min(art[2] - art[0], art[3] - art[1])
    icon = _icon(kind, direction, icon_size, shade(face.header, 0.75))
    if icon is None:
        return sprite
    sprite = sprite.copy()
    x = (art[0] + art[2] - icon_size) // 2
    y = (art[1] + art[3] - icon_size) // 2
    sprite.alpha_composite(icon, (x, y))
    return sprite


def _arrow(
    draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: float, colour: Colour
) -> None:
    """A thick line through `points` ending in an arrowhead."""
    fill = (*colour, 255)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = width * 2.2
    base = (x1 - ux * head, y1 - uy * head)
    draw.line([*points[:-1], base], fill=fill, width=round(width), joint="curve")
    draw.polygon(
        [
            (x1, y1),
            (base[0] - uy * head * 0.8, base[1] + ux * head * 0.8),
            (base[0] + uy * head * 0.8, base[1] - ux * head * 0.8),
        ],
        fill=fill,
    )


@lru_cache(maxsize=64)
def _icon(kind: str, direction: str, size: int, colour: Colour) -> Image.Image | None:
    """The picture in the middle of a card that has no number (RGBA, `size` square)."""
    k = SUPERSAMPLE
    s = size * k
    sprite = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    w = s * 0.11
    if kind == "mace":
        mid = s / 2
        if direction == "left":
            _arrow(draw, [(s * 0.88, mid), (s * 0.1, mid)], w, colour)
        elif direction == "right":
            _arrow(draw, [(s * 0.12, mid), (s * 0.9, mid)], w, colour)
        elif direction == "back":  # a U-turn
            r = s * 0.22
            arc = [(s * 0.2, s * 0.3)]
            for step in range(0, 181, 15):
                angle = math.pi * step / 180
                arc.append((s * 0.62 + r * math.sin(angle), s * 0.3 + r - r * math.cos(angle)))
            arc += [(s * 0.44, s * 0.3 + 2 * r), (s * 0.12, s * 0.3 + 2 * r)]
            _arrow(draw, arc, w, colour)
        else:  # any: arrows every way
            thin = w * 0.7
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                start = (mid + dx * s * 0.1, mid + dy * s * 0.1)
                _arrow(draw, [start, (mid + dx * s * 0.47, mid + dy * s * 0.47)], thin, colour)
            draw.ellipse((mid - w, mid - w, mid + w, mid + w), fill=(*colour, 255))
    elif kind == "deflect":  # trash bounced off sideways
        draw.rectangle((s * 0.1, s * 0.86, s * 0.9, s * 0.94), fill=(*colour, 255))
        _arrow(draw, [(s * 0.12, s * 0.1), (s * 0.48, s * 0.8), (s * 0.9, s * 0.14)], w, colour)
    elif kind == "catapult":  # three pieces of trash on one arc
        points = []
        for step in range(0, 101, 5):
            t = step / 100
            points.append((s * (0.08 + 0.84 * t), s * (0.86 - 2.6 * t * (1 - t) * 0.9)))
        draw.line(points, fill=(*colour, 140), width=round(w * 0.5), joint="curve")
        for t in (0.3, 0.55, 0.8):
            x, y = s * (0.08 + 0.84 * t), s * (0.86 - 2.6 * t * (1 - t) * 0.9)
            half = s * 0.08
            draw.rectangle((x - half, y - half, x + half, y + half), fill=(*colour, 255))
    elif kind in ("repair", "wall"):  # a little wall of bricks (with a trowel's plus)
        brick_h = s * 0.16
        for row in range(4):
            top = s * 0.3 + row * (brick_h + s * 0.03)
            offset = (row % 2) * s * 0.13
            x = s * 0.06 - offset
            while x < s * 0.94:
                left, right = max(x, s * 0.06), min(x + s * 0.25, s * 0.94)
                if right - left > s * 0.05:
                    draw.rectangle((left, top, right, top + brick_h), fill=(*colour, 255))
                x += s * 0.28
        if kind == "repair":
            cx, cy, arm = s * 0.5, s * 0.13, s * 0.11
            draw.rectangle((cx - arm, cy - w / 2, cx + arm, cy + w / 2), fill=(*colour, 255))
            draw.rectangle((cx - w / 2, cy - arm, cx + w / 2, cy + arm), fill=(*colour, 255))
    else:
        return None
    return sprite.reduce(k)

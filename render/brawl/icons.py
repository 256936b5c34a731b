"""Dumpster Brawl!'s sprites of the cards: the 13 trash kinds' colours and icons drawn with
Pillow primitives (one table, `KIND_ART`), the Slug, Booster and Blocker icons, the card faces
and fans of card backs, and the colours the pictures share.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.common import (
    SUPERSAMPLE,
    CardFace,
    Colour,
    Size,
    card_art_box,
    card_back_image,
    card_image,
    shade,
)
from rules.brawl.data import BLOCKERS, BOOSTERS, KINDS
from rules.brawl.observation import CardView
from rules.phrases import Phrase, phrase, phrase_in

# --- the trash kinds: colour and icon, one table ---------------------------------------------

Draw = ImageDraw.ImageDraw
Point = tuple[float, float]
OUTLINE: Colour = (38, 28, 22)  # the icons' ink line


def pts(s: float, points: list[Point]) -> list[Point]:
    """Points given as fractions of the icon's side, scaled to pixels."""
    return [(x * s, y * s) for x, y in points]


def frac_box(s: float, left: float, top: float, right: float, bottom: float) -> list[float]:
    """A box given as fractions of the icon's side, scaled to pixels."""
    return [left * s, top * s, right * s, bottom * s]


def _line_w(s: float) -> int:
    return max(1, round(s * 0.035))


def _pizza(d: Draw, s: float) -> None:
    """An open pizza box: the lid standing behind, a pepperoni pizza on the base."""
    w = _line_w(s)
    d.rectangle(frac_box(s, 0.14, 0.08, 0.86, 0.5), fill=(214, 170, 112), outline=OUTLINE, width=w)
    d.rectangle(frac_box(s, 0.22, 0.16, 0.78, 0.42), fill=(196, 150, 94))
    base = [(0.14, 0.5), (0.86, 0.5), (0.97, 0.84), (0.03, 0.84)]
    d.polygon(pts(s, base), fill=(226, 186, 126), outline=OUTLINE, width=w)
    d.ellipse(
        frac_box(s, 0.12, 0.52, 0.88, 0.82), fill=(232, 168, 72), outline=(176, 104, 40), width=w
    )
    d.ellipse(frac_box(s, 0.18, 0.55, 0.82, 0.79), fill=(246, 204, 92))
    for x, y in ((0.3, 0.6), (0.52, 0.58), (0.66, 0.66), (0.4, 0.7), (0.58, 0.73)):
        d.ellipse(frac_box(s, x - 0.055, y - 0.035, x + 0.055, y + 0.035), fill=(192, 52, 40))


def _apple(d: Draw, s: float) -> None:
    """An apple core: red caps top and bottom, the bitten cream core between, seeds."""
    w = _line_w(s)
    d.line(pts(s, [(0.5, 0.2), (0.54, 0.06)]), fill=(110, 70, 36), width=max(2, w * 2))
    d.ellipse(frac_box(s, 0.54, 0.04, 0.78, 0.14), fill=(96, 170, 70), outline=OUTLINE, width=w)
    core = [(0.32, 0.24), (0.68, 0.24), (0.58, 0.5), (0.68, 0.76), (0.32, 0.76), (0.42, 0.5)]
    d.polygon(pts(s, core), fill=(244, 228, 184), outline=OUTLINE, width=w)
    d.chord(frac_box(s, 0.24, 0.12, 0.76, 0.36), 180, 360, fill=(206, 48, 44), outline=OUTLINE,
            width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.25, 0.235, 0.75, 0.26), fill=(206, 48, 44))
    d.chord(frac_box(s, 0.24, 0.66, 0.76, 0.92), 0, 180, fill=(206, 48, 44), outline=OUTLINE,
            width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.25, 0.76, 0.75, 0.79), fill=(206, 48, 44))
    for y in (0.42, 0.56):
        d.ellipse(frac_box(s, 0.46, y - 0.04, 0.54, y + 0.04), fill=(80, 46, 24))


def _soda(d: Draw, s: float) -> None:
    """A red soda can with a silver top and a white swoosh."""
    w = _line_w(s)
    d.ellipse(frac_box(s, 0.26, 0.78, 0.74, 0.92), fill=(150, 150, 156), outline=OUTLINE, width=w)
    d.rectangle(frac_box(s, 0.26, 0.16, 0.74, 0.85), fill=(204, 40, 44))
    d.line(pts(s, [(0.26, 0.16), (0.26, 0.85)]), fill=OUTLINE, width=w)
    d.line(pts(s, [(0.74, 0.16), (0.74, 0.85)]), fill=OUTLINE, width=w)
    swoosh = [(0.26, 0.56), (0.5, 0.44), (0.74, 0.4), (0.74, 0.5), (0.5, 0.54), (0.26, 0.66)]
    d.polygon(pts(s, swoosh), fill=(246, 240, 232))
    d.ellipse(frac_box(s, 0.26, 0.09, 0.74, 0.23), fill=(196, 198, 206), outline=OUTLINE, width=w)
    d.ellipse(frac_box(s, 0.44, 0.12, 0.58, 0.18), fill=(120, 122, 130))


def _takeout(d: Draw, s: float) -> None:
    """A folded take-out pail with its wire handle and a red stamp."""
    w = _line_w(s)
    d.arc(frac_box(s, 0.26, 0.04, 0.74, 0.5), 190, 350, fill=(120, 124, 130), width=max(2, w * 2))
    body = [(0.18, 0.36), (0.82, 0.36), (0.7, 0.92), (0.3, 0.92)]
    d.polygon(pts(s, body), fill=(244, 240, 230), outline=OUTLINE, width=w)
    flaps = [(0.18, 0.36), (0.28, 0.22), (0.5, 0.3), (0.72, 0.22), (0.82, 0.36)]
    d.polygon(pts(s, flaps), fill=(222, 216, 204), outline=OUTLINE, width=w)
    d.ellipse(frac_box(s, 0.38, 0.5, 0.62, 0.74), fill=(206, 48, 44))
    d.rectangle(frac_box(s, 0.46, 0.55, 0.54, 0.69), fill=(244, 240, 230))


def _bear(d: Draw, s: float) -> None:
    """A stuffed bear: round ears, a pale muzzle, button eyes."""
    w = _line_w(s)
    fur, pale = (168, 112, 64), (226, 188, 140)
    d.ellipse(frac_box(s, 0.24, 0.5, 0.76, 0.94), fill=fur, outline=OUTLINE, width=w)
    d.ellipse(frac_box(s, 0.36, 0.6, 0.64, 0.88), fill=pale)
    for x in (0.16, 0.66):
        d.ellipse(frac_box(s, x, 0.06, x + 0.18, 0.24), fill=fur, outline=OUTLINE, width=w)
        d.ellipse(frac_box(s, x + 0.05, 0.11, x + 0.13, 0.19), fill=pale)
    d.ellipse(frac_box(s, 0.22, 0.1, 0.78, 0.6), fill=fur, outline=OUTLINE, width=w)
    d.ellipse(frac_box(s, 0.36, 0.34, 0.64, 0.54), fill=pale)
    d.ellipse(frac_box(s, 0.45, 0.37, 0.55, 0.44), fill=OUTLINE)
    for x in (0.36, 0.58):
        d.ellipse(frac_box(s, x, 0.24, x + 0.07, 0.31), fill=OUTLINE)


def _fish(d: Draw, s: float) -> None:
    """Fish bones: a head with an eye, a spine with ribs, a tail."""
    w = max(2, round(s * 0.045))
    bone = (232, 232, 224)
    d.line(pts(s, [(0.3, 0.5), (0.8, 0.5)]), fill=bone, width=w)
    for x in (0.4, 0.52, 0.64):
        d.line(pts(s, [(x + 0.06, 0.5), (x, 0.3)]), fill=bone, width=w)
        d.line(pts(s, [(x + 0.06, 0.5), (x, 0.7)]), fill=bone, width=w)
    d.polygon(pts(s, [(0.76, 0.5), (0.95, 0.32), (0.91, 0.5), (0.95, 0.68)]), fill=bone,
              outline=OUTLINE, width=_line_w(s))  # fmt: skip
    d.polygon(pts(s, [(0.04, 0.5), (0.2, 0.3), (0.34, 0.4), (0.34, 0.6), (0.2, 0.7)]),
              fill=bone, outline=OUTLINE, width=_line_w(s))  # fmt: skip
    d.ellipse(frac_box(s, 0.15, 0.42, 0.23, 0.5), fill=OUTLINE)


def _banana(d: Draw, s: float) -> None:
    """A banana peel splayed on the ground: three floppy flaps around the stub."""
    w = _line_w(s)
    peel, tip = (242, 206, 64), (110, 78, 32)
    d.ellipse(frac_box(s, 0.1, 0.82, 0.9, 0.94), fill=(0, 0, 0, 70))
    for flap in (
        [(0.44, 0.4), (0.3, 0.5), (0.14, 0.72), (0.12, 0.86), (0.26, 0.8), (0.46, 0.58)],
        [(0.56, 0.4), (0.7, 0.5), (0.86, 0.72), (0.88, 0.86), (0.74, 0.8), (0.54, 0.58)],
        [(0.42, 0.5), (0.44, 0.88), (0.56, 0.88), (0.58, 0.5)],
    ):
        d.polygon(pts(s, flap), fill=peel, outline=OUTLINE, width=w)
    d.polygon(pts(s, [(0.4, 0.52), (0.42, 0.16), (0.58, 0.16), (0.6, 0.52)]), fill=peel,
              outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.46, 0.08, 0.54, 0.17), fill=tip)
    for x, y in ((0.13, 0.86), (0.87, 0.86), (0.5, 0.88)):
        d.ellipse(frac_box(s, x - 0.04, y - 0.03, x + 0.04, y + 0.03), fill=tip)


def _milk(d: Draw, s: float) -> None:
    """A plastic milk jug with a blue cap, a handle and a blue label."""
    w = _line_w(s)
    white = (246, 246, 240)
    d.rounded_rectangle(frac_box(s, 0.52, 0.26, 0.86, 0.62), radius=s * 0.1, fill=white,
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(frac_box(s, 0.6, 0.34, 0.77, 0.52), radius=s * 0.05, fill=(170, 170, 170))
    d.polygon(pts(s, [(0.36, 0.16), (0.56, 0.16), (0.72, 0.36), (0.2, 0.36)]), fill=white,
              outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(frac_box(s, 0.16, 0.32, 0.76, 0.92), radius=s * 0.08, fill=white,
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.2, 0.52, 0.72, 0.74), fill=(58, 112, 206))
    d.rectangle(frac_box(s, 0.36, 0.06, 0.56, 0.16), fill=(40, 86, 190), outline=OUTLINE, width=w)


def _tin(d: Draw, s: float) -> None:
    """An opened tin can: ridged steel, its jagged lid bent up."""
    w = _line_w(s)
    steel, dark = (176, 180, 188), (110, 114, 122)
    d.ellipse(frac_box(s, 0.22, 0.8, 0.74, 0.94), fill=steel, outline=OUTLINE, width=w)
    d.rectangle(frac_box(s, 0.22, 0.36, 0.74, 0.87), fill=steel)
    d.line(pts(s, [(0.22, 0.36), (0.22, 0.87)]), fill=OUTLINE, width=w)
    d.line(pts(s, [(0.74, 0.36), (0.74, 0.87)]), fill=OUTLINE, width=w)
    d.rectangle(frac_box(s, 0.23, 0.5, 0.73, 0.72), fill=(214, 120, 48))
    for y in (0.44, 0.78):
        d.line(pts(s, [(0.23, y), (0.73, y)]), fill=dark, width=w)
    d.ellipse(frac_box(s, 0.22, 0.29, 0.74, 0.43), fill=(70, 72, 78), outline=OUTLINE, width=w)
    lid = [(0.3, 0.34), (0.18, 0.2), (0.22, 0.08), (0.36, 0.04), (0.5, 0.1), (0.52, 0.24)]
    d.polygon(pts(s, lid), fill=(204, 208, 214), outline=OUTLINE, width=w)
    for x, y in ((0.52, 0.24), (0.58, 0.28), (0.64, 0.31)):
        d.polygon(pts(s, [(x, y + 0.02), (x + 0.03, y - 0.04), (x + 0.06, y + 0.03)]),
                  fill=steel)  # fmt: skip


def _sneaker(d: Draw, s: float) -> None:
    """A worn sneaker in profile: a red upper, white sole and toe cap, laces."""
    w = _line_w(s)
    upper = [(0.08, 0.7), (0.1, 0.38), (0.3, 0.36), (0.4, 0.2), (0.56, 0.22), (0.62, 0.44),
             (0.88, 0.56), (0.94, 0.7)]  # fmt: skip
    d.polygon(pts(s, upper), fill=(200, 60, 56), outline=OUTLINE, width=w)
    d.rounded_rectangle(frac_box(s, 0.04, 0.68, 0.97, 0.82), radius=s * 0.06, fill=(240, 236, 226),
                        outline=OUTLINE, width=w)  # fmt: skip
    d.chord(frac_box(s, 0.7, 0.5, 0.98, 0.86), 270, 360, fill=(240, 236, 226))
    for t in (0.0, 0.33, 0.66):
        x, y = 0.42 + t * 0.16, 0.34 + t * 0.14
        d.line(pts(s, [(x - 0.06, y + 0.04), (x + 0.06, y - 0.04)]), fill=(246, 246, 240),
               width=max(1, w))  # fmt: skip
    d.ellipse(frac_box(s, 0.2, 0.5, 0.3, 0.58), fill=(120, 40, 36))  # a worn hole


def _news(d: Draw, s: float) -> None:
    """A folded newspaper: a headline, a photo, columns of text."""
    w = _line_w(s)
    d.polygon(pts(s, [(0.16, 0.14), (0.88, 0.1), (0.9, 0.84), (0.14, 0.9)]), fill=(210, 208, 198),
              outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.1, 0.16, 0.84, 0.92), fill=(238, 236, 226), outline=OUTLINE, width=w)
    d.rectangle(frac_box(s, 0.18, 0.24, 0.76, 0.34), fill=(40, 38, 36))
    d.rectangle(frac_box(s, 0.18, 0.42, 0.44, 0.62), fill=(150, 150, 150))
    grey = (120, 118, 112)
    for y in (0.43, 0.5, 0.57, 0.7, 0.77, 0.84):
        left = 0.5 if y < 0.64 else 0.18
        d.line(pts(s, [(left, y), (0.76, y)]), fill=grey, width=max(1, w))


def _egg(d: Draw, s: float) -> None:
    """An open egg carton: the lid behind, cups with three eggs."""
    w = _line_w(s)
    card = (196, 184, 160)
    d.rectangle(frac_box(s, 0.08, 0.2, 0.92, 0.5), fill=shade(card, 0.8), outline=OUTLINE, width=w)
    for x in (0.2, 0.5, 0.8):
        d.ellipse(frac_box(s, x - 0.11, 0.3, x + 0.11, 0.62), fill=(250, 246, 236), outline=OUTLINE,
                  width=w)  # fmt: skip
    d.polygon(pts(s, [(0.04, 0.52), (0.96, 0.52), (0.88, 0.84), (0.12, 0.84)]), fill=card,
              outline=OUTLINE, width=w)  # fmt: skip
    for x in (0.2, 0.5, 0.8):
        d.chord(frac_box(s, x - 0.14, 0.64, x + 0.14, 0.92), 0, 180, fill=card, outline=OUTLINE,
                width=w)  # fmt: skip


def _coffee(d: Draw, s: float) -> None:
    """A paper coffee cup: white cup, brown sleeve, a lid, steam."""
    w = _line_w(s)
    d.polygon(pts(s, [(0.28, 0.3), (0.72, 0.3), (0.65, 0.92), (0.35, 0.92)]),
              fill=(246, 244, 238), outline=OUTLINE, width=w)  # fmt: skip
    d.polygon(pts(s, [(0.265, 0.48), (0.735, 0.48), (0.71, 0.7), (0.29, 0.7)]),
              fill=(150, 100, 60), outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(frac_box(s, 0.22, 0.22, 0.78, 0.32), radius=s * 0.03, fill=(60, 52, 48),
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(frac_box(s, 0.3, 0.17, 0.7, 0.23), fill=(84, 74, 68))
    for x in (0.42, 0.58):
        d.line(pts(s, [(x, 0.14), (x - 0.04, 0.1), (x, 0.06), (x - 0.04, 0.02)]),
               fill=(200, 200, 200), width=max(1, w), joint="curve")  # fmt: skip


@dataclass(frozen=True)
class KindArt:
    """How a trash kind looks: its card colour and its icon's drawing function."""

    colour: Colour
    draw: Callable[[Draw, float], None]


# One entry per trash kind (data.KINDS keys): a card header colour told apart by hue and
# lightness, and the icon drawn on cards, chips and placards.
KIND_ART: dict[str, KindArt] = {
    "pizza": KindArt((206, 132, 52), _pizza),
    "apple": KindArt((176, 46, 46), _apple),
    "soda": KindArt((44, 146, 196), _soda),
    "takeout": KindArt((150, 62, 150), _takeout),
    "bear": KindArt((128, 84, 50), _bear),
    "fish": KindArt((72, 128, 150), _fish),
    "banana": KindArt((214, 180, 34), _banana),
    "milk": KindArt((70, 94, 196), _milk),
    "tin": KindArt((122, 128, 138), _tin),
    "sneaker": KindArt((196, 66, 118), _sneaker),
    "news": KindArt((92, 92, 104), _news),
    "egg": KindArt((186, 158, 110), _egg),
    "coffee": KindArt((104, 66, 40), _coffee),
}
KIND_NAMES = {kind.key: kind.name for kind in KINDS}
BOOSTER_TEXT = {b.key: b for b in BOOSTERS}
BLOCKER_TEXT = {b.key: b for b in BLOCKERS}

SLUG_COLOUR: Colour = (34, 32, 30)  # the rulebook's black border
BOOSTER_COLOUR: Colour = (44, 98, 188)  # blue border
BLOCKER_COLOUR: Colour = (184, 44, 40)  # red border
BACK_COLOUR: Colour = (46, 92, 62)  # card backs: dumpster green
BACK_TRIM: Colour = (196, 170, 88)

DIE_BLUE: Colour = (46, 104, 214)
DIE_GREEN: Colour = (40, 150, 74)
DIE_COLOURS = {"blue": DIE_BLUE, "green": DIE_GREEN}
DIE_INK: Colour = (250, 246, 236)

SET_GLOW: Colour = (96, 196, 96)  # a finished set's frame in the hand picture
SET_FILL: Colour = (36, 66, 40)
SLUG_FILL: Colour = (58, 34, 32)
CROWN_GOLD: Colour = (246, 200, 60)
STINK: Colour = (150, 170, 60)
SLIPPERY: Colour = (90, 170, 210)
WINNER_FILL: Colour = (92, 66, 22)

# Alley: a soot-dark brick wall over wet asphalt.
BRICK: Colour = (84, 46, 38)
MORTAR: Colour = (50, 36, 32)
ASPHALT: Colour = (40, 40, 44)


@lru_cache(maxsize=128)
def kind_icon(key: str, size: int) -> Image.Image:
    """The icon of trash kind `key` (RGBA, `size` square; a grey blob for unknown keys)."""
    k = SUPERSAMPLE
    sprite = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    art = KIND_ART.get(key)
    if art is None:
        draw.ellipse((size * k * 0.2, size * k * 0.2, size * k * 0.8, size * k * 0.8),
                     fill=(140, 140, 140))  # fmt: skip
    else:
        art.draw(draw, size * k)
    return sprite.reduce(k)


@lru_cache(maxsize=16)
def _special_icon(kind: str, size: int) -> Image.Image:
    """Icons for the cards that are not trash: a slug, a Booster's bolt, a Blocker's sign."""
    k = SUPERSAMPLE
    s = size * k
    sprite = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    w = _line_w(s)
    if kind == "slug":
        body = [(0.06, 0.8), (0.2, 0.62), (0.5, 0.56), (0.74, 0.4), (0.86, 0.44), (0.9, 0.64),
                (0.8, 0.8)]  # fmt: skip
        d.polygon(pts(s, body), fill=(120, 134, 62), outline=OUTLINE, width=w)
        d.line(pts(s, [(0.1, 0.82), (0.84, 0.82)]), fill=(170, 200, 120), width=w * 2)
        for x in (0.76, 0.86):
            d.line(pts(s, [(x, 0.44), (x + 0.02, 0.22)]), fill=(120, 134, 62), width=w * 2)
            d.ellipse(frac_box(s, x - 0.03, 0.17, x + 0.07, 0.27), fill=OUTLINE)
    elif kind == "booster":  # a lightning bolt
        bolt = [(0.58, 0.04), (0.22, 0.54), (0.46, 0.54), (0.36, 0.96), (0.8, 0.4), (0.54, 0.4)]
        d.polygon(pts(s, bolt), fill=(250, 206, 64), outline=OUTLINE, width=w)
    else:  # a Blocker: a red stop sign
        r = 0.44
        angles = [math.pi / 8 + i * math.pi / 4 for i in range(8)]
        octagon = [(0.5 + r * math.cos(a), 0.5 + r * math.sin(a)) for a in angles]
        d.polygon(pts(s, octagon), fill=BLOCKER_COLOUR, outline=(246, 240, 232), width=w * 2)
        d.rectangle(frac_box(s, 0.24, 0.44, 0.76, 0.56), fill=(246, 240, 232))
    return sprite.reduce(k)


# --- cards --------------------------------------------------------------------------------


CARD_TYPES = {
    "trash": phrase_in("card type", "TRASH"),
    "slug": phrase_in("card type", "SLUG"),
    "booster": phrase_in("card type", "BOOSTER"),
    "blocker": phrase_in("card type", "BLOCKER"),
}


def card_face(card: CardView, affinity: str = "", language: str = ENGLISH) -> CardFace:
    """The generic card face of a Brawl card (its icon is added by `card_sprite`), its words
    in `language`."""
    kind, key = card["type"], card["key"]

    def said(words: Phrase) -> str:
        return say(words, language)

    kind_word = said(CARD_TYPES.get(kind, CARD_TYPES["blocker"]))
    name = said(phrase_in("card", card["name"]))
    if kind == "trash":
        art = KIND_ART.get(key)
        need = 2 if key == affinity else 3
        footer = said(phrase("{n} make a set", n=need))
        return CardFace(kind_word, art.colour if art else (120, 120, 120), "", name, footer)
    if kind == "slug":
        return CardFace(kind_word, SLUG_COLOUR, "", name, said(phrase("blocks a win")))
    if kind == "booster":
        special = BOOSTER_TEXT.get(key)
        when = said(phrase_in("card timing", special.when)) if special else ""
        return CardFace(kind_word, BOOSTER_COLOUR, "", name, when)
    special = BLOCKER_TEXT.get(key)
    effect = said(phrase_in("card effect", special.effect)) if special else ""
    return CardFace(kind_word, BLOCKER_COLOUR, "", name, effect)


def card_sprite(
    card: CardView, size: Size, affinity: str = "", least: int = 0, language: str = ENGLISH
) -> Image.Image:
    """A Brawl card (RGBA): the generic face with the kind's icon in the middle; lines of
    the face smaller than `least` are left off (see `card_image`)."""
    return _card_sprite(card["type"], card["key"], card["name"], size, affinity, least, language)


@lru_cache(maxsize=256)
def _card_sprite(
    kind: str, key: str, name: str, size: Size, affinity: str, least: int, language: str
) -> Image.Image:
    view = CardView(id=0, type=kind, key=key, name=name)
    sprite = card_image(card_face(view, affinity, language), *size, least).copy()
    art = card_art_box(*size, least)
    icon_size = min(art[2] - art[0], art[3] - art[1])
    icon = kind_icon(key, icon_size) if kind == "trash" else _special_icon(kind, icon_size)
    top = (art[1] + art[3] - icon_size) // 2
    sprite.alpha_composite(icon, ((art[0] + art[2] - icon_size) // 2, top))
    return sprite


def card_back(size: Size) -> Image.Image:
    return card_back_image(size[0], size[1], BACK_COLOUR, BACK_TRIM)


@lru_cache(maxsize=32)
def back_fan(count: int, height: int) -> Image.Image:
    """`count` card backs (at most 9 drawn) fanned out from one point, as held in a hand."""
    shown = min(count, 9)
    card_w, card_h = round(height * 0.62), height
    back = card_back((card_w, card_h))
    spread = 0 if shown <= 1 else min(60, 12 * (shown - 1))
    width = card_w * 2 + round(spread * 1.6) + 8
    fan = Image.new("RGBA", (width, height + 20), (0, 0, 0, 0))
    pivot = (width / 2, height * 1.6 + 10)  # cards turn around a point below the fan
    for index in range(shown):
        angle = spread / 2 - index * spread / max(1, shown - 1) if shown > 1 else 0
        turned = back.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
        rad = math.radians(angle)
        cx = pivot[0] - math.sin(rad) * (pivot[1] - height / 2 - 10)
        cy = pivot[1] - math.cos(rad) * (pivot[1] - height / 2 - 10)
        fan.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    return fan.crop(fan.getbbox() or (0, 0, 1, 1))

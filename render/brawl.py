"""Pictures for Dumpster Brawl!, drawn from a `BrawlObservation` (and player names) only.

- `draw_table(obs, names)`: the public picture for the channel: an alley wall with one
  placard per seat (player, character and animal, its affinity item, the hand size as a fan
  of card backs, tags for the attacker, the defender, the King's crown, Stink Cloud and
  Slippery Lid, the winners), Rummy's laid-down cards and points, and a strip with the trash
  and discard piles, the Blockers set aside and what is shuffled into this game. A caption
  says what is being decided and what is left (draws, discards, spoils). It never reads
  `obs["hand"]`: the same picture for every viewer.
- `draw_rolls(obs, names, since_step)`: the dice rolled since `since_step`, one row a roll,
  each die a blue or green rounded square with a crowbar or a trash-can lid and its sign,
  and the counts that matter; with the start-player roll first when `since_step` is 0.
- `draw_hand(obs, name)`: a player's own cards grouped by kind, sets highlighted, Slugs and
  Boosters explained, and a line saying how far the hand is from winning.

The 13 trash kinds each get a little icon drawn with Pillow primitives; their colours and
drawing functions are in the one table `KIND_ART` below. Icons, dice, card faces, fans of
card backs and the alley wall are cached sprites, so a picture is mostly pastes and text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BACKDROP,
    CARD_EDGE,
    DARK_INK,
    EMBER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_COLOURS,
    STONE_DARK,
    SUPERSAMPLE,
    TORCH,
    Box,
    CardFace,
    Colour,
    Size,
    card_art_box,
    card_back_image,
    card_image,
    disc,
    display_name,
    draw_text,
    ink_for,
    rounded_box,
    shade,
    text_width,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from rules.brawl.data import BLOCKERS, BOOSTERS, KINDS
from rules.brawl.observation import BrawlObservation, CardView, RollView

# --- the trash kinds: colour and icon, one table ---------------------------------------------

Draw = ImageDraw.ImageDraw
Point = tuple[float, float]
OUTLINE: Colour = (38, 28, 22)  # the icons' ink line


def _pts(s: float, points: list[Point]) -> list[Point]:
    """Points given as fractions of the icon's side, scaled to pixels."""
    return [(x * s, y * s) for x, y in points]


def _box(s: float, left: float, top: float, right: float, bottom: float) -> list[float]:
    return [left * s, top * s, right * s, bottom * s]


def _line_w(s: float) -> int:
    return max(1, round(s * 0.035))


def _pizza(d: Draw, s: float) -> None:
    """An open pizza box: the lid standing behind, a pepperoni pizza on the base."""
    w = _line_w(s)
    d.rectangle(_box(s, 0.14, 0.08, 0.86, 0.5), fill=(214, 170, 112), outline=OUTLINE, width=w)
    d.rectangle(_box(s, 0.22, 0.16, 0.78, 0.42), fill=(196, 150, 94))
    base = [(0.14, 0.5), (0.86, 0.5), (0.97, 0.84), (0.03, 0.84)]
    d.polygon(_pts(s, base), fill=(226, 186, 126), outline=OUTLINE, width=w)
    d.ellipse(_box(s, 0.12, 0.52, 0.88, 0.82), fill=(232, 168, 72), outline=(176, 104, 40), width=w)
    d.ellipse(_box(s, 0.18, 0.55, 0.82, 0.79), fill=(246, 204, 92))
    for x, y in ((0.3, 0.6), (0.52, 0.58), (0.66, 0.66), (0.4, 0.7), (0.58, 0.73)):
        d.ellipse(_box(s, x - 0.055, y - 0.035, x + 0.055, y + 0.035), fill=(192, 52, 40))


def _apple(d: Draw, s: float) -> None:
    """An apple core: red caps top and bottom, the bitten cream core between, seeds."""
    w = _line_w(s)
    d.line(_pts(s, [(0.5, 0.2), (0.54, 0.06)]), fill=(110, 70, 36), width=max(2, w * 2))
    d.ellipse(_box(s, 0.54, 0.04, 0.78, 0.14), fill=(96, 170, 70), outline=OUTLINE, width=w)
    core = [(0.32, 0.24), (0.68, 0.24), (0.58, 0.5), (0.68, 0.76), (0.32, 0.76), (0.42, 0.5)]
    d.polygon(_pts(s, core), fill=(244, 228, 184), outline=OUTLINE, width=w)
    d.chord(_box(s, 0.24, 0.12, 0.76, 0.36), 180, 360, fill=(206, 48, 44), outline=OUTLINE,
            width=w)  # fmt: skip
    d.rectangle(_box(s, 0.25, 0.235, 0.75, 0.26), fill=(206, 48, 44))
    d.chord(_box(s, 0.24, 0.66, 0.76, 0.92), 0, 180, fill=(206, 48, 44), outline=OUTLINE,
            width=w)  # fmt: skip
    d.rectangle(_box(s, 0.25, 0.76, 0.75, 0.79), fill=(206, 48, 44))
    for y in (0.42, 0.56):
        d.ellipse(_box(s, 0.46, y - 0.04, 0.54, y + 0.04), fill=(80, 46, 24))


def _soda(d: Draw, s: float) -> None:
    """A red soda can with a silver top and a white swoosh."""
    w = _line_w(s)
    d.ellipse(_box(s, 0.26, 0.78, 0.74, 0.92), fill=(150, 150, 156), outline=OUTLINE, width=w)
    d.rectangle(_box(s, 0.26, 0.16, 0.74, 0.85), fill=(204, 40, 44))
    d.line(_pts(s, [(0.26, 0.16), (0.26, 0.85)]), fill=OUTLINE, width=w)
    d.line(_pts(s, [(0.74, 0.16), (0.74, 0.85)]), fill=OUTLINE, width=w)
    swoosh = [(0.26, 0.56), (0.5, 0.44), (0.74, 0.4), (0.74, 0.5), (0.5, 0.54), (0.26, 0.66)]
    d.polygon(_pts(s, swoosh), fill=(246, 240, 232))
    d.ellipse(_box(s, 0.26, 0.09, 0.74, 0.23), fill=(196, 198, 206), outline=OUTLINE, width=w)
    d.ellipse(_box(s, 0.44, 0.12, 0.58, 0.18), fill=(120, 122, 130))


def _takeout(d: Draw, s: float) -> None:
    """A folded take-out pail with its wire handle and a red stamp."""
    w = _line_w(s)
    d.arc(_box(s, 0.26, 0.04, 0.74, 0.5), 190, 350, fill=(120, 124, 130), width=max(2, w * 2))
    body = [(0.18, 0.36), (0.82, 0.36), (0.7, 0.92), (0.3, 0.92)]
    d.polygon(_pts(s, body), fill=(244, 240, 230), outline=OUTLINE, width=w)
    flaps = [(0.18, 0.36), (0.28, 0.22), (0.5, 0.3), (0.72, 0.22), (0.82, 0.36)]
    d.polygon(_pts(s, flaps), fill=(222, 216, 204), outline=OUTLINE, width=w)
    d.ellipse(_box(s, 0.38, 0.5, 0.62, 0.74), fill=(206, 48, 44))
    d.rectangle(_box(s, 0.46, 0.55, 0.54, 0.69), fill=(244, 240, 230))


def _bear(d: Draw, s: float) -> None:
    """A stuffed bear: round ears, a pale muzzle, button eyes."""
    w = _line_w(s)
    fur, pale = (168, 112, 64), (226, 188, 140)
    d.ellipse(_box(s, 0.24, 0.5, 0.76, 0.94), fill=fur, outline=OUTLINE, width=w)
    d.ellipse(_box(s, 0.36, 0.6, 0.64, 0.88), fill=pale)
    for x in (0.16, 0.66):
        d.ellipse(_box(s, x, 0.06, x + 0.18, 0.24), fill=fur, outline=OUTLINE, width=w)
        d.ellipse(_box(s, x + 0.05, 0.11, x + 0.13, 0.19), fill=pale)
    d.ellipse(_box(s, 0.22, 0.1, 0.78, 0.6), fill=fur, outline=OUTLINE, width=w)
    d.ellipse(_box(s, 0.36, 0.34, 0.64, 0.54), fill=pale)
    d.ellipse(_box(s, 0.45, 0.37, 0.55, 0.44), fill=OUTLINE)
    for x in (0.36, 0.58):
        d.ellipse(_box(s, x, 0.24, x + 0.07, 0.31), fill=OUTLINE)


def _fish(d: Draw, s: float) -> None:
    """Fish bones: a head with an eye, a spine with ribs, a tail."""
    w = max(2, round(s * 0.045))
    bone = (232, 232, 224)
    d.line(_pts(s, [(0.3, 0.5), (0.8, 0.5)]), fill=bone, width=w)
    for x in (0.4, 0.52, 0.64):
        d.line(_pts(s, [(x + 0.06, 0.5), (x, 0.3)]), fill=bone, width=w)
        d.line(_pts(s, [(x + 0.06, 0.5), (x, 0.7)]), fill=bone, width=w)
    d.polygon(_pts(s, [(0.76, 0.5), (0.95, 0.32), (0.91, 0.5), (0.95, 0.68)]), fill=bone,
              outline=OUTLINE, width=_line_w(s))  # fmt: skip
    d.polygon(_pts(s, [(0.04, 0.5), (0.2, 0.3), (0.34, 0.4), (0.34, 0.6), (0.2, 0.7)]),
              fill=bone, outline=OUTLINE, width=_line_w(s))  # fmt: skip
    d.ellipse(_box(s, 0.15, 0.42, 0.23, 0.5), fill=OUTLINE)


def _banana(d: Draw, s: float) -> None:
    """A banana peel splayed on the ground: three floppy flaps around the stub."""
    w = _line_w(s)
    peel, tip = (242, 206, 64), (110, 78, 32)
    d.ellipse(_box(s, 0.1, 0.82, 0.9, 0.94), fill=(0, 0, 0, 70))
    for flap in (
        [(0.44, 0.4), (0.3, 0.5), (0.14, 0.72), (0.12, 0.86), (0.26, 0.8), (0.46, 0.58)],
        [(0.56, 0.4), (0.7, 0.5), (0.86, 0.72), (0.88, 0.86), (0.74, 0.8), (0.54, 0.58)],
        [(0.42, 0.5), (0.44, 0.88), (0.56, 0.88), (0.58, 0.5)],
    ):
        d.polygon(_pts(s, flap), fill=peel, outline=OUTLINE, width=w)
    d.polygon(_pts(s, [(0.4, 0.52), (0.42, 0.16), (0.58, 0.16), (0.6, 0.52)]), fill=peel,
              outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(_box(s, 0.46, 0.08, 0.54, 0.17), fill=tip)
    for x, y in ((0.13, 0.86), (0.87, 0.86), (0.5, 0.88)):
        d.ellipse(_box(s, x - 0.04, y - 0.03, x + 0.04, y + 0.03), fill=tip)


def _milk(d: Draw, s: float) -> None:
    """A plastic milk jug with a blue cap, a handle and a blue label."""
    w = _line_w(s)
    white = (246, 246, 240)
    d.rounded_rectangle(_box(s, 0.52, 0.26, 0.86, 0.62), radius=s * 0.1, fill=white,
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(_box(s, 0.6, 0.34, 0.77, 0.52), radius=s * 0.05, fill=(170, 170, 170))
    d.polygon(_pts(s, [(0.36, 0.16), (0.56, 0.16), (0.72, 0.36), (0.2, 0.36)]), fill=white,
              outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(_box(s, 0.16, 0.32, 0.76, 0.92), radius=s * 0.08, fill=white,
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(_box(s, 0.2, 0.52, 0.72, 0.74), fill=(58, 112, 206))
    d.rectangle(_box(s, 0.36, 0.06, 0.56, 0.16), fill=(40, 86, 190), outline=OUTLINE, width=w)


def _tin(d: Draw, s: float) -> None:
    """An opened tin can: ridged steel, its jagged lid bent up."""
    w = _line_w(s)
    steel, dark = (176, 180, 188), (110, 114, 122)
    d.ellipse(_box(s, 0.22, 0.8, 0.74, 0.94), fill=steel, outline=OUTLINE, width=w)
    d.rectangle(_box(s, 0.22, 0.36, 0.74, 0.87), fill=steel)
    d.line(_pts(s, [(0.22, 0.36), (0.22, 0.87)]), fill=OUTLINE, width=w)
    d.line(_pts(s, [(0.74, 0.36), (0.74, 0.87)]), fill=OUTLINE, width=w)
    d.rectangle(_box(s, 0.23, 0.5, 0.73, 0.72), fill=(214, 120, 48))
    for y in (0.44, 0.78):
        d.line(_pts(s, [(0.23, y), (0.73, y)]), fill=dark, width=w)
    d.ellipse(_box(s, 0.22, 0.29, 0.74, 0.43), fill=(70, 72, 78), outline=OUTLINE, width=w)
    lid = [(0.3, 0.34), (0.18, 0.2), (0.22, 0.08), (0.36, 0.04), (0.5, 0.1), (0.52, 0.24)]
    d.polygon(_pts(s, lid), fill=(204, 208, 214), outline=OUTLINE, width=w)
    for x, y in ((0.52, 0.24), (0.58, 0.28), (0.64, 0.31)):
        d.polygon(_pts(s, [(x, y + 0.02), (x + 0.03, y - 0.04), (x + 0.06, y + 0.03)]),
                  fill=steel)  # fmt: skip


def _sneaker(d: Draw, s: float) -> None:
    """A worn sneaker in profile: a red upper, white sole and toe cap, laces."""
    w = _line_w(s)
    upper = [(0.08, 0.7), (0.1, 0.38), (0.3, 0.36), (0.4, 0.2), (0.56, 0.22), (0.62, 0.44),
             (0.88, 0.56), (0.94, 0.7)]  # fmt: skip
    d.polygon(_pts(s, upper), fill=(200, 60, 56), outline=OUTLINE, width=w)
    d.rounded_rectangle(_box(s, 0.04, 0.68, 0.97, 0.82), radius=s * 0.06, fill=(240, 236, 226),
                        outline=OUTLINE, width=w)  # fmt: skip
    d.chord(_box(s, 0.7, 0.5, 0.98, 0.86), 270, 360, fill=(240, 236, 226))
    for t in (0.0, 0.33, 0.66):
        x, y = 0.42 + t * 0.16, 0.34 + t * 0.14
        d.line(_pts(s, [(x - 0.06, y + 0.04), (x + 0.06, y - 0.04)]), fill=(246, 246, 240),
               width=max(1, w))  # fmt: skip
    d.ellipse(_box(s, 0.2, 0.5, 0.3, 0.58), fill=(120, 40, 36))  # a worn hole


def _news(d: Draw, s: float) -> None:
    """A folded newspaper: a headline, a photo, columns of text."""
    w = _line_w(s)
    d.polygon(_pts(s, [(0.16, 0.14), (0.88, 0.1), (0.9, 0.84), (0.14, 0.9)]), fill=(210, 208, 198),
              outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(_box(s, 0.1, 0.16, 0.84, 0.92), fill=(238, 236, 226), outline=OUTLINE, width=w)
    d.rectangle(_box(s, 0.18, 0.24, 0.76, 0.34), fill=(40, 38, 36))
    d.rectangle(_box(s, 0.18, 0.42, 0.44, 0.62), fill=(150, 150, 150))
    grey = (120, 118, 112)
    for y in (0.43, 0.5, 0.57, 0.7, 0.77, 0.84):
        left = 0.5 if y < 0.64 else 0.18
        d.line(_pts(s, [(left, y), (0.76, y)]), fill=grey, width=max(1, w))


def _egg(d: Draw, s: float) -> None:
    """An open egg carton: the lid behind, cups with three eggs."""
    w = _line_w(s)
    card = (196, 184, 160)
    d.rectangle(_box(s, 0.08, 0.2, 0.92, 0.5), fill=shade(card, 0.8), outline=OUTLINE, width=w)
    for x in (0.2, 0.5, 0.8):
        d.ellipse(_box(s, x - 0.11, 0.3, x + 0.11, 0.62), fill=(250, 246, 236), outline=OUTLINE,
                  width=w)  # fmt: skip
    d.polygon(_pts(s, [(0.04, 0.52), (0.96, 0.52), (0.88, 0.84), (0.12, 0.84)]), fill=card,
              outline=OUTLINE, width=w)  # fmt: skip
    for x in (0.2, 0.5, 0.8):
        d.chord(_box(s, x - 0.14, 0.64, x + 0.14, 0.92), 0, 180, fill=card, outline=OUTLINE,
                width=w)  # fmt: skip


def _coffee(d: Draw, s: float) -> None:
    """A paper coffee cup: white cup, brown sleeve, a lid, steam."""
    w = _line_w(s)
    d.polygon(_pts(s, [(0.28, 0.3), (0.72, 0.3), (0.65, 0.92), (0.35, 0.92)]),
              fill=(246, 244, 238), outline=OUTLINE, width=w)  # fmt: skip
    d.polygon(_pts(s, [(0.265, 0.48), (0.735, 0.48), (0.71, 0.7), (0.29, 0.7)]),
              fill=(150, 100, 60), outline=OUTLINE, width=w)  # fmt: skip
    d.rounded_rectangle(_box(s, 0.22, 0.22, 0.78, 0.32), radius=s * 0.03, fill=(60, 52, 48),
                        outline=OUTLINE, width=w)  # fmt: skip
    d.rectangle(_box(s, 0.3, 0.17, 0.7, 0.23), fill=(84, 74, 68))
    for x in (0.42, 0.58):
        d.line(_pts(s, [(x, 0.14), (x - 0.04, 0.1), (x, 0.06), (x - 0.04, 0.02)]),
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
        d.polygon(_pts(s, body), fill=(120, 134, 62), outline=OUTLINE, width=w)
        d.line(_pts(s, [(0.1, 0.82), (0.84, 0.82)]), fill=(170, 200, 120), width=w * 2)
        for x in (0.76, 0.86):
            d.line(_pts(s, [(x, 0.44), (x + 0.02, 0.22)]), fill=(120, 134, 62), width=w * 2)
            d.ellipse(_box(s, x - 0.03, 0.17, x + 0.07, 0.27), fill=OUTLINE)
    elif kind == "booster":  # a lightning bolt
        bolt = [(0.58, 0.04), (0.22, 0.54), (0.46, 0.54), (0.36, 0.96), (0.8, 0.4), (0.54, 0.4)]
        d.polygon(_pts(s, bolt), fill=(250, 206, 64), outline=OUTLINE, width=w)
    else:  # a Blocker: a red stop sign
        r = 0.44
        angles = [math.pi / 8 + i * math.pi / 4 for i in range(8)]
        octagon = [(0.5 + r * math.cos(a), 0.5 + r * math.sin(a)) for a in angles]
        d.polygon(_pts(s, octagon), fill=BLOCKER_COLOUR, outline=(246, 240, 232), width=w * 2)
        d.rectangle(_box(s, 0.24, 0.44, 0.76, 0.56), fill=(246, 240, 232))
    return sprite.reduce(k)


# --- cards --------------------------------------------------------------------------------


def card_face(card: CardView, affinity: str = "") -> CardFace:
    """The generic card face of a Brawl card (its icon is added by `card_sprite`)."""
    kind, key = card["type"], card["key"]
    if kind == "trash":
        art = KIND_ART.get(key)
        footer = "2 make a set" if key == affinity else "3 make a set"
        return CardFace("TRASH", art.colour if art else (120, 120, 120), "", card["name"], footer)
    if kind == "slug":
        return CardFace("SLUG", SLUG_COLOUR, "", "Slug", "blocks a win")
    if kind == "booster":
        special = BOOSTER_TEXT.get(key)
        return CardFace(
            "BOOSTER", BOOSTER_COLOUR, "", card["name"], special.when if special else ""
        )
    special = BLOCKER_TEXT.get(key)
    return CardFace("BLOCKER", BLOCKER_COLOUR, "", card["name"], special.effect if special else "")


def card_sprite(card: CardView, size: Size, affinity: str = "") -> Image.Image:
    """A Brawl card (RGBA): the generic face with the kind's icon in the middle."""
    return _card_sprite(card["type"], card["key"], card["name"], size, affinity)


@lru_cache(maxsize=256)
def _card_sprite(kind: str, key: str, name: str, size: Size, affinity: str) -> Image.Image:
    view = CardView(id=0, type=kind, key=key, name=name)
    sprite = card_image(card_face(view, affinity), *size).copy()
    art = card_art_box(*size)
    icon_size = min(art[2] - art[0], art[3] - art[1])
    icon = kind_icon(key, icon_size) if kind == "trash" else _special_icon(kind, icon_size)
    sprite.alpha_composite(icon, ((art[0] + art[2] - icon_size) // 2, art[1]))
    return sprite


def _back(size: Size) -> Image.Image:
    return card_back_image(size[0], size[1], BACK_COLOUR, BACK_TRIM)


@lru_cache(maxsize=32)
def back_fan(count: int, height: int) -> Image.Image:
    """`count` card backs (at most 9 drawn) fanned out from one point, as held in a hand."""
    shown = min(count, 9)
    card_w, card_h = round(height * 0.62), height
    back = _back((card_w, card_h))
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


# --- dice ---------------------------------------------------------------------------------


def is_crowbar(die: int) -> bool:
    """Bit 1 of a die's number: a crowbar, else a trash-can lid."""
    return bool(die & 1)


def is_plus(die: int) -> bool:
    """Bit 2 of a die's number: a plus, else a minus."""
    return bool(die & 2)


@lru_cache(maxsize=32)
def die_sprite(colour: str, die: int, size: int) -> Image.Image:
    """One die (RGBA): a blue or green rounded square with a crowbar or a lid and its sign."""
    k = SUPERSAMPLE
    s = size * k
    body = DIE_COLOURS.get(colour, (120, 120, 120))
    sprite = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.2, fill=shade(body, 0.5))
    d.rounded_rectangle((k, k, s - 1 - k, s - 1 - 3 * k), radius=s * 0.18, fill=body)
    d.rounded_rectangle((s * 0.1, s * 0.08, s * 0.9, s * 0.4), radius=s * 0.14,
                        fill=shade(body, 1.12))  # fmt: skip
    d.rounded_rectangle((s * 0.08, s * 0.2, s * 0.92, s * 0.9), radius=s * 0.15, fill=body)
    w = max(2, round(s * 0.09))
    if is_crowbar(die):  # a bar on the slant, hooked at the top, split claw at the foot
        w = max(2, round(s * 0.11))
        d.line(_pts(s, [(0.24, 0.84), (0.42, 0.36)]), fill=DIE_INK, width=w)
        d.arc(_box(s, 0.34, 0.2, 0.66, 0.52), 180, 50, fill=DIE_INK, width=w)
        d.line(_pts(s, [(0.25, 0.84), (0.1, 0.78)]), fill=DIE_INK, width=w)
    else:  # a dustbin lid: a dome with a rim and a handle
        d.chord(_box(s, 0.16, 0.36, 0.84, 0.84), 180, 360, fill=DIE_INK)
        d.rounded_rectangle(_box(s, 0.1, 0.58, 0.9, 0.68), radius=s * 0.04, fill=DIE_INK)
        d.rounded_rectangle(_box(s, 0.4, 0.26, 0.6, 0.36), radius=s * 0.04, fill=DIE_INK)
    # the sign in the top-right corner, drawn as bars (the font's minus is thin)
    cx, cy, arm, bar = s * 0.79, s * 0.22, s * 0.09, s * 0.035
    d.rectangle((cx - arm, cy - bar, cx + arm, cy + bar), fill=TORCH)
    if is_plus(die):
        d.rectangle((cx - bar, cy - arm, cx + bar, cy + arm), fill=TORCH)
    return sprite.reduce(k)


@lru_cache(maxsize=8)
def crown(size: int) -> Image.Image:
    """The King of the Heap's crown (RGBA, `size` wide)."""
    k = SUPERSAMPLE
    w, h = size * k, round(size * 0.7) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    points = [(0.04, 0.92), (0.04, 0.3), (0.28, 0.58), (0.5, 0.12), (0.72, 0.58), (0.96, 0.3),
              (0.96, 0.92)]  # fmt: skip
    d.polygon([(x * w, y * h) for x, y in points], fill=CROWN_GOLD, outline=OUTLINE,
              width=k * 2)  # fmt: skip
    for x, y in ((0.04, 0.3), (0.5, 0.12), (0.96, 0.3)):
        r = w * 0.07
        d.ellipse((x * w - r, y * h - r, x * w + r, y * h + r), fill=(222, 70, 58),
                  outline=OUTLINE, width=k)  # fmt: skip
    d.rectangle((0.1 * w, 0.74 * h, 0.9 * w, 0.82 * h), fill=shade(CROWN_GOLD, 0.7))
    return sprite.reduce(k)


# --- names and words -------------------------------------------------------------------------


def player_name(names: list[str], seat: int) -> str:
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def character_name(obs: BrawlObservation, seat: int) -> str:
    characters = obs["characters"]
    return characters[seat]["name"] if 0 <= seat < len(characters) else "?"


def who(obs: BrawlObservation, names: list[str], seat: int) -> str:
    """'Bandit (Alice)': the character first, as the animals are the ones brawling; an AI
    seat's 'Rusty (AI)' becomes 'Bandit (Rusty, AI)' rather than nesting brackets."""
    name = player_name(names, seat)
    if name.endswith(" (AI)"):
        name = name.removesuffix(" (AI)") + ", AI"
    return f"{character_name(obs, seat)} ({name})"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


MODE_NAMES = {
    "round-rummage": "Round Rummage",
    "king-of-the-heap": "King of the Heap",
    "rummy": "Round Rummage Rummy",
}


def caption(obs: BrawlObservation, names: list[str]) -> str:
    """One line: what is being decided now, and what is left of it."""

    def name(seat: int) -> str:
        return who(obs, names, seat)

    if obs["finished"]:
        winners = obs["winners"]
        if not winners:
            return "The brawl is over."
        if _is_draw(obs):
            return "The alley is exhausted: the brawl ends in a draw."
        if obs["mode"] == "rummy":
            points = obs["points"][winners[0]] if winners[0] < len(obs["points"]) else 0
            return f"{_and([name(w) for w in winners])} wins with {_plural(points, 'point')}!"
        return f"{_and([name(w) for w in winners])} wins with a hand of sets!"
    actor = obs["to_act"][0] if obs["to_act"] else obs["turn"]
    phase = obs["phase"]
    if obs["truck"]:
        return f"Garbage Truck! {name(obs['truck'][0])} discards a card"
    if phase == "declare":
        return f"{name(actor)} declares: draw, discard, both or neither, then attacks"
    if phase == "pre":
        left = _left(obs["draws"], obs["discards"])
        return f"{name(actor)} rummages before attacking" + (f": {left} left" if left else "")
    if phase == "attack":
        if obs["mode"] == "king-of-the-heap" and obs["king"] >= 0:
            return f"{name(actor)} attacks the King, {name(obs['king'])}"
        return f"{name(actor)} picks an animal to attack"
    if phase == "defend":
        return f"{name(actor)} defends against {name(obs['turn'])}: Boosters or none"
    if phase == "wind":
        return f"{name(actor)} may reroll with Second Wind, or keep the dice"
    if phase == "spoils":
        verb = "beat" if obs["actor"] == obs["turn"] else "held off"
        foe = obs["defender"] if obs["actor"] == obs["turn"] else obs["turn"]
        left = _plural(obs["spoils"], "take or give")
        return f"{name(obs['actor'])} {verb} {name(foe)}: {left} left"
    if phase == "rummage":
        left = _left(obs["draws"], obs["discards"])
        return f"{name(obs['actor'])} rummages the trash" + (f": {left} left" if left else "")
    if phase == "lay":
        return f"{name(actor)} lays cards down to score"
    return f"{name(actor)} to play"


def _is_draw(obs: BrawlObservation) -> bool:
    """The turn limit ended a hand-of-sets game: every seat is listed as a winner."""
    return obs["finished"] and obs["mode"] != "rummy" and len(set(obs["winners"])) == obs["seats"]


def _left(draws: int, discards: int) -> str:
    parts = [_plural(draws, "draw")] if draws else []
    parts += [_plural(discards, "discard")] if discards else []
    return _and(parts)


def _phase_word(obs: BrawlObservation) -> str:
    return {
        "declare": "declaring",
        "pre": "drawing",
        "attack": "attacking",
        "defend": "defending",
        "wind": "Second Wind?",
        "spoils": "taking spoils",
        "rummage": "rummaging",
        "lay": "laying down",
    }.get(obs["phase"], "to play")


# --- text helpers -----------------------------------------------------------------------------


def wrap(text: str, width: int, size: int) -> list[str]:
    """`text` broken into lines of at most `width` pixels at `size` (greedy, by words)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _chip(image: Image.Image, x: int, y: int, text: str, fill: Colour, height: int = 22) -> int:
    """A small rounded label; returns its right edge."""
    width = round(text_width(text, 12)) + 18
    rounded_box(image, (x, y, x + width, y + height), height // 2, fill)
    _text(image, (x + 2, y, x + width - 1, y + height), text, 12, ink_for(fill), bold=True)
    return x + width


# --- the table ------------------------------------------------------------------------------

TABLE_W = 1000
TITLE_H = 48
CAPTION_BOX: Box = (12, 56, TABLE_W - 12, 100)
GRID_TOP = 110
GRID_LEFT, GRID_RIGHT = 12, TABLE_W - 12
CELL_GAP = 10
CELL_H = 168
RUMMY_CELL_H = 244
STRIP_H = 138
PILE_CARD: Size = (58, 82)
FAN_H = 46


def grid_shape(seats: int) -> tuple[int, int]:
    """Columns and rows of placards: one row for three, two rows of two or three above."""
    if seats <= 3:
        return max(seats, 1), 1
    if seats == 4:
        return 2, 2
    return 3, 2


def table_size(seats: int, rummy: bool) -> Size:
    _, rows = grid_shape(seats)
    cell_h = RUMMY_CELL_H if rummy else CELL_H
    return TABLE_W, GRID_TOP + rows * cell_h + (rows - 1) * CELL_GAP + 10 + STRIP_H + 12


def placard_box(seats: int, seat: int, rummy: bool) -> Box:
    """Where a seat's placard sits; rows with fewer placards are centred."""
    cols, _ = grid_shape(seats)
    cell_h = RUMMY_CELL_H if rummy else CELL_H
    cell_w = (GRID_RIGHT - GRID_LEFT - (cols - 1) * CELL_GAP) // cols
    row, col = divmod(seat, cols)
    in_row = min(cols, seats - row * cols)
    left = GRID_LEFT + (cols - in_row) * (cell_w + CELL_GAP) // 2 + col * (cell_w + CELL_GAP)
    top = GRID_TOP + row * (cell_h + CELL_GAP)
    return (left, top, left + cell_w, top + cell_h)


def band_box(seats: int, seat: int, rummy: bool) -> Box:
    """A placard's name band: HIGHLIGHT for the seat to act."""
    left, top, right, _ = placard_box(seats, seat, rummy)
    return (left + 6, top + 6, right - 6, top + 40)


def strip_box(seats: int, rummy: bool) -> Box:
    height = table_size(seats, rummy)[1]
    return (GRID_LEFT, height - 12 - STRIP_H, GRID_RIGHT, height - 12)


def draw_table(obs: BrawlObservation, names: list[str]) -> bytes:
    """The public picture as PNG bytes. `names[seat]` is each player's display name.

    It never reads `obs["hand"]` (nor `obs["seat"]`): the same picture for every viewer.
    """
    return to_png(table_image(obs, names))


def table_image(obs: BrawlObservation, names: list[str]) -> Image.Image:
    """The public picture as an image (for tests and previews)."""
    seats, rummy = obs["seats"], obs["mode"] == "rummy"
    image = _alley(seats, rummy).copy()
    note = f"{MODE_NAMES.get(obs['mode'], obs['mode'])} - turn {max(1, obs['turns'])}"
    title_bar(image, "Dumpster Brawl!", note, TITLE_H)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    caption_colour = TORCH if obs["finished"] else INK
    _text(image, (CAPTION_BOX[0] + 16, CAPTION_BOX[1], CAPTION_BOX[2] - 16, CAPTION_BOX[3]),
          caption(obs, names), 20, caption_colour, "left", 13, bold=True)  # fmt: skip
    for seat in range(seats):
        _draw_placard(image, obs, names, seat)
    _draw_strip(image, obs, names)
    return image


@lru_cache(maxsize=12)
def _alley(seats: int, rummy: bool) -> Image.Image:
    """What depends on the player count alone: the brick wall, asphalt and empty placards."""
    width, height = table_size(seats, rummy)
    image = Image.new("RGB", (width, height), MORTAR)
    draw = ImageDraw.Draw(image)
    brick_w, brick_h = 46, 20
    for row, y in enumerate(range(0, height, brick_h)):
        offset = (row % 2) * brick_w // 2
        for x in range(-offset, width, brick_w):
            # three fixed tints in a scrambled pattern: a lived-in wall that still compresses well
            tint = (((x // brick_w) * 7 + row * 5) % 3 - 1) * 7
            colour = (BRICK[0] + tint, BRICK[1] + tint // 2, BRICK[2] + tint // 2)
            draw.rectangle((x + 2, y + 2, x + brick_w - 2, y + brick_h - 2), fill=colour)
    ground_top = strip_box(seats, rummy)[1] - 6
    draw.rectangle((0, ground_top, width, height), fill=ASPHALT)
    for x in range(20, width, 90):  # puddle glints on the asphalt
        draw.line((x, height - 6, x + 30, height - 6), fill=(58, 58, 64), width=2)
    for seat in range(seats):
        box = placard_box(seats, seat, rummy)
        shadow = (box[0] + 4, box[1] + 5, box[2] + 4, box[3] + 5)
        rounded_box(image, shadow, 14, shade(MORTAR, 0.6))
        rounded_box(image, box, 14, PANEL, PANEL_EDGE, 2)
    rounded_box(image, strip_box(seats, rummy), 14, shade(PANEL, 0.9), PANEL_EDGE, 2)
    return image


def _draw_placard(image: Image.Image, obs: BrawlObservation, names: list[str], seat: int) -> None:
    seats, rummy = obs["seats"], obs["mode"] == "rummy"
    left, top, right, bottom = placard_box(seats, seat, rummy)
    colour = player_colour(seat)
    won = obs["finished"] and seat in obs["winners"] and not _is_draw(obs)
    if won:
        rounded_box(image, (left, top, right, bottom), 14, WINNER_FILL, TORCH, 3)
    acting = seat in obs["to_act"] and not obs["finished"]
    band = band_box(seats, seat, rummy)
    band_fill = HIGHLIGHT if acting else STONE_DARK
    rounded_box(image, band, 10, band_fill)
    ink = ink_for(band_fill)
    disc(image, (band[0] + 16, (band[1] + band[3]) // 2), 16, colour, CARD_EDGE, 2)
    status = "TO ACT: " + _phase_word(obs) if acting else ""
    status_w = round(text_width(status, 13)) + 12 if status else 0
    _text(image, (band[0] + 30, band[1], band[2] - 8 - status_w, band[3]),
          player_name(names, seat), 19, ink, "left", 12, bold=True)  # fmt: skip
    if status:
        _text(image, (band[2] - 8 - status_w, band[1], band[2] - 8, band[3]), status, 13, ink,
              "right", 10, bold=True)  # fmt: skip

    # the character: a badge in the seat's colour with the initial (a crown on the King)
    body_top = band[3] + 8
    badge = (left + 38, top + 74)
    disc(image, badge, 50, shade(colour, 0.55), colour, 3)
    character = obs["characters"][seat] if seat < len(obs["characters"]) else None
    initial = (character["name"][:1] if character else "?").upper()
    draw_text(image, badge, initial, 26, INK, "mm", bold=True, cache=True)
    if seat == obs["king"]:
        sprite = crown(36)
        image.paste(sprite, (badge[0] - 18, badge[1] - 25 - sprite.height // 2), sprite)
    text_left = left + 72
    fan_w = 118
    text_right = right - fan_w - 8
    if character:
        _text(image, (text_left, body_top, text_right, body_top + 24), character["name"], 19,
              TORCH, "left", 12, bold=True)  # fmt: skip
        _text(image, (text_left, body_top + 24, text_right, body_top + 42),
              f"the {character['animal']}", 14, MUTED, "left", 10)  # fmt: skip
        if obs["affinity"]:  # the affinity item, under the badge and the name
            icon = kind_icon(character["affinity"], 26)
            image.paste(icon, (left + 14, top + 102), icon)
            label = f"loves {KIND_NAMES.get(character['affinity'], '?')}: 2 make a set"
            _text(image, (left + 44, top + 102, right - 12, top + 128), label, 14, INK, "left", 10)
    # the hand: a fan of backs and the count
    fan_cx = right - 8 - fan_w // 2
    count = obs["hand_sizes"][seat]
    if count:
        fan = back_fan(count, FAN_H)
        fan_box = (
            fan_cx - fan.width // 2,
            body_top,
            fan_cx + fan.width // 2,
            body_top + fan.height,
        )
        image.paste(fan, fan_box[:2], fan)
    else:  # an empty hand: the outline of where cards would be
        fan_box = (fan_cx - 17, body_top + 4, fan_cx + 17, body_top + 50)
        rounded_box(image, fan_box, 6, shade(PANEL, 0.8), PANEL_EDGE, 1)
    # the count on a badge at the fan's corner (a number is read faster than backs counted)
    centre = (fan_box[2] + 2, fan_box[3] - 12)
    disc(image, centre, 28, TORCH if count else STONE_DARK, CARD_EDGE, 2)
    draw_text(
        image, centre, str(count), 16, DARK_INK if count else MUTED, "mm", bold=True, cache=True
    )

    # tags: the fight's roles, the crown, Blockers' marks and the win
    x, y = left + 12, top + CELL_H - 34
    for text, fill in _tags(obs, seat):
        width = round(text_width(text, 12)) + 18
        if x + width > right - 10:
            break
        x = _chip(image, x, y, text, fill) + 6
    if rummy:
        _draw_laid(image, obs, seat, (left + 10, top + CELL_H - 4, right - 10, bottom - 8))


def _tags(obs: BrawlObservation, seat: int) -> list[tuple[str, Colour]]:
    tags: list[tuple[str, Colour]] = []
    if obs["finished"]:
        if _is_draw(obs):
            tags.append(("DRAW", MUTED))
        elif seat in obs["winners"]:
            tags.append(("WINNER", TORCH))
    else:
        if seat == obs["turn"]:
            tags.append(("ATTACKER", EMBER))
        if seat == obs["defender"] and obs["defender"] >= 0:
            tags.append(("DEFENDER", DIE_GREEN))
    if seat == obs["king"]:
        tags.append(("KING OF THE HEAP", CROWN_GOLD))
    stink = obs["stink"][seat] if seat < len(obs["stink"]) else 0
    if stink > 0:
        tags.append((f"STINK CLOUD: no win ({stink})", STINK))
    if seat in obs["slippery"]:
        tags.append(("SLIPPERY LID", SLIPPERY))
    if seat == obs["went_out"]:
        tags.append(("WENT OUT +2", TORCH))
    if seat in obs["truck"]:
        tags.append(("TRUCK: DISCARD", BLOCKER_COLOUR))
    return tags


def _draw_laid(image: Image.Image, obs: BrawlObservation, seat: int, box: Box) -> None:
    """Rummy: the seat's scoring area, face up, one chip per kind with its count."""
    left, top, right, bottom = box
    laid = obs["laid"][seat] if seat < len(obs["laid"]) else []
    points = obs["points"][seat] if seat < len(obs["points"]) else 0
    ImageDraw.Draw(image).line((left, top, right, top), fill=PANEL_EDGE, width=1)
    laid_text = f"Laid down: {_plural(len(laid), 'card')}"
    _text(image, (left + 2, top + 4, right - 90, top + 24), laid_text, 14, MUTED, "left", 10)
    _text(image, (right - 90, top + 2, right - 2, top + 26), _plural(points, "pt"), 20, TORCH,
          "right", 12, bold=True)  # fmt: skip
    counts: dict[str, int] = {}
    for card in laid:
        counts[card["key"]] = counts.get(card["key"], 0) + 1
    if not counts:
        _text(image, (left, top + 28, right, bottom), "nothing laid down yet", 13, MUTED)
        return
    ordered = sorted(counts.items(), key=lambda kv: _kind_order(kv[0]))
    chip_w, chip_h = 66, 40
    per_row = max(1, (right - left + 6) // (chip_w + 6))
    for index, (key, count) in enumerate(ordered):
        row, col = divmod(index, per_row)
        x = left + col * (chip_w + 6)
        y = top + 30 + row * (chip_h + 4)
        if y + chip_h > bottom + 2:
            break
        art = KIND_ART.get(key)
        fill = shade(art.colour if art else (120, 120, 120), 0.55)
        rounded_box(image, (x, y, x + chip_w, y + chip_h), 8, fill, shade(fill, 1.5), 1)
        icon = kind_icon(key, 32)
        image.paste(icon, (x + 4, y + 4), icon)
        _text(image, (x + 36, y, x + chip_w - 2, y + chip_h), f"x{count}", 16, INK, bold=True)


def _kind_order(key: str) -> int:
    keys = [kind.key for kind in KINDS]
    return keys.index(key) if key in keys else len(keys)


def _draw_strip(image: Image.Image, obs: BrawlObservation, names: list[str]) -> None:
    """The middle of the alley: the trash and discard piles, the Blockers set aside, and what
    this game shuffled in."""
    left, top, right, _ = strip_box(obs["seats"], obs["mode"] == "rummy")
    card_top = top + 14
    for index, (label, count) in enumerate(
        (("trash pile", obs["trash_size"]), ("discards", obs["discard_size"]))
    ):
        x = left + 16 + index * 110
        if count:
            for layer in range(min(3, count) - 1, -1, -1):
                back = _back(PILE_CARD)
                image.paste(back, (x + layer * 3, card_top + 6 - layer * 3), back)
        else:
            box = (x, card_top, x + PILE_CARD[0], card_top + PILE_CARD[1])
            rounded_box(image, box, 6, PANEL_EDGE)
            rounded_box(image, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), 5, PANEL)
            _text(image, box, "empty", 12, MUTED)
        _text(image, (x + PILE_CARD[0] + 10, card_top + 14, x + 108, card_top + 44), str(count),
              26, INK if count else MUTED, "left", bold=True)  # fmt: skip
        _text(image, (x - 4, card_top + PILE_CARD[1] + 10, x + 100, card_top + PILE_CARD[1] + 30),
              label, 13, MUTED, "left")  # fmt: skip
    # Blockers set aside: small face-up cards
    x0 = left + 250
    _text(image, (x0, top + 6, x0 + 330, top + 24), "Blockers set aside", 13, MUTED, "left")
    small = (52, 74)
    if not obs["aside"]:
        _text(image, (x0, top + 30, x0 + 330, top + 60), "none yet", 14, MUTED, "left")
    for index, card in enumerate(obs["aside"][:5]):
        sprite = card_sprite(card, small)
        x = x0 + index * (small[0] + 8)
        image.paste(sprite, (x, top + 28), sprite)
        _text(image, (x - 3, top + 104, x + small[0] + 3, top + 122), card["name"].split()[0], 11,
              INK, min_size=8)  # fmt: skip
    # what is in this game, and who started
    x1 = left + 580
    lines = _in_play_lines(obs, names)
    for index, (text, colour) in enumerate(lines):
        y = top + 8 + index * 24
        _text(image, (x1, y, right - 14, y + 22), text, 14, colour, "left", 9)


def _in_play_lines(obs: BrawlObservation, names: list[str]) -> list[tuple[str, Colour]]:
    keys = obs["in_play"]
    boosters = [BOOSTER_TEXT[k].name for k in keys if k in BOOSTER_TEXT]
    blockers = [BLOCKER_TEXT[k].name for k in keys if k in BLOCKER_TEXT]
    slugs = sum(1 for k in keys if k == "slug")
    lines: list[tuple[str, Colour]] = [
        ("In this game's trash:", MUTED),
        (f"{_plural(slugs, 'Slug')}; Boosters: {', '.join(boosters) or 'none'}", INK),
        (f"Blockers: {', '.join(blockers) or 'none'}", INK),
    ]
    if 0 <= obs["starter"] < obs["seats"]:
        lines.append((f"{who(obs, names, obs['starter'])} won the start roll", MUTED))
    if obs["affinity"]:
        lines.append(("Trash affinity on: 2 of your item make a set", MUTED))
    return lines


# --- the dice picture ------------------------------------------------------------------------

ROLLS_W = 800
ROLL_ROW_H = 62
START_ROW_H = 84
DIE = 44
DIE_STEP = 50
DICE_LEFT = 300
MAX_ROLLS = 8

PURPOSE_WORDS = {
    "attack": "attacks",
    "defence": "defends",
    "reroll": "rerolls (Second Wind)",
    "rummage": "rummages",
    "roll-off": "roll-off",
}


def new_rolls(obs: BrawlObservation, since_step: int) -> list[RollView]:
    """The rolls made after `since_step`, oldest first, at most the latest MAX_ROLLS."""
    fresh = [roll for roll in obs["rolls"] if roll["step"] > since_step]
    return fresh[-MAX_ROLLS:]


def roll_counts(obs: BrawlObservation, roll: RollView) -> list[str]:
    """What matters of a roll, in words: crowbars attack, lids defend, signs rummage."""
    dice = roll["dice"]
    crowbars = sum(1 for die in dice if is_crowbar(die))
    pluses = sum(1 for die in dice if is_plus(die))
    purpose = roll["purpose"]
    if purpose == "rummage":
        minuses = len(dice) - pluses
        parts = [f"+{pluses} to draw" if pluses else "nothing to draw"]
        if obs["mode"] != "rummy":  # Rummy has no discarding: minuses do nothing
            parts.append(f"-{minuses} to discard" if minuses else "nothing to discard")
        return parts
    if purpose == "defence" or (purpose == "reroll" and roll["colour"] == "green"):
        return [_plural(len(dice) - crowbars, "lid")]
    return [_plural(crowbars, "crowbar")]


def draw_rolls(obs: BrawlObservation, names: list[str], since_step: int) -> bytes | None:
    """The dice rolled after `since_step` as PNG bytes (None when there is nothing new)."""
    image = rolls_image(obs, names, since_step)
    return None if image is None else to_png(image)


def rolls_image(obs: BrawlObservation, names: list[str], since_step: int) -> Image.Image | None:
    """The dice picture as an image (for tests and previews)."""
    rolls = new_rolls(obs, since_step)
    start = obs["start_rolls"] if since_step == 0 else []
    if not rolls and not start:
        return None
    height = 48 + 8 + len(start) * START_ROW_H + (28 if start else 0) + len(rolls) * ROLL_ROW_H
    image = Image.new("RGB", (ROLLS_W, height + 8), BACKDROP)
    title = "Start roll" if start and not rolls else "The dice"
    hidden = len([r for r in obs["rolls"] if r["step"] > since_step]) - len(rolls)
    note = f"{hidden} earlier not shown" if hidden > 0 else ""
    title_bar(image, title, note, 44, 22)
    y = 52
    for round_index, faces in enumerate(start):
        _start_row(image, obs, names, round_index, faces, y)
        y += START_ROW_H
    if start:
        starter = obs["starter"]
        text = f"{who(obs, names, starter)} starts!" if 0 <= starter < obs["seats"] else ""
        _text(image, (24, y, ROLLS_W - 24, y + 26), text, 17, TORCH, "left", 11, bold=True)
        y += 28
    striped, last_step = True, rolls[0]["step"] if rolls else 0
    for roll in rolls:
        if roll["step"] != last_step:  # a fight's attack and defence share one band
            striped, last_step = not striped, roll["step"]
        _roll_row(image, obs, names, roll, y, striped)
        y += ROLL_ROW_H
    return image


def _roll_row(
    image: Image.Image,
    obs: BrawlObservation,
    names: list[str],
    roll: RollView,
    top: int,
    striped: bool,
) -> None:
    seat = roll["seat"]
    if striped:
        rounded_box(image, (8, top + 2, ROLLS_W - 8, top + ROLL_ROW_H - 2), 10, PANEL)
    disc(image, (26, top + ROLL_ROW_H // 2), 16, player_colour(seat), CARD_EDGE, 2)
    _text(image, (42, top + 6, DICE_LEFT - 10, top + 32), who(obs, names, seat), 18, INK, "left",
          11, bold=True)  # fmt: skip
    word = PURPOSE_WORDS.get(roll["purpose"], roll["purpose"])
    _text(image, (42, top + 32, DICE_LEFT - 10, top + 54), word, 15, MUTED, "left", 10)
    y = top + (ROLL_ROW_H - DIE) // 2
    dice = roll["dice"][:8]
    step = DIE_STEP if len(dice) <= 7 else DIE + 2
    for index, die in enumerate(dice):
        sprite = die_sprite(roll["colour"], die, DIE)
        image.paste(sprite, (DICE_LEFT + index * step, y), sprite)
    counts = roll_counts(obs, roll)
    x = DICE_LEFT + 7 * DIE_STEP + 6
    if len(counts) == 1:
        _text(image, (x, top, ROLLS_W - 16, top + ROLL_ROW_H), counts[0], 20, TORCH, "left", 12,
              bold=True)  # fmt: skip
    else:
        for index, text in enumerate(counts):
            y = top + 6 + index * 26
            _text(image, (x, y, ROLLS_W - 16, y + 24), text, 17, TORCH, "left", 11, bold=True)


def _start_row(
    image: Image.Image,
    obs: BrawlObservation,
    names: list[str],
    round_index: int,
    faces: list[int],
    top: int,
) -> None:
    """One round of the start-player roll: each seat's die, or a dash for those already out."""
    rounded_box(image, (8, top + 2, ROLLS_W - 8, top + START_ROW_H - 2), 10, PANEL)
    _text(image, (24, top + 8, DICE_LEFT - 10, top + 34), f"Start roll, round {round_index + 1}",
          17, INK, "left", 11, bold=True)  # fmt: skip
    _text(image, (24, top + 36, DICE_LEFT - 10, top + 58), "crowbar rolls on, lid drops out", 13,
          MUTED, "left", 9)  # fmt: skip
    cell = min(82, (ROLLS_W - 16 - DICE_LEFT) // max(1, len(faces)))
    size = 40
    for seat, face in enumerate(faces):
        cx = DICE_LEFT + seat * cell + cell // 2
        if face < 0:
            box = (cx - size // 2, top + 8, cx + size // 2, top + 8 + size)
            rounded_box(image, box, 8, shade(PANEL, 0.8), PANEL_EDGE, 1)
            _text(image, box, "out", 12, MUTED)
        else:
            # the house faces: 1 is a crowbar-minus, 2 a lid-plus
            sprite = die_sprite("blue", 1 if face == 1 else 2, size)
            image.paste(sprite, (cx - size // 2, top + 8), sprite)
        _text(image, (cx - cell // 2 + 2, top + 52, cx + cell // 2 - 2, top + 74),
              player_name(names, seat), 13, INK if face >= 0 else MUTED, min_size=10)  # fmt: skip


# --- the hand -------------------------------------------------------------------------------

HAND_W = 1000
HAND_CARD: Size = (104, 146)
FAN_STEP = 22  # how far each further card of a group peeks out
MAX_FANNED = 6
GROUP_GAP = 14
GROUP_PAD = 8
GROUP_LABEL_H = 56
HAND_TOP = 56


@dataclass(frozen=True)
class Group:
    """Cards of one kind in a hand: a trash kind, the Slugs, or one Booster."""

    type: str  # trash, slug, booster or blocker
    key: str
    name: str
    cards: tuple[int, ...]  # card ids
    is_set: bool
    needed: int  # cards that make a set of this kind (0: not trash)

    @property
    def count(self) -> int:
        return len(self.cards)


def own_affinity(obs: BrawlObservation) -> str:
    """The viewer's affinity kind, or "" when affinity is off or the view has no seat."""
    seat = obs["seat"]
    if not obs["affinity"] or seat is None or not 0 <= seat < len(obs["characters"]):
        return ""
    return obs["characters"][seat]["affinity"]


def hand_groups(obs: BrawlObservation) -> list[Group]:
    """The hand grouped by kind: sets first, then trash by count, Slugs, Boosters."""
    affinity = own_affinity(obs)
    by_key: dict[tuple[str, str], list[CardView]] = {}
    for card in obs["hand"] or []:
        by_key.setdefault((card["type"], card["key"]), []).append(card)
    groups: list[Group] = []
    for (kind, key), cards in by_key.items():
        needed = (2 if key == affinity else 3) if kind == "trash" else 0
        is_set = kind == "trash" and len(cards) >= needed
        ids = tuple(card["id"] for card in cards)
        groups.append(Group(kind, key, cards[0]["name"], ids, is_set, needed))
    type_order = {"trash": 0, "slug": 1, "booster": 2, "blocker": 3}
    groups.sort(key=lambda g: (type_order.get(g.type, 4), not g.is_set, -g.count,
                               _kind_order(g.key), g.key))  # fmt: skip
    return groups


def hand_verdict(obs: BrawlObservation) -> str:
    """How close the hand is to winning, in one line."""
    if obs["mode"] == "rummy":
        seat = obs["seat"]
        laid = len(obs["laid"][seat]) if seat is not None and seat < len(obs["laid"]) else 0
        points = obs["points"][seat] if seat is not None and seat < len(obs["points"]) else 0
        ready = sum(1 for g in hand_groups(obs) if g.is_set)
        head = f"Rummy: your scoring area holds {_plural(laid, 'card')}"
        head += f" ({_plural(points, 'point')})"
        return head + (f"; {_plural(ready, 'set')} in hand to lay down" if ready else "")
    groups = hand_groups(obs)
    sets = sum(1 for g in groups if g.is_set)
    slugs = sum(g.count for g in groups if g.type == "slug")
    boosters = sum(g.count for g in groups if g.type in ("booster", "blocker"))
    odd = sum(g.count for g in groups if g.type == "trash" and not g.is_set)
    if not groups:
        return "No cards in hand."
    if sets >= 3 and not slugs and not boosters and not odd:
        return f"{_plural(sets, 'set')} and nothing else: a winning hand!"
    parts = [_plural(sets, "set")]
    if slugs:
        parts.append(_plural(slugs, "Slug"))
    if boosters:
        parts.append(_plural(boosters, "Booster"))
    if odd:
        parts.append(_plural(odd, "odd card"))
    missing = f"{3 - sets} more set{'s' * (3 - sets != 1)} needed" if sets < 3 else ""
    blockers = "" if sets < 3 else "the rest must go first"
    return f"{_and(parts)}: not a winning hand ({missing or blockers})"


def _group_size(group: Group) -> Size:
    fanned = min(group.count, MAX_FANNED)
    width = HAND_CARD[0] + (fanned - 1) * FAN_STEP + 2 * GROUP_PAD
    return max(width, 150), HAND_CARD[1] + 2 * GROUP_PAD + GROUP_LABEL_H


def hand_layout(groups: list[Group]) -> list[tuple[Group, Box]]:
    """Groups placed left to right, wrapping to new rows within HAND_W; rows centred."""
    rows: list[list[tuple[Group, Size]]] = [[]]
    used = 0
    usable = HAND_W - 32
    for group in groups:
        size = _group_size(group)
        if rows[-1] and used + GROUP_GAP + size[0] > usable:
            rows.append([])
            used = 0
        used += (GROUP_GAP if rows[-1] else 0) + size[0]
        rows[-1].append((group, size))
    placed: list[tuple[Group, Box]] = []
    top = HAND_TOP
    for row in rows:
        if not row:
            continue
        row_w = sum(size[0] for _, size in row) + GROUP_GAP * (len(row) - 1)
        x = (HAND_W - row_w) // 2
        for group, (w, h) in row:
            placed.append((group, (x, top, x + w, top + h)))
            x += w + GROUP_GAP
        top += max(size[1] for _, size in row) + GROUP_GAP
    return placed


def draw_hand(obs: BrawlObservation, name: str) -> bytes:
    """A player's own cards as PNG bytes, grouped by kind, sets highlighted."""
    return to_png(hand_image(obs, name))


def hand_image(obs: BrawlObservation, name: str) -> Image.Image:
    """The "My hand" picture as an image (for tests and previews)."""
    groups = hand_groups(obs)
    placed = hand_layout(groups)
    cards_bottom = max((box[3] for _, box in placed), default=HAND_TOP + 120)
    height = cards_bottom + 12 + 40 + 14
    image = Image.new("RGB", (HAND_W, height), BACKDROP)
    count = len(obs["hand"] or [])
    seat = obs["seat"]
    who_line = display_name(name, "You")
    if seat is not None and 0 <= seat < len(obs["characters"]):
        who_line = f"{obs['characters'][seat]['name']} ({who_line})"
    title_bar(image, "Your hand", f"{who_line} - {_plural(count, 'card')}", 44, 22)
    if not placed:
        box = (24, HAND_TOP, HAND_W - 24, HAND_TOP + 120)
        rounded_box(image, box, 16, PANEL, PANEL_EDGE, 2)
        _text(image, box, "No cards in hand", 24, MUTED)
    affinity = own_affinity(obs)
    for group, box in placed:
        _draw_group(image, obs, group, box, affinity)
    verdict = hand_verdict(obs)
    winning = verdict.endswith("winning hand!")
    box = (16, cards_bottom + 12 - GROUP_GAP, HAND_W - 16, cards_bottom + 52 - GROUP_GAP)
    rounded_box(image, box, 12, SET_FILL if winning else PANEL, SET_GLOW if winning else PANEL_EDGE,
                2)  # fmt: skip
    _text(image, (box[0] + 16, box[1], box[2] - 16, box[3]), verdict, 18,
          TORCH if winning else INK, "left", 12, bold=True)  # fmt: skip
    return image.crop((0, 0, HAND_W, box[3] + 12))


def _draw_group(
    image: Image.Image, obs: BrawlObservation, group: Group, box: Box, affinity: str
) -> None:
    left, top, right, _ = box
    if group.is_set:
        rounded_box(image, box, 14, SET_FILL, SET_GLOW, 3)
    elif group.type == "slug":
        rounded_box(image, box, 14, SLUG_FILL, BLOCKER_COLOUR, 2)
    else:
        rounded_box(image, box, 14, PANEL, PANEL_EDGE, 2)
    fanned = min(group.count, MAX_FANNED)
    fan_w = HAND_CARD[0] + (fanned - 1) * FAN_STEP
    x0 = (left + right - fan_w) // 2
    view = CardView(id=0, type=group.type, key=group.key, name=group.name)
    sprite = card_sprite(view, HAND_CARD, affinity)
    for index in range(fanned):
        image.paste(sprite, (x0 + index * FAN_STEP, top + GROUP_PAD), sprite)
    if group.count > 1:  # the count on a badge at the top card's corner
        cx, cy = x0 + fan_w - 8, top + GROUP_PAD + HAND_CARD[1] - 12
        disc(image, (cx, cy), 30, TORCH if not group.is_set else SET_GLOW, CARD_EDGE, 2)
        draw_text(image, (cx, cy), f"{group.count}", 17, DARK_INK, "mm", bold=True, cache=True)
    label_top = top + GROUP_PAD + HAND_CARD[1] + 4
    title, note, colour = _group_words(group)
    _text(image, (left + 6, label_top, right - 6, label_top + 20), title, 15,
          SET_GLOW if group.is_set else INK, min_size=10, bold=True)  # fmt: skip
    for index, line in enumerate(wrap(note, right - left - 12, 12)[:2]):
        y = label_top + 20 + index * 15
        _text(image, (left + 6, y, right - 6, y + 16), line, 12, colour, min_size=9)


def _group_words(group: Group) -> tuple[str, str, Colour]:
    """A group's label: its name and count, and a note (set, progress, what it does)."""
    if group.type == "trash":
        title = f"{group.name} x{group.count}"
        if group.is_set:
            return title, "SET" + (" (affinity)" if group.needed == 2 else ""), SET_GLOW
        short = group.needed - group.count
        return title, f"{short} more for a set", MUTED
    if group.type == "slug":
        return f"Slug x{group.count}", "blocks a win: get rid of it", (240, 120, 100)
    special = BOOSTER_TEXT.get(group.key) or BLOCKER_TEXT.get(group.key)
    title = group.name + (f" x{group.count}" if group.count > 1 else "")
    return title, special.effect if special else "", (150, 190, 240)

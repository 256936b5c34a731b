"""Pictures for Toss It in the Trash, drawn from a `TossObservation` only.

- `draw_bin(obs, names)`: the channel's picture. On the left, a side view of the bin cut
  open (walls, rim, floor, ribbed back wall) with every resting piece drawn at its pose
  from the simulation; on the right, the round, whose turn it is, every player's row
  (colour, mice, the card they laid down or whether they have chosen, counters taken,
  score, place in the turn order) and, underneath, the supply beside the bin and the
  counter stack. It never reads `obs["hand"]` or `obs["my_choice"]`.
- `draw_preview(obs, kind, position, angle_deg)`: a small picture of the bin with a
  translucent "ghost" of the piece held above the opening at the chosen spot and
  rotation, a dotted drop line and the outline of where the hand lets go, so a player can
  see a drop before making it.
- `draw_cards(obs, name)`: a player's own hand and the card they laid down this round.

What players see is what the simulation does: a box piece is drawn as a rectangle of
exactly its `KINDS` width x height and a round piece as a disc of its radius, centred on
the piece's position and turned by its angle; the looks (labels, rims, a bottle's neck)
are painted inside that outline. Sizes are always read from `KINDS`.

Speed: the bin, the backdrop and the panels are drawn once per layout and cached; each
kind's sprite is drawn once per scale (supersampled for smooth edges) and once per whole
degree of rotation, so a picture is a copy, some pastes, a little text and the PNG
encoding.
"""

from __future__ import annotations

import math
import random
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
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    STONE_DARK,
    SUPERSAMPLE,
    TORCH,
    Box,
    CardFace,
    Colour,
    Size,
    card_back_image,
    card_image,
    disc,
    display_name,
    draw_text,
    rounded_box,
    shade,
    text_in_box,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from rules.toss.bin import BIN_HEIGHT, BIN_WIDTH, DROP_GAP, KINDS, Kind, grid_x, inside_opening
from rules.toss.observation import ROUNDS, BinPiece, TossObservation

# --- the look of each kind of garbage ----------------------------------------------------


@dataclass(frozen=True)
class PieceLook:
    """How a kind of garbage is painted inside its physics outline."""

    body: Colour
    """The main fill, and the colour at the piece's centre (tests sample it there)."""
    accent: Colour
    """A label band, a rim or the skin."""
    detail: Colour
    """A cap, the rim highlights or the seeds."""
    alpha: int
    """Opacity of the body: glass lets the bin show through a little."""
    painter: str
    """Which painter adds the details (a key of `_PAINTERS`)."""
    plural: str
    """For captions: "milk cartons"."""


# One row per kind: what players see of each piece (its outline comes from `KINDS`).
LOOKS: dict[str, PieceLook] = {
    "carton": PieceLook(  # white board, a blue band with a milk drop, a gable top
        body=(236, 236, 228), accent=(58, 118, 200), detail=(204, 204, 196), alpha=255,
        painter="carton", plural="milk cartons",
    ),
    "can": PieceLook(  # grey tinplate, rolled rims, ribs and a shine
        body=(172, 178, 186), accent=(118, 124, 132), detail=(222, 226, 230), alpha=255,
        painter="can", plural="tin cans",
    ),
    "bottle": PieceLook(  # see-through green glass, a paper label, a gold cap
        body=(58, 150, 84), accent=(226, 214, 172), detail=(214, 170, 60), alpha=220,
        painter="bottle", plural="bottles",
    ),
    "apple": PieceLook(  # pale flesh, red-brown skin top and bottom, dark seeds
        body=(238, 218, 144), accent=(176, 62, 40), detail=(70, 40, 22), alpha=255,
        painter="apple", plural="apple cores",
    ),
}  # fmt: skip
UNKNOWN_LOOK = PieceLook((200, 120, 200), (120, 60, 120), (80, 40, 80), 255, "can", "pieces")
PIECE_EDGE: Colour = (24, 20, 18)

# The bin: galvanised steel, dark inside.
BIN_METAL: Colour = (136, 146, 152)
BIN_METAL_LIGHT: Colour = (184, 194, 198)
BIN_METAL_DARK: Colour = (78, 86, 92)
BIN_INSIDE: Colour = (44, 50, 54)  # the back wall seen through the open side
BIN_RIB: Colour = (52, 59, 64)
GROUND: Colour = (50, 45, 42)
WALL_BRICK: Colour = (36, 33, 32)  # the alley wall behind the bin

# Counters: brass tokens; taken ones show their side.
COUNTER: Colour = (206, 160, 74)
MINUS: Colour = (212, 64, 52)
PLUS: Colour = (70, 170, 88)
WINNER_BAND: Colour = (86, 62, 26)
GHOST_ALPHA = 0.6  # how solid the piece held over the bin looks in a preview

SEAT_COLOURS: dict[str, Colour] = dict(zip(PLAYER_COLOUR_NAMES, PLAYER_COLOURS, strict=True))
UNKNOWN_SEAT_COLOUR: Colour = (150, 150, 150)

# --- layout (pixels) ----------------------------------------------------------------------

BOARD_SIZE: Size = (920, 720)
TITLE_HEIGHT = 48
PANEL_LEFT, PANEL_RIGHT = 392, 908
CAPTION_BOX: Box = (PANEL_LEFT, 58, PANEL_RIGHT, 110)
ROWS_TOP = 120
ROW_H, ROW_GAP = 64, 6
SUPPLY_BOX: Box = (PANEL_LEFT, 520, 686, 708)
COUNTERS_BOX: Box = (696, 520, PANEL_RIGHT, 708)
BIN_ZONE = (0, 384)  # the bin is centred across these x pixels
ARROW_TOP = TITLE_HEIGHT + 8  # the last-drop arrow hangs here, above everything

PREVIEW_SIZE: Size = (250, 360)
CARD_SIZE: Size = (120, 168)
CARD_GAP = 14


@dataclass(frozen=True)
class BinView:
    """Where the bin sits in a picture: its inside-left wall, floor and millimetre scale."""

    size: Size
    left: float  # x pixel of the inside of the left wall
    floor: float  # y pixel of the floor
    scale: float  # pixels per millimetre
    wall: int  # wall thickness, pixels

    def at(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Image coordinates (y down) of the bin point `x_mm`, `y_mm` (y up)."""
        return self.left + x_mm * self.scale, self.floor - y_mm * self.scale

    @property
    def rim(self) -> float:
        return self.floor - BIN_HEIGHT * self.scale

    @property
    def right(self) -> float:
        return self.left + BIN_WIDTH * self.scale


BOARD_FLOOR, BOARD_SCALE, BOARD_ROOM = 676.0, 1.55, ARROW_TOP + 34
PREVIEW_FLOOR, PREVIEW_SCALE, PREVIEW_ROOM = 342.0, 0.8, 32


def fitted_view(
    size: Size, floor: float, scale: float, room: int, top_mm: float, wall_mm: float
) -> BinView:
    """The bin at `scale` pixels per mm, or smaller when the pile (`top_mm` high) would
    reach above y = `room`; scales are rounded down to 0.05 so backgrounds cache."""
    needed = max(float(BIN_HEIGHT), top_mm) + 6
    fit = min(scale, (floor - room) / needed)
    fit = max(0.2, math.floor(fit * 20) / 20)
    zone = BIN_ZONE[1] - BIN_ZONE[0] if size == BOARD_SIZE else size[0]
    left = float(round(zone / 2 - BIN_WIDTH * fit / 2))
    return BinView(size, left, floor, fit, max(4, round(wall_mm * fit)))


def board_view(pieces: list[BinPiece]) -> BinView:
    """Where the bin sits on the board: as large as it goes with the pile in sight."""
    top = pile_top(pieces, -math.inf, math.inf)
    return fitted_view(BOARD_SIZE, BOARD_FLOOR, BOARD_SCALE, BOARD_ROOM, top, 9)


def preview_view(pieces: list[BinPiece], ghost_top: float) -> BinView:
    """Where the bin sits in a preview: the pile and the ghost above it in sight."""
    top = max(pile_top(pieces, -math.inf, math.inf), ghost_top)
    return fitted_view(PREVIEW_SIZE, PREVIEW_FLOOR, PREVIEW_SCALE, PREVIEW_ROOM, top, 9)


# --- public -----------------------------------------------------------------------------


def draw_bin(obs: TossObservation, names: list[str]) -> bytes:
    """The channel's picture as PNG bytes. `names[seat]` is each player's display name.

    It never reads `obs["hand"]` or `obs["my_choice"]`: the same picture for every viewer.
    """
    return to_png(bin_image(obs, names))


def bin_image(obs: TossObservation, names: list[str]) -> Image.Image:
    """The channel's picture as an image (for tests and previews)."""
    view = board_view(obs["bin"])
    image = _board_with_pile(view, obs["seats"], _pile_key(obs["bin"])).copy()
    _draw_last_drop(image, view, obs)
    title_bar(image, "Toss It in the Trash", _title_note(obs), TITLE_HEIGHT)
    _draw_caption(image, obs, names)
    for seat in range(obs["seats"]):
        _draw_player(image, obs, names, seat)
    _draw_supply(image, obs)
    _draw_counters(image, obs)
    return image


def draw_preview(obs: TossObservation, kind: str, position: int, angle_deg: int) -> bytes:
    """A small picture (PNG bytes) of the bin with a ghost of a `kind` piece held over grid
    spot `position`, turned `angle_deg` degrees counter-clockwise, and where it is let go."""
    return to_png(preview_image(obs, kind, position, angle_deg))


def preview_image(obs: TossObservation, kind: str, position: int, angle_deg: int) -> Image.Image:
    """The preview as an image (for tests)."""
    shape = KINDS.get(kind)
    pose = ghost_pose(obs["bin"], kind, position, angle_deg) if shape else None
    ghost_top = 0.0
    if shape is not None and pose is not None:
        ghost_top = pose[1] + half_box(shape, math.radians(angle_deg))[1]
    view = preview_view(obs["bin"], ghost_top)
    image = _preview_background(view).copy()
    _draw_pieces(image, view, obs["bin"])
    if shape is not None and pose is not None:
        x, lift, release = pose
        angle = math.radians(angle_deg)
        _, half_h = half_box(shape, angle)
        # the dotted drop line from the hand to where the piece is let go
        top_y = view.at(x, lift - half_h)[1]
        bottom_y = view.at(x, release + half_h)[1]
        line_x = round(view.at(x, 0)[0])
        draw = ImageDraw.Draw(image)
        for y in range(round(top_y) + 3, round(bottom_y) - 2, 7):
            draw.line((line_x, y, line_x, min(y + 3, bottom_y)), fill=TORCH, width=2)
        if release + half_h < lift - half_h:  # room between hand and pile: show the release
            outline = _piece_sprite(kind, shape, view.scale, angle_deg, "outline")
            _paste_centred(image, outline, view.at(x, release))
        for style in ("ghost", "outline"):  # see-through, framed in torch light
            sprite = _piece_sprite(kind, shape, view.scale, angle_deg, style)
            _paste_centred(image, sprite, view.at(x, lift))
    # the label last, over anything piled high
    ImageDraw.Draw(image).rectangle((0, 0, view.size[0], 27), fill=(22, 19, 18))
    name = shape.name if shape else kind
    label = f"{name.capitalize()} - spot {position}, {angle_deg}°"
    _text_in_box(image, (6, 2, view.size[0] - 6, 26), label, 16, INK, min_size=11)
    return image


def draw_cards(obs: TossObservation, name: str) -> bytes:
    """A player's own cards as PNG bytes: their hand and the card laid down this round."""
    return to_png(cards_image(obs, name))


def cards_image(obs: TossObservation, name: str) -> Image.Image:
    """The private cards picture as an image (for tests)."""
    hand = list(obs["hand"] or [])
    choice = obs["my_choice"]
    seat = obs["seat"]
    colour_word = obs["colours"][seat] if seat is not None and seat < len(obs["colours"]) else ""
    mice = obs["mice"][seat] if seat is not None and seat < len(obs["mice"]) else 0
    colour = SEAT_COLOURS.get(colour_word, UNKNOWN_SEAT_COLOUR)
    width, height = cards_size(len(hand), choice is not None)
    image = Image.new("RGB", (width, height), BACKDROP)
    count = f"{len(hand)} card{'s' * (len(hand) != 1)} in hand"
    title_bar(image, "Your cards", f"{display_name(name, 'You')} - {count}", 44, 22)
    top = 60
    _draw_text(image, (24, top), "IN HAND", 15, TORCH, "la")
    cards_top = top + 26
    if not hand:
        box = (24, cards_top, 24 + 2 * CARD_SIZE[0] + CARD_GAP, cards_top + CARD_SIZE[1])
        rounded_box(image, box, 14, PANEL, PANEL_EDGE, 2)
        _text_in_box(image, box, "No cards in hand", 20, MUTED)
    for index, card in enumerate(hand):
        sprite = _card_sprite(card, colour_word, colour, mice, CARD_SIZE)
        image.paste(sprite, (24 + index * (CARD_SIZE[0] + CARD_GAP), cards_top), sprite)
    if choice is not None:
        left = width - 24 - CARD_SIZE[0]
        draw = ImageDraw.Draw(image)
        draw.line((left - 22, top + 4, left - 22, cards_top + CARD_SIZE[1]), PANEL_EDGE, 2)
        _draw_text(image, (left, top), "LAID DOWN", 15, TORCH, "la")
        frame = (left - 6, cards_top - 6, left + CARD_SIZE[0] + 6, cards_top + CARD_SIZE[1] + 6)
        rounded_box(image, frame, 16, HIGHLIGHT)
        sprite = _card_sprite(choice, colour_word, colour, mice, CARD_SIZE)
        image.paste(sprite, (left, cards_top), sprite)
    word = colour_word or "your"
    note = f"{word.capitalize()} cards, {mice} {'mouse' if mice == 1 else 'mice'} each"
    note += ": on equal numbers, fewer mice go first."
    if choice is None and obs["phase"] == "choose":
        note = "Lay down one card face down. " + note
    if seat is None:
        note = "Only players have cards."
    _text_in_box(image, (24, height - 40, width - 24, height - 12), note, 16, MUTED, "left", 11)
    return image


def cards_size(hand: int, chosen: bool) -> Size:
    """The size of the private cards picture for `hand` cards (and the laid-down one)."""
    cards = max(hand, 2) * (CARD_SIZE[0] + CARD_GAP) - CARD_GAP
    width = 24 + cards + (44 + CARD_SIZE[0] if chosen else 0) + 24
    return max(width, 460), 60 + 26 + CARD_SIZE[1] + 56


# --- geometry ----------------------------------------------------------------------------


def half_box(kind: Kind, angle: float) -> tuple[float, float]:
    """Half the width and half the height (mm) of the piece's bounding box at `angle`."""
    if kind.shape == "round":
        return kind.radius, kind.radius
    cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
    half_w = (kind.width * cos + kind.height * sin) / 2 + 0.5  # the physics box has 0.5 mm
    half_h = (kind.width * sin + kind.height * cos) / 2 + 0.5  # rounded corners
    return half_w, half_h


def pile_top(pieces: list[BinPiece], left: float, right: float) -> float:
    """The highest point (mm) of the pieces reaching into `left`..`right`, from the
    observation alone (bounding boxes, as the simulation measures it)."""
    top = 0.0
    for piece in pieces:
        kind = KINDS.get(piece["kind"])
        if kind is None:
            continue
        half_w, half_h = half_box(kind, piece["angle"])
        if piece["x"] + half_w >= left and piece["x"] - half_w <= right:
            top = max(top, piece["y"] + half_h)
    return top


def ghost_pose(
    pieces: list[BinPiece], kind: str, position: int, angle_deg: int
) -> tuple[float, float, float]:
    """Where a preview draws the piece: x (mm, moved in from a wall as the hand does), the
    height of the ghost's centre above the opening, and the height it is let go at (just
    above the pile under it, as the simulation does, before any wobble)."""
    shape = KINDS[kind]
    angle = math.radians(angle_deg)
    x = inside_opening(shape, grid_x(position), angle)
    reach = shape.half_extent()
    release = pile_top(pieces, x - reach, x + reach) + reach + DROP_GAP
    _, half_h = half_box(shape, angle)
    lift = max(BIN_HEIGHT + half_h + 8, release)
    return x, lift, release


# --- pieces ------------------------------------------------------------------------------


def look_of(kind: str) -> PieceLook:
    return LOOKS.get(kind, UNKNOWN_LOOK)


# A piece as drawn: kind, centre in millimetres, whole degrees turned.
PileKey = tuple[tuple[str, float, float, int], ...]


def _pile_key(pieces: list[BinPiece]) -> PileKey:
    return tuple(
        (piece["kind"], piece["x"], piece["y"], round(math.degrees(piece["angle"])) % 360)
        for piece in pieces
    )


def _draw_pieces(image: Image.Image, view: BinView, pieces: list[BinPiece]) -> None:
    _draw_pile(image, view, _pile_key(pieces))


def _draw_pile(image: Image.Image, view: BinView, pile: PileKey) -> None:
    for key, x, y, degrees in pile:
        kind = KINDS.get(key)
        if kind is None:
            continue
        sprite = _piece_sprite(key, kind, view.scale, degrees, "solid")
        _paste_centred(image, sprite, view.at(x, y))


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
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
def _piece_sprite(key: str, kind: Kind, scale: float, degrees: int, style: str) -> Image.Image:
    """The piece (RGBA) turned `degrees` counter-clockwise around its centre. `style`:
    "solid" in the bin, "ghost" held over it, "outline" where it is let go, "faded" for
    a kind whose supply is used up."""
    upright = _upright_sprite(key, kind, scale)
    if style in ("ghost", "faded"):
        share = GHOST_ALPHA if style == "ghost" else 0.25
        upright = upright.copy()
        upright.putalpha(upright.getchannel("A").point(lambda a: round(a * share)))
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


def _rgba(colour: Colour, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


def _paint_carton(image: Image.Image, look: PieceLook, k: int) -> None:
    """A milk carton standing up: a gable top with its fin, a blue label band low down."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(w * 0.05))
    draw.rectangle((0, 0, w - 1, h - 1), fill=_rgba(PIECE_EDGE))
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=_rgba(look.body))
    fin, gable = round(h * 0.07), round(h * 0.2)
    draw.rectangle((edge, edge, w - 1 - edge, fin), fill=_rgba(look.detail))
    draw.polygon(
        [(edge, gable), (w / 2, fin), (w - 1 - edge, gable)], fill=_rgba(shade(look.body, 0.9))
    )
    draw.line((edge, gable, w - 1 - edge, gable), fill=_rgba(look.detail), width=k)
    band_top, band_bottom = round(h * 0.6), round(h * 0.82)
    draw.rectangle((edge, band_top, w - 1 - edge, band_bottom), fill=_rgba(look.accent))
    draw.rectangle(
        (edge, band_top, w - 1 - edge, band_top + k * 2), fill=_rgba(shade(look.accent, 0.7))
    )
    # a white drop on the band
    cx, cy, r = w / 2, (band_top + band_bottom) / 2, (band_bottom - band_top) * 0.28
    draw.ellipse((cx - r, cy - r * 0.6, cx + r, cy + r * 1.2), fill=_rgba(look.body))
    draw.polygon([(cx - r * 0.8, cy), (cx, cy - r * 1.6), (cx + r * 0.8, cy)], _rgba(look.body))


def _paint_can(image: Image.Image, look: PieceLook, k: int) -> None:
    """A tin can: grey metal with rolled rims top and bottom and two pairs of ribs."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(min(w, h) * 0.05))
    draw.rectangle((0, 0, w - 1, h - 1), fill=_rgba(PIECE_EDGE))
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=_rgba(look.body))
    rim = round(h * 0.12)
    for top in (edge, h - 1 - edge - rim):
        draw.rectangle((edge, top, w - 1 - edge, top + rim), fill=_rgba(look.accent))
        draw.rectangle((edge, top + k, w - 1 - edge, top + 2 * k), fill=_rgba(look.detail))
    for share in (0.3, 0.38, 0.62, 0.7):
        y = round(h * share)
        draw.line((edge, y, w - 1 - edge, y), fill=_rgba(shade(look.body, 0.82)), width=k)
    # a vertical shine
    x = round(w * 0.22)
    draw.rectangle((x, rim + edge, x + round(w * 0.08), h - 1 - edge - rim), _rgba(look.detail))


def _paint_bottle(image: Image.Image, look: PieceLook, k: int) -> None:
    """A glass bottle: see-through green, a paler neck with a cap, a paper label."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    edge = max(k, round(w * 0.07))
    draw.rectangle((0, 0, w - 1, h - 1), fill=_rgba(shade(look.body, 0.35)))
    glass = _rgba(look.body, look.alpha)
    draw.rectangle((edge, edge, w - 1 - edge, h - 1 - edge), fill=glass)
    # the shoulders and neck: the glass beside the neck is thinner, so paler
    neck_w, shoulder, cap = w * 0.22, round(h * 0.3), round(h * 0.07)
    pale = _rgba(shade(look.body, 1.35), look.alpha - 70)
    for side in (-1, 1):
        outer = edge if side < 0 else w - 1 - edge
        inner = w / 2 + side * neck_w
        draw.polygon(
            [(outer, edge), (inner, edge), (inner, shoulder - h * 0.06), (outer, shoulder)],
            fill=pale,
        )
    draw.rectangle((w / 2 - neck_w - k, edge, w / 2 + neck_w + k, cap), fill=_rgba(look.detail))
    label_top, label_bottom = round(h * 0.64), round(h * 0.84)
    draw.rectangle((edge, label_top, w - 1 - edge, label_bottom), fill=_rgba(look.accent))
    shine = _rgba(shade(look.body, 1.6), 150)
    draw.rectangle((round(w * 0.24), shoulder, round(w * 0.36), label_top - k * 2), fill=shine)


def _paint_apple(image: Image.Image, look: PieceLook, k: int) -> None:
    """An apple core: red-brown skin top and bottom, bitten pale flesh between, a stem, the
    core's outline and two seeds (the centre itself stays flesh)."""
    w, h = image.size
    size = min(w, h)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, size - 1, size - 1), fill=255)
    art = Image.new("RGBA", (w, h), _rgba(look.body))
    draw = ImageDraw.Draw(art)
    # the skin left at top and bottom, curving like the apple did
    for y0, y1 in ((-size * 0.55, size * 0.24), (size * 0.76, size * 1.55)):
        draw.ellipse((-size * 0.2, y0, size * 1.2, y1), fill=_rgba(look.accent))
    # bites browned at the edges
    for cx in (-size * 0.06, size * 1.06):
        draw.ellipse(
            (cx - size * 0.24, size * 0.24, cx + size * 0.24, size * 0.76),
            fill=_rgba(shade(look.body, 0.8)),
        )
    # the core: an almond outline with a seed above and below the centre
    core = _rgba(shade(look.body, 0.72))
    draw.ellipse((size * 0.34, size * 0.25, size * 0.66, size * 0.75), outline=core, width=k)
    for cy in (size * 0.36, size * 0.64):
        draw.ellipse(
            (size * 0.44, cy - size * 0.07, size * 0.56, cy + size * 0.07), fill=_rgba(look.detail)
        )
    # the stem, inside the outline
    draw.line((size * 0.5, size * 0.2, size * 0.58, k), fill=_rgba(look.detail), width=2 * k)
    ring = Image.new("L", (w, h), 0)
    ring_draw = ImageDraw.Draw(ring)
    ring_draw.ellipse((0, 0, size - 1, size - 1), fill=255)
    edge = max(k, round(size * 0.05))
    ring_draw.ellipse((edge, edge, size - 1 - edge, size - 1 - edge), fill=0)
    art.paste(_rgba(PIECE_EDGE), (0, 0), ring)
    image.paste(art, (0, 0), mask)


_PAINTERS = {
    "carton": _paint_carton,
    "can": _paint_can,
    "bottle": _paint_bottle,
    "apple": _paint_apple,
}


# --- the bin -----------------------------------------------------------------------------


@lru_cache(maxsize=8)  # a board is ~2.6 MB in memory: with the one below, at most ~42 MB
def _board_with_pile(view: BinView, seats: int, pile: PileKey) -> Image.Image:
    """The background with the pieces in the bin: the pile changes only when someone drops,
    so the presses in between (choosing cards) start from here."""
    image = _board_background(view, seats).copy()
    _draw_pile(image, view, pile)
    return image


@lru_cache(maxsize=8)
def _board_background(view: BinView, seats: int) -> Image.Image:
    """The board without anything that changes: alley, bin, panels, their labels and the
    rules reminder under the players' rows."""
    image = Image.new("RGB", BOARD_SIZE, BACKDROP)
    _draw_alley(image, view)
    _draw_bin_shell(image, view)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    rounded_box(image, SUPPLY_BOX, 14, PANEL, PANEL_EDGE, 2)
    rounded_box(image, COUNTERS_BOX, 14, PANEL, PANEL_EDGE, 2)
    _draw_text(image, (SUPPLY_BOX[0] + 14, SUPPLY_BOX[1] + 10), "BESIDE THE BIN", 14, TORCH)
    _draw_text(image, (COUNTERS_BOX[0] + 14, COUNTERS_BOX[1] + 10), "COUNTERS", 14, TORCH)
    _draw_reminder(image, seats)
    return image


@lru_cache(maxsize=8)
def _preview_background(view: BinView) -> Image.Image:
    image = Image.new("RGB", PREVIEW_SIZE, BACKDROP)
    _draw_alley(image, view)
    _draw_bin_shell(image, view)
    return image


def _draw_alley(image: Image.Image, view: BinView) -> None:
    """Dim bricks behind the bin and the ground it stands on."""
    draw = ImageDraw.Draw(image)
    rng = random.Random(7)
    right = image.width if image.width < 300 else BIN_ZONE[1]
    brick_w, brick_h = max(12, round(52 * view.scale)), max(6, round(21 * view.scale))
    ground = round(view.floor + view.wall + 6 * view.scale)
    for row, top in enumerate(range(0, ground, brick_h)):
        offset = (row % 2) * brick_w // 2
        for left in range(-offset, right, brick_w):
            tone = shade(WALL_BRICK, 0.9 + 0.2 * rng.random())
            draw.rectangle(
                (left + 1, top + 1, min(left + brick_w - 2, right), top + brick_h - 2), fill=tone
            )
    draw.rectangle((right, 0, right + 2, image.height), fill=STONE_DARK)
    draw.rectangle((0, ground, right, image.height), fill=GROUND)
    draw.line((0, ground, right, ground), fill=shade(GROUND, 1.3), width=1)


def _draw_bin_shell(image: Image.Image, view: BinView) -> None:
    """The bin cut open: ribbed back wall, two walls and a floor of galvanised steel, a
    rolled rim, handles and wheels. The inside spans exactly BIN_WIDTH x BIN_HEIGHT."""
    draw = ImageDraw.Draw(image)
    left, right = round(view.left), round(view.right)
    rim, floor, wall = round(view.rim), round(view.floor), view.wall
    # the back wall, darker towards the sides, with upright ribs
    draw.rectangle((left, rim, right, floor), fill=BIN_INSIDE)
    rib_step = 15 * view.scale
    x = left + rib_step / 2
    while x < right - 2:
        draw.rectangle(
            (round(x) - max(1, wall // 5), rim, round(x) + max(1, wall // 5), floor), fill=BIN_RIB
        )
        x += rib_step
    for i in range(max(2, wall // 2)):
        tone = shade(BIN_INSIDE, 0.6 + 0.4 * i / max(2, wall // 2))
        draw.line((left + i, rim, left + i, floor), fill=tone)
        draw.line((right - i, rim, right - i, floor), fill=tone)
    # walls and floor, lit from the left
    for x0, x1 in ((left - wall, left - 1), (right + 1, right + wall)):
        for i, x in enumerate(range(x0, x1 + 1)):
            t = i / max(1, wall - 1)
            tone = _mix(BIN_METAL_LIGHT, BIN_METAL_DARK, t)
            draw.line((x, rim, x, floor + wall), fill=tone)
        draw.line((x0, rim, x0, floor + wall), fill=PIECE_EDGE)
        draw.line((x1, rim, x1, floor + wall), fill=PIECE_EDGE)
        # horizontal bands pressed into the steel
        for share in (0.25, 0.5, 0.75):
            y = round(floor - (floor - rim) * share)
            draw.line((x0 + 1, y, x1 - 1, y), fill=BIN_METAL_DARK)
            draw.line((x0 + 1, y + 1, x1 - 1, y + 1), fill=BIN_METAL_LIGHT)
    draw.rectangle((left - wall, floor + 1, right + wall, floor + wall), fill=BIN_METAL)
    draw.line((left, floor + 1, right, floor + 1), fill=BIN_METAL_LIGHT)
    draw.rectangle((left - wall, floor + wall, right + wall, floor + wall), fill=PIECE_EDGE)
    # the rolled rim: a lip standing out past each wall
    lip = max(3, wall // 2)
    for x0, x1 in ((left - wall - lip, left + 1), (right - 1, right + wall + lip)):
        rounded_box(image, (x0, rim - lip, x1, rim + lip + 2), lip, BIN_METAL_LIGHT, PIECE_EDGE, 1)
    # handles on the outside, two thirds of the way up
    handle_y = round(floor - (floor - rim) * 0.7)
    for x0, x1 in ((left - wall - lip - 2, left - wall), (right + wall, right + wall + lip + 2)):
        draw.rectangle(
            (x0, handle_y - wall, x1, handle_y + wall), fill=BIN_METAL_DARK, outline=PIECE_EDGE
        )
    # wheels
    for x in (left - wall // 2, right + wall // 2):
        disc(image, (x, floor + wall + wall // 3), wall, (30, 30, 32), PIECE_EDGE, 1)


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _draw_last_drop(image: Image.Image, view: BinView, obs: TossObservation) -> None:
    """A small arrow over the opening where the last piece was let go, and its angle. It
    hangs at the top of the picture, above anything piled over the rim."""
    last = obs["last_drop"]
    if not last or len(last) < 2:
        return
    x = round(view.at(min(max(last[0], 0.0), float(BIN_WIDTH)), 0)[0])
    tip = ARROW_TOP + 26
    draw = ImageDraw.Draw(image)
    draw.line((x, ARROW_TOP, x, tip - 8), fill=PIECE_EDGE, width=7)
    draw.line((x, ARROW_TOP + 1, x, tip - 8), fill=EMBER, width=4)
    draw.polygon([(x - 8, tip - 10), (x + 8, tip - 10), (x, tip)], fill=EMBER, outline=PIECE_EDGE)
    label = f"last drop, {round(last[1]) % 180}°"
    side_right = x < (view.left + view.right) / 2
    anchor = "lm" if side_right else "rm"
    draw_text(
        image,
        (x + (12 if side_right else -12), ARROW_TOP + 10),
        label,
        14,
        TORCH,
        anchor,
        stroke=PIECE_EDGE,
    )


# --- the panel ---------------------------------------------------------------------------


def _title_note(obs: TossObservation) -> str:
    if obs["finished"]:
        return "Final scores"
    wobble = {"steady": "steady hands", "shaky": "shaky hands"}.get(obs["wobble"], "")
    note = f"Round {obs['round']}/{ROUNDS}"
    return f"{note} - {wobble}" if wobble else note


def winners(obs: TossObservation) -> list[int]:
    """The seats with the highest score (ties share the win)."""
    scores = obs["scores"]
    if not scores:
        return []
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def caption(obs: TossObservation, names: list[str]) -> str:
    """One line saying what is happening."""
    if obs["finished"]:
        best = winners(obs)
        points = obs["scores"][best[0]] if best else 0
        unit = "point" if abs(points) == 1 else "points"
        who = _join([player_name(names, seat) for seat in best])
        if len(best) == 1:
            return f"Game over: {who} wins with {points} {unit}!"
        return f"Game over: {who} share the win with {points} {unit}!"
    if obs["phase"] == "choose":
        waiting = [seat for seat in range(obs["seats"]) if not obs["chosen"][seat]]
        if not waiting:
            return "All cards are down."
        return f"Lay down a card face down. Waiting for {_join(names_of(names, waiting))}"
    turn = obs["turn"]
    if turn is None:
        return ""
    count = obs["to_place"]
    pieces = f"{count} more piece{'s' * (count != 1)}"
    bound = obs["kind"]
    if bound and obs["supply"].get(bound, 0) > 0:
        what = look_of(bound).plural
    elif bound:
        what = "any kind left"
    else:
        what = "first piece picks the kind"
    return f"{player_name(names, turn)} drops {pieces} ({what})"


def _draw_caption(image: Image.Image, obs: TossObservation, names: list[str]) -> None:
    left, top, right, bottom = CAPTION_BOX
    text = caption(obs, names)
    colour = TORCH if obs["finished"] else INK
    text_in_box(image, (left + 16, top, right - 16, bottom), text, 21, colour, "left", 13)


def row_box(seat: int) -> Box:
    """Where a player's row sits on the board."""
    top = ROWS_TOP + seat * (ROW_H + ROW_GAP)
    return (PANEL_LEFT, top, PANEL_RIGHT, top + ROW_H)


def chip_box(seat: int) -> Box:
    """The player's card on their row: the revealed number, a back, or an empty slot."""
    left, top, _, bottom = row_box(seat)
    return (left + 42, top + 6, left + 42 + 38, bottom - 6)


def _draw_player(image: Image.Image, obs: TossObservation, names: list[str], seat: int) -> None:
    box = row_box(seat)
    left, top, right, bottom = box
    finished = obs["finished"]
    won = finished and seat in winners(obs)
    acting = not finished and seat in obs["to_act"]
    frame = TORCH if won else HIGHLIGHT if acting else PANEL_EDGE
    rounded_box(image, box, 12, WINNER_BAND if won else PANEL, frame, 3 if won or acting else 2)
    colour = seat_colour(obs, seat)
    # place in the turn order
    order = obs["order"]
    mid = (top + bottom) // 2
    if seat in order:
        place = order.index(seat) + 1
        done = obs["turn"] is not None and order.index(obs["turn"]) > order.index(seat)
        fill = HIGHLIGHT if seat == obs["turn"] and not finished else STONE_DARK
        disc(image, (left + 21, mid), 28, fill, MUTED if done else PANEL_EDGE, 2)
        _text_in_box(
            image,
            (left + 7, mid - 14, left + 35, mid + 14),
            str(place),
            17,
            DARK_INK if fill == HIGHLIGHT else INK,
            bold=True,
        )
    _draw_chip(image, obs, seat, colour)
    # name, mice and what they are doing
    chip_right = chip_box(seat)[2]
    taken = obs["taken"][seat] if seat < len(obs["taken"]) else []
    taken_w = len(taken) * 30
    score_left = right - 62
    name_right = max(chip_right + 120, score_left - taken_w - 10)
    name = player_name(names, seat)
    _text_in_box(image, (chip_right + 12, top + 6, name_right, top + 34), name, 22, INK, "left", 14)
    mice = obs["mice"][seat] if seat < len(obs["mice"]) else 0
    x = chip_right + 12
    mouse = _mouse_sprite(22, shade(MUTED, 1.25))
    for _ in range(mice):
        image.paste(mouse, (x, top + 37), mouse)
        x += 21
    _text_in_box(
        image,
        (x + 6, top + 36, name_right, top + 58),
        _status(obs, seat),
        15,
        HIGHLIGHT if acting else MUTED,
        "left",
        11,
    )
    # counters taken, then the score
    x = score_left - taken_w
    for value in taken:
        _counter_disc(image, (x + 14, mid), 27, value)
        x += 30
    _text_in_box(
        image,
        (score_left, top + 4, right - 10, bottom - 20),
        str(obs["scores"][seat]),
        28,
        TORCH if won else INK,
        "right",
        bold=True,
    )
    _text_in_box(
        image,
        (score_left, bottom - 22, right - 10, bottom - 4),
        "WINNER" if won else "points",
        12,
        TORCH if won else MUTED,
        "right",
    )


REMINDER = (
    "Lowest card drops first; on equal cards, fewer mice first.",
    "Drop as many pieces as your card, one kind until it runs out.",
    "Anything falls out: take the top counter, minus side up.",
    "Drop the very last piece: take it plus side up.",
)


def _draw_reminder(image: Image.Image, seats: int) -> None:
    """The rules in four lines, where fewer players leave room under their rows."""
    top = row_box(seats - 1)[3] + 10 if seats else ROWS_TOP
    bottom = SUPPLY_BOX[1] - 10
    if bottom - top < 22 * len(REMINDER) + 8:
        return
    top = bottom - 22 * len(REMINDER) - 8
    for index, line in enumerate(REMINDER):
        y = top + 4 + index * 22
        _text_in_box(image, (PANEL_LEFT + 16, y, PANEL_RIGHT - 8, y + 22), line, 15, MUTED, "left")


def _status(obs: TossObservation, seat: int) -> str:
    if obs["finished"]:
        return ""
    if obs["phase"] == "choose":
        return "chosen" if obs["chosen"][seat] else "choosing..."
    if seat == obs["turn"]:
        count = obs["to_place"]
        return f"dropping, {count} more"
    order = obs["order"]
    if seat in order and obs["turn"] in order:
        return "done" if order.index(seat) < order.index(obs["turn"]) else "waiting"
    return ""


def _draw_chip(image: Image.Image, obs: TossObservation, seat: int, colour: Colour) -> None:
    """The card a player laid down: face up once revealed, a back with a tick once chosen,
    an empty dashed slot while they are still choosing. Never a hidden number."""
    left, top, right, bottom = chip_box(seat)
    size = (right - left, bottom - top)
    revealed = obs["revealed"][seat] if seat < len(obs["revealed"]) else None
    if revealed is not None:
        sprite = _chip_sprite(revealed, colour, size)
        image.paste(sprite, (left, top), sprite)
    elif obs["chosen"][seat] and not obs["finished"]:
        back = card_back_image(*size)
        image.paste(back, (left, top), back)
        _tick(image, ((left + right) / 2, (top + bottom) / 2), 12, PLUS)
    else:
        draw = ImageDraw.Draw(image)
        for y in range(top, bottom, 6):
            draw.line((left, y, left, min(y + 3, bottom)), fill=MUTED)
            draw.line((right - 1, y, right - 1, min(y + 3, bottom)), fill=MUTED)
        for x in range(left, right, 6):
            draw.line((x, top, min(x + 3, right), top), fill=MUTED)
            draw.line((x, bottom - 1, min(x + 3, right), bottom - 1), fill=MUTED)
        # the seat's colour as a stripe, so the row still says which cards are theirs
        draw.rectangle((left + 5, bottom - 10, right - 6, bottom - 6), fill=colour)


@lru_cache(maxsize=128)
def _chip_sprite(value: int, colour: Colour, size: Size) -> Image.Image:
    """A small face-up card: the seat's colour with the number."""
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    rounded_box(sprite, (0, 0, *size), 5, colour, CARD_EDGE, 2)
    ink = DARK_INK if sum(colour) > 420 else INK
    text_in_box(sprite, (0, 0, *size), str(value), 24, ink, bold=True)
    return sprite


def _tick(image: Image.Image, centre: tuple[float, float], size: int, colour: Colour) -> None:
    """A check mark (the font has none)."""
    x, y = centre
    points = [
        (x - size * 0.5, y),
        (x - size * 0.1, y + size * 0.4),
        (x + size * 0.55, y - size * 0.45),
    ]
    draw = ImageDraw.Draw(image)
    draw.line(points, fill=PIECE_EDGE, width=6, joint="curve")
    draw.line(points, fill=colour, width=3, joint="curve")


def _counter_disc(image: Image.Image, centre: tuple[int, int], diameter: int, value: int) -> None:
    """A taken counter: red minus side or green plus side up, with its signed number."""
    fill = PLUS if value > 0 else MINUS
    disc(image, centre, diameter, fill, PIECE_EDGE, 2)
    text = f"+{value}" if value > 0 else f"-{abs(value)}"
    x, y = centre
    half = diameter // 2
    _text_in_box(image, (x - half, y - half, x + half, y + half), text, 14, INK, bold=True)


def _draw_supply(image: Image.Image, obs: TossObservation) -> None:
    """Each kind's pieces left beside the bin: the piece, true to scale, and "x7"."""
    left, top, right, bottom = SUPPLY_BOX
    keys = list(KINDS)
    column = (right - left - 16) // max(1, len(keys))
    scale = _icon_scale()
    bound = obs["kind"] if obs["phase"] == "place" and not obs["finished"] else None
    for index, key in enumerate(keys):
        x0 = left + 8 + index * column
        cx = x0 + column // 2
        count = obs["supply"].get(key, 0)
        if key == bound:
            rounded_box(
                image, (x0 + 2, top + 30, x0 + column - 2, bottom - 8), 10, STONE_DARK, HIGHLIGHT, 2
            )
        sprite = _piece_sprite(key, KINDS[key], scale, 0, "solid" if count else "faded")
        image.paste(sprite, (cx - sprite.width // 2, top + 104 - sprite.height), sprite)
        _text_in_box(
            image,
            (x0, top + 108, x0 + column, top + 136),
            f"x{count}",
            22,
            INK if count else MUTED,
            bold=True,
        )
        label = KINDS[key].name
        _text_in_box(
            image, (x0 + 2, top + 138, x0 + column - 2, top + 158), label, 13, MUTED, min_size=10
        )
    _text_in_box(
        image,
        (left + 140, top + 2, right - 12, top + 32),
        f"{sum(obs['supply'].values())} left",
        14,
        MUTED,
        "right",
    )


@lru_cache(maxsize=1)
def _icon_scale() -> float:
    """One scale for every supply icon (true relative sizes), so the tallest fits 68 px."""
    tallest = max(
        2 * kind.radius if kind.shape == "round" else max(kind.height, kind.width)
        for kind in KINDS.values()
    )
    return round(68 / max(tallest, 1.0), 3)


def _draw_counters(image: Image.Image, obs: TossObservation) -> None:
    """The stack of counters: how many are left, the top one big, the rest beneath it."""
    left, top, right, bottom = COUNTERS_BOX
    counters = obs["counters"]
    note = f"{len(counters)} left" if counters else "none left"
    _text_in_box(image, (left + 100, top + 2, right - 12, top + 32), note, 14, MUTED, "right")
    if not counters:
        _text_in_box(image, (left, top + 40, right, bottom - 10), "All taken", 20, MUTED)
        return
    cx = left + 58
    cy = top + 88
    # the stack seen from the side: one slim layer per counter under the top one
    draw = ImageDraw.Draw(image)
    layer = 6
    for index in range(len(counters) - 1, 0, -1):
        y = cy + 12 + index * layer
        draw.ellipse(
            (cx - 36, y - 14, cx + 36, y + 14), fill=shade(COUNTER, 0.6), outline=PIECE_EDGE
        )
    disc(image, (cx, cy), 74, COUNTER, PIECE_EDGE, 3)
    _text_in_box(
        image, (cx - 37, cy - 37, cx + 37, cy + 37), str(counters[0]), 38, DARK_INK, bold=True
    )
    _draw_text(image, (cx, cy + 44 + len(counters) * layer), "on top", 13, MUTED, "mm")
    # the ones underneath, in order
    x = left + 116
    _draw_text(image, (x, top + 44), "then", 13, MUTED, "la")
    for index, value in enumerate(counters[1:]):
        row, col = divmod(index, 3)
        centre = (x + 15 + col * 30, top + 80 + row * 32)
        disc(image, centre, 27, shade(COUNTER, 0.85), PIECE_EDGE, 2)
        _text_in_box(
            image,
            (centre[0] - 13, centre[1] - 13, centre[0] + 13, centre[1] + 13),
            str(value),
            15,
            DARK_INK,
            bold=True,
        )


# --- cards -------------------------------------------------------------------------------


@lru_cache(maxsize=128)
def _card_sprite(value: int, word: str, colour: Colour, mice: int, size: Size) -> Image.Image:
    """A hand card: the colour's header, the number big, a mouse for each mouse on it."""
    face = CardFace(word.upper() or "CARD", colour, str(value), body=shade(colour, 1.72))
    sprite = card_image(face, *size).copy()
    mouse = _mouse_sprite(24, shade(colour, 0.45))
    total = mice * 22
    x = (size[0] - total) // 2
    y = round(size[1] * 0.74)
    for _ in range(mice):
        sprite.alpha_composite(mouse, (x, y))
        x += 22
    return sprite


@lru_cache(maxsize=32)
def _mouse_sprite(width: int, colour: Colour) -> Image.Image:
    """A little mouse facing right (RGBA, `width` wide, two thirds as tall)."""
    k = SUPERSAMPLE
    w, h = width * k, round(width * 0.7) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    fill = _rgba(colour)
    draw.line(
        [(w * 0.02, h * 0.55), (w * 0.1, h * 0.85), (w * 0.25, h * 0.8)],
        fill=fill,
        width=k * 2,
        joint="curve",
    )
    draw.ellipse((w * 0.18, h * 0.35, w * 0.78, h * 0.95), fill=fill)  # body
    draw.polygon([(w * 0.6, h * 0.4), (w * 0.98, h * 0.75), (w * 0.62, h * 0.92)], fill=fill)
    draw.ellipse((w * 0.52, h * 0.12, w * 0.74, h * 0.5), fill=fill)  # ear
    draw.ellipse((w * 0.57, h * 0.2, w * 0.69, h * 0.42), fill=_rgba((226, 150, 160)))
    draw.ellipse((w * 0.8, h * 0.55, w * 0.86, h * 0.63), fill=_rgba(PIECE_EDGE))  # eye
    return sprite.reduce(k)


# --- small helpers ----------------------------------------------------------------------


def seat_colour(obs: TossObservation, seat: int) -> Colour:
    """The RGB of a seat's card colour word ("red" -> the shared red)."""
    words = obs["colours"]
    word = words[seat] if 0 <= seat < len(words) else ""
    return SEAT_COLOURS.get(word, UNKNOWN_SEAT_COLOUR)


def player_name(names: list[str], seat: int) -> str:
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def names_of(names: list[str], seats: list[int]) -> list[str]:
    return [player_name(names, seat) for seat in seats]


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]

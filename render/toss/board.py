"""Toss It in the Trash's bin pictures: `draw_bin` (the channel's board: the alley, the bin cut
open with every resting piece, the last drop and the panel from `panel.py`) and `draw_preview`
(a ghost of the piece held over the opening, where it would be let go), with the geometry they
share and their cached backgrounds.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.common import (
    BACKDROP,
    EMBER,
    INK,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Colour,
    bricks,
    disc,
    draw_text,
    rounded_box,
    shade,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.common.caption import captioned
from render.common.record import note
from render.toss.layout import (
    ARROW_TOP,
    BIN_INSIDE,
    BIN_METAL,
    BIN_METAL_DARK,
    BIN_METAL_LIGHT,
    BIN_RIB,
    BIN_ZONE,
    CAPTION_BOX,
    COUNTERS_BOX,
    GROUND,
    MAP_SIZE,
    PIECE_EDGE,
    PREVIEW_RULER_BASE,
    PREVIEW_RULER_SIZE,
    PREVIEW_SIZE,
    RULER_SIZE,
    SMALL_TEXT,
    SUPPLY_BOX,
    TITLE_HEIGHT,
    WALL_BRICK,
    BinView,
    board_view,
    ghost_pose,
    half_box,
    pile_top,
    preview_view,
)
from render.toss.panel import (
    draw_caption,
    draw_counters,
    draw_player,
    draw_reminder,
    draw_supply,
    title_note,
)
from render.toss.pieces import (
    PileKey,
    draw_pieces,
    draw_pile,
    paste_centred,
    piece_sprite,
    pile_key,
)
from render.toss.ruler import draw_ruler
from rules.phrases import language_of, phrase
from rules.toss.bin import BIN_WIDTH, KINDS
from rules.toss.observation import BinPiece, TossObservation
from rules.toss.words import LABEL, piece_label

# --- public -----------------------------------------------------------------------------


def draw_bin(obs: TossObservation, names: list[str], since: int | None = None) -> bytes:
    """The channel's picture as PNG bytes. `names[seat]` is each player's display name. A
    drop after step `since` (by default: the last action) is shown: the piece outlined or,
    if garbage fell out, the bin as the spill left it, before it was emptied and refilled.

    It never reads `obs["hand"]` or `obs["my_choice"]`: the same picture for every viewer.
    """
    return to_png(bin_image(obs, names, since))


def bin_image(obs: TossObservation, names: list[str], since: int | None = None) -> Image.Image:
    """The channel's picture as an image (for tests and previews), the last move's caption
    under it."""
    since = obs["step"] - 1 if since is None else since
    spilled = obs.get("spilled_at", -1) > since and bool(obs.get("spill"))
    pieces = obs["spill"] if spilled else obs["bin"]
    view = board_view(pieces)
    # The ruler stands just over the rim's lip, or over the pile where it is higher.
    pile = view.at(0, pile_top(pieces, -math.inf, math.inf))[1]
    top = min(view.rim - max(3, view.wall // 2), pile)
    language = language_of(names)
    image = _board_with_pile(view, obs["seats"], pile_key(pieces), language).copy()
    draw_ruler(image, view, round(top) - 4, RULER_SIZE)  # not cached: tests note what it drew
    if spilled:
        note("spill", (0, 0, view.size[0], view.size[1]), f"{len(pieces)} pieces")
    elif obs.get("dropped_at", -1) > since and pieces:
        _outline_dropped(image, view, pieces[-1])
    _draw_last_drop(image, view, obs, language)
    title_bar(image, "Toss It in the Trash", title_note(obs, language), TITLE_HEIGHT)
    draw_caption(image, obs, names)
    for seat in range(obs["seats"]):
        draw_player(image, obs, names, seat)
    draw_supply(image, obs, language)
    draw_counters(image, obs, language)
    # no seat disc: a Toss It player's colour is the colour they drew, not their seat's
    return captioned(image, obs.get("last_move"), names, seat_disc=False)


def draw_preview(
    obs: TossObservation, kind: str, position: int, angle_deg: int, language: str = ENGLISH
) -> bytes:
    """A small picture (PNG bytes) of the bin with a ghost of a `kind` piece held over grid
    spot `position`, turned `angle_deg` degrees counter-clockwise, and where it is let go;
    its label in `language` (the aiming player's)."""
    return to_png(preview_image(obs, kind, position, angle_deg, language))


def preview_image(
    obs: TossObservation, kind: str, position: int, angle_deg: int, language: str = ENGLISH
) -> Image.Image:
    """The preview as an image (for tests)."""
    shape = KINDS.get(kind)
    pose = ghost_pose(obs["bin"], kind, position, angle_deg) if shape else None
    ghost_top = 0.0
    if shape is not None and pose is not None:
        ghost_top = pose[1] + half_box(shape, math.radians(angle_deg))[1]
    view = preview_view(obs["bin"], ghost_top)
    image = _preview_background(view).copy()
    draw_pieces(image, view, obs["bin"])
    draw_ruler(image, view, PREVIEW_RULER_BASE, PREVIEW_RULER_SIZE, position)
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
            outline = piece_sprite(kind, shape, view.scale, angle_deg, "outline")
            paste_centred(image, outline, view.at(x, release))
        for style in ("ghost", "outline"):  # see-through, framed in torch light
            sprite = piece_sprite(kind, shape, view.scale, angle_deg, style)
            paste_centred(image, sprite, view.at(x, lift))
        centre = view.at(x, lift)
        half_w, half_h_px = sprite.width / 2, sprite.height / 2
        box = (round(centre[0] - half_w), round(centre[1] - half_h_px),
               round(centre[0] + half_w), round(centre[1] + half_h_px))  # fmt: skip
        note("held", box, f"{kind} spot {position} turned {angle_deg}")
        release_y = round(view.at(x, release)[1])  # where it is let go, over the pile
        note("release", (line_x, release_y, line_x, release_y), f"{kind} turned {angle_deg}")
    # the label last, over anything piled high
    ImageDraw.Draw(image).rectangle((0, 0, view.size[0], 27), fill=(22, 19, 18))
    piece = piece_label(kind) if kind in LABEL else kind
    held = phrase("{piece} - spot {spot}, {angle}°", piece=piece, spot=position, angle=angle_deg)
    label = say(held, language)
    _text_in_box(image, (6, 2, view.size[0] - 6, 26), label, 16, INK, min_size=11)
    return image


# --- the bin -----------------------------------------------------------------------------


@lru_cache(maxsize=8)  # a board is ~2.6 MB in memory: with the one below, at most ~42 MB
def _board_with_pile(view: BinView, seats: int, pile: PileKey, language: str) -> Image.Image:
    """The background with the pieces in the bin: the pile changes only when someone drops,
    so the presses in between (choosing cards) start from here."""
    image = _board_background(view, seats, language).copy()
    draw_pile(image, view, pile)
    return image


@lru_cache(maxsize=8)
def _board_background(view: BinView, seats: int, language: str) -> Image.Image:
    """The board without anything that changes: alley, bin, panels, their labels and the
    rules reminder under the players' rows."""
    image = Image.new("RGB", MAP_SIZE, BACKDROP)
    _draw_alley(image, view)
    _draw_bin_shell(image, view)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    rounded_box(image, SUPPLY_BOX, 14, PANEL, PANEL_EDGE, 2)
    rounded_box(image, COUNTERS_BOX, 14, PANEL, PANEL_EDGE, 2)
    beside, counters = say(phrase("BESIDE THE BIN"), language), say(phrase("COUNTERS"), language)
    _draw_text(image, (SUPPLY_BOX[0] + 14, SUPPLY_BOX[1] + 10), beside, SMALL_TEXT, TORCH)
    _draw_text(image, (COUNTERS_BOX[0] + 14, COUNTERS_BOX[1] + 10), counters, SMALL_TEXT, TORCH)
    draw_reminder(image, seats, language)
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
    for _, left, top in bricks(right, ground, brick_w, brick_h):
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


def _outline_dropped(image: Image.Image, view: BinView, piece: BinPiece) -> None:
    """The piece just dropped, framed in torch light where it came to rest: its outline a
    size larger behind it, the piece itself drawn again on top."""
    shape = KINDS.get(piece["kind"])
    if shape is None:
        return
    degrees = round(math.degrees(piece["angle"])) % 360
    sprite = piece_sprite(piece["kind"], shape, view.scale * 1.3, degrees, "outline")
    centre = view.at(piece["x"], piece["y"])
    paste_centred(image, sprite, centre)
    paste_centred(image, piece_sprite(piece["kind"], shape, view.scale, degrees, "solid"), centre)
    half_w, half_h = sprite.width / 2, sprite.height / 2
    box = (round(centre[0] - half_w), round(centre[1] - half_h),
           round(centre[0] + half_w), round(centre[1] + half_h))  # fmt: skip
    note("dropped", box, piece["kind"])


def _draw_last_drop(image: Image.Image, view: BinView, obs: TossObservation, language: str) -> None:
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
    label = say(phrase("last drop, {angle}°", angle=round(last[1]) % 180), language)
    side_right = x < (view.left + view.right) / 2
    anchor = "lm" if side_right else "rm"
    draw_text(
        image,
        (x + (12 if side_right else -12), ARROW_TOP + 10),
        label,
        SMALL_TEXT,
        TORCH,
        anchor,
        stroke=PIECE_EDGE,
    )

"""Trash War's public picture, `draw_battlefield`: the cached background, the caption, one
fortress per knight (`fortress.py`), the trash in flight and the piles with the torch phase.
"""

from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BACKDROP,
    CARD_EDGE,
    EMBER,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Box,
    bricks,
    card_back_image,
    disc,
    flame_mark,
    ink_for,
    rounded_box,
    shade,
    text_width,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.common.caption import caption_below, with_caption_room
from render.common.words import player_colour, player_name
from render.trashwar.cards import card_sprite
from render.trashwar.fortress import crown, draw_fortress
from render.trashwar.layout import (
    CAPTION_BOX,
    FLIGHT_NOW,
    GROUND,
    MINI_CARD,
    PILE_COLUMNS,
    SMALL_TEXT,
    TITLE_HEIGHT,
    flight_box,
    fortress_box,
    header_box,
    map_size,
    piles_box,
    slot_box,
    strip_box,
    wall_box,
)
from render.trashwar.words import (
    actor_seat,
    caption,
    in_language,
    said,
    title_note,
    wall_label,
    wall_named,
)
from rules.phrases import language_of, phrase, phrase_in
from rules.trashwar.observation import FlightView, TrashWarObservation
from rules.trashwar.words import WALL_NAMES

# --- public -----------------------------------------------------------------------------


def draw_battlefield(obs: TrashWarObservation, names: list[str], since: int | None = None) -> bytes:
    """The public picture as PNG bytes. `names[seat]` is each player's display name; walls
    where something happened after step `since` (the board before; by default the last
    action) are marked.

    It never reads `obs["hand"]`: the same picture for every viewer.
    """
    return to_png(battlefield_image(obs, names, since))


def battlefield_image(
    obs: TrashWarObservation, names: list[str], since: int | None = None
) -> Image.Image:
    """The public picture as an image (for tests and previews), the last move's caption
    under it."""
    seats = obs["seats"]
    image = _background(seats, language_of(names)).copy()
    title_bar(image, "Trash War", said(title_note(obs), names), TITLE_HEIGHT)
    _draw_caption(image, obs, names)
    for player in obs["players"]:
        draw_fortress(image, obs, names, player, since)
    _draw_flight(image, obs, names)
    _draw_piles(image, obs, language_of(names))
    return caption_below(image, obs.get("last_move"), names)


# --- the cached background --------------------------------------------------------------


@lru_cache(maxsize=16)
def _background(seats: int, language: str) -> Image.Image:
    """Everything that depends on the player count (and the readers' language) alone, with
    the caption strip's room below it."""
    width, height = map_size(seats)
    image = Image.new("RGB", (width, height), BACKDROP)
    _draw_bricks(image)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    for seat in range(seats):
        rounded_box(image, fortress_box(seats, seat), 16, PANEL, PANEL_EDGE, 3)
        rounded_box(image, header_box(seats, seat), 11, STONE_DARK)
        draw = ImageDraw.Draw(image)
        slot_w = slot_box(seats, seat, 0)[2] - slot_box(seats, seat, 0)[0]
        # the walls' names beside their gauges, where the longest fits (else: plain to see)
        positions = [in_language(wall_label(p), language).upper() for p in WALL_NAMES]
        named = max(text_width(f"{p} 0/4", SMALL_TEXT) for p in positions) + 8 <= slot_w
        for index, position in enumerate(positions):
            left, top, right, bottom = slot_box(seats, seat, index)
            ground = wall_box(seats, seat, index)[3]
            draw.rectangle((left - 6, ground, right + 5, ground + 3), fill=GROUND)
            if named:
                _draw_text(image, (left, ground + 17), position, SMALL_TEXT, MUTED, "lm")
    rounded_box(image, strip_box(seats), 16, PANEL, PANEL_EDGE, 3)
    left, top, right, bottom = piles_box(seats)
    ImageDraw.Draw(image).line(
        (left - 10, top + 4, left - 10, bottom - 4), fill=PANEL_EDGE, width=2
    )
    fl, ft = flight_box(seats)[:2]
    _draw_text(image, (fl, ft), in_language(phrase("IN FLIGHT"), language), SMALL_TEXT, TORCH, "la")
    labels = {  # short words: a column is 92 px
        "draw": phrase_in("pile", "draw"),
        "recycle": phrase_in("pile", "recycle"),
        "torched": phrase_in("pile", "torched"),
        "out": phrase_in("pile", "out"),
        "phase": phrase_in("pile", "torching"),
    }
    for key, label in labels.items():
        x = left + PILE_COLUMNS[key]
        _draw_text(image, (x, top), in_language(label, language), SMALL_TEXT, TORCH, "la")
    return with_caption_room(image)


def _draw_bricks(image: Image.Image) -> None:
    """The rock around everything: dark bricks in offset rows."""
    draw = ImageDraw.Draw(image)
    rng = random.Random(11)
    brick_w, brick_h = 56, 22
    for _, left, top in bricks(image.width, image.height, brick_w, brick_h):
        tint = rng.randint(-5, 5)
        colour = (BACKDROP[0] + 7 + tint, BACKDROP[1] + 5 + tint, BACKDROP[2] + 4 + tint)
        draw.rectangle((left + 1, top + 1, left + brick_w - 2, top + brick_h - 2), colour)


# --- caption ----------------------------------------------------------------------------


def _draw_caption(image: Image.Image, obs: TrashWarObservation, names: list[str]) -> None:
    left, top, right, bottom = CAPTION_BOX
    middle = (top + bottom) // 2
    seat = actor_seat(obs)
    x = left + 14
    if seat is not None:
        disc(image, (x + 13, middle), 30, player_colour(seat), CARD_EDGE)
        number_ink = ink_for(player_colour(seat))
        _draw_text(image, (x + 13, middle), str(seat + 1), SMALL_TEXT, number_ink, "mm")
        x += 36
    if obs["finished"]:
        crown(image, (x, middle - 9), 24)
        x += 32
    colour = TORCH if obs["finished"] else INK
    _text_in_box(
        image, (x, top + 2, right - 14, bottom - 2), caption(obs, names), 23, colour, "left",
        SMALL_TEXT, bold=True,
    )  # fmt: skip


# --- flight and piles -------------------------------------------------------------------


def _draw_flight(image: Image.Image, obs: TrashWarObservation, names: list[str]) -> None:
    left, top, right, bottom = flight_box(obs["seats"])
    items = [(f, "now" if i == 0 else "next") for i, f in enumerate(obs["incoming"])]
    items += [(f, "held") for f in obs["held"]]
    area = (left, top + 32, right, bottom)  # under "IN FLIGHT", clear of its frame (issue 38)
    if not items:
        nothing = said(phrase("Nothing in the air."), names)
        _text_in_box(image, area, nothing, SMALL_TEXT, MUTED, "left")
        return
    if obs["held"]:
        note = said(phrase("batted trash waits"), names)
        _text_in_box(image, (left + 130, top, right, top + 24), note, SMALL_TEXT, MUTED, "right")
    wide = len(items) <= 3
    step = (right - left) // len(items)
    for index, (flight, kind) in enumerate(items):
        x = left + index * step
        _flight_item(image, (x, area[1], x + step - 8, area[3]), flight, kind, names, wide)


def _flight_item(
    image: Image.Image, box: Box, flight: FlightView, kind: str, names: list[str], wide: bool
) -> None:
    left, top, right, bottom = box
    if kind == "now":
        rounded_box(image, (left - 4, top - 3, right + 2, bottom + 1), 10, shade(EMBER, 0.35),
                    FLIGHT_NOW, 2)  # fmt: skip
    target, sender = player_name(names, flight["target"]), player_name(names, flight["sender"])
    tags = {"now": phrase("BEING MET"), "next": phrase("NEXT"), "held": phrase("BATTED")}
    tag = said(tags[kind], names)
    tag_colour = FLIGHT_NOW if kind == "now" else TORCH if kind == "held" else MUTED
    if wide:
        card = card_sprite(flight["card"], MINI_CARD, SMALL_TEXT, language_of(names))
        image.paste(card, (left + 2, top + 2), card)
        x = left + MINI_CARD[0] + 10
        lines = [  # (words, colour, bold): what it is, whose wall, which, who threw it
            (tag, tag_colour, True),
            (said(phrase("at {player}", player=target), names), INK, True),
            (said(wall_named(flight["wall"]), names), INK, False),
            (said(phrase("from {player}", player=sender), names), MUTED, False),
        ]
        for index, (words, colour, bold) in enumerate(lines):
            y = top - 2 + index * 24
            _text_in_box(image, (x, y, right - 2, y + 24), words, SMALL_TEXT, colour, "left",
                         bold=bold)  # fmt: skip
        disc(image, (x - 4, top + 34), 10, player_colour(flight["target"]), CARD_EDGE, 1)
        return
    size = (48, 67)
    card = card_sprite(flight["card"], size, SMALL_TEXT, language_of(names))
    cx = (left + right) // 2
    image.paste(card, (cx - size[0] // 2, top), card)
    _text_in_box(image, (left, top + 66, right, top + 90), target, SMALL_TEXT, INK, bold=True)
    # the wall, in the colour of what happens to the piece (met now, next, batted)
    wall = said(wall_label(flight["wall"]), names)
    _text_in_box(image, (left, top + 89, right, top + 113), wall, SMALL_TEXT,
                 tag_colour if kind != "next" else MUTED)  # fmt: skip


def _draw_piles(image: Image.Image, obs: TrashWarObservation, language: str) -> None:
    left, top, _, bottom = piles_box(obs["seats"])
    card_top = top + 28
    count_top = card_top + MINI_CARD[1] + 2
    # draw pile: a stack of backs
    x = left + PILE_COLUMNS["draw"]
    if obs["draw_size"]:
        layers = min(3, obs["draw_size"])
        for layer in range(layers - 1, -1, -1):
            back = card_back_image(*MINI_CARD)
            image.paste(back, (x + layer * 3, card_top - layer * 2 + 4), back)
    else:
        _empty_pile(image, x, card_top)
    _pile_count(image, x, count_top, obs["draw_size"])
    for key, top_card, size in (
        ("recycle", obs["recycle_top"], obs["recycle_size"]),
        ("torched", obs["torched_top"], obs["torched_size"]),
    ):
        x = left + PILE_COLUMNS[key]
        if top_card is None:
            _empty_pile(image, x, card_top)
        else:
            if size > 1:
                under = card_back_image(*MINI_CARD)
                image.paste(under, (x + 4, card_top + 3), under)
            card = card_sprite(top_card, MINI_CARD, SMALL_TEXT, language)
            image.paste(card, (x, card_top), card)
            if key == "torched":
                mark = flame_mark(24)
                image.paste(mark, (x + MINI_CARD[0] - 8, card_top + MINI_CARD[1] - 20), mark)
        _pile_count(image, x, count_top, size)
    x = left + PILE_COLUMNS["out"]
    out_box = (x, card_top, x + 64, card_top + MINI_CARD[1])  # cards gone from the game
    rounded_box(image, out_box, 10, shade(BACKDROP, 0.8), PANEL_EDGE, 2)
    _text_in_box(image, out_box, str(obs["out_size"]), 30, INK if obs["out_size"] else MUTED,
                bold=True)  # fmt: skip
    _draw_torch_phase(image, obs["torch_phase"], left + PILE_COLUMNS["phase"], card_top, bottom)


def _empty_pile(image: Image.Image, x: int, top: int) -> None:
    box = (x, top, x + MINI_CARD[0], top + MINI_CARD[1])
    rounded_box(image, box, 6, PANEL_EDGE)
    rounded_box(image, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), 5, PANEL)  # its 0 says


def _pile_count(image: Image.Image, x: int, top: int, count: int) -> None:
    _text_in_box(image, (x - 4, top, x + MINI_CARD[0] + 8, top + 26), str(count), SMALL_TEXT,
                INK if count else MUTED, bold=True)  # fmt: skip


def _draw_torch_phase(image: Image.Image, phase: int, left: int, top: int, bottom: int) -> None:
    """Three torches for phases 1, 2 and 3+, the current one lit (what each phase torches:
    the rules and the title bar's phase say it; no room for it here at a legible size)."""
    current = min(max(phase, 1), 3)
    for index, label in enumerate(("1", "2", "3+")):
        cx = left + 20 + index * 42
        lit = index + 1 == current
        box = (cx - 20, top, cx + 20, top + 76)
        if lit:
            rounded_box(image, box, 10, shade(EMBER, 0.4), TORCH, 2)
        mark = _torch(lit)
        image.paste(mark, (cx - mark.width // 2, top + 6), mark)
        _draw_text(image, (cx, top + 60), label, SMALL_TEXT, TORCH if lit else MUTED, "mm",
                   bold=lit)  # fmt: skip


@lru_cache(maxsize=2)
def _torch(lit: bool) -> Image.Image:
    """A torch on its stick: lit in flame colours, or cold grey."""
    sprite = Image.new("RGBA", (30, 40), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    stick = (120, 84, 48) if lit else (80, 74, 68)
    draw.polygon([(12, 22), (18, 22), (17, 39), (13, 39)], fill=(*stick, 255))
    draw.rectangle((10, 20, 20, 24), fill=(*shade(stick, 0.6), 255))
    flame = flame_mark(24) if lit else flame_mark(24, (90, 84, 78), (120, 112, 104))
    sprite.alpha_composite(flame, (3, 0))
    return sprite

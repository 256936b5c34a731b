"""One Trash War fortress on the battlefield: the name band, the card backs of the hand, the
three wall slots with their damage, cracks, rubble and the trash stuck on them, and the marks
of incoming trash.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from render.common import (
    CARD_EDGE,
    DARK_INK,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL_EDGE,
    TORCH,
    Box,
    Colour,
    card_back_image,
    disc,
    ink_for,
    rounded_box,
    shade,
    text_width,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.common.record import note
from render.common.words import player_colour, player_name
from render.trashwar.layout import (
    BACK_SIZE,
    BACK_STEP,
    BRICK,
    BRICK_HOT,
    DANGER,
    FLIGHT_NOW,
    GAUGE_EMPTY,
    HEADER_H,
    HEAT,
    KIND_STYLES,
    MARK_COLOURS,
    MAX_BACKS,
    MORTAR,
    OUT_STAMP,
    RUBBLE,
    SMALL_TEXT,
    WALL_EDGE,
    WINNER_BAND,
    fortress_box,
    hand_backs_box,
    header_box,
    slot_box,
    wall_box,
)
from render.trashwar.words import (
    in_language,
    out_stamp,
    said,
    short_trash,
    status_line,
)
from rules.phrases import Filling, language_of, listing, phrase, phrase_in, phrase_n
from rules.trashwar.cards import BY_CODE
from rules.trashwar.observation import CardView, MarkView, PlayerView, TrashWarObservation


def crown(image: Image.Image, at: tuple[int, int], width: int = 18) -> None:
    x, y = at
    u = width / 18
    points = [(0, 14), (0, 2), (5, 8), (9, 0), (13, 8), (18, 2), (18, 14)]
    ImageDraw.Draw(image).polygon(
        [(x + px * u, y + py * u) for px, py in points], fill=TORCH, outline=shade(TORCH, 0.5)
    )


# --- fortresses -------------------------------------------------------------------------


def draw_fortress(
    image: Image.Image,
    obs: TrashWarObservation,
    names: list[str],
    player: PlayerView,
    since: int | None = None,
) -> None:
    """One knight's fortress; walls where something happened after step `since` (by
    default: in the last action) are marked with what did it."""
    seats, seat = obs["seats"], player["seat"]
    if not 0 <= seat < seats:
        return
    box = fortress_box(seats, seat)
    active = seat in obs["to_act"] and not obs["finished"] and player["in_game"]
    winner = seat in obs["winners"]
    band = header_box(seats, seat)
    if active:
        rounded_box(image, band, 11, HIGHLIGHT)
        _frame(image, box, HIGHLIGHT)
    if winner:
        rounded_box(image, band, 11, WINNER_BAND)
        _frame(image, box, TORCH)
    ink = ink_for(HIGHLIGHT) if active else INK
    left, top, right, bottom = band
    colour = player_colour(seat)
    disc(image, (left + 22, top + HEADER_H // 2), 32, colour, CARD_EDGE)
    _draw_text(image, (left + 22, top + HEADER_H // 2), str(seat + 1), SMALL_TEXT, ink_for(colour),
               "mm")  # fmt: skip
    if player["in_game"] or player["hand_size"]:
        backs, words = _draw_backs(
            image, seats, seat, player["hand_size"], ink if active else MUTED, language_of(names)
        )
    else:  # out, empty-handed: nothing to count
        backs = words = right - 10
    name_right = backs - 10 - (26 if winner else 0)
    name_w = _text_in_box(
        image, (left + 44, top + 2, name_right, top + 29), player_name(names, seat), 22, ink,
        "left", SMALL_TEXT, bold=True,
    )  # fmt: skip
    if winner:
        crown(image, (left + 52 + name_w, top + 6))
    status_words, status_colour = status_line(obs, player)
    status = said(status_words, names)
    line = (left + 44, top + 30, words - 8, bottom - 2)
    if player["under_attack"] and player["in_game"]:
        label = said(phrase("ATTACKED {damage}", damage=player["under_attack"]), names)
        pill_w = round(text_width(label, SMALL_TEXT)) + 14
        pill = (words - 8 - pill_w, top + 31, words - 8, bottom - 3)
        rounded_box(image, pill, 8, DANGER)
        _text_in_box(image, pill, label, SMALL_TEXT, INK, bold=True)
        line = (line[0], line[1], pill[0] - 6, line[3])
    fits = text_width(status, SMALL_TEXT) <= line[2] - line[0]
    if status and (fits or not player["under_attack"]):  # else ATTACKED says enough
        _text_in_box(image, line, status, SMALL_TEXT, status_colour or ink, "left")
    newest = _newest_marks(obs, seat, obs["step"] - 1 if since is None else since)
    for index, wall in enumerate(player["walls"][:3]):
        tagged = ("left", "middle", "right")[index] in newest  # its tag says what befell it
        _draw_wall_slot(image, seats, seat, index, wall["standing"], wall["damage"],
                        player["in_game"] and not tagged, language_of(names))  # fmt: skip
        _draw_trash_on_wall(image, wall_box(seats, seat, index), wall["trash"], names)
    _draw_incoming_marks(image, obs, seats, seat, names)
    _draw_last_move(image, seats, seat, newest, names)
    if not player["in_game"]:
        _grey_out(image, box, said(out_stamp(obs, seat), names).upper())


def _frame(image: Image.Image, box: Box, colour: Colour) -> None:
    left, top, right, bottom = box
    ImageDraw.Draw(image).rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=16, outline=colour, width=3
    )


def _draw_backs(
    image: Image.Image, seats: int, seat: int, count: int, ink: Colour, language: str
) -> tuple[int, int]:
    """One card back per card in hand (at most MAX_BACKS), right-aligned in the band, and
    the count in words below them. Returns the left edges of the backs and of the words."""
    left, top, right, _ = hand_backs_box(seats, seat)
    shown = min(count, MAX_BACKS)
    x = right - shown * BACK_STEP + (BACK_STEP - BACK_SIZE[0])
    sprite = card_back_image(*BACK_SIZE)
    for index in range(shown):
        image.paste(sprite, (x + index * BACK_STEP, top), sprite)
    label = in_language(phrase_n("{n} card", "{n} cards", count), language)
    label_box = (left - 60, top + BACK_SIZE[1] + 1, right, top + BACK_SIZE[1] + 27)
    _text_in_box(image, label_box, label, SMALL_TEXT, ink, "right")
    return (x if shown else right), right - round(text_width(label, SMALL_TEXT))


def wall_state(standing: bool, damage: int) -> str:
    if not standing:
        return "down"
    return "danger" if damage >= 3 else "cracked" if damage == 2 else "sound"


def _draw_wall_slot(
    image: Image.Image,
    seats: int,
    seat: int,
    index: int,
    standing: bool,
    damage: int,
    say_down: bool,
    language: str,
) -> None:
    """A wall, its damage gauge and pips; a fallen one says so when `say_down` (not when
    its knight is out, nor under a last-move tag that says it)."""
    box = wall_box(seats, seat, index)
    left, top, right, bottom = box
    sprite = wall_sprite(right - left, bottom - top, wall_state(standing, damage))
    image.paste(sprite, (left, top), sprite)
    slot = slot_box(seats, seat, index)
    gauge_top = bottom + 6
    if standing:
        colour = HEAT.get(min(damage, 3), DANGER)
        _text_in_box(
            image, (slot[0], gauge_top, slot[2], gauge_top + 22), f"{damage}/4", SMALL_TEXT,
            colour, "right", bold=True,
        )  # fmt: skip
    elif say_down:
        label_top = max(top + 2, bottom - round(min(bottom - top, right - left) * 0.42) - 28)
        toppled = in_language(phrase("TOPPLED"), language)
        fits = text_width(toppled, SMALL_TEXT) + 4 <= right - left
        word = toppled if fits else in_language(phrase("DOWN"), language)
        _text_in_box(image, (left, label_top, right, label_top + 26), word, SMALL_TEXT, DANGER,
                     bold=True)  # fmt: skip
    if not standing:
        colour = DANGER
    pips_top = gauge_top + 26
    pip_w = (slot[2] - slot[0] - 9) // 4
    draw = ImageDraw.Draw(image)
    for pip in range(4):
        x = slot[0] + pip * (pip_w + 3)
        filled = standing and pip < damage
        fill = colour if filled else GAUGE_EMPTY if standing else shade(DANGER, 0.35)
        draw.rectangle((x, pips_top, x + pip_w - 1, pips_top + 5), fill=fill)


def _draw_trash_on_wall(
    image: Image.Image, box: Box, trash: list[CardView], names: list[str]
) -> None:
    """The trash stuck on a wall, oldest at the top, as chips with damage and name."""
    if not trash:
        return
    left, top, right, bottom = box
    face_top = top + _crenel_height(right - left) + 4
    chip_w = right - left - 10
    chip_h = CHIP_H
    for index, card in enumerate(trash):
        y = face_top + index * (chip_h + 3)
        if y + chip_h > bottom - 2:  # more than fits: a "+n" chip
            rest = len(trash) - index
            more = (left + 5, bottom - chip_h - 2, right - 5, bottom - 2)
            rounded_box(image, more, 6, CARD_EDGE)
            _text_in_box(image, more, said(phrase("+{n} more", n=rest), names), SMALL_TEXT, INK)
            break
        chip = _trash_chip(card["name"], card["value"], chip_w, chip_h, language_of(names))
        image.paste(chip, (left + 5, y), chip)


@lru_cache(maxsize=256)
def _trash_chip(name: str, value: int, width: int, height: int, language: str) -> Image.Image:
    """A piece of trash on a wall: its damage in a paper square, its name beside it."""
    chip = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    trash = KIND_STYLES["trash"].colour
    rounded_box(chip, (0, 0, width, height), 6, CARD_EDGE)
    rounded_box(chip, (1, 1, width - 1, height - 1), 5, trash)
    square = height - 4
    rounded_box(chip, (2, 2, 2 + square, 2 + square), 4, (236, 225, 198))
    _text_in_box(chip, (2, 2, 2 + square, 2 + square), str(value), SMALL_TEXT, DARK_INK,
                 bold=True)  # fmt: skip
    room = width - square - 10
    # the name, or its short form, when it fits whole; else the damage alone says enough
    names = (in_language(phrase_in("trash", name), language),
             in_language(short_trash(name), language))  # fmt: skip
    label = next((n for n in names if n and text_width(n, SMALL_TEXT) <= room), "")
    if label:
        _text_in_box(chip, (square + 6, 0, width - 4, height), label, SMALL_TEXT, INK, "left")
    return chip


CHIP_H = 30  # a piece of trash on a wall: tall enough for its damage at SMALL_TEXT


def _crenel_height(width: int) -> int:
    return max(8, min(16, width // 7))


@lru_cache(maxsize=256)
def wall_sprite(width: int, height: int, state: str) -> Image.Image:
    """A stone wall with battlements (RGBA), or the rubble of one ("down"). Cracks appear
    at 2 damage; at 3 the stones glow red and a red rim warns that it is about to fall."""
    k = 2
    w, h = width * k, height * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    rng = random.Random(width * 1000 + height)
    if state == "down":
        _draw_rubble(draw, w, h, k, rng)
        return sprite.reduce(k)
    cren = _crenel_height(width) * k
    merlons = max(3, width // 22)
    merlon_w = w / (2 * merlons - 1)
    edge = (*WALL_EDGE, 255)
    draw.rectangle((0, cren, w - 1, h - 1), fill=edge)
    for m in range(merlons):
        x = m * 2 * merlon_w
        draw.rectangle((round(x), 0, round(x + merlon_w) - 1, cren + k), fill=edge)
    hot = state == "danger"
    base = BRICK_HOT if hot else BRICK
    line = 2 * k
    draw.rectangle((line, cren + line, w - line - 1, h - line - 1), fill=(*MORTAR, 255))
    for m in range(merlons):
        x = m * 2 * merlon_w
        draw.rectangle(
            (round(x) + line, line, round(x + merlon_w) - 1 - line, cren + line),
            fill=(*MORTAR, 255),
        )
        tint = rng.randint(-8, 8)
        draw.rectangle(
            (round(x) + line + k, line + k, round(x + merlon_w) - 1 - line - k, cren + line),
            fill=(*shade(base, 1 + tint / 100), 255),
        )
    brick_h, brick_w = 11 * k, 26 * k
    for row, y in enumerate(range(cren + line + k, h - line - 1, brick_h)):
        offset = (row % 2) * brick_w // 2
        for x in range(line + k - offset, w - line, brick_w):
            tint = rng.randint(-10, 10)
            colour = tuple(max(0, min(255, c + tint)) for c in base)
            box = (max(x, line + k), y, min(x + brick_w - 2 * k, w - line - k - 1),
                   min(y + brick_h - 2 * k, h - line - k - 1))  # fmt: skip
            if box[0] < box[2] and box[1] < box[3]:
                draw.rectangle(box, fill=(*colour, 255))
    if state in ("cracked", "danger"):
        _draw_crack(draw, w, h, cren, k, rng, 1 if state == "cracked" else 2)
    if hot:
        draw.rectangle((0, cren, w - 1, h - 1), outline=(*DANGER, 255), width=2 * k)
    return sprite.reduce(k)


def _draw_crack(
    draw: ImageDraw.ImageDraw, w: int, h: int, cren: int, k: int, rng: random.Random, count: int
) -> None:
    for crack in range(count):
        x = w * (0.3 + 0.4 * crack) + rng.uniform(-w * 0.08, w * 0.08)
        y: float = cren + 3 * k
        points = [(x, y)]
        while y < h * 0.75:
            y += rng.uniform(8, 16) * k
            x += rng.uniform(-9, 9) * k
            points.append((x, y))
        draw.line(points, fill=(*WALL_EDGE, 255), width=2 * k, joint="curve")


def _draw_rubble(draw: ImageDraw.ImageDraw, w: int, h: int, k: int, rng: random.Random) -> None:
    """A heap of broken stones at the foot of where the wall stood."""
    heap = min(h * 0.42, w * 0.5)
    # the ghost of the wall: a dashed outline
    dash = 8 * k
    ghost = (*shade(PANEL_EDGE, 0.8), 255)
    for x in range(0, w, 2 * dash):
        draw.line((x, 2 * k, min(x + dash, w - 1), 2 * k), fill=ghost, width=k)
    for y in range(0, round(h - heap), 2 * dash):
        draw.line((0, y, 0, min(y + dash, h)), fill=ghost, width=k)
        draw.line((w - 1, y, w - 1, min(y + dash, h)), fill=ghost, width=k)
    stones = 26
    for index in range(stones):
        t = index / stones
        cx = rng.uniform(0.04, 0.96) * w
        # higher in the middle of the heap
        peak = heap * (1 - abs(cx / w - 0.5) * 1.4) * (0.4 + 0.6 * (1 - t))
        cy = h - rng.uniform(0, max(4 * k, peak))
        r = rng.uniform(5, 11) * k
        sides = rng.randint(4, 6)
        points = []
        for side in range(sides):
            angle = math.tau * side / sides + rng.uniform(-0.4, 0.4)
            radius = r * rng.uniform(0.7, 1.1)
            points.append(
                (cx + radius * math.cos(angle), min(h - 1, cy + radius * 0.8 * math.sin(angle)))
            )
        tint = rng.randint(-16, 12)
        colour = tuple(max(0, min(255, c + tint)) for c in RUBBLE)
        draw.polygon(points, fill=(*colour, 255), outline=(*WALL_EDGE, 255), width=k)


def _draw_incoming_marks(
    image: Image.Image, obs: TrashWarObservation, seats: int, seat: int, names: list[str]
) -> None:
    """Above each wall aimed at: a red arrow and the damage flying at it."""
    by_wall: dict[str, list[int]] = {}
    first = obs["incoming"][0] if obs["incoming"] else None
    for flight in obs["incoming"]:
        if flight["target"] == seat:
            by_wall.setdefault(flight["wall"], []).append(flight["card"]["value"])
    for index, position in enumerate(("left", "middle", "right")):
        if position not in by_wall:
            continue
        values = by_wall[position]
        slot = slot_box(seats, seat, index)
        top = wall_box(seats, seat, index)[1] - 24
        now = first is not None and first["target"] == seat and first["wall"] == position
        text = "+".join(str(v) for v in values) if len(values) > 1 else str(values[0])
        label = said(phrase("INCOMING {damage}", damage=text), names)
        if text_width(label, SMALL_TEXT) + 30 > slot[2] - slot[0]:  # the arrow says it
            label = text
        width = min(slot[2] - slot[0], round(text_width(label, SMALL_TEXT)) + 32)
        cx = (slot[0] + slot[2]) // 2
        pill = (cx - width // 2, top - 4, cx + width // 2, top + 22)
        rounded_box(image, pill, 9, FLIGHT_NOW if now else DANGER, INK if now else None, 2)
        arrow_x = pill[0] + 12
        ImageDraw.Draw(image).polygon(
            [(arrow_x - 6, top + 4), (arrow_x + 6, top + 4), (arrow_x, top + 14)], fill=INK
        )
        _text_in_box(image, (pill[0] + 20, pill[1], pill[2] - 4, pill[3]), label, SMALL_TEXT, INK,
                     bold=True)  # fmt: skip


def _grey_out(image: Image.Image, box: Box, stamp: str) -> None:
    """A knight who is out: their fortress in dim grey, stamped with their place."""
    region = image.crop(box)
    grey = ImageOps.grayscale(region).point(lambda v: 14 + v * 0.55)
    image.paste(Image.merge("RGB", (grey, grey, grey)), box[:2])
    left, top, right, bottom = box
    cx, cy = (left + right) // 2, (top + bottom) // 2 + 20
    width = round(text_width(stamp, 26)) + 40
    rounded_box(image, (cx - width // 2, cy - 22, cx + width // 2, cy + 22), 10, OUT_STAMP, INK, 2)
    _draw_text(image, (cx, cy), stamp, 26, INK, "mm", bold=True)


def mark_cards(codes: str) -> Filling:
    """The cards a mark names: "toaster (1)" for its code "toaster1" (a board saved before
    marks held codes kept the English titles: shown as they are)."""
    if not all(code in BY_CODE for code in codes.split()):
        return codes
    return listing([BY_CODE[code].words() for code in codes.split()])


def _newest_marks(obs: TrashWarObservation, seat: int, since: int) -> dict[str, MarkView]:
    """What happened at each wall of `seat` after step `since`: the newest thing wins."""
    newest: dict[str, MarkView] = {}
    for mark in obs.get("marks") or []:  # a board saved before marks existed has none
        if mark["seat"] == seat and mark["step"] > since:
            newest[mark["wall"]] = mark
    return newest


def _draw_last_move(
    image: Image.Image, seats: int, seat: int, newest: dict[str, MarkView], names: list[str]
) -> None:
    """A frame around each wall of `seat` where something happened after step `since`, and
    a tag over it saying what and with which card ("HIT · Microwave"); the newest thing
    at a wall wins (`_newest_marks`)."""
    for index, position in enumerate(("left", "middle", "right")):
        if position not in newest:
            continue
        mark = newest[position]
        colour = MARK_COLOURS.get(mark["what"], FLIGHT_NOW)
        left, top, right, bottom = wall_box(seats, seat, index)
        ImageDraw.Draw(image).rounded_rectangle(
            (left - 4, top - 4, right + 3, bottom + 3), radius=6, outline=colour, width=3
        )
        # what happened, and the card that did it on a line of its own where it fits whole
        # (the tag may spill over the gaps beside the wall, 16 px each side)
        lines = [said(phrase_in("wall mark", mark["what"]), names).upper()]
        cards = said(mark_cards(mark["card"]), names)
        if cards and text_width(cards, SMALL_TEXT) + 10 <= right - left + 28:
            lines.append(cards)
        widest = max(round(text_width(line, SMALL_TEXT)) for line in lines)
        spill = max(0, widest + 12 - (right - left + 3)) // 2  # over the gaps by a narrow wall
        tag = (left - 2 - spill, bottom - 3 - 27 * len(lines), right + 1 + spill, bottom - 3)
        rounded_box(image, tag, 8, colour)
        for row, line in enumerate(lines):
            y = tag[1] + 1 + row * 26
            _text_in_box(image, (tag[0] + 4, y, tag[2] - 4, y + 26), line, SMALL_TEXT,
                         ink_for(colour), bold=row == 0)  # fmt: skip
        note("wall", (left, top, right, bottom), f"{seat} {position} {mark['what']}")

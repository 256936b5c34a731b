"""Dumpster Brawl!'s public picture, `draw_table`: the alley wall with one placard per seat,
Rummy's laid-down cards, and the strip with the piles, the Blockers set aside and what is in
play. Its layout boxes are public for the tests.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from lang import say
from render.brawl.dice import crown
from render.brawl.handovers import draw_handovers
from render.brawl.icons import (
    ASPHALT,
    BLOCKER_COLOUR,
    BLOCKER_TEXT,
    BOOSTER_TEXT,
    BRICK,
    CROWN_GOLD,
    DIE_GREEN,
    KIND_ART,
    KIND_NAMES,
    MORTAR,
    SLIPPERY,
    STINK,
    WINNER_FILL,
    back_fan,
    card_back,
    card_sprite,
    kind_icon,
)
from render.brawl.words import (
    caption,
    character_name,
    chip_width,
    is_draw,
    label_chip,
    phase_word,
    said,
    title_note,
    who,
)
from render.common import (
    CARD_EDGE,
    DARK_INK,
    EMBER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STONE_DARK,
    TORCH,
    Box,
    Colour,
    Size,
    bricks,
    disc,
    draw_text,
    ink_for,
    least_size,
    rounded_box,
    seat_cell,
    shade,
    text_width,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from render.common.caption import caption_below, caption_height, with_caption_room
from render.common.words import player_colour, player_name
from rules.brawl.data import KINDS
from rules.brawl.observation import BrawlObservation
from rules.brawl.words import card as card_word
from rules.brawl.words import commas
from rules.phrases import Phrase, language_of, phrase, phrase_in, phrase_n

# --- the table ------------------------------------------------------------------------------

TABLE_W = 1000
SMALL_TEXT = least_size(TABLE_W)  # the least font size on the table (20 px)
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
FAN_W = 118  # the room a hand's fan of card backs takes at the right of its placard


def grid_shape(seats: int) -> tuple[int, int]:
    """Columns and rows of placards: one row for three, two rows of two or three above."""
    if seats <= 3:
        return max(seats, 1), 1
    if seats == 4:
        return 2, 2
    return 3, 2


def map_size(seats: int, rummy: bool) -> Size:
    """The table above its caption strip."""
    _, rows = grid_shape(seats)
    cell_h = RUMMY_CELL_H if rummy else CELL_H
    return TABLE_W, GRID_TOP + rows * cell_h + (rows - 1) * CELL_GAP + 10 + STRIP_H + 12


def table_size(seats: int, rummy: bool) -> Size:
    """The whole picture, the last move's caption under the table."""
    width, height = map_size(seats, rummy)
    return width, height + caption_height(width)


def placard_box(seats: int, seat: int, rummy: bool) -> Box:
    """Where a seat's placard sits; rows with fewer placards are centred."""
    cols, _ = grid_shape(seats)
    cell_h = RUMMY_CELL_H if rummy else CELL_H
    return seat_cell(
        seat, seats, cols, cell_h, left=GRID_LEFT, right=GRID_RIGHT, top=GRID_TOP, gap=CELL_GAP
    )


def band_box(seats: int, seat: int, rummy: bool) -> Box:
    """A placard's name band: HIGHLIGHT for the seat to act."""
    left, top, right, _ = placard_box(seats, seat, rummy)
    return (left + 6, top + 6, right - 6, top + 40)


def hand_column(seats: int, seat: int, rummy: bool) -> Box:
    """The column of a seat's placard that holds its fan of card backs, top to bottom:
    where cards handed over leave and arrive."""
    _, top, right, bottom = placard_box(seats, seat, rummy)
    return (right - 8 - FAN_W, top, right - 8, bottom)


def strip_box(seats: int, rummy: bool) -> Box:
    height = map_size(seats, rummy)[1]
    return (GRID_LEFT, height - 12 - STRIP_H, GRID_RIGHT, height - 12)


def draw_table(obs: BrawlObservation, names: list[str], since: int | None = None) -> bytes:
    """The public picture as PNG bytes. `names[seat]` is each player's display name; cards
    handed from one hand to another by the actions after step `since` are marked (none
    without it).

    It never reads `obs["hand"]` (nor `obs["seat"]`): the same picture for every viewer.
    """
    return to_png(table_image(obs, names, since))


def table_image(obs: BrawlObservation, names: list[str], since: int | None = None) -> Image.Image:
    """The public picture as an image (for tests and previews), the last move's caption
    under it."""
    seats, rummy = obs["seats"], obs["mode"] == "rummy"
    image = _alley(seats, rummy).copy()
    title_bar(image, "Dumpster Brawl!", title_note(obs, language_of(names)), TITLE_H)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    caption_colour = TORCH if obs["finished"] else INK
    _text(image, (CAPTION_BOX[0] + 16, CAPTION_BOX[1], CAPTION_BOX[2] - 16, CAPTION_BOX[3]),
          caption(obs, names), 22, caption_colour, "left", SMALL_TEXT, bold=True)  # fmt: skip
    for seat in range(seats):
        _draw_placard(image, obs, names, seat)
    _draw_strip(image, obs, names)
    if since is not None:
        columns = [hand_column(seats, seat, rummy) for seat in range(seats)]
        bands = tuple(band_box(seats, seat, rummy) for seat in range(seats))
        draw_handovers(image, obs, since, columns, bands, language_of(names))
    return caption_below(image, obs.get("last_move"), names)


@lru_cache(maxsize=12)
def _alley(seats: int, rummy: bool) -> Image.Image:
    """What depends on the player count alone: the brick wall, asphalt and empty placards,
    and the caption strip's room below them."""
    width, height = map_size(seats, rummy)
    image = Image.new("RGB", (width, height), MORTAR)
    draw = ImageDraw.Draw(image)
    brick_w, brick_h = 46, 20
    for row, x, y in bricks(width, height, brick_w, brick_h):
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
    return with_caption_room(image)


def _draw_placard(image: Image.Image, obs: BrawlObservation, names: list[str], seat: int) -> None:
    seats, rummy = obs["seats"], obs["mode"] == "rummy"
    left, top, right, bottom = placard_box(seats, seat, rummy)
    colour = player_colour(seat)
    won = obs["finished"] and seat in obs["winners"] and not is_draw(obs)
    if won:
        rounded_box(image, (left, top, right, bottom), 14, WINNER_FILL, TORCH, 3)
    acting = seat in obs["to_act"] and not obs["finished"]
    band = band_box(seats, seat, rummy)
    band_fill = HIGHLIGHT if acting else STONE_DARK
    rounded_box(image, band, 10, band_fill)
    ink = ink_for(band_fill)
    disc(image, (band[0] + 16, (band[1] + band[3]) // 2), 16, colour, CARD_EDGE, 2)
    status = (
        phase_word(obs, language_of(names)) if acting else ""
    )  # the highlighted band says whose turn
    status_w = round(text_width(status, SMALL_TEXT)) + 12 if status else 0
    _text(image, (band[0] + 30, band[1], band[2] - 8 - status_w, band[3]),
          player_name(names, seat), 22, ink, "left", SMALL_TEXT, bold=True)  # fmt: skip
    if status:
        _text(image, (band[2] - 8 - status_w, band[1], band[2] - 8, band[3]), status, SMALL_TEXT,
              ink, "right")  # fmt: skip

    # the character: a badge in the seat's colour with the initial (a crown on the King)
    body_top = band[3] + 8
    badge = (left + 38, top + 74)
    disc(image, badge, 50, shade(colour, 0.55), colour, 3)
    character = obs["characters"][seat] if seat < len(obs["characters"]) else None
    shown = character_name(obs, seat, language_of(names))
    initial = shown[:1].upper()
    draw_text(image, badge, initial, 26, INK, "mm", bold=True, cache=True)
    if seat == obs["king"]:
        sprite = crown(36)
        image.paste(sprite, (badge[0] - 18, badge[1] - 25 - sprite.height // 2), sprite)
    text_left = left + 72
    fan_w = FAN_W
    text_right = right - fan_w - 8
    if character:
        _text(image, (text_left, body_top - 2, text_right, body_top + 24), shown,
              22, TORCH, "left", SMALL_TEXT, bold=True)  # fmt: skip
        _text(image, (text_left, body_top + 24, text_right, body_top + 48),
              said(phrase("the {animal}", animal=phrase_in("animal", character["animal"])), names),
              SMALL_TEXT, MUTED, "left")  # fmt: skip
        if obs["affinity"]:  # the affinity item, under the badge and the name
            icon = kind_icon(character["affinity"], 26)
            image.paste(icon, (left + 14, top + 102), icon)
            item = phrase_in("card", KIND_NAMES.get(character["affinity"], "?"))
            label = said(phrase("{card}: 2 make a set", card=item), names)
            _text(image, (left + 44, top + 102, right - 12, top + 128), label, SMALL_TEXT, INK,
                  "left")  # fmt: skip
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
    disc(image, centre, 30, TORCH if count else STONE_DARK, CARD_EDGE, 2)
    ink = DARK_INK if count else MUTED
    draw_text(image, centre, str(count), SMALL_TEXT, ink, "mm", bold=True, cache=True)

    # tags: the fight's roles, the crown, Blockers' marks and the win
    x, y = left + 12, top + CELL_H - 34
    for words, fill in _tags(obs, seat):
        text = said(words, names)
        if x + chip_width(text, SMALL_TEXT) > right - 10:
            break
        x = label_chip(image, x, y, text, fill, SMALL_TEXT) + 6
    if rummy:
        _draw_laid(
            image,
            obs,
            seat,
            language_of(names),
            (left + 10, top + CELL_H - 4, right - 10, bottom - 8),
        )


def _tags(obs: BrawlObservation, seat: int) -> list[tuple[Phrase, Colour]]:
    tags: list[tuple[Phrase, Colour]] = []
    if obs["finished"]:
        if is_draw(obs):
            tags.append((phrase_in("tag", "DRAW"), MUTED))
        elif seat in obs["winners"]:
            tags.append((phrase_in("tag", "WINNER"), TORCH))
    else:
        if seat == obs["turn"]:
            tags.append((phrase_in("tag", "ATTACKER"), EMBER))
        if seat == obs["defender"] and obs["defender"] >= 0:
            tags.append((phrase_in("tag", "DEFENDER"), DIE_GREEN))
    if seat == obs["king"]:
        tags.append(
            (phrase_in("tag", "KING"), CROWN_GOLD)
        )  # of the heap: the crown on the badge says it too
    stink = obs["stink"][seat] if seat < len(obs["stink"]) else 0
    if stink > 0:
        tags.append((phrase_in("tag", "STINK ({n})", n=stink), STINK))  # no win while it lasts
    if seat in obs["slippery"]:
        tags.append((phrase_in("tag", "SLIPPERY LID"), SLIPPERY))
    if seat == obs["went_out"]:
        tags.append((phrase_in("tag", "WENT OUT +2"), TORCH))
    if seat in obs["truck"]:
        tags.append((phrase_in("tag", "TRUCK: DISCARD"), BLOCKER_COLOUR))
    return tags


def _draw_laid(
    image: Image.Image, obs: BrawlObservation, seat: int, language: str, box: Box
) -> None:
    """Rummy: the seat's scoring area, face up, one chip per kind with its count."""
    left, top, right, bottom = box
    laid = obs["laid"][seat] if seat < len(obs["laid"]) else []
    points = obs["points"][seat] if seat < len(obs["points"]) else 0
    ImageDraw.Draw(image).line((left, top, right, top), fill=PANEL_EDGE, width=1)
    laid_text = say(phrase_n("Laid down: {n} card", "Laid down: {n} cards", len(laid)), language)
    _text(image, (left + 2, top + 2, right - 90, top + 26), laid_text, SMALL_TEXT, MUTED, "left")
    score = say(phrase_n("{n} pt", "{n} pts", points), language)
    _text(image, (right - 90, top + 2, right - 2, top + 26), score, 22, TORCH, "right",
          SMALL_TEXT, bold=True)  # fmt: skip
    counts: dict[str, int] = {}
    for card in laid:
        counts[card["key"]] = counts.get(card["key"], 0) + 1
    if not counts:
        nothing = say(phrase("nothing laid down yet"), language)
        _text(image, (left, top + 28, right, bottom), nothing, SMALL_TEXT, MUTED)
        return
    ordered = sorted(counts.items(), key=lambda kv: kind_order(kv[0]))
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
        times = say(phrase("x{n}", n=count), language)
        _text(image, (x + 35, y, x + chip_w - 1, y + chip_h), times, SMALL_TEXT, INK,
              bold=True)  # fmt: skip


def kind_order(key: str) -> int:
    keys = [kind.key for kind in KINDS]
    return keys.index(key) if key in keys else len(keys)


def _draw_strip(image: Image.Image, obs: BrawlObservation, names: list[str]) -> None:
    """The middle of the alley: the trash and discard piles, the Blockers set aside, and what
    this game shuffled in."""
    left, top, right, _ = strip_box(obs["seats"], obs["mode"] == "rummy")
    card_top = top + 14
    for index, (label, count) in enumerate(
        ((phrase("trash pile"), obs["trash_size"]), (phrase("discards"), obs["discard_size"]))
    ):
        x = left + 16 + index * 104
        if count:
            for layer in range(min(3, count) - 1, -1, -1):
                back = card_back(PILE_CARD)
                image.paste(back, (x + layer * 3, card_top + 6 - layer * 3), back)
        else:
            box = (x, card_top, x + PILE_CARD[0], card_top + PILE_CARD[1])
            rounded_box(image, box, 6, PANEL_EDGE)
            rounded_box(image, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), 5, PANEL)
        _text(image, (x + PILE_CARD[0] + 10, card_top + 14, x + 108, card_top + 44), str(count),
              26, INK if count else MUTED, "left", bold=True)  # fmt: skip
        _text(image, (x - 4, card_top + PILE_CARD[1] + 8, x + 100, card_top + PILE_CARD[1] + 32),
              said(label, names), SMALL_TEXT, MUTED, "left")  # fmt: skip
    # Blockers set aside: small face-up cards, the first word of each name under it
    x0 = left + 224
    _text(image, (x0, top + 4, x0 + 260, top + 28), said(phrase("Blockers aside"), names),
          SMALL_TEXT, MUTED, "left")  # fmt: skip
    small = (52, 74)
    if not obs["aside"]:
        none_yet = said(phrase("none yet"), names)
        _text(image, (x0, top + 30, x0 + 260, top + 60), none_yet, SMALL_TEXT, MUTED, "left")
    for index, card in enumerate(obs["aside"][:3]):  # a game shuffles in three
        sprite = card_sprite(card, small, least=SMALL_TEXT, language=language_of(names))
        x = x0 + index * 88
        image.paste(sprite, (x + 17, top + 32), sprite)
        first_word = said(card_word(card["name"]), names).split()[0]
        _text(image, (x, top + 108, x + 86, top + 132), first_word, SMALL_TEXT, INK)
    # what is in this game, and who started
    x1 = left + 492
    lines = _in_play_lines(obs, names)
    for index, (text, colour) in enumerate(lines):
        y = top + 4 + index * 26
        _text(image, (x1, y, right - 12, y + 26), text, SMALL_TEXT, colour, "left")


def _in_play_lines(obs: BrawlObservation, names: list[str]) -> list[tuple[str, Colour]]:
    keys = obs["in_play"]
    boosters = [card_word(BOOSTER_TEXT[k].name) for k in keys if k in BOOSTER_TEXT]
    blockers = [card_word(BLOCKER_TEXT[k].name) for k in keys if k in BLOCKER_TEXT]
    slugs = sum(1 for k in keys if k == "slug")
    none = phrase("none")
    lines: list[tuple[Phrase, Colour]] = [
        (
            phrase_n("In this game's trash: {n} Slug", "In this game's trash: {n} Slugs", slugs),
            MUTED,
        ),
        (phrase("Boosters: {cards}", cards=commas(boosters) if boosters else none), INK),
        (phrase("Blockers: {cards}", cards=commas(blockers) if blockers else none), INK),
    ]
    # Who won the start roll, on the first turn only: later it is stale news (issue 38).
    if 0 <= obs["starter"] < obs["seats"] and obs["turns"] <= 1 and not obs["finished"]:
        starter = who(obs, names, obs["starter"])
        lines.append((phrase("{player} won the start roll", player=starter), MUTED))
    return [(said(words, names), colour) for words, colour in lines]

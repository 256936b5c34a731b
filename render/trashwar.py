"""Pictures for Trash War, drawn from a `TrashWarObservation` only.

- `draw_battlefield(obs, names)`: the public picture for the channel: every knight's
  fortress (three walls, standing or in rubble, the trash stuck on each with its damage and
  the wall's total out of 4), hand sizes as card backs, who is to act, who is out, the
  trash in flight, the draw, recycle and torched piles and the torching phase. It never
  reads `obs["hand"]`.
- `draw_hand(obs, name)`: a player's own cards, drawn as cards, for the ephemeral "My hand"
  reply, with a strip showing the state of their own walls.

Speed: the bricks, panels, ground lines and labels depend on the number of players only
and are drawn once per player count; walls, rubble, trash chips and cards are cached
sprites. A picture is then a copy, some pastes, a little text and the PNG encoding.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

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
    flame_mark,
    ink_for,
    ordinal,
    rounded_box,
    shade,
    text_width,
    title_bar,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from rules.trashwar.cards import TRASH_NAMES
from rules.trashwar.observation import CardView, FlightView, PlayerView, TrashWarObservation

# --- colour tables ----------------------------------------------------------------------


@dataclass(frozen=True)
class KindStyle:
    """How a kind of card looks: its header colour, the header's word, the footer line."""

    colour: Colour
    title: str
    footer: str


# One colour per kind of card, told apart by hue and lightness alike.
KIND_STYLES: dict[str, KindStyle] = {
    "trash": KindStyle((150, 100, 52), "TRASH", "damage"),
    "shield": KindStyle((56, 104, 168), "SHIELD", "defence"),
    "mace": KindStyle((118, 78, 156), "MACE", "bats one trash away"),
    "deflect": KindStyle((30, 132, 128), "DEFLECT", "defence"),
    "catapult": KindStyle((92, 118, 46), "CATAPULT", "attack"),
    "burn": KindStyle((200, 66, 36), "BURN", "burn value"),
    "repair": KindStyle((196, 158, 60), "REPAIR", "rebuild"),
    "wall": KindStyle((118, 112, 104), "WALL", ""),
}
UNKNOWN_STYLE = KindStyle((120, 120, 120), "CARD", "")

MACE_CAPTIONS = {
    "left": "bat left",
    "right": "bat right",
    "back": "bat back at sender",
    "any": "bat at anyone",
}

# Walls: stone, mortar, the ground they stand on, and how damage colours them.
BRICK: Colour = (132, 124, 112)
BRICK_HOT: Colour = (150, 96, 82)  # a wall about to fall glows red-hot
MORTAR: Colour = (74, 68, 62)
WALL_EDGE: Colour = (22, 19, 17)
RUBBLE: Colour = (98, 92, 84)
GROUND: Colour = (70, 54, 38)
GAUGE_EMPTY: Colour = (56, 52, 49)
SAFE: Colour = (126, 178, 92)  # 0 or 1 damage
WARN: Colour = (236, 150, 48)  # 2 damage
DANGER: Colour = (226, 62, 46)  # 3 damage: one more hit and it falls
HEAT = {0: SAFE, 1: SAFE, 2: WARN, 3: DANGER}
OUT_STAMP: Colour = (110, 36, 30)
WINNER_BAND: Colour = (86, 62, 26)
FLIGHT_NOW: Colour = (236, 96, 40)

# --- board layout (pixels) ----------------------------------------------------------------

BOARD_W = 1100
TITLE_HEIGHT = 48
CAPTION_BOX: Box = (12, 56, 1088, 104)
GRID_TOP = 112
GRID_LEFT, GRID_RIGHT = 12, 1088
CELL_GAP = 10
STRIP_H = 144
HEADER_H = 46  # a fortress's name band
BACK_SIZE: Size = (14, 20)  # a card back in a hand-size row
BACK_STEP = 17
MAX_BACKS = 10
MINI_CARD: Size = (60, 84)  # cards in flight and on the piles

HAND_W = 960
HAND_CARD: Size = (168, 236)
HAND_GAP = 14
HAND_PER_ROW = 5
HAND_STRIP_H = 132
HAND_TOP = 60


def grid_shape(seats: int) -> tuple[int, int, int]:
    """Columns, rows and cell height of the fortress grid for `seats` players."""
    if seats <= 2:
        return 2, 1, 300
    if seats == 3:
        return 3, 1, 300
    if seats == 4:
        return 2, 2, 222
    return 3, 2, 222


def board_size(seats: int) -> Size:
    _, rows, cell_h = grid_shape(seats)
    return BOARD_W, GRID_TOP + rows * cell_h + (rows - 1) * CELL_GAP + 8 + STRIP_H + 10


def fortress_box(seats: int, seat: int) -> Box:
    """Where a player's fortress cell sits on the board."""
    cols, _, cell_h = grid_shape(seats)
    cell_w = (GRID_RIGHT - GRID_LEFT - (cols - 1) * CELL_GAP) // cols
    row, col = divmod(seat, cols)
    in_row = min(cols, seats - row * cols)
    left = GRID_LEFT + (cols - in_row) * (cell_w + CELL_GAP) // 2 + col * (cell_w + CELL_GAP)
    top = GRID_TOP + row * (cell_h + CELL_GAP)
    return (left, top, left + cell_w, top + cell_h)


def header_box(seats: int, seat: int) -> Box:
    """The name band at the top of a fortress (filled with HIGHLIGHT for the one to act)."""
    left, top, right, _ = fortress_box(seats, seat)
    return (left + 6, top + 6, right - 6, top + 6 + HEADER_H)


def hand_backs_box(seats: int, seat: int, count: int = MAX_BACKS) -> Box:
    """The row of card backs that shows a player's hand size (`count` of them: the space
    they take, right-aligned in the name band; at most MAX_BACKS are drawn)."""
    _, top, right, _ = header_box(seats, seat)
    width = min(max(count, 0), MAX_BACKS) * BACK_STEP
    return (right - 10 - width, top + 5, right - 10, top + 5 + BACK_SIZE[1])


def _walls_zone(seats: int, seat: int) -> Box:
    left, top, right, bottom = fortress_box(seats, seat)
    return (left + 14, top + 6 + HEADER_H + 6, right - 14, bottom - 8)


def _slot(seats: int, seat: int, index: int) -> Box:
    left, top, right, bottom = _walls_zone(seats, seat)
    gap = 16
    width = (right - left - 2 * gap) // 3
    x = left + index * (width + gap)
    return (x, top, x + width, bottom)


def wall_box(seats: int, seat: int, index: int) -> Box:
    """The wall itself (index 0 left, 1 middle, 2 right): stone when standing, rubble when
    not. Bottom-aligned on the ground line; at most 1.8 times as tall as it is wide."""
    left, top, right, bottom = _slot(seats, seat, index)
    body_bottom = bottom - 34
    body_top = max(top + 26, body_bottom - round((right - left) * 1.8))
    return (left, body_top, right, body_bottom)


def strip_box(seats: int) -> Box:
    height = board_size(seats)[1]
    return (GRID_LEFT, height - 10 - STRIP_H, GRID_RIGHT, height - 10)


def flight_box(seats: int) -> Box:
    left, top, _, bottom = strip_box(seats)
    return (left + 12, top + 8, 566, bottom - 8)


def piles_box(seats: int) -> Box:
    _, top, right, bottom = strip_box(seats)
    return (584, top + 8, right - 12, bottom - 8)


PILE_COLUMNS = {"draw": 0, "recycle": 86, "torched": 172, "out": 258, "phase": 350}


# --- public -----------------------------------------------------------------------------


def draw_battlefield(obs: TrashWarObservation, names: list[str]) -> bytes:
    """The public picture as PNG bytes. `names[seat]` is each player's display name.

    It never reads `obs["hand"]`: the same picture for every viewer.
    """
    return to_png(battlefield_image(obs, names))


def battlefield_image(obs: TrashWarObservation, names: list[str]) -> Image.Image:
    """The public picture as an image (for tests and previews)."""
    seats = obs["seats"]
    image = _background(seats).copy()
    title_bar(image, "Trash War", _title_note(obs), TITLE_HEIGHT)
    _draw_caption(image, obs, names)
    for player in obs["players"]:
        _draw_fortress(image, obs, names, player)
    _draw_flight(image, obs, names)
    _draw_piles(image, obs)
    return image


def draw_hand(obs: TrashWarObservation, name: str) -> bytes:
    """A player's own cards as PNG bytes, with their walls' state underneath."""
    return to_png(hand_image(obs, name))


def hand_image(obs: TrashWarObservation, name: str) -> Image.Image:
    """The "My hand" picture as an image (for tests and previews)."""
    hand = obs["hand"] or []
    width, height = hand_size_px(len(hand))
    image = Image.new("RGB", (width, height), BACKDROP)
    count = f"{len(hand)} card{'s' * (len(hand) != 1)}"
    title_bar(image, "Your hand", f"{display_name(name, 'You')} - {count}", 44, 22)
    if not hand:
        box = (24, HAND_TOP, HAND_W - 24, HAND_TOP + HAND_CARD[1])
        rounded_box(image, box, 18, PANEL, PANEL_EDGE, 2)
        _text_in_box(image, box, "No cards in hand", 26, MUTED)
    for index, card in enumerate(hand):
        left, top, _, _ = hand_card_box(len(hand), index)
        sprite = card_sprite(card, HAND_CARD)
        image.paste(sprite, (left, top), sprite)
    note_top = height - 12 - HAND_STRIP_H - 44
    _text_in_box(
        image, (24, note_top, HAND_W - 24, note_top + 28), _hand_note(obs), 17, INK, "left", 12
    )
    _draw_own_walls(image, obs, (16, note_top + 34, HAND_W - 16, height - 12))
    return image


def _hand_rows(count: int) -> tuple[int, int]:
    """Rows of cards and cards per row: one row up to five, then rows as even as can be."""
    rows = max(1, -(-count // HAND_PER_ROW))
    return rows, -(-count // rows) if count else 0


def hand_size_px(count: int) -> Size:
    """The size of the hand picture for `count` cards."""
    rows, _ = _hand_rows(count)
    cards_h = rows * HAND_CARD[1] + (rows - 1) * HAND_GAP
    return HAND_W, HAND_TOP + cards_h + 10 + 34 + HAND_STRIP_H + 12


def hand_card_box(count: int, index: int) -> Box:
    """Where card `index` of a hand of `count` sits, rows centred."""
    _, per_row = _hand_rows(count)
    row, col = divmod(index, per_row)
    in_row = min(per_row, count - row * per_row)
    row_w = in_row * HAND_CARD[0] + (in_row - 1) * HAND_GAP
    left = (HAND_W - row_w) // 2 + col * (HAND_CARD[0] + HAND_GAP)
    top = HAND_TOP + row * (HAND_CARD[1] + HAND_GAP)
    return (left, top, left + HAND_CARD[0], top + HAND_CARD[1])


# --- cards ------------------------------------------------------------------------------


def style_of(kind: str) -> KindStyle:
    return KIND_STYLES.get(kind, UNKNOWN_STYLE)


def card_face(card: CardView) -> CardFace:
    """The generic card face for a Trash War card (icons are added by `card_sprite`)."""
    kind, value = card["kind"], card["value"]
    style = style_of(kind)
    caption = {
        "trash": card["name"],
        "shield": f"blocks {value} or less",
        "burn": f"burns up to {value}",
        "mace": MACE_CAPTIONS.get(card["direction"], "bat"),
        "deflect": "onto another wall",
        "catapult": "up to 3 trash",
        "repair": "raise a fallen wall",
        "wall": "Wall",
    }.get(kind, card["name"])
    shown_value = str(value) if kind in ("trash", "shield", "burn") and value else ""
    return CardFace(style.title, style.colour, shown_value, caption, style.footer, card["torches"])


def card_sprite(card: CardView, size: Size) -> Image.Image:
    """A Trash War card (RGBA): the generic face plus this kind's icon where it has no value."""
    return _card_sprite(card["kind"], card["value"], card["torches"], card["direction"],
                        card["name"], size)  # fmt: skip


@lru_cache(maxsize=512)
def _card_sprite(
    kind: str, value: int, torches: int, direction: str, name: str, size: Size
) -> Image.Image:
    view = CardView(
        id=0, code="", kind=kind, value=value, torches=torches, direction=direction,
        name=name, title="",
    )  # fmt: skip
    face = card_face(view)
    sprite = card_image(face, *size)
    if face.value:
        return sprite
    art = card_art_box(*size)
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


# --- small helpers ----------------------------------------------------------------------


def player_name(names: list[str], seat: int) -> str:
    fallback = f"Player {seat + 1}"
    return display_name(names[seat], fallback) if 0 <= seat < len(names) else fallback


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


_ARTICLES = {name: article for _, name, article in TRASH_NAMES}
_SHORT_TRASH = {
    "mutant albino alligator": "alligator",
    "toxic waste drum": "toxic drum",
    "X-ray machine": "X-ray",
    "moldy sardines": "sardines",
    "exercise bike": "exercise bike",
}


def _a(card: CardView) -> str:
    """'a grand piano (4)', 'some false teeth (1)'."""
    title = card["title"] or f"{card['name']} ({card['value']})"
    if card["kind"] == "trash":
        return f"{_ARTICLES.get(card['name'], 'a')} {title}"
    return f"{'an' if title[:1] in 'AEIOU' else 'a'} {title}"


def _and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _place(obs: TrashWarObservation, seat: int) -> int:
    """Final place of a knight who is out: the first out is last."""
    return obs["seats"] - obs["eliminated"].index(seat)


def _neighbour(obs: TrashWarObservation, seat: int, step: int) -> int | None:
    """The next knight still in the war to the left (`step` 1) or right (-1) of `seat`."""
    for offset in range(1, obs["seats"]):
        other = (seat + step * offset) % obs["seats"]
        if other < len(obs["players"]) and obs["players"][other]["in_game"]:
            return other
    return None


def _actor(obs: TrashWarObservation) -> int | None:
    """Whom the caption is about: the winner, else the seat deciding now."""
    if obs["finished"]:
        return obs["winner"]
    return obs["to_act"][0] if obs["to_act"] else obs["turn"]


def _title_note(obs: TrashWarObservation) -> str:
    phase = obs["torch_phase"]
    torch = f"Torching phase {phase if phase < 3 else '3+'}"
    if obs["finished"]:
        return f"{torch} - war over after {obs['turns']} turns"
    return f"{torch} - turn {max(1, obs['turns'])}"


def caption(obs: TrashWarObservation, names: list[str]) -> str:
    """One line telling what is being decided now."""

    def who(seat: int) -> str:
        return player_name(names, seat)

    if obs["finished"] or obs["phase"] == "over":
        winner = obs["winner"]
        if winner is None:
            return "The war is over."
        return f"{who(winner)} is the last knight standing and wins the Trash War!"
    actor = obs["to_act"][0] if obs["to_act"] else obs["turn"]
    name, phase = who(actor), obs["phase"]
    head = obs["incoming"][0] if obs["incoming"] else None
    if phase == "defend" and head is not None:
        trash = f"{who(head['sender'])}'s {head['card']['title'] or head['card']['name']}"
        walls = obs["players"][head["target"]]["walls"] if head["target"] < obs["seats"] else []
        standing = next((w["standing"] for w in walls if w["position"] == head["wall"]), True)
        if standing:
            text = f"{name} is defending the {head['wall']} wall against {trash}"
        else:
            text = f"{name} faces {trash}, falling on the rubble of the {head['wall']} wall"
        more = len(obs["incoming"]) - 1
        return text + (f", {more} more to come" if more else "")
    if phase == "bat" and head is not None:
        trash = f"{who(head['sender'])}'s {head['card']['title'] or head['card']['name']}"
        swing = obs["swing"] or "any"
        if swing == "back":
            where = f"back at {who(head['sender'])}"
        elif swing in ("left", "right"):
            other = _neighbour(obs, actor, 1 if swing == "left" else -1)
            where = f"{swing}, at {who(other)}" if other is not None else swing
        else:
            where = "at any knight's wall"
        return f"{name} swings a Mace at {trash}, batting it {where}"
    if phase == "burn":
        return f"{name} may burn trash off a wall, repair a fallen wall, or pass"
    if phase == "attack":
        if obs["opening"]:
            return f"{name} opens the war: one Trash card at any wall"
        return f"{name} attacks: trash or a Catapult volley at any standing wall"
    if phase == "drawn":
        return f"{name} drew a Trash card and must throw it at once"
    return f"{name} to play"


def _status(obs: TrashWarObservation, player: PlayerView) -> tuple[str, Colour | None]:
    """The second line of a fortress's name band; colour None means "the band's ink"."""
    seat = player["seat"]
    if obs["finished"] and obs["winner"] == seat:
        return "WINNER - last knight standing", TORCH
    if not player["in_game"]:
        if seat in obs["eliminated"]:
            return f"OUT - {ordinal(_place(obs, seat))} place", MUTED
        return "OUT", MUTED
    if obs["finished"]:
        return "", MUTED
    if seat in obs["to_act"]:
        verb = {
            "defend": "defending",
            "bat": "batting with a Mace",
            "burn": "burn, repair or pass",
            "attack": "opening the war" if obs["opening"] else "attacking",
            "drawn": "throwing the drawn trash",
        }.get(obs["phase"], "to play")
        return f"TO ACT: {verb}", None
    if seat == obs["turn"]:
        return "holds the turn", TORCH
    up = sum(1 for wall in player["walls"] if wall["standing"])
    return f"{up} of 3 walls standing", MUTED


# --- the cached background --------------------------------------------------------------


@lru_cache(maxsize=8)
def _background(seats: int) -> Image.Image:
    """Everything that depends on the player count alone."""
    width, height = board_size(seats)
    image = Image.new("RGB", (width, height), BACKDROP)
    _draw_bricks(image)
    rounded_box(image, CAPTION_BOX, 14, PANEL, PANEL_EDGE, 2)
    for seat in range(seats):
        rounded_box(image, fortress_box(seats, seat), 16, PANEL, PANEL_EDGE, 3)
        rounded_box(image, header_box(seats, seat), 11, STONE_DARK)
        draw = ImageDraw.Draw(image)
        for index, position in enumerate(("LEFT", "MIDDLE", "RIGHT")):
            left, top, right, bottom = _slot(seats, seat, index)
            ground = wall_box(seats, seat, index)[3]
            draw.rectangle((left - 6, ground, right + 5, ground + 3), fill=GROUND)
            _draw_text(image, (left, ground + 14), position, 13, MUTED, "lm")
    rounded_box(image, strip_box(seats), 16, PANEL, PANEL_EDGE, 3)
    left, top, right, bottom = piles_box(seats)
    ImageDraw.Draw(image).line(
        (left - 10, top + 4, left - 10, bottom - 4), fill=PANEL_EDGE, width=2
    )
    fl, ft = flight_box(seats)[:2]
    _draw_text(image, (fl, ft + 2), "IN FLIGHT", 13, TORCH, "la")
    labels = {
        "draw": "DRAW",
        "recycle": "RECYCLE",
        "torched": "TORCHED",
        "out": "OUT OF GAME",
        "phase": "TORCHING PHASE",
    }
    for key, label in labels.items():
        x = left + PILE_COLUMNS[key]
        _draw_text(image, (x, top + 2), label, 13, TORCH, "la")
    return image


def _draw_bricks(image: Image.Image) -> None:
    """The rock around everything: dark bricks in offset rows."""
    draw = ImageDraw.Draw(image)
    rng = random.Random(11)
    brick_w, brick_h = 56, 22
    for row, top in enumerate(range(0, image.height, brick_h)):
        offset = (row % 2) * brick_w // 2
        for left in range(-offset, image.width, brick_w):
            tint = rng.randint(-5, 5)
            colour = (BACKDROP[0] + 7 + tint, BACKDROP[1] + 5 + tint, BACKDROP[2] + 4 + tint)
            draw.rectangle((left + 1, top + 1, left + brick_w - 2, top + brick_h - 2), colour)


# --- caption ----------------------------------------------------------------------------


def _draw_caption(image: Image.Image, obs: TrashWarObservation, names: list[str]) -> None:
    left, top, right, bottom = CAPTION_BOX
    middle = (top + bottom) // 2
    seat = _actor(obs)
    x = left + 14
    if seat is not None:
        disc(image, (x + 13, middle), 26, player_colour(seat), CARD_EDGE)
        _draw_text(image, (x + 13, middle), str(seat + 1), 14, ink_for(player_colour(seat)), "mm")
        x += 36
    if obs["finished"]:
        _crown(image, (x, middle - 9), 24)
        x += 32
    colour = TORCH if obs["finished"] else INK
    _text_in_box(
        image, (x, top + 2, right - 14, bottom - 2), caption(obs, names), 23, colour, "left", 14,
        bold=True,
    )  # fmt: skip


def _crown(image: Image.Image, at: tuple[int, int], width: int = 18) -> None:
    x, y = at
    u = width / 18
    points = [(0, 14), (0, 2), (5, 8), (9, 0), (13, 8), (18, 2), (18, 14)]
    ImageDraw.Draw(image).polygon(
        [(x + px * u, y + py * u) for px, py in points], fill=TORCH, outline=shade(TORCH, 0.5)
    )


# --- fortresses -------------------------------------------------------------------------


def _draw_fortress(
    image: Image.Image, obs: TrashWarObservation, names: list[str], player: PlayerView
) -> None:
    seats, seat = obs["seats"], player["seat"]
    if not 0 <= seat < seats:
        return
    box = fortress_box(seats, seat)
    active = seat in obs["to_act"] and not obs["finished"] and player["in_game"]
    winner = obs["finished"] and obs["winner"] == seat
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
    disc(image, (left + 22, top + HEADER_H // 2), 30, colour, CARD_EDGE)
    _draw_text(image, (left + 22, top + HEADER_H // 2), str(seat + 1), 16, ink_for(colour), "mm")
    if player["in_game"] or player["hand_size"]:
        backs, words = _draw_backs(
            image, seats, seat, player["hand_size"], ink if active else MUTED
        )
    else:  # out, empty-handed: nothing to count
        backs = words = right - 10
    name_right = backs - 10 - (26 if winner else 0)
    name_w = _text_in_box(
        image, (left + 44, top + 2, name_right, top + 25), player_name(names, seat), 20, ink,
        "left", 13, bold=True,
    )  # fmt: skip
    if winner:
        _crown(image, (left + 52 + name_w, top + 6))
    status, status_colour = _status(obs, player)
    line = (left + 44, top + 26, words - 8, bottom - 2)
    if player["under_attack"] and player["in_game"]:
        label = f"UNDER ATTACK {player['under_attack']}"
        pill_w = round(text_width(label, 12)) + 14
        pill = (words - 8 - pill_w, top + 27, words - 8, bottom - 3)
        rounded_box(image, pill, 8, DANGER)
        _text_in_box(image, pill, label, 12, INK, min_size=9, bold=True)
        line = (line[0], line[1], pill[0] - 6, line[3])
    if status:
        _text_in_box(image, line, status, 14, status_colour or ink, "left", 10)
    for index, wall in enumerate(player["walls"][:3]):
        _draw_wall_slot(image, seats, seat, index, wall["standing"], wall["damage"],
                        player["in_game"])  # fmt: skip
        _draw_trash_on_wall(image, wall_box(seats, seat, index), wall["trash"])
    _draw_incoming_marks(image, obs, seats, seat)
    if not player["in_game"]:
        _grey_out(image, box, _status(obs, player)[0] or "OUT")


def _frame(image: Image.Image, box: Box, colour: Colour) -> None:
    left, top, right, bottom = box
    ImageDraw.Draw(image).rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=16, outline=colour, width=3
    )


def _draw_backs(
    image: Image.Image, seats: int, seat: int, count: int, ink: Colour
) -> tuple[int, int]:
    """One card back per card in hand (at most MAX_BACKS), right-aligned in the band, and
    the count in words below them. Returns the left edges of the backs and of the words."""
    left, top, right, _ = hand_backs_box(seats, seat)
    shown = min(count, MAX_BACKS)
    x = right - shown * BACK_STEP + (BACK_STEP - BACK_SIZE[0])
    sprite = card_back_image(*BACK_SIZE)
    for index in range(shown):
        image.paste(sprite, (x + index * BACK_STEP, top), sprite)
    label = f"{count} card{'s' * (count != 1)}"
    label_box = (left - 40, top + BACK_SIZE[1] + 1, right, top + BACK_SIZE[1] + 19)
    _text_in_box(image, label_box, label, 13, ink, "right")
    return (x if shown else right), right - round(text_width(label, 13))


def _wall_state(standing: bool, damage: int) -> str:
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
    in_game: bool,
) -> None:
    box = wall_box(seats, seat, index)
    left, top, right, bottom = box
    sprite = _wall_sprite(right - left, bottom - top, _wall_state(standing, damage))
    image.paste(sprite, (left, top), sprite)
    slot = _slot(seats, seat, index)
    gauge_top = bottom + 6
    if standing:
        colour = HEAT.get(min(damage, 3), DANGER)
        _text_in_box(
            image, (slot[0], gauge_top, slot[2], gauge_top + 16), f"{damage}/4", 18, colour,
            "right", bold=True,
        )  # fmt: skip
    elif in_game:  # a knight who is out gets one stamp instead
        label_top = max(top + 2, bottom - round(min(bottom - top, right - left) * 0.42) - 22)
        _text_in_box(image, (left, label_top, right, label_top + 18), "TOPPLED", 14, DANGER,
                    min_size=10, bold=True)  # fmt: skip
    if not standing:
        colour = DANGER
    pips_top = gauge_top + 20
    pip_w = (slot[2] - slot[0] - 9) // 4
    draw = ImageDraw.Draw(image)
    for pip in range(4):
        x = slot[0] + pip * (pip_w + 3)
        filled = standing and pip < damage
        fill = colour if filled else GAUGE_EMPTY if standing else shade(DANGER, 0.35)
        draw.rectangle((x, pips_top, x + pip_w - 1, pips_top + 5), fill=fill)


def _draw_trash_on_wall(image: Image.Image, box: Box, trash: list[CardView]) -> None:
    """The trash stuck on a wall, oldest at the top, as chips with damage and name."""
    if not trash:
        return
    left, top, right, bottom = box
    face_top = top + _crenel_height(right - left) + 4
    chip_w = right - left - 10
    chip_h = max(18, min(30, chip_w // 4, (bottom - face_top - 6) // max(2, len(trash)) - 3))
    for index, card in enumerate(trash):
        y = face_top + index * (chip_h + 3)
        if y + chip_h > bottom - 2:  # more than fits: a "+n" chip
            rest = len(trash) - index
            more = (left + 5, bottom - chip_h - 2, right - 5, bottom - 2)
            rounded_box(image, more, 6, CARD_EDGE)
            _text_in_box(image, more, f"+{rest} more", 13, INK)
            break
        chip = _trash_chip(card["name"], card["value"], chip_w, chip_h)
        image.paste(chip, (left + 5, y), chip)


@lru_cache(maxsize=256)
def _trash_chip(name: str, value: int, width: int, height: int) -> Image.Image:
    """A piece of trash on a wall: its damage in a paper square, its name beside it."""
    chip = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    trash = KIND_STYLES["trash"].colour
    rounded_box(chip, (0, 0, width, height), 6, CARD_EDGE)
    rounded_box(chip, (1, 1, width - 1, height - 1), 5, trash)
    square = height - 4
    rounded_box(chip, (2, 2, 2 + square, 2 + square), 4, (236, 225, 198))
    _text_in_box(chip, (2, 2, 2 + square, 2 + square), str(value), round(square * 0.8), DARK_INK,
                bold=True)  # fmt: skip
    label = name if text_width(name, 12) <= width - square - 10 else _SHORT_TRASH.get(name, name)
    size = 13 if height >= 26 else 12
    _text_in_box(chip, (square + 6, 0, width - 4, height), label, size, INK, "left", 9)
    return chip


def _crenel_height(width: int) -> int:
    return max(8, min(16, width // 7))


@lru_cache(maxsize=256)
def _wall_sprite(width: int, height: int, state: str) -> Image.Image:
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
    image: Image.Image, obs: TrashWarObservation, seats: int, seat: int
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
        slot = _slot(seats, seat, index)
        top = wall_box(seats, seat, index)[1] - 24
        now = first is not None and first["target"] == seat and first["wall"] == position
        text = "+".join(str(v) for v in values) if len(values) > 1 else str(values[0])
        label = f"INCOMING {text}"
        width = min(slot[2] - slot[0], round(text_width(label, 13)) + 34)
        cx = (slot[0] + slot[2]) // 2
        pill = (cx - width // 2, top, cx + width // 2, top + 21)
        rounded_box(image, pill, 9, FLIGHT_NOW if now else DANGER, INK if now else None, 2)
        arrow_x = pill[0] + 12
        ImageDraw.Draw(image).polygon(
            [(arrow_x - 6, top + 6), (arrow_x + 6, top + 6), (arrow_x, top + 16)], fill=INK
        )
        _text_in_box(image, (pill[0] + 20, top, pill[2] - 6, top + 21), label, 13, INK, min_size=9,
                    bold=True)  # fmt: skip


def _grey_out(image: Image.Image, box: Box, label: str) -> None:
    """A knight who is out: their fortress in dim grey, stamped with their place."""
    region = image.crop(box)
    grey = ImageOps.grayscale(region).point(lambda v: 14 + v * 0.55)
    image.paste(Image.merge("RGB", (grey, grey, grey)), box[:2])
    left, top, right, bottom = box
    cx, cy = (left + right) // 2, (top + bottom) // 2 + 20
    text = label.split(" - ", 1)[-1].upper() if " - " in label else label
    stamp = f"OUT - {text}" if text != "OUT" else "OUT"
    width = round(text_width(stamp, 26)) + 40
    rounded_box(image, (cx - width // 2, cy - 22, cx + width // 2, cy + 22), 10, OUT_STAMP, INK, 2)
    _draw_text(image, (cx, cy), stamp, 26, INK, "mm", bold=True)


# --- flight and piles -------------------------------------------------------------------


def _draw_flight(image: Image.Image, obs: TrashWarObservation, names: list[str]) -> None:
    left, top, right, bottom = flight_box(obs["seats"])
    items = [(f, "now" if i == 0 else "next") for i, f in enumerate(obs["incoming"])]
    items += [(f, "held") for f in obs["held"]]
    area = (left, top + 22, right, bottom)
    if not items:
        _text_in_box(image, area, "Nothing in the air.", 17, MUTED, "left")
        return
    if obs["held"]:
        note = "batted trash waits for the defence to end"
        _text_in_box(image, (left + 90, top, right, top + 18), note, 12, MUTED, "right", 10)
    wide = len(items) <= 3
    step = (right - left) // len(items) if not wide else min(182, (right - left) // len(items))
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
    tag = {"now": "BEING MET", "next": "NEXT", "held": "BATTED"}[kind]
    tag_colour = FLIGHT_NOW if kind == "now" else TORCH if kind == "held" else MUTED
    if wide:
        card = card_sprite(flight["card"], MINI_CARD)
        image.paste(card, (left + 2, top + 2), card)
        x = left + MINI_CARD[0] + 10
        _text_in_box(image, (x, top, right - 2, top + 16), tag, 12, tag_colour, "left", 9)
        disc(image, (x + 7, top + 29), 14, player_colour(flight["target"]), CARD_EDGE, 1)
        _text_in_box(image, (x + 18, top + 18, right - 2, top + 40), f"at {target}", 16, INK,
                    "left", 11, bold=True)  # fmt: skip
        _text_in_box(image, (x, top + 42, right - 2, top + 60), f"{flight['wall']} wall", 14, INK,
                    "left", 10)  # fmt: skip
        _text_in_box(image, (x, top + 62, right - 2, top + 80), f"from {sender}", 13, MUTED,
                    "left", 9)  # fmt: skip
        return
    size = (48, 67)
    card = card_sprite(flight["card"], size)
    cx = (left + right) // 2
    image.paste(card, (cx - size[0] // 2, top + 2), card)
    _text_in_box(image, (left, top + 70, right, top + 86), target, 13, INK, min_size=9, bold=True)
    _text_in_box(image, (left, top + 86, right, top + 102), f"{flight['wall']} - {tag.lower()}",
                11, tag_colour if kind != "next" else MUTED, min_size=8)  # fmt: skip


def _draw_piles(image: Image.Image, obs: TrashWarObservation) -> None:
    left, top, _, bottom = piles_box(obs["seats"])
    card_top = top + 22
    count_top = card_top + MINI_CARD[1] + 4
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
            card = card_sprite(top_card, MINI_CARD)
            image.paste(card, (x, card_top), card)
            if key == "torched":
                mark = flame_mark(24)
                image.paste(mark, (x + MINI_CARD[0] - 8, card_top + MINI_CARD[1] - 20), mark)
        _pile_count(image, x, count_top, size)
    x = left + PILE_COLUMNS["out"]
    out_box = (x, card_top, x + 74, card_top + MINI_CARD[1])
    rounded_box(image, out_box, 10, shade(BACKDROP, 0.8), PANEL_EDGE, 2)
    _text_in_box(image, out_box, str(obs["out_size"]), 30, INK if obs["out_size"] else MUTED,
                bold=True)  # fmt: skip
    _text_in_box(image, (x, count_top, x + 74, count_top + 22), "cards gone", 12, MUTED)
    _draw_torch_phase(image, obs["torch_phase"], left + PILE_COLUMNS["phase"], card_top, bottom)


def _empty_pile(image: Image.Image, x: int, top: int) -> None:
    box = (x, top, x + MINI_CARD[0], top + MINI_CARD[1])
    rounded_box(image, box, 6, PANEL_EDGE)
    rounded_box(image, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), 5, PANEL)
    _text_in_box(image, box, "empty", 12, MUTED)


def _pile_count(image: Image.Image, x: int, top: int, count: int) -> None:
    _text_in_box(image, (x - 4, top, x + MINI_CARD[0] + 8, top + 22), str(count), 20,
                INK if count else MUTED, bold=True)  # fmt: skip


def _draw_torch_phase(image: Image.Image, phase: int, left: int, top: int, bottom: int) -> None:
    """Three torches for phases 1, 2 and 3+, the current one lit."""
    current = min(max(phase, 1), 3)
    for index, label in enumerate(("1", "2", "3+")):
        cx = left + 20 + index * 46
        lit = index + 1 == current
        box = (cx - 20, top, cx + 20, top + 62)
        if lit:
            rounded_box(image, box, 10, shade(EMBER, 0.4), TORCH, 2)
        mark = _torch(lit)
        image.paste(mark, (cx - mark.width // 2, top + 4), mark)
        _draw_text(image, (cx, top + 50), label, 16, TORCH if lit else MUTED, "mm", bold=lit)
    hint = {
        1: "1-torch cards get torched",
        2: "all torch cards get torched",
        3: "torch cards leave the game",
    }[current]
    _text_in_box(image, (left - 2, top + 66, left + 142, top + 100), hint, 12, MUTED, "left", 9)


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


# --- the hand picture's strip: the player's own walls ------------------------------------


def _hand_note(obs: TrashWarObservation) -> str:
    seat = obs["seat"]
    if seat is None:
        return "The public view holds no hand."
    at_me = [f for f in obs["incoming"] if f["target"] == seat]
    if obs["finished"]:
        return "The war is over."
    if seat < len(obs["players"]) and not obs["players"][seat]["in_game"]:
        return "Your fortress has fallen: you are out of the war."
    if at_me:
        walls: dict[str, list[str]] = {}
        for f in at_me:
            walls.setdefault(f["wall"], []).append(_a(f["card"]))
        parts = [f"{_and(cards)} at your {wall} wall" for wall, cards in walls.items()]
        head = "Incoming: " if seat in obs["to_act"] else "Flying at you: "
        return head + "; ".join(parts)
    if seat in obs["to_act"]:
        return {
            "burn": "Burn trash off your walls, repair a fallen wall, or pass.",
            "attack": "Your attack: throw trash at any standing wall.",
            "drawn": "Throw the Trash card you drew.",
            "bat": "Choose where the batted trash flies.",
        }.get(obs["phase"], "Your move.")
    return "Not your move yet."


def _draw_own_walls(image: Image.Image, obs: TrashWarObservation, box: Box) -> None:
    seat = obs["seat"]
    left, top, right, bottom = box
    rounded_box(image, box, 14, PANEL, PANEL_EDGE, 2)
    if seat is None or not 0 <= seat < len(obs["players"]):
        return
    walls = obs["players"][seat]["walls"]
    width = (right - left - 24 - 2 * 12) // 3
    for index, wall in enumerate(walls[:3]):
        x = left + 12 + index * (width + 12)
        _own_wall(image, (x, top + 10, x + width, bottom - 10), wall["position"],
                  wall["standing"], wall["damage"], wall["trash"])  # fmt: skip


def _own_wall(
    image: Image.Image,
    box: Box,
    position: str,
    standing: bool,
    damage: int,
    trash: list[CardView],
) -> None:
    left, top, right, bottom = box
    wall_w, wall_h = 70, bottom - top - 4
    sprite = _wall_sprite(wall_w, wall_h, _wall_state(standing, damage))
    image.paste(sprite, (left, top + 2), sprite)
    ImageDraw.Draw(image).rectangle((left - 3, bottom - 2, left + wall_w + 2, bottom), fill=GROUND)
    x = left + wall_w + 12
    _draw_text(image, (x, top + 12), position.upper(), 15, MUTED, "lm")
    colour = HEAT.get(min(damage, 3), DANGER) if standing else DANGER
    gauge = f"{damage}/4" if standing else "TOPPLED"
    _text_in_box(image, (x, top + 24, right - 4, top + 56), gauge, 30 if standing else 20, colour,
                "left", bold=True)  # fmt: skip
    if standing:
        pip_w = 22
        draw = ImageDraw.Draw(image)
        for pip in range(4):
            px = x + 68 + pip * (pip_w + 3)
            if px + pip_w > right - 4:
                break
            fill = colour if pip < damage else GAUGE_EMPTY
            draw.rectangle((px, top + 34, px + pip_w - 1, top + 44), fill=fill)
    if trash:
        listed = ", ".join(f"{c['name']} {c['value']}" for c in trash)
    else:
        listed = "no trash on it" if standing else "Repair Wall raises it again"
    _text_in_box(image, (x, top + 60, right - 4, bottom - 4), listed, 14, INK if trash else MUTED,
                "left", 10)  # fmt: skip

"""Dumpster Brawl!'s hand picture, `draw_hand`: a player's own cards grouped by kind, sets
highlighted, Slugs and Boosters explained, and how far the hand is from winning.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from lang import ENGLISH, say
from render.brawl.icons import (
    BLOCKER_COLOUR,
    BLOCKER_TEXT,
    BOOSTER_TEXT,
    SET_FILL,
    SET_GLOW,
    SLUG_FILL,
    card_sprite,
)
from render.brawl.table import kind_order
from render.brawl.words import character_name, wrap
from render.common import (
    CARD_EDGE,
    DARK_INK,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    TORCH,
    Box,
    Colour,
    Size,
    disc,
    display_name,
    draw_text,
    least_size,
    no_cards,
    own_picture,
    rounded_box,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from rules.brawl.observation import BrawlObservation, CardView
from rules.brawl.words import card as card_word
from rules.phrases import Phrase, listing, phrase, phrase_in, phrase_n

# --- the hand -------------------------------------------------------------------------------

HAND_W = 1000
HAND_CARD: Size = (104, 146)
FAN_STEP = 22  # how far each further card of a group peeks out
MAX_FANNED = 6
GROUP_GAP = 14
GROUP_PAD = 8
HAND_TEXT = least_size(HAND_W)  # the least font size on the hand (20 px)
GROUP_W = 180  # the least width of a group: its words wrap inside it
TITLE_H, LINE_H, MAX_LINES = 26, 23, 4  # a group's label under its cards
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
                               kind_order(g.key), g.key))  # fmt: skip
    return groups


def hand_verdict(obs: BrawlObservation, language: str = ENGLISH) -> str:
    """How close the hand is to winning, in one line."""
    return say(_verdict(obs)[0], language)


def _verdict(obs: BrawlObservation) -> tuple[Phrase, bool]:
    """The verdict's words, and whether the hand wins."""
    if obs["mode"] == "rummy":
        seat = obs["seat"]
        laid = len(obs["laid"][seat]) if seat is not None and seat < len(obs["laid"]) else 0
        points = obs["points"][seat] if seat is not None and seat < len(obs["points"]) else 0
        ready = sum(1 for g in hand_groups(obs) if g.is_set)
        head = phrase_n(
            "Rummy: your scoring area holds {n} card ({points})",
            "Rummy: your scoring area holds {n} cards ({points})",
            laid,
            points=phrase_n("{n} point", "{n} points", points),
        )
        if not ready:
            return head, False
        to_lay = phrase_n("{n} set", "{n} sets", ready)
        return phrase("{head}; {sets} in hand to lay down", head=head, sets=to_lay), False
    groups = hand_groups(obs)
    sets = sum(1 for g in groups if g.is_set)
    slugs = sum(g.count for g in groups if g.type == "slug")
    boosters = sum(g.count for g in groups if g.type in ("booster", "blocker"))
    odd = sum(g.count for g in groups if g.type == "trash" and not g.is_set)
    if not groups:
        return phrase("No cards in hand."), False
    if sets >= 3 and not slugs and not boosters and not odd:
        return phrase_n(
            "{n} set and nothing else: a winning hand!",
            "{n} sets and nothing else: a winning hand!",
            sets,
        ), True
    parts = [phrase_n("{n} set", "{n} sets", sets)]
    if slugs:
        parts.append(phrase_n("{n} Slug", "{n} Slugs", slugs))
    if boosters:
        parts.append(phrase_n("{n} Booster", "{n} Boosters", boosters))
    if odd:
        parts.append(phrase_n("{n} odd card", "{n} odd cards", odd))
    if sets < 3:
        why = phrase_n("{n} more set needed", "{n} more sets needed", 3 - sets)
    else:
        why = phrase("the rest must go first")
    return phrase("{parts}: not a winning hand ({why})", parts=listing(parts), why=why), False


def _group_size(group: Group, language: str) -> Size:
    fanned = min(group.count, MAX_FANNED)
    width = max(HAND_CARD[0] + (fanned - 1) * FAN_STEP + 2 * GROUP_PAD, GROUP_W)
    label_h = TITLE_H + LINE_H * len(_note_lines(group, width, language)) + 10
    return width, HAND_CARD[1] + 2 * GROUP_PAD + label_h


def _note_lines(group: Group, width: int, language: str) -> list[str]:
    return wrap(_group_words(group, language)[1], width - 12, HAND_TEXT)[:MAX_LINES]


def hand_layout(groups: list[Group], language: str = ENGLISH) -> list[tuple[Group, Box]]:
    """Groups placed left to right, wrapping to new rows within HAND_W; rows centred."""
    rows: list[list[tuple[Group, Size]]] = [[]]
    used = 0
    usable = HAND_W - 32
    for group in groups:
        size = _group_size(group, language)
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


def draw_hand(obs: BrawlObservation, name: str, language: str = ENGLISH) -> bytes:
    """A player's own cards as PNG bytes, grouped by kind, sets highlighted, its words in
    `language`."""
    return to_png(hand_image(obs, name, language))


def hand_image(obs: BrawlObservation, name: str, language: str = ENGLISH) -> Image.Image:
    """The "My hand" picture as an image (for tests and previews)."""

    def said(words: Phrase) -> str:
        return say(words, language)

    groups = hand_groups(obs)
    placed = hand_layout(groups, language)
    cards_bottom = max((box[3] for _, box in placed), default=HAND_TOP + 120)
    height = cards_bottom + 12 + 40 + 14
    count = len(obs["hand"] or [])
    seat = obs["seat"]
    who_line = display_name(name, said(phrase("You")))
    if seat is not None and 0 <= seat < len(obs["characters"]):
        who_line = f"{character_name(obs, seat, language)} ({who_line})"
    cards = phrase_n("{who} - {n} card", "{who} - {n} cards", count, who=who_line)
    image = own_picture((HAND_W, height), said(phrase("Your hand")), said(cards))
    if not placed:
        no_cards(image, (24, HAND_TOP, HAND_W - 24, HAND_TOP + 120), 16, 24)
    affinity = own_affinity(obs)
    for group, box in placed:
        _draw_group(image, obs, group, box, affinity, language)
    words, winning = _verdict(obs)
    verdict = said(words)
    box = (16, cards_bottom + 12 - GROUP_GAP, HAND_W - 16, cards_bottom + 52 - GROUP_GAP)
    rounded_box(image, box, 12, SET_FILL if winning else PANEL, SET_GLOW if winning else PANEL_EDGE,
                2)  # fmt: skip
    _text(image, (box[0] + 16, box[1], box[2] - 16, box[3]), verdict, 20,
          TORCH if winning else INK, "left", HAND_TEXT, bold=True)  # fmt: skip
    return image.crop((0, 0, HAND_W, box[3] + 12))


def _draw_group(
    image: Image.Image,
    obs: BrawlObservation,
    group: Group,
    box: Box,
    affinity: str,
    language: str,
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
    sprite = card_sprite(view, HAND_CARD, affinity, HAND_TEXT, language)  # the label says it
    for index in range(fanned):
        image.paste(sprite, (x0 + index * FAN_STEP, top + GROUP_PAD), sprite)
    if group.count > 1:  # the count on a badge at the top card's corner
        cx, cy = x0 + fan_w - 8, top + GROUP_PAD + HAND_CARD[1] - 12
        disc(image, (cx, cy), 30, TORCH if not group.is_set else SET_GLOW, CARD_EDGE, 2)
        draw_text(image, (cx, cy), f"{group.count}", HAND_TEXT, DARK_INK, "mm", bold=True,
                  cache=True)  # fmt: skip
    label_top = top + GROUP_PAD + HAND_CARD[1] + 2
    title, _, colour = _group_words(group, language)
    _text(image, (left + 6, label_top, right - 6, label_top + TITLE_H), title, HAND_TEXT,
          SET_GLOW if group.is_set else INK, bold=True)  # fmt: skip
    for index, line in enumerate(_note_lines(group, right - left, language)):
        y = label_top + TITLE_H + index * LINE_H
        _text(image, (left + 6, y, right - 6, y + LINE_H), line, HAND_TEXT, colour)


def group_title(group: Group, language: str = ENGLISH) -> str:
    """A group's name and count: "Pizza Box x3"."""
    name = card_word(group.name)
    if group.count == 1 and group.type not in ("trash", "slug"):
        return say(name, language)
    return say(phrase("{card} x{n}", card=name, n=group.count), language)


def _group_words(group: Group, language: str) -> tuple[str, str, Colour]:
    """A group's label: its name and count, and a note (set, progress, what it does)."""
    title = group_title(group, language)
    if group.type == "trash":
        if group.is_set:
            mark = phrase("SET (affinity)") if group.needed == 2 else phrase("SET")
            return title, say(mark, language), SET_GLOW
        short = group.needed - group.count
        return title, say(phrase("{n} more for a set", n=short), language), MUTED
    if group.type == "slug":
        return title, say(phrase("blocks a win: get rid of it"), language), (240, 120, 100)
    special = BOOSTER_TEXT.get(group.key) or BLOCKER_TEXT.get(group.key)
    note = ""  # the card's face is too small to say it: the label does
    if special:
        note = say(
            phrase(
                "{when}: {effect}",
                when=phrase_in("card timing", special.when),
                effect=phrase_in("card effect", special.effect),
            ),
            language,
        )
    return title, note, (150, 190, 240)

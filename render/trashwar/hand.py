"""Trash War's hand picture, `draw_hand`: a knight's own cards in rows, a note on what to do,
and a strip with the knight's own walls.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from lang import ENGLISH
from render.common import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    Box,
    Size,
    display_name,
    no_cards,
    own_picture,
    record,
    rounded_box,
    see_through,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.trashwar.cards import card_sprite
from render.trashwar.fortress import wall_sprite, wall_state
from render.trashwar.layout import (
    DANGER,
    GAUGE_EMPTY,
    GROUND,
    HAND_CARD,
    HAND_GAP,
    HAND_PER_ROW,
    HAND_STRIP_H,
    HAND_TEXT,
    HAND_TOP,
    HAND_W,
    HEAT,
)
from render.trashwar.words import a_card, in_language, short_trash, wall_label, wall_named
from rules.phrases import Filling, listing, phrase, phrase_n
from rules.trashwar.observation import CardView, TrashWarObservation
from rules.trashwar.words import joined


def draw_hand(obs: TrashWarObservation, name: str, language: str = ENGLISH) -> bytes:
    """A player's own cards as PNG bytes, with their walls' state underneath, its words in
    `language`."""
    return to_png(hand_image(obs, name, language))


def hand_image(obs: TrashWarObservation, name: str, language: str = ENGLISH) -> Image.Image:
    """The "My hand" picture as an image (for tests and previews)."""
    hand = obs["hand"] or []
    width, height = hand_size_px(len(hand))
    you = display_name(name, in_language(phrase("You"), language))
    cards = in_language(phrase_n("{n} card", "{n} cards", len(hand)), language)
    note = f"{you} - {cards}"
    image = own_picture((width, height), in_language(phrase("Your hand"), language), note)
    if not hand:
        none = in_language(phrase("No cards in hand"), language)
        no_cards(image, (24, HAND_TOP, HAND_W - 24, HAND_TOP + HAND_CARD[1]), 18, 26, none)
    playable = obs.get("playable") or [True] * len(hand)
    for index, card in enumerate(hand):
        box = hand_card_box(len(hand), index)
        sprite = card_sprite(card, HAND_CARD, HAND_TEXT, language)
        if index < len(playable) and not playable[index]:
            sprite = see_through(sprite, 0.4)  # no move open now plays it: dimmed
            record.note("dimmed", box, card["code"])
        image.paste(sprite, box[:2], sprite)
    note_top = height - 12 - HAND_STRIP_H - 44
    _text_in_box(
        image,
        (24, note_top, HAND_W - 24, note_top + 28),
        in_language(_hand_note(obs), language),
        20,
        INK,
        "left",
        HAND_TEXT,
    )
    _draw_own_walls(image, obs, (16, note_top + 34, HAND_W - 16, height - 12), language)
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


# --- the hand picture's strip: the player's own walls ------------------------------------


def _hand_note(obs: TrashWarObservation) -> Filling:
    seat = obs["seat"]
    if seat is None:
        return phrase("The public view holds no hand.")
    at_me = [f for f in obs["incoming"] if f["target"] == seat]
    if obs["finished"]:
        return phrase("The war is over.")
    if seat < len(obs["players"]) and not obs["players"][seat]["in_game"]:
        return phrase("Your fortress has fallen: you are out of the war.")
    if at_me:
        walls: dict[str, list[Filling]] = {}
        for f in at_me:
            walls.setdefault(f["wall"], []).append(a_card(f["card"]))
        parts: list[Filling] = [
            phrase("{cards} at your {wall}", cards=listing(cards), wall=wall_named(wall))
            for wall, cards in walls.items()
        ]
        what = joined(parts, comma=False)
        if seat in obs["to_act"]:
            return phrase("Incoming: {what}", what=what)
        return phrase("Flying at you: {what}", what=what)
    if seat in obs["to_act"]:
        return {
            "burn": phrase("Burn trash off your walls, repair a fallen wall, or pass."),
            "attack": phrase("Your attack: throw trash at any standing wall."),
            "drawn": phrase("Throw the Trash card you drew."),
            "bat": phrase("Choose where the batted trash flies."),
        }.get(obs["phase"], phrase("Your move."))
    return phrase("Not your move yet.")


def _draw_own_walls(image: Image.Image, obs: TrashWarObservation, box: Box, language: str) -> None:
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
                  wall["standing"], wall["damage"], wall["trash"], language)  # fmt: skip


def _own_wall(
    image: Image.Image,
    box: Box,
    position: str,
    standing: bool,
    damage: int,
    trash: list[CardView],
    language: str,
) -> None:
    left, top, right, bottom = box
    wall_w, wall_h = 70, bottom - top - 4
    sprite = wall_sprite(wall_w, wall_h, wall_state(standing, damage))
    image.paste(sprite, (left, top + 2), sprite)
    ImageDraw.Draw(image).rectangle((left - 3, bottom - 2, left + wall_w + 2, bottom), fill=GROUND)
    x = left + wall_w + 12
    label = in_language(wall_label(position), language).upper()
    _draw_text(image, (x, top + 12), label, HAND_TEXT, MUTED, "lm")
    colour = HEAT.get(min(damage, 3), DANGER) if standing else DANGER
    gauge = f"{damage}/4" if standing else in_language(phrase("TOPPLED"), language)
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
    if trash:  # short names: the list must fit one legible line
        pieces: list[Filling] = [
            phrase("{trash} {damage}", trash=short_trash(c["name"]), damage=c["value"])
            for c in trash
        ]
        listed = in_language(joined(pieces), language)
    else:
        said = phrase("no trash on it") if standing else phrase("Repair Wall raises it")
        listed = in_language(said, language)
    _text_in_box(image, (x, top + 60, right - 4, bottom - 4), listed, HAND_TEXT,
                 INK if trash else MUTED, "left")  # fmt: skip

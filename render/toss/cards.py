"""Toss It in the Trash's hand picture, `draw_cards`: a player's own cards and the card laid
down this round, with the cached card and mouse sprites.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from lang import ENGLISH, say
from render.common import (
    HIGHLIGHT,
    MUTED,
    PANEL_EDGE,
    SUPERSAMPLE,
    TORCH,
    CardFace,
    Colour,
    Size,
    card_image,
    display_name,
    no_cards,
    own_picture,
    rounded_box,
    shade,
    to_png,
)

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_draw_text as _draw_text
from render.common import cached_text_in_box as _text_in_box
from render.toss.layout import CARD_GAP, CARD_SIZE, PIECE_EDGE, SEAT_COLOURS, UNKNOWN_SEAT_COLOUR
from render.toss.pieces import rgba
from rules.phrases import phrase, phrase_n
from rules.toss.observation import TossObservation
from rules.toss.words import COLOUR, colour_name


def draw_cards(obs: TossObservation, name: str, language: str = ENGLISH) -> bytes:
    """A player's own cards as PNG bytes: their hand and the card laid down this round, its
    words in `language` (the player's)."""
    return to_png(cards_image(obs, name, language))


def cards_image(obs: TossObservation, name: str, language: str = ENGLISH) -> Image.Image:
    """The private cards picture as an image (for tests)."""
    hand = list(obs["hand"] or [])
    choice = obs["my_choice"]
    seat = obs["seat"]
    colour_word = obs["colours"][seat] if seat is not None and seat < len(obs["colours"]) else ""
    mice = obs["mice"][seat] if seat is not None and seat < len(obs["mice"]) else 0
    colour = SEAT_COLOURS.get(colour_word, UNKNOWN_SEAT_COLOUR)
    width, height = cards_size(len(hand), choice is not None)
    who = display_name(name, say(phrase("You"), language))
    in_hand = phrase_n(
        "{name} - {n} card in hand", "{name} - {n} cards in hand", len(hand), name=who
    )
    image = own_picture(
        (width, height), say(phrase("Your cards"), language), say(in_hand, language)
    )
    top = 60
    _draw_text(image, (24, top), say(phrase("IN HAND"), language), 15, TORCH, "la")
    cards_top = top + 26
    # The card's header: its colour's word, in capitals.
    header = say(colour_name(colour_word) if colour_word in COLOUR else phrase("CARD"), language)
    header = header.upper()
    if not hand:
        box = (24, cards_top, 24 + 2 * CARD_SIZE[0] + CARD_GAP, cards_top + CARD_SIZE[1])
        no_cards(image, box, 14, 20)
    for index, card in enumerate(hand):
        sprite = _card_sprite(card, header, colour, mice, CARD_SIZE)
        image.paste(sprite, (24 + index * (CARD_SIZE[0] + CARD_GAP), cards_top), sprite)
    if choice is not None:
        left = width - 24 - CARD_SIZE[0]
        draw = ImageDraw.Draw(image)
        draw.line((left - 22, top + 4, left - 22, cards_top + CARD_SIZE[1]), PANEL_EDGE, 2)
        _draw_text(image, (left, top), say(phrase("LAID DOWN"), language), 15, TORCH, "la")
        frame = (left - 6, cards_top - 6, left + CARD_SIZE[0] + 6, cards_top + CARD_SIZE[1] + 6)
        rounded_box(image, frame, 16, HIGHLIGHT)
        sprite = _card_sprite(choice, header, colour, mice, CARD_SIZE)
        image.paste(sprite, (left, cards_top), sprite)
    if seat is None:
        note = say(phrase("Only players have cards."), language)
    else:
        show = phrase_n(
            "{colour} cards show {n} mouse: on equal numbers, fewer mice go first.",
            "{colour} cards show {n} mice: on equal numbers, fewer mice go first.",
            mice,
            colour=colour_name(colour_word),
        )
        said = say(show, language)
        note = said[:1].upper() + said[1:]  # the colour's word may start the sentence
        if choice is None and obs["phase"] == "choose":  # the prompt on a line of its own
            prompt = say(phrase("Lay down one card face down."), language)
            box = (24, height - 64, width - 24, height - 40)
            _text_in_box(image, box, prompt, 16, HIGHLIGHT, "left", 11)
    _text_in_box(image, (24, height - 40, width - 24, height - 12), note, 16, MUTED, "left", 11)
    return image


def cards_size(hand: int, chosen: bool) -> Size:
    """The size of the private cards picture for `hand` cards (and the laid-down one)."""
    cards = max(hand, 2) * (CARD_SIZE[0] + CARD_GAP) - CARD_GAP
    width = 24 + cards + (44 + CARD_SIZE[0] if chosen else 0) + 24
    return max(width, 460), 60 + 26 + CARD_SIZE[1] + 80  # two lines of words under the cards


# --- cards -------------------------------------------------------------------------------


@lru_cache(maxsize=128)
def _card_sprite(value: int, header: str, colour: Colour, mice: int, size: Size) -> Image.Image:
    """A hand card: the colour's `header`, the number big, a mouse for each mouse on it."""
    face = CardFace(header, colour, str(value), body=shade(colour, 1.72))
    sprite = card_image(face, *size).copy()
    mouse = mouse_sprite(24, shade(colour, 0.45))
    total = mice * 22
    x = (size[0] - total) // 2
    y = round(size[1] * 0.74)
    for _ in range(mice):
        sprite.alpha_composite(mouse, (x, y))
        x += 22
    return sprite


@lru_cache(maxsize=32)
def mouse_sprite(width: int, colour: Colour) -> Image.Image:
    """A little mouse facing right (RGBA, `width` wide, two thirds as tall)."""
    k = SUPERSAMPLE
    w, h = width * k, round(width * 0.7) * k
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    fill = rgba(colour)
    draw.line(
        [(w * 0.02, h * 0.55), (w * 0.1, h * 0.85), (w * 0.25, h * 0.8)],
        fill=fill,
        width=k * 2,
        joint="curve",
    )
    draw.ellipse((w * 0.18, h * 0.35, w * 0.78, h * 0.95), fill=fill)  # body
    draw.polygon([(w * 0.6, h * 0.4), (w * 0.98, h * 0.75), (w * 0.62, h * 0.92)], fill=fill)
    draw.ellipse((w * 0.52, h * 0.12, w * 0.74, h * 0.5), fill=fill)  # ear
    draw.ellipse((w * 0.57, h * 0.2, w * 0.69, h * 0.42), fill=rgba((226, 150, 160)))
    draw.ellipse((w * 0.8, h * 0.55, w * 0.86, h * 0.63), fill=rgba(PIECE_EDGE))  # eye
    return sprite.reduce(k)

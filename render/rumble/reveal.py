"""Rumble's private and closing pictures: `draw_secret`, a player's two secret characters with
where each is now, and `draw_reveal`, the end of a rumble with every player's characters, their
fates and points.
"""

from __future__ import annotations

from PIL import Image

from lang import ENGLISH
from render.common import (
    BACKDROP,
    EMBER,
    INK,
    MUTED,
    PANEL,
    STONE_DARK,
    TORCH,
    Box,
    disc,
    display_name,
    draw_text,
    ink_for,
    own_picture,
    rounded_box,
    shade,
    text_in_box,
    title_bar,
    to_png,
)
from render.common.words import player_colour, player_name
from render.rumble.layout import (
    CHARACTER_COLOURS,
    REVEAL_TEXT,
    REVEAL_WIDTH,
    SECRET_SIZE,
    WALL_EDGE,
    character_name,
    label_fit,
    said,
)
from render.rumble.sprites import paste_token
from rules.phrases import Phrase, language_of, phrase
from rules.rumble.characters import named, place
from rules.rumble.observation import RumbleObservation, RumbleResult


def draw_secret(obs: RumbleObservation, name: str, language: str = ENGLISH) -> bytes:
    """A player's two secret characters, big, with where each is now, in their `language`.
    PNG bytes."""
    title = said(phrase("Your secret characters"), language)
    image = own_picture(SECRET_SIZE, title, display_name(name, ""))
    secret = obs["secret"] or []
    if not secret:  # the public view has no secret to show
        nothing = said(phrase("No secret characters"), language)
        text_in_box(image, (16, 64, SECRET_SIZE[0] - 16, 352), nothing, 24, MUTED)
    for index, key in enumerate(secret[:2]):
        left = 24 + index * 304
        where = said(_whereabouts(obs, key), language)
        _secret_card(image, (left, 64, left + 288, 352), key, where, language)
    note = said(
        phrase(
            "Rumble {rumble} of 3 - only your better character scores. Keep it quiet!",
            rumble=obs["rumble"],
        ),
        language,
    )
    text_in_box(image, (16, 360, SECRET_SIZE[0] - 16, 392), note, 15, MUTED, min_size=11)
    return to_png(image)


def draw_reveal(result: RumbleResult, names: list[str]) -> bytes:
    """The end-of-rumble reveal: each player's two characters, which scored, and points."""
    language = language_of(names)
    seats = len(result["points"])
    image = Image.new("RGB", (REVEAL_WIDTH, 100 + seats * 64), BACKDROP)
    title = said(phrase("Rumble {rumble} - the reveal", rumble=result["rumble"]), language)
    title_bar(image, title, "", 48)
    summary = _reveal_summary(result, language)
    text_in_box(image, (20, 56, REVEAL_WIDTH - 20, 84), summary, REVEAL_TEXT, INK, "left")
    for seat in range(seats):  # each character's place out is in its row: no list of all
        top = 94 + seat * 64
        _reveal_row(image, (16, top, REVEAL_WIDTH - 16, top + 56), result, seat, names)
    return to_png(image)


# --- secret and reveal ------------------------------------------------------------------


def _whereabouts(obs: RumbleObservation, key: str) -> Phrase:
    """Where a character is now, from the public part of the observation."""
    if key in obs["positions"]:
        room = obs["positions"][key]
        if obs["chest"] == room:
            return phrase("In room {room}, with the chest", room=room)
        return phrase("In room {room}", room=room)
    if key == obs["chest_exited_with"]:
        return phrase("Escaped with the chest!")
    if key in obs["exit_line"]:
        return phrase("Out, {place}", place=place(obs["exit_line"].index(key) + 1))
    return phrase("Out of the dungeon")


def _secret_card(image: Image.Image, box: Box, key: str, where: str, language: str) -> None:
    colour = CHARACTER_COLOURS.get(key, (150, 150, 150))
    left, top, right, _ = box
    rounded_box(image, box, 18, PANEL, colour, 4)
    centre_x = (left + right) // 2
    paste_token(image, key, (centre_x, top + 110), 150, language)
    text_in_box(
        image,
        (left + 12, top + 196, right - 12, top + 236),
        character_name(key, language),
        30,
        INK,
        min_size=18,
    )
    text_in_box(image, (left + 12, top + 244, right - 12, top + 272), where, 17, MUTED, min_size=12)


def _reveal_summary(result: RumbleResult, language: str) -> str:
    last = phrase("Last one standing: {character}.", character=named(result["last_standing"]))
    chest = result["chest_exited_with"]
    if chest:
        fate = phrase("{character} escaped with the chest.", character=named(chest))
    else:
        fate = phrase("The chest stayed inside.")
    return f"{said(last, language)}   {said(fate, language)}"


def _fate(result: RumbleResult, key: str) -> Phrase | None:
    if key == result["chest_exited_with"]:
        return phrase("left with the chest")
    if key == result["last_standing"]:
        return phrase("last one standing")
    if key in result["exit_line"]:
        return phrase("out {place}", place=place(result["exit_line"].index(key) + 1))
    return None


def _reveal_row(
    image: Image.Image, box: Box, result: RumbleResult, seat: int, names: list[str]
) -> None:
    left, top, right, bottom = box
    rounded_box(image, box, 12, STONE_DARK)
    middle = (top + bottom) // 2
    disc(image, (left + 22, middle), 28, player_colour(seat), WALL_EDGE)
    number_ink = ink_for(player_colour(seat))
    draw_text(image, (left + 22, middle), str(seat + 1), REVEAL_TEXT, number_ink, "mm")
    name_box = (left + 44, top, left + 230, bottom)
    text_in_box(image, name_box, player_name(names, seat), 19, INK, "left", REVEAL_TEXT)
    secrets = result["secrets"][seat] if seat < len(result["secrets"]) else []
    best = result["best"][seat] if seat < len(result["best"]) else ""
    for index, key in enumerate(secrets[:2]):
        chip_left = left + 240 + index * 250
        chip = (chip_left, top + 4, chip_left + 240, bottom - 4)
        _reveal_character(image, chip, result, key, key == best, language_of(names))
    points = result["points"][seat]
    text_in_box(
        image,
        (right - 110, top, right - 14, bottom),
        f"+{points}",
        28,
        TORCH if points else MUTED,
        "right",
    )


def _reveal_character(
    image: Image.Image, box: Box, result: RumbleResult, key: str, scored: bool, language: str
) -> None:
    left, top, right, bottom = box
    if scored:
        rounded_box(image, box, 10, shade(EMBER, 0.4), TORCH, 2)
    middle = (top + bottom) // 2
    paste_token(image, key, (left + 24, middle), 38, language)
    ink = INK if scored else MUTED
    name_box = (left + 50, top, right - 8, middle + 1)
    text, size = label_fit(key, name_box[2] - name_box[0], REVEAL_TEXT, REVEAL_TEXT, language)
    text_in_box(image, name_box, text, size, ink, "left")
    # The one that scores is framed in gold: its fate alone fits beside it in any language.
    fate = _fate(result, key)
    shown = said(fate, language) if fate else ""
    fate_box = (left + 50, middle - 1, right - 8, bottom)
    text_in_box(image, fate_box, shown, REVEAL_TEXT, ink, "left")

"""Dumpster Brawl!'s words in the pictures: player and character names, the caption saying what
is being decided and what is left, and the text helpers (wrapping, chips).
"""

from __future__ import annotations

import re

from PIL import Image

from render.common import Colour, ink_for, rounded_box, text_width

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from render.common.words import player_name
from rules.brawl.observation import BrawlObservation
from rules.words import and_list, counted, plural

# --- names and words -------------------------------------------------------------------------


def character_name(obs: BrawlObservation, seat: int) -> str:
    characters = obs["characters"]
    return characters[seat]["name"] if 0 <= seat < len(characters) else "?"


# An AI seat's name: "Rusty (AI)", "Grime (AI, hard)".
AI_MARK = re.compile(r"(?P<player>.+) \((?P<mark>AI(, \w+)?)\)")


def who(obs: BrawlObservation, names: list[str], seat: int) -> str:
    """'Bandit (Alice)': the character first, as the animals are the ones brawling; an AI
    seat's 'Rusty (AI)' becomes 'Bandit (Rusty, AI)' rather than nesting brackets, and
    'Grime (AI, hard)' 'Bandit (Grime, AI, hard)'."""
    name = player_name(names, seat)
    marked = AI_MARK.fullmatch(name)
    if marked:
        name = f"{marked['player']}, {marked['mark']}"
    return f"{character_name(obs, seat)} ({name})"


MODE_NAMES = {
    "round-rummage": "Round Rummage",
    "king-of-the-heap": "King of the Heap",
    "rummy": "Round Rummage Rummy",
}


def title_note(obs: BrawlObservation) -> str:
    """The title bar's note: the turn, then the way to play named as one ("Turn 3 - playing
    Round Rummage"), so the mode's name is not read as a round."""
    mode = MODE_NAMES.get(obs["mode"], obs["mode"])
    return f"Turn {max(1, obs['turns'])} - playing {mode}"


def caption(obs: BrawlObservation, names: list[str]) -> str:
    """One line: what is being decided now, and what is left of it."""

    def name(seat: int) -> str:
        return who(obs, names, seat)

    if obs["finished"]:
        winners = obs["winners"]
        if not winners:
            return "The brawl is over."
        if is_draw(obs):
            return "The alley is exhausted: the brawl ends in a draw."
        if obs["mode"] == "rummy":
            points = obs["points"][winners[0]] if winners[0] < len(obs["points"]) else 0
            return f"{and_list([name(w) for w in winners])} wins with {counted(points, 'point')}!"
        return f"{and_list([name(w) for w in winners])} wins with a hand of sets!"
    actor = obs["to_act"][0] if obs["to_act"] else obs["turn"]
    phase = obs["phase"]
    if obs["truck"]:
        return f"Garbage Truck! {name(obs['truck'][0])} discards a card"
    if phase == "declare":
        return f"{name(actor)} declares: draw, discard, both or neither, then attacks"
    if phase == "pre":
        left = _left(obs["draws"], obs["discards"])
        return f"{name(actor)} rummages before attacking" + (f": {left} left" if left else "")
    if phase == "attack":
        if obs["mode"] == "king-of-the-heap" and obs["king"] >= 0:
            return f"{name(actor)} attacks the King, {name(obs['king'])}"
        return f"{name(actor)} picks an animal to attack"
    if phase == "defend":
        return f"{name(actor)} defends against {name(obs['turn'])}: Boosters or none"
    if phase == "wind":
        return f"{name(actor)} may reroll with Second Wind, or keep the dice"
    if phase == "spoils":
        verb = "beat" if obs["actor"] == obs["turn"] else "held off"
        foe = obs["defender"] if obs["actor"] == obs["turn"] else obs["turn"]
        left = f"{counted(obs['spoils'], 'take')} or {plural('give', obs['spoils'])}"
        return f"{name(obs['actor'])} {verb} {name(foe)}: {left} left"
    if phase == "rummage":
        left = _left(obs["draws"], obs["discards"])
        return f"{name(obs['actor'])} rummages the trash" + (f": {left} left" if left else "")
    if phase == "lay":
        return f"{name(actor)} lays cards down to score"
    return f"{name(actor)} to play"


def is_draw(obs: BrawlObservation) -> bool:
    """The turn limit ended a hand-of-sets game: every seat is listed as a winner."""
    return obs["finished"] and obs["mode"] != "rummy" and len(set(obs["winners"])) == obs["seats"]


def _left(draws: int, discards: int) -> str:
    parts = [counted(draws, "draw")] if draws else []
    parts += [counted(discards, "discard")] if discards else []
    return and_list(parts)


def phase_word(obs: BrawlObservation) -> str:
    return {
        "declare": "declaring",
        "pre": "drawing",
        "attack": "attacking",
        "defend": "defending",
        "wind": "Second Wind?",
        "spoils": "taking spoils",
        "rummage": "rummaging",
        "lay": "laying down",
    }.get(obs["phase"], "to play")


# --- text helpers -----------------------------------------------------------------------------


def wrap(text: str, width: int, size: int) -> list[str]:
    """`text` broken into lines of at most `width` pixels at `size` (greedy, by words)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def label_chip(
    image: Image.Image, x: int, y: int, text: str, fill: Colour, size: int, height: int = 26
) -> int:
    """A small rounded label, its text `size` px; returns its right edge."""
    width = chip_width(text, size)
    rounded_box(image, (x, y, x + width, y + height), height // 2, fill)
    _text(image, (x + 2, y, x + width - 1, y + height), text, size, ink_for(fill), bold=True)
    return x + width


def chip_width(text: str, size: int) -> int:
    return round(text_width(text, size)) + 18

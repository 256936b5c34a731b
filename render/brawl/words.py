"""Dumpster Brawl!'s words in the pictures: player and character names, the caption saying what
is being decided and what is left, and the text helpers (wrapping, chips).
"""

from __future__ import annotations

import re

from PIL import Image

from lang import ENGLISH, say
from render.common import Colour, ink_for, rounded_box, text_width

# Names and numbers recur on every picture: their text masks are cached.
from render.common import cached_text_in_box as _text
from render.common.words import player_name
from rules.brawl.observation import BrawlObservation
from rules.phrases import (
    Filling,
    Listing,
    Phrase,
    language_of,
    listing,
    phrase,
    phrase_in,
    phrase_n,
)

# --- names and words -------------------------------------------------------------------------


def said(words: Filling, names: list[str]) -> str:
    """Words in the readers' language, seats named as in `names`."""
    return say(words, language_of(names), names)


def character_name(obs: BrawlObservation, seat: int, language: str = ENGLISH) -> str:
    characters = obs["characters"]
    if not 0 <= seat < len(characters):
        return "?"
    return say(phrase_in("character", characters[seat]["name"]), language)


# An AI seat's name: "Rusty (AI)", "Grime (AI, hard)", "Rusty (IA, difficile)": the last
# brackets, whatever the language says in them.
AI_MARK = re.compile(r"(?P<player>.+) \((?P<mark>[^()]+)\)")


def who(obs: BrawlObservation, names: list[str], seat: int) -> str:
    """'Bandit (Alice)': the character first, as the animals are the ones brawling; an AI
    seat's 'Rusty (AI)' becomes 'Bandit (Rusty, AI)' rather than nesting brackets, and
    'Grime (AI, hard)' 'Bandit (Grime, AI, hard)'."""
    name = player_name(names, seat)
    marked = AI_MARK.fullmatch(name)
    if marked:
        name = f"{marked['player']}, {marked['mark']}"
    return f"{character_name(obs, seat, language_of(names))} ({name})"


MODE_NAMES = {
    "round-rummage": phrase_in("way to play", "Round Rummage"),
    "king-of-the-heap": phrase_in("way to play", "King of the Heap"),
    "rummy": phrase_in("way to play", "Round Rummage Rummy"),
}


def title_note(obs: BrawlObservation, language: str = ENGLISH) -> str:
    """The title bar's note: the turn, then the way to play named as one ("Turn 3 - playing
    Round Rummage"), so the mode's name is not read as a round."""
    mode = MODE_NAMES.get(obs["mode"], obs["mode"])
    return say(phrase("Turn {n} - playing {mode}", n=max(1, obs["turns"]), mode=mode), language)


def caption(obs: BrawlObservation, names: list[str]) -> str:
    """One line: what is being decided now, and what is left of it."""
    return said(_caption(obs, names), names)


def _caption(obs: BrawlObservation, names: list[str]) -> Phrase:
    def name(seat: int) -> str:
        return who(obs, names, seat)

    if obs["finished"]:
        winners = obs["winners"]
        if not winners:
            return phrase("The brawl is over.")
        if is_draw(obs):
            return phrase("The alley is exhausted: the brawl ends in a draw.")
        players = listing(name(w) for w in winners)
        if obs["mode"] == "rummy":
            points = obs["points"][winners[0]] if winners[0] < len(obs["points"]) else 0
            return phrase_n(
                "{players} wins with {n} point!",
                "{players} wins with {n} points!",
                points,
                players=players,
            )
        return phrase("{players} wins with a hand of sets!", players=players)
    actor = name(obs["to_act"][0] if obs["to_act"] else obs["turn"])
    phase = obs["phase"]
    if obs["truck"]:
        return phrase("Garbage Truck! {player} discards a card", player=name(obs["truck"][0]))
    if phase in ("pre", "rummage"):
        left = _left(obs["draws"], obs["discards"])
        rummager = actor if phase == "pre" else name(obs["actor"])
        if left is None:
            return RUMMAGING[phase](rummager)
        return phrase("{doing}: {left} left", doing=RUMMAGING[phase](rummager), left=left)
    if phase == "attack" and obs["mode"] == "king-of-the-heap" and obs["king"] >= 0:
        return phrase("{player} attacks the King, {king}", player=actor, king=name(obs["king"]))
    if phase == "defend":
        return phrase(
            "{player} defends against {attacker}: Boosters or none",
            player=actor,
            attacker=name(obs["turn"]),
        )
    if phase == "spoils":
        won = obs["actor"] == obs["turn"]
        foe = name(obs["defender"] if won else obs["turn"])
        spoils = obs["spoils"]
        takes = phrase_n("{n} take or give", "{n} takes or gives", spoils)
        if won:
            return phrase(
                "{player} beat {foe}: {left} left", player=name(obs["actor"]), foe=foe, left=takes
            )
        return phrase(
            "{player} held off {foe}: {left} left", player=name(obs["actor"]), foe=foe, left=takes
        )
    return Phrase(DOING.get(phase, DOING["over"]).text, {"player": actor})


# What the seat to act is doing, by the phase (the caption's line).
DOING = {
    "declare": phrase("{player} declares: draw, discard, both or neither, then attacks"),
    "attack": phrase("{player} picks an animal to attack"),
    "wind": phrase("{player} may reroll with Second Wind, or keep the dice"),
    "lay": phrase("{player} lays cards down to score"),
    "over": phrase("{player} to play"),
}
RUMMAGING = {
    "pre": lambda player: phrase("{player} rummages before attacking", player=player),
    "rummage": lambda player: phrase("{player} rummages the trash", player=player),
}


def is_draw(obs: BrawlObservation) -> bool:
    """The turn limit ended a hand-of-sets game: every seat is listed as a winner."""
    return obs["finished"] and obs["mode"] != "rummy" and len(set(obs["winners"])) == obs["seats"]


def _left(draws: int, discards: int) -> Listing | None:
    parts = [phrase_n("{n} draw", "{n} draws", draws)] if draws else []
    parts += [phrase_n("{n} discard", "{n} discards", discards)] if discards else []
    return listing(parts) if parts else None


PHASE_WORDS = {
    "declare": phrase_in("phase", "declaring"),
    "pre": phrase_in("phase", "drawing"),
    "attack": phrase_in("phase", "attacking"),
    "defend": phrase_in("phase", "defending"),
    "wind": phrase_in("phase", "Second Wind?"),
    "spoils": phrase_in("phase", "taking spoils"),
    "rummage": phrase_in("phase", "rummaging"),
    "lay": phrase_in("phase", "laying down"),
}


def phase_word(obs: BrawlObservation, language: str = ENGLISH) -> str:
    return say(PHASE_WORDS.get(obs["phase"], phrase_in("phase", "to play")), language)


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

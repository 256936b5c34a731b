"""The twelve characters (house rules: no special powers). Keys are what actions and
observations use; names are what players read, each marked for the catalogues in three
senses: the bare name (a button, a picture), with its article ("the Knight", inside a
sentence) and with its article starting a sentence ("The Knight"), since a language's article
follows the noun's gender and cannot be put before a name by the code. Also the places a
character may take in the exit line, as each language writes an ordinal."""

from __future__ import annotations

from rules.phrases import Phrase, phrase_in, term

NAME = "character"
WITH_ARTICLE = "character, with article"
STARTING = "character, with article, starting a sentence"

CHARACTERS: dict[str, str] = {
    "knight": term("character", "Knight"),
    "thief": term("character", "Thief"),
    "wizard": term("character", "Wizard"),
    "cleric": term("character", "Cleric"),
    "barbarian": term("character", "Barbarian"),
    "ranger": term("character", "Ranger"),
    "bard": term("character", "Bard"),
    "goblin": term("character", "Goblin"),
    "zombie": term("character", "Zombie"),
    "skeleton": term("character", "Skeleton"),
    "cube": term("character", "Gelatinous Cube"),
    "troll": term("character", "Troll"),
}

_THE: dict[str, str] = {
    "knight": term("character, with article", "the Knight"),
    "thief": term("character, with article", "the Thief"),
    "wizard": term("character, with article", "the Wizard"),
    "cleric": term("character, with article", "the Cleric"),
    "barbarian": term("character, with article", "the Barbarian"),
    "ranger": term("character, with article", "the Ranger"),
    "bard": term("character, with article", "the Bard"),
    "goblin": term("character, with article", "the Goblin"),
    "zombie": term("character, with article", "the Zombie"),
    "skeleton": term("character, with article", "the Skeleton"),
    "cube": term("character, with article", "the Gelatinous Cube"),
    "troll": term("character, with article", "the Troll"),
}

_THE_STARTING: dict[str, str] = {
    "knight": term("character, with article, starting a sentence", "The Knight"),
    "thief": term("character, with article, starting a sentence", "The Thief"),
    "wizard": term("character, with article, starting a sentence", "The Wizard"),
    "cleric": term("character, with article, starting a sentence", "The Cleric"),
    "barbarian": term("character, with article, starting a sentence", "The Barbarian"),
    "ranger": term("character, with article, starting a sentence", "The Ranger"),
    "bard": term("character, with article, starting a sentence", "The Bard"),
    "goblin": term("character, with article, starting a sentence", "The Goblin"),
    "zombie": term("character, with article, starting a sentence", "The Zombie"),
    "skeleton": term("character, with article, starting a sentence", "The Skeleton"),
    "cube": term("character, with article, starting a sentence", "The Gelatinous Cube"),
    "troll": term("character, with article, starting a sentence", "The Troll"),
}


# A place in the exit line, as each language writes an ordinal ("3rd", "3e", "3."). Twelve
# characters, so never more than eleven places are taken.
PLACE = "place in the exit line"
_PLACES: tuple[str, ...] = (
    term("place in the exit line", "1st"),
    term("place in the exit line", "2nd"),
    term("place in the exit line", "3rd"),
    term("place in the exit line", "4th"),
    term("place in the exit line", "5th"),
    term("place in the exit line", "6th"),
    term("place in the exit line", "7th"),
    term("place in the exit line", "8th"),
    term("place in the exit line", "9th"),
    term("place in the exit line", "10th"),
    term("place in the exit line", "11th"),
    term("place in the exit line", "12th"),
)


def place(n: int) -> Phrase:
    """The `n`th place in the exit line (from 1), said in the reader's language."""
    return phrase_in(PLACE, _PLACES[n - 1])


def named(character: str) -> Phrase:
    """The character's bare name, as a button or a picture shows it: "Knight"."""
    return phrase_in(NAME, CHARACTERS[character])


def the(character: str, *, starting: bool = False) -> Phrase:
    """The character inside a sentence, "the Knight" ("The Knight" to start one)."""
    if starting:
        return phrase_in(STARTING, _THE_STARTING[character])
    return phrase_in(WITH_ARTICLE, _THE[character])

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
    "knight": term(NAME, "Knight"),
    "thief": term(NAME, "Thief"),
    "wizard": term(NAME, "Wizard"),
    "cleric": term(NAME, "Cleric"),
    "barbarian": term(NAME, "Barbarian"),
    "ranger": term(NAME, "Ranger"),
    "bard": term(NAME, "Bard"),
    "goblin": term(NAME, "Goblin"),
    "zombie": term(NAME, "Zombie"),
    "skeleton": term(NAME, "Skeleton"),
    "cube": term(NAME, "Gelatinous Cube"),
    "troll": term(NAME, "Troll"),
}

_THE: dict[str, str] = {
    "knight": term(WITH_ARTICLE, "the Knight"),
    "thief": term(WITH_ARTICLE, "the Thief"),
    "wizard": term(WITH_ARTICLE, "the Wizard"),
    "cleric": term(WITH_ARTICLE, "the Cleric"),
    "barbarian": term(WITH_ARTICLE, "the Barbarian"),
    "ranger": term(WITH_ARTICLE, "the Ranger"),
    "bard": term(WITH_ARTICLE, "the Bard"),
    "goblin": term(WITH_ARTICLE, "the Goblin"),
    "zombie": term(WITH_ARTICLE, "the Zombie"),
    "skeleton": term(WITH_ARTICLE, "the Skeleton"),
    "cube": term(WITH_ARTICLE, "the Gelatinous Cube"),
    "troll": term(WITH_ARTICLE, "the Troll"),
}

_THE_STARTING: dict[str, str] = {
    "knight": term(STARTING, "The Knight"),
    "thief": term(STARTING, "The Thief"),
    "wizard": term(STARTING, "The Wizard"),
    "cleric": term(STARTING, "The Cleric"),
    "barbarian": term(STARTING, "The Barbarian"),
    "ranger": term(STARTING, "The Ranger"),
    "bard": term(STARTING, "The Bard"),
    "goblin": term(STARTING, "The Goblin"),
    "zombie": term(STARTING, "The Zombie"),
    "skeleton": term(STARTING, "The Skeleton"),
    "cube": term(STARTING, "The Gelatinous Cube"),
    "troll": term(STARTING, "The Troll"),
}


# A place in the exit line, as each language writes an ordinal ("3rd", "3e", "3."). Twelve
# characters, so never more than eleven places are taken.
PLACE = "place in the exit line"
_PLACES: tuple[str, ...] = (
    term(PLACE, "1st"),
    term(PLACE, "2nd"),
    term(PLACE, "3rd"),
    term(PLACE, "4th"),
    term(PLACE, "5th"),
    term(PLACE, "6th"),
    term(PLACE, "7th"),
    term(PLACE, "8th"),
    term(PLACE, "9th"),
    term(PLACE, "10th"),
    term(PLACE, "11th"),
    term(PLACE, "12th"),
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

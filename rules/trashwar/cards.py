"""The Trash War deck: the one table of all 112 cards.

The rulebooks say which kinds of card exist but not how many of each, nor their values or
torches; the house rules (`design/house-rules.md`) fill that in. `DECK_LIST` below is that
table and nothing else in the engine repeats it, so a group with the physical deck corrects
a count, a value or a torch here and everywhere follows. `TRASH_NAMES` gives the Trash
cards their flavour names, handed out in turn down the Trash rows (one name per card, the
list starting again when it runs out).

Every card gets an id (its place in the expanded deck, walls first) and a `code`, the word
that names it in actions: the same code for cards a player cannot tell apart, a different
one otherwise. A code is built from the card's face: the flavour key and damage for Trash
(`toaster2`), the kind and value or bat direction for the rest (`shield3`, `burn4`,
`mace-left`, `deflect`), and one `+` per torch (`piano4+`, `deflect++`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, cached_property

from rules.phrases import Phrase, english, phrase, phrase_in, phrase_n, term

WALL = "wall"
TRASH = "trash"
SHIELD = "shield"
MACE = "mace"
DEFLECT = "deflect"
CATAPULT = "catapult"
BURN = "burn"
REPAIR = "repair"
KINDS = (WALL, TRASH, SHIELD, MACE, DEFLECT, CATAPULT, BURN, REPAIR)

LEFT = "left"
RIGHT = "right"
BACK = "back"
ANY = "any"
DIRECTIONS = (LEFT, RIGHT, BACK, ANY)


@dataclass(frozen=True)
class Row:
    """One line of the deck list: `count` identical cards."""

    kind: str
    count: int
    value: int = 0  # damage (Trash), defence (Shield), burn value (Burn); 0 for the rest
    torches: int = 0  # the torch marks in the card's corner
    direction: str = ""  # Mace only: where it bats the trash


# The house rules' deck list (112 cards). Correct the physical deck here.
DECK_LIST: tuple[Row, ...] = (
    Row(WALL, 18),
    Row(TRASH, 16, value=1),
    Row(TRASH, 16, value=2),
    Row(TRASH, 12, value=3),
    Row(TRASH, 4, value=4, torches=1),
    Row(SHIELD, 3, value=1),
    Row(SHIELD, 5, value=2),
    Row(SHIELD, 3, value=3),
    Row(SHIELD, 1, value=4, torches=1),
    Row(MACE, 2, direction=LEFT),
    Row(MACE, 2, direction=RIGHT),
    Row(MACE, 2, direction=BACK),
    Row(MACE, 2, direction=ANY, torches=2),
    Row(DEFLECT, 3),
    Row(DEFLECT, 2, torches=2),
    Row(CATAPULT, 5, torches=1),
    Row(BURN, 4, value=2),
    Row(BURN, 3, value=3),
    Row(BURN, 2, value=4, torches=2),
    Row(REPAIR, 4),
    Row(REPAIR, 3, torches=1),
)

# Flavour names of the Trash cards, in the house rules' order: (key for action codes, name,
# the word that goes before the name when a card is first mentioned).
TRASH_NAMES: tuple[tuple[str, str, str], ...] = (
    ("piano", term("trash", "grand piano"), "a"),
    ("car", term("trash", "muscle car"), "a"),
    ("gator", term("trash", "mutant albino alligator"), "a"),
    ("teeth", term("trash", "false teeth"), "some"),
    ("toaster", term("trash", "toaster"), "a"),
    ("tv", term("trash", "television"), "a"),
    ("sardines", term("trash", "moldy sardines"), "some"),
    ("xray", term("trash", "X-ray machine"), "an"),
    ("microwave", term("trash", "microwave"), "a"),
    ("bike", term("trash", "exercise bike"), "an"),
    ("drum", term("trash", "toxic waste drum"), "a"),
    ("leftovers", term("trash", "leftovers"), "some"),
)

# How cards other than Trash are called in the log and on buttons.
KIND_TITLES = {
    WALL: term("card", "Wall"),
    SHIELD: term("card", "Shield"),
    MACE: term("card", "Mace"),
    DEFLECT: term("card", "Deflect"),
    CATAPULT: term("card", "Catapult"),
    BURN: term("card", "Burn"),
    REPAIR: term("card", "Repair Wall"),
}
DIRECTION_TITLES = {
    LEFT: term("mace", "bat left"),
    RIGHT: term("mace", "bat right"),
    BACK: term("mace", "bat back at the sender"),
    ANY: term("mace", "bat at any player"),
}
# A Mace's direction alone, as a refusal names it ("This Mace (left) cannot...").
DIRECTION_WORDS = {
    LEFT: term("mace direction", "left"),
    RIGHT: term("mace direction", "right"),
    BACK: term("mace direction", "back"),
    ANY: term("mace direction", "any"),
}

# Each name with its English article, as a sentence first names a card ("a toaster") and
# then again ("the toaster"): one catalogue entry each, as another language's article
# follows the noun (the German ones are said as objects: the sentences keep them so).
FIRST_MENTION = {
    "grand piano": term("trash, first mention", "a grand piano"),
    "muscle car": term("trash, first mention", "a muscle car"),
    "mutant albino alligator": term("trash, first mention", "a mutant albino alligator"),
    "false teeth": term("trash, first mention", "some false teeth"),
    "toaster": term("trash, first mention", "a toaster"),
    "television": term("trash, first mention", "a television"),
    "moldy sardines": term("trash, first mention", "some moldy sardines"),
    "X-ray machine": term("trash, first mention", "an X-ray machine"),
    "microwave": term("trash, first mention", "a microwave"),
    "exercise bike": term("trash, first mention", "an exercise bike"),
    "toxic waste drum": term("trash, first mention", "a toxic waste drum"),
    "leftovers": term("trash, first mention", "some leftovers"),
    "Wall": term("card, first mention", "a Wall"),
    "Shield": term("card, first mention", "a Shield"),
    "Mace": term("card, first mention", "a Mace"),
    "Deflect": term("card, first mention", "a Deflect"),
    "Catapult": term("card, first mention", "a Catapult"),
    "Burn": term("card, first mention", "a Burn"),
    "Repair Wall": term("card, first mention", "a Repair Wall"),
}
LATER_MENTION = {
    "grand piano": term("trash, mentioned before", "the grand piano"),
    "muscle car": term("trash, mentioned before", "the muscle car"),
    "mutant albino alligator": term("trash, mentioned before", "the mutant albino alligator"),
    "false teeth": term("trash, mentioned before", "the false teeth"),
    "toaster": term("trash, mentioned before", "the toaster"),
    "television": term("trash, mentioned before", "the television"),
    "moldy sardines": term("trash, mentioned before", "the moldy sardines"),
    "X-ray machine": term("trash, mentioned before", "the X-ray machine"),
    "microwave": term("trash, mentioned before", "the microwave"),
    "exercise bike": term("trash, mentioned before", "the exercise bike"),
    "toxic waste drum": term("trash, mentioned before", "the toxic waste drum"),
    "leftovers": term("trash, mentioned before", "the leftovers"),
    "Wall": term("card, mentioned before", "the Wall"),
    "Shield": term("card, mentioned before", "the Shield"),
    "Mace": term("card, mentioned before", "the Mace"),
    "Deflect": term("card, mentioned before", "the Deflect"),
    "Catapult": term("card, mentioned before", "the Catapult"),
    "Burn": term("card, mentioned before", "the Burn"),
    "Repair Wall": term("card, mentioned before", "the Repair Wall"),
}
MENTIONS = {
    "": ("", {}),
    "a": (", first mention", FIRST_MENTION),
    "the": (", mentioned before", LATER_MENTION),
}


@cache  # a pure function of a few words and numbers, asked for at every card played
def card_words(
    kind: str, name: str, value: int, torches: int, direction: str, mention: str = ""
) -> Phrase:
    """A card as the log and the buttons name it: "toaster (2)", "Shield 3", "Mace (bat
    left)", "Deflect (2 torches)", one pair of brackets for both notes: "Mace (bat at any
    player, 2 torches)"; `mention` "a" or "the" puts the name's article before it."""
    suffix, forms = MENTIONS[mention]
    sense = ("trash" if kind == TRASH else "card") + suffix
    said = phrase_in(sense, forms.get(name, name) if mention else name)
    if kind == TRASH:
        return phrase("{card} ({damage})", card=said, damage=value)
    if value:
        said = phrase("{card} {value}", card=said, value=value)
    lit = phrase_n("{n} torch", "{n} torches", torches)
    if direction and torches:
        return phrase(
            "{card} ({bat}, {torches})",
            card=said,
            bat=phrase_in("mace", DIRECTION_TITLES[direction]),
            torches=lit,
        )
    if direction:
        return phrase(
            "{card} ({bat})", card=said, bat=phrase_in("mace", DIRECTION_TITLES[direction])
        )
    return phrase("{card} ({torches})", card=said, torches=lit) if torches else said


@dataclass(frozen=True)
class Card:
    """One physical card."""

    id: int
    kind: str
    value: int
    torches: int
    direction: str
    key: str  # Trash only: the flavour key ("toaster"); "" otherwise
    name: str  # Trash: the flavour name ("toaster"); the kind's title otherwise
    article: str  # the word before the name on first mention ("a", "an", "some")
    code: str  # the card's word in actions ("toaster2", "shield3", "deflect++")

    def words(self, mention: str = "") -> Phrase:
        """The card's name as a phrase (see `card_words`)."""
        return card_words(self.kind, self.name, self.value, self.torches, self.direction, mention)

    @cached_property
    def title(self) -> str:
        """'toaster (2)', 'Shield 3', 'Mace (bat left)', 'Deflect (2 torches)', in English."""
        return english(self.words())

    @cached_property
    def a(self) -> str:
        """First mention: 'a toaster (2)', 'some leftovers (1)', 'a Shield 3'."""
        return english(self.words("a"))

    @cached_property
    def the(self) -> str:
        """Later mentions: 'the toaster (2)', 'the Shield 3'."""
        return english(self.words("the"))


def _code(kind: str, value: int, torches: int, direction: str, key: str) -> str:
    base = f"{key}{value}" if kind == TRASH else kind + (str(value) if value else "")
    if direction:
        base += f"-{direction}"
    return base + "+" * torches


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    trash_seen = 0
    for row in DECK_LIST:
        for _ in range(row.count):
            if row.kind == TRASH:
                key, name, article = TRASH_NAMES[trash_seen % len(TRASH_NAMES)]
                trash_seen += 1
            else:
                key, name = "", KIND_TITLES[row.kind]
                article = "an" if name[0] in "AEIOU" else "a"
            code = _code(row.kind, row.value, row.torches, row.direction, key)
            cards.append(
                Card(
                    len(cards),
                    row.kind,
                    row.value,
                    row.torches,
                    row.direction,
                    key,
                    name,
                    article,
                    code,
                )
            )
    return tuple(cards)


def check_deck(cards: tuple[Card, ...]) -> None:
    """Raise `ValueError` where the table breaks what the engine relies on."""
    if len(cards) != 112:
        raise ValueError(f"The deck has {len(cards)} cards, not 112.")
    for card in cards:
        if card.kind not in KINDS:
            raise ValueError(f"Unknown kind {card.kind!r}.")
        if (card.kind == MACE) != (card.direction in DIRECTIONS):
            raise ValueError(f"{card.code}: only a Mace has a direction, and every Mace one.")
        if card.kind in (TRASH, SHIELD, BURN) and card.value < 1:
            raise ValueError(f"{card.code}: Trash, Shield and Burn cards need a value.")
        if not 0 <= card.torches <= 2:
            raise ValueError(f"{card.code}: a card has 0, 1 or 2 torches.")
    faces: dict[str, tuple[object, ...]] = {}
    for card in cards:
        face = (card.kind, card.value, card.torches, card.direction, card.key)
        if faces.setdefault(card.code, face) != face:
            raise ValueError(f"Two different cards share the code {card.code!r}.")
    walls = Counter(card.kind for card in cards)[WALL]
    if walls < 18 or any(card.kind != WALL for card in cards[:walls]):
        raise ValueError("The deck list starts with the Wall cards, three for each of six.")


CARDS: tuple[Card, ...] = _build()
check_deck(CARDS)

WALL_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == WALL)
PLAY_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind != WALL)  # shuffled and dealt
BY_CODE: dict[str, Card] = {}  # one card of each code: its face
for _card in CARDS:
    BY_CODE.setdefault(_card.code, _card)
del _card
# Each Trash code's face without its flavour name ("toaster2" and "tv2" are "trash2"): what
# the rules read of the card, so cards of one face are the same choice (`groups.same_choice`).
TRASH_FACES: dict[str, str] = {
    code: _code(TRASH, card.value, card.torches, "", TRASH)
    for code, card in BY_CODE.items()
    if card.kind == TRASH
}

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

from rules.words import counted

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
    ("piano", "grand piano", "a"),
    ("car", "muscle car", "a"),
    ("gator", "mutant albino alligator", "a"),
    ("teeth", "false teeth", "some"),
    ("toaster", "toaster", "a"),
    ("tv", "television", "a"),
    ("sardines", "moldy sardines", "some"),
    ("xray", "X-ray machine", "an"),
    ("microwave", "microwave", "a"),
    ("bike", "exercise bike", "an"),
    ("drum", "toxic waste drum", "a"),
    ("leftovers", "leftovers", "some"),
)

# How cards other than Trash are called in the log and on buttons.
KIND_TITLES = {
    WALL: "Wall",
    SHIELD: "Shield",
    MACE: "Mace",
    DEFLECT: "Deflect",
    CATAPULT: "Catapult",
    BURN: "Burn",
    REPAIR: "Repair Wall",
}
DIRECTION_TITLES = {
    LEFT: "bat left",
    RIGHT: "bat right",
    BACK: "bat back at the sender",
    ANY: "bat at any player",
}


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

    @property
    def title(self) -> str:
        """'toaster (2)', 'Shield 3', 'Mace (bat left)', 'Deflect (2 torches)', and one pair
        of brackets for both notes: 'Mace (bat at any player, 2 torches)'."""
        if self.kind == TRASH:
            return f"{self.name} ({self.value})"
        text = self.name
        if self.value:
            text += f" {self.value}"
        notes = [DIRECTION_TITLES[self.direction]] if self.direction else []
        if self.torches:
            notes.append(counted(self.torches, "torch"))
        return f"{text} ({', '.join(notes)})" if notes else text

    @property
    def a(self) -> str:
        """First mention: 'a toaster (2)', 'some leftovers (1)', 'a Shield 3'."""
        return f"{self.article} {self.title}"

    @property
    def the(self) -> str:
        """Later mentions: 'the toaster (2)', 'the Shield 3'."""
        return f"the {self.title}"


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

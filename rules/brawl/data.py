"""Dumpster Brawl!: the data tables, the one place to correct them.

The rulebook names thirteen kinds of trash (seven cards each), Slug, Booster and Blocker
cards and two colours of custom dice, but lists neither the kinds, the characters, the dice
faces nor the card texts; the house rules (`design/house-rules.md`) fill those in and this
module holds them as tables. Nothing else in the engine repeats them.

Card ids are fixed for every game: the 91 trash cards first (kind `k` holds ids
`7k .. 7k+6`), then the printed Slugs, then one card per Booster and one per Blocker in table
order. A game puts into play all the trash, the first `slugs` Slugs and the Boosters and
Blockers its seed picks; the rest stay in the box.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.phrases import term

COPIES = 7  # of each trash kind


@dataclass(frozen=True)
class Kind:
    """One trash item."""

    key: str  # its word in actions
    name: str


KINDS: tuple[Kind, ...] = (
    Kind("pizza", term("card", "Pizza Box")),
    Kind("apple", term("card", "Apple Core")),
    Kind("soda", term("card", "Soda Can")),
    Kind("takeout", term("card", "Take Out")),
    Kind("bear", term("card", "Stuffed Bear")),
    Kind("fish", term("card", "Fish Bones")),
    Kind("banana", term("card", "Banana Peel")),
    Kind("milk", term("card", "Milk Jug")),
    Kind("tin", term("card", "Tin Can")),
    Kind("sneaker", term("card", "Old Sneaker")),
    Kind("news", term("card", "Newspaper")),
    Kind("egg", term("card", "Egg Carton")),
    Kind("coffee", term("card", "Coffee Cup")),
)


@dataclass(frozen=True)
class Character:
    """A character placard: its trash affinity needs only two for a set."""

    key: str
    name: str
    animal: str
    affinity: str  # a Kind key
    number: int  # printed on the placard, for a future play style


CHARACTERS: tuple[Character, ...] = (
    Character(
        "iscratchu", term("character", "Iscratchu"), term("animal", "alley cat"), "takeout", 1
    ),
    Character("moosetache", term("character", "Moosetache"), term("animal", "moose"), "bear", 2),
    Character("bandit", term("character", "Bandit"), term("animal", "raccoon"), "pizza", 3),
    Character("squeakers", term("character", "Squeakers"), term("animal", "rat"), "apple", 4),
    Character("hissy", term("character", "Hissy"), term("animal", "possum"), "soda", 5),
    Character("gulliver", term("character", "Gulliver"), term("animal", "seagull"), "fish", 6),
)


@dataclass(frozen=True)
class Face:
    """One face of a die: a crowbar or a lid, with its plus or minus."""

    symbol: str  # "crowbar" or "lid"
    sign: int  # +1 plus, -1 minus


CROWBAR = "crowbar"
LID = "lid"
# Blue and green dice alike (house rules): three crowbar-minus faces, three lid-plus faces.
BLUE_FACES: tuple[Face, ...] = (Face(CROWBAR, -1),) * 3 + (Face(LID, 1),) * 3
GREEN_FACES: tuple[Face, ...] = BLUE_FACES

ATTACK_DICE = 6  # blue
DEFENCE_DICE = 5  # green
RUMMAGE_DICE = 6
DIVE_DRAWS = 2  # trash cards a Dumpster Dive draws


@dataclass(frozen=True)
class Special:
    """A Booster or Blocker card: its word in actions, its name, when and what; a Booster
    also lists the phases (the engine's phase words) in which it may be played."""

    key: str
    name: str
    when: str
    effect: str
    phases: tuple[str, ...] = ()


# A turn Booster's "your turn" is every phase in which the turn's attacker decides: the
# defence is the defender's decision, so it is not among them.
YOUR_TURN = ("declare", "pre", "attack", "wind", "spoils", "rummage", "lay")

# The Booster timing table (house rules' "when" column, phase by phase). Extra Elbow goes
# with the attack ("pre", "attack") or into the defence; Second Wind follows a fight roll
# ("wind") or a rummage roll (at the start of "rummage", before anything is drawn).
BOOSTERS: tuple[Special, ...] = (
    Special(
        "elbow",
        term("card", "Extra Elbow"),
        term("card timing", "you roll in combat"),
        term("card effect", "one more die of your colour"),
        ("pre", "attack", "defend"),
    ),
    Special(
        "wind",
        term("card", "Second Wind"),
        term("card timing", "right after you roll"),
        term("card effect", "reroll all your dice"),
        ("wind", "rummage"),
    ),
    Special(
        "lid",
        term("card", "Sturdy Lid"),
        term("card timing", "you defend"),
        term("card effect", "count one extra lid"),
        ("defend",),
    ),
    Special(
        "dive",
        term("card", "Dumpster Dive"),
        term("card timing", "your turn, before attacking"),
        term("card effect", "draw two trash cards"),
        ("declare", "pre", "attack"),
    ),
    Special(
        "peek",
        term("card", "Sneak Peek"),
        term("card timing", "your turn"),
        term("card effect", "see one opponent's hand"),
        YOUR_TURN,
    ),
    Special(
        "swap",
        term("card", "Quick Swap"),
        term("card timing", "your turn"),
        term("card effect", "swap a card for a random one of an opponent"),
        YOUR_TURN,
    ),
    Special(
        "sweep",
        term("card", "Clean Sweep"),
        term("card timing", "your turn"),
        term("card effect", "discard up to two cards"),
        YOUR_TURN,
    ),
)
BOOSTER_PHASES: dict[str, tuple[str, ...]] = {b.key: b.phases for b in BOOSTERS}

DRAWN = term("card timing", "drawn")
BLOCKERS: tuple[Special, ...] = (
    Special(
        "truck",
        term("card", "Garbage Truck"),
        DRAWN,
        term("card effect", "every player discards one card"),
    ),
    Special(
        "raid",
        term("card", "Raccoon Raid"),
        DRAWN,
        term("card effect", "your left neighbour takes a random card of yours"),
    ),
    Special(
        "slippery",
        term("card", "Slippery Lid"),
        DRAWN,
        term("card effect", "your next rummage roll is skipped"),
    ),
    Special(
        "spill",
        term("card", "Spilled Bag"),
        DRAWN,
        term("card effect", "the discard pile is shuffled into the trash"),
    ),
    Special(
        "stink",
        term("card", "Stink Cloud"),
        DRAWN,
        term("card effect", "you cannot win until your next turn ends"),
    ),
)

# A card said with its article ("a Pizza Box", "une Boîte à pizza"), for every card that can
# be in a hand, and a trash kind's name for several of it ("Pizza Boxes"): the languages
# differ in both, so each is a whole entry of the catalogues rather than English grammar.
WITH_ARTICLE: dict[str, str] = {
    "Pizza Box": term("card, with article", "a Pizza Box"),
    "Apple Core": term("card, with article", "an Apple Core"),
    "Soda Can": term("card, with article", "a Soda Can"),
    "Take Out": term("card, with article", "a Take Out"),
    "Stuffed Bear": term("card, with article", "a Stuffed Bear"),
    "Fish Bones": term("card, with article", "Fish Bones"),
    "Banana Peel": term("card, with article", "a Banana Peel"),
    "Milk Jug": term("card, with article", "a Milk Jug"),
    "Tin Can": term("card, with article", "a Tin Can"),
    "Old Sneaker": term("card, with article", "an Old Sneaker"),
    "Newspaper": term("card, with article", "a Newspaper"),
    "Egg Carton": term("card, with article", "an Egg Carton"),
    "Coffee Cup": term("card, with article", "a Coffee Cup"),
    "Slug": term("card, with article", "a Slug"),
    "Extra Elbow": term("card, with article", "an Extra Elbow"),
    "Second Wind": term("card, with article", "a Second Wind"),
    "Sturdy Lid": term("card, with article", "a Sturdy Lid"),
    "Dumpster Dive": term("card, with article", "a Dumpster Dive"),
    "Sneak Peek": term("card, with article", "a Sneak Peek"),
    "Quick Swap": term("card, with article", "a Quick Swap"),
    "Clean Sweep": term("card, with article", "a Clean Sweep"),
}
SEVERAL: dict[str, str] = {
    "Pizza Box": term("cards", "Pizza Boxes"),
    "Apple Core": term("cards", "Apple Cores"),
    "Soda Can": term("cards", "Soda Cans"),
    "Take Out": term("cards", "Take Outs"),
    "Stuffed Bear": term("cards", "Stuffed Bears"),
    "Fish Bones": term("cards", "Fish Bones"),
    "Banana Peel": term("cards", "Banana Peels"),
    "Milk Jug": term("cards", "Milk Jugs"),
    "Tin Can": term("cards", "Tin Cans"),
    "Old Sneaker": term("cards", "Old Sneakers"),
    "Newspaper": term("cards", "Newspapers"),
    "Egg Carton": term("cards", "Egg Cartons"),
    "Coffee Cup": term("cards", "Coffee Cups"),
}

MAX_SLUGS = 6  # printed
DEFAULT_SLUGS = 4
DEFAULT_BOOSTERS = 3
DEFAULT_BLOCKERS = 3

TRASH = "trash"
SLUG = "slug"
BOOSTER = "booster"
BLOCKER = "blocker"


@dataclass(frozen=True)
class Card:
    """One physical card."""

    id: int
    type: str  # trash, slug, booster, blocker
    key: str  # its word in actions: the kind, "slug", or the Booster's / Blocker's key
    name: str
    kind: int  # trash only: index into KINDS; -1 otherwise


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for k, kind in enumerate(KINDS):
        for _ in range(COPIES):
            cards.append(Card(len(cards), TRASH, kind.key, kind.name, k))
    for _ in range(MAX_SLUGS):
        cards.append(Card(len(cards), SLUG, SLUG, term("card", "Slug"), -1))
    for special in BOOSTERS:
        cards.append(Card(len(cards), BOOSTER, special.key, special.name, -1))
    for special in BLOCKERS:
        cards.append(Card(len(cards), BLOCKER, special.key, special.name, -1))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
TRASH_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.type == TRASH)
SLUG_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.type == SLUG)
BOOSTER_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.type == BOOSTER)
BLOCKER_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.type == BLOCKER)
KIND_INDEX: dict[str, int] = {kind.key: k for k, kind in enumerate(KINDS)}
CHARACTER_INDEX: dict[str, int] = {c.key: k for k, c in enumerate(CHARACTERS)}
HAND_KEYS: frozenset[str] = frozenset(
    [kind.key for kind in KINDS] + [SLUG] + [b.key for b in BOOSTERS]
)

if len(TRASH_IDS) != 91 or len({k.key for k in KINDS}) != 13:
    raise ValueError("Dumpster Brawl! has 13 trash kinds of 7 cards each.")
if any(c.affinity not in KIND_INDEX for c in CHARACTERS):
    raise ValueError("Every character's affinity is a trash kind.")

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

COPIES = 7  # of each trash kind


@dataclass(frozen=True)
class Kind:
    """One trash item."""

    key: str  # its word in actions
    name: str


KINDS: tuple[Kind, ...] = (
    Kind("pizza", "Pizza Box"),
    Kind("apple", "Apple Core"),
    Kind("soda", "Soda Can"),
    Kind("takeout", "Take Out"),
    Kind("bear", "Stuffed Bear"),
    Kind("fish", "Fish Bones"),
    Kind("banana", "Banana Peel"),
    Kind("milk", "Milk Jug"),
    Kind("tin", "Tin Can"),
    Kind("sneaker", "Old Sneaker"),
    Kind("news", "Newspaper"),
    Kind("egg", "Egg Carton"),
    Kind("coffee", "Coffee Cup"),
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
    Character("iscratchu", "Iscratchu", "alley cat", "takeout", 1),
    Character("moosetache", "Moosetache", "moose", "bear", 2),
    Character("bandit", "Bandit", "raccoon", "pizza", 3),
    Character("squeakers", "Squeakers", "rat", "apple", 4),
    Character("hissy", "Hissy", "possum", "soda", 5),
    Character("gulliver", "Gulliver", "seagull", "fish", 6),
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
        "Extra Elbow",
        "you roll in combat",
        "one more die of your colour",
        ("pre", "attack", "defend"),
    ),
    Special(
        "wind", "Second Wind", "right after you roll", "reroll all your dice", ("wind", "rummage")
    ),
    Special("lid", "Sturdy Lid", "you defend", "count one extra lid", ("defend",)),
    Special(
        "dive",
        "Dumpster Dive",
        "your turn, before attacking",
        "draw two trash cards",
        ("declare", "pre", "attack"),
    ),
    Special("peek", "Sneak Peek", "your turn", "see one opponent's hand", YOUR_TURN),
    Special(
        "swap", "Quick Swap", "your turn", "swap a card for a random one of an opponent", YOUR_TURN
    ),
    Special("sweep", "Clean Sweep", "your turn", "discard up to two cards", YOUR_TURN),
)
BOOSTER_PHASES: dict[str, tuple[str, ...]] = {b.key: b.phases for b in BOOSTERS}

BLOCKERS: tuple[Special, ...] = (
    Special("truck", "Garbage Truck", "drawn", "every player discards one card"),
    Special("raid", "Raccoon Raid", "drawn", "your left neighbour takes a random card of yours"),
    Special("slippery", "Slippery Lid", "drawn", "your next rummage roll is skipped"),
    Special("spill", "Spilled Bag", "drawn", "the discard pile is shuffled into the trash"),
    Special("stink", "Stink Cloud", "drawn", "you cannot win until your next turn ends"),
)

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
        cards.append(Card(len(cards), SLUG, SLUG, "Slug", -1))
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

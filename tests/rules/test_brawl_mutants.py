"""Dumpster Brawl!: the rules the second mutation run (docs/mutation.md) found untested, and
the private lines that name a card.

Same conventions as `test_brawl.py` (whose `build`/`play` helpers and hand-made tables these
tests use): each test names the rule it checks, "(rulebook: ...)", "(house rule: ...)",
"(table rule: ...)" or "(contract)" for what the bot and the players read.
"""

from __future__ import annotations

import pytest

from rules.brawl.data import CARDS
from rules.brawl.engine import BRAWL
from rules.brawl.labels import describe_action
from rules.words import with_article
from tests.rules.test_brawl import build

# --- naming one card in a line -----------------------------------------------------------------

# Every name printed on a card, as a line names one of it: "a" or "an" as the name is said,
# and no article before Fish Bones, one card whose name is a plural.
ONE_CARD = {
    "Pizza Box": "a Pizza Box",
    "Apple Core": "an Apple Core",
    "Soda Can": "a Soda Can",
    "Take Out": "a Take Out",
    "Stuffed Bear": "a Stuffed Bear",
    "Fish Bones": "Fish Bones",
    "Banana Peel": "a Banana Peel",
    "Milk Jug": "a Milk Jug",
    "Tin Can": "a Tin Can",
    "Old Sneaker": "an Old Sneaker",
    "Newspaper": "a Newspaper",
    "Egg Carton": "an Egg Carton",
    "Coffee Cup": "a Coffee Cup",
    "Slug": "a Slug",
    "Extra Elbow": "an Extra Elbow",
    "Second Wind": "a Second Wind",
    "Sturdy Lid": "a Sturdy Lid",
    "Dumpster Dive": "a Dumpster Dive",
    "Sneak Peek": "a Sneak Peek",
    "Quick Swap": "a Quick Swap",
    "Clean Sweep": "a Clean Sweep",
    "Garbage Truck": "a Garbage Truck",
    "Raccoon Raid": "a Raccoon Raid",
    "Slippery Lid": "a Slippery Lid",
    "Spilled Bag": "a Spilled Bag",
    "Stink Cloud": "a Stink Cloud",
}
# One key per name a hand can hold (Blockers are set aside when drawn, never held).
HELD = sorted({c.key: c.name for c in CARDS if c.type != "blocker"}.items())


def test_every_card_name_is_named_as_one_card() -> None:
    """(contract: the log) A line that names one card says "a" or "an" as the name is
    said, and leaves out the article before a plural name (Fish Bones)."""
    assert set(ONE_CARD) == {c.name for c in CARDS}  # a new card needs its phrase here
    for name, phrase in ONE_CARD.items():
        assert with_article(name) == phrase


@pytest.mark.parametrize(("key", "name"), HELD)
def test_each_private_line_names_the_card_as_one(key: str, name: str) -> None:
    """(contract: private lines) The card drawn, taken in the spoils or by a Raccoon Raid,
    given, or swapped by Quick Swap is named to its holders as one card, and so is a card
    in the discard and give buttons."""
    one = ONE_CARD[name]
    drawn = build({0: ["milk"], 1: ["egg"], 2: []}, phase="pre", draws=1, trash_top=[key])
    events = BRAWL.apply(drawn, 0, "draw trash").events
    assert (f"You drew {one}.", 0) in [(e.text, e.to) for e in events]

    raid = build({0: [key], 1: ["egg"], 2: []}, phase="pre", draws=1, trash_top=["raid"])
    events = BRAWL.apply(raid, 0, "draw trash").events
    assert (f"You took {one}.", 1) in [(e.text, e.to) for e in events]

    fights = {"phase": "spoils", "defender": 1, "spoils": 1}
    taken = build({0: ["milk"], 1: [key], 2: []}, actor=0, **fights)
    events = BRAWL.apply(taken, 0, "take").events
    assert (f"You took {one}.", 0) in [(e.text, e.to) for e in events]

    given = build({0: ["milk"], 1: [key, "egg"], 2: []}, actor=1, **fights)
    events = BRAWL.apply(given, 1, f"give {key}").events
    assert ("{p1} gave you " + one + ".", 0) in [(e.text, e.to) for e in events]

    if key != "swap":  # the Quick Swap played is not one of the cards swapped
        got = build({0: ["swap", "milk"], 1: [key], 2: []})
        events = BRAWL.apply(got, 0, "play swap p1 milk").events
        assert (f"You got {one}.", 0) in [(e.text, e.to) for e in events]
        gave = build({0: ["swap", key], 1: ["egg"], 2: []})
        events = BRAWL.apply(gave, 0, f"play swap p1 {key}").events
        line = "{p0} swapped your Egg Carton for " + one + "."
        assert (line, 1) in [(e.text, e.to) for e in events]
    assert describe_action(f"discard {key}") == f"Discard {one}"
    assert describe_action(f"give {key}") == f"Give {one}"

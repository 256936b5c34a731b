"""Dumpster Brawl!'s card words, which the log, the labels and the pictures share: a card by
its name, with its article, several of a kind, and lists read the way the log reads them.
Each is a phrase in a sense of its own (`data.py` marks the words with `term`).
"""

from __future__ import annotations

from rules.brawl.data import CARDS, KIND_INDEX, KINDS, SEVERAL, WITH_ARTICLE
from rules.phrases import Phrase, phrase, phrase_in


def card_name(key: str) -> str:
    """A card's English name, from its word in actions."""
    if key in KIND_INDEX:
        return KINDS[KIND_INDEX[key]].name
    return next((c.name for c in CARDS if c.key == key), key)


def card(name: str) -> Phrase:
    """A card by its name, as a label says it: "Pizza Box"."""
    return phrase_in("card", name)


def a_card(name: str) -> Phrase:
    """One card of a hand, with its article: "a Pizza Box", "an Egg Carton"."""
    return phrase_in("card, with article", WITH_ARTICLE.get(name, name))


def several(name: str) -> Phrase:
    """Several cards of a trash kind: "Pizza Boxes"."""
    return phrase_in("cards", SEVERAL.get(name, name))


def name_of(card_id: int) -> Phrase:
    """A card by its id, named."""
    return card(CARDS[card_id].name)


def commas(items: list[Phrase]) -> Phrase:
    """Items one after the other with commas and no "and" (a roll's faces, a hand's cards):
    the log has always read them so."""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = phrase("{first}, {rest}", first=item, rest=said)
    return said

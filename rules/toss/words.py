"""Toss It in the Trash: the garbage's and the colours' names, in each shape they are said in.

Each language has its own grammar for "a milk carton", "milk cartons" or "3 more milk
cartons" (articles, genders, cases, plurals), so each shape is a whole entry of the
catalogues, marked here per kind (`bin.KINDS` keeps the physics, and an English name for its
own errors). Say one with `a_piece`, `pieces`... which give phrases.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.phrases import Phrase, phrase_in, phrase_n, term

# The kind as the label under its pile beside the bin: a line or two of at most seven
# letters each (the label is narrow), a short name or a hyphenated word where needed.
SUPPLY_LABEL = {
    "carton": term("piece, supply label", "milk\ncarton"),
    "can": term("piece, supply label", "tin\ncan"),
    "bottle": term("piece, supply label", "bottle"),
    "apple": term("piece, supply label", "apple\ncore"),
}

# The kind as the first words of a label or a line: "Milk carton at 3/20".
LABEL = {
    "carton": term("piece, starting a label", "Milk carton"),
    "can": term("piece, starting a label", "Tin can"),
    "bottle": term("piece, starting a label", "Bottle"),
    "apple": term("piece, starting a label", "Apple core"),
}

# One piece as the object of a sentence ("drops a milk carton"; German: accusative).
ONE = {
    "carton": term("piece, with article", "a milk carton"),
    "can": term("piece, with article", "a tin can"),
    "bottle": term("piece, with article", "a bottle"),
    "apple": term("piece, with article", "an apple core"),
}

# The kind in the plural, with no count: "no milk cartons left".
MANY = {
    "carton": term("pieces", "milk cartons"),
    "can": term("pieces", "tin cans"),
    "bottle": term("pieces", "bottles"),
    "apple": term("pieces", "apple cores"),
}

# A count of pieces still to drop in a turn bound to one kind (or to none yet).
MORE: dict[str | None, Callable[[int], Phrase]] = {
    "carton": lambda n: phrase_n("{n} more milk carton", "{n} more milk cartons", n),
    "can": lambda n: phrase_n("{n} more tin can", "{n} more tin cans", n),
    "bottle": lambda n: phrase_n("{n} more bottle", "{n} more bottles", n),
    "apple": lambda n: phrase_n("{n} more apple core", "{n} more apple cores", n),
    None: lambda n: phrase_n("{n} more piece", "{n} more pieces", n),
}


def supply_label(kind: str) -> Phrase:
    return phrase_in("piece, supply label", SUPPLY_LABEL[kind])


def piece_label(kind: str) -> Phrase:
    return phrase_in("piece, starting a label", LABEL[kind])


def a_piece(kind: str) -> Phrase:
    return phrase_in("piece, with article", ONE[kind])


def pieces(kind: str) -> Phrase:
    return phrase_in("pieces", MANY[kind])


def more_pieces(kind: str | None, n: int) -> Phrase:
    """ "3 more tin cans"; "3 more pieces" before the turn's first piece binds its kind."""
    return MORE[kind if kind in MORE else None](n)


# The colours of the players' cards (`state.COLOURS`), as a word said alone ("red").
COLOUR = {
    "red": term("card colour", "red"),
    "blue": term("card colour", "blue"),
    "green": term("card colour", "green"),
    "yellow": term("card colour", "yellow"),
    "purple": term("card colour", "purple"),
}


def colour_name(colour: str) -> Phrase | str:
    """A colour's word; one this table lacks (an older game's) as it is."""
    return phrase_in("card colour", COLOUR[colour]) if colour in COLOUR else colour

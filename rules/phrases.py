"""Words to be said in the reader's language, kept as what to say rather than how.

A `Phrase` is an English sentence with `{named}` gaps and what fills them. Whoever shows
it (the bot, a picture) knows the reader and turns it into their language through the
catalogues in `lang/`; the English sentence is the catalogue's key (gettext's msgid). Code
that writes one uses the three markers below, which `python -m lang check` finds in the
source:

- `phrase("It is {name}'s turn.", name=...)`
- `phrase_n("{n} card", "{n} cards", n)`: a count, whose grammar each language keeps
  in its own plural forms (`{n}` is filled in too)
- `phrase_in("card name", "Pizza Box")`: the same English said in a certain sense, where
  another language may need two words for one

A gap's filling may be a `Phrase` itself (said in the same language), a `Listing` of them
("a, b and c", "a, b et c"), a number or plain text (a player's name, said as it is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Union

Filling = Union["Phrase", "Listing", str, int]


@dataclass(frozen=True)
class Phrase:
    """What to say: `text` (or `plural`, when `n` is not one in English) with its gaps
    filled from `fill`, in the sense `context` (gettext's msgctxt) where one is named."""

    text: str
    fill: Mapping[str, Filling] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    def __str__(self) -> str:
        """The English, as logs and the old plain-text paths read it."""
        return english(self)


@dataclass(frozen=True)
class Listing:
    """Several things said as one list, joined as the reader's language joins a list."""

    items: tuple[Filling, ...]


def phrase(text: str, /, **fill: Filling) -> Phrase:
    return Phrase(text, fill)


def phrase_n(singular: str, plural: str, n: int, /, **fill: Filling) -> Phrase:
    return Phrase(singular, {"n": n, **fill}, plural=plural, n=n)


def phrase_in(context: str, text: str, /, **fill: Filling) -> Phrase:
    return Phrase(text, fill, context=context)


def listing(items: Iterable[Filling]) -> Listing:
    return Listing(tuple(items))


def english(said: Filling) -> str:
    """The English of anything a gap may hold, with no catalogue: "a, b and c" for a list."""
    if isinstance(said, Phrase):
        text = said.text if said.n in (None, 1) or said.plural is None else said.plural
        return text.format_map({k: english(v) for k, v in said.fill.items()})
    if isinstance(said, Listing):
        words = [english(item) for item in said.items]
        return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
    return str(said)

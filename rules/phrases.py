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
- `term("card name", "Pizza Box")`: marks a word in a data table, which stays plain text
  there (a state or an action may hold it); it is said as `phrase_in` with the same sense

A gap's filling may be a `Phrase` itself (said in the same language), a `Listing` of them
("a, b and c", "a, b et c"), a `SeatName` (the player in a seat, named when shown), a number
or plain text (a name, said as it is).

Engines log phrases (`Event.text`), so a game's log can be read in any language later;
`to_json` and `from_json` keep one in the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

Filling = Union["Phrase", "Listing", "SeatName", str, int, float]


@dataclass(frozen=True)
class Phrase:
    """What to say: `text` (or `plural`, when `n` is not one in English) with its gaps
    filled from `fill`, in the sense `context` (gettext's msgctxt) where one is named."""

    text: str
    fill: Mapping[str, Filling] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    @property
    def english_form(self) -> str:
        """The English sentence for its count, gaps unfilled: `plural` unless `n` is one."""
        return self.text if self.n in (None, 1) or self.plural is None else self.plural

    def __str__(self) -> str:
        """The English, as logs and the old plain-text paths read it."""
        return english(self)


@dataclass(frozen=True)
class Listing:
    """Several things said as one list, joined as the reader's language joins a list."""

    items: tuple[Filling, ...]


@dataclass(frozen=True)
class SeatName:
    """The player in `seat`, named as the reader sees the table; in English without names,
    `{p<seat>}`, the placeholder the session fills in."""

    seat: int


class Readers(list[str]):
    """The seats' names as a board or a reply shows them, and the language its readers
    read (a Discord locale that has a catalogue, or "en")."""

    def __init__(self, names: Iterable[str] = (), language: str = "en") -> None:
        super().__init__(names)
        self.language = language


def language_of(names: Sequence[str]) -> str:
    """The language of readers who see the seats as `names`: that of `Readers`; English for
    a plain list of names."""
    return getattr(names, "language", "en")


def phrase(text: str, /, **fill: Filling) -> Phrase:
    return Phrase(text, fill)


def phrase_n(singular: str, plural: str, n: int, /, **fill: Filling) -> Phrase:
    return Phrase(singular, {"n": n, **fill}, plural=plural, n=n)


def phrase_in(context: str, text: str, /, **fill: Filling) -> Phrase:
    return Phrase(text, fill, context=context)


def term(context: str, text: str, /) -> str:
    """A data table's word, marked for the catalogues and left as it is (see the module)."""
    return text


def listing(items: Iterable[Filling]) -> Listing:
    return Listing(tuple(items))


def english(said: Filling) -> str:
    """The English of anything a gap may hold, with no catalogue: "a, b and c" for a list,
    `{p1}` for the player in seat 1."""
    if isinstance(said, Phrase):
        text = said.english_form
        if not said.fill:
            return text  # said as it is: a page of the rules may hold braces
        return text.format_map({k: english(v) for k, v in said.fill.items()})
    if isinstance(said, Listing):
        words = [english(item) for item in said.items]
        return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
    if isinstance(said, SeatName):
        return f"{{p{said.seat}}}"
    if isinstance(said, float):
        return f"{said:.1f}"
    return str(said)


def to_json(said: Filling) -> Any:
    """A filling as JSON: text and numbers as they are, the rest as tagged objects."""
    if isinstance(said, Phrase):
        data: dict[str, Any] = {"phrase": said.text}
        if said.fill:
            data["fill"] = {name: to_json(value) for name, value in said.fill.items()}
        if said.plural is not None:
            data["plural"], data["n"] = said.plural, said.n
        if said.context is not None:
            data["context"] = said.context
        return data
    if isinstance(said, Listing):
        return {"listing": [to_json(item) for item in said.items]}
    if isinstance(said, SeatName):
        return {"seat": said.seat}
    return said


def from_json(data: Any) -> Filling:
    if isinstance(data, dict):
        if "listing" in data:
            return Listing(tuple(from_json(item) for item in data["listing"]))
        if "seat" in data:
            return SeatName(int(data["seat"]))
        fill = {name: from_json(value) for name, value in data.get("fill", {}).items()}
        return Phrase(data["phrase"], fill, data.get("plural"), data.get("n"), data.get("context"))
    return data if isinstance(data, (int, float)) else str(data)

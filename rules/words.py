"""English for the games' log lines and labels, by a library that knows it (inflect):
"an Egg Carton", "1 crowbar", "3 mice". Answers are cached: the same few words recur on
every action, and an answer costs inflect some tens of microseconds.

inflect is held below version 6: versions 6 and 7 check every call's types through
pydantic or typeguard, and 7 takes about 3 s to import (in the bot, each worker and each
test process)."""

from __future__ import annotations

from functools import cache

import inflect

_ENGLISH = inflect.engine()


def _named_in_plural(noun: str) -> bool:
    """Whether the noun is already a plural, as a card's name may be ("Fish Bones")."""
    return bool(_ENGLISH.singular_noun(noun))


@cache
def counted(n: int, noun: str) -> str:
    """`n` and the noun in the number it takes: "1 crowbar", "0 lids", "3 mice", "-1
    point" (a score below zero agrees as the same count above it would); a name that is
    already a plural stays as it is ("2 Fish Bones", never "Fish Boneses")."""
    return f"{n} {plural(noun, abs(n))}"


@cache
def plural(noun: str, n: int) -> str:
    """The noun alone in the number `n` takes: "mouse", "mice"; "Fish Bones" either way."""
    if _named_in_plural(noun):
        return noun
    return str(_ENGLISH.plural_noun(noun, n))


@cache
def agreeing(verb: str, n: int) -> str:
    """A verb said of `n` things, given as said of one: "holds" for 1, "hold" for 3."""
    return str(_ENGLISH.plural_verb(verb, abs(n)))


@cache
def with_article(phrase: str) -> str:
    """`phrase` as one thing is first named: after "a" or "an", as it is said ("an Egg
    Carton", "a Pizza Box"), or bare when it is a plural noun, since English gives a plural
    no "a" ("Fish Bones", one card named in the plural)."""
    if _named_in_plural(phrase):
        return phrase
    return str(_ENGLISH.a(phrase))


def and_list(items: list[str]) -> str:
    """The items as a list is said: "", "a", "a and b", "a, b and c"."""
    return str(_ENGLISH.join(items, final_sep="")) if items else ""

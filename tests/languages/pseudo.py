"""Checks that a text went through the catalogues, in the tests' pseudo language
(`lang.PSEUDO`): every catalogued letter is accented, so a plain letter left over is a word
that skipped them."""

from __future__ import annotations

import re

from lang import PSEUDO

__all__ = ["PSEUDO", "foreign_only", "plain_words"]


def plain_words(text: str, *fillings: str) -> list[str]:
    """The plain-letter words of `text` once the gaps' fillings (names, game titles) and
    `code` (a command to type) are taken out: none when every word was catalogued."""
    for filling in sorted(fillings, key=len, reverse=True):
        text = text.replace(filling, " ")
    text = re.sub(r"`[^`]*`", " ", text)
    return re.findall(r"[A-Za-z]+", text)


def foreign_only(text: str, *fillings: str) -> bool:
    """Whether every word of `text` went through the pseudo language's catalogue."""
    return not plain_words(text, *fillings)

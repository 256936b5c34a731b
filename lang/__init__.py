"""The bot's languages: a gettext catalogue for each beside this file (`fr.po`, `de.po`),
read through Babel, and `say`, which puts a `rules.phrases.Phrase` into one of them.

English needs no catalogue: a phrase's English is its key. A language is added by adding
its catalogue, named by its Discord locale (`fr`, `de`, `pt-BR`): `python -m lang update`
writes one with every phrase still to translate, and `python -m lang check` (in
`make lint`) fails while any phrase is missing from a catalogue.

`PSEUDO` is a language for the tests: every phrase comes out wrapped in ⟦ ⟧ with its
letters accented, so that a test can find any text that skipped the catalogues.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from rules.phrases import Filling, Listing, Phrase, SeatName, english

HERE = Path(__file__).resolve().parent
ENGLISH = "en"
PSEUDO = "qps-ploc"  # the tag Windows gives its pseudo-locale; Discord has no such locale


def catalogue_paths() -> dict[str, Path]:
    """Each language's catalogue file, by its Discord locale."""
    return {path.stem: path for path in sorted(HERE.glob("*.po"))}


LANGUAGES: tuple[str, ...] = (ENGLISH, *catalogue_paths())


def language_for(locale: object) -> str:
    """The language a Discord locale ("fr", "de", "en-GB", "pt-BR"; a `discord.Locale` or
    its value) is served in: its own catalogue, else its language's ("es-419" -> "es"),
    else English."""
    tag = str(getattr(locale, "value", locale) or "")
    if tag in LANGUAGES or tag == PSEUDO:
        return tag
    base = tag.split("-")[0]
    return base if base in LANGUAGES else ENGLISH


def native_name(language: str) -> str:
    """A language's name in itself, as a menu of languages shows it: "Français", "Deutsch"."""
    name = Locale.parse(language.replace("-", "_")).display_name or language
    return name[:1].upper() + name[1:]


@cache
def catalogue(language: str) -> Translations:
    """A language's translations, compiled in memory from its `.po` (fuzzy entries, which
    a translator has not confirmed, are left out, as gettext leaves them out)."""
    with catalogue_paths()[language].open("rb") as po:
        messages = read_po(po, locale=language.replace("-", "_"))
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    return Translations(compiled)


def say(said: Filling, language: str, names: Sequence[str] | None = None) -> str:
    """`said` in `language`: a phrase through the language's catalogue, its gaps filled in
    the same language, a seat by its name in `names`; plain text and numbers as they are.
    English with no names is `english`, seats left as `{p<seat>}`."""
    if language == ENGLISH and names is None:
        return english(said)
    if isinstance(said, SeatName):
        return names[said.seat] if names is not None else english(said)
    if isinstance(said, Listing):
        items = [say(item, language, names) for item in said.items]
        if language == PSEUDO and len(items) > 1:  # its own "and", marked like any word
            return ", ".join(items[:-1]) + f" {pseudo('and')} " + items[-1]
        return format_list(items, locale=_babel_locale(language)) if items else ""
    if isinstance(said, float):  # a rating: one decimal, written as the language writes it
        return format_decimal(said, "0.0", locale=_babel_locale(language))
    if not isinstance(said, Phrase):
        return str(said)
    text = _translated(said, language)
    if not said.fill:
        return text  # said as it is: a page of the rules may hold braces
    return text.format_map(_Gaps(said.fill, language, names))


def _translated(said: Phrase, language: str) -> str:
    if language == ENGLISH:
        return said.english_form
    if language == PSEUDO:
        return pseudo(said.english_form)
    found = catalogue(language)
    context = said.context
    if said.plural is not None and said.n is not None:
        if context is None:
            return str(found.ngettext(said.text, said.plural, said.n))
        return str(found.npgettext(context, said.text, said.plural, said.n))
    return str(found.gettext(said.text) if context is None else found.pgettext(context, said.text))


class _Gaps(dict[str, str]):
    """A phrase's fillings said in the reader's language, as `str.format_map` reads them."""

    def __init__(
        self, fill: Mapping[str, Filling], language: str, names: Sequence[str] | None
    ) -> None:
        super().__init__({name: say(value, language, names) for name, value in fill.items()})


def _babel_locale(language: str) -> str:
    """English lists as the games have always said them ("a, b and c")."""
    return "en_GB" if language in (ENGLISH, PSEUDO) else language.replace("-", "_")


_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥʠŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤʠŔŠŢÚṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """English made visibly foreign, its `{gaps}` and `code` (a command to type) kept:
    "It is {name}'s turn." becomes "⟦Íţ íš {name}'š ţúŕñ.⟧"."""
    out, depth, code = [], 0, False
    for char in text:
        depth += char == "{"
        code ^= char == "`"
        out.append(char if depth or code else char.translate(_ACCENTED))
        depth -= char == "}"
    return "⟦" + "".join(out) + "⟧"

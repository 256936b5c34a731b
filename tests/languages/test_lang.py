"""Issue 40: phrases said in the reader's language through the catalogues of lang/, and the
check of `make lint` that keeps every catalogue complete."""

from __future__ import annotations

import subprocess
import sys

import pytest
from babel.messages.catalog import Catalog

from lang import ENGLISH, PSEUDO, language_for, pseudo, say
from lang.__main__ import problems
from rules.phrases import listing, phrase, phrase_in, phrase_n

TURN = (
    "It is not your turn: {names} is to play.",
    "It is not your turn: {names} are to play.",
)


def not_your_turn(*names: str):
    return phrase_n(*TURN, len(names), names=listing(names))


def test_english_is_the_phrase_itself_with_its_gaps_filled():
    assert say(phrase("{name} has already picked that one.", name="Ann"), ENGLISH) == (
        "Ann has already picked that one."
    )
    assert say(not_your_turn("Ann"), ENGLISH) == "It is not your turn: Ann is to play."
    assert say(not_your_turn("Ann", "Bo", "Cy"), ENGLISH) == (
        "It is not your turn: Ann, Bo and Cy are to play."
    )


def test_a_phrase_is_said_through_its_languages_catalogue():
    said = phrase("{name} has already picked that one.", name="Ann")
    assert say(said, "fr") == "Ann l'a déjà choisi."
    assert say(said, "de") == "Ann hat das schon gewählt."


def test_a_count_takes_the_plural_form_of_its_language():
    assert say(not_your_turn("Ann"), "de") == "Du bist nicht am Zug: Ann ist dran."
    assert say(not_your_turn("Ann", "Bo"), "de") == "Du bist nicht am Zug: Ann und Bo sind dran."


def test_a_list_is_joined_as_its_language_joins_lists():
    assert say(not_your_turn("Ann", "Bo", "Cy"), "fr").endswith("c'est à Ann, Bo et Cy de jouer.")


def test_the_same_english_in_another_sense_is_another_entry():
    """ "game" the command group is a game under way; "game" the option is a game to learn."""
    assert say(phrase_in("command name", "game"), "fr") == "partie"
    assert say(phrase_in("option name", "game"), "fr") == "jeu"


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("fr", "fr"),
        ("de", "de"),
        ("en-GB", ENGLISH),
        ("en-US", ENGLISH),
        ("es-419", ENGLISH),
        ("", ENGLISH),
        (None, ENGLISH),
        (PSEUDO, PSEUDO),
    ],
)
def test_a_discord_locale_is_served_in_its_language_or_english(locale, language):
    assert language_for(locale) == language


def test_the_pseudo_language_marks_every_word_and_keeps_gaps_and_commands():
    assert pseudo("It is {name}'s turn: use `/game stop`.") == (
        "⟦Íţ íš {name}'š ţúŕñ: úšé `/game stop`.⟧"
    )
    assert say(phrase("{name} has already picked that one.", name="Ann"), PSEUDO).startswith(
        "⟦Ann ĥáš"
    )


def test_every_catalogue_has_every_phrase_the_bot_says():
    """`python -m lang check` (in `make lint`): every phrase marked in the code, every word
    of the slash commands and every `/rules` page, in every catalogue, with the same gaps.
    Run as the bot starts, in a process of its own: a test process also holds the tests'
    own plug-in game, which no catalogue translates."""
    checked = subprocess.run(
        [sys.executable, "-m", "lang", "check"], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert " 0 problems" in checked.stdout


def catalogue_with(*entries: tuple[str | None, str, str]) -> Catalog:
    catalog = Catalog(locale="fr")
    for context, english, french in entries:
        catalog.add(english, french, context=context)
    return catalog


def test_the_check_names_a_missing_a_broken_and_an_unused_phrase():
    wanted = catalogue_with(
        (None, "Hello {name}.", ""),
        (None, "Bye.", ""),
        ("command name", "stop", ""),
    )
    have = catalogue_with(
        (None, "Hello {name}.", "Bonjour {nom}."),  # a gap renamed: nothing would fill it
        ("command name", "stop", "Arrêter"),  # Discord wants command names lowercase
        (None, "Gone.", "Parti."),
    )
    found = list(problems("fr", have, wanted))
    assert any("'Bye.' is not translated" in p for p in found)
    assert any("gaps the English lacks" in p for p in found)
    assert any("lowercase" in p for p in found)
    assert any("'Gone.' is no longer said" in p for p in found)
    assert len(found) == 4


def test_the_pseudo_language_marks_a_lists_and_too():
    assert say(listing(["Ann", "Bo", "Cy"]), PSEUDO) == "Ann, Bo ⟦áñđ⟧ Cy"

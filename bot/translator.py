"""Slash commands in the client's language: discord.py's `app_commands.Translator`, reading
the catalogues of `lang/`. When the tree is synced, discord.py asks it for every name,
description and choice in every Discord locale, and Discord shows each person the one for
their client's language.

A command's words are looked up in the sense (gettext's msgctxt) of where they stand, so
that "game" the command group can be "partie" while "game" the option is "jeu": `command
name` for command and group names, `option name` for options' (Discord wants both
lowercase, without spaces), `choice` for a choice's name, none for descriptions.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from lang import ENGLISH, language_for, say
from rules.phrases import Phrase

NAME = "command name"
OPTION = "option name"
CHOICE = "choice"
CONTEXTS: dict[Where, str | None] = {
    Where.command_name: NAME,
    Where.group_name: NAME,
    Where.parameter_name: OPTION,
    Where.choice_name: CHOICE,
    Where.command_description: None,
    Where.group_description: None,
    Where.parameter_description: None,
    Where.other: None,
}


def command_phrase(text: str, where: Where) -> Phrase:
    """A command tree's word as a phrase in the sense of where it stands."""
    return Phrase(text, context=CONTEXTS[where])


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_for(locale)
        if language == ENGLISH:
            return None
        said = say(command_phrase(string.message, context.location), language)
        # None leaves Discord to show the English where a catalogue has no word yet.
        return said if said != string.message else None


class _Recorder(app_commands.Translator):
    """Notes every word the tree would have translated, with where it stands."""

    def __init__(self) -> None:
        self.seen: list[Phrase] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.seen.append(command_phrase(string.message, context.location))
        return None


async def command_words(tree: app_commands.CommandTree[Any]) -> list[Phrase]:
    """Every name, description and choice of the tree's commands, as phrases to translate."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    unique = {(p.context, p.text): p for p in recorder.seen}
    return list(unique.values())

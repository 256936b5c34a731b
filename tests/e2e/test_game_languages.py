"""Issue 40's promise, game by game: a whole game through the fake Discord on a French
server with a German player. Every public message (lobby, boards, standings) reads in
French, every reply only that player sees reads in German, and none of it in English.

The player plays with the language-free driver (`tests/e2e/any_game.py`), against as few
normal AI seats as the game allows. English is found by its small words, which French and
German do not share; names, game titles and `commands` are taken out first. That every word
went through the catalogues at all is the pseudo language's check (the games'
`test_*_languages.py`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.client import TrashTableBot
from bot.games import GAMES
from bot.requests import seat_names
from tests.e2e.any_game import open_with_ai, play_to_the_end
from tests.e2e.conftest import Table
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.state import walk_components
from tests.postgres import SQLITE_ONLY

pytestmark = SQLITE_ONLY

# Small English words that are not French or German words too.
ENGLISH_WORDS = (
    "the your you is are and of to this that with from turn plays played draws drew wins "
    "won card cards game my next back done player players takes took throws move moves its "
    "no yes out over round who what which pick choose join leave cancel add now left right "
    "wall walls piece pieces lay down drop"
)
ENGLISH = frozenset(ENGLISH_WORDS.split())
FRENCH = frozenset(
    ["le", "la", "les", "une", "des", "vous", "votre", "est", "avec", "pour", "dans", "sur"]
)
GERMAN = frozenset(
    ["der", "die", "das", "und", "ist", "nicht", "dein", "deine", "mit", "ein", "eine", "auf"]
)


def words_of(text: str, language: frozenset[str], *fillings: str) -> list[str]:
    """The words of `text` in `language`'s list, once names, titles and `code` are out."""
    for filling in sorted(fillings, key=len, reverse=True):
        text = text.replace(filling, " ")
    text = re.sub(r"`[^`]*`|<[@#:/][^>]*>|https?://\S+", " ", text)
    return [w for w in re.findall(r"\w+", text) if w.lower() in language]


def version_texts(version: dict[str, Any]) -> Iterator[str]:
    """Every text a person reads in one version of a message (pictures aside)."""
    yield str(version.get("content") or "")
    for embed in version.get("embeds") or []:
        yield str(embed.get("title") or "")
        yield str(embed.get("description") or "")
        yield str((embed.get("footer") or {}).get("text") or "")
        for field in embed.get("fields") or []:
            yield f"{field.get('name', '')} {field.get('value', '')}"
    for component in walk_components(version.get("components")):
        yield str(component.get("content") or "")
        yield str(component.get("label") or "")
        yield str(component.get("placeholder") or "")
        for option in component.get("options") or []:
            yield f"{option.get('label', '')} {option.get('description') or ''}"


def read(messages: list[FakeMessage]) -> str:
    return "\n".join(text for m in messages for v in m.versions for text in version_texts(v))


# Seeds whose games are short: each board reaches the channel at Discord's pace.
SHORT_SEEDS = {"rumble": 3, "trashwar": 7, "brawl": 5, "toss": 3}


@pytest.mark.parametrize("kind", sorted(SHORT_SEEDS))
async def test_a_whole_game_in_french_with_a_german_player(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord, kind: str
) -> None:
    fake_discord.guild.preferred_locale = "fr"
    table.alice.user.locale = "de"
    seed = SHORT_SEEDS[kind]
    await open_with_ai(bot, table.alice, kind, ai=GAMES[kind].min_seats - 1, seed=seed)
    game = await play_to_the_end(bot, table.alice, random.Random(seed))
    assert game.status == "finished" and game.language == "fr"

    fillings = [*seat_names(game, "fr"), *seat_names(game, "de"), GAMES[kind].title]
    fillings += [u.name for u in fake_discord.users]
    public = [m for m in fake_discord.messages() if not m.ephemeral]
    private = [m for m in fake_discord.messages() if m.ephemeral_to == table.alice.id]
    assert public and private
    french, german = read(public), read(private)
    assert words_of(french, ENGLISH, *fillings) == [], french
    assert words_of(german, ENGLISH, *fillings) == [], german
    # Each in its own language, not the other's: words only French or only German has.
    assert words_of(french, FRENCH, *fillings) and not words_of(french, GERMAN, *fillings)
    assert words_of(german, GERMAN, *fillings) and not words_of(german, FRENCH, *fillings)
    assert fake_discord.problems() == []

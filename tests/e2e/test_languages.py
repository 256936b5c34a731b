"""Issue 40, speaking the player's language: what the fake Discord receives from the real bot.

Discord shows each person a command's name, description, options and choices in their
client's language when the bot gives them (`name_localizations` and the like, set through
the translator in bot/translator.py); the fake refuses a name Discord would refuse.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Table
from tests.fakediscord import FakeDiscord
from tests.languages.pseudo import PSEUDO, foreign_only
from tests.postgres import SQLITE_ONLY

pytestmark = SQLITE_ONLY


def command(fake: FakeDiscord, name: str) -> dict[str, Any]:
    return next(c for c in fake.commands() if c["name"] == name)


def option(parent: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in parent["options"] if o["name"] == name)


async def test_commands_are_named_in_french_and_german(bot, fake_discord: FakeDiscord) -> None:
    game = command(fake_discord, "game")
    assert game["name_localizations"]["fr"] == "partie"
    assert game["description_localizations"]["de"] == "Die Partie in diesem Kanal"
    stop = option(game, "stop")
    assert (stop["name_localizations"]["fr"], stop["name_localizations"]["de"]) == (
        "arrêter",
        "beenden",
    )
    # The same English word in another place: "game" the option of /rules is a game to learn.
    which = option(command(fake_discord, "rules"), "game")
    assert which["name_localizations"]["fr"] == "jeu"
    mode = option(option(command(fake_discord, "brawl"), "new"), "mode")
    choices = {c["value"]: c["name_localizations"]["de"] for c in mode["choices"]}
    assert choices["king-of-the-heap"].startswith("König des Haufens")
    # English is the default: Discord wants no English localizations where they are the same.
    assert "en-US" not in game["name_localizations"]
    assert fake_discord.problems() == []


async def test_refusals_are_said_in_each_pressers_language(bot, table: Table, fake_discord):
    """A private reply follows the presser's client language (`locale`), whatever the
    server's; no refusal skips the catalogues (the pseudo language marks every word)."""
    table.bob.user.locale = PSEUDO
    table.carol.user.locale = "de"
    await table.alice.slash("/rumble new")
    busy = await table.bob.slash("/rumble new")
    assert busy.ephemeral_text.startswith("⟦")
    assert foreign_only(busy.ephemeral_text, "Rumble in the Dungeon"), busy.ephemeral_text
    in_german = await table.carol.slash("/rumble new")
    assert in_german.ephemeral_text == (
        "Dieser Kanal hat schon eine Partie Rumble in the Dungeon. "
        "Beende sie oder nutze zuerst `/game stop`."
    )
    too_few = await table.alice.click("Start")
    assert "at least 2 players; there are 1" in too_few.ephemeral_text
    await table.bob.click("Join")
    refusals = [
        await table.bob.click("Start"),  # only the host starts
        await table.bob.click("Join"),  # already in
        await table.bob.slash("/game stop"),  # only the host or a manager
        await table.bob.slash("/game timer", minutes=5),
    ]
    for refused in refusals:
        assert foreign_only(refused.ephemeral_text), refused.ephemeral_text
    await table.alice.click("Start")
    stranger = await table.carol.slash("/game leave")
    assert stranger.ephemeral_text == "Du spielst in der Partie dieses Kanals nicht mit."
    assert fake_discord.problems() == []


async def test_a_lobby_speaks_the_servers_language_or_the_one_its_admins_chose(
    bot, table: Table, fake_discord
):
    """Without a choice, a game speaks the server's own language (`guild_locale`); `/language`
    (for those who manage the server) sets it for the next lobby, never a game under way."""
    fake_discord.guild.preferred_locale = "de"
    await table.alice.slash("/rumble new")
    game = await bot.sessions.current(fake_discord.channel.id)
    assert game is not None and game.language == "de"

    refused = await table.bob.slash("/language", language="fr")
    assert "manage this server" in refused.ephemeral_text
    admin = fake_discord.user("owner", admin=True)
    chosen = await admin.slash("/language", language="fr")
    assert "Français" in chosen.ephemeral_text
    assert (await bot.sessions.current(fake_discord.channel.id)).language == "de"  # kept
    await table.alice.slash("/game stop")
    await table.alice.slash("/rumble new")
    assert (await bot.sessions.current(fake_discord.channel.id)).language == "fr"

    await admin.slash("/language", language="server")  # back to the server's own
    await table.alice.slash("/game stop")
    await table.alice.slash("/rumble new")
    assert (await bot.sessions.current(fake_discord.channel.id)).language == "de"
    assert fake_discord.problems() == []

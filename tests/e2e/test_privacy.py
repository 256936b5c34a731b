"""/privacy through the fake Discord: a person sees what the bot keeps about them and has it
removed; a server's admin removes the server's data; a server that removes the bot loses
its data after the grace period. Each time every table is searched afterwards."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import pytest

from bot.client import TrashTableBot
from bot.keeping import Swept
from bot.models import utcnow
from cogs.privacy._cog import ADMINS_ONLY
from tests.bot.test_keeping import every_row, mentions
from tests.e2e.conftest import Table
from tests.e2e.play import finished_rumble
from tests.fakediscord import FakeDiscord

MANAGE_GUILD = 1 << 5


async def tables_holding(bot: TrashTableBot, *needles: str) -> list[str]:
    """The tables with a row holding any of `needles` anywhere in its text."""
    return mentions(await every_row(bot.db), *needles)


def privacy_cog(bot: TrashTableBot) -> Any:
    """The loaded cog (an extension's module is loaded afresh: not `PrivacyCog` of here)."""
    cog = bot.get_cog("PrivacyCog")
    assert cog is not None
    return cog


# One finished game serves both removals (a whole game takes a while): the bot's own
# database code is tested on SQLite and PostgreSQL in tests/bot/test_keeping.py.
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_player_and_then_an_admin_have_what_is_kept_removed(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord
) -> None:
    """/privacy me: a player sees what is kept about them and removes it, after which no
    table holds their id or name; /privacy server: a Manage Server admin removes the
    server's data (not while a game is under way), after which no table holds its id."""
    await finished_rumble(bot, table, fake_discord)
    game = (await bot.sessions.history(fake_discord.guild.id))[0][0]
    name = game.seats[0].name
    assert await tables_holding(bot, str(table.alice.id), name) != []

    asked = await table.alice.slash("/privacy me")
    (reply,) = asked.ephemeral
    assert "your name and seat in 1 finished or stopped game" in reply.text
    assert "1 scoreboard line and 0 ratings" in reply.text  # alone with the AI: unrated
    removed = await table.alice.press(reply, "Remove my data")
    assert 'now "a former player" in 1 game' in removed.edited[0].text
    assert not removed.edited[0].buttons
    assert await tables_holding(bot, str(table.alice.id), name) == []
    again = await table.alice.slash("/privacy me")
    assert again.ephemeral_text == "Trash Table keeps nothing about you."
    history = await table.bob.slash("/history")
    assert "a former player" in str(history.public[0].embeds)

    admin = fake_discord.user("admin", permissions=MANAGE_GUILD)
    guild = str(fake_discord.guild.id)
    refused = await table.mod.slash("/privacy server")
    assert refused.ephemeral_text == str(ADMINS_ONLY)
    await table.bob.slash("/rumble new")
    asked = await admin.slash("/privacy server")
    (reply,) = asked.ephemeral
    assert "90 days" in reply.text and "30 days later" in reply.text
    busy = await admin.press(reply, "Remove this server's data")
    assert "stop them first" in busy.ephemeral_text
    assert await tables_holding(bot, guild) == ["games", "results"]

    await table.bob.click("Cancel")
    removed = await admin.press(reply, "Remove this server's data")
    assert "Removed this server's data: 2 games" in removed.edited[0].text
    assert await tables_holding(bot, guild) == []
    board = await table.bob.slash("/scoreboard")
    assert "No rated games yet" in str(board.public[0].embeds)


async def test_a_player_in_a_game_is_told_to_leave_it_first(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord
) -> None:
    await table.alice.slash("/rumble new")
    asked = await table.alice.slash("/privacy me")
    (reply,) = asked.ephemeral
    assert f"games under way in <#{fake_discord.channel.id}>" in reply.text
    refused = await table.alice.press(reply, "Remove my data")
    assert "leave it (/game leave) or let it end first" in refused.ephemeral_text
    assert await bot.sessions.current(fake_discord.channel.id) is not None


async def test_a_server_that_removed_the_bot_loses_its_data_after_the_grace_period(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    guild = str(fake_discord.guild.id)
    await table.alice.slash("/rumble new")
    await table.alice.click("Cancel")
    await fake_discord.guilds[0].remove_bot()
    await fake_discord.wait_for(
        lambda: bot.get_guild(fake_discord.guild.id) is None, timeout=10, what="the guild to go"
    )

    for _ in range(200):  # on_guild_remove writes the departure
        if "departed_guilds" in await tables_holding(bot, guild):
            break
        await asyncio.sleep(0.05)
    cog = privacy_cog(bot)
    assert await cog.sweep(utcnow() + timedelta(days=29)) == Swept(0, 0)
    assert await tables_holding(bot, guild) == ["departed_guilds", "games"]
    caplog.set_level(logging.INFO, logger="cogs.privacy")
    swept = await cog.sweep(utcnow() + timedelta(days=31))  # pytest raises a logging error
    assert swept is not None and swept.guilds == 1
    assert await tables_holding(bot, guild) == []
    assert (
        "clean-up: removed 0 games past retention and the data of 1 departed servers; "
        "archived the logs of 0 finished games"
    ) in caplog.messages

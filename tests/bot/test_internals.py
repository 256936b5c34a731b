"""The libraries' internals the bot uses (bot/internals/), each against the installed version:
these fail if an upgrade renames or moves one, before the bot would."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import sqlalchemy
from discord import app_commands

from bot.internals import aiosqlite as aiosqlite_internals
from bot.internals import discord as discord_internals
from bot.internals import sqlalchemy as sqlalchemy_internals
from bot.models import GameRecord
from bot.sqlite_driver import connect

BUTTON = 2  # Discord's component type of a button

# ---------------------------------------------------------------------- discord.py


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:count:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="count", custom_id=f"tt:count:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Counter:
        return cls(int(match["n"]))


def persistent_view(custom_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="press", custom_id=custom_id))
    return view


@pytest.fixture
async def client() -> AsyncIterator[discord.Client]:
    """A client that never connects, with a command tree (as the bot's), inside a loop."""
    async with discord.Client(intents=discord.Intents.none()) as client:
        app_commands.CommandTree(client)
        yield client


async def test_the_view_store_says_which_item_takes_a_press(client: discord.Client) -> None:
    anywhere, on_message = persistent_view("tt:anywhere"), persistent_view("tt:here")
    client.add_view(anywhere)
    client.add_view(on_message, message_id=5)
    found = discord_internals.registered_item(client, None, BUTTON, "tt:anywhere")
    assert found is not None and found.view is anywhere
    found = discord_internals.registered_item(client, 5, BUTTON, "tt:here")
    assert found is not None and found.view is on_message
    assert discord_internals.registered_item(client, None, BUTTON, "tt:here") is None
    assert discord_internals.registered_item(client, 5, 3, "tt:here") is None  # not a menu


async def test_the_view_store_says_which_dynamic_items_match(client: discord.Client) -> None:
    client.add_dynamic_items(Counter)
    assert discord_internals.dynamic_items_matching(client, "tt:count:12") == [Counter]
    assert discord_internals.dynamic_items_matching(client, "tt:count:12x") == []  # whole only
    client.remove_dynamic_items(Counter)
    assert discord_internals.dynamic_items_matching(client, "tt:count:12") == []


def interaction_payload(kind: int, data: dict[str, Any]) -> Any:
    """An INTERACTION_CREATE as the gateway sends it (the fields discord.py needs)."""
    return {
        **{"id": "11", "application_id": "2", "type": kind, "token": "t", "version": 1},
        **{"channel_id": "7", "locale": "en-US", "attachment_size_limit": 8_000_000},
        "data": data,
        "user": {"id": "3", "username": "player", "discriminator": "0", "avatar": None},
    }


async def test_interactions_are_answered_in_tasks_of_the_names_we_wait_for(
    client: discord.Client,
) -> None:
    """A slash command, a press on a view and a press on a `DynamicItem`, each delivered
    as the gateway delivers it: discord.py answers each in a task `answering_tasks` sees."""
    client.add_view(persistent_view("tt:anywhere"))
    client.add_dynamic_items(Counter)
    state = client._connection
    before = set(asyncio.all_tasks())
    state.parse_interaction_create(interaction_payload(2, {"id": "4", "name": "rules", "type": 1}))
    press = {"custom_id": "tt:anywhere", "component_type": BUTTON}
    state.parse_interaction_create(interaction_payload(3, press))
    press = {"custom_id": "tt:count:12", "component_type": BUTTON}
    state.parse_interaction_create(interaction_payload(3, press))
    started = set(asyncio.all_tasks()) - before
    answering = discord_internals.answering_tasks()
    try:
        names = sorted(task.get_name() for task in answering)
        assert [name.split("-")[0] for name in names] == ["CommandTree", "discord", "discord"]
        assert names[1].startswith("discord-ui-dynamic-item-Counter-tt:count:12")
        assert names[2].startswith("discord-ui-view-dispatch-")
        assert set(answering) <= started
    finally:
        for task in started:
            task.cancel()
        await asyncio.gather(*started, return_exceptions=True)


async def test_a_failed_login_leaves_the_next_one_a_working_connector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = discord.Client(intents=discord.Intents.none())

    async def unreachable(*_args: Any, **_kwargs: Any) -> Any:
        raise aiohttp.ClientConnectionError("Discord is out of reach")

    monkeypatch.setattr(client.http, "request", unreachable)
    with pytest.raises(aiohttp.ClientConnectionError):
        await client.http.static_login("token")
    failed = client.http.connector
    await discord_internals.close_http_session(client)
    assert failed.closed
    with pytest.raises(aiohttp.ClientConnectionError):
        await client.http.static_login("token")
    assert client.http.connector is not failed and not client.http.connector.closed
    await client.http.close()


def test_another_api_is_where_discord_py_sends_its_requests() -> None:
    base = discord.http.Route.BASE
    try:
        discord_internals.point_at_api("http://127.0.0.1:9/api/v10")
        route = discord.http.Route("GET", "/users/@me")
        assert route.url == "http://127.0.0.1:9/api/v10/users/@me"
    finally:
        discord.http.Route.BASE = base


async def test_the_gateway_the_api_names_is_the_one_discord_py_dials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = discord.Client(intents=discord.Intents.none())

    async def gateway(*_args: Any, **_kwargs: Any) -> tuple[int, str, Any]:
        return 1, "ws://127.0.0.1:9/gateway", {}

    monkeypatch.setattr(client.http, "get_bot_gateway", gateway)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None)
    await discord_internals.use_gateway_of_api(client)
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"


# ---------------------------------------------------------------------- aiosqlite


async def test_aiosqlite_runs_every_call_through_execute_in_place() -> None:
    """Every call (execute, fetch, commit, cursors') goes through the overridden `_execute`,
    so each runs on the loop's thread; a closed connection refuses, as aiosqlite's does."""
    threads: list[int] = []
    connection = await connect(":memory:")
    assert isinstance(connection, aiosqlite_internals.InPlaceConnection)
    assert connection._thread.daemon and connection._thread.is_alive()
    await connection.create_function("here", 0, lambda: threads.append(threading.get_ident()))
    async with connection.execute("SELECT here()") as cursor:
        assert list(await cursor.fetchall()) == [(None,)]
    await connection.execute("CREATE TABLE t (x)")
    await connection.execute_insert("INSERT INTO t VALUES (here())")
    await connection.commit()
    assert threads == [threading.get_ident()] * 2
    await connection.close()
    with pytest.raises(ValueError, match="Connection closed"):
        await connection._execute(lambda: None)  # as aiosqlite's own: closed is closed
    connection._thread.join(timeout=5)
    assert not connection._thread.is_alive()


def test_aiosqlite_makes_its_thread_before_it_opens() -> None:
    """`in_place_connection` marks the thread a daemon before awaiting starts it."""
    connection = aiosqlite_internals.in_place_connection(lambda: sqlite3.connect(":memory:"))
    assert isinstance(connection._thread, threading.Thread)
    assert connection._thread.daemon and not connection._thread.is_alive()


# ---------------------------------------------------------------------- SQLAlchemy


def test_an_instance_made_from_a_row_is_one_the_orm_could_have_loaded() -> None:
    row: dict[str, Any] = {column.key: None for column in sqlalchemy.inspect(GameRecord).columns}
    row.update(id=7, channel_id=70, game="toss", status="lobby", state={"turn": 3})
    game = sqlalchemy_internals.loaded_instance(GameRecord, row)
    assert type(game) is GameRecord
    assert (game.id, game.channel_id, game.state) == (7, 70, {"turn": 3})
    state = sqlalchemy.inspect(game)
    assert state.transient  # the ORM's bookkeeping is there; no session has it
    assert state.attrs.status.loaded_value == "lobby"
    game.status = "playing"  # changed as the ORM tracks a change
    assert state.attrs.status.history.added == ["playing"]

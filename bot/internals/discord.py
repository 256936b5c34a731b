"""discord.py's internals, every use of them (checked against discord.py 2.7).

- Which item discord.py will hand a component press to: its `ViewStore`, reached through
  `Client._connection._view_store`, with `_views` and `_dynamic_items`. discord.py drops a
  press nobody registered without a word; `cogs.shared.interactions.claimed` answers those.
  Public alternative: none. `Client.persistent_views` lists the persistent views only (not
  the views bound to one message, not the `DynamicItem` classes), and there is no event for
  a press nobody took.
- The tasks discord.py answers interactions in, known by the names it gives them, so that a
  stop lets the presses already taken finish (`bot.client.stop_cleanly`). Public
  alternative: none; discord.py keeps those tasks to itself.
- Its HTTP client's connector after a failed login (`Client.http`, not documented).
  Public alternative: `Client.clear()` forgets the closed session but keeps the connector
  the closed session closed, so the next login would fail on it.
- Another Discord API (the fake Discord of the tests, a proxy): the REST base and gateway
  are class attributes of undocumented classes (`http.Route.BASE`,
  `gateway.DiscordWebSocket.DEFAULT_GATEWAY`), and the gateway's address comes from
  `HTTPClient.get_bot_gateway`. Public alternative: none; `Client` takes no API address.
- An interaction's answer edited through its webhook alone: `Webhook.edit_message` puts the
  message id it is given into the request's route as it is, so `ORIGINAL` makes the request
  `Interaction.edit_original_response` makes, without keeping the interaction (guarded by
  tests/cogs/test_carriers.py). Public alternative: keep the interaction and call that.

A discord.py upgrade: run tests/bot/test_internals.py and tests/cogs/test_carriers.py, which
fail if any of these moved.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import yarl

# Discord's name, in a webhook message route, for the message an interaction's answer is.
ORIGINAL: Any = "@original"

# The names discord.py gives the tasks that answer one interaction (app_commands/tree.py and
# ui/view.py): a slash command, a `DynamicItem`'s press, a view's press. Modals would add
# "discord-ui-modal-dispatch-"; the bot has none.
ANSWERING_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-")


def registered_item(
    client: discord.Client, message_id: int | None, kind: int, custom_id: str
) -> discord.ui.Item[Any] | None:
    """The view item discord.py has registered for a press of control `custom_id` (of
    Discord's component type `kind`) on message `message_id`; `message_id` None: an item
    registered for any message (a persistent view added without one). Mirrors the first
    lookups of `ViewStore.dispatch_view`."""
    views: dict[int | None, dict[tuple[int, str], discord.ui.Item[Any]]]
    views = client._connection._view_store._views
    return views.get(message_id, {}).get((kind, custom_id))


def dynamic_items_matching(
    client: discord.Client, custom_id: str
) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The `DynamicItem` classes whose custom id template matches `custom_id` whole: those
    discord.py tries for a press of that control (`ViewStore.dispatch_dynamic_items`)."""
    store = client._connection._view_store
    return [item for pattern, item in store._dynamic_items.items() if pattern.fullmatch(custom_id)]


def answering_tasks() -> list[asyncio.Task[Any]]:
    """The tasks of the running loop in which discord.py is answering an interaction (the
    current task aside)."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(ANSWERING_TASKS)
    ]


async def close_http_session(client: discord.Client) -> None:
    """Close the HTTP session a failed login opened, so that the next login opens a new one.
    Closing the session closes its connector too; discord.py makes a new connector at login
    only if it has none (`HTTPClient.static_login`), so the closed one is forgotten."""
    await client.http.close()
    client.http.connector = discord.utils.MISSING


def point_at_api(base: str) -> None:
    """Talk to the Discord REST API at `base` (Discord itself unless a test says otherwise)."""
    discord.http.Route.BASE = base


async def use_gateway_of_api(client: discord.Client) -> None:
    """Connect to the gateway the REST API in use names: discord.py dials Discord's own
    unless told otherwise (a plain `Client` never asks the API for one)."""
    _shards, url, _limits = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

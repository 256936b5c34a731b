"""Which press's token can edit a board (cogs/shared/carriers.py): every edit it carries is
one the bot token need not make (issue 34)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web

from cogs.shared.carriers import Carrier, Carriers

CHANNEL, BOARD, REPLY = 7, 100, 900
UPDATE = discord.InteractionResponseType.message_update
DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update
REPLIED = discord.InteractionResponseType.channel_message  # a (private) reply of its own


class Edits:
    """What a press's token was asked to edit: `@original`, or a message it posted."""

    def __init__(self) -> None:
        self.made: list[int | str] = []

    async def edit_message(self, message_id: int | str, **_fields: Any) -> None:
        self.made.append(message_id)


def press(on: int, answered: discord.InteractionResponseType, edits: Edits) -> Any:
    """A press on channel message `on` (REPLY: the player's private reply), answered."""
    message = SimpleNamespace(id=on, flags=SimpleNamespace(ephemeral=on == REPLY))
    return SimpleNamespace(
        channel_id=CHANNEL,
        guild_id=1,
        message=message,
        response=SimpleNamespace(type=answered),
        followup=edits,
    )


async def test_a_board_is_edited_through_its_press_however_many_follow_in_the_reply() -> None:
    carriers, edits = Carriers(), Edits()
    carriers.add(my_hand := press(BOARD, DEFERRED_UPDATE, edits))
    for _ in range(20):  # the player decides in their private reply, press after press
        carriers.add(press(REPLY, UPDATE, edits))
    carrier = carriers.on(CHANNEL, BOARD)
    assert carrier is not None and carrier.followup is my_hand.followup
    await carrier.edit(BOARD, content=None)
    assert edits.made == ["@original"]


async def test_a_board_posted_as_a_press_s_followup_is_edited_through_that_press() -> None:
    carriers, edits = Carriers(), Edits()
    carriers.add(press(REPLY, UPDATE, edits))
    poster = carriers.newest(CHANNEL)
    assert poster is not None and carriers.on(CHANNEL, BOARD) is None
    carriers.posted(CHANNEL, BOARD, poster)
    for _ in range(20):  # a Toss It turn: each aim menu on the board opens a reply of its own
        carriers.add(press(BOARD, REPLIED, Edits()))
        carriers.add(press(REPLY, UPDATE, Edits()))
    assert carriers.on(CHANNEL, BOARD) is poster
    await poster.edit(BOARD, content=None)
    assert edits.made == [BOARD]
    carriers.drop(CHANNEL, poster)  # its token refused: the bot token carries the edit
    assert carriers.on(CHANNEL, BOARD) is None


async def test_a_carrier_keeps_no_interaction_once_it_is_answered() -> None:
    """Thousands of presses are kept at a time: each keeps its token, not the interaction
    with its member and message (a heap every full garbage collection walks)."""
    carriers = Carriers()
    answer = SimpleNamespace(type=None)
    unanswered = press(BOARD, DEFERRED_UPDATE, Edits())
    unanswered.response = answer
    carriers.add(unanswered)
    assert carriers.on(CHANNEL, BOARD) is None  # not answered yet: it can carry nothing
    answer.type = DEFERRED_UPDATE
    carrier = carriers.on(CHANNEL, BOARD)
    assert carrier is not None and carrier.unanswered is None


async def test_discord_py_edits_original_through_the_route_it_is_given() -> None:
    """`Carrier.edit` hands discord.py's `Webhook.edit_message` the id `@original`: the
    request must be the one `Interaction.edit_original_response` makes."""
    paths: list[str] = []

    async def record(request: web.Request) -> web.Response:
        paths.append(request.path)
        message = {
            **{"id": "1", "channel_id": "7", "type": 0, "content": "", "flags": 0},
            **{"attachments": [], "embeds": [], "mentions": [], "mention_roles": []},
            **{"pinned": False, "mention_everyone": False, "tts": False},
            **{"timestamp": "2026-11-27T00:00:00+00:00", "edited_timestamp": None},
            "author": {"id": "9", "username": "bot", "discriminator": "0", "avatar": None},
        }
        # exactly this content type: discord.py reads JSON only under it
        headers = {"Content-Type": "application/json"}
        return web.Response(body=json.dumps(message).encode(), headers=headers)

    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/{message}", record)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    try:
        async with aiohttp.ClientSession() as session:
            webhook = discord.Webhook.partial(5, "token", session=session)
            carrier = Carrier(webhook, BOARD, 0.0, answered=DEFERRED_UPDATE)
            await carrier.edit(BOARD, content="x")
    finally:
        discord.http.Route.BASE = base
        await runner.cleanup()
    assert paths == ["/api/v10/webhooks/5/token/messages/@original"]

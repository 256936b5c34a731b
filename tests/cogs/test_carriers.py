"""Which press's token can edit a board (cogs/shared/carriers.py): every edit it carries is
one the bot token need not make (issue 34)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.shared.carriers import Carriers

CHANNEL, BOARD, REPLY = 7, 100, 900
UPDATE = discord.InteractionResponseType.message_update
DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update
REPLIED = discord.InteractionResponseType.channel_message  # a (private) reply of its own


class Edits:
    """What a press's token was asked to edit: `@original`, or a message it posted."""

    def __init__(self) -> None:
        self.made: list[tuple[str, int | None]] = []

    async def original(self, **_fields: Any) -> None:
        self.made.append(("@original", None))

    async def followup(self, message_id: int, **_fields: Any) -> None:
        self.made.append(("followup", message_id))


def press(on: int, answered: discord.InteractionResponseType, edits: Edits) -> Any:
    """A press on channel message `on` (REPLY: the player's private reply), answered."""
    message = SimpleNamespace(id=on, flags=SimpleNamespace(ephemeral=on == REPLY))
    return SimpleNamespace(
        channel_id=CHANNEL,
        guild_id=1,
        message=message,
        response=SimpleNamespace(type=answered),
        edit_original_response=edits.original,
        followup=SimpleNamespace(edit_message=edits.followup),
    )


async def test_a_board_is_edited_through_its_press_however_many_follow_in_the_reply() -> None:
    carriers, edits = Carriers(), Edits()
    carriers.add(my_hand := press(BOARD, DEFERRED_UPDATE, edits))
    for _ in range(20):  # the player decides in their private reply, press after press
        carriers.add(press(REPLY, UPDATE, edits))
    carrier = carriers.on(CHANNEL, BOARD)
    assert carrier is not None and carrier.interaction is my_hand
    await carrier.edit(BOARD, content=None)
    assert edits.made == [("@original", None)]


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
    assert edits.made == [("followup", BOARD)]
    carriers.drop(CHANNEL, poster)  # its token refused: the bot token carries the edit
    assert carriers.on(CHANNEL, BOARD) is None

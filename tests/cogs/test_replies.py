"""The open replies' registry (`cogs/shared/replies.py`): which press's token a player's
private reply is edited or posted through."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from cogs.shared.replies import keep_reply, keep_seat, replies_of


def press(client: object, token: str) -> Any:
    """A press by player 7 in channel 1, standing in for a `discord.Interaction`."""
    return SimpleNamespace(client=client, channel_id=1, user=SimpleNamespace(id=7), followup=token)


def test_a_reply_opened_while_the_seat_press_is_answered_stays_the_players() -> None:
    """One private reply a player: a "My hand" pressed on the first board while the Start
    press that seated them was still being answered keeps that reply; the Start press's
    token, kept after it, would post a second one."""
    client = SimpleNamespace()
    started = time.monotonic()
    keep_reply(press(client, "my hand"), 42, "en", 3)
    keep_seat(press(client, "start"), "en", started)
    reply = replies_of(client).of(1, 7)
    assert reply is not None and reply.followup == "my hand" and not reply.new


def test_a_seat_press_after_the_reply_brings_the_next_games_first_decision() -> None:
    """A reply older than the press that seats the player (a game before, in the same
    channel) gives way: the new game's first decision is posted on the seat press."""
    client = SimpleNamespace()
    keep_reply(press(client, "last game"), 42, "en", 150)
    keep_seat(press(client, "join"), "en", time.monotonic())
    reply = replies_of(client).of(1, 7)
    assert reply is not None and reply.followup == "join" and reply.new and reply.shown == -1

"""Rematch (issue 15, item 2): the last board's button opens a new lobby in the channel with
the same seats and options; the host starts it; it works after a restart like every button."""

from __future__ import annotations

import pytest

from bot.models import Status
from tests.e2e.conftest import Table
from tests.e2e.play import assert_started, finished_rumble, latest_board
from tests.fakediscord import running_bot

LOBBY_BUTTONS = ["Join", "Leave", "Start", "Cancel"]


def seated(game) -> list[tuple[int | None, str, bool]]:
    return [(seat.user_id, seat.name, seat.ai) for seat in game.seats]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_rematch_seats_everyone_again_after_a_restart(fake_discord, table: Table, make_bot):
    async with running_bot(fake_discord, make_bot()) as first:
        game_id = await finished_rumble(first, table, fake_discord)
        old = await first.sessions.get(game_id)
    final = latest_board(fake_discord)
    assert [button.label for button in final.buttons] == ["Rematch"]

    async with running_bot(fake_discord, make_bot()) as second:
        stranger = await table.stranger.click("Rematch", message=final)
        assert "Only the players" in stranger.ephemeral_text and not stranger.public

        pressed = await table.alice.click("Rematch", message=final)
        (lobby_message,) = pressed.public
        assert [button.label for button in lobby_message.buttons] == LOBBY_BUTTONS
        assert [menu.placeholder for menu in lobby_message.selects] == ["Add AI player…"]
        lobby = await second.sessions.current(fake_discord.channel.id)
        assert lobby is not None and lobby.status == Status.LOBBY
        assert seated(lobby) == seated(old)  # the same people and AI players, in order
        assert (
            lobby.options == {"layout": old.options["layout"]} and lobby.host_id == table.alice.id
        )
        assert lobby.seed != old.seed  # a new deal

        twice = await table.alice.click("Rematch", message=final)
        assert "already has a game" in twice.ephemeral_text and not twice.public

        started = await table.alice.click("Start", message=lobby_message)
        assert_started(started)
        game = await second.sessions.current(fake_discord.channel.id)
        assert game is not None and game.status == Status.PLAYING and seated(game) == seated(old)

"""The recap on a finished game's last board (issue 15, item 1), through the fake Discord:
the final standings, every seat best first with its points, and the recap picture beside the
board's own."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.e2e.conftest import Table
from tests.e2e.play import finished_rumble, latest_board
from tests.fakediscord import running_bot


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_last_board_shows_the_final_standings_and_the_recap(
    fake_discord, table: Table, make_bot
):
    async with running_bot(fake_discord, make_bot()) as bot:
        game_id = await finished_rumble(bot, table, fake_discord)
        (game, results), *_ = await bot.sessions.history(fake_discord.channel.guild_id)
    assert game.id == game_id
    final = latest_board(fake_discord)
    assert [a.filename for a in final.attachments] == ["dungeon.png", "reveal.png", "recap.png"]
    with Image.open(io.BytesIO(final.attachments[-1].data)) as recap:
        assert recap.format == "PNG"

    lines = final.text.splitlines()
    start = lines.index("**Final standings**")
    shown = lines[start + 1 : start + 1 + len(results)]
    best_first = sorted(results, key=lambda r: (r.rank, r.seat))
    for line, result in zip(shown, best_first, strict=True):
        assert result.name in line and f"{result.points} point" in line, (line, result)
    # alice is the only person at the table: a game needs two rated players to move ratings.
    assert not any("rating" in line for line in shown)

"""Issue 38, items 5 and 7, through the fake Discord: `/help` and its walkthrough of a
turn, `/game log` (privately, and nothing the channel did not see), and the standings as
players read them (`/scoreboard` lined up whatever the names' scripts, no column meaning
nothing, `/history` without seeds unless asked)."""

from __future__ import annotations

import random
import re

import pytest

from bot.client import TrashTableBot
from bot.games import GAMES
from bot.models import GameRecord, RatingRecord, ResultRecord, Seat, Status, utcnow
from bot.ratings import ALL_GAMES
from cogs.shared.columns import display_width
from tests.e2e.conftest import Table
from tests.e2e.play import boards, next_board, shown, turns_of
from tests.fakediscord import FakeDiscord

NAMES = ["Zoë 王小明 🦝✨", "Bob", "Ａｎｎ ❤️"]  # CJK, emoji, full-width letters


async def finished_trash_war(bot: TrashTableBot, fake: FakeDiscord) -> None:
    """A rated Trash War result of three people, written as the bot would have (playing
    one to its end through Discord takes far longer than this test may)."""
    async with bot.db.transaction() as session:
        seats = [Seat(user_id=100 + i, name=name) for i, name in enumerate(NAMES)]
        game = GameRecord(
            guild_id=fake.guild.id,
            channel_id=fake.channel.id,
            kind="trashwar",
            status=Status.FINISHED,
            host_id=100,
            seed=7,
            seats=seats,
            finished_at=utcnow(),
        )
        session.add(game)
        await session.flush()
        for seat, name in enumerate(NAMES):
            session.add(
                ResultRecord(
                    game_id=game.id or 0,
                    guild_id=fake.guild.id,
                    kind="trashwar",
                    seat=seat,
                    user_id=100 + seat,
                    name=name,
                    rank=seat,
                    points=0,
                    rated=True,
                )
            )
            for kind in ("trashwar", ALL_GAMES):
                session.add(
                    RatingRecord(
                        guild_id=fake.guild.id, kind=kind, user_id=100 + seat, mu=30 - seat, sigma=1
                    )
                )


def column_ends(row: str) -> list[int]:
    """Where the row's last three columns end, in cells from its right edge."""
    return [len(row) - m.end() for m in re.finditer(r"\S+", row)][-3:]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_help_the_game_log_and_the_standings(
    bot: TrashTableBot, table: Table, fake_discord: FakeDiscord
) -> None:
    # /help: privately, every game in two lines with the command that opens it.
    helped = await table.stranger.slash("/help")
    assert not helped.public
    ((embed,),) = [m.embeds for m in helped.ephemeral]
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "How to start" in fields
    for engine in GAMES.values():
        lines = fields[engine.title].split("\n")
        assert len(lines) == 2 and f"`/{engine.key} new`" in lines[1], fields[engine.title]

    # A first game: its lobby offers the walkthrough; a few turns against the AI, then
    # the walkthrough where it happens.
    opened = await table.alice.slash("/rumble new", seed=3)
    assert "`/help game:` walks you through a first turn" in opened.public[0].text
    await table.alice.select("Add AI player…", "Normal AI")
    await table.alice.click("Start")
    await next_board(fake_discord, 0)
    await turns_of(table.alice, random.Random(3), 3)
    walk = await table.alice.slash("/help", game="rumble")
    ((embed,),) = [m.embeds for m in walk.ephemeral]
    assert "**Your turn**" in embed["description"]  # the guide's page the plug-in names
    (now,) = [f["value"] for f in embed["fields"] if f["name"] == "Here, now"]
    assert now.startswith("It is your turn on [the game's message](") and "\n- " in now
    watching = await table.stranger.slash("/help", game="rumble")
    ((embed,),) = [m.embeds for m in watching.ephemeral]
    assert "Waiting for Alice" in str(embed["fields"])

    # /game log: to the asker alone, newest last, and nothing the channel did not see
    # (Rumble's secret characters are never in a public line, nor anyone's hand).
    logged = await table.stranger.slash("/game log")
    assert not logged.public
    ((embed,),) = [m.embeds for m in logged.ephemeral]
    moves = embed["description"].split("\n")
    channel = "\n".join(text for board in boards(fake_discord) for text, _ in shown(board))
    assert len(moves) >= 4 and all(move in channel for move in moves), moves
    last_board = shown(boards(fake_discord)[-1])[-1][0]
    assert moves[-1] in last_board
    game = await bot.sessions.current(fake_discord.channel.id)
    assert game is not None
    _, secret = bot.sessions.own_view(game, table.alice.id)
    assert secret["secret"] and not any(
        all(name in move for name in secret["secret"]) and "Alice" in move for move in moves
    )
    await table.alice.slash("/game stop")

    # /scoreboard: columns line up in cells (CJK, emoji), no points for Trash War, the
    # rating in words.
    await finished_trash_war(bot, fake_discord)
    board = await table.bob.slash("/scoreboard", game="trashwar")
    (embed,) = board.public[0].embeds
    rows = embed["description"].strip("`\n").split("\n")
    assert "points" not in rows[0] and "rating" in rows[0]
    assert len({display_width(row) for row in rows}) == 1, rows
    assert len({tuple(column_ends(row)) for row in rows}) == 1, rows
    assert all(name in embed["description"] for name in NAMES)
    footer = embed["footer"]["text"]
    assert "the last 90 days' games" in footer and "openskill" not in footer

    # /history: who placed where, no points for a game without them, the seed on request.
    history = await table.bob.slash("/history")
    (embed,) = history.public[0].embeds
    (field,) = [f for f in embed["fields"] if f["name"].startswith("Trash War")]
    assert field["value"].startswith("🥇 Zoë 王小明 🦝✨ · 🥈 Bob · 🥉 Ａｎｎ ❤️\n"), field
    assert "seed" not in field["value"] and " 0" not in field["value"]
    seeded = await table.bob.slash("/history", seeds=True)
    assert "seed 7" in str(seeded.public[0].embeds)

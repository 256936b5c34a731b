"""What a board message shows, as the outbox keeps it for the next board to take its
controls off (bot/outbox.py): the lines and layout remembered by the process that delivered
it are those a process started afresh reads back from the database."""

from __future__ import annotations

from sqlalchemy import insert, text

from bot import rows
from bot.database import Database
from bot.models import OutboxEntry
from bot.outbox import _PENDING, BOARD, OUTBOX, Outbox, folded, run_of
from bot.shards import ALL, Shards
from tests.bot.test_rows import a_game


async def board_entry(db: Database, game_id: int, channel_id: int, lines: list[str]) -> OutboxEntry:
    async with db.writing() as connection:
        await connection.execute(
            insert(OUTBOX).values(
                game_id=game_id,
                channel_id=channel_id,
                kind=BOARD,
                step=len(lines),
                payload={"lines": lines, "continues": True},
                ready=True,
            )
        )
    ((entry, _game),) = await Outbox(db).pending(channel_id)
    return entry


async def shown(outbox: Outbox, game_id: int, message_id: int) -> tuple[list[str], object]:
    return (
        await outbox.lines_shown(game_id, message_id),
        await outbox.layout_of(game_id, message_id),
    )


async def test_a_board_shown_reads_the_same_remembered_or_from_the_database(db: Database) -> None:
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())
    game_id, channel_id, message_id = game.id or 0, game.channel_id, 777
    poster = Outbox(db)

    first = await board_entry(db, game_id, channel_id, ["Ann drops a can."])
    await poster.posted(first, message_id, None, {"text": "Turn 1", "files": ["bin.png"]})
    posted = (["Ann drops a can."], {"text": "Turn 1", "files": ["bin.png"]})
    assert await shown(poster, game_id, message_id) == posted
    assert await shown(Outbox(db), game_id, message_id) == posted

    # The same turn goes on: edited onto that message, which now shows both lines.
    second = await board_entry(db, game_id, channel_id, ["Ann drops a tire."])
    lines = ["Ann drops a can.", "Ann drops a tire."]
    await poster.edited(second, message_id, lines, {"text": "Turn 1 (2)", "files": ["bin.png"]})
    edited = (lines, {"text": "Turn 1 (2)", "files": ["bin.png"]})
    assert await shown(poster, game_id, message_id) == edited
    assert await shown(Outbox(db), game_id, message_id) == edited


async def test_a_channels_pending_entries_are_found_without_its_history(db: Database) -> None:
    """The poster's look for a channel's undelivered entries (and, at start-up, for the
    channels that have any) goes through the index of undelivered entries: it reads those
    alone, however many boards the channel was shown before (a busy channel gathers
    thousands, and the look runs on the event loop after every change)."""
    queries = [_PENDING.params(channel_id=5)] + [
        Outbox(db, shards).channels_pending_query() for shards in (ALL, Shards(2, (1,)))
    ]
    async with db.connected() as connection:
        explain = "EXPLAIN QUERY PLAN "
        if connection.dialect.name == "postgresql":
            # A table this small is read whole either way: ask whether the index serves.
            await connection.execute(text("SET enable_seqscan = off"))
            explain = "EXPLAIN "
        for query in queries:
            sql = query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True})
            plan = " ".join(map(str, (await connection.execute(text(explain + str(sql)))).all()))
            assert "ix_outbox_undelivered" in plan, plan


async def test_queued_boards_of_one_turn_reach_the_channel_as_one(db: Database) -> None:
    """Issue 34: boards that queued up for one message (Discord pacing the bot) are shown as
    one edit with every line of the run (the last one's picture), and all of them are marked
    delivered with it; a board that starts a new message is a run of its own."""
    async with db.writing() as connection:
        game = await rows.insert_game(connection, a_game())
        boards = [
            ("Ann draws.", False),
            ("Ann draws again.", True),
            ("Ann attacks.", True),
            ("Bob's turn.", False),
            ("Bob draws.", True),
        ]
        for step, (line, continues) in enumerate(boards):
            await connection.execute(
                insert(OUTBOX).values(
                    game_id=game.id,
                    channel_id=game.channel_id,
                    kind=BOARD,
                    step=step,
                    payload={"lines": [line], "since": step, "continues": continues},
                    ready=True,
                )
            )
    outbox = Outbox(db)
    pending = await outbox.pending(game.channel_id)
    runs = folded(pending)
    assert [entry.payload["lines"] for entry, _ in runs] == [
        ["Ann draws.", "Ann draws again.", "Ann attacks."],
        ["Bob's turn.", "Bob draws."],
    ]
    first, _ = runs[0]
    ids = [entry.id for entry, _ in pending]
    assert first.id == ids[0] and run_of(first) == ids[:3]  # the post keeps the first's nonce
    assert (first.step, first.payload["since"], first.payload["continues"]) == (2, 0, False)

    await outbox.posted(first, 555, None, {"text": "Ann's turn", "files": []})
    left = await outbox.pending(game.channel_id)
    assert [entry.id for entry, _ in left] == ids[3:]
    assert await outbox.lines_shown(game.id or 0, 555) == first.payload["lines"]
    assert await Outbox(db).lines_shown(game.id or 0, 555) == first.payload["lines"]

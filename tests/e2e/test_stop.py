"""A clean stop (issue 12): SIGTERM to the real `python -m bot` in the middle of busy games
ends it with exit code 0 well within 10 s (`docker stop` kills after that), presses that
arrive meanwhile are told the bot is restarting, nothing is left half-done in the database,
and the games play on after the next start. The same as PID 1 of a container."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

from bot.games import GAMES
from bot.requests import RESTARTING
from tests.e2e.conftest import Table
from tests.e2e.play import boards, choose_and_act, latest_board, take_turn, turn_user_id
from tests.e2e.process import STOP_PROMISE, BotProcess
from tests.e2e.toss_play import bin_boards, board_texts
from tests.fakediscord import FakeDiscord, FakeDiscordError


def assert_every_action_matches_its_saved_game(database: Path) -> None:
    """Replaying each game's action log from its seed gives exactly the state saved with it,
    and each action's step is the step the game was at: no action is missing, half-saved or
    saved without its state."""
    with sqlite3.connect(database) as db:
        games = db.execute("SELECT id, kind, seats, options, seed, state, step FROM games")
        for game_id, kind, seats, options, seed, state, step in games.fetchall():
            if state is None:
                continue
            engine = GAMES[kind]
            replayed = engine.new_game(len(json.loads(seats)), json.loads(options), seed)
            actions = db.execute(
                "SELECT step, seat, action FROM actions WHERE game_id = ? ORDER BY step",
                (game_id,),
            ).fetchall()
            for action_step, seat, action in actions:
                assert action_step == engine.step(replayed), (game_id, action_step)
                replayed = engine.apply(replayed, seat, action).state
            assert engine.step(replayed) == step, game_id
            assert engine.to_json(replayed) == json.loads(state), game_id


def assert_nothing_left_to_show(database: Path) -> None:
    """The clean stop delivered the outbox: every board and cleared control is shown."""
    with sqlite3.connect(database) as db:
        (pending,) = db.execute("SELECT count(*) FROM outbox WHERE delivered_at IS NULL").fetchone()
    assert pending == 0, f"{pending} outbox entries left undelivered"


async def open_rumble(table: Table) -> dict[int, object]:
    await table.alice.slash("/rumble new", seed=21)
    await table.bob.click("Join")
    await table.carol.click("Join")
    await table.alice.click("Start")
    await table.fake.wait_for(lambda: boards(table.fake), timeout=20, what="the first board")
    return {user.id: user for user in table.players}


async def play_rumble(table: Table, players, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        board = latest_board(table.fake)
        result = await take_turn(players[turn_user_id(board)], board, rng)
        refused = ("Those buttons", "It is not", "You are not", "The bot is")
        assert not result.ephemeral_text.startswith(refused), result.ephemeral_text


async def test_sigterm_during_busy_games_stops_cleanly_and_they_play_on(
    fake_discord: FakeDiscord, table: Table, database: Path, tmp_path: Path
) -> None:
    fake, log = fake_discord, tmp_path / "bot.log"
    bot = await BotProcess.start(fake, database, log)
    try:
        await bot.connected(fake, 0)
        players = await open_rumble(table)
        rng = random.Random(3)
        await play_rumble(table, players, rng, turns=4)

        # #games: the moderator's Toss It game with two AI players; the moderator leaves, so
        # the AI plays on drop by drop, holding the channel for a long while.
        games = fake.channel2
        await table.mod.slash("/toss new", seed=4, channel=games)
        await table.mod.select("Add AI player…", "Normal AI", channel=games)
        await table.mod.select("Add AI player…", "Normal AI", channel=games)
        await table.mod.click("Start", channel=games)
        await fake.wait_for(lambda: bin_boards(fake, games), timeout=20, what="the bin")
        # The AI's drops edit one message (issue 34): counted as the texts boards showed.
        seen = board_texts(fake, games)
        await table.mod.slash("/game leave", channel=games, settle=False)
        await fake.wait_for(
            lambda: board_texts(fake, games) >= seen + 2, timeout=60, what="AI drops"
        )
        # A request queued behind the AI in #games, and a Rumble press, as the stop begins.
        queued = await table.stranger.slash("/game leave", channel=games, settle=False)
        await fake.wait_for(lambda: queued.acknowledged, timeout=20, what="the defer")
        rumble_board = latest_board(fake)
        mover = players[turn_user_id(rumble_board)]
        press = asyncio.create_task(choose_and_act(mover, rumble_board, rng))
        bot.signal()

        assert await bot.exit_code(timeout=STOP_PROMISE) == 0
        text = bot.text()
        assert "stopping: new presses are refused" in text
        assert "stopped cleanly in" in text
        assert "Traceback" not in text and "health check" not in text  # health is off
        await queued.wait()
        assert queued.ephemeral_text == str(RESTARTING)
        try:
            pressed = await press
            assert pressed.ephemeral_text in ("", str(RESTARTING))  # taken before the stop, or not
        except FakeDiscordError:
            pass  # its second step (a direction button) came after the bot had gone
        await fake.wait_disconnected()
        assert_every_action_matches_its_saved_game(database)
        assert_nothing_left_to_show(database)

        # The next start: the AI goes on in #games, and Rumble plays on from its newest board.
        dropped = board_texts(fake, games)
        bot = await BotProcess.start(fake, database, log)
        await bot.connected(fake, fake.state.command_syncs)
        await fake.wait_for(
            lambda: board_texts(fake, games) > dropped, timeout=60, what="the AI resuming"
        )
        await play_rumble(table, players, rng, turns=3)
        bot.signal()  # again, while the AI resumed at start-up is still playing
        assert await bot.exit_code(timeout=STOP_PROMISE) == 0
        assert bot.text().count("stopped cleanly in") == 2
        await fake.wait_disconnected()
        assert_every_action_matches_its_saved_game(database)
        assert_nothing_left_to_show(database)
    finally:
        await bot.end()


async def test_sigterm_stops_the_bot_as_pid_1(
    fake_discord: FakeDiscord, table: Table, database: Path, tmp_path: Path
) -> None:
    """As a container's CMD the bot is PID 1, which gets no default action for SIGTERM: the
    bot's own handler is what makes `docker stop` work."""
    bot = await BotProcess.start(fake_discord, database, tmp_path / "bot.log", as_pid_1=True)
    try:
        await bot.connected(fake_discord, 0)
        status = Path(f"/proc/{bot.bot_pid()}/status").read_text()
        (pids,) = [line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:")]
        assert pids[-1] == "1", "the bot is PID 1 in its own namespace"
        players = await open_rumble(table)
        await play_rumble(table, players, random.Random(5), turns=2)
        bot.signal()
        assert await bot.exit_code(timeout=STOP_PROMISE) == 0
        assert "stopped cleanly in" in bot.text()
        await fake_discord.wait_disconnected()
    finally:
        await bot.end()


async def test_while_stopping_commands_and_presses_are_told_to_press_again(
    bot, table: Table
) -> None:
    """Every slash command and every press that would change a game gets the restarting
    reason, privately, and changes nothing."""
    await table.alice.slash("/rumble new", seed=3)
    bot.sessions.begin_stop()
    joined = await table.bob.click("Join")
    status = await table.carol.slash("/game status")
    for answer in (joined, status):
        assert answer.ephemeral_text == str(RESTARTING) and not answer.public
    game = await bot.sessions.current(table.fake.channel.id)
    assert [seat.user_id for seat in game.seats] == [table.alice.id]

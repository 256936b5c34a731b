"""Nothing stuck, ever (issue 12): the bot process is killed with SIGKILL at each stage of a
press and started again; every time the game goes on from working buttons and the channel
shows every board once, in order.

The stages, each a request the fake Discord sees (`fake.on_request` kills the bot there):
before the save (the press's deferral reached Discord), after the save before any post (the
board's POST arrives), after the board is created but before Discord's answer reaches the
bot (the nonce must stop a second copy), after the post before the old board's controls are
cleared, between the drops of a Toss It turn, and on a game's last action.

One game per test is reused across its kill points; the checks compare the channel with
the action log in the database: the public lines of all boards, in order, are exactly the
lines of every action replayed, so a lost or doubled board fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from bot.database import Database
from bot.games import GAMES
from bot.models import ActionRecord, GameRecord, Seat
from bot.requests import format_event
from cogs.shared.presenter import PRESENTERS
from tests.e2e import play, toss_play
from tests.e2e.conftest import Table
from tests.e2e.test_restart import kill, start_process
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.driver import RequestHook
from tests.fakediscord.state import RequestRecord

EPHEMERAL = 64
TIMER_LINE = re.compile(r" ran out of time; the AI plays this turn for them\.$")
AI_DROP = re.compile(r"\(AI, \w+\) (places|drops) ")  # "Rusty (AI, normal) drops"


class BotProcess:
    """`python -m bot` that a request hook can kill at an exact point."""

    def __init__(self, fake: FakeDiscord, database: Path) -> None:
        self.fake, self.database = fake, database
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await start_process(self.fake, self.database)

    def kill_now(self) -> None:
        assert self.process is not None
        self.process.kill()  # SIGKILL: no clean-up of any kind

    async def press_and_kill_at(
        self,
        predicate: Callable[[RequestRecord], bool],
        press: Coroutine[Any, Any, Any],
        *,
        after: bool = False,
    ) -> RequestHook:
        """Make the press; kill the bot at the first request `predicate` accepts (before
        it reaches Discord, or with `after` once Discord has handled it); restart."""
        hook = self.fake.on_request(predicate, self.kill_now, after=after, drop=not after)
        task = asyncio.create_task(press)
        await self.fake.wait_for(lambda: hook.fired, timeout=60, what="the kill point")
        await self.killed(task)
        await self.start()
        return hook

    async def killed(self, task: asyncio.Task[Any]) -> None:
        """Wait for the killed process to go; the press it was serving is cut short."""
        assert self.process is not None
        await kill(self.process, self.fake)
        task.cancel()
        with contextlib.suppress(BaseException):
            await task

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()
        await self.fake.wait_disconnected()


def sent_text(record: RequestRecord) -> str:
    """The text a request sends: its content and its layout's text displays."""
    return toss_play.version_text(record.json or {})


def posts_message(fake: FakeDiscord, record: RequestRecord) -> bool:
    """A new public message in the game's channel: through the bot token, or as a
    followup of a press (its interaction's webhook)."""
    if record.method != "POST":
        return False
    if record.path == f"/api/v10/channels/{fake.channel.id}/messages":
        return True
    followup = re.fullmatch(r"/api/v10/webhooks/\d+/[^/]+", record.path) is not None
    return followup and not int((record.json or {}).get("flags") or 0) & EPHEMERAL


def edits_message(fake: FakeDiscord, record: RequestRecord) -> bool:
    """An edit of a message in the game's channel: through the bot token, or through a
    press's webhook (its `@original`, or a followup it posted)."""
    if record.method != "PATCH":
        return False
    channel = f"/api/v10/channels/{fake.channel.id}/messages/"
    webhook = re.fullmatch(r"/api/v10/webhooks/\d+/[^/]+/messages/(@original|\d+)", record.path)
    return record.path.startswith(channel) or webhook is not None


def board_post(fake: FakeDiscord, text: str | re.Pattern[str] = "") -> Callable[..., bool]:
    """The bot posting a message to the game's channel (a board), containing `text`."""

    def matches(record: RequestRecord) -> bool:
        if not posts_message(fake, record):
            return False
        content = sent_text(record)
        return bool(text.search(content)) if isinstance(text, re.Pattern) else text in content

    return matches


def board_edit(fake: FakeDiscord, text: re.Pattern[str]) -> Callable[..., bool]:
    """The bot editing a message of the game's channel so that it shows `text` (a turn's
    board going on)."""
    return lambda record: edits_message(fake, record) and bool(text.search(sent_text(record)))


def deferral(record: RequestRecord) -> bool:
    """A play control's "deferred update" answer: the bot has not saved anything yet."""
    return record.path.endswith("/callback") and (record.json or {}).get("type") == 6


def clearing(fake: FakeDiscord, message: FakeMessage) -> Callable[..., bool]:
    """The edit that takes the controls off `message`: the same text, no controls."""
    text = message.text

    def matches(record: RequestRecord) -> bool:
        sent = json.dumps(record.json or {})
        return (
            edits_message(fake, record)
            and sent_text(record).strip() == text.strip()
            and "custom_id" not in sent
        )

    return matches


def logged_lines(database: Path) -> list[str]:
    """The public lines of the game's start and every action saved, replayed."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        game_id, kind, seats, options, seed = db.execute(
            "SELECT id, kind, seats, options, seed FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        actions = db.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY step", (game_id,)
        ).fetchall()
    return replayed(kind, json.loads(seats), json.loads(options), seed, actions)


async def logged_lines_of(db: Database) -> list[str]:
    """`logged_lines` read through the bot's own database (SQLite or PostgreSQL)."""
    async with db.reading() as session:
        game = (await session.exec(select(GameRecord).order_by(col(GameRecord.id).desc()))).first()
        assert game is not None
        rows = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game.id)
            .order_by(col(ActionRecord.step))
        )
        actions = [(row.seat, row.action) for row in rows.all()]
    return replayed(
        game.kind, [s.model_dump() for s in game.seats], game.options, game.seed, actions
    )


def replayed(
    kind: str, seats: list[Any], options: dict[str, str], seed: int, actions: list[Any]
) -> list[str]:
    engine = GAMES[kind]
    names = [Seat.model_validate(seat).shown_name() for seat in seats]  # as the boards name them
    state = engine.new_game(len(names), options, seed)
    events = list(engine.opening_events(state))
    for seat, action in actions:
        applied = engine.apply(state, seat, action)
        state, events = applied.state, events + applied.events
    return [format_event(event, names) for event in events if event.to is None]


def assert_shown_once_in_order(
    fake: FakeDiscord, boards: list[FakeMessage], database: Path | list[str]
) -> None:
    """Every board once, in order: `database` is the SQLite file, or the lines already
    read from the bot's database."""
    lines = [line for board in boards for line in board.text.splitlines()]
    # The turn timer's own line ("… ran out of time") is the service's, not an action's.
    shown = [line[2:] for line in lines if line.startswith("• ") and not TIMER_LINE.search(line)]
    logged = database if isinstance(database, list) else logged_lines(database)
    assert shown == logged, "every board once, in order"
    nonces = Counter(board.nonce for board in boards if board.nonce)
    assert not nonces or max(nonces.values()) == 1


def play_buttons(board: FakeMessage) -> list[Any]:
    return [b for b in board.buttons if (b.custom_id or "").startswith("tt:act:")]


async def test_rumble_killed_at_every_stage_of_a_press(
    fake_discord: FakeDiscord, table: Table, database: Path
) -> None:
    fake = fake_discord
    bot = BotProcess(fake, database)
    await bot.start()
    players = {u.id: u for u in (table.alice, table.bob)}
    rng = random.Random(4)

    def press() -> Coroutine[Any, Any, Any]:
        board = play.latest_board(fake)
        return play.choose_and_act(players[play.turn_user_id(board) or 0], board, rng)

    async def goes_on(boards_before: int) -> None:
        """After the restart: the board the press made is there once, and its buttons work."""
        await play.next_board(fake, boards_before)
        await fake.settle()
        assert_shown_once_in_order(fake, play.boards(fake), database)
        board = play.latest_board(fake)
        assert play.is_over(board) or board.selects or play_buttons(board)

    try:
        await table.alice.slash("/rumble new", seed=21)
        await table.bob.click("Join")
        await table.alice.select("Add AI player…", "Normal AI")
        await table.alice.click("Start")
        await play.next_board(fake, 0)

        # Before the save: the press is lost, the board it was made on still works.
        before = play.latest_board(fake)
        await bot.press_and_kill_at(deferral, press(), after=True)
        assert play.latest_board(fake).id == before.id
        assert_shown_once_in_order(fake, play.boards(fake), database)
        seen = len(play.boards(fake))
        await play.take_turn(players[play.turn_user_id(before) or 0], before, rng)
        await goes_on(seen)

        # After the save, before the board goes out on the press (between the commit and
        # the interaction's answer): the restarted bot posts it through the bot token.
        seen, requests = len(play.boards(fake)), len(fake.requests)
        await bot.press_and_kill_at(board_post(fake), press())
        await goes_on(seen)
        channel_posts = f"/api/v10/channels/{fake.channel.id}/messages"
        assert any(r.path == channel_posts for r in fake.requests[requests:] if r.status == 200)

        # Posted, but Discord's answer never reached the bot: a post through the bot token
        # is retried with the same nonce, and Discord hands back the message it already
        # made; a followup has no nonce, and the restarted bot finds it in the channel.
        seen = len(play.boards(fake))
        await bot.press_and_kill_at(board_post(fake), press(), after=True)
        await goes_on(seen)
        nonces = Counter(b.nonce for b in play.boards(fake) if b.nonce)
        assert not nonces or max(nonces.values()) == 1

        # Posted and recorded, killed before the old board's controls were taken off.
        seen = len(play.boards(fake))
        await bot.press_and_kill_at(clearing(fake, play.latest_board(fake)), press())
        await goes_on(seen)

        # The game's last action: its result is shown after the restart.
        hook = fake.on_request(board_post(fake, "The game is over"), bot.kill_now, drop=True)
        task = await play_until_fired(
            fake, hook, lambda: play.take_turn(*turn_and_board(fake, players), rng)
        )
        await bot.killed(task)
        seen = len(play.boards(fake))
        await bot.start()
        await goes_on(seen)
        assert play.is_over(play.latest_board(fake))
    finally:
        await bot.stop()


async def play_until_fired(
    fake: FakeDiscord, hook: RequestHook, turn: Callable[[], Coroutine[Any, Any, Any]]
) -> asyncio.Task[Any]:
    """Take turns until `hook` fires; returns the turn it fired in."""
    for _ in range(500):
        task = asyncio.create_task(turn())
        await fake.wait_for(lambda t=task: t.done() or hook.fired, timeout=60, what="a turn")
        if hook.fired:
            return task
        task.result()
    raise AssertionError("the kill point never came")


def turn_and_board(fake: FakeDiscord, players: dict[int, Any]) -> tuple[Any, FakeMessage]:
    board = play.latest_board(fake)
    return players[play.turn_user_id(board) or 0], board


async def test_toss_killed_between_the_drops_of_an_ai_turn(
    fake_discord: FakeDiscord, table: Table, database: Path
) -> None:
    """Toss It shows every drop, a turn's drops on one message (issue 14): killed once the
    edit showing the AI's first drop of a turn reached Discord, before the bot recorded it
    (its next drops unplayed), the restarted bot repeats the edit harmlessly and plays on drop
    by drop onto the same message."""
    fake = fake_discord
    bot = BotProcess(fake, database)
    await bot.start()
    players = {u.id: u for u in (table.alice, table.bob)}
    rng = random.Random(6)
    try:
        await table.alice.slash("/toss new", wobble="steady", seed=5)
        await table.bob.click("Join")
        await table.alice.select("Add AI player…", "Normal AI")
        await table.alice.click("Start")
        await fake.wait_for(lambda: toss_play.bin_boards(fake), timeout=20, what="the board")

        # Killed as the AI's first drop is edited onto its turn's board, after Discord made
        # the edit and before the bot hears back.
        hook = fake.on_request(board_edit(fake, AI_DROP), bot.kill_now, after=True)
        task = await play_until_fired(fake, hook, lambda: toss_play.play_one(fake, players, rng))
        await bot.killed(task)
        assert hook.record is not None
        # Edited through a press's webhook (`@original`) or the bot token: Discord's answer,
        # made before the kill, names the message.
        edited_id = int(hook.record.response["id"])
        edited = next(b for b in toss_play.bin_boards(fake) if b.id == edited_id)
        drops_then = len(AI_DROP.findall(edited.text))
        seen = toss_play.board_texts(fake)
        await bot.start()
        await toss_play.next_board(fake, seen)  # the AI's turn plays on to a person's
        await fake.settle()
        boards = toss_play.bin_boards(fake)
        assert_shown_once_in_order(fake, boards, database)
        # The kill fell inside the AI's turn: the edit was made again after the restart, on
        # the same message, with the same lines (the drops queued after it folded in, as the
        # bot token alone carries them after a restart), and its next drop came after it.
        shown = [line for line in sent_text(hook.record).splitlines() if line.startswith("• ")]
        edits = [
            r
            for r in fake.requests
            if board_edit(fake, AI_DROP)(r) and int((r.response or {}).get("id") or 0) == edited_id
        ]
        again = [
            r
            for r in edits[edits.index(hook.record) + 1 :]
            if [line for line in sent_text(r).splitlines() if line.startswith("• ")][: len(shown)]
            == shown
        ]
        assert again, "the edit the kill cut short was not made again"
        assert len(AI_DROP.findall(edited.text)) > drops_then
        # The game goes on from the newest board's controls.
        seen = toss_play.board_texts(fake)
        await toss_play.play_one(fake, players, rng)
        await fake.settle()
        assert toss_play.board_texts(fake) > seen
        assert_shown_once_in_order(fake, toss_play.bin_boards(fake), database)
    finally:
        await bot.stop()


async def test_a_failed_post_or_render_is_retried_and_status_links_the_newest_board(
    bot, fake_discord: FakeDiscord, table: Table, database: Path, monkeypatch
) -> None:
    """Issue 12: a board whose post Discord refuses with a 5xx, or whose picture fails to
    render, is tried again (with backoff) until it is shown, once and in order; `/game
    status` links the newest board."""
    fake = fake_discord
    presenter = PRESENTERS["rumble"]
    draw = presenter.board
    failures = iter([RuntimeError("the renderer had a bad day")])

    def flaky_board(*args: Any) -> Any:
        for error in failures:
            raise error
        return draw(*args)

    await table.alice.slash("/rumble new", seed=21)
    await table.bob.click("Join")
    refused = fake.on_request(board_post(fake), lambda: None, drop=True)  # answered 503
    await table.alice.click("Start")
    await play.next_board(fake, 0)
    assert refused.fired and len(play.boards(fake)) == 1
    monkeypatch.setattr(presenter, "board", flaky_board)
    players = {u.id: u for u in (table.alice, table.bob)}
    await play.take_turn(*turn_and_board(fake, players), random.Random(1))
    await fake.settle()
    assert next(failures, None) is None, "the render failed once"
    assert len(play.boards(fake)) == 2
    assert_shown_once_in_order(fake, play.boards(fake), await logged_lines_of(bot.db))
    status = await table.bob.slash("/game status")
    assert str(play.latest_board(fake).id) in str(status.ephemeral[0].embeds)

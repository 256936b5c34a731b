"""Capacity at human pace: how many games one bot process serves before players feel it.

`python -m tests.capacity --game trashwar --max-channels 200 --seconds 60` (part of
`make bench`; `--help` lists the options). Open-loop load, as a server sees it: in each of N
channels two people and an AI seat play games of one kind back to back, and a person whose
turn it is thinks for a time drawn from an exponential distribution (4 s mean, fixed seed)
before each press (opening "My hand" aside: that is only looking). The bot runs as its own
process (`python -m bot`) against the fake Discord in this process, with a SQLite file; or,
with `--shards 2`, as two processes (SHARD_COUNT=2, SHARD_IDS 0 and 1) sharing a PostgreSQL
server started for the run, the tables dealt between a guild on each shard
(`--database postgresql` runs one process on PostgreSQL too). On PostgreSQL the server's
CPU counts in the CPU per press (and is shown apart as "db cores").

For N = 25, 50, 100, 150, 200, ... (each step a fresh bot, a warm-up, then a fixed window) it
prints press-to-result p50/p95/p99 (from the press to the private reply or the board that
shows its result, timed where the fake Discord received it), the board after a move, the
bot's CPU milliseconds per press (the process and its children, from /proc), what the bot's
watchdog logged (bot/watchdog.py): how late its event loop ran at most and how often over
40 ms (a step holding the loop B ms makes it at least B - 10 late, so none over 40 means no
block over 50), and stops once p95 passes 250 ms. With `--time-steps` the bot also times
every step of every task and each step that held the loop over 50 ms is listed; that costs
the loop about 4 % of its CPU, so it is off unless asked for. With `--stacks` each late
loop is listed with where the loop was 50 ms into it (the innermost project frame and the
innermost frame), any garbage collection over 10 ms meanwhile, and how long the loop's
thread waited for a core (a late loop that is mostly waiting is the machine's: other
processes had the cores). The ceiling the CPU cost implies is
cores * 1000 ms / (CPU ms per press * presses per second per game); "left" is the same for
the cores the load driver and the fake Discord (this process) leave the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.watchdog import HEARTBEAT_SECONDS
from tests.bench_discord import (
    FIGHT_MENU,
    MOVE_MENU,
    UNLIMITED,
    answered,
    percentile,
    turn_taker,
)
from tests.e2e import toss_play
from tests.fakediscord import FakeDiscord, FakeDiscordError, FakeMessage, FakeUser
from tests.fakediscord.guilds import FakeGuild
from tests.fakediscord.state import Channel, InteractionRecord
from tests.postgres import Postgres
from tests.proc import (
    cpu_seconds,
    cpu_wait_seconds,
    process_tree,
    thread_cpu_seconds,
    thread_wait_seconds,
)

ROOT = Path(__file__).resolve().parents[1]
THINK_MEAN = 4.0  # seconds a person takes to decide, on average
TARGET_P95_MS = 250.0
WATCHDOG_MS = 50  # no task step may hold the bot's loop longer (the bound)
# The bot logs each time its loop runs later than this: a block of B ms makes the watchdog's
# heartbeat at least B minus its sleep late, so none logged means no block over WATCHDOG_MS.
LATE_MS = WATCHDOG_MS - round(HEARTBEAT_SECONDS * 1000)
STEPS = (25, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650, 700, 800)
LAG_SLEEP = 0.01  # seconds the driver's lag watch sleeps between samples
WAIT = 60.0  # seconds a player waits for anything before the table counts as stalled
BOARDS = {  # the picture each game's board carries
    "rumble": "dungeon.png",
    "trashwar": "battlefield.png",
    "brawl": "alley.png",
    "toss": "bin.png",
}
LATE = re.compile(r"event loop ran (\d+) ms late")
HELD = re.compile(r"a task step held the event loop (\d+) ms (.*)$", re.M)
# With --stacks the bot logs where the loop was when it ran late: the stack follows the
# line, each frame as `  File "...", line N, in name` and its source line.
FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+)$', re.M)
NOTES = re.compile(
    r"gc generation \d took \d+ ms \(\d+ ms CPU, \d+ collected\)|waited \d+ ms for a core"
)
PROJECT = ("bot/", "cogs/", "rules/", "render/")
OVER = "The game is over"


class TimeUp(Exception):
    """The measuring window is over: a table stops instead of making its next press."""


class Watch:
    """Follows what the fake Discord records: keeps each channel's messages in order, notes
    when each version of a message appeared (version k at `seen_at[id][k]`) and wakes the
    table waiting on that channel. Press-to-result is taken from these times, so it does not
    include how late the load driver got round to looking."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.messages: dict[int, list[FakeMessage]] = defaultdict(list)
        self.seen_at: dict[int, list[float]] = defaultdict(list)
        self.changed: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        record = fake.state.record

        def recorded(
            kind: str,
            *,
            message: FakeMessage | None = None,
            interaction: InteractionRecord | None = None,
        ) -> Any:
            event = record(kind, message=message, interaction=interaction)
            if message is not None and kind in ("message_create", "message_update"):
                self.seen_at[message.id].append(time.monotonic())
                if kind == "message_create":
                    self.messages[message.channel.id].append(message)
            where = message.channel if message else interaction.channel if interaction else None
            if where is not None:
                self.changed[where.id].set()
            return event

        fake.state.record = recorded  # type: ignore[method-assign]

    async def until(self, channel: Channel, check: Callable[[], Any], what: str) -> Any:
        """`check()` once it is truthy; it is tried again after each change in the channel."""
        changed = self.changed[channel.id]
        try:
            async with asyncio.timeout(WAIT):
                while True:
                    changed.clear()  # before checking, so a change meanwhile is not missed
                    if value := check():
                        return value
                    await changed.wait()
        except TimeoutError:
            raise TimeoutError(f"#{channel.name}: no {what} in {WAIT:g} s") from None


@dataclass
class Measured:
    """Samples in milliseconds, for presses sent inside the measuring window."""

    window: tuple[float, float]
    results: list[float] = field(default_factory=list)
    stalls: list[str] = field(default_factory=list)
    # How late this process's own event loop woke from a 10 ms sleep (ms): the fake Discord
    # notes a result when its loop gets to the bot's request, so a late loop here would be
    # counted as the bot's time.
    driver_lags: list[float] = field(default_factory=list)

    def counts(self, sent_at: float) -> bool:
        return self.window[0] <= sent_at < self.window[1]


class Table:
    """One channel: two people and an AI seat playing one kind of game until time is up."""

    def __init__(
        self,
        fake: FakeDiscord,
        watch: Watch,
        channel: Channel,
        kind: str,
        seed: int,
        measured: Measured,
        think_mean: float,
        users: list[FakeUser],
    ) -> None:
        self.fake, self.watch, self.channel, self.kind = fake, watch, channel, kind
        self.users = users  # members of the channel's guild
        self.rng = random.Random(f"{seed}:{channel.name}")
        self.measured, self.think_mean = measured, think_mean
        self.filename = BOARDS[kind]
        self.moves: list[InteractionRecord] = []  # presses that play a move

    @property
    def time_up(self) -> bool:
        return time.monotonic() >= self.measured.window[1]

    async def think(self) -> None:
        """A person deciding; no press is started once the window is over."""
        thinking = self.rng.expovariate(1 / self.think_mean)
        await asyncio.sleep(min(thinking, max(0.0, self.measured.window[1] - time.monotonic())))
        if self.time_up:
            raise TimeUp

    async def until(self, check: Callable[[], Any], what: str) -> Any:
        return await self.watch.until(self.channel, check, what)

    def board(self, after: int) -> FakeMessage | None:
        """The newest board in the channel newer than message `after`."""
        for message in reversed(self.watch.messages[self.channel.id]):
            if message.id <= after:
                return None
            if not message.ephemeral and any(
                a.filename == self.filename for a in message.attachments
            ):
                return message
        return None

    def note(self, rec: InteractionRecord, message: FakeMessage, version: int) -> None:
        """A press's result: `message` in its `version` (0 = as created) showed it."""
        if self.measured.counts(rec.sent_at):
            waited = (self.watch.seen_at[message.id][version] - rec.sent_at) * 1000
            self.measured.results.append(waited)

    async def opened(self, pressed: Any) -> FakeMessage:
        """The private reply a press opened, once filled in; its wait is a result."""
        reply = await self.until(lambda: answered(self.fake, pressed), "reply")
        self.note(pressed.interaction, reply, len(reply.history))
        return reply

    async def edited(
        self, pressed: Any, reply: FakeMessage, versions: int, move: bool = True
    ) -> None:
        """Wait for the reply's next version after a press in it (the move shown, the
        player's next decision, or a card's targets); its wait is a result. A `move` is
        also timed to the next board."""
        if move:
            self.moves.append(pressed.interaction)
        await self.until(lambda: len(reply.history) > versions, "reply's next version")
        self.note(pressed.interaction, reply, versions + 1)

    async def next_board(
        self, pressed: Any, board: FakeMessage, is_result: bool = False
    ) -> FakeMessage:
        """The board after `board`; in Rumble, whose moves show on the board only, it is
        the result of the move `pressed`."""
        newer = await self.until(lambda: self.board(board.id), "next board")
        if is_result:
            self.moves.append(pressed.interaction)
            if self.watch.seen_at[newer.id][0] > pressed.interaction.sent_at:
                self.note(pressed.interaction, newer, 0)
        return newer

    def board_waits(self) -> list[float]:
        """Milliseconds from each move's press to the first board shown after it (a turn
        of several decisions may post a board before its last press). A board is shown by a
        new message or, where a turn's moves edit one message (Toss It), by an edit that
        changes its text; an edit that only takes the controls off shows nothing new."""
        boards = sorted(
            at
            for m in self.watch.messages[self.channel.id]
            if not m.ephemeral and any(a.filename == self.filename for a in m.attachments)
            for at in self.shown_at(m)
        )
        waits = []
        for move in self.moves:
            posted = next((at for at in boards if at > move.sent_at), None)
            if posted is not None and self.measured.counts(move.sent_at):
                waits.append((posted - move.sent_at) * 1000)
        return waits

    def shown_at(self, message: FakeMessage) -> list[float]:
        """When each version of `message` with a text new to it appeared."""
        texts = [toss_play.version_text(version) for version in message.versions]
        seen = self.watch.seen_at[message.id]
        return [
            at
            for version, (text, at) in enumerate(zip(texts, seen, strict=False))
            if version == 0 or text != texts[version - 1]
        ]

    async def start_game(self) -> int:
        """Open a lobby, the guest joins, the host adds an AI seat and starts, each after a
        think. Returns the lobby's id: the new game's boards come after it."""
        host, guest = self.users
        seen = self.channel.last_message_id or 0
        await self.think()
        await host.slash(f"/{self.kind} new", channel=self.channel, settle=False)
        lobby = await self.until(
            lambda: next(
                (
                    m
                    for m in reversed(self.watch.messages[self.channel.id])
                    if m.id > seen and any(c.label == "Join" for c in m.buttons)
                ),
                None,
            ),
            "lobby",
        )
        for user, label in ((guest, "Join"), (host, "Add AI player"), (host, "Start")):
            await self.think()
            # Press on the lobby as it is now drawn: "Add AI player" carries the seat count
            # it was drawn with, so a press on a lobby the Join has not yet redrawn is
            # refused (a double-click guard), as it would be for a person.
            versions = len(lobby.history)
            pressed = await user.click(label, message=lobby, settle=False)
            await self.until(
                lambda p=pressed, v=versions: len(lobby.history) > v or p.followups, label
            )
            if pressed.followups:
                raise FakeDiscordError(f"{label} refused: {pressed.followups[0].text}")
        return int(lobby.id)

    async def run(self) -> None:
        play = {"rumble": self.play_rumble, "toss": self.play_toss}.get(self.kind, self.play_hand)
        try:
            while not self.time_up:
                await play(await self.start_game())
        except (TimeoutError, FakeDiscordError) as stalled:  # no answer, or a stale control
            self.measured.stalls.append(str(stalled))
        except TimeUp:
            pass

    async def play_hand(self, lobby: int) -> None:
        """Trash War and Dumpster Brawl!: the player the board names opens "My hand" and
        decides in the private reply (a menu may open a narrowed reply whose buttons finish
        the choice); every decision after a think."""
        board = await self.until(lambda: self.board(lobby), "first board")
        while not self.time_up and OVER not in board.text:
            mover = turn_taker(board, self.users)
            try:
                reply = await self.opened(await mover.click("My hand", message=board, settle=False))
            except FakeDiscordError:  # a newer board took its controls
                board = await self.until(lambda b=board: self.board(b.id), "next board")
                continue
            pressed = None
            while reply.buttons or reply.selects:
                await self.think()
                if not (reply.buttons or reply.selects):
                    break  # the reply moved on while they thought (the turn timer, say)
                versions = len(reply.history)
                if reply.selects:
                    menu = self.rng.choice(reply.selects)
                    value = self.rng.choice(menu.options)["value"]
                    pressed = await mover.select(menu.custom_id, value, message=reply, settle=False)
                    group = await self.until(lambda p=pressed: answered(self.fake, p), "group")
                    if group is reply:
                        await self.edited(pressed, reply, versions)
                        continue
                    self.note(pressed.interaction, group, len(group.history))
                    reply, versions = group, len(group.history)
                    await self.think()
                    if not reply.buttons:
                        break
                button = self.rng.choice(reply.buttons)
                pressed = await mover.press(reply, button.label or "", settle=False)
                # A card's button opens its targets (issue 14): a choice, not yet a move.
                chosen = (button.custom_id or "").startswith("tt:group:")
                await self.edited(pressed, reply, versions, move=not chosen)
            if pressed is None:
                board = await self.until(lambda b=board: self.board(b.id), "next board")
            else:
                board = await self.next_board(pressed, board)

    async def play_rumble(self, lobby: int) -> None:
        """Rumble in the Dungeon: a fight picked from the board, or a character from the
        board's menu and then where to, from the private reply's buttons."""
        board = await self.until(lambda: self.board(lobby), "first board")
        while not self.time_up and OVER not in board.text:
            menus = {c.placeholder: c for c in board.selects}
            if not menus:  # the AI's turn: its moves come on a later board
                board = await self.until(lambda b=board: self.board(b.id), "next board")
                continue
            mover = turn_taker(board, self.users)
            await self.think()
            try:
                if FIGHT_MENU in menus:
                    value = self.rng.choice(menus[FIGHT_MENU].options)["value"]
                    pressed = await mover.select(FIGHT_MENU, value, message=board, settle=False)
                else:
                    value = self.rng.choice(menus[MOVE_MENU].options)["value"]
                    picked = await mover.select(MOVE_MENU, value, message=board, settle=False)
                    reply = await self.opened(picked)
                    await self.think()
                    label = self.rng.choice(reply.buttons).label
                    pressed = await mover.press(reply, label, settle=False)
            except FakeDiscordError:
                board = await self.until(lambda b=board: self.board(b.id), "next board")
                continue
            board = await self.next_board(pressed, board, is_result=True)

    async def play_toss(self, lobby: int) -> None:
        """Toss It in the Trash: cards laid down from "My hand", pieces dropped from the
        board's menus with a random spot, then Drop in the aim reply. A turn's drops edit
        its board, so the next bin is a newer board or this one with a new text."""
        by_id = {user.id: user for user in self.users}
        board = await self.until(lambda: self.board(lobby), "first bin")
        while not self.time_up and OVER not in board.text:
            waiting = [by_id[u] for u in toss_play.waiting_ids(board) if u in by_id]
            shown = board.text
            if waiting:
                await self.toss_turn(self.rng.choice(waiting), board)
            board = await self.until(
                lambda b=board, c=shown: self.board(b.id) or (b if b.text != c else None),
                "next bin",
            )

    async def toss_turn(self, mover: FakeUser, board: FakeMessage) -> Any:
        """One drop or card; the press whose result is the next bin, or None."""
        try:
            if board.selects:  # a spot from the board's menu, then Drop
                await self.think()
                menu = self.rng.choice(board.selects)
                value = self.rng.choice(menu.options)["value"]
                reply = await self.opened(
                    await mover.select(menu.custom_id, value, message=board, settle=False)
                )
                choices = [b for b in reply.buttons if (b.custom_id or "").endswith(":drop")]
            else:  # lay down a card from "My hand"
                reply = await self.opened(await mover.click("My hand", message=board, settle=False))
                choices = [b for b in reply.buttons if b.label.startswith("Lay down")]
            if not choices:
                return None  # chosen already: the bin is on its way
            await self.think()
            versions = len(reply.history)
            pressed = await mover.press(reply, self.rng.choice(choices).label, settle=False)
        except FakeDiscordError:
            return None  # a newer bin took this one's controls
        await self.edited(pressed, reply, versions)
        return pressed


@dataclass
class Step:
    channels: int
    seconds: float
    processes: int  # bot processes (one per shard)
    presses: int
    results: list[float]
    boards: list[float]
    bot_cpu: float  # the bot's processes and, on PostgreSQL, the database server's
    db_cpu: float  # of which the database server's
    loop_cpu: float  # of which the bot processes' main threads (their event loops)
    driver_lags: list[float]  # ms the load driver's own loop ran late (Measured.driver_lags)
    bench_cpu: float
    bot_waited: float  # seconds the bot's threads waited for a core
    loop_waited: float  # of which the bot processes' main threads (their event loops)
    late: list[int]  # ms the event loop ran late, each over LATE_MS
    held: list[tuple[int, str]]  # ms a task step held the loop (each over WATCHDOG_MS), and
    # the rest of its line: on a core, collecting garbage, which task and where it stopped
    causes: list[str]  # where the loop was each time it ran late, with --stacks
    stacks_log: str  # the file with their whole stacks, with --stacks
    stalls: list[str]
    failed: int
    load: float  # the machine's 1-minute load average at the window's end
    steps_timed: bool = False  # with --time-steps: `held` was looked for

    @property
    def cpu_ms_per_press(self) -> float:
        return self.bot_cpu * 1000 / max(1, self.presses)

    @property
    def loop_ms_per_press(self) -> float:
        return self.loop_cpu * 1000 / max(1, self.presses)

    @property
    def presses_per_game_second(self) -> float:
        return self.presses / self.seconds / self.channels

    @property
    def ceiling(self) -> float:
        """Games the machine's cores could serve if the bot had them all."""
        per_game = self.cpu_ms_per_press * self.presses_per_game_second
        return (os.cpu_count() or 1) * 1000 / per_game if per_game else 0.0

    @property
    def ceiling_loop(self) -> float:
        """Games the bot processes' event loops could serve, each on a core of its own: one
        process runs its loop on one thread, whatever the cores (the workers draw and think
        beside it), so this bounds it below the ceiling when the loop does most of a press."""
        per_game = self.loop_ms_per_press * self.presses_per_game_second
        return self.processes * 1000 / per_game if per_game else 0.0

    @property
    def ceiling_left(self) -> float:
        """Games the cores the load driver and the fake Discord leave could serve: they
        share this machine with the bot, and a real Discord's work is not on it."""
        bench_cores = self.bench_cpu / self.seconds
        return self.ceiling * max(0.0, 1 - bench_cores / (os.cpu_count() or 1))

    def p(self, q: float, values: list[float] | None = None) -> float:
        values = self.results if values is None else values
        return percentile(values, q) if values else float("nan")


@dataclass(frozen=True)
class Setup:
    """How the bot runs: `shards` processes (1: one unsharded process; more: one process
    per shard, SHARD_COUNT and SHARD_IDS, each with a guild of its own) on PostgreSQL
    (`postgres`) or a SQLite file."""

    shards: int = 1
    postgres: Postgres | None = None  # the server, on PostgreSQL; None: a SQLite file

    def database_url(self, folder: Path) -> str:
        if self.postgres is not None:
            return self.postgres.create_database()
        return f"sqlite:///{folder}/capacity.db"

    def __str__(self) -> str:
        processes = "one process" if self.shards == 1 else f"{self.shards} shard processes"
        return f"{processes}, {'PostgreSQL' if self.postgres else 'SQLite'}"

    def server_pids(self) -> list[int]:
        """The database server's processes (PostgreSQL's postmaster and its backends): the
        database's CPU is part of what a press costs."""
        if self.postgres is None:
            return []
        postmaster = int((self.postgres.folder / "postmaster.pid").read_text().split()[0])
        return process_tree(postmaster)


@contextlib.asynccontextmanager
async def running_bots(fake: FakeDiscord, folder: Path, setup: Setup) -> Any:
    """The bot process(es) under test, logging to one file: one process, or one per shard
    sharing one database (as the compose file runs them)."""
    log = folder / "bot.log"
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": setup.database_url(folder),
        "DISCORD_API_BASE": fake.api_base,
        "LOG_LEVEL": "WARNING",
        "LOOP_WATCHDOG_MS": str(LATE_MS),
        "BOT_TOKEN_REQUESTS_PER_SECOND": UNLIMITED,  # the fake's limits are off (`measure`)
    }
    shards = (
        [{}]
        if setup.shards == 1
        else [
            {"SHARD_COUNT": str(setup.shards), "SHARD_IDS": str(shard)}
            for shard in range(setup.shards)
        ]
    )
    bots = []
    try:
        for shard in shards:
            with log.open("a") as out:
                bots.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        "bot",
                        env={**env, **shard},
                        cwd=ROOT,
                        stdin=asyncio.subprocess.DEVNULL,
                        stderr=out,
                    )
                )
            if len(bots) == 1 and len(shards) > 1:
                # The first process migrates the database; the others find it done.
                await fake.wait_for(
                    lambda: fake.state.command_syncs > 0, timeout=60, what="the first shard"
                )
        yield bots, log
    finally:
        for bot in bots:
            with contextlib.suppress(ProcessLookupError):
                bot.terminate()
            await bot.wait()


def guilds_for(fake: FakeDiscord, names: tuple[str, ...], shards: int) -> list[FakeGuild]:
    """The default guild, and with several shards one more guild on each other shard; the
    tables are dealt out among them in turn."""
    guilds = [fake.guilds[0]]
    taken = {guilds[0].shard(shards)}
    for shard in range(shards):
        if shard not in taken:
            tables = names[len(guilds) :: shards]
            guilds.append(fake.add_guild(f"shard {shard}", channels=tables, shard=(shard, shards)))
    return guilds


async def driver_lag(measured: Measured) -> None:
    """Samples how late the load driver's loop runs, through the measuring window."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(LAG_SLEEP)
        if measured.counts(asleep):
            measured.driver_lags.append((time.monotonic() - asleep - LAG_SLEEP) * 1000)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Discord never pauses, but this process, which plays it, would: it keeps every message
    and interaction of a step (900,000 objects at 450 tables), and a full pass of the
    garbage collector over them held its loop up to 430 ms, with no press delivered and no
    result timed meanwhile. A pass frees a few dozen objects here, so the collector is off
    for the step and runs once after it."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


async def measure(
    kind: str,
    channels: int,
    seconds: float,
    warmup: float,
    seed: int,
    think_mean: float,
    setup: Setup = Setup(),
) -> Step:
    """One step of the curve: fresh bots, N tables, `warmup` seconds, then the window."""
    names = tuple(f"table-{i}" for i in range(channels))
    # What the bot's processes can serve, not what Discord would let one bot token send:
    # hundreds of games post far more than the token's 50 requests a second.
    fake = FakeDiscord(
        channels=names[:: setup.shards], thread=None, settle_timeout=120, rate_limits=False
    )
    await fake.start()
    watch = Watch(fake)
    guilds = guilds_for(fake, names, setup.shards)
    # Members before the bot connects, as in a guild.
    users = {guild.id: [guild.user("alice"), guild.user("bob")] for guild in guilds}
    with tempfile.TemporaryDirectory() as folder, collector_paused():
        try:
            async with running_bots(fake, Path(folder), setup) as (bots, log):
                await fake.wait_for(
                    lambda: all(guild.connected for guild in guilds),
                    timeout=60,
                    what="every shard to connect",
                )
                await fake.settle(timeout=60)
                await asyncio.sleep(2.5)  # discord.py waits for its guilds before it is ready
                start = time.monotonic() + warmup
                measured = Measured((start, start + seconds))
                tables = [
                    Table(
                        fake,
                        watch,
                        guild.channels[name],
                        kind,
                        seed,
                        measured,
                        think_mean,
                        users[guild.id],
                    )
                    for guild in guilds
                    for name in guild.channels
                ]
                tasks = [asyncio.create_task(table.run()) for table in tables]
                lag_watch = asyncio.create_task(driver_lag(measured))
                await asyncio.sleep(max(0.0, start - time.monotonic()))
                log_from, bench0 = log.stat().st_size, time.process_time()
                pids = [pid for bot in bots for pid in process_tree(bot.pid)]
                servers = setup.server_pids()
                cpu0, waited0 = cpu_seconds(pids), cpu_wait_seconds(pids)
                loop0 = sum(thread_cpu_seconds(bot.pid) for bot in bots)
                loop_waited0 = sum(thread_wait_seconds(bot.pid) for bot in bots)
                db0 = cpu_seconds(servers)
                await asyncio.sleep(max(0.0, measured.window[1] - time.monotonic()))
                pids = [pid for bot in bots for pid in process_tree(bot.pid)]
                cpu1, waited1 = cpu_seconds(pids), cpu_wait_seconds(pids)
                loop1 = sum(thread_cpu_seconds(bot.pid) for bot in bots)
                loop_waited1 = sum(thread_wait_seconds(bot.pid) for bot in bots)
                db1 = cpu_seconds(setup.server_pids())
                bench_cpu, log_to = time.process_time() - bench0, log.stat().st_size
                load = os.getloadavg()[0]
                lag_watch.cancel()
                # the presses sent just before the end get their results
                _, late = await asyncio.wait(tasks, timeout=WAIT)
                for task in late:
                    task.cancel()
                with log.open("rb") as text:
                    text.seek(log_from)
                    window_log = text.read(log_to - log_from).decode(errors="replace")
                if measured.stalls:  # keep the bots' whole log to find out why
                    kept = Path(tempfile.gettempdir()) / f"capacity-{kind}-{channels}-bot.log"
                    kept.write_bytes(log.read_bytes())
                    measured.stalls.append(f"(the bots' log: {kept})")
        finally:
            await fake.stop()
    sent = [rec for rec in fake.state.interactions.values() if measured.counts(rec.sent_at)]
    return Step(
        channels=channels,
        seconds=seconds,
        processes=len(bots),
        presses=len(sent),
        results=measured.results,
        boards=[wait for table in tables for wait in table.board_waits()],
        bot_cpu=cpu1 - cpu0 + max(0.0, db1 - db0),
        db_cpu=max(0.0, db1 - db0),
        loop_cpu=loop1 - loop0,
        driver_lags=measured.driver_lags,
        bench_cpu=bench_cpu,
        bot_waited=waited1 - waited0,
        loop_waited=loop_waited1 - loop_waited0,
        late=[int(ms) for ms in LATE.findall(window_log)],
        held=[(int(ms), task) for ms, task in HELD.findall(window_log)],
        causes=causes(window_log) if os.environ.get("LOOP_WATCHDOG_STACKS") == "1" else [],
        stacks_log=keep_stacks(kind, channels, window_log),
        stalls=measured.stalls,
        failed=sum(rec.failed for rec in sent),
        load=load,
        steps_timed=bool(os.environ.get("LOOP_WATCHDOG_STEPS_MS")),
    )


def keep_stacks(kind: str, channels: int, log: str) -> str:
    """With --stacks, the window's watchdog lines and stacks in a file kept after the run."""
    if os.environ.get("LOOP_WATCHDOG_STACKS") != "1":
        return ""
    path = Path(tempfile.gettempdir()) / f"capacity-{kind}-{channels}-late.log"
    path.write_text("".join(re.findall(r"^.*event loop ran .*\n(?:(?!20\d\d-).*\n)*", log, re.M)))
    return str(path)


def causes(log: str) -> list[str]:
    """One line per late loop logged: the innermost project frame and the innermost frame
    of all (a library's), e.g. `bot/sessions.py:610 _apply <- pymunk/space.py:540 step`."""
    found = []
    for block in re.split(r"^.*event loop ran ", log, flags=re.M)[1:]:
        frames = [
            f"{'/'.join(m['file'].split('/')[-2:])}:{m['line']} {m['name']}"
            for m in FRAME.finditer(block.split("\n20", 1)[0])  # up to the next log line
            if "/bot/__main__.py" not in m["file"]
        ]
        ours = [f for f in frames if f.startswith(PROJECT)]
        where = f"{(ours or frames)[-1]} <- {frames[-1]}" if frames else "no stack"
        notes = "".join(f"; {note}" for note in NOTES.findall(block.split("\n", 1)[0]))
        found.append(f"{block.split(' ', 1)[0]} ms late: {where}{notes}")
    return found


HEADER = (
    f"{'N':>4} {'presses':>7} {'/s/game':>7} {'p50':>6} {'p95':>6} {'p99':>6} "
    f"{'board p95':>9} {'CPU ms/press':>12} {'bot cores':>9} {'loop cores':>10} "
    f"{'bench cores':>11} {'db cores':>8} {'late max':>8} {f'>{LATE_MS}ms':>5} {'step max':>8} "
    f"{'>50ms':>5} {'ceiling':>7} {'left':>5} {'loop ceiling':>12} {'load':>5} "
    f"{'bot waited':>10} {'loop waited':>11} {'driver lag p99':>14} {'max':>6}"
)


def row(step: Step) -> str:
    most_late = f"{max(step.late)} ms" if step.late else f"<{LATE_MS} ms"
    if not step.steps_timed:
        longest = "off"
    elif step.held:
        longest = f"{max(ms for ms, _ in step.held)} ms"
    else:
        longest = f"<{WATCHDOG_MS} ms"
    line = (
        f"{step.channels:>4} {step.presses:>7} {step.presses_per_game_second:>7.3f} "
        f"{step.p(50):>6.0f} {step.p(95):>6.0f} {step.p(99):>6.0f} "
        f"{step.p(95, step.boards):>9.0f} {step.cpu_ms_per_press:>12.1f} "
        f"{step.bot_cpu / step.seconds:>9.2f} {step.loop_cpu / step.seconds:>10.2f} "
        f"{step.bench_cpu / step.seconds:>11.2f} {step.db_cpu / step.seconds:>8.2f} "
        f"{most_late:>8} {len(step.late):>5} {longest:>8} {len(step.held):>5} "
        f"{step.ceiling:>7.0f} {step.ceiling_left:>5.0f} "
        f"{step.ceiling_loop:>12.0f} {step.load:>5.1f} {step.bot_waited / step.seconds:>10.2f} "
        f"{step.loop_waited / step.seconds:>11.2f} {step.p(99, step.driver_lags):>11.0f} ms "
        f"{max(step.driver_lags, default=0):>3.0f} ms"
    )
    if step.stalls or step.failed:
        line += f"  ({len(step.stalls)} tables stalled, {step.failed} presses unanswered in 3 s)"
        for reason in sorted(set(step.stalls))[:3]:
            line += f"\n     stalled: {reason}"
    for ms, task in step.held:
        line += f"\n     step held the loop {ms} ms {task}"
    for cause in step.causes:
        line += f"\n     {cause}"
    if step.stacks_log:
        line += f"\n     (the late loops' whole stacks: {step.stacks_log})"
    return line


async def curve(
    kind: str,
    steps: list[int],
    seconds: float,
    warmup: float,
    seed: int,
    think_mean: float,
    whole: bool = False,
    report: Callable[[str], None] = print,
    setup: Setup = Setup(),
    runs: int = 1,
    refine: int = 0,
) -> list[Step]:
    """Step N up until p95 passes the target (or through every step, `whole`), then, given
    `refine`, halve the gap between the last step that passed and the first that failed
    until it is at most `refine` games; returns every step measured, by N."""
    report(
        f"{kind}: {seconds:g} s per step after {warmup:g} s warm-up, think mean {think_mean:g} s,"
        f" {setup}"
    )
    report(HEADER)

    async def step_at(channels: int) -> Step:
        tries = []
        for _ in range(runs):
            tries.append(await measure(kind, channels, seconds, warmup, seed, think_mean, setup))
            report(row(tries[-1]))
        # A run at a curve's knee moves by hundreds of milliseconds with whatever else the
        # machine does: with several runs a step counts by its median run (of an even
        # number, the worse of the middle two).
        step = sorted(tries, key=lambda t: t.p(95) if t.results else float("inf"))[runs // 2]
        if runs > 1:
            report(f"{channels:>4} the median of {runs} runs: p95 {step.p(95):.0f} ms")
        return step

    done: list[Step] = []
    for channels in steps:
        done.append(await step_at(channels))
        if not whole and not fits_target(done[-1]):
            break
    # The capacity is read at a step that passed, so the gap to the next step is the
    # reading's error: halve it down to `refine` games.
    failed = next((s.channels for s in done if not fits_target(s)), None)
    passed = [s.channels for s in done if fits_target(s) and failed and s.channels < failed]
    low = max(passed, default=0)
    while refine and failed and passed and failed - low > refine:
        middle = low + max(1, (failed - low) // 2 // refine) * refine
        done.append(await step_at(middle))
        low, failed = (middle, failed) if fits_target(done[-1]) else (low, middle)
    done.sort(key=lambda s: s.channels)
    fits = [s for s in done if fits_target(s)]
    capacity = f"{fits[-1].channels} games" if fits else f"fewer than {steps[0]} games"
    costed = (fits or done)[-1]  # the CPU cost at the busiest load that still fit
    shares = (
        f" ({share(costed.channels, costed.ceiling)}, {share(costed.channels, costed.ceiling_left)}"
        f" and {share(costed.channels, costed.ceiling_loop)} of them)"
        if fits
        else ""
    )
    report(
        f"{kind}: capacity {capacity} at p95 <= {TARGET_P95_MS:g} ms ({setup}); "
        f"the CPU cost at N={costed.channels} ({costed.cpu_ms_per_press:.1f} ms a press, "
        f"{costed.loop_ms_per_press:.1f} of them on the event loop, "
        f"{costed.presses_per_game_second:.3f} presses/s a game) implies a ceiling of "
        f"{costed.ceiling:.0f} on {os.cpu_count()} cores, {costed.ceiling_left:.0f} on what "
        f"the load driver leaves, {costed.ceiling_loop:.0f} on the event loop{shares}"
    )
    return done


def fits_target(step: Step) -> bool:
    return bool(step.results) and step.p(95) <= TARGET_P95_MS


def share(games: int, ceiling: float) -> str:
    return f"{100 * games / ceiling:.0f} %" if ceiling else "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(BOARDS), required=True)
    parser.add_argument(
        "--max-channels", type=int, default=200, help="the largest of the usual N to try"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window per N")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1, help="think times and choices")
    parser.add_argument("--think", type=float, default=THINK_MEAN, help="mean think seconds")
    parser.add_argument(
        "--steps", help="comma-separated N values to try instead of 25,50,100,150,200,..."
    )
    parser.add_argument(
        "--stacks",
        action="store_true",
        help="the bot notes where its event loop was each time it ran late; printed per step",
    )
    parser.add_argument(
        "--time-steps",
        action="store_true",
        help=f"the bot times every task step and logs each over {WATCHDOG_MS} ms (it costs "
        "the loop about 4 %% of its CPU)",
    )
    parser.add_argument(
        "--whole-curve", action="store_true", help="measure every step, past the target too"
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="runs of each step; a step counts by its median run"
    )
    parser.add_argument(
        "--refine",
        type=int,
        default=25,
        help="then halve the gap between the last N that passed and the first that failed "
        "down to this many games (0: no more steps)",
    )
    parser.add_argument(
        "--shards", type=int, default=1, help="bot processes, one per shard (default 1: unsharded)"
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        help="a SQLite file (one process only) or a PostgreSQL server started for the run; "
        "default: SQLite for one process, PostgreSQL for shards",
    )
    args = parser.parse_args(argv)
    if args.steps:
        steps = [int(n) for n in args.steps.split(",")]
    else:
        steps = [n for n in STEPS if n <= args.max_channels]
    if not steps:
        parser.error("no N to try: give --steps, or a --max-channels of 25 or more")
    database = args.database or ("sqlite" if args.shards == 1 else "postgresql")
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    if args.refine < 0:
        parser.error("--refine must be 0 or more")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.shards > 1 and database == "sqlite":
        parser.error("shard processes share one PostgreSQL database: use --database postgresql")
    if args.stacks:
        os.environ["LOOP_WATCHDOG_STACKS"] = "1"  # the bot processes inherit it
    if args.time_steps:
        os.environ["LOOP_WATCHDOG_STEPS_MS"] = str(WATCHDOG_MS)
    with tempfile.TemporaryDirectory() as folder:
        postgres = Postgres(Path(folder)) if database == "postgresql" else None
        try:
            setup = Setup(args.shards, postgres)
            asyncio.run(
                curve(
                    args.game,
                    steps,
                    args.seconds,
                    args.warmup,
                    args.seed,
                    args.think,
                    args.whole_curve,
                    setup=setup,
                    runs=args.runs,
                    refine=args.refine,
                )
            )
        finally:
            if postgres is not None:
                postgres.cleanup()


if __name__ == "__main__":
    main()

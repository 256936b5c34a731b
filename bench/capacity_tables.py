"""The capacity benchmark's players (`bench/capacity.py`): in each channel two people and an
AI seat play one kind of game back to back, pressing only after a think, and the times a
press took to show are read from what the fake Discord recorded, not from when a player got
round to looking."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.bench_discord import OVER, answered, play_controls, press_any, turn_taker
from bench.games import board_file, plugins
from rules.base import Level
from tests.e2e import toss_play
from tests.fakediscord import FakeDiscord, FakeDiscordError, FakeMessage, FakeUser
from tests.fakediscord.state import Channel, InteractionRecord

WAIT = 60.0  # seconds a player waits for anything before the table counts as stalled


ASKED = re.compile(r"<@\d+>.*: your turn")  # a board's line asking a person to act
CONTROL_STEP = re.compile(r"^tt:(?:act|menu|group):\d+:(\d+):")


def step_of(custom_id: str) -> int | None:
    """The game step a play control was made for (`tt:act:<game>:<step>:…`), or None."""
    found = CONTROL_STEP.match(custom_id)
    return int(found[1]) if found else None


@dataclass(frozen=True)
class Shown:
    """A version of a board message that showed something new: when it appeared, the
    message, which version (0: as posted), and its lines new to the message."""

    at: float
    message: FakeMessage
    version: int
    lines: list[str]

    def shows(self, move: InteractionRecord) -> bool:
        """Whether it is a board after the press `move` that shows it: a line of what
        happened ("• Bob throws …") new in it names the player."""
        if self.at <= move.sent_at:
            return False
        name = re.compile(rf"\b{re.escape(move.user.name)}\b", re.IGNORECASE)
        return any(line.startswith("•") and name.search(line) for line in self.lines)


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

    async def until(self, channel: Channel, check: Callable[..., Any], what: str) -> Any:
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
        ai_level: Level = "normal",
    ) -> None:
        self.fake, self.watch, self.channel, self.kind = fake, watch, channel, kind
        self.ai_level = ai_level
        self.users = users  # members of the channel's guild
        self.rng = random.Random(f"{seed}:{channel.name}")
        self.measured, self.think_mean = measured, think_mean
        self.filename = board_file(kind)  # the picture the game's board carries
        self.moves: list[InteractionRecord] = []  # presses that play a move
        self.lobbies: list[float] = []  # when each of its games' lobbies was posted
        # each board's version texts so far: a version, once edited over, never changes
        self.texts: dict[int, list[str]] = {}

    @property
    def time_up(self) -> bool:
        return time.monotonic() >= self.measured.window[1]

    async def think(self) -> None:
        """A person deciding; no press is started once the window is over."""
        thinking = self.rng.expovariate(1 / self.think_mean)
        await asyncio.sleep(min(thinking, max(0.0, self.measured.window[1] - time.monotonic())))
        if self.time_up:
            raise TimeUp

    async def until(self, check: Callable[..., Any], what: str) -> Any:
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
        reply: FakeMessage = await self.until(lambda: answered(self.fake, pressed), "reply")
        self.note(pressed.interaction, reply, len(reply.history))
        return reply

    async def edited(
        self, pressed: Any, reply: FakeMessage, versions: int, move: bool | None = True
    ) -> None:
        """Wait for the reply's next version after a press in it (the move shown, the
        player's next decision, or a card's targets); its wait is a result. A `move` is
        also timed to the board that shows it; `None`: a move if the game moved on (the
        reply's controls are of a later step, or it has none left)."""
        await self.until(lambda: len(reply.history) > versions, "reply's next version")
        self.note(pressed.interaction, reply, versions + 1)
        if move is None:
            before = step_of(pressed.interaction.data.get("custom_id", ""))
            after = [step_of(c.custom_id or "") for c in reply.all_components]
            move = before is not None and all(step > before for step in after if step is not None)
        if move:
            self.moves.append(pressed.interaction)

    def newest_board(self) -> int:
        """The id of the channel's newest board (0 before any): a press's next board is
        newer than the newest when it was pressed."""
        newest = self.board(0)
        return int(newest.id) if newest else 0

    def changed(self, board: FakeMessage, text: str) -> FakeMessage | None:
        """A newer board, or `board` itself once its text is no longer `text` (a turn's
        board edited)."""
        return self.board(board.id) or (board if board.text != text else None)

    async def moved_on(self, board: FakeMessage, what: str = "next board") -> FakeMessage:
        """A newer board than `board`, or `board` with a new text."""
        text = board.text
        moved: FakeMessage = await self.until(lambda: self.changed(board, text), what)
        return moved

    async def showing_move(self, pressed: Any, since: int) -> FakeMessage:
        """Rumble, whose moves show on the board only: the board message showing the move
        `pressed` (a new board, or the turn's board edited); its wait is the result."""
        move = pressed.interaction
        self.moves.append(move)
        shown: Shown = await self.until(lambda: self.showing(move, since), "board showing the move")
        self.note(move, shown.message, shown.version)
        return shown.message

    def showing(self, move: InteractionRecord, since: int = 0) -> Shown | None:
        """The first board version after the press `move` that shows it: one with a line
        new to its message naming the player (the game's lines name who acted). Boards
        older than message `since` are not looked at."""
        return next((shown for shown in self.shown(since) if shown.shows(move)), None)

    def shown(self, since: int = 0) -> list[Shown]:
        """Every version of the channel's boards (from message `since` on) that showed a
        text new to its message, in the order they appeared: a new board, or an edit adding
        lines (a turn's board carries on); an edit that only takes the controls off shows
        nothing new."""
        found = []
        for message in self.watch.messages[self.channel.id]:
            if message.id < since or not self.is_board(message):
                continue
            texts = self.version_texts(message)
            seen = self.watch.seen_at[message.id]
            for version, (text, at) in enumerate(zip(texts, seen, strict=False)):
                before = Counter(texts[version - 1].splitlines()) if version else Counter()
                if version == 0 or text != texts[version - 1]:
                    lines = Counter(text.splitlines()) - before
                    found.append(Shown(at, message, version, list(lines.elements())))
        return sorted(found, key=lambda shown: shown.at)

    def version_texts(self, message: FakeMessage) -> list[str]:
        """The text of each version of `message`: the driver looks at every board after
        each change in the channel, and the fake's payloads are deep copies, so only the
        versions not yet seen are read (the last one seen may since have been edited over,
        into the same text)."""
        texts = self.texts.setdefault(message.id, [])
        if len(texts) != len(message.history) + 1:
            texts.extend(toss_play.version_text(v) for v in message.history[len(texts) :])
            texts.append(toss_play.version_text(message.payload()))
        return texts

    def is_board(self, message: FakeMessage) -> bool:
        return not message.ephemeral and any(
            a.filename == self.filename for a in message.attachments
        )

    def board_waits(self) -> tuple[list[float], int]:
        """Milliseconds from each move's press in the window to the first board version that
        shows it (`showing`), and how many such moves no board showed."""
        shown = self.shown()
        waits, missing = [], 0
        for move in self.moves:
            if not self.measured.counts(move.sent_at):
                continue
            first = next((s for s in shown if s.shows(move)), None)
            if first is None:
                missing += 1
            else:
                waits.append((first.at - move.sent_at) * 1000)
        return waits, missing

    def turns_passed(self) -> list[float]:
        """Milliseconds from the last move of a turn, pressed in the window, to the new
        board that asks the next person to act: the AI seats' moves between (their boards
        edited onto the turn's message, each a request on one press's token) and the post."""
        waits = []
        moves = sorted(move.sent_at for move in self.moves)
        for shown in self.shown():
            if shown.version == 0 and any(ASKED.search(line) for line in shown.lines):
                before = [at for at in moves if at < shown.at]
                if not before or not self.measured.counts(before[-1]):
                    continue
                if not any(before[-1] < at < shown.at for at in self.lobbies):  # same game
                    waits.append((shown.at - before[-1]) * 1000)
        return waits

    def unshown(self) -> int:
        """Moves in the window that no board has shown yet."""
        return self.board_waits()[1]

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
        for user, label in ((guest, "Join"), (host, "Add AI player…"), (host, "Start")):
            await self.think()
            # Press on the lobby as it is now drawn: "Add AI player…" carries the seat count
            # it was drawn with, so a pick on a lobby the Join has not yet redrawn is
            # refused (a double-click guard), as it would be for a person.
            versions = len(lobby.history)
            if label.endswith("…"):  # the lobby's menu of AI levels
                level = f"{self.ai_level.capitalize()} AI"
                pressed = await user.select(label, level, message=lobby, settle=False)
            else:
                pressed = await user.click(label, message=lobby, settle=False)
            await self.until(
                lambda p=pressed, v=versions: len(lobby.history) > v or p.followups, label
            )
            if pressed.followups:
                raise FakeDiscordError(f"{label} refused: {pressed.followups[0].text}")
        self.lobbies.append(self.watch.seen_at[lobby.id][0])
        return int(lobby.id)

    async def run(self) -> None:
        # From "My hand" when the game's presenter keeps the controls in the private
        # reply, else from the board; Toss It's aim controls are its own.
        play = self.play_board
        if self.kind == "toss":
            play = self.play_toss
        elif plugins()[self.kind].presenter.private_controls:
            play = self.play_hand
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
                board = await self.moved_on(board)
                continue
            pressed, newest = None, int(board.id)
            while reply.buttons or reply.selects:
                await self.think()
                if not (reply.buttons or reply.selects):
                    break  # the reply moved on while they thought (the turn timer, say)
                versions = len(reply.history)
                if reply.selects:
                    menu = self.rng.choice(reply.selects)
                    value = self.rng.choice(menu.options)["value"]
                    newest = self.newest_board()
                    pressed = await mover.select(menu.custom_id, value, message=reply, settle=False)
                    group = await self.until(lambda p=pressed: answered(self.fake, p), "group")
                    if group is reply:  # a move, or a narrowed choice in the same reply
                        await self.edited(pressed, reply, versions, move=None)
                        continue
                    self.note(pressed.interaction, group, len(group.history))
                    reply, versions = group, len(group.history)
                    await self.think()
                    if not reply.buttons:
                        break
                button = self.rng.choice(reply.buttons)
                newest = self.newest_board()
                pressed = await mover.press(reply, button.label or "", settle=False)
                # A card's button may open its targets (issue 14), and "My hand" makes the
                # reply whole again: choices, not moves.
                await self.edited(pressed, reply, versions, move=None)
            # Their reply says "Done.": the turn has passed to someone else, whose board is
            # a new message. The player may have played on through several turns from the
            # reply, so it is newer than the newest board when they made their last move.
            board = await self.until(lambda n=newest: self.board(n), "next board")

    async def play_board(self, lobby: int) -> None:
        """A game played from the board (Rumble in the Dungeon: a fight from the board's
        menu, or a character and then where to): the player the board names picks a random
        control; when that opens a private reply (a group of actions), a random button in
        it. The move's result is the board that shows it."""
        board = await self.until(lambda: self.board(lobby), "first board")
        while not self.time_up and OVER not in board.text:
            if not play_controls(board):  # not a person's turn: the board moves on
                board = await self.moved_on(board)
                continue
            mover = turn_taker(board, self.users)
            await self.think()
            try:
                pressed = await press_any(mover, board, self.rng)
                if pressed is None:  # its controls went while they thought
                    board = await self.moved_on(board)
                    continue
                move = pressed.interaction
                reply = await self.until(
                    lambda m=move, p=pressed, b=board: (
                        answered(self.fake, p) or self.showing(m, b.id)
                    ),
                    "reply or board",
                )
                if isinstance(reply, FakeMessage) and play_controls(reply):
                    self.note(move, reply, len(reply.history))
                    await self.think()
                    pressed = await press_any(mover, reply, self.rng) or pressed
            except FakeDiscordError:
                board = await self.moved_on(board)
                continue
            board = await self.showing_move(pressed, board.id)

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
            board = await self.until(lambda b=board, t=shown: self.changed(b, t), "next bin")

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
                choices = [b for b in reply.buttons if (b.label or "").startswith("Lay down")]
            if not choices:
                return None  # chosen already: the bin is on its way
            await self.think()
            versions = len(reply.history)
            pressed = await mover.press(reply, self.rng.choice(choices).label or "", settle=False)
        except FakeDiscordError:
            return None  # a newer bin took this one's controls
        await self.edited(pressed, reply, versions)
        return pressed

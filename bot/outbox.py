"""The outbox: what a game must show in its channel, kept until it has been shown.

The session service writes an entry in the same transaction as the change that caused it
(an action, a start, a stop, a timeout, a seat handed to the AI), so a process killed
between saving and posting loses nothing: the poster (`cogs/shared/poster.py`) delivers
every pending entry, in id order, on start-up and whenever it is woken.

Grouping is decided here, from the state each transaction saved, so it is the same after a
crash: a press's board shows the player's move and the moves made at once after it (the AI
seats', and a single choice made for a person: `forced_action`) together (the entry stays
open, `ready` False, while such a move is still to come), except in a game that shows every
action apart (`Game.board_each_action`, Toss It) when no person must act beside the AI:
then every action's entry is ready at once.

One board a turn: an entry is marked `continues` unless the turn has passed to a person
(someone must decide who had not held the turn throughout), and the poster edits the
game's board message with it instead of posting a new one, so the ping comes once a turn.
The edit shows every line the message showed before (`lines_shown`) and this entry's, so
repeating it after a crash gives the same message.

Nothing secret goes into an entry: boards hold the public observation only.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any, cast

import orjson
from sqlalchemy import RowMapping, Select, Table, bindparam, delete, insert, select, update
from sqlmodel import SQLModel

from bot import rows
from bot.database import Database, json_text
from bot.models import GameRecord, OutboxEntry, Status, utcnow
from bot.ratings import Standing
from bot.requests import seat_names, waiting_for
from bot.shards import ALL, Shards
from bot.statements import Statements
from rules.base import JSON, AnyGame

BOARD, CLEAR = "board", "clear"
REMEMBERED = 4096  # board messages whose last delivery an `Outbox` keeps in memory


class Signal:
    """Wakes the poster with the channels that have something new to deliver. A plain
    signal, so nothing in `bot/` calls into `cogs/`."""

    def __init__(self) -> None:
        self._channels: set[int] = set()
        self._event = asyncio.Event()

    def notify(self, channel_id: int) -> None:
        self._channels.add(channel_id)
        self._event.set()

    async def wait(self) -> set[int]:
        await self._event.wait()
        self._event.clear()
        channels, self._channels = self._channels, set()
        return channels


OUTBOX: Table = SQLModel.metadata.tables["outbox"]
_OPEN_BOARD = select(OUTBOX.c.id, OUTBOX.c.payload).where(
    OUTBOX.c.game_id == bindparam("game_id"),
    OUTBOX.c.kind == BOARD,
    OUTBOX.c.ready.is_(False),
    OUTBOX.c.delivered_at.is_(None),
)
_CLOSE_OPEN_BOARD = (
    update(OUTBOX)
    .where(
        OUTBOX.c.game_id == bindparam("of_game"),  # a column's own name is SET's
        OUTBOX.c.kind == BOARD,
        OUTBOX.c.ready.is_(False),
        OUTBOX.c.delivered_at.is_(None),
    )
    .values(ready=True)
)
_INSERT = insert(OUTBOX)
_EXTEND = update(OUTBOX).where(OUTBOX.c.id == bindparam("entry_id"))
_PENDING = (
    select(OUTBOX)
    .where(OUTBOX.c.channel_id == bindparam("channel_id"), OUTBOX.c.delivered_at.is_(None))
    .order_by(OUTBOX.c.id)
)
_BUT_PAYLOAD = select(*(c for c in OUTBOX.c if c.name != "payload")).where(
    OUTBOX.c.id == bindparam("entry_id")
)
_DROP = delete(OUTBOX).where(OUTBOX.c.id == bindparam("entry_id"))
# Built once, as every statement here (`_trim` runs on each board posted over another).
_TRIM = (
    update(OUTBOX)
    .where(
        OUTBOX.c.game_id == bindparam("of_game"),
        OUTBOX.c.message_id == bindparam("on_message"),
        OUTBOX.c.delivered_at.is_not(None),
        OUTBOX.c.id < bindparam("before"),
    )
    .values(payload={})
)
_TRIM_SINCE = _TRIM.where(OUTBOX.c.id >= bindparam("since"))
_LAST_ON = (
    select(OUTBOX.c.payload)
    .where(
        OUTBOX.c.game_id == bindparam("game_id"),
        OUTBOX.c.kind == BOARD,
        OUTBOX.c.message_id == bindparam("message_id"),
        OUTBOX.c.delivered_at.is_not(None),
    )
    .order_by(OUTBOX.c.id.desc())
    .limit(1)
)


async def _deliver(connection: Statements, entry_id: int, **values: Any) -> None:
    """Mark an entry delivered, with the payload it keeps (much smaller than the one it was
    written with: the public view goes). The row is deleted and written again rather than
    updated: SQLite keeps a big row's page for the shrunk row (about a page a board, 2 KB
    per entry where the rows are a few bytes), while a deleted row's page is merged with
    its neighbours."""
    row = (await connection.execute(_BUT_PAYLOAD, {"entry_id": entry_id})).mappings().first()
    if row is None:
        return
    await connection.execute(_DROP, {"entry_id": entry_id})
    await connection.execute(_INSERT, {**row, "delivered_at": utcnow(), **values})


def folded(
    entries: list[tuple[OutboxEntry, GameRecord]],
    apart: Callable[[GameRecord], bool] = lambda game: False,
) -> list[tuple[OutboxEntry, GameRecord]]:
    """Consecutive boards of one game where each after the first continues the turn (an
    edit of the same message) are shown as one: the first entry (its id, so a post keeps its
    nonce) with the last one's picture and status and every line of the run, naming the
    others in `folded`; `posted` or `edited` marks them all delivered together. So boards
    that queued up (Discord pacing the bot, a slow render) reach the channel as one edit,
    not one each. A game for which `apart` is true (the poster's choice: one that shows
    every action while a press can carry each) is not folded."""
    runs: list[tuple[OutboxEntry, GameRecord]] = []
    for entry, game in entries:
        if runs and entry.kind == BOARD and entry.payload.get("continues") and not apart(game):
            first, first_game = runs[-1]
            if first.kind == BOARD and first.message_id is None and first.game_id == entry.game_id:
                payload = {
                    **entry.payload,
                    "lines": [*first.payload["lines"], *entry.payload["lines"]],
                    "since": first.payload["since"],
                    "started": first.payload.get("started", False),
                    "continues": first.payload.get("continues", False),
                    "restored": first.payload.get("restored", False),
                    "folded": [*first.payload.get("folded", []), entry.id],
                }
                merged = first.model_copy(update={"payload": payload, "step": entry.step})
                runs[-1] = (merged, first_game)
                continue
        runs.append((entry, game))
    return runs


def run_of(entry: OutboxEntry) -> list[int]:
    """The ids of the entries a (`folded`) board stands for, its own first."""
    others: list[int] = entry.payload.get("folded", [])
    return [entry.id or 0, *others]


def entry_of(row: RowMapping) -> OutboxEntry:
    """An outbox row as an `OutboxEntry` (see `rows.game_of`)."""
    return rows.record_of(OutboxEntry, row)


async def record_board(
    connection: Statements,
    game: GameRecord,
    engine: AnyGame,
    state: Any,
    lines: list[str],
    since: int,
    before: Collection[int],
    started: bool = False,
    standings: list[Standing] | None = None,
    restored: bool = False,
) -> bool:
    """Write (or extend the open) board entry showing `game` as saved in this transaction,
    with the public `lines` of what happened; `since` is the game's step before it, `before`
    the seats a person had to decide for then (`waiting_for`), and `standings` a finished
    game's final standings with the rating changes. `restored`: a fresh board for a game a
    restored backup took back (`Store.redraw`), posted as a new message after the poster
    takes the boards of the lost steps off. Returns whether the entry is ready to be
    posted."""
    playing = game.status == Status.PLAYING
    to_act = engine.to_act(state) if playing else frozenset()
    humans = waiting_for(game, engine, state)
    # The AI's seats and forced choices are played at once, in this board.
    machine_next = len(humans) < len(to_act)
    ready = not machine_next or (engine.board_each_action and not humans)
    open_board = (await connection.execute(_OPEN_BOARD, {"game_id": game.id})).first()
    earlier: dict[str, Any]
    if open_board is None:
        earlier = {"lines": [], "since": since, "started": started, "still": sorted(before)}
    else:
        earlier = open_board.payload
    # One message a turn: the board goes on the game's board message while nobody new must
    # decide (the same person still acting, or the AI playing on), and a new message, with
    # its ping, comes when the turn passes to a person; `still` is who has held the turn
    # throughout: an AI seat's move takes it from them, a single choice made for someone
    # does not. A game's first and last boards are messages of their own.
    still = set(earlier.get("still", ()))
    continues = playing and not (started or earlier["started"] or restored) and set(humans) <= still
    if humans:
        still &= set(humans)
    elif any(game.seats[seat].ai for seat in to_act):
        still = set()
    payload = {
        "view": engine.observe(state, None),
        # As the game's readers see them: an AI seat's level in the game's language.
        "names": list(seat_names(game)),
        "lines": [*earlier["lines"], *lines],
        "since": earlier["since"],
        "started": earlier["started"] or started,
        "status": game.status,
        "waiting": humans,
        "mention": [game.seats[seat].user_id for seat in humans],
        "still": sorted(still),
        "continues": continues,
        "standings": standings or [],
    }
    if restored or earlier.get("restored"):
        payload["restored"] = True
    if open_board is None:
        await connection.execute(
            _INSERT,
            {
                "game_id": game.id,
                "channel_id": game.channel_id,
                "kind": BOARD,
                "step": game.step,
                "payload": payload,
                "ready": ready,
                "created_at": utcnow(),
            },
        )
    else:
        values = {"payload": payload, "step": game.step, "ready": ready}
        await connection.execute(_EXTEND, {"entry_id": open_board.id, **values})
    return ready


async def record_clear(connection: Statements, game: GameRecord) -> None:
    """Take the controls off the game's messages (a stopped game, a closed lobby). Any
    board still open is closed: no AI will add to it now."""
    await connection.execute(_CLOSE_OPEN_BOARD, {"of_game": game.id})
    messages = [m for m in (game.board_message_id, game.lobby_message_id) if m]
    await connection.execute(
        _INSERT,
        {
            "game_id": game.id,
            "channel_id": game.channel_id,
            "kind": CLEAR,
            "step": game.step,
            "payload": {"messages": messages},
            "ready": True,
            "created_at": utcnow(),
        },
    )


class Outbox:
    """The poster's side: read pending entries, record what was posted."""

    def __init__(self, db: Database, shards: Shards = ALL) -> None:
        self.db = db
        self.signal = Signal()
        self.shards = shards  # the start-up delivery looks only at our own guilds' games
        # What each recent board message shows (its lines and layout), by (game, message),
        # as `_last_on` would read it back: the next board takes that message's controls
        # off, and reading it cost a query a board. Only this process delivers its own
        # shards' games, so what it wrote last is what the database holds.
        # The entry's id comes along: the next delivery empties the payloads from it on.
        self._delivered: OrderedDict[tuple[int, int], tuple[int, str]] = OrderedDict()

    async def channels_pending(self) -> list[int]:
        async with self.db.connected() as connection:
            result = await connection.execute(self.channels_pending_query())
            return sorted(set(result.scalars()))

    def channels_pending_query(self) -> Select[Any]:
        """The channels of this process's games with an entry not yet delivered."""
        games = rows.GAMES
        return (
            select(OUTBOX.c.channel_id)
            .join(games, games.c.id == OUTBOX.c.game_id)
            .where(OUTBOX.c.delivered_at.is_(None), self.shards.owned(games.c.guild_id))
        )

    async def pending(self, channel_id: int) -> list[tuple[OutboxEntry, GameRecord]]:
        """The channel's undelivered entries in order, up to the first one still open, each
        with its game row as it is now (one row object per game: the poster keeps its
        `board_message_id` current as it posts)."""
        async with self.db.connected() as connection:
            result = await connection.execute(_PENDING, {"channel_id": channel_id})
            entries = [entry_of(row) for row in result.mappings()]
            games: dict[int, GameRecord] = {}
            for entry in entries:
                if entry.game_id not in games:
                    game = await rows.load_game(connection, entry.game_id)
                    assert game is not None, "an entry's game is never deleted"
                    games[entry.game_id] = game
        for index, entry in enumerate(entries):
            if not entry.ready:
                entries = entries[:index]
                break
        return [(entry, games[entry.game_id]) for entry in entries]

    async def close_open(self) -> None:
        """Stopping: a board held open for the AI's next moves is shown as it stands (the
        player's move); the AI's moves after the next start get a board of their own."""
        # This process's undelivered entries, found through their index (a scan of every
        # entry ever written, game by game, would grow with the history).
        undelivered = self.channels_pending_query().with_only_columns(OUTBOX.c.id)
        async with self.db.writing() as connection:
            await connection.execute(
                update(OUTBOX)
                .where(OUTBOX.c.ready.is_(False), OUTBOX.c.id.in_(undelivered.scalar_subquery()))
                .values(ready=True)
            )

    async def posted(
        self, entry: OutboxEntry, message_id: int, replaced_id: int | None, layout: JSON
    ) -> None:
        """A board was posted (the one it replaces already lost its controls): it is the
        game's board now, and the entry is delivered, in one transaction.
        `layout` is what the message shows (its text and pictures): taking its controls off
        later means sending it again without them."""
        async with self.db.writing() as connection:
            *earlier, last = run_of(entry)
            await self._deliver_run(connection, earlier, message_id)
            await _deliver(
                connection,
                last,
                message_id=message_id,
                replaced_id=replaced_id,
                payload={"lines": entry.payload["lines"], "layout": layout},
            )
            await rows.set_messages(connection, entry.game_id, board_message_id=message_id)
            if replaced_id is not None:  # that message is done with: its boards are history
                await self._trim(connection, entry.game_id, replaced_id, last)
                self._delivered.pop((entry.game_id, replaced_id), None)
        self._remember(entry.game_id, message_id, last, entry.payload["lines"], layout)

    async def _deliver_run(
        self, connection: Statements, entry_ids: list[int], message_id: int
    ) -> None:
        """Boards folded into the one delivered (`folded`): delivered with it, their
        payloads no longer needed."""
        for entry_id in entry_ids:
            await _deliver(connection, entry_id, message_id=message_id, payload={})

    async def _trim(
        self, connection: Statements, game_id: int, message_id: int, before: int
    ) -> None:
        """Empty the payloads of the boards delivered on `message_id` before entry `before`:
        only the last one on the game's board message is ever read again (`_last_on`), and
        a replay reads only steps. Storage then grows by a board message's few lines, not
        by a public view per board. From the last one this process knows of, when it
        knows it; else all of them (once after a restart)."""
        values = {"of_game": game_id, "on_message": message_id, "before": before}
        if (known := self._delivered.get((game_id, message_id))) is not None:
            await connection.execute(_TRIM_SINCE, {**values, "since": known[0]})
        else:
            await connection.execute(_TRIM, values)

    async def lines_shown(self, game_id: int, message_id: int) -> list[str]:
        """The log lines board message `message_id` shows now: those of the last entry
        delivered on it (an edited entry keeps all of them in `shown`)."""
        last = await self._last_on(game_id, message_id)
        if last is None:
            return []
        return list(last["shown"] if "shown" in last else last.get("lines", []))

    async def layout_of(self, game_id: int, message_id: int) -> JSON | None:
        """What board message `message_id` shows (text and pictures), as `posted` or
        `edited` kept it; None for a board posted before boards were layouts."""
        last = await self._last_on(game_id, message_id)
        return None if last is None else last.get("layout")

    async def _last_on(self, game_id: int, message_id: int) -> JSON | None:
        """The payload of the last entry delivered on board message `message_id` (as this
        process remembers it: only its lines and layout)."""
        if (remembered := self._delivered.get((game_id, message_id))) is not None:
            return cast(JSON, orjson.loads(remembered[1]))
        async with self.db.connected() as connection:
            params = {"game_id": game_id, "message_id": message_id}
            payload: JSON | None = (await connection.execute(_LAST_ON, params)).scalar()
            return payload

    async def edited(
        self, entry: OutboxEntry, message_id: int, shown: list[str], layout: JSON
    ) -> None:
        """A board went onto the game's board message by an edit: the entry is delivered
        on that message, which now shows the lines `shown`."""
        async with self.db.writing() as connection:
            *earlier, last = run_of(entry)
            await self._deliver_run(connection, earlier, message_id)
            await _deliver(
                connection,
                last,
                message_id=message_id,
                payload={"shown": shown, "layout": layout},
            )
            await self._trim(connection, entry.game_id, message_id, last)
        self._remember(entry.game_id, message_id, last, shown, layout)

    def _remember(
        self, game_id: int, message_id: int, entry_id: int, lines: list[str], layout: JSON
    ) -> None:
        # Only what `_last_on`'s readers take (an entry's whole payload, its observation,
        # is far larger), and as JSON text: a layout is dozens of lists and dicts, and
        # thousands of boards' worth would be walked by every full garbage collection.
        # Encoded as the database's JSON columns are, so it reads back the same either way.
        self._delivered[(game_id, message_id)] = (
            entry_id,
            json_text({"lines": lines, "layout": layout}),
        )
        self._delivered.move_to_end((game_id, message_id))
        if len(self._delivered) > REMEMBERED:
            self._delivered.popitem(last=False)

    async def delivered(self, *entry_ids: int) -> None:
        """Entries done with without a board message of their own (controls cleared, a
        board whose channel is gone): nothing reads their payloads again."""
        async with self.db.writing() as connection:
            for entry_id in entry_ids:
                await _deliver(connection, entry_id, payload={})

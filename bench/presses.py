"""Presses a turn: the presses and private messages a person's turn takes (issue 55).

By game and way to play: how many buttons and menu picks a turn needs, and how many private
messages the person is sent.

Each game is a seeded game through the fake Discord (its rate limits on) with the real bot
connected in this process: two people and one normal AI at a table. The people are the
end-to-end tests' scripted players (`tests/e2e/*_play.py`), who choose as a person would
from the controls the bot posted (not the fewest presses the engine allows); this module
only opens the table, calls the game's driver, and counts what the fake Discord recorded
and what the game's action log holds, so the figures follow the drivers and the controls
as they change:

- a turn passes to a person when a new board message pings them (its last line, "➡️ <@id>:
  your turn", in any language);
- a press is a component interaction by a person (a button or a menu pick, "My hand"
  included, slash commands not), counted in the turn of theirs it fell in;
- a single-choice press is an action the log holds as the player's own (actor "player")
  where their seat had one legal action: the game replayed through its engine says so;
- a private message is an ephemeral message made for a person; edits to it are not new.

`python -m bench.presses` plays one game of each game and way to play; the figures go in
docs/performance.md ("Presses a turn").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from bench.games import board_file, keys, plugins, ways
from bench.stats import percentile
from bot.client import TrashTableBot
from bot.models import ActionRecord, GameRecord
from bot.settings import Settings
from rules.base import AnyGame
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.fakediscord.state import InteractionRecord

os.environ.setdefault("WORKERS", "0")  # pictures and the AI in a thread: counts, not speed

COMPONENT = 3  # an interaction of a button or a menu (a slash command is 2)
PING = re.compile(r"<@(\d+)>")
FOOTER = "➡️"  # the board's last line, naming whose turn it is (cogs/shared/board.py)
DROP = "place "  # a Toss It action dropping a piece (as bench.games.random_game counts)
PEOPLE = ("alice", "bob")
GAME_SECONDS = 900.0  # a game that takes longer is stuck: stop it rather than wait on


# ---------------------------------------------------------------------------------------
# what one game left behind, and what is counted from it


@dataclass(frozen=True)
class Press:
    id: int  # its interaction's snowflake: ordered with the messages' ids
    user: int
    custom_id: str


@dataclass(frozen=True)
class Private:
    id: int
    user: int
    edits: int


@dataclass(frozen=True)
class Logged:
    """One row of the game's action log."""

    step: int
    seat: int
    actor: str
    action: str


@dataclass
class Played:
    """What the fake Discord recorded of one game, and its action log."""

    key: str
    options: dict[str, str]
    seed: int
    seats: int
    people: list[int]
    boards: list[tuple[int, str]]  # each board message's id and the text it was posted with
    presses: list[Press]
    private: list[Private]
    actions: list[Logged]
    # What the fake Discord objected to (`problems()`: a late answer...) and its 429s.
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Turn:
    board: int  # the board message that passed the turn
    user: int


def turns_of(played: Played) -> list[Turn]:
    """A turn for each person a new board message pinged when it was posted."""
    found = []
    for board, text in played.boards:
        last = text.rstrip().rsplit("\n", 1)[-1]
        if not last.startswith(FOOTER):
            continue
        for user in dict.fromkeys(int(u) for u in PING.findall(last)):
            if user in played.people:
                found.append(Turn(board, user))
    return found


def turn_at(turns: Sequence[Turn], user: int, at: int) -> Turn | None:
    """The turn of `user`'s under way at snowflake `at`: the latest that began before it;
    before their first, their first (their first decision is posted privately on the press
    that seated them, and may come, and be answered, before the board pinging them)."""
    mine = [t for t in turns if t.user == user]
    began = [t for t in mine if t.board < at]
    return began[-1] if began else mine[0] if mine else None


def choices_at(game: AnyGame, state: Any, seat: int) -> int:
    """How many choices the seat had: its legal actions, identical ones (which of several
    identical cards) counted once (`Game.one_of_each`)."""
    return len(game.one_of_each(state, game.legal_actions(state, seat)))


def single_choice_presses(game: AnyGame, played: Played) -> list[Logged]:
    """The player's own actions (actor "player") made where their seat had a single choice:
    the game replayed from its seed through its engine, action by action."""
    state = game.new_game(played.seats, played.options, played.seed)
    found = []
    for logged in played.actions:
        if logged.actor == "player" and choices_at(game, state, logged.seat) == 1:
            found.append(logged)
        state = game.apply(state, logged.seat, logged.action).state
    return found


@dataclass
class Counts:
    """The figures of one or more games of one game and way to play."""

    games: int = 0
    turns: int = 0
    presses: int = 0
    per_turn: list[int] = field(default_factory=list)  # presses in each turn
    outside: int = 0  # presses by a person before any turn of theirs
    pieces: int = 0  # Toss It: pieces the people dropped
    player_actions: int = 0
    single_choice: int = 0
    private: int = 0  # new private messages to the people
    private_edits: int = 0
    private_per_turn: list[int] = field(default_factory=list)
    private_outside: int = 0
    discord_problems: int = 0  # what the fake Discord objected to (a 429, a late answer)
    failed: int = 0  # games the driver could not finish (not counted above)

    def add(self, other: Counts) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def presses_a_turn(self) -> float:
        return self.presses / self.turns if self.turns else float("nan")

    @property
    def presses_p90(self) -> float:
        return percentile([float(n) for n in self.per_turn], 90) if self.per_turn else float("nan")

    @property
    def presses_a_piece(self) -> float | None:
        return self.presses / self.pieces if self.pieces else None

    @property
    def private_a_turn(self) -> float:
        return self.private / self.turns if self.turns else float("nan")

    @property
    def private_max(self) -> int:
        return max(self.private_per_turn, default=0)

    def summary(self) -> dict[str, Any]:
        return {
            **{k: v for k, v in asdict(self).items() if k not in ("per_turn", "private_per_turn")},
            "presses_a_turn": self.presses_a_turn,
            "presses_p90": self.presses_p90,
            "presses_a_piece": self.presses_a_piece,
            "private_a_turn": self.private_a_turn,
            "private_max_in_a_turn": self.private_max,
        }


def count(game: AnyGame, played: Played) -> Counts:
    """The figures of one game."""
    turns = turns_of(played)
    presses = {t: 0 for t in turns}
    private = {t: 0 for t in turns}
    counts = Counts(games=1, turns=len(turns), presses=len(played.presses))
    counts.discord_problems = len(played.problems)
    for press in played.presses:
        turn = turn_at(turns, press.user, press.id)
        if turn is None:
            counts.outside += 1
        else:
            presses[turn] += 1
    for message in played.private:
        counts.private += 1
        counts.private_edits += message.edits
        turn = turn_at(turns, message.user, message.id)
        if turn is None:
            counts.private_outside += 1
        else:
            private[turn] += 1
    counts.per_turn = list(presses.values())
    counts.private_per_turn = list(private.values())
    mine = [a for a in played.actions if a.actor == "player"]
    counts.player_actions = len(mine)
    counts.pieces = sum(a.action.startswith(DROP) for a in mine)
    counts.single_choice = len(single_choice_presses(game, played))
    return counts


# ---------------------------------------------------------------------------------------
# playing: the table, and each game's driver

Driver = Callable[[TrashTableBot, FakeDiscord, dict[int, FakeUser], random.Random], Awaitable[Any]]


async def rumble(
    bot: TrashTableBot, fake: FakeDiscord, people: dict[int, FakeUser], rng: random.Random
) -> None:
    from tests.e2e import play

    await play.play_to_the_end(fake, people, rng)


async def trashwar(
    bot: TrashTableBot, fake: FakeDiscord, people: dict[int, FakeUser], rng: random.Random
) -> None:
    from tests.e2e import trashwar_play

    await trashwar_play.play_to_the_end(fake, people, rng)


async def brawl(
    bot: TrashTableBot, fake: FakeDiscord, people: dict[int, FakeUser], rng: random.Random
) -> None:
    from tests.e2e import brawl_play

    await brawl_play.play_to_the_end(bot, fake, people)


async def toss(
    bot: TrashTableBot, fake: FakeDiscord, people: dict[int, FakeUser], rng: random.Random
) -> None:
    from tests.e2e import toss_play

    await toss_play.play_to_the_end(fake, people, rng)


async def any_game(
    bot: TrashTableBot, fake: FakeDiscord, people: dict[int, FakeUser], rng: random.Random
) -> None:
    """A game without a driver of its own (a plug-in): its people press its controls."""
    from tests.e2e import any_game

    await any_game.people_play_to_the_end(bot, list(people.values()), rng)


# The game's own driver, by key: each plays a whole game as people, from its first board.
DRIVERS: dict[str, Driver] = {
    "rumble": rumble,
    "trashwar": trashwar,
    "brawl": brawl,
    "toss": toss,
}


@contextlib.asynccontextmanager
async def table() -> AsyncIterator[tuple[FakeDiscord, TrashTableBot]]:
    """The fake Discord, rate limits on, and the bot connected to it on a new SQLite file."""
    with tempfile.TemporaryDirectory(prefix="presses-") as folder:
        async with FakeDiscord() as fake:
            for name in PEOPLE:
                fake.user(name)
            named: dict[str, Any] = {  # as tests/e2e/conftest.py's bot_settings, on a file
                "discord_token": fake.token,
                "database_url": f"sqlite:///{Path(folder) / 'games.db'}",
                "discord_api_base": fake.api_base,
                "_env_file": None,  # EXTRA_EXTENSIONS still comes from the environment
            }
            settings = Settings(**named)
            async with running_bot(fake, TrashTableBot(settings, guild_ready_timeout=0.1)) as bot:
                yield fake, bot


async def open_table(
    bot: TrashTableBot, fake: FakeDiscord, key: str, options: dict[str, str], seed: int
) -> GameRecord:
    """The first person opens a seeded lobby, the second joins, a normal AI sits down and
    the game starts; returns the game once its first board is out."""
    host, guest = (fake.user(name) for name in PEOPLE)
    opened = await host.slash(f"/{key} new", options={"seed": seed, **options})
    lobby = opened.public[0]
    game = await bot.sessions.current(fake.channel.id)
    assert game is not None and game.id is not None, opened
    await guest.click(custom_id=f"tt:lobby:{game.id}:join", message=lobby)
    (levels,) = [s for s in lobby.selects if (s.custom_id or "").startswith("tt:addai:")]
    await host.select(levels.custom_id or "", "1", message=lobby)  # the second level: normal
    await host.click(custom_id=f"tt:lobby:{game.id}:start", message=lobby)
    filename = board_file(key)
    await fake.wait_for(lambda: boards_of(fake, filename), timeout=60, what="the first board")
    started = await bot.sessions.get(game.id)
    assert started is not None
    return started


def boards_of(fake: FakeDiscord, filename: str) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages()
        if not m.ephemeral and any(a.filename == filename for a in m.attachments)
    ]


def first_text(message: FakeMessage) -> str:
    """The text a message was posted with: its content and its layout's text displays."""
    from tests.e2e.toss_play import version_text

    return version_text(message.versions[0])


async def play_one(key: str, options: dict[str, str], seed: int) -> Played:
    """One seeded game of `key` by two people and a normal AI, to its end."""
    async with table() as (fake, bot):
        game = await open_table(bot, fake, key, options, seed)
        started_at = max(fake.state.interactions)  # the Start press: the lobby's presses end
        people = {u.id: u for u in (fake.user(name) for name in PEOPLE)}
        driver = DRIVERS.get(key, any_game)
        await asyncio.wait_for(driver(bot, fake, people, random.Random(seed)), GAME_SECONDS)
        await fake.settle(timeout=60)  # the last board and its recap
        played = await recorded(bot, fake, key, game, started_at, list(people))
        played.problems = fake.problems() + [f"429 {hit}" for hit in fake.rate_limited]
        return played


async def recorded(
    bot: TrashTableBot,
    fake: FakeDiscord,
    key: str,
    game: GameRecord,
    after: int,
    people: list[int],
) -> Played:
    async with bot.db.reading() as session:
        rows = await session.exec(
            select(ActionRecord)
            .where(ActionRecord.game_id == game.id)
            .order_by(col(ActionRecord.step), col(ActionRecord.id))
        )
        actions = [Logged(r.step, r.seat, r.actor, r.action) for r in rows.all()]
    return Played(
        key=key,
        options=dict(game.options),
        seed=game.seed,
        seats=len(game.seats),
        people=people,
        boards=[(m.id, first_text(m)) for m in boards_of(fake, board_file(key))],
        presses=presses_in(fake.state.interactions.values(), people, after),
        private=[
            Private(m.id, m.ephemeral_to, len(m.history))
            for m in fake.messages()
            if m.ephemeral_to in people and m.id > after
        ],
        actions=actions,
    )


def presses_in(records: Iterable[InteractionRecord], people: list[int], after: int) -> list[Press]:
    """The component interactions by the people after snowflake `after`."""
    return [
        Press(r.id, r.user.id, str(r.data.get("custom_id", "")))
        for r in sorted(records, key=lambda r: r.id)
        if r.type == COMPONENT and r.user.id in people and r.id > after
    ]


# ---------------------------------------------------------------------------------------
# the command


def way_name(options: dict[str, str]) -> str:
    return ",".join(options.values())


async def measure(
    games: int, seed: int, only: str | None, report: Callable[[str], None]
) -> dict[tuple[str, str], Counts]:
    results: dict[tuple[str, str], Counts] = {}
    for key, plugin in plugins().items():
        if only and key != only:
            continue
        for options in ways(plugin.engine):
            total = Counts()
            for n in range(games):
                started = time.monotonic()
                name = " ".join(filter(None, [key, way_name(options), f"seed {seed + n}"]))
                try:
                    played = await play_one(key, options, seed + n)
                except Exception as error:  # a driver others are changing: measure the rest
                    total.failed += 1
                    report(f"  {name}: failed, {type(error).__name__}: {error}")
                    continue
                counts = count(plugin.engine, played)
                total.add(counts)
                report(
                    f"  {name}: {counts.turns} turns, {counts.presses} presses, "
                    f"{time.monotonic() - started:.0f} s"
                    + "".join(f"\n    fake Discord: {p}" for p in played.problems)
                )
            results[(key, way_name(options))] = total
    return results


COLUMNS = (
    "game",
    "way",
    "games",
    "turns",
    "presses a turn",
    "p90",
    "presses a piece",
    "single-choice presses",
    "private a turn",
    "most private in a turn",
    "private edits",
)


def table_lines(results: dict[tuple[str, str], Counts]) -> list[str]:
    """The results as a Markdown table."""
    rows = [list(COLUMNS), ["---"] * len(COLUMNS)]
    for (key, way), c in results.items():
        piece = c.presses_a_piece
        rows.append(
            [
                plugins()[key].engine.title,
                way or "-",
                str(c.games),
                str(c.turns),
                f"{c.presses_a_turn:.2f}",
                f"{c.presses_p90:.0f}",
                f"{piece:.2f} ({c.pieces} pieces)" if piece is not None else "-",
                f"{c.single_choice} of {c.player_actions}",
                f"{c.private_a_turn:.2f}",
                str(c.private_max),
                str(c.private_edits),
            ]
        )
    return ["| " + " | ".join(row) + " |" for row in rows]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games of each way to play")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--only", choices=keys(), help="one game")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    results = asyncio.run(
        measure(args.games, args.seed, args.only, lambda line: print(line, file=sys.stderr))
    )
    if args.json:
        out = [
            {"game": key, "way": way, **counts.summary()} for (key, way), counts in results.items()
        ]
        print(json.dumps(out, indent=2))
    else:
        print("\n".join(table_lines(results)))
    if any(c.failed for c in results.values()):
        raise SystemExit("some games did not finish: see above")


if __name__ == "__main__":
    main()

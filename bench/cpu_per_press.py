"""CPU milliseconds per press: what one press costs the bot (render, AI, database).

    python -m bench.cpu_per_press [--workers 0 2] [--games 2]

The bot runs as its own process (`python -m bot`, as in production) against the fake
Discord in this process. For each game, three users and an AI seat play a fixed set of
seeded games one after another, pressing as people do (slash commands, buttons, menus).
The figure is the CPU time the bot's process and its workers spent while those games were
played, read from /proc, divided by the presses (every interaction the users sent). It is
printed apart for the bot's own process (the event loop: Discord, database, sessions) and
its workers (pictures and the AI's picks; with WORKERS=0 those run inside the bot). Beside
it, the HTTP requests the bot sent Discord per press (`--routes`: by route).

The players and the fake Discord run in this process, so their CPU is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import signal
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.bench_discord import OVER, answered, play_controls, press_any
from bench.games import board_file, keys, plugins
from bench.proc import cpu_seconds, process_tree, times
from bot.database import Database
from bot.sessions import SessionService
from bot.settings import async_database_url, cores
from tests.e2e import brawl_play, play, toss_play, trashwar_play
from tests.e2e.brawl_play import turn_user_id
from tests.e2e.conftest import Table
from tests.e2e.process import BotProcess
from tests.e2e.test_brawl_game import open_brawl
from tests.e2e.test_rumble_game import open_and_start
from tests.e2e.test_toss_game import open_toss
from tests.e2e.test_trashwar_game import open_war
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.state import RequestRecord
from tests.postgres import Postgres


def cpu_ms(pid: int) -> tuple[float, float]:
    """CPU milliseconds used so far by `pid` itself and by all its descendants (the fork
    server and the workers, with any workers they have already reaped)."""
    own = times(pid)
    descendants = cpu_seconds(process_tree(pid)[1:])
    return (own[0] + own[1]) * 1000, descendants * 1000


@dataclass(frozen=True)
class Kind:
    """How to play one game through the fake Discord: open a seeded game (the seeds give
    short games), its board messages, and play it to the end."""

    open: Callable[[Table, Any], Awaitable[None]]
    seeds: tuple[Any, ...]
    boards: Callable[[FakeDiscord], list[FakeMessage]]
    play: Callable[[Any, FakeDiscord, dict[int, Any], random.Random], Awaitable[object]]


# The games with a driver of their own, from their end-to-end tests: seeds that give short
# games, each player's choices made as a person would. Any other game: `any_game`.
DRIVERS = {
    "rumble": Kind(
        open_and_start,
        (11, 12),
        play.boards,
        lambda _bot, fake, players, rng: play.play_to_the_end(fake, players, rng),
    ),
    "trashwar": Kind(
        open_war,
        (12, 30),
        trashwar_play.battlefields,
        lambda _bot, fake, players, rng: trashwar_play.play_to_the_end(fake, players, rng),
    ),
    "brawl": Kind(
        lambda table, seed: open_brawl(table, *seed),
        (("round-rummage", 247), ("king-of-the-heap", 118)),
        brawl_play.alley_boards,
        lambda bot, fake, players, _rng: brawl_play.play_to_the_end(bot, fake, players),
    ),
    "toss": Kind(
        open_toss,
        (3, 8),
        toss_play.bin_boards,
        lambda _bot, fake, players, rng: toss_play.play_to_the_end(fake, players, rng),
    ),
}


def any_game(key: str) -> Kind:
    """A game with no driver of its own: alice opens it (seeds 1 and 2), bob joins, an AI
    seat, and the player each board names presses a random control, on the board or in
    their "My hand" reply as the game's presenter has them, until the game is over."""
    filename = board_file(key)
    private = plugins()[key].presenter.private_controls

    def boards(fake: FakeDiscord) -> list[FakeMessage]:
        return [
            m
            for m in fake.messages()
            if not m.ephemeral and any(a.filename == filename for a in m.attachments)
        ]

    async def open_game(table: Table, seed: Any) -> None:
        await table.alice.slash(f"/{key} new", seed=seed)
        await table.bob.click("Join")
        await table.alice.select("Add AI player…", "Normal AI")
        await table.alice.click("Start")

    async def play_game(
        _bot: Any, fake: FakeDiscord, players: dict[int, Any], rng: random.Random
    ) -> None:
        for _ in range(2000):
            board = boards(fake)[-1]
            if OVER in board.text:
                return
            mover = players[turn_user_id(board) or next(iter(players))]
            where: FakeMessage | None = board
            if private:
                (hand,) = [c for c in board.buttons if (c.custom_id or "").startswith("tt:hand:")]
                where = answered(fake, await mover.click(custom_id=hand.custom_id, message=board))
            # Press on until the message has no controls left: a group narrows in a reply
            # of its own or in the same one, and a hand plays on from its reply.
            for _ in range(50):
                pressed = await press_any(mover, where, rng) if where else None
                if pressed is None:
                    break
                await fake.settle()
                reply = answered(fake, pressed)
                if reply is not None and reply is not where and play_controls(reply):
                    where = reply
                elif where is board:
                    break  # a move from the board: look at the newest board
        raise AssertionError(f"a game of {key} did not end")

    return Kind(open_game, (1, 2), boards, play_game)


def driver(key: str) -> Kind:
    return DRIVERS.get(key) or any_game(key)


@dataclass(frozen=True)
class Figure:
    kind: str
    presses: int
    bot_ms: float
    workers_ms: float
    requests: Counter[str]  # the bot's HTTP requests to Discord, by route

    def line(self, workers: int) -> str:
        per = 1 / max(self.presses, 1)
        return (
            f"{self.kind:<9} WORKERS={workers:<2} presses {self.presses:4d}  "
            f"CPU per press {(self.bot_ms + self.workers_ms) * per:6.1f} ms "
            f"(bot process {self.bot_ms * per:5.1f}, workers {self.workers_ms * per:5.1f}); "
            f"requests per press {self.requests.total() * per:4.2f}"
        )

    def routes(self) -> str:
        per = 1 / max(self.presses, 1)
        return "\n".join(
            f"    {count * per:5.2f} {route}" for route, count in self.requests.most_common()
        )


def route_of(request: RequestRecord) -> str:
    """A request's method and path with the ids and tokens left out, and, for an answer to
    an interaction, its callback type (4 a reply, 5 and 6 deferrals, 7 an update)."""
    path = re.sub(r"/(webhooks|interactions)/\d+/[^/]+", r"/\1/<id>/<token>", request.path)
    route = request.method + " " + re.sub(r"/\d+", "/<id>", path)
    if route.endswith("/callback") and isinstance(request.json, dict):
        route += f" type {request.json.get('type')}"
    return route + (" with files" if request.files else "")


async def play_one(game: Kind, seed: Any, table: Table, stand_in: object) -> None:
    fake = table.fake
    shown = len(game.boards(fake))
    await game.open(table, seed)
    await fake.wait_for(lambda: len(game.boards(fake)) > shown, timeout=30, what="a board")
    players = {u.id: u for u in table.players}
    await game.play(stand_in, fake, players, random.Random(4))


async def measure(
    workers: int, kinds: list[str], games: int, postgres: Postgres | None, routes: bool = False
) -> list[Figure]:
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "games.db"
        url = postgres.create_database() if postgres else f"sqlite:///{database}"
        # CPU per press, not Discord's pace: the rate limits would only add waiting.
        async with FakeDiscord(rate_limits=False) as fake:
            table = Table(fake)
            bot = await BotProcess.start(
                fake, database, Path(folder) / "bot.log", WORKERS=str(workers), DATABASE_URL=url
            )
            # The Brawl players read their own view from the database (see brawl_play).
            reader = Database(async_database_url(url))
            try:
                await bot.connected(fake, syncs=0)
                stand_in = SimpleNamespace(sessions=SessionService(reader))
                for kind in kinds:
                    await fake.settle()
                    pressed, requested = len(fake.interactions), len(fake.requests)
                    before = cpu_ms(bot.process.pid)
                    game = driver(kind)
                    for seed in (game.seeds * games)[:games]:
                        await play_one(game, seed, table, stand_in)
                    await fake.settle()
                    after = cpu_ms(bot.process.pid)
                    figures.append(
                        Figure(
                            kind,
                            len(fake.interactions) - pressed,
                            after[0] - before[0],
                            after[1] - before[1],
                            Counter(route_of(r) for r in fake.requests[requested:]),
                        )
                    )
                    print(figures[-1].line(workers), flush=True)
                    if routes:
                        print(figures[-1].routes(), flush=True)
            finally:
                await reader.close()
                # Not `bot.signal()`: it takes the bot's first child (the fork server) for
                # the bot itself, as under `unshare`.
                os.kill(bot.process.pid, signal.SIGTERM)
                try:
                    await bot.exit_code()  # a clean stop, within the promised 10 s
                finally:
                    await bot.end()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[0, cores()], help="WORKERS values to compare"
    )
    parser.add_argument("--games", type=int, default=2, help="seeded games of each kind")
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="a SQLite file, or a PostgreSQL server started for the run (its own CPU is not "
        "counted)",
    )
    parser.add_argument(
        "--routes", action="store_true", help="the HTTP requests per press by route, too"
    )
    parser.add_argument("kinds", nargs="*", metavar="GAME", help=f"any of {', '.join(keys())}")
    options = parser.parse_args()
    if unknown := set(options.kinds) - set(keys()):
        parser.error(f"no such game: {', '.join(sorted(unknown))}")
    with contextlib.ExitStack() as stack:
        postgres = None
        if options.database == "postgresql":
            postgres = Postgres(Path(stack.enter_context(tempfile.TemporaryDirectory())))
            stack.callback(postgres.cleanup)
        for workers in options.workers:
            kinds = options.kinds or keys()
            asyncio.run(measure(workers, kinds, options.games, postgres, options.routes))


if __name__ == "__main__":
    main()

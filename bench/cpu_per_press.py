"""CPU milliseconds per press: what one press costs the bot (render, AI, database).

    python -m bench.cpu_per_press [--workers 0 2] [--games 2] [--against COMMIT] [GAME ...]

The bot runs as its own process (`python -m bot`, as in production) against the fake
Discord in this process. For each game, three users and an AI seat play a fixed set of
seeded games one after another, pressing as people do (slash commands, buttons, menus).
The figure is the CPU time the bot's process and its workers spent while those games were
played, read from /proc, divided by the presses (every interaction the users sent). It is
printed apart for the bot's own process (the event loop: Discord, database, sessions) and
its workers (pictures and the AI's picks; with WORKERS=0 those run inside the bot). Beside
it, the HTTP requests the bot sent Discord per press (`--routes`: by route).

The players and the fake Discord run in this process, so their CPU is not counted. Each
game is measured on a bot process of its own, after a warm-up game of another seed
(`--cold`: none): a running process's cost, not its start-up's imports and fonts.

`--against COMMIT` compares with an earlier commit in the same run: the commit is checked
out in a temporary `git worktree` (removed afterwards) and its bot started from there (its
own code and migrations, cwd and PYTHONPATH the worktree, this checkout's .venv), each bot
with its own fake Discord and database. Both play the same games with the same seeds, the
same drivers and today's fake Discord, game by game, one bot after the other (which goes
first alternates), and a table gives both figures and this tree's over the commit's, a
press and a game: if the older bot needs more or fewer presses for the same game, the two
ratios differ. An older bot that does not start, or whose game does not play through with
today's drivers, is reported as such, without a figure.
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
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.bench_discord import OVER, answered, play_controls, press_any
from bench.games import board_file, keys, plugins
from bench.proc import cpu_seconds, process_tree, times
from bench.worktree import ROOT, NoSuchCommit, checked_out, resolve
from bot.database import Database
from bot.sessions import SessionService
from bot.settings import async_database_url, cores
from tests.e2e import brawl_play, play, toss_play, trashwar_play
from tests.e2e.brawl_play import turn_user_id
from tests.e2e.conftest import Table
from tests.e2e.process import BotProcess
from tests.e2e.test_brawl_game import BANDIT
from tests.fakediscord import FakeDiscord, FakeDiscordError, FakeMessage
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
    warmup: Any  # another seed: a game measured after the same one finds its texts cached
    boards: Callable[[FakeDiscord], list[FakeMessage]]
    play: Callable[[Any, FakeDiscord, dict[int, Any], random.Random], Awaitable[object]]


async def add_ai(table: Table) -> None:
    """A normal AI seat: from the lobby's level menu, or, in a commit from before the AI
    levels (`--against`), with its one "Add AI player" button."""
    try:
        await table.alice.select("Add AI player…", "Normal AI")
    except FakeDiscordError:
        await table.alice.click("Add AI player")


def opener(
    command: str, pick: str | None = None, **options: Any
) -> Callable[[Table, Any], Awaitable[None]]:
    """alice opens a seeded lobby (and picks `pick` in its first menu: Dumpster Brawl!'s
    character), bob and carol join, a normal AI seat, alice starts: the presses of the
    game's end-to-end test, without its checks of today's lobby."""

    async def open_game(table: Table, seed: Any) -> None:
        opened = await table.alice.slash(command, seed=seed, **options)
        if pick is not None:
            lobby = opened.public[0]
            await table.alice.select(lobby.selects[0].custom_id, pick, message=lobby)
        await table.bob.click("Join")
        await table.carol.click("Join")
        await add_ai(table)
        await table.alice.click("Start")

    return open_game


# The games with a driver of their own, from their end-to-end tests: seeds that give short
# games, each player's choices made as a person would. Any other game: `any_game`.
DRIVERS = {
    "rumble": Kind(
        opener("/rumble new"),
        (11, 12),
        23,
        play.boards,
        lambda _bot, fake, players, rng: play.play_to_the_end(fake, players, rng),
    ),
    "trashwar": Kind(
        opener("/trashwar new"),
        (12, 30),
        5,
        trashwar_play.battlefields,
        lambda _bot, fake, players, rng: trashwar_play.play_to_the_end(fake, players, rng),
    ),
    "brawl": Kind(
        # The seeds give short games with alice as the Bandit.
        lambda table, seed: opener("/brawl new", str(BANDIT), mode=seed[0])(table, seed[1]),
        (("round-rummage", 247), ("king-of-the-heap", 118)),
        ("rummy", 114),
        brawl_play.alley_boards,
        lambda bot, fake, players, _rng: brawl_play.play_to_the_end(bot, fake, players),
    ),
    "toss": Kind(
        opener("/toss new", wobble="shaky"),
        (3, 8),
        11,
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
        await add_ai(table)
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

    return Kind(open_game, (1, 2), 3, boards, play_game)


def driver(key: str) -> Kind:
    return DRIVERS.get(key) or any_game(key)


@dataclass(frozen=True)
class Figure:
    kind: str
    games: int
    presses: int
    bot_ms: float
    workers_ms: float
    requests: Counter[str]  # the bot's HTTP requests to Discord, by route

    @property
    def per_press(self) -> float:
        return (self.bot_ms + self.workers_ms) / max(self.presses, 1)

    @property
    def per_game(self) -> float:
        return (self.bot_ms + self.workers_ms) / max(self.games, 1)

    def line(self, workers: int) -> str:
        per = 1 / max(self.presses, 1)
        return (
            f"{self.kind:<9} WORKERS={workers:<2} presses {self.presses:4d}  "
            f"CPU per press {self.per_press:6.1f} ms "
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


class CannotRun(Exception):
    """A bot (an older commit's) that cannot be measured with today's fake Discord and
    drivers: it did not start, or a game did not play through."""


class Subject:
    """One bot process measured: `python -m bot` from `root` (this checkout, or a worktree
    of an earlier commit) with its own fake Discord, users and database."""

    def __init__(self, root: Path, workers: int, postgres: Postgres | None) -> None:
        self.root, self.workers, self.postgres = root, workers, postgres
        self.stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Subject:
        stack = self.stack
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database = folder / "games.db"
        url = self.postgres.create_database() if self.postgres else f"sqlite:///{database}"
        # CPU per press, not Discord's pace: the rate limits would only add waiting.
        self.fake = await stack.enter_async_context(FakeDiscord(rate_limits=False))
        self.table = Table(self.fake)
        # The bot's own modules first, before the editable install's (this checkout's).
        self.bot = await BotProcess.start(
            self.fake,
            database,
            folder / "bot.log",
            cwd=self.root,
            WORKERS=str(self.workers),
            DATABASE_URL=url,
            PYTHONPATH=str(self.root),
        )
        stack.push_async_callback(self._stop)
        # The Brawl players read their own view from the database (see brawl_play).
        reader = Database(async_database_url(url))
        stack.push_async_callback(reader.close)
        self.stand_in = SimpleNamespace(sessions=SessionService(reader))
        try:
            await self.bot.connected(self.fake, syncs=0)
        except (AssertionError, TimeoutError) as error:
            log = self.bot.text().strip().splitlines()[-15:]
            await self.__aexit__()
            raise CannotRun(f"the bot did not start: {error}\n" + "\n".join(log)) from None
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()

    async def _stop(self) -> None:
        # Not `bot.signal()`: it takes the bot's first child (the fork server) for the bot
        # itself, as under `unshare`.
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.bot.process.pid, signal.SIGTERM)
        try:
            await self.bot.exit_code()  # a clean stop, within the promised 10 s
        finally:
            await self.bot.end()

    async def measure(self, kind: str, seeds: list[Any]) -> Figure:
        """Play a game of `kind` from each seed; CannotRun when one does not play through."""
        fake, pid = self.fake, self.bot.process.pid
        await fake.settle()
        pressed, requested = len(fake.interactions), len(fake.requests)
        before = cpu_ms(pid)
        game = driver(kind)
        try:
            for seed in seeds:
                await play_one(game, seed, self.table, self.stand_in)
            await fake.settle()
        except Exception as error:  # any way a driver fails to play the game
            where = traceback.extract_tb(error.__traceback__)[-1]
            said = str(error).strip().split("\n")[0][:200]  # an SQL error's first line, say
            raise CannotRun(
                f"{kind} did not play through: {type(error).__name__} at "
                f"{Path(where.filename).name}:{where.lineno}: {said}"
            ) from error
        after = cpu_ms(pid)
        return Figure(
            kind,
            len(seeds),
            len(fake.interactions) - pressed,
            after[0] - before[0],
            after[1] - before[1],
            Counter(route_of(r) for r in fake.requests[requested:]),
        )


async def measure_one(
    root: Path, workers: int, kind: str, games: int, warm: bool, postgres: Postgres | None
) -> Figure:
    """One game's figure from a bot of its own (so no game's figure depends on which ran
    before it), after an unmeasured game (`warm`): a press's cost in a process that has
    been up a while, without the imports, fonts and catalogues a new process loads once.
    The warm-up is another seed's game: the same game's captions would be in the caches."""
    game = driver(kind)
    async with Subject(root, workers, postgres) as subject:
        if warm:
            await subject.measure(kind, [game.warmup])
        return await subject.measure(kind, (list(game.seeds) * games)[:games])


async def measure(
    workers: int,
    kinds: list[str],
    games: int,
    postgres: Postgres | None,
    routes: bool = False,
    warm: bool = True,
) -> list[Figure]:
    """This checkout's bot, each game in turn."""
    figures = []
    for kind in kinds:
        figures.append(await measure_one(ROOT, workers, kind, games, warm, postgres))
        print(figures[-1].line(workers), flush=True)
        if routes:
            print(figures[-1].routes(), flush=True)
    return figures


async def compare(
    workers: int,
    kinds: list[str],
    games: int,
    postgres: Postgres | None,
    commit: str,
    tree: Path,
    routes: bool = False,
    warm: bool = True,
) -> list[tuple[Figure, Figure | str]]:
    """This checkout's bot and `commit`'s (run from `tree`), game by game, the two one
    after the other (which goes first alternates, so a load on the machine that comes and
    goes falls on both alike). A game the older bot cannot play is reported as such."""
    label = commit[:9]
    pairs: list[tuple[Figure, Figure | str]] = []
    for index, kind in enumerate(kinds):
        sides = [("this tree", ROOT), (label, tree)]
        found: dict[str, Figure | str] = {}
        for name, root in sides[::-1] if index % 2 else sides:
            try:
                figure = await measure_one(root, workers, kind, games, warm, postgres)
            except CannotRun as error:
                if root == ROOT:
                    raise  # this tree's own bot: nothing to compare with
                found[name] = f"cannot run against today's fake Discord and drivers: {error}"
                print(f"{kind:<9} WORKERS={workers:<2} [{label}] {found[name]}", flush=True)
                continue
            found[name] = figure
            print(f"{figure.line(workers)}  [{name}]", flush=True)
            if routes:
                print(figure.routes(), flush=True)
        ours = found["this tree"]
        assert isinstance(ours, Figure)
        pairs.append((ours, found[label]))
    print(side_by_side(workers, label, pairs), flush=True)
    return pairs


def side_by_side(workers: int, label: str, pairs: list[tuple[Figure, Figure | str]]) -> str:
    """The table of a comparison: CPU per press on each side and this tree's over the
    earlier commit's (1.10: this tree costs 10 % more a press); the same per game, as a
    change in presses a turn moves the one and not the other."""
    head = ("game", "presses", "ms a press", label, "ratio", "ms a game", label, "ratio")
    rows = [head, ("", "", "this tree", "", "", "this tree", "", "")]
    notes = []
    for ours, theirs in pairs:
        if isinstance(theirs, str):
            notes.append(f"{ours.kind}, {label}: {theirs}")
            theirs = Figure(ours.kind, 0, 0, 0, 0, Counter())
        rows.append(
            (
                ours.kind,
                f"{ours.presses}/{theirs.presses}",
                f"{ours.per_press:.1f}",
                f"{theirs.per_press:.1f}" if theirs.presses else "—",
                f"{ours.per_press / theirs.per_press:.2f}" if theirs.presses else "—",
                f"{ours.per_game:.0f}",
                f"{theirs.per_game:.0f}" if theirs.presses else "—",
                f"{ours.per_game / theirs.per_game:.2f}" if theirs.presses else "—",
            )
        )
    lines = [f"WORKERS={workers}: this tree against {label}"]
    lines += [f"{row[0]:<9}" + "".join(f"{cell:>11}" for cell in row[1:]) for row in rows]
    return "\n".join(lines + notes)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[0, cores()], help="WORKERS values to compare"
    )
    parser.add_argument("--games", type=int, default=2, help="seeded games of each kind")
    parser.add_argument(
        "--cold", action="store_true", help="measure from the bot's start, with no warm-up game"
    )
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
    parser.add_argument(
        "--against",
        metavar="COMMIT",
        help="also run the bot of this earlier commit (a temporary git worktree) on the same "
        "games, alternating game by game, and print both figures and their ratio",
    )
    parser.add_argument("kinds", nargs="*", metavar="GAME", help=f"any of {', '.join(keys())}")
    options = parser.parse_args(argv)
    if unknown := set(options.kinds) - set(keys()):
        parser.error(f"no such game: {', '.join(sorted(unknown))}")
    if options.against is not None:
        try:
            options.against = resolve(options.against)
        except NoSuchCommit as error:
            parser.error(str(error))
    options.kinds = options.kinds or keys()
    return options


def main(argv: list[str] | None = None) -> None:
    options = parse(argv)
    with contextlib.ExitStack() as stack:
        postgres = None
        if options.database == "postgresql":
            postgres = Postgres(Path(stack.enter_context(tempfile.TemporaryDirectory())))
            stack.callback(postgres.cleanup)
        tree = stack.enter_context(checked_out(options.against)) if options.against else None
        for workers in options.workers:
            if tree is None:
                asyncio.run(
                    measure(
                        workers,
                        options.kinds,
                        options.games,
                        postgres,
                        options.routes,
                        not options.cold,
                    )
                )
            else:
                try:
                    asyncio.run(
                        compare(
                            workers,
                            options.kinds,
                            options.games,
                            postgres,
                            options.against,
                            tree,
                            options.routes,
                            not options.cold,
                        )
                    )
                except CannotRun as error:  # this tree's own bot: nothing to compare with
                    raise SystemExit(f"cpu_per_press: {error}") from None


if __name__ == "__main__":
    main()

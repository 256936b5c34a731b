"""Issue 16 (scale), done when: two `python -m bot` processes, one Discord shard of 2 each,
share one PostgreSQL database; a game with AI seats and a turn timer runs in a guild on each
shard; one process is killed with SIGKILL mid-game and started again. Then every game
finishes, each game's action log has every step once, and no process touched another's
games.

Each process has its own API base (`FakeDiscord.api_base_for`), so the fake Discord knows
which process sent every request, and it notes the guild each request acted in.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from sqlmodel import col, select

from bot.database import Database
from bot.models import ActionRecord, GameRecord, OutboxEntry, Status, utcnow
from bot.settings import async_database_url
from tests.e2e import play
from tests.e2e.play import assert_started
from tests.e2e.process import BotProcess
from tests.fakediscord import FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.state import RequestRecord

FIRST, AGAIN = "shard0", "shard0-again"  # the process of shard 0, then its restart
OTHER = "shard1"


@dataclass
class Site:
    """A guild on one shard, its one human player, and the game in its first channel."""

    fake: FakeDiscord
    guild: FakeGuild
    host: FakeUser
    rng: random.Random

    def board(self) -> FakeMessage:
        return play.latest_board(self.fake, self.guild.channel)

    def boards(self) -> list[FakeMessage]:
        return play.boards(self.fake, self.guild.channel)

    async def open_game(self, seed: int) -> None:
        """A Rumble of the host and two AI seats, with a turn timer of 5 minutes."""
        await self.host.slash("/rumble new", seed=seed, timer=5)
        for _ in range(2):
            await self.host.select("Add AI player…", "Normal AI")
        started = await self.host.click("Start")
        assert_started(started)
        await play.next_board(self.fake, 0, self.guild.channel)

    async def turn(self) -> None:
        board = self.board()
        assert play.turn_user_id(board) == self.host.id, board.text
        await play.take_turn(self.host, board, self.rng)


async def start(fake: FakeDiscord, logs: Path, name: str, shard: int, url: str) -> BotProcess:
    return await BotProcess.start(
        fake,
        logs / "unused.db",
        logs / f"{name}.log",
        DATABASE_URL=url,
        DISCORD_API_BASE=fake.api_base_for(name),
        SHARD_COUNT="2",
        SHARD_IDS=str(shard),
        WORKERS="0",  # two processes on a small machine: draw and decide in a thread
        LOG_LEVEL="DEBUG",  # each action's line, which says which process saved it
    )


async def connected(fake: FakeDiscord, process: BotProcess, guild: FakeGuild) -> None:
    """The process has migrated, synced its commands and connected its shard."""
    await process.wait_for_log("commands synced")
    await fake.wait_for(lambda: guild.connected, timeout=60, what=f"the shard of {guild}")


async def ready(fake: FakeDiscord) -> None:
    await asyncio.sleep(2.5)  # discord.py waits for its guilds before it reports ready
    await fake.settle()


async def until(condition: Callable[[], Awaitable[bool]], timeout: float = 60) -> None:
    """Poll an async condition (the database) until it holds."""
    async with asyncio.timeout(timeout):
        while not await condition():
            await asyncio.sleep(0.1)


async def games_by_guild(db: Database) -> dict[int, GameRecord]:
    async with db.reading() as session:
        return {g.guild_id: g for g in (await session.exec(select(GameRecord))).all()}


async def actions_of(db: Database, game_id: int | None) -> list[ActionRecord]:
    async with db.reading() as session:
        query = select(ActionRecord).where(ActionRecord.game_id == game_id)
        return list((await session.exec(query.order_by(col(ActionRecord.id)))).all())


async def make_turns_late(db: Database) -> int:
    """Every player waiting on a turn timer has run out of time (as if minutes passed)."""
    async with db.transaction() as session:
        query = select(GameRecord).where(
            GameRecord.status == Status.PLAYING, col(GameRecord.turn_deadline).is_not(None)
        )
        games = list((await session.exec(query)).all())
        for game in games:
            game.turn_deadline = utcnow() - timedelta(minutes=1)
            session.add(game)
    return len(games)


async def timers_played_and_shown(db: Database) -> bool:
    """Both games have an action the timer played, and nothing waits in the outbox."""
    async with db.reading() as session:
        timed = (
            await session.exec(select(ActionRecord).where(ActionRecord.actor == "timer"))
        ).all()
        waiting = (
            await session.exec(select(OutboxEntry).where(col(OutboxEntry.delivered_at).is_(None)))
        ).all()
    return len({a.game_id for a in timed}) == 2 and not waiting


async def both_finished_and_shown(db: Database) -> bool:
    async with db.reading() as session:
        games = (await session.exec(select(GameRecord))).all()
        waiting = (
            await session.exec(select(OutboxEntry).where(col(OutboxEntry.delivered_at).is_(None)))
        ).all()
    return all(game.status == Status.FINISHED for game in games) and not waiting


ACTED = re.compile(r"game (\d+) step (\d+): seat \d+ acted")


def steps_acted(process: BotProcess) -> dict[int, set[int]]:
    """Game -> the steps this process saved an action at (it logs each one)."""
    acted: dict[int, set[int]] = {}
    for game, step in ACTED.findall(process.text()):
        acted.setdefault(int(game), set()).add(int(step))
    return acted


def leave_answer(client: str) -> Callable[[RequestRecord], bool]:
    """This process answering "/game leave": the seat is the AI's now, its turns to come."""
    return lambda record: (
        record.client == client
        and "/webhooks/" in record.path
        and "AI plays that seat" in str((record.json or {}).get("content"))
    )


def channel_post(client: str, site: Site) -> Callable[[RequestRecord], bool]:
    """This process posting a message (a board) in the site's game channel."""
    path = f"/as/{client}/api/v10/channels/{site.guild.channel.id}/messages"
    return lambda record: record.method == "POST" and record.path == path


async def test_two_shard_processes_share_a_database_and_survive_a_kill(
    fake_discord: FakeDiscord, postgresql_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.add_guild("Second Server")
    guilds = {guild.shard(2): guild for guild in fake.guilds}
    assert sorted(guilds) == [0, 1], "one guild on each shard of 2"
    sites = {
        shard: Site(fake, guild, guild.user(f"host{shard}"), random.Random(shard))
        for shard, guild in guilds.items()
    }
    processes = {FIRST: await start(fake, tmp_path, FIRST, 0, postgresql_url)}
    db = Database(async_database_url(postgresql_url))
    try:
        await connected(fake, processes[FIRST], guilds[0])  # it migrated the database
        processes[OTHER] = await start(fake, tmp_path, OTHER, 1, postgresql_url)
        await connected(fake, processes[OTHER], guilds[1])
        await ready(fake)
        for shard, site in sites.items():
            await site.open_game(seed=20 + shard)
            await site.turn()

        # Both players run out of time: each process's turn timer plays for its own.
        assert await make_turns_late(db) == 2
        await until(lambda: timers_played_and_shown(db))
        await fake.settle()

        # The players leave: the AI plays their seats to the end. Shard 0's process dies
        # (SIGKILL) as it tells its player so, before the AI's first move, and comes back.
        await sites[1].host.slash("/game leave")
        dying = processes[FIRST]
        hook = fake.on_request(leave_answer(FIRST), dying.process.kill, after=True)
        leaving = await sites[0].host.slash("/game leave", settle=False)
        await fake.wait_for(lambda: hook.fired, timeout=60, what="the kill point")
        killed_at = len(fake.requests)
        await dying.process.wait()
        assert "AI plays that seat" in leaving.ephemeral_text
        await fake.wait_for(lambda: not guilds[0].connected, what="shard 0 to disconnect")
        processes[AGAIN] = await start(fake, tmp_path, AGAIN, 0, postgresql_url)
        await until(lambda: both_finished_and_shown(db), timeout=120)
        await fake.settle()
    finally:
        for process in processes.values():
            await process.end()
        await fake.wait_for(lambda: not any(g.connected for g in fake.guilds), what="disconnect")

    try:
        games = await games_by_guild(db)
        for site in sites.values():
            game = games[site.guild.id]
            assert game.status == Status.FINISHED and play.is_over(site.board())
            actions = await actions_of(db, game.id)
            steps = [a.step for a in actions]
            assert steps == list(range(steps[0], steps[0] + len(steps))), "no gap, no repeat"
            assert {"player", "timer", "ai"} <= {a.actor for a in actions}
            # A board posted through the bot token has its nonce; one carried by a press
            # (a followup) has none, and a doubled one would repeat its text.
            nonces = Counter(board.nonce for board in site.boards() if board.nonce)
            texts = Counter(board.text for board in site.boards())
            assert max([*nonces.values(), *texts.values()]) == 1, "each board posted once"
    finally:
        await db.close()

    # Each process moved only its own shard's game (its log names every action it saved),
    # and the game of the killed process went on in its restart, from where it was killed.
    acted = {name: steps_acted(process) for name, process in processes.items()}
    ids = {shard: games[site.guild.id].id for shard, site in sites.items()}
    assert {name: set(steps) for name, steps in acted.items()} == {
        FIRST: {ids[0]},
        OTHER: {ids[1]},
        AGAIN: {ids[0]},
    }
    assert max(acted[FIRST][ids[0] or 0]) < min(acted[AGAIN][ids[0] or 0])
    # ... and sent Discord only its own guild's requests (messages, edits, answers).
    owners = {guilds[0].id: {FIRST, AGAIN}, guilds[1].id: {OTHER}}
    assert all(r.client in (FIRST, AGAIN, OTHER) for r in fake.requests)
    touched = [r for r in fake.requests if r.guild_id is not None]
    strays = [f"{r.client}: {r}" for r in touched if r.client not in owners[r.guild_id or 0]]
    assert not strays, "a process acted in a guild of another's shard"
    # After the kill only the restart spoke in shard 0's guild.
    before_kill = {id(r) for r in fake.requests[:killed_at]}
    in_shard_0 = [r for r in touched if r.guild_id == guilds[0].id]
    assert {r.client for r in in_shard_0 if id(r) in before_kill} == {FIRST}
    after = [r for r in in_shard_0 if id(r) not in before_kill]
    assert after and {r.client for r in after} == {AGAIN}, "resumed by its own restart"
    assert any(channel_post(AGAIN, sites[0])(r) for r in after), "it posted the final board"

"""Issue 16 (many processes): a process running some of Discord's shards resumes, times and
posts only the games of guilds on those shards, so two processes on one database never play
or post each other's games. Two services on one database stand for two processes, on SQLite
and PostgreSQL (the `database_url` fixture)."""

from __future__ import annotations

from datetime import timedelta

from bot.database import Database
from bot.models import GameRecord, utcnow
from bot.requests import Player
from bot.sessions import SessionService
from bot.shards import Shards, parse_shard_ids, shard_of
from rules.rumble import RUMBLE

# Discord's formula puts a guild on shard (guild_id >> 22) % shard_count.
GUILD_ON = {0: 10 << 22, 1: (11 << 22) + 12345}
CHANNEL_ON = {0: 500, 1: 501}
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


def owners(db: Database, **options) -> dict[int, SessionService]:
    """Two "processes": one service per shard of 2."""
    return {shard: SessionService(db, shards=Shards(2, (shard,)), **options) for shard in (0, 1)}


async def game_in(service: SessionService, shard: int, timer: int = 0) -> GameRecord:
    """A Rumble game of Alice, Bob and two AI seats, playing, in the guild on `shard`."""
    channel = CHANNEL_ON[shard]
    game = await service.open_lobby(
        GUILD_ON[shard], channel, "rumble", ALICE, {}, seed=7, timer=timer
    )
    game = await service.join(channel, game.id, BOB)
    for _ in range(2):
        game = await service.add_ai(channel, game.id, ALICE)
    return (await service.play_ai(await service.start(channel, game.id, ALICE))).game


async def held_for_the_ai(service: SessionService, shard: int) -> GameRecord:
    """A game whose human just moved, its AI seats' turns not played yet (a process killed
    between the press and the AI's moves)."""
    channel = CHANNEL_ON[shard]
    game = await game_in(service, shard)
    for _ in range(50):
        (seat,) = RUMBLE.to_act(RUMBLE.from_json(game.state))
        user = game.seats[seat].user_id
        update = await service.act(channel, game.id, user, game.step, 0)
        if game.seats[(seat + 1) % len(game.seats)].ai:
            return update.game
        game = update.game
    raise AssertionError("no AI seat came next")


def test_the_shard_formula_and_the_test_guilds() -> None:
    assert [shard_of(GUILD_ON[s], 2) for s in (0, 1)] == [0, 1]
    assert Shards(2, (1,)).owns(GUILD_ON[1]) and not Shards(2, (1,)).owns(GUILD_ON[0])
    assert Shards().owns(GUILD_ON[0]) and Shards().owns(GUILD_ON[1])
    assert parse_shard_ids("0-2,5") == (0, 1, 2, 5)


async def test_each_process_resumes_only_its_own_shards_games(db: Database) -> None:
    services = owners(db)
    held = {shard: await held_for_the_ai(services[shard], shard) for shard in (0, 1)}
    for shard in (0, 1):
        before = {s: (await services[0].get(held[s].id)).step for s in (0, 1)}
        resumed = await services[shard].resume_all()
        assert [u.game.guild_id for u in resumed] == [GUILD_ON[shard]]
        other = 1 - shard
        assert (await services[0].get(held[shard].id)).step > before[shard]
        assert (await services[0].get(held[other].id)).step == before[other], "not ours"


async def test_each_process_times_only_its_own_shards_games(db: Database) -> None:
    now = [utcnow()]
    services = owners(db, clock=lambda: now[0])
    for shard in (0, 1):
        await game_in(services[shard], shard, timer=5)
    later = now[0] = utcnow() + timedelta(hours=1)
    for shard in (0, 1):
        assert [g.guild_id for g in await services[shard].late_games()] == [GUILD_ON[shard]]
    assert len(await SessionService(db, clock=lambda: later).late_games()) == 2, "unsharded"


async def test_each_process_delivers_only_its_own_shards_outbox(db: Database) -> None:
    services = owners(db)
    for shard in (0, 1):
        await game_in(services[shard], shard)
    for shard in (0, 1):
        assert await services[shard].outbox.channels_pending() == [CHANNEL_ON[shard]]
    assert await SessionService(db).outbox.channels_pending() == [500, 501], "unsharded"

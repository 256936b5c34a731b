"""The bot's share of Discord's global rate limit, and its 429 log lines (bot/ratelimits.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.client import TrashTableBot
from bot.ratelimits import RequestBudget, request_trace
from bot.settings import Settings
from tests.fakediscord import (
    FakeDiscord,
    Limit,
    RateLimits,
    discord_py_pointed_at,
    start_bot,
    stop_bot,
)
from tests.fakediscord.ratelimits import bucket_hash


class Clock:
    """Time that moves only when the budget sleeps, or the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def most_in_a_window(starts: list[float], window: float) -> int:
    return max(sum(1 for t in starts if s <= t < s + window) for s in starts)


async def test_no_second_sees_more_than_the_share() -> None:
    clock = Clock()
    budget = RequestBudget(3, clock=clock, sleep=clock.sleep)
    starts = []
    for _ in range(10):
        await budget.acquire()
        starts.append(clock.now)
        budget.release()  # answered at once
    assert most_in_a_window(starts, 1.0) == 3
    assert budget.counted == 10


async def test_a_slot_is_free_a_window_after_its_answer() -> None:
    """Discord counts a request on arrival, somewhere between its sending and its answer:
    only a slot a whole window past the answer is surely out of Discord's window."""
    clock = Clock()
    budget = RequestBudget(2, clock=clock, sleep=clock.sleep)
    await budget.acquire()
    await budget.acquire()
    third = asyncio.create_task(budget.acquire())
    await asyncio.sleep(0)
    assert not third.done()  # both slots held: it waits for an answer
    clock.now = 0.5
    budget.release()  # the first answer, half a second on
    await third
    assert clock.now == 1.5


@pytest.mark.parametrize(("per_second", "slots", "window"), [(50 / 3, 16, 1.0), (0.5, 1, 2.0)])
def test_a_fractional_share_rounds_down(per_second: float, slots: int, window: float) -> None:
    budget = RequestBudget(per_second)
    assert (budget.slots, budget.window) == (slots, window)


def test_the_bot_puts_its_share_in_front_of_its_requests(tmp_path: Path) -> None:
    settings = Settings(
        discord_token="x",
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        bot_token_requests_per_second=7,
        _env_file=None,
    )
    bot = TrashTableBot(settings)
    assert bot.request_budget.slots == 7
    assert bot.http.http_trace is not None


# ---------------------------------------------------------------------------
# through discord.py, against the fake Discord
# ---------------------------------------------------------------------------


class Traced:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.budget = RequestBudget(50)
        self.client = discord.Client(
            intents=discord.Intents.none(),
            guild_ready_timeout=0.1,
            http_trace=request_trace(self.budget),
        )
        tree = app_commands.CommandTree(self.client)

        @tree.command(name="ping", description="Answer, follow up, and post to the channel")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")
            await interaction.followup.send("and again")
            channel = self.client.get_partial_messageable(interaction.channel_id or 0)
            await channel.send("a board")

        async def setup_hook() -> None:
            await tree.sync()

        self.client.setup_hook = setup_hook  # type: ignore[method-assign]


@pytest.fixture
async def traced(fake_discord: FakeDiscord) -> AsyncIterator[Traced]:
    traced = Traced(fake_discord)
    with discord_py_pointed_at(fake_discord):
        task = await start_bot(fake_discord, traced.client)
        try:
            yield traced
        finally:
            await stop_bot(traced.client, task)


def bot_token_requests(fake: FakeDiscord) -> int:
    """Requests of the bot's own, outside the interaction endpoints."""
    exempt = ("/api/v10/interactions/", "/api/v10/webhooks/")
    return sum(1 for r in fake.requests if not r.path.startswith(exempt))


async def test_every_bot_token_request_and_no_interaction_one_is_counted(
    fake_discord: FakeDiscord, traced: Traced
) -> None:
    """The seam: discord.py hands `http_trace` to the session every REST request goes
    through, and sends interaction callbacks and followups on it without the bot's token.
    If either changes, this fails."""
    logged_in = traced.budget.counted
    assert logged_in == bot_token_requests(fake_discord) > 0  # login, command sync
    result = await fake_discord.user("alice").slash("/ping")
    assert [m.text for m in result.messages] == ["pong", "and again", "a board"]
    assert traced.budget.counted == logged_in + 1 == bot_token_requests(fake_discord)


async def test_a_429_is_logged_once_with_its_scope_and_bucket(
    fake_discord: FakeDiscord, traced: Traced, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    for route in ("/messages", f"/webhooks/{fake.application_id}/"):
        fake.rate_limiter.limit_shared(
            lambda r, route=route: r.method == "POST" and route in r.path, retry_after=0.01
        )
    with caplog.at_level(logging.WARNING, logger="bot.ratelimits"):
        result = await fake.user("alice").slash("/ping")
    assert len(result.messages) == 3  # discord.py tried each again
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.ratelimits"]
    token = result.interaction.token
    assert lines == [
        f"429 on POST /api/v10/webhooks/{fake.application_id}/:token: scope shared, "
        f"bucket {bucket_hash('webhook')}, retry after 1 s",
        f"429 on POST /api/v10/channels/{fake.channel.id}/messages: scope shared, "
        f"bucket {bucket_hash('create_message')}, retry after 1 s",
    ]
    assert all(token not in line for line in lines)


async def test_two_processes_on_their_shares_keep_inside_the_tokens_limit() -> None:
    """Two clients of one token (as two shard processes), 25 a second each, flood a fake
    Discord whose only limit is the global one: no 429."""
    # Channels' own buckets wide open: the global limit is the one under test.
    limits = RateLimits(create_message=Limit(1000, 1.0))
    async with FakeDiscord(rate_limits=limits) as fake:
        clients = [
            discord.Client(intents=discord.Intents.none(), http_trace=request_trace(budget))
            for budget in (RequestBudget(25), RequestBudget(25))
        ]
        with discord_py_pointed_at(fake):
            for client in clients:
                await client.login(fake.token)
            try:
                await asyncio.gather(
                    *(
                        client.get_partial_messageable(fake.channel.id).send(f"{i}")
                        for client in clients
                        for i in range(60)
                    )
                )
            finally:
                for client in clients:
                    await client.close()
        assert len(fake.messages()) == 120
        assert fake.rate_limited == []
        fake.assert_clean()

"""Self-tests of the fake Discord's rate limits (tests/fakediscord/ratelimits.py).

Most requests here are sent raw, with aiohttp, to provoke what discord.py would avoid; the
last tests connect a real discord.py client and check that it keeps inside the limits."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import (
    FakeDiscord,
    Limit,
    RateLimits,
    discord_py_pointed_at,
    start_bot,
    stop_bot,
)
from tests.fakediscord.ratelimits import bucket_hash
from tests.fakediscord.state import RequestRecord


class Answer:
    def __init__(self, status: int, headers: Any, body: Any) -> None:
        self.status, self.headers, self.body = status, headers, body


async def send(
    fake: FakeDiscord,
    method: str,
    path: str,
    *,
    json: Any = None,
    client: str | None = None,
    token: str | None = "bot",
) -> Answer:
    """One request to the fake's API, as the bot (``token="bot"``), unauthenticated
    (None) or with another token."""
    base = fake.api_base_for(client) if client else fake.api_base
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bot {fake.token if token == 'bot' else token}"
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, base + path, json=json, headers=headers) as response,
    ):
        if response.content_type == "application/json":
            body = await response.json()
        else:
            body = await response.text()
        return Answer(response.status, response.headers, body)


def post(fake: FakeDiscord, channel_id: int, text: str, **options: Any) -> Any:
    return send(fake, "POST", f"/channels/{channel_id}/messages", json={"content": text}, **options)


# ---------------------------------------------------------------------------
# the fake alone
# ---------------------------------------------------------------------------


async def test_every_answer_announces_its_bucket(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    first = await post(fake, fake.channel.id, "one")
    second = await post(fake, fake.channel.id, "two")
    assert (first.status, second.status) == (200, 200)
    headers = second.headers
    assert headers["X-RateLimit-Limit"] == "5"
    assert [first.headers["X-RateLimit-Remaining"], headers["X-RateLimit-Remaining"]] == ["4", "3"]
    after = float(headers["X-RateLimit-Reset-After"])
    assert 0 < after <= 5
    assert float(headers["X-RateLimit-Reset"]) == pytest.approx(time.time() + after, abs=1)
    assert headers["X-RateLimit-Bucket"] == bucket_hash("create_message")
    assert "X-RateLimit-Scope" not in headers  # 429s only
    edited = await send(
        fake,
        "PATCH",
        f"/channels/{fake.channel.id}/messages/{second.body['id']}",
        json={"content": "2"},
    )
    assert edited.headers["X-RateLimit-Bucket"] == bucket_hash("edit_message")
    assert edited.headers["X-RateLimit-Remaining"] == "4"
    me = await send(fake, "GET", "/users/@me")
    assert me.headers["X-RateLimit-Bucket"] == bucket_hash("users")
    assert fake.rate_limited == [] and fake.invalid_requests == 0


async def test_the_sixth_post_in_five_seconds_is_refused_and_not_made(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    answers = [await post(fake, fake.channel.id, f"message {i}") for i in range(6)]
    assert [a.status for a in answers] == [200] * 5 + [429]
    refused = answers[-1]
    assert refused.body["message"] == "You are being rate limited."
    assert refused.body["global"] is False
    assert 0 < refused.body["retry_after"] <= 5
    assert float(refused.headers["Retry-After"]) >= refused.body["retry_after"]
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Bucket"] == bucket_hash("create_message")
    assert "Via" in refused.headers  # without it discord.py takes a 429 for a Cloudflare ban
    assert "X-RateLimit-Global" not in refused.headers
    assert [m.content for m in fake.messages()] == [f"message {i}" for i in range(5)]
    [hit] = fake.rate_limited
    assert (hit.scope, hit.bucket, hit.route) == (
        "user",
        "create_message",
        "POST /channels/{channel_id}/messages",
    )
    assert hit.retry_after == refused.body["retry_after"]
    # The bucket is the channel's: another channel still has all five.
    assert fake.channel2 is not None
    other = await post(fake, fake.channel2.id, "elsewhere")
    assert (other.status, other.headers["X-RateLimit-Remaining"]) == (200, "4")
    assert fake.invalid_requests == 1


async def test_invalid_requests_are_401_403_and_429_but_shared(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    assert (await send(fake, "GET", "/users/@me", token="not-the-token")).status == 401
    said = await fake.user("alice").say("mine", settle=False)
    path = f"/channels/{fake.channel.id}/messages/{said.id}"
    assert (await send(fake, "PATCH", path, json={"content": "x"})).status == 403
    assert len(fake.pop_violations("bad-request")) == 1  # editing another's message
    assert (await send(fake, "GET", f"/channels/{fake.channel.id}/messages/1")).status == 404
    for i in range(6):
        await post(fake, fake.channel.id, str(i))
    fake.rate_limiter.limit_shared(lambda r: r.method == "GET" and r.path.endswith("/@me"))
    shared = await send(fake, "GET", "/users/@me")
    assert shared.status == 429 and shared.headers["X-RateLimit-Scope"] == "shared"
    assert shared.body["message"] == "The resource is being rate limited."
    assert shared.headers["X-RateLimit-Remaining"] != "0"  # the bot's own bucket was not empty
    assert (await send(fake, "GET", "/users/@me")).status == 200  # once only
    assert [(h.scope, h.counted) for h in fake.rate_limited] == [
        ("user", True),
        ("shared", False),
    ]
    assert fake.invalid_requests == 3  # the 401, the 403 and the user-scope 429
    assert fake.rate_limiter.recent_invalid_requests() == 3


async def test_too_many_invalid_requests_get_the_address_banned() -> None:
    # Three instead of 10,000: the ban is the same at any threshold.
    async with FakeDiscord(rate_limits=RateLimits(invalid_ban=3)) as fake:
        for _ in range(3):
            assert (await send(fake, "GET", "/users/@me", token="wrong")).status == 401
        banned = await send(fake, "GET", "/users/@me")
        assert banned.status == 429 and "Via" not in banned.headers
        assert isinstance(banned.body, str)  # Cloudflare's page, not Discord's JSON
        assert [v.kind for v in fake.pop_violations()] == ["invalid-request-ban"]
        assert fake.rate_limited[-1].scope == "banned"


async def test_the_global_limit_is_one_budget_for_every_client_of_a_token() -> None:
    # A minute-long window, so that a slow machine cannot split the burst over two windows;
    # /users/@me's own bucket made wide enough to leave the global limit the only one.
    limits = RateLimits(global_limit=Limit(50, 60.0), users=Limit(1000, 60.0))
    async with FakeDiscord(rate_limits=limits) as fake:
        answers = await asyncio.gather(
            *(send(fake, "GET", "/users/@me", client=c) for c in ("a", "b") for _ in range(30))
        )
        assert sorted(a.status for a in answers) == [200] * 50 + [429] * 10
        refused = next(a for a in answers if a.status == 429)
        assert refused.body["global"] is True and refused.body["retry_after"] > 0
        assert refused.headers["X-RateLimit-Global"] == "true"
        assert refused.headers["X-RateLimit-Scope"] == "global"
        assert {h.bucket for h in fake.rate_limited} == {"global"}
        assert {h.client for h in fake.rate_limited} <= {"a", "b"}
        # Another token has its own budget (and is refused for being wrong, not for this).
        assert (await send(fake, "GET", "/users/@me", token="other")).status == 401


async def test_limits_can_be_turned_off() -> None:
    # The switch itself under test.
    async with FakeDiscord(rate_limits=False) as fake:
        answers = [await post(fake, fake.channel.id, str(i)) for i in range(8)]
        assert [a.status for a in answers] == [200] * 8
        assert "X-RateLimit-Limit" not in answers[0].headers
        assert fake.rate_limited == []


# ---------------------------------------------------------------------------
# with a discord.py client
# ---------------------------------------------------------------------------


def make_client(held: list[discord.Interaction]) -> discord.Client:
    client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)

    @tree.command(name="hold", description="Defer and leave the rest to the test")
    async def hold(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        held.append(interaction)

    @tree.command(name="burst", description="Seven followups at once")
    async def burst(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.gather(*(interaction.followup.send(f"followup {i}") for i in range(7)))

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


class Running:
    def __init__(self, fake: FakeDiscord, client: discord.Client) -> None:
        self.fake, self.client = fake, client
        self.held: list[discord.Interaction] = []


async def running(fake: FakeDiscord) -> AsyncIterator[Running]:
    held: list[discord.Interaction] = []
    client = make_client(held)
    with discord_py_pointed_at(fake):
        task = await start_bot(fake, client)
        try:
            run = Running(fake, client)
            run.held = held
            yield run
        finally:
            await stop_bot(client, task)


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[Running]:
    async for run in running(fake_discord):
        yield run


async def held_token(bot: Running) -> str:
    """Run /hold: a deferred interaction whose token the test then uses itself."""
    result = await bot.fake.user("alice").slash("/hold", settle=False)
    await bot.fake.wait_for(lambda: result.interaction.acknowledged, what="the deferral")
    return result.interaction.token


def webhook(fake: FakeDiscord, token: str, text: str) -> Any:
    path = f"/webhooks/{fake.application_id}/{token}"
    return send(fake, "POST", path + "?wait=1", json={"content": text}, token=None)


async def test_a_webhook_bucket_is_its_tokens(fake_discord: FakeDiscord, bot: Running) -> None:
    fake = fake_discord
    first, second = await held_token(bot), await held_token(bot)
    answers = [await webhook(fake, first, f"followup {i}") for i in range(6)]
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert answers[0].headers["X-RateLimit-Limit"] == "5"
    assert float(answers[0].headers["X-RateLimit-Reset-After"]) <= 2
    assert answers[-1].headers["X-RateLimit-Bucket"] == bucket_hash("webhook")
    [hit] = fake.rate_limited
    assert (hit.scope, hit.bucket) == ("user", "webhook")
    other = await webhook(fake, second, "the other token")
    assert (other.status, other.headers["X-RateLimit-Remaining"]) == (200, "4")


async def test_interaction_endpoints_are_outside_the_global_limit() -> None:
    # The global budgets spent for ten minutes, the bot token's and the address's (requests
    # without a token, as discord.py sends interaction callbacks and followups); then an
    # interaction is answered and followed up all the same.
    limits = RateLimits(global_limit=Limit(50, 600.0), users=Limit(1000, 600.0))
    async with FakeDiscord(rate_limits=limits) as fake:
        async for run in running(fake):
            for token in ("bot", None):
                while (await send(fake, "GET", "/users/@me", token=token)).status != 429:
                    pass
            token = await held_token(run)  # discord.py's callback: not refused
            assert (await webhook(fake, token, "done")).status == 200
            assert [(h.route, h.bucket) for h in fake.rate_limited] == [
                ("GET /users/@me", "global")
            ] * 2
            assert (await send(fake, "GET", "/users/@me")).status == 429
        fake.assert_clean()


async def test_discord_py_paces_bot_requests_on_the_headers() -> None:
    # Windows of one second instead of five: the same pacing, in a shorter test.
    limits = RateLimits(create_message=Limit(5, 1.0))
    async with FakeDiscord(rate_limits=limits) as fake:
        async for run in running(fake):
            channel = run.client.get_partial_messageable(fake.channel.id)
            await asyncio.gather(*(channel.send(f"message {i}") for i in range(12)))
            await fake.settle()
        posts = [r for r in fake.requests if is_post(r)]
        assert len(posts) == 12 and len(fake.messages()) == 12
        assert fake.rate_limited == [], [str(h) for h in fake.rate_limited]
        fake.assert_clean()


async def test_discord_py_paces_followups_on_the_headers(
    fake_discord: FakeDiscord, bot: Running
) -> None:
    """discord.py's webhook adapter (followups, @original) runs one request at a time per
    token and, told Remaining 0, waits out Reset-After before the next."""
    result = await fake_discord.user("alice").slash("/burst")
    texts = sorted(m.text for m in result.messages)
    assert texts == [f"followup {i}" for i in range(7)]  # the first fills the deferral
    assert fake_discord.rate_limited == []


def is_post(record: RequestRecord) -> bool:
    return record.method == "POST" and record.path.endswith("/messages")

"""This process's share of Discord's global rate limit, and a log line for every 429.

Discord lets a bot token make 50 requests a second, all its processes together, besides
each route's own limit. discord.py paces every route by the headers Discord answers with,
but meets the global limit only after the fact (a 429, then a pause for every request),
and the processes of one bot (shards) cannot see each other's requests. So each process
keeps under its share, `BOT_TOKEN_REQUESTS_PER_SECOND`, before a request leaves.

The seam is aiohttp's request tracing, which discord.py takes as `Client(http_trace=...)`
and gives the session every REST request goes through: `on_request_start` is awaited
before the request is sent, after discord.py's own per-route waiting. Only requests that
carry the bot's token are counted: discord.py's webhook adapter sends interaction callbacks
and followups on the same session without it, and Discord exempts those from the global
limit. tests/bot/test_ratelimits.py fails if discord.py stops passing the trace on.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace

import aiohttp
from yarl import URL

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50  # requests a second per bot token
# Interaction callbacks and the interaction token's webhook: outside the global limit.
INTERACTION_PATH = re.compile(r"/(interactions/\d+|webhooks/\d+)/([^/?]+)")


class RequestBudget:
    """At most `slots` requests within any `window` seconds, as Discord counts them.

    A request holds a slot from when it is sent until `window` seconds after its answer
    came. Discord counts a request when it arrives, which is after it was sent and before
    it was answered, so however long each takes on the way, two arrivals on one slot are a
    window apart and Discord sees at most `slots` in any window."""

    def __init__(
        self,
        per_second: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if per_second <= 0:
            raise ValueError("per_second must be above 0")
        self.per_second = per_second
        self.slots = max(1, math.floor(per_second))
        self.window = 1.0 if per_second >= 1 else 1.0 / per_second
        self._clock, self._sleep = clock, sleep
        self._free = [-math.inf] * self.slots  # a heap: when each free slot may be used
        self._turn = asyncio.Lock()  # first come, first served
        self._released = asyncio.Event()
        self.counted = 0
        """Requests let through (the bot token's)."""

    async def acquire(self) -> None:
        async with self._turn:
            while True:
                if self._free:
                    wait = self._free[0] - self._clock()
                    if wait <= 0:
                        heapq.heappop(self._free)
                        self.counted += 1
                        return
                    # A slot freed meanwhile is free later than this one: sleep is enough.
                    await self._sleep(wait)
                else:
                    self._released.clear()
                    await self._released.wait()

    def release(self) -> None:
        heapq.heappush(self._free, self._clock() + self.window)
        self._released.set()


def bot_token_request(headers: Mapping[str, str], url: URL) -> bool:
    """Whether a request counts against the bot token's global limit."""
    auth = headers.get("Authorization", "")
    return auth.startswith("Bot ") and not INTERACTION_PATH.search(url.path)


def route_of(method: str, url: URL) -> str:
    """`POST /api/v10/webhooks/1/:token`: the request without its query or token (an
    interaction's token answers for it for 15 minutes)."""
    return method + " " + INTERACTION_PATH.sub(r"/\1/:token", url.path)


def request_trace(
    budget: RequestBudget, limited: Callable[[str | None], None] | None = None
) -> aiohttp.TraceConfig:
    """The trace for `Client(http_trace=...)`: the budget in front of every bot-token
    request, and one WARNING line for every 429, with its scope and bucket (`limited` is
    told the scope: the metrics count it)."""
    trace = aiohttp.TraceConfig()

    async def started(
        _session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if bot_token_request(params.headers, params.url):
            await budget.acquire()
            context.budgeted = True

    async def ended(
        _session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        done(context)
        response = params.response
        if response.status == 429:
            headers = response.headers
            if limited is not None:
                limited(headers.get("X-RateLimit-Scope"))
            log.warning(
                "429 on %s: scope %s, bucket %s, retry after %s s",
                route_of(params.method, params.url),
                headers.get("X-RateLimit-Scope") or "none (Cloudflare's ban?)",
                headers.get("X-RateLimit-Bucket") or "-",
                headers.get("Retry-After", "?"),
            )

    async def failed(
        _session: aiohttp.ClientSession,
        context: SimpleNamespace,
        _params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        done(context)

    def done(context: SimpleNamespace) -> None:
        if getattr(context, "budgeted", False):
            context.budgeted = False
            budget.release()

    trace.on_request_start.append(started)
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace

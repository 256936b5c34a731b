"""Discord's rate limits, as the fake enforces them (README: "Rate limits").

Every request to the API passes :meth:`RateLimiter.admit` in the server's middleware before
it is handled, and :meth:`Ticket.answered` once its answer is known:

* a per-route bucket (:data:`ROUTES`), counted per bot token and per top-level resource
  (channel, guild, webhook token), announced on every answer in the ``X-RateLimit-*``
  headers; past it a 429 with scope ``user``, and the request is not performed;
* the global limit of a bot token (50 a second, every client using the token together);
  interaction callbacks and ``/webhooks/{app}/{token}`` routes are exempt;
* invalid requests (401, 403, and 429 unless its scope is ``shared``) counted over a
  10-minute window; at 10,000 the address is "banned" as Cloudflare does.

Windows run on real time (``time.monotonic``), not the fake clock: discord.py waits on the
headers with ``asyncio.sleep``. A window opens at the first request that finds its bucket
empty and closes ``seconds`` later (a fixed window, the strictest a client must expect).
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import math
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web

from .clock import monotonic

if TYPE_CHECKING:
    from .state import RequestRecord


@dataclasses.dataclass(frozen=True)
class Limit:
    """``requests`` per ``seconds``."""

    requests: int
    seconds: float


@dataclasses.dataclass(frozen=True)
class RateLimits:
    """The figures the fake enforces; ``FakeDiscord(rate_limits=RateLimits(...))`` changes
    them, e.g. ``RateLimits(create_message=Limit(5, 1.0))``. Bucket fields are named in
    :data:`ROUTES`."""

    global_limit: Limit = Limit(50, 1.0)
    """Every request of a bot token but the interaction endpoints."""
    create_message: Limit = Limit(5, 5.0)
    edit_message: Limit = Limit(5, 5.0)
    delete_message: Limit = Limit(5, 1.0)
    bulk_delete: Limit = Limit(1, 1.0)
    read_messages: Limit = Limit(5, 1.0)
    get_channel: Limit = Limit(5, 1.0)
    typing: Limit = Limit(5, 5.0)
    reactions: Limit = Limit(1, 0.25)
    threads: Limit = Limit(5, 5.0)
    guild: Limit = Limit(5, 1.0)
    members: Limit = Limit(10, 10.0)
    commands: Limit = Limit(5, 5.0)
    users: Limit = Limit(5, 1.0)
    gateway: Limit = Limit(5, 5.0)
    interaction_callback: Limit = Limit(5, 2.0)
    webhook: Limit = Limit(5, 2.0)
    invalid_ban: int = 10_000
    """Invalid requests within ``invalid_window`` seconds that get the address banned."""
    invalid_window: float = 600.0


# (method, route under /api/v10) -> (RateLimits field, the route's top-level resource).
# The resource names a path parameter; "token" is the webhook or interaction id + token.
ROUTES: dict[tuple[str, str], tuple[str, str | None]] = {
    ("POST", "/channels/{channel_id}/messages"): ("create_message", "channel_id"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): ("edit_message", "channel_id"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): ("delete_message", "channel_id"),
    ("POST", "/channels/{channel_id}/messages/bulk-delete"): ("bulk_delete", "channel_id"),
    ("GET", "/channels/{channel_id}/messages"): ("read_messages", "channel_id"),
    ("GET", "/channels/{channel_id}/messages/{message_id}"): ("read_messages", "channel_id"),
    ("GET", "/channels/{channel_id}"): ("get_channel", "channel_id"),
    ("POST", "/channels/{channel_id}/typing"): ("typing", "channel_id"),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): (
        "reactions",
        "channel_id",
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): (
        "reactions",
        "channel_id",
    ),
    ("POST", "/channels/{channel_id}/threads"): ("threads", "channel_id"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): ("threads", "channel_id"),
    ("GET", "/guilds/{guild_id}"): ("guild", "guild_id"),
    ("GET", "/guilds/{guild_id}/channels"): ("guild", "guild_id"),
    ("GET", "/guilds/{guild_id}/roles"): ("guild", "guild_id"),
    ("GET", "/guilds/{guild_id}/members/{user_id}"): ("guild", "guild_id"),
    ("GET", "/guilds/{guild_id}/members"): ("members", "guild_id"),
    ("GET", "/users/@me"): ("users", None),
    ("GET", "/users/{user_id}"): ("users", None),
    ("GET", "/oauth2/applications/@me"): ("users", None),
    ("GET", "/applications/@me"): ("users", None),
    ("GET", "/gateway"): ("gateway", None),
    ("GET", "/gateway/bot"): ("gateway", None),
    ("POST", "/interactions/{interaction_id}/{token}/callback"): ("interaction_callback", "token"),
    ("POST", "/webhooks/{app_id}/{token}"): ("webhook", "token"),
    ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}"): ("webhook", "token"),
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"): ("webhook", "token"),
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}"): ("webhook", "token"),
}
for _method in ("GET", "PUT", "POST"):
    ROUTES[(_method, "/applications/{app_id}/commands")] = ("commands", "app_id")
    ROUTES[(_method, "/applications/{app_id}/guilds/{guild_id}/commands")] = (
        "commands",
        "guild_id",
    )
for _method in ("GET", "PATCH", "DELETE"):
    ROUTES[(_method, "/applications/{app_id}/commands/{command_id}")] = ("commands", "app_id")
    ROUTES[(_method, "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")] = (
        "commands",
        "guild_id",
    )
ROUTES[("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions")] = (
    "commands",
    "guild_id",
)

API_PREFIX = re.compile(r"^(/as/\{client\})?/api/v\{version\}")
EXEMPT_FROM_GLOBAL = ("/interactions/", "/webhooks/")  # Discord's "interaction endpoints"
RATE_LIMITED = "You are being rate limited."
SHARED_LIMITED = "The resource is being rate limited."
VIA = "1.1 google"  # discord.py takes a 429 without Via for a Cloudflare ban


def bucket_hash(name: str) -> str:
    """The opaque ``X-RateLimit-Bucket`` of a bucket (the same for every resource)."""
    return hashlib.sha1(name.encode()).hexdigest()[:32]


def seconds_up(value: float) -> float:
    """Rounded up to the millisecond, so a client waiting this long is never early."""
    return max(0.0, math.ceil(value * 1000) / 1000)


@dataclasses.dataclass
class RateLimitHit:
    """One 429 the fake answered."""

    method: str
    path: str
    route: str
    """``POST /channels/{channel_id}/messages``; the request's own route."""
    bucket: str
    """A :class:`RateLimits` field, ``global``, ``shared`` or ``banned``."""
    scope: str
    """``X-RateLimit-Scope``: ``user``, ``global`` or ``shared`` (``banned``: none sent)."""
    retry_after: float
    client: str | None = None
    at: float = dataclasses.field(default_factory=monotonic)

    @property
    def counted(self) -> bool:
        """Whether Discord counts it as an invalid request (every scope but ``shared``)."""
        return self.scope != "shared"

    def __str__(self) -> str:
        return f"429 {self.scope} {self.bucket}: {self.method} {self.path} ({self.retry_after}s)"


@dataclasses.dataclass
class _Window:
    limit: int
    seconds: float
    used: int = 0
    resets: float = 0.0  # monotonic time the window closes

    def left(self, now: float) -> int:
        return self.limit if now >= self.resets else self.limit - self.used

    def take(self, now: float) -> bool:
        if now >= self.resets:
            self.used, self.resets = 0, now + self.seconds
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


@dataclasses.dataclass
class _Shared:
    predicate: Callable[[RequestRecord], bool]
    retry_after: float
    times: int


class Ticket:
    """One request's passage: the 429 that replaces its handling, if any, and the headers
    its answer gets."""

    def __init__(self, limiter: RateLimiter, route: str) -> None:
        self.limiter, self.route = limiter, route
        self.refusal: web.Response | None = None
        self.window: _Window | None = None
        self.bucket = ""
        self.remaining = 0

    def answered(self, response: web.StreamResponse) -> None:
        """Add the bucket's headers and count the answer if it is an invalid request."""
        if self.window is not None and self.refusal is None:
            response.headers.update(self.limiter.bucket_headers(self))
        self.limiter.count_answer(response, self)


class RateLimiter:
    """The fake's rate limits; ``limits`` None turns them off (invalid requests are still
    counted)."""

    def __init__(self, limits: RateLimits | None, violate: Callable[[str, str], object]) -> None:
        self.limits = limits
        self._violate = violate
        self._windows: dict[tuple[str, ...], _Window] = {}
        self._shared: list[_Shared] = []
        self._invalid_times: collections.deque[float] = collections.deque()
        self._banned = False
        self._quiet_until = 0.0
        self.hits: list[RateLimitHit] = []
        """Every 429 answered, in order."""
        self.invalid_requests = 0
        """Invalid requests (401, 403, 429 but ``shared``) since the start."""

    # ------------------------------------------------------------------ test API
    def recent_invalid_requests(self) -> int:
        """Invalid requests within the last ``invalid_window`` (10 minutes)."""
        self._forget_old(monotonic())
        return len(self._invalid_times)

    def limit_shared(
        self,
        predicate: Callable[[RequestRecord], bool],
        *,
        retry_after: float = 0.5,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests ``predicate`` accepts with a 429 of scope
        ``shared`` (a resource limit the bot could not foresee; not an invalid request)."""
        self._shared.append(_Shared(predicate, retry_after, times))

    def waiting(self) -> bool:
        """Whether a client may be waiting on a bucket it was told is empty (or on a
        429's retry_after): sleeping, it sends nothing, yet is not done."""
        return monotonic() < self._quiet_until

    # ------------------------------------------------------------------ the middleware's
    def admit(self, request: web.Request, record: RequestRecord) -> Ticket:
        resource = request.match_info.route.resource
        template = API_PREFIX.sub("", resource.canonical) if resource is not None else ""
        ticket = Ticket(self, f"{request.method} {template}")
        if self.limits is None or not request.path.startswith(("/api/", "/as/")):
            return ticket  # off, or not the API (the CDN's attachments)
        now = monotonic()
        self._forget_old(now)
        auth = request.headers.get("Authorization") or f"address {request.remote}"
        known = ROUTES.get((request.method, template))
        if known is not None:
            name, major = known
            # Per-route limits are the bot's own; a webhook's are its token's, whoever calls.
            if major == "token":
                owner = request.match_info.get("interaction_id") or request.match_info["app_id"]
                key = ("route", name, owner, request.match_info["token"])
            else:
                key = ("route", name, auth, request.match_info.get(major or "", ""))
            ticket.window = self._window(key, getattr(self.limits, name))
            ticket.bucket = name
            ticket.remaining = ticket.window.left(now)
        if self._banned:
            ticket.refusal = self._refuse(ticket, record, "banned", "banned", 60.0)
            return ticket
        for shared in self._shared:
            if shared.times > 0 and shared.predicate(record):
                shared.times -= 1
                retry = shared.retry_after
                ticket.refusal = self._refuse(ticket, record, "shared", "shared", retry)
                return ticket
        if not template.startswith(EXEMPT_FROM_GLOBAL):
            every = self._window(("global", auth), self.limits.global_limit)
            if not every.take(now):
                retry = seconds_up(every.resets - now)
                ticket.refusal = self._refuse(ticket, record, "global", "global", retry)
                return ticket
        window = ticket.window
        if window is None:
            return ticket
        if not window.take(now):
            retry = seconds_up(window.resets - now)
            ticket.refusal = self._refuse(ticket, record, ticket.bucket, "user", retry)
            return ticket
        ticket.remaining = window.left(now)
        if ticket.remaining == 0:
            self._quiet_until = max(self._quiet_until, window.resets)
        return ticket

    def bucket_headers(self, ticket: Ticket) -> dict[str, str]:
        window = ticket.window
        assert window is not None
        after = seconds_up(window.resets - monotonic())
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(ticket.remaining),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(ticket.bucket),
        }

    def count_answer(self, response: web.StreamResponse, ticket: Ticket) -> None:
        if response.status in (401, 403) or (
            response.status == 429 and response.headers.get("X-RateLimit-Scope") != "shared"
        ):
            now = monotonic()
            self.invalid_requests += 1
            self._invalid_times.append(now)
            limits = self.limits
            if limits and not self._banned and len(self._invalid_times) >= limits.invalid_ban:
                self._banned = True
                self._violate(
                    "invalid-request-ban",
                    f"{len(self._invalid_times)} invalid requests (401, 403, 429) within "
                    f"{limits.invalid_window:g} s: Discord bans the address "
                    f"(the last: {ticket.route} -> {response.status})",
                )

    # ------------------------------------------------------------------ inside
    def _window(self, key: tuple[str, ...], limit: Limit) -> _Window:
        window = self._windows.get(key)
        if window is None:
            if len(self._windows) > 10_000:  # one per interaction token: forget closed ones
                now = monotonic()
                self._windows = {k: w for k, w in self._windows.items() if w.resets > now}
            window = self._windows[key] = _Window(limit.requests, limit.seconds)
        return window

    def _forget_old(self, now: float) -> None:
        window = self.limits.invalid_window if self.limits else 600.0
        while self._invalid_times and self._invalid_times[0] <= now - window:
            self._invalid_times.popleft()
        if self._banned and self.limits and len(self._invalid_times) < self.limits.invalid_ban:
            self._banned = False

    def _refuse(
        self, ticket: Ticket, record: RequestRecord, bucket: str, scope: str, retry: float
    ) -> web.Response:
        hit = RateLimitHit(record.method, record.path, ticket.route, bucket, scope, retry)
        hit.client = record.client
        self.hits.append(hit)
        self._quiet_until = max(self._quiet_until, monotonic() + retry)
        headers = {"Retry-After": str(math.ceil(retry))}
        if scope == "banned":  # Cloudflare's page: no JSON, no Via
            headers["Content-Type"] = "text/html"
            return web.Response(status=429, text="error code: 1015", headers=headers)
        headers.update({"Content-Type": "application/json", "Via": VIA, "X-RateLimit-Scope": scope})
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        elif ticket.window is not None:
            headers.update(self.bucket_headers(ticket))
        body = {
            "message": SHARED_LIMITED if scope == "shared" else RATE_LIMITED,
            "retry_after": retry,
            "global": scope == "global",
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

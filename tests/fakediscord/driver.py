"""The test-facing API: :class:`FakeDiscord` (server + rules) and :class:`FakeUser` (a person).

``FakeDiscord`` starts the aiohttp server (REST + gateway) on 127.0.0.1, owns the
clock, the guild and the recordings, enforces the interaction timing rules and knows
when the bot has gone quiet (:meth:`FakeDiscord.settle`). ``FakeUser`` types slash
commands, clicks buttons, picks select options, fills modals and reads the messages
it can see; each action returns an :class:`InteractionResult`.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import datetime as dt
import inspect
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import permissions
from .clock import FakeClock, monotonic
from .gateway import PRIVILEGED_INTENTS, Gateway
from .guilds import FakeGuild
from .interactions import (
    ModalView,
    build_command_data,
    button_data,
    forged_component_data,
    forged_message_payload,
    interaction_payload,
    message_components_summary,
    modal_submit_data,
    select_data,
)
from .ratelimits import RateLimiter, RateLimitHit, RateLimits
from .server import CALLBACK_NAMES, DEFERRED_MESSAGE, MESSAGE, RestApi
from .state import (
    BUTTON,
    SELECT_TYPES,
    Channel,
    Component,
    Event,
    FakeDiscordError,
    FakeMessage,
    FakeState,
    Guild,
    InteractionRecord,
    Member,
    RequestRecord,
    Role,
    User,
    Violation,
)

log = logging.getLogger("fakediscord")

INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5


class SettleTimeout(AssertionError):
    """The bot did not go quiet in time (an interaction unanswered / deferral never completed)."""


@dataclasses.dataclass
class RequestHook:
    """A one-shot action at a chosen request (see ``FakeDiscord.on_request``)."""

    predicate: Callable[[RequestRecord], bool]
    action: Callable[[], Any]
    after: bool
    drop: bool = False
    fired: bool = False
    record: RequestRecord | None = None  # the request it fired at


class FakeDiscord:
    """A fake Discord (REST API v10 + gateway) with one guild (more with ``add_guild``),
    for end-to-end tests.

    Use as ``async with FakeDiscord() as fake:``; point discord.py at
    ``fake.api_base`` / ``fake.gateway_url`` and log in with ``fake.token``.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Trash Table Test Server",
        bot_name: str = "TrashTable",
        channels: tuple[str, ...] = ("general", "games"),
        thread: str | None = "side-quest",
        interaction_timeout: float = 3.0,
        token_lifetime: dt.timedelta = dt.timedelta(minutes=15),
        settle_quiet: float = 0.15,
        settle_timeout: float = 15.0,
        allowed_intents: int = PRIVILEGED_INTENTS,
        host: str = "127.0.0.1",
        port: int = 0,
        recommended_shards: int = 1,
        rate_limits: bool | RateLimits = True,
    ) -> None:
        self.clock = FakeClock()
        self.recommended_shards = recommended_shards  # GET /gateway/bot's "shards"
        self.state = FakeState(self.clock, guild_name=guild_name, bot_name=bot_name)
        self.interaction_timeout = interaction_timeout
        self.token_lifetime = token_lifetime
        self.settle_quiet = settle_quiet
        self.settle_timeout = settle_timeout
        self.host, self._port = host, port
        bot_id = base64.b64encode(str(self.state.bot_user.id).encode()).decode().rstrip("=")
        self.token = f"{bot_id}.FAKE.{secrets.token_urlsafe(27)}"

        home = FakeGuild(self, self.state.guild, channels=channels, thread=thread)
        self.guilds: list[FakeGuild] = [home]
        """Every guild, the default one (``guild``, ``channel``...) first."""
        self.channels: dict[str, Channel] = home.channels
        self.channel: Channel = home.channel
        self.channel2: Channel | None = home.channel2
        self.thread: Channel | None = home.thread

        self.gateway = Gateway(
            self.state,
            token=self.token,
            url="",
            allowed_intents=allowed_intents,
            on_activity=self._touch,
        )
        self.api = RestApi(self.state, self.gateway, self)
        self._runner: web.AppRunner | None = None
        self._active_requests = 0
        self._last_activity = monotonic()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._open_modals: dict[int, ModalView] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._hooks: list[RequestHook] = []
        self._busy_probes: list[Callable[[], bool]] = []
        limits = RateLimits() if rate_limits is True else rate_limits or None
        self.rate_limiter = RateLimiter(limits, self.state.violate)
        # A client sleeping on a bucket it was told is empty sends nothing, yet is not done.
        self._busy_probes.append(self.rate_limiter.waiting)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        app = self.api.build_app()
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        self.gateway.url = self.gateway_url
        log.info("fake discord listening on %s", self.http_base)
        return self

    async def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ addresses
    @property
    def port(self) -> int:
        return self._port

    @property
    def http_base(self) -> str:
        return f"http://{self.host}:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.http_base}/api/v10"

    def api_base_for(self, client: str) -> str:
        """The API under a base of this client's own: its requests are recorded with
        ``RequestRecord.client == client`` (to tell several bot processes apart)."""
        return f"{self.http_base}/as/{client}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (as a yarl.URL)."""
        return f"ws://{self.host}:{self._port}/gateway"

    # ------------------------------------------------------------------ world
    @property
    def guild(self) -> Guild:
        return self.state.guild

    @property
    def bot_user(self) -> User:
        return self.state.bot_user

    @property
    def application_id(self) -> int:
        return self.state.application_id

    def user(
        self,
        name: str,
        *,
        manage_channels: bool = False,
        admin: bool = False,
        permissions: int = 0,
        roles: tuple[str, ...] = (),
    ) -> FakeUser:
        """A member of the default guild (created on first call, same object afterwards);
        see ``FakeGuild.user``."""
        return self.guilds[0].user(
            name, manage_channels=manage_channels, admin=admin, permissions=permissions, roles=roles
        )

    def add_guild(
        self,
        name: str,
        *,
        channels: tuple[str, ...] = ("general", "games"),
        thread: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Another guild with its own channels and members. Its id puts it on shard
        ``shard=(shard_id, shard_count)``; by default the guilds alternate between the two
        shards of a count of 2, so a second guild is on the other shard than the first."""
        if shard is None:
            shard = ((self.guilds[0].shard(2) + len(self.guilds)) % 2, 2)
        guild = FakeGuild(
            self, self.state.add_guild(name, shard=shard), channels=channels, thread=thread
        )
        self.guilds.append(guild)
        if self.gateway.connected_to(guild.id):
            # Discord tells a connected bot about a guild it joins.
            self._keep(
                asyncio.get_running_loop().create_task(self.gateway.guild_create(guild.guild))
            )
        return guild

    def _new_user(self, member: Member, guild: FakeGuild) -> FakeUser:
        return FakeUser(self, member, guild)

    def _keep(self, task: asyncio.Task[None]) -> None:
        """Hold a background task until it ends (``stop`` waits for the rest)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def users(self) -> list[FakeUser]:
        """The members the test made, in every guild."""
        return [user for guild in self.guilds for user in guild.users]

    def channel_named(self, name: str) -> Channel:
        """A channel of the default guild."""
        return self.guilds[0].channel_named(name)

    def messages(
        self, channel: Channel | None = None, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """All messages of a channel (default ``fake.channel``), ephemeral ones included."""
        msgs = self.state.channel_messages(channel or self.channel)
        return [m for m in msgs if include_deleted or not m.deleted]

    def transcript(self, channel: Channel | None = None) -> str:
        """Readable dump of a channel (who wrote what, who could see it): for debugging."""
        lines = []
        for msg in self.messages(channel, include_deleted=True):
            who = msg.author.name
            seen = ""
            if msg.ephemeral_to is not None:
                seen = f" (only {self.state.users[msg.ephemeral_to].name})"
            flags = " [deleted]" if msg.deleted else " [thinking...]" if msg.loading else ""
            comps = " ".join(
                f"[{c.label or c.emoji}{' (disabled)' if c.disabled else ''}]"
                if c.type == BUTTON
                else f"[{c.placeholder or c.custom_id} v]"
                for c in msg.all_components
                if c.type == BUTTON or c.type in SELECT_TYPES
            )
            files = " ".join(f"<{a.filename}>" for a in msg.attachments)
            body = " ".join(p for p in (msg.text.replace("\n", " / "), comps, files) if p)
            lines.append(f"{who}{seen}{flags}: {body}")
        return "\n".join(lines)

    def message(self, message_id: int) -> FakeMessage:
        return self.state.messages[message_id]

    def commands(self, *, guild: bool | None = None) -> list[dict[str, Any]]:
        """Synced commands: global, the default guild's, or both (``guild=None``)."""
        out: list[dict[str, Any]] = []
        if guild in (None, False):
            out += self.state.global_commands.values()
        if guild in (None, True):
            out += self.state.guild_commands.get(self.state.guild.id, {}).values()
        return out

    # ------------------------------------------------------------------ permissions
    async def set_overwrite(
        self,
        channel: Channel,
        target: Role | User | FakeUser | Guild,
        *,
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
        inherit: Iterable[str] = (),
        announce: bool = True,
    ) -> None:
        """Allow and deny permissions (discord.py's names: ``"attach_files"``) in `channel`
        to a role, a member, or @everyone (the guild), as an admin does in the channel's
        settings, on top of what that overwrite held; `inherit` neither allows nor denies
        them any more. A thread has no overwrites: the
        change goes to its parent, whose overwrites it takes. The bot hears of it by
        CHANNEL_UPDATE, as from Discord; ``announce=False`` changes it silently (a change
        the bot's cache does not follow)."""
        guild = self.state.guild_of(channel)
        if channel.is_thread and channel.parent_id is not None:
            channel = guild.channels[channel.parent_id]
        kind = permissions.ROLE if isinstance(target, (Role, Guild)) else permissions.MEMBER
        overwrite = permissions.changed(
            channel.overwrites.get(target.id),
            target.id,
            kind,
            allow=permissions.bits(allow),
            deny=permissions.bits(deny),
            inherit=permissions.bits(inherit),
        )
        if overwrite is None:
            channel.overwrites.pop(target.id, None)
        else:
            channel.overwrites[target.id] = overwrite
        if announce:
            await self.gateway.dispatch("CHANNEL_UPDATE", channel.payload())

    async def deny_bot(
        self, channel: Channel, *names: str, member: bool = False, announce: bool = True
    ) -> None:
        """Deny the bot permissions in `channel` (a thread: its parent) through its managed
        role's overwrite, or its member's own with ``member=True``; see `set_overwrite`."""
        await self.set_overwrite(
            channel, self._bot_target(channel, member), deny=names, announce=announce
        )

    async def allow_bot(
        self, channel: Channel, *names: str, member: bool = False, announce: bool = True
    ) -> None:
        """Allow the bot permissions in `channel`: the converse of `deny_bot`."""
        await self.set_overwrite(
            channel, self._bot_target(channel, member), allow=names, announce=announce
        )

    def _bot_target(self, channel: Channel, member: bool) -> Role | User:
        return self.bot_user if member else self.state.bot_roles[channel.guild_id]

    def permissions_in(self, channel: Channel, who: User | FakeUser | None = None) -> int:
        """What `who` (by default the bot) may do in `channel`, as Discord computes it."""
        user_id = self.bot_user.id if who is None else who.id
        return permissions.in_channel(self.state.guild_of(channel), channel, user_id)

    # ------------------------------------------------------------------ recordings
    @property
    def requests(self) -> list[RequestRecord]:
        """Raw log of every HTTP request the bot made."""
        return self.state.requests

    @property
    def unexpected_requests(self) -> list[RequestRecord]:
        """Requests the fake does not implement (404), minus those a test popped."""
        return [r for r in self.state.requests if r.unexpected and not r.acknowledged]

    @property
    def violations(self) -> list[Violation]:
        return self.state.violations

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.state.interactions.values())

    @property
    def rate_limited(self) -> list[RateLimitHit]:
        """Every 429 the fake answered (``scope``, ``bucket``, ``route``, ``retry_after``)."""
        return self.rate_limiter.hits

    @property
    def invalid_requests(self) -> int:
        """Answers Discord counts against the address: 401, 403, and 429 but ``shared``;
        ``rate_limiter.recent_invalid_requests()`` counts the last 10 minutes only."""
        return self.rate_limiter.invalid_requests

    def pop_unexpected_requests(self) -> list[RequestRecord]:
        """Take unexpected requests a test provoked on purpose (they stay in the raw log)."""
        taken = self.unexpected_requests
        for record in taken:
            record.acknowledged = True
        return taken

    def pop_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return violations (of one kind) a test provoked on purpose."""
        taken = [v for v in self.state.violations if kind is None or v.kind == kind]
        self.state.violations[:] = [v for v in self.state.violations if v not in taken]
        return taken

    def problems(self) -> list[str]:
        """What should fail a test: violations, unexpected requests, stuck interactions."""
        out = [str(v) for v in self.state.violations]
        out += [f"[unexpected-request] {r.method} {r.path}" for r in self.unexpected_requests]
        for rec, why in self._pending():
            out.append(f"[unfinished-interaction] {rec.description}: {why}")
        return out

    def assert_clean(self) -> None:
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # ------------------------------------------------------------------ waiting
    def _touch(self) -> None:
        self._last_activity = monotonic()

    def on_request(
        self,
        predicate: Callable[[RequestRecord], bool],
        action: Callable[[], Any],
        *,
        after: bool = False,
        drop: bool = False,
    ) -> RequestHook:
        """Run ``action()`` (a function or coroutine function) once, at the first request
        from the bot that ``predicate`` accepts: before the fake handles it, or with
        ``after=True`` once it has (a message created, say) but before the answer goes
        back. For tests that must act at an exact point, such as killing the bot there.
        ``predicate`` sees the ``RequestRecord`` (method, path, query, json). With
        ``drop=True`` (before only) the request is then not handled at all, as if the bot
        had died before sending it; it is answered 503 and its record keeps status 0."""
        hook = RequestHook(predicate, action, after, drop and not after)
        self._hooks.append(hook)
        return hook

    async def _run_hooks(self, record: RequestRecord, *, after: bool) -> bool:
        """Run the hooks due at this request; True when one of them drops it."""
        dropped = False
        for hook in list(self._hooks):
            if hook.after == after and hook.predicate(record):
                self._hooks.remove(hook)
                hook.fired, hook.record = True, record
                result = hook.action()
                if inspect.isawaitable(result):
                    await result
                dropped = dropped or hook.drop
        return dropped

    def _request_started(self) -> None:
        self._active_requests += 1
        self._touch()

    def _request_finished(self) -> None:
        self._active_requests -= 1
        self._touch()

    def _pending(self) -> list[tuple[InteractionRecord, str]]:
        out = []
        for rec in self.state.interactions.values():
            if rec.failed:
                continue
            if rec.callback_type is None:
                out.append((rec, "no response yet"))
            elif rec.callback_type == DEFERRED_MESSAGE:
                msg = self.state.messages.get(rec.response_message_id or 0)
                if msg is not None and msg.loading and not msg.deleted:
                    out.append((rec, "deferred ('is thinking...') but never completed"))
        return out

    def watch_busy(self, probe: Callable[[], bool]) -> Callable[[], None]:
        """Let ``settle`` also wait while ``probe()`` is true: an in-process bot says it
        still has work in flight (a deferred press whose answer depends on a slow database),
        which no request shows yet. Returns a function that stops watching."""
        self._busy_probes.append(probe)
        return lambda: self._busy_probes.remove(probe)

    async def settle(self, *, quiet: float | None = None, timeout: float | None = None) -> None:
        """Wait until no interaction is pending and no request came for ``quiet`` seconds.

        The quiet period counts from the later of the last request and this call, so
        ``settle()`` always gives the bot at least ``quiet`` seconds to start acting.

        Pending = sent but not answered (and not yet past the 3 s limit), or deferred
        with a "thinking" message that has not been filled yet.
        """
        quiet = self.settle_quiet if quiet is None else quiet
        started = monotonic()
        deadline = started + (self.settle_timeout if timeout is None else timeout)
        while True:
            now = monotonic()
            busy = any(probe() for probe in self._busy_probes)
            if busy:
                self._touch()  # the quiet period starts once the bot's work is done
            pending = self._pending()
            idle = now - max(self._last_activity, started)
            if not pending and self._active_requests == 0 and idle >= quiet:
                return
            if now > deadline:
                lines = [f"{rec.description}: {why}" for rec, why in pending]
                if self._active_requests:
                    lines.append(f"{self._active_requests} request(s) still in flight")
                if busy:
                    lines.append("the bot still has work in flight")
                raise SettleTimeout("the bot did not settle:\n  " + "\n  ".join(lines or ["busy"]))
            await asyncio.sleep(min(0.02, max(0.005, quiet - idle)))

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Poll ``predicate`` until truthy; returns its value."""
        deadline = monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            await asyncio.sleep(0.01)

    async def wait_for_message(
        self,
        predicate: Callable[[FakeMessage], bool] | str | None = None,
        *,
        channel: Channel | None = None,
        after: int = 0,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Newest message (id > ``after``) matching a predicate or containing a text."""

        def check() -> FakeMessage | None:
            for msg in reversed(self.messages(channel)):
                if msg.id <= after:
                    return None
                if predicate is None:
                    return msg
                if isinstance(predicate, str) and predicate in msg.text:
                    return msg
                if callable(predicate) and predicate(msg):
                    return msg
            return None

        found: FakeMessage = await self.wait_for(
            check, timeout=timeout, what=f"a message matching {predicate!r}"
        )
        return found

    async def wait_ready(self, *, commands: bool = True, timeout: float = 15.0) -> None:
        """Wait until the bot identified (READY + GUILD_CREATE), synced commands, went quiet."""
        await self.wait_for(
            lambda: self.gateway.connected and (not commands or self.state.command_syncs > 0),
            timeout=timeout,
            what="the bot to connect" + (" and sync commands" if commands else ""),
        )
        await self.settle(timeout=timeout)

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: not self.gateway.connected, timeout=timeout, what="disconnect")

    # ------------------------------------------------------------------ interactions
    def _expire_interaction(self, rec: InteractionRecord) -> None:
        self._timers.pop(rec.id, None)
        if rec.callback_type is None and not rec.failed:
            rec.failed = True
            self.state.violate(
                "interaction-timeout",
                f"{rec.description}: no response within {self.interaction_timeout:g}s "
                "(the user sees 'This interaction failed')",
            )
            self.state.record("interaction_failed", interaction=rec)
            self._touch()

    async def send_interaction(
        self,
        user: FakeUser,
        itype: int,
        data: dict[str, Any],
        *,
        channel: Channel,
        description: str,
        message: FakeMessage | None = None,
        command_name: str | None = None,
        message_payload: dict[str, Any] | None = None,
    ) -> InteractionRecord:
        """Dispatch an INTERACTION_CREATE and start the 3-second clock. ``message_payload``
        replaces the message the payload carries (a forged press, see ``FakeUser.forge``)."""
        if not self.gateway.connected_to(channel.guild_id):
            raise FakeDiscordError(f"cannot send {description}: the bot is not connected")
        rec = InteractionRecord(
            id=self.state.snowflakes.next(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=itype,
            user=user.user,
            channel=channel,
            data=data,
            created_at=self.clock.now(),
            sent_at=monotonic(),
            description=description,
            message=message,
            command_name=command_name,
        )
        self.state.interactions[rec.id] = rec
        self.state.interactions_by_token[rec.token] = rec
        rec.payload = interaction_payload(self.state, rec)
        if message_payload is not None:
            rec.payload["message"] = message_payload
        loop = asyncio.get_running_loop()
        self._timers[rec.id] = loop.call_later(
            self.interaction_timeout, self._expire_interaction, rec
        )
        self.state.record("interaction_sent", interaction=rec)
        await self.gateway.dispatch("INTERACTION_CREATE", rec.payload)
        return rec

    async def redeliver(
        self, result: InteractionResult, *, settle: bool = True
    ) -> InteractionResult:
        """Dispatch an interaction sent before once more, same id and token, as Discord can
        (a dispatch replayed after a resume). The 3-second clock is not restarted, and a second
        callback from the bot is still a ``double-callback`` violation. The result covers what
        happened after the second delivery."""
        rec = result.interaction
        if not self.gateway.connected_to(rec.channel.guild_id):
            raise FakeDiscordError(f"cannot redeliver {rec.description}: the bot is not connected")

        async def deliver() -> InteractionRecord:
            self.state.record("interaction_redelivered", interaction=rec)
            await self.gateway.dispatch("INTERACTION_CREATE", rec.payload)
            return rec

        return await self._run(deliver(), result.user, settle=settle)

    def _modal_opened(self, rec: InteractionRecord) -> None:
        if rec.modal is not None:
            self._open_modals[rec.user.id] = ModalView(rec, rec.modal)

    async def _run(self, rec_coro: Any, user: FakeUser, *, settle: bool) -> InteractionResult:
        start = self.state.last_event_seq
        rec = await rec_coro
        result = InteractionResult(self, rec, user, start)
        if settle:
            await self.settle()
            result.freeze()
        return result


class InteractionResult:
    """What came out of one user action: the callback, new/edited messages, a modal...

    Messages are live objects (their current state). After ``settle`` the window of
    events is frozen, so later activity does not leak into this result.
    """

    def __init__(
        self, fake: FakeDiscord, rec: InteractionRecord, user: FakeUser, start: int
    ) -> None:
        self.fake, self.interaction, self.user = fake, rec, user
        self._start = start
        self._end: int | None = None

    def freeze(self) -> None:
        self._end = self.fake.state.last_event_seq

    async def wait(self) -> InteractionResult:
        """Settle now (for actions started with ``settle=False``)."""
        await self.fake.settle()
        self.freeze()
        return self

    @property
    def events(self) -> list[Event]:
        end = self._end if self._end is not None else self.fake.state.last_event_seq
        return [e for e in self.fake.state.events if self._start < e.seq <= end]

    def _unique(self, kind: str) -> list[FakeMessage]:
        seen: dict[int, FakeMessage] = {}
        for e in self.events:
            if e.kind == kind and e.message is not None:
                seen.setdefault(e.message.id, e.message)
        return list(seen.values())

    # -- how the bot answered ---------------------------------------------------
    @property
    def callback_type(self) -> int | None:
        return self.interaction.callback_type

    @property
    def callback_name(self) -> str | None:
        return CALLBACK_NAMES.get(self.interaction.callback_type or 0)

    @property
    def acknowledged(self) -> bool:
        return self.interaction.acknowledged

    @property
    def failed(self) -> bool:
        """True when the bot missed the 3-second deadline ("This interaction failed")."""
        return self.interaction.failed

    @property
    def response(self) -> FakeMessage | None:
        """The message ``@original`` refers to (the reply, or the updated component message)."""
        return self.fake.state.messages.get(self.interaction.response_message_id or 0)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.state.messages[i] for i in self.interaction.followup_ids]

    @property
    def replies(self) -> list[FakeMessage]:
        """The new messages that answered this interaction alone: its reply (callback 4)
        and any follow-ups, whatever else happened meanwhile."""
        reply = self.response if self.interaction.callback_type == 4 else None
        return ([reply] if reply is not None else []) + self.followups

    @property
    def modal(self) -> ModalView | None:
        rec = self.interaction
        return ModalView(rec, rec.modal) if rec.modal is not None else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices the bot returned."""
        return self.interaction.autocomplete_choices

    # -- messages ---------------------------------------------------------------------
    @property
    def created(self) -> list[FakeMessage]:
        return self._unique("message_create")

    @property
    def edited(self) -> list[FakeMessage]:
        created = {m.id for m in self.created}
        return [m for m in self._unique("message_update") if m.id not in created]

    @property
    def deleted(self) -> list[FakeMessage]:
        return self._unique("message_delete")

    @property
    def messages(self) -> list[FakeMessage]:
        """Created and edited messages (current state), deleted ones left out."""
        return [m for m in [*self.created, *self.edited] if not m.deleted]

    @property
    def ephemeral(self) -> list[FakeMessage]:
        """Messages only this user saw: those of the window, and this press's own private
        answers even when they came after it closed (a reply drawn on a loaded machine
        can outlast the quiet moment that closes the window)."""
        mine = [m for m in self.messages if m.ephemeral_to == self.user.id]
        own = list(self.followups)
        if self.interaction.callback_type in (MESSAGE, DEFERRED_MESSAGE) and self.response:
            own.insert(0, self.response)
        seen = {m.id for m in mine}
        return mine + [
            m for m in own if m.ephemeral_to == self.user.id and not m.deleted and m.id not in seen
        ]

    @property
    def public(self) -> list[FakeMessage]:
        return [m for m in self.messages if m.ephemeral_to is None]

    @property
    def ephemeral_text(self) -> str:
        """Text of the ephemeral messages only this user saw (bot errors usually land here)."""
        return "\n".join(m.text for m in self.ephemeral)

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [f for m in self.messages for f in m.files]

    def __repr__(self) -> str:
        rec = self.interaction
        state = "FAILED" if rec.failed else self.callback_name
        return (
            f"<InteractionResult {rec.description} -> {state}; created={self.created} "
            f"edited={self.edited} modal={self.modal}>"
        )


class FakeUser:
    """A guild member driven by the test. Every action awaits ``fake.settle()`` by default.
    Actions happen in the first channel of the user's guild unless given a ``channel``."""

    def __init__(self, fake: FakeDiscord, member: Member, guild: FakeGuild) -> None:
        self.fake = fake
        self.member = member
        self.user = member.user
        self.guild = guild

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"

    # -- reading ------------------------------------------------------------------------
    def visible_messages(self, channel: Channel | None = None) -> list[FakeMessage]:
        """Messages this user can see in a channel (default: the guild's first), oldest first."""
        msgs = self.fake.messages(channel or self.guild.channel)
        return [m for m in msgs if m.visible_to(self.id)]

    def last_message(self, channel: Channel | None = None) -> FakeMessage | None:
        msgs = self.visible_messages(channel)
        return msgs[-1] if msgs else None

    @property
    def open_modal(self) -> ModalView | None:
        return self.fake._open_modals.get(self.id)

    # -- acting -------------------------------------------------------------------------
    async def slash(
        self,
        command: str,
        /,
        *,
        channel: Channel | None = None,
        options: dict[str, Any] | None = None,
        settle: bool = True,
        raw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run ``/group sub option:value`` e.g. ``slash("/rumble new", seed=3)``.

        ``raw`` options are sent exactly as given, unchecked, as no Discord client would send
        them (``raw={"seed": "abc"}`` for an integer option); the names must still exist."""
        channel = channel or self.guild.channel
        data, name = build_command_data(
            self.fake.state,
            command,
            {**(options or {}), **kwargs},
            raw=raw,
            guild=self.fake.state.guild_of(channel),
        )
        desc = f"/{name} by {self.name}"
        coro = self.fake.send_interaction(
            self,
            INTERACTION_APPLICATION_COMMAND,
            data,
            channel=channel,
            description=desc,
            command_name=name,
        )
        return await self._finish(coro, settle)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str = "",
        /,
        *,
        channel: Channel | None = None,
        **others: Any,
    ) -> list[dict[str, Any]]:
        """Type ``typed`` into ``option`` and return the bot's autocomplete choices."""
        channel = channel or self.guild.channel
        data, name = build_command_data(
            self.fake.state,
            command,
            {**others, option: typed},
            focused=option,
            guild=self.fake.state.guild_of(channel),
        )
        coro = self.fake.send_interaction(
            self,
            INTERACTION_AUTOCOMPLETE,
            data,
            channel=channel,
            description=f"autocomplete /{name} {option}={typed!r} by {self.name}",
            command_name=name,
        )
        result = await self._finish(coro, True)
        return result.choices or []

    def _find(
        self,
        what: str,
        accept: Callable[[Component], bool],
        message: FakeMessage | None,
        channel: Channel | None,
    ) -> tuple[FakeMessage, Component]:
        if message is not None:
            if not message.visible_to(self.id):
                raise FakeDiscordError(f"{self.name} cannot see message {message.id}")
            candidates = [message]
        else:
            candidates = list(reversed(self.visible_messages(channel)))
        for msg in candidates:
            for comp in msg.all_components:
                if accept(comp):
                    return msg, comp
        where = f"message {message.id}" if message else f"#{(channel or self.guild.channel).name}"
        summary = message_components_summary(list(reversed(candidates)))
        raise FakeDiscordError(f"{self.name} sees no {what} in {where}; clickable:\n{summary}")

    async def click(
        self,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        message: FakeMessage | None = None,
        channel: Channel | None = None,
        settle: bool = True,
    ) -> InteractionResult:
        """Click the button with this label (or emoji, or ``custom_id``) on the newest
        message this user can see that has one (or on ``message``)."""
        if (label is None) == (custom_id is None):
            raise FakeDiscordError("click() needs a label or a custom_id")

        def exact(c: Component) -> bool:
            if c.type != BUTTON:
                return False
            if custom_id is not None:
                return bool(c.custom_id == custom_id)
            return label in (c.label, c.emoji)

        def loose(c: Component) -> bool:
            return (
                c.type == BUTTON
                and label is not None
                and (c.label or "").strip().casefold() == label.strip().casefold()
            )

        what = f"button {label or custom_id!r}"
        try:
            msg, comp = self._find(what, exact, message, channel)
        except FakeDiscordError:
            if label is None:
                raise
            msg, comp = self._find(what, loose, message, channel)
        if comp.disabled:
            raise FakeDiscordError(f"{what} on message {msg.id} is disabled")
        if comp.url or not comp.custom_id:
            raise FakeDiscordError(f"{what} is a link/premium button; clicking it sends nothing")
        coro = self.fake.send_interaction(
            self,
            INTERACTION_COMPONENT,
            button_data(comp),
            channel=msg.channel,
            description=f"click {comp.label or comp.emoji or comp.custom_id!r} by {self.name}",
            message=msg,
        )
        return await self._finish(coro, settle)

    async def press(self, message: FakeMessage, label: str, **kwargs: Any) -> InteractionResult:
        """Click a button on a specific message."""
        return await self.click(label, message=message, **kwargs)

    async def select(
        self,
        which: str,
        *values: Any,
        message: FakeMessage | None = None,
        channel: Channel | None = None,
        settle: bool = True,
    ) -> InteractionResult:
        """Pick option(s) (by value or label) in the select with this placeholder/custom_id."""

        def accept(c: Component) -> bool:
            return c.type in SELECT_TYPES and which in (c.placeholder, c.custom_id)

        msg, comp = self._find(f"select {which!r}", accept, message, channel)
        if comp.disabled:
            raise FakeDiscordError(f"select {which!r} on message {msg.id} is disabled")
        guild = self.fake.state.guild_of(msg.channel)
        data = select_data(self.fake.state, comp, values, f"select {which!r}", guild)
        coro = self.fake.send_interaction(
            self,
            INTERACTION_COMPONENT,
            data,
            channel=msg.channel,
            description=f"select {which!r}={list(values)} by {self.name}",
            message=msg,
        )
        return await self._finish(coro, settle)

    async def forge(
        self,
        message: FakeMessage,
        custom_id: str,
        *values: str,
        carried: bool = True,
        settle: bool = True,
    ) -> InteractionResult:
        """A press no Discord client would send: any ``custom_id`` on ``message``, a button
        press, or a string select pick of any ``values`` (raw strings, as many as given) when
        values are given.

        ``carried=True`` (default): the message in the payload carries a component with that
        custom id, as if the bot had put it there (an existing one is left as it is, so a real
        menu keeps its real options). ``carried=False``: the message goes as it is now, as
        when the bot has just taken the pressed button off it. The stored message never
        changes; the bot's answers are checked by the usual rules."""
        if not message.visible_to(self.id):
            raise FakeDiscordError(f"{self.name} cannot see message {message.id}")
        select = bool(values)
        data = forged_component_data(custom_id, list(values) if select else None)
        payload = forged_message_payload(message, data) if carried else message.payload()
        coro = self.fake.send_interaction(
            self,
            INTERACTION_COMPONENT,
            data,
            channel=message.channel,
            description=f"forged {custom_id[:40]!r}{list(values) if select else ''} by {self.name}",
            message=message,
            message_payload=payload,
        )
        return await self._finish(coro, settle)

    async def submit_modal(
        self,
        values: dict[str, Any] | None = None,
        /,
        *,
        modal: ModalView | None = None,
        settle: bool = True,
        **fields: Any,
    ) -> InteractionResult:
        """Fill and submit the modal the bot last opened for this user.

        Fields are addressed by custom_id or label: ``submit_modal({"Your name": "Ann"})``
        or ``submit_modal(name="Ann")``. Unfilled text inputs keep their default value.
        """
        modal = modal or self.fake._open_modals.get(self.id)
        if modal is None:
            raise FakeDiscordError(f"{self.name} has no modal open")
        source = modal.interaction
        guild = self.fake.state.guild_of(source.channel)
        data = modal_submit_data(self.fake.state, modal, {**(values or {}), **fields}, guild)
        self.fake._open_modals.pop(self.id, None)
        coro = self.fake.send_interaction(
            self,
            INTERACTION_MODAL_SUBMIT,
            data,
            channel=source.channel,
            description=f"modal {modal.title!r} submitted by {self.name}",
            message=source.message,
        )
        return await self._finish(coro, settle)

    async def say(
        self, content: str, *, channel: Channel | None = None, settle: bool = True
    ) -> FakeMessage:
        """Post a plain message as this user (dispatches MESSAGE_CREATE to the bot)."""
        msg = self.fake.state.new_message(channel or self.guild.channel, self.user, content=content)
        await self.fake.gateway.message_created(msg)
        if settle:
            await self.fake.settle()
        return msg

    async def _finish(self, coro: Any, settle: bool) -> InteractionResult:
        return await self.fake._run(coro, self, settle=settle)

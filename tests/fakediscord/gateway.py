"""The fake gateway: a websocket speaking Discord's gateway protocol (v10, JSON).

HELLO -> IDENTIFY -> READY + GUILD_CREATE, heartbeats (op 1 -> op 11), RESUME with
replay of missed dispatches, RECONNECT (op 7) / INVALIDATE_SESSION (op 9) on
demand, REQUEST_GUILD_MEMBERS (op 8). When the client asks for
``compress=zlib-stream`` (discord.py always does unless zstd is installed) every
frame is deflated into one shared zlib stream and sent as a binary message ending in
the Z_SYNC_FLUSH suffix, exactly like Discord; otherwise frames are JSON text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .state import FakeMessage, FakeState, Guild, Member

log = logging.getLogger("fakediscord.gateway")

# gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME = 0, 1, 2, 3, 4, 6
RECONNECT, REQUEST_MEMBERS, INVALIDATE_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11

# intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

HEARTBEAT_INTERVAL_MS = 41250
REPLAY_BUFFER = 2000


class Connection:
    """One websocket; serialises sends so the zlib stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if zlib_stream else None
        self.lock = asyncio.Lock()
        self.session: Session | None = None
        self.closed_by_server = False

    async def close(self, code: int, message: bytes) -> None:
        self.closed_by_server = True
        await self.ws.close(code=code, message=message)

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is not None:
                data = self.compressor.compress(raw.encode()) + self.compressor.flush(
                    zlib.Z_SYNC_FLUSH
                )
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)


class Session:
    """A gateway session (what RESUME continues): its sequence and sent dispatches."""

    def __init__(
        self, intents: int, properties: dict[str, Any], shard: tuple[int, int] = (0, 1)
    ) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard  # [shard_id, shard_count] from IDENTIFY; (0, 1) unsharded
        self.intents = intents
        self.properties = properties
        self.seq = 0
        self.sent: list[dict[str, Any]] = []
        self.conn: Connection | None = None
        self.resumable = True

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)


class Gateway:
    """Accepts the bot's websocket(s) and dispatches events to the current session."""

    def __init__(
        self,
        state: FakeState,
        *,
        token: str,
        url: str,
        allowed_intents: int,
        on_activity: Any,
    ) -> None:
        self.state = state
        self.token = token
        self.url = url  # ws://host:port/gateway, filled in when the server starts
        self.allowed_intents = allowed_intents
        self._touch = on_activity
        self.sessions: dict[str, Session] = {}
        # The current session of each shard id. A guild's events go only to the session of
        # its shard, (guild_id >> 22) % shard_count, as Discord sends them.
        self.shard_sessions: dict[int, Session] = {}
        self.shard_count = 1
        self.connections: set[Connection] = set()
        self.received: list[dict[str, Any]] = []
        """Every frame the bot sent (op, d), for tests that care (presence updates...)."""
        self.presence: dict[str, Any] | None = None
        self.identify_count = 0
        self.resume_count = 0
        self.connection_queries: list[dict[str, str]] = []
        """Query string of every websocket connect (``v``, ``encoding``, ``compress``)."""
        self.changed = asyncio.Event()

    # -- public helpers ------------------------------------------------------------
    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def session_of(self, guild_id: int) -> Session | None:
        """The session that receives this guild's events (that of the guild's shard)."""
        return self.shard_sessions.get(self.shard_of(guild_id))

    @property
    def session(self) -> Session | None:
        """The session that receives the default guild's events."""
        return self.session_of(self.state.guild.id)

    @session.setter
    def session(self, session: Session) -> None:
        self.shard_sessions[session.shard[0]] = session

    def connected_to(self, guild_id: int) -> bool:
        """A live connection receives this guild's events."""
        s = self.session_of(guild_id)
        return s is not None and s.conn is not None and not s.conn.ws.closed

    @property
    def connected(self) -> bool:
        return self.connected_to(self.state.guild.id)

    def has_intent(self, intent: int, guild_id: int | None = None) -> bool:
        session = self.session_of(self.state.guild.id if guild_id is None else guild_id)
        return session is not None and session.has(intent)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event (op 0) to the session of its guild's shard (``data["guild_id"]``,
        else the default guild); buffered for RESUME if offline."""
        guild_id = int(data.get("guild_id") or self.state.guild.id)
        await self._dispatch_to(self.session_of(guild_id), event, data)

    async def _dispatch_to(self, session: Session | None, event: str, data: dict[str, Any]) -> None:
        if session is None:
            return
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        del session.sent[:-REPLAY_BUFFER]
        self._touch()
        if session.conn is not None:
            await session.conn.send(frame)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs the same session."""
        if self.session and self.session.conn:
            await self.session.conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the socket abruptly (as a network blip would); discord.py resumes."""
        if self.session and self.session.conn:
            await self.session.conn.close(code, b"fake network blip")

    async def invalidate_session(self) -> None:
        """Send op 9 (not resumable): discord.py identifies again from scratch."""
        if self.session and self.session.conn:
            self.session.resumable = False
            await self.session.conn.send(
                {"op": INVALIDATE_SESSION, "d": False, "s": None, "t": None}
            )

    async def close_all(self) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.close(1001, b"fake discord shutting down")

    # -- event helpers used by the rest of the fake ----------------------------------
    def _message_for_gateway(self, msg: FakeMessage) -> dict[str, Any]:
        data = msg.payload()
        member = self.state.guild_of(msg.channel).members.get(msg.author.id)
        if member is not None and msg.webhook_id is None:
            data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        session = self.session_of(msg.channel.guild_id)
        own = msg.author.id == self.state.bot_user.id
        mentioned = str(self.state.bot_user.id) in {m["id"] for m in data["mentions"]}
        if session and not (own or mentioned or session.has(INTENT_MESSAGE_CONTENT)):
            # Discord strips these for bots without the privileged message content intent.
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    def _sees_messages(self, msg: FakeMessage) -> bool:
        return msg.ephemeral_to is None and self.has_intent(
            INTENT_GUILD_MESSAGES, msg.channel.guild_id
        )

    async def message_created(self, msg: FakeMessage) -> None:
        if self._sees_messages(msg):
            await self.dispatch("MESSAGE_CREATE", self._message_for_gateway(msg))

    async def message_updated(self, msg: FakeMessage) -> None:
        if self._sees_messages(msg):
            await self.dispatch("MESSAGE_UPDATE", self._message_for_gateway(msg))

    async def message_deleted(self, msg: FakeMessage) -> None:
        if self._sees_messages(msg):
            data = {
                "id": str(msg.id),
                "channel_id": str(msg.channel.id),
                "guild_id": str(msg.channel.guild_id),
            }
            await self.dispatch("MESSAGE_DELETE", data)

    async def member_added(self, member: Member, guild: Guild | None = None) -> None:
        guild = guild or self.state.guild
        if self.has_intent(INTENT_GUILD_MEMBERS, guild.id):
            data = member.payload()
            data["guild_id"] = str(guild.id)
            await self.dispatch("GUILD_MEMBER_ADD", data)

    # -- websocket handler ----------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        self.connection_queries.append(dict(query))
        if query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"the fake only speaks encoding=json")
            return ws
        conn = Connection(ws, zlib_stream=query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        self._touch()
        try:
            await conn.send(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fake-gw"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    await self._on_frame(conn, json.loads(msg.data.decode()))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if ws.close_code in (1000, 1001) and not conn.closed_by_server:
                    # A clean close by the client ends the session (it cannot be resumed).
                    session.resumable = False
            log.debug("gateway connection closed with %s", ws.close_code)
            self._touch()
            self.changed.set()
        return ws

    async def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        self.received.append({"op": op, "d": data})
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == PRESENCE:
            self.presence = data
        elif op == REQUEST_MEMBERS:
            await self._send_member_chunk(conn, data or {})
        elif op == VOICE_STATE:
            pass
        else:
            log.warning("fake gateway: unknown op %s", op)

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated.")
            return
        if data.get("token") != self.token:
            await conn.close(4004, b"Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await conn.close(4013, b"Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await conn.close(4014, b"Disallowed intent(s).")
            return
        shard = data.get("shard", [0, 1])
        if not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await conn.close(4010, b"Invalid shard.")
            return
        if shard[1] != self.shard_count and any(
            s.conn is not None for s in self.shard_sessions.values()
        ):
            await conn.close(4011, b"Sharding required.")  # one count for every connection
            return
        self.shard_count = shard[1]
        session = Session(intents, data.get("properties", {}), (shard[0], shard[1]))
        session.conn = conn
        conn.session = session
        self.sessions[session.id] = session
        self.session = session
        self.identify_count += 1
        state = self.state
        ours = [g for g in state.guilds.values() if self.shard_of(g.id) == shard[0]]
        ready = {
            "v": 10,
            "user": {
                **state.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in ours],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(state.application_id), "flags": (1 << 19) | (1 << 23)},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fake-gateway"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._dispatch_to(session, "READY", ready)
        # Only this shard's guilds: the others' events belong to other connections.
        for guild in ours:
            await self.guild_create(guild)
        self.changed.set()

    async def guild_create(self, guild: Guild) -> None:
        """GUILD_CREATE to the guild's shard: on connecting, or when the bot joins it."""
        session = self.session_of(guild.id)
        if session is None:
            return
        members = list(guild.members.values())
        if not session.has(INTENT_GUILD_MEMBERS):
            # Without the members intent Discord only includes the bot itself.
            members = [guild.members[self.state.bot_user.id]]
        data = guild.payload(joined_at=self.state.bot_joined_at, members=members)
        await self._dispatch_to(session, "GUILD_CREATE", data)

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        if (
            data.get("token") != self.token
            or session is None
            or not session.resumable
            or seq > session.seq
            or (session.sent and seq < session.sent[0]["s"] - 1)
        ):
            await conn.send({"op": INVALIDATE_SESSION, "d": False, "s": None, "t": None})
            return
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000, b"resumed elsewhere")
        session.conn = conn
        conn.session = session
        self.session = session
        self.resume_count += 1
        for frame in [f for f in session.sent if f["s"] > seq]:
            await conn.send(frame)
        await self._dispatch_to(session, "RESUMED", {"_trace": ["fake-gateway"]})
        self.changed.set()

    async def _send_member_chunk(self, conn: Connection, data: dict[str, Any]) -> None:
        guild = self.state.guilds.get(int(data.get("guild_id") or 0), self.state.guild)
        members = list(guild.members.values())
        query = (data.get("query") or "").lower()
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif query:
            members = [m for m in members if m.user.name.lower().startswith(query)]
        if data.get("limit"):
            members = members[: data["limit"]]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("presences"):
            chunk["presences"] = []
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

"""What the fake Discord knows and records: guild, channels, users, messages, interactions.

Everything here is plain data plus the JSON shapes Discord would send for it
(``payload()`` methods). The REST server, the gateway and the test driver all
read and write one :class:`FakeState`.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import itertools
import re
from collections.abc import Iterator
from typing import Any

from .clock import FakeClock, Snowflakes, iso, monotonic

# --- permission bits (https://discord.com/developers/docs/topics/permissions) ---
NONCE_WINDOW = dt.timedelta(minutes=5)  # Discord checks a nonce "in the past few minutes"

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
USE_EXTERNAL_STICKERS = 1 << 37
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_STICKERS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# --- message flags ---
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# --- message types ---
MSG_DEFAULT = 0
MSG_REPLY = 19
MSG_CHAT_INPUT_COMMAND = 20

# --- channel types ---
CH_TEXT = 0
CH_CATEGORY = 4
CH_PUBLIC_THREAD = 11

# --- component types ---
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LABEL = 18
RADIO_GROUP = 21
CHECKBOX_GROUP = 22
CHECKBOX = 23
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)


class FakeDiscordError(Exception):
    """A test used the driver in a way a Discord user could not (bad name, disabled button...)."""


# ---------------------------------------------------------------------------
# guild entities
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    # The language of the user's Discord client, sent with each of their interactions
    # (`locale`); a test sets it as a person sets their client's language.
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or (None if self.bot else self.name.title()),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }


@dataclasses.dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0
    bot_id: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclasses.dataclass
class Member:
    user: User
    role_ids: list[int]
    joined_at: dt.datetime
    nick: str | None = None

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "unusual_dm_activity_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclasses.dataclass
class Overwrite:
    """A channel's permission overwrite for one role (``type`` 0; the guild's id is
    @everyone's) or one member (``type`` 1); see ``permissions.py`` for how it counts."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclasses.dataclass
class Channel:
    id: int
    name: str
    guild_id: int
    type: int = CH_TEXT
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    created_at: dt.datetime | None = None
    last_message_id: int | None = None
    overwrites: dict[int, Overwrite] = dataclasses.field(default_factory=dict)
    """By role or member id. A thread has none: it takes its parent's."""

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "flags": 0,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
        }
        if self.is_thread:
            created = iso(self.created_at or dt.datetime.now(dt.UTC))
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=1,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": created,
                    "locked": False,
                    "create_timestamp": created,
                },
            )
        else:
            overwrites = [o.payload() for o in self.overwrites.values()]
            data.update(
                position=self.position, permission_overwrites=overwrites, nsfw=False, topic=None
            )
            if self.type == CH_TEXT:
                data["default_auto_archive_duration"] = 1440
        return data


@dataclasses.dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    created_at: dt.datetime
    roles: dict[int, Role] = dataclasses.field(default_factory=dict)
    channels: dict[int, Channel] = dataclasses.field(default_factory=dict)
    members: dict[int, Member] = dataclasses.field(default_factory=dict)
    # Server boosts: the tier sets the upload limit (validation.upload_limit) unless a test
    # gives its own `upload_limit`. Both are read when the bot connects (GUILD_CREATE) and
    # in every interaction (`attachment_size_limit`).
    premium_tier: int = 0
    upload_limit: int | None = None
    # The server's language ("Community" settings): GUILD_CREATE's `preferred_locale` and
    # each interaction's `guild_locale`.
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        member = self.members[user_id]
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role_id in member.role_ids:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == CH_TEXT]

    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def payload(self, *, joined_at: dt.datetime, members: list[Member]) -> dict[str, Any]:
        system = self.text_channels()[0].id if self.text_channels() else None
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": self.premium_tier,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "features": [],
            "system_channel_id": str(system) if system else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "application_id": None,
            "widget_enabled": False,
            "incidents_data": None,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": iso(joined_at),
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.threads()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
        }


# ---------------------------------------------------------------------------
# components
# ---------------------------------------------------------------------------


def walk_components(components: list[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    """Every component in a message/modal tree, depth first (rows, labels, containers...)."""
    for comp in components or []:
        yield comp
        yield from walk_components(comp.get("components"))
        if isinstance(comp.get("component"), dict):
            yield from walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy of a component tree with Discord's sequential ``id`` filled in where missing."""
    tree = copy.deepcopy(components)
    used = {c["id"] for c in walk_components(tree) if isinstance(c.get("id"), int)}
    counter = itertools.count(1)
    for comp in walk_components(tree):
        if not isinstance(comp.get("id"), int):
            nxt = next(counter)
            while nxt in used:
                nxt = next(counter)
            comp["id"] = nxt
    return tree


class Component:
    """Read-only view of one component (button, select, text input...) for assertions."""

    def __init__(self, raw: dict[str, Any], *, label: str | None = None) -> None:
        self.raw = raw
        self._outer_label = label

    type = property(lambda self: self.raw.get("type"))
    custom_id = property(lambda self: self.raw.get("custom_id"))
    disabled = property(lambda self: bool(self.raw.get("disabled", False)))
    style = property(lambda self: self.raw.get("style"))
    url = property(lambda self: self.raw.get("url"))
    placeholder = property(lambda self: self.raw.get("placeholder"))
    required = property(lambda self: self.raw.get("required", True))
    min_values = property(lambda self: self.raw.get("min_values", 1))
    max_values = property(lambda self: self.raw.get("max_values", 1))

    @property
    def label(self) -> str | None:
        """Button label, text input label, or the label wrapping the component in a modal."""
        return self.raw.get("label") or self._outer_label

    @property
    def emoji(self) -> str | None:
        emoji = self.raw.get("emoji")
        return emoji.get("name") if emoji else None

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.raw.get("options", []))

    @property
    def option_labels(self) -> list[str]:
        return [o.get("label", "") for o in self.options]

    @property
    def option_values(self) -> list[str]:
        return [o.get("value", "") for o in self.options]

    def __repr__(self) -> str:
        name = {BUTTON: "Button", TEXT_INPUT: "TextInput"}.get(self.type, f"Component{self.type}")
        if self.type in SELECT_TYPES:
            name = "Select"
        text = self.label or self.placeholder or self.emoji
        extra = " disabled" if self.disabled else ""
        return f"<{name} {text!r} custom_id={self.custom_id!r}{extra}>"


# ---------------------------------------------------------------------------
# messages
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def dimensions(self) -> tuple[int, int] | None:
        """(width, height) for PNG/GIF/JPEG files, read from the header like Discord does."""
        d = self.data
        if d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) >= 24:
            return int.from_bytes(d[16:20], "big"), int.from_bytes(d[20:24], "big")
        if d[:6] in (b"GIF87a", b"GIF89a"):
            return int.from_bytes(d[6:8], "little"), int.from_bytes(d[8:10], "little")
        if d[:2] == b"\xff\xd8":
            i = 2
            while i + 9 < len(d):
                if d[i] != 0xFF:
                    break
                marker, length = d[i + 1], int.from_bytes(d[i + 2 : i + 4], "big")
                if marker in (0xC0, 0xC1, 0xC2):
                    h = int.from_bytes(d[i + 5 : i + 7], "big")
                    return int.from_bytes(d[i + 7 : i + 9], "big"), h
                i += 2 + length
        return None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        dims = self.dimensions()
        if dims:
            data["width"], data["height"] = dims
            data["placeholder_version"] = 1
        return data


@dataclasses.dataclass
class FakeMessage:
    """A message as the fake stores it; ``payload()`` is what Discord would return."""

    id: int
    channel: Channel
    author: User
    created_at: dt.datetime
    content: str = ""
    embeds: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    components: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    attachments: list[Attachment] = dataclasses.field(default_factory=list)
    flags: int = 0
    type: int = MSG_DEFAULT
    tts: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    ephemeral_to: int | None = None
    """User id that alone can see this message (ephemeral), else None (everyone)."""
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction_legacy: dict[str, Any] | None = None
    reference: dict[str, Any] | None = None
    edited_at: dt.datetime | None = None
    deleted: bool = False
    pinned: bool = False
    nonce: str | None = None
    """The nonce the message was created with (Discord echoes it back)."""
    reactions: dict[str, set[int]] = dataclasses.field(default_factory=dict)
    history: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    """Snapshots (``payload()``) of every earlier version, oldest first."""
    known_users: dict[int, User] = dataclasses.field(default_factory=dict, repr=False)
    guild_role_ids: set[int] = dataclasses.field(default_factory=set, repr=False)

    # -- derived views used by tests --------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred ("Bot is thinking...") response not yet filled."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def channel_id(self) -> int:
        return self.channel.id

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and (self.ephemeral_to is None or self.ephemeral_to == user_id)

    @property
    def all_components(self) -> list[Component]:
        return [Component(c) for c in walk_components(self.components)]

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.all_components if c.type == BUTTON]

    @property
    def selects(self) -> list[Component]:
        return [c for c in self.all_components if c.type in SELECT_TYPES]

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachments]

    @property
    def embed_text(self) -> str:
        parts: list[str] = []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            if e.get("author", {}).get("name"):
                parts.append(e["author"]["name"])
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if e.get("footer", {}).get("text"):
                parts.append(e["footer"]["text"])
        for comp in walk_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):  # components v2 text display
                parts.append(comp["content"])
        return "\n".join(parts)

    @property
    def text(self) -> str:
        """Content plus all embed/text-display text: handy for ``assert "x" in msg.text``."""
        return "\n".join(p for p in (self.content, self.embed_text) if p)

    def button(self, label: str) -> Component:
        for b in self.buttons:
            if label in (b.label, b.emoji, b.custom_id):
                return b
        raise FakeDiscordError(f"no button {label!r} on message {self.id}: {self.buttons}")

    @property
    def versions(self) -> list[dict[str, Any]]:
        """Every version of the message, oldest first, ending with the current one."""
        return [*self.history, self.payload()]

    # -- wire format -------------------------------------------------------
    def _mentions(self) -> tuple[list[dict[str, Any]], list[str]]:
        ids = [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]
        users = [self.known_users[i].payload() for i in dict.fromkeys(ids) if i in self.known_users]
        roles = [r for r in dict.fromkeys(re.findall(r"<@&(\d+)>", self.content))]
        return users, [r for r in roles if int(r) in self.guild_role_ids]

    def payload(self, *, with_reference: bool = True) -> dict[str, Any]:
        mentions, mention_roles = self._mentions()
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel.id),
            "guild_id": str(self.channel.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": self.tts,
            "mention_everyone": "@everyone" in self.content or "@here" in self.content,
            "mentions": mentions,
            "mention_roles": mention_roles,
            "mention_channels": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "reactions": [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.author.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for name, users in self.reactions.items()
                if users
            ],
            "pinned": self.pinned,
            "flags": self.flags,
        }
        if not data["reactions"]:
            del data["reactions"]
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.interaction_legacy is not None:
            data["interaction"] = copy.deepcopy(self.interaction_legacy)
        if self.reference is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": self.reference["message_id"],
                "channel_id": str(self.channel.id),
                "guild_id": str(self.channel.guild_id),
            }
            if with_reference and self.reference.get("resolved") is not None:
                data["referenced_message"] = self.reference["resolved"].payload(
                    with_reference=False
                )
        return data

    def __repr__(self) -> str:
        who = f" ephemeral_to={self.ephemeral_to}" if self.ephemeral_to else ""
        gone = " DELETED" if self.deleted else ""
        buttons = [b.label or b.emoji for b in self.buttons]
        files = [a.filename for a in self.attachments]
        return (
            f"<FakeMessage {self.id} #{self.channel.name}{who}{gone} text={self.text[:80]!r} "
            f"buttons={buttons} files={files}>"
        )


# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Violation:
    """A Discord rule the bot broke; fails the test at teardown unless popped."""

    kind: str
    detail: str
    at: float = dataclasses.field(default_factory=monotonic)

    def __str__(self) -> str:
        return f"[{self.kind}] {self.detail}"


@dataclasses.dataclass
class RequestRecord:
    """One HTTP request the bot made (the raw log), with what the fake answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: list[tuple[str, str, int]] = dataclasses.field(default_factory=list)
    status: int = 0
    response: Any = None
    unexpected: bool = False
    """Not implemented by the fake (answered 404)."""
    client: str | None = None
    """Which client sent it, when it used ``FakeDiscord.api_base_for(client)``."""
    guild_id: int | None = None
    """The guild it acted in: named in the path, or its channel's or interaction's guild."""
    acknowledged: bool = False
    """An unexpected request the test took with ``pop_unexpected_requests()``."""
    started: float = dataclasses.field(default_factory=monotonic)
    finished: float | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclasses.dataclass
class InteractionRecord:
    """An interaction the fake sent to the bot, and how the bot answered it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: dt.datetime
    sent_at: float
    description: str
    message: FakeMessage | None = None
    """The message a component was on (component interactions, modals opened from them)."""
    callback_type: int | None = None
    callback_at: float | None = None
    failed: bool = False
    """True when no callback came within 3 seconds ("This interaction failed")."""
    response_message_id: int | None = None
    """The message ``@original`` refers to (new response, or the component message for 6/7)."""
    deferred_ephemeral: bool = False
    followup_ids: list[int] = dataclasses.field(default_factory=list)
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    command_name: str | None = None
    payload: dict[str, Any] = dataclasses.field(default_factory=dict, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None


@dataclasses.dataclass
class Event:
    """Something visible happened (message created/edited/deleted, modal opened...)."""

    seq: int
    kind: str
    message: FakeMessage | None = None
    interaction: InteractionRecord | None = None


class FakeState:
    """All the fake's data: the guilds (the first is the default one), their channels and
    members, and every recording."""

    def __init__(self, clock: FakeClock, *, guild_name: str, bot_name: str) -> None:
        self.clock = clock
        self.snowflakes = Snowflakes(clock)
        self.bot_user = User(self.snowflakes.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id  # modern apps: application id == bot user id
        self.owner = User(self.snowflakes.next(), "guildowner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.bot_joined_at = clock.now()
        self.guilds: dict[int, Guild] = {}
        self.bot_roles: dict[int, Role] = {}  # guild id -> the bot's managed role there
        self.guild = self.add_guild(guild_name)
        self.bot_role = self.bot_roles[self.guild.id]

        self.messages: dict[int, FakeMessage] = {}
        self.nonces: dict[tuple[int, str], int] = {}  # (author, nonce) -> message id
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.global_commands: dict[int, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[int, dict[str, Any]]] = {}
        self.command_syncs = 0
        self.events: list[Event] = []
        self._event_seq = itertools.count(1)
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.typing: list[tuple[int, float]] = []

    # -- entities ------------------------------------------------------------
    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """A guild with @everyone, the bot (and its managed role) and the owner as members.
        ``shard=(shard_id, shard_count)`` picks an id Discord would route to that shard,
        ``(guild_id >> 22) % shard_count == shard_id``."""
        gid = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        now = self.clock.now()
        guild = Guild(gid, name, owner_id=self.owner.id, created_at=now)
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_PERMISSIONS, position=0)
        bot_role = Role(
            self.snowflakes.next(),
            self.bot_user.name,
            BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.owner.id] = Member(self.owner, [], now)
        guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role.id], now)
        self.guilds[gid] = guild
        self.bot_roles[gid] = bot_role
        return guild

    def add_channel(
        self,
        name: str,
        *,
        type: int = CH_TEXT,
        parent_id: int | None = None,
        guild: Guild | None = None,
    ) -> Channel:
        guild = guild or self.guild
        position = sum(1 for c in guild.channels.values() if c.type == type)
        channel = Channel(
            self.snowflakes.next(),
            name,
            guild.id,
            type=type,
            position=position,
            parent_id=parent_id,
            owner_id=self.bot_user.id,
            created_at=self.clock.now(),
        )
        guild.channels[channel.id] = channel
        return channel

    def add_role(self, name: str, permissions: int, *, guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        for role in guild.roles.values():
            if role.name == name:
                return role
        role = Role(self.snowflakes.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(self, name: str, role_ids: list[int], *, guild: Guild | None = None) -> Member:
        user = User(self.snowflakes.next(), name)
        self.users[user.id] = user
        member = Member(user, role_ids, self.clock.now())
        (guild or self.guild).members[user.id] = member
        return member

    def channel(self, channel_id: int) -> Channel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    def guild_of(self, channel: Channel) -> Guild:
        return self.guilds[channel.guild_id]

    # -- messages --------------------------------------------------------------
    def new_message(self, channel: Channel, author: User, **fields: Any) -> FakeMessage:
        msg = FakeMessage(
            id=self.snowflakes.next(),
            channel=channel,
            author=author,
            created_at=self.clock.now(),
            known_users=self.users,
            guild_role_ids=set(self.guild_of(channel).roles),
            **fields,
        )
        self.messages[msg.id] = msg
        if msg.ephemeral_to is None:
            channel.last_message_id = msg.id
        self.record("message_create", message=msg)
        return msg

    def message_by_nonce(self, author_id: int, nonce: str) -> FakeMessage | None:
        """The message this author created with this nonce in the last few minutes."""
        msg = self.messages.get(self.nonces.get((author_id, nonce), 0))
        if msg is None or self.clock.now() - msg.created_at > NONCE_WINDOW:
            return None
        return msg

    def channel_messages(self, channel: Channel) -> list[FakeMessage]:
        return sorted(
            (m for m in self.messages.values() if m.channel.id == channel.id), key=lambda m: m.id
        )

    def snapshot_before_edit(self, msg: FakeMessage) -> None:
        msg.history.append(msg.payload())
        msg.edited_at = self.clock.now()

    # -- recording ---------------------------------------------------------------
    def record(
        self,
        kind: str,
        *,
        message: FakeMessage | None = None,
        interaction: InteractionRecord | None = None,
    ) -> Event:
        event = Event(next(self._event_seq), kind, message, interaction)
        self.events.append(event)
        return event

    @property
    def last_event_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def violate(self, kind: str, detail: str) -> Violation:
        violation = Violation(kind, detail)
        self.violations.append(violation)
        return violation

    def token_expired(self, rec: InteractionRecord, lifetime: dt.timedelta) -> bool:
        return self.clock.now() - rec.created_at > lifetime

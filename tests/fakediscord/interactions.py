"""Building the INTERACTION_CREATE payloads a Discord client would produce.

Slash commands are resolved against the commands the bot synced (guild commands
first, then global), options are typed from the command's declared option types and
checked the way the Discord client checks them (required, choices, min/max), and
component / modal-submit data mirrors the component the user acted on.
"""

from __future__ import annotations

import mimetypes
from typing import TYPE_CHECKING, Any

from . import permissions
from .state import (
    ACTION_ROW,
    BUTTON,
    CHECKBOX,
    CHECKBOX_GROUP,
    LABEL,
    RADIO_GROUP,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    USER_SELECT,
    Attachment,
    Channel,
    Component,
    FakeDiscordError,
    FakeMessage,
    Guild,
    InteractionRecord,
    Role,
    User,
    walk_components,
)
from .validation import upload_limit

if TYPE_CHECKING:
    from .state import FakeState

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


def interaction_payload(state: FakeState, rec: InteractionRecord) -> dict[str, Any]:
    """The full INTERACTION_CREATE ``d`` for a guild interaction (in its channel's guild)."""
    guild = state.guild_of(rec.channel)
    # The member's and the app's permissions in the channel, overwrites included, as
    # Discord computes them for every interaction.
    perms = permissions.in_channel(guild, rec.channel, rec.user.id)
    bot_perms = permissions.in_channel(guild, rec.channel, state.bot_user.id)
    payload: dict[str, Any] = {
        "id": str(rec.id),
        "application_id": str(state.application_id),
        "type": rec.type,
        "data": rec.data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
        "channel_id": str(rec.channel.id),
        "channel": {**rec.channel.payload(), "permissions": str(perms)},
        "member": guild.members[rec.user.id].payload(permissions=perms),
        "token": rec.token,
        "version": 1,
        "app_permissions": str(bot_perms),
        "locale": rec.user.locale,
        "guild_locale": guild.preferred_locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": upload_limit(guild),
    }
    if rec.message is not None:
        payload["message"] = rec.message.payload()
    return payload


# ---------------------------------------------------------------------------
# slash commands
# ---------------------------------------------------------------------------


def find_command(
    state: FakeState, name: str, guild: Guild | None = None
) -> tuple[dict[str, Any], bool]:
    """(command, is_guild_command) for a synced chat-input command, as seen in ``guild``
    (default: the default guild)."""
    guild = guild or state.guild
    for command in state.guild_commands.get(guild.id, {}).values():
        if command["name"] == name and command.get("type", 1) == 1:
            return command, True
    for command in state.global_commands.values():
        if command["name"] == name and command.get("type", 1) == 1:
            return command, False
    known = sorted(
        {c["name"] for c in state.global_commands.values()}
        | {c["name"] for c in state.guild_commands.get(guild.id, {}).values()}
    )
    raise FakeDiscordError(f"no synced slash command /{name}; the bot synced: {known}")


class _Resolved:
    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}

    def add(self, kind: str, key: int, value: dict[str, Any]) -> None:
        self.data.setdefault(kind, {})[str(key)] = value


def build_command_data(
    state: FakeState,
    command_line: str,
    options: dict[str, Any],
    *,
    focused: str | None = None,
    raw: dict[str, Any] | None = None,
    guild: Guild | None = None,
) -> tuple[dict[str, Any], str]:
    """``("/rumble new", {"seed": 3})`` -> (interaction data, full command name), typed in
    ``guild`` (default: the default guild). ``raw`` options go as given, without the
    client's type, choice and range checks."""
    guild = guild or state.guild
    words = command_line.strip().lstrip("/").split()
    if not words:
        raise FakeDiscordError("empty command")
    command, is_guild = find_command(state, words[0], guild)
    node: dict[str, Any] = command
    chain: list[dict[str, Any]] = []
    for word in words[1:]:
        subs = [
            o
            for o in node.get("options") or []
            if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        match = next((o for o in subs if o["name"] == word), None)
        if match is None:
            raise FakeDiscordError(
                f"/{' '.join(words)}: {node['name']!r} has no subcommand {word!r} "
                f"(has {[o['name'] for o in subs]})"
            )
        chain.append(match)
        node = match
    declared = node.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
        names = [o["name"] for o in declared]
        raise FakeDiscordError(f"/{' '.join(words)} needs a subcommand: one of {names}")

    by_name = {o["name"]: o for o in declared}
    given: dict[str, Any] = {}
    unchecked: set[str] = set()
    for key, value in [*options.items(), *(raw or {}).items()]:
        name = key if key in by_name else key.replace("_", "-")
        if name not in by_name:
            raise FakeDiscordError(
                f"/{' '.join(words)} has no option {key!r} (options: {list(by_name)})"
            )
        given[name] = value
        if raw and key in raw:
            unchecked.add(name)
    resolved = _Resolved()
    leaf: list[dict[str, Any]] = []
    for opt in declared:
        name = opt["name"]
        if name not in given:
            if opt.get("required") and focused is None:
                raise FakeDiscordError(f"/{' '.join(words)}: option {name!r} is required")
            continue
        if name == focused:
            leaf.append(
                {"name": name, "type": opt["type"], "value": str(given[name]), "focused": True}
            )
            continue
        if name in unchecked:
            leaf.append({"name": name, "type": opt["type"], "value": given[name]})
            continue
        where = f"/{' '.join(words)} {name}"
        value = _option_value(state, opt, given[name], resolved, where, guild)
        leaf.append({"name": name, "type": opt["type"], "value": value})

    nested: list[dict[str, Any]] = leaf
    for sub in reversed(chain):
        nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": nested,
    }
    if is_guild:
        data["guild_id"] = str(guild.id)
    if resolved.data:
        data["resolved"] = resolved.data
    return data, " ".join(words)


def _choose(opt: dict[str, Any], value: Any, where: str) -> Any:
    choices = opt.get("choices")
    if not choices:
        return value
    for choice in choices:
        if value == choice["value"] or (isinstance(value, str) and value == choice["name"]):
            return choice["value"]
    raise FakeDiscordError(
        f"{where}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
    )


def _option_value(
    state: FakeState,
    opt: dict[str, Any],
    value: Any,
    resolved: _Resolved,
    where: str,
    guild: Guild | None = None,
) -> Any:
    guild = guild or state.guild
    kind = opt["type"]
    if kind == STRING:
        value = _choose(opt, value, where)
        if not isinstance(value, str):
            raise FakeDiscordError(f"{where}: expected a string, got {value!r}")
        if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            raise FakeDiscordError(f"{where}: length {len(value)} outside the allowed range")
        return value
    if kind in (INTEGER, NUMBER):
        value = _choose(opt, value, where)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FakeDiscordError(f"{where}: expected a {TYPE_NAMES[kind]}, got {value!r}")
        if kind == INTEGER and int(value) != value:
            raise FakeDiscordError(f"{where}: expected an integer, got {value!r}")
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise FakeDiscordError(f"{where}: {value} is outside [{low}, {high}]")
        return int(value) if kind == INTEGER else float(value)
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise FakeDiscordError(f"{where}: expected a boolean, got {value!r}")
        return value
    if kind in (USER, MENTIONABLE) and _as_user(state, value) is not None:
        user = _as_user(state, value)
        assert user is not None
        resolved.add("users", user.id, user.payload())
        member = guild.members.get(user.id)
        if member is not None:
            data = member.payload(permissions=guild.permissions_of(user.id))
            data.pop("user")
            resolved.add("members", user.id, data)
        return str(user.id)
    if kind in (ROLE, MENTIONABLE):
        role = _as_role(guild, value)
        if role is None:
            raise FakeDiscordError(f"{where}: unknown role {value!r}")
        resolved.add("roles", role.id, role.payload())
        return str(role.id)
    if kind == CHANNEL:
        channel = value if isinstance(value, Channel) else state.channel(int(value))
        if channel is None:
            raise FakeDiscordError(f"{where}: unknown channel {value!r}")
        data = channel.payload()
        data["permissions"] = str(guild.permissions_of(state.bot_user.id))
        resolved.add("channels", channel.id, data)
        return str(channel.id)
    if kind == ATTACHMENT:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise FakeDiscordError(f"{where}: pass an attachment as (filename, bytes)")
        filename, blob = value
        att_id = state.snowflakes.next()
        att = Attachment(
            att_id,
            filename,
            bytes(blob),
            mimetypes.guess_type(filename)[0],
            f"https://cdn.invalid/ephemeral-attachments/{att_id}/{filename}",
            ephemeral=True,
        )
        resolved.add("attachments", att_id, att.payload())
        return str(att_id)
    raise FakeDiscordError(f"{where}: unsupported option type {kind} for value {value!r}")


def _as_user(state: FakeState, value: Any) -> User | None:
    if isinstance(value, User):
        return value
    inner = getattr(value, "user", None)
    if isinstance(inner, User):
        return inner
    if isinstance(value, int) and value in state.users:
        return state.users[value]
    if isinstance(value, str):
        return next((u for u in state.users.values() if u.name == value), None)
    return None


def _as_role(guild: Guild, value: Any) -> Role | None:
    if isinstance(value, Role):
        return value
    for role in guild.roles.values():
        if value in (role.id, role.name):
            return role
    return None


# ---------------------------------------------------------------------------
# components
# ---------------------------------------------------------------------------


def button_data(comp: Component) -> dict[str, Any]:
    return {"custom_id": comp.custom_id, "component_type": BUTTON, "id": comp.raw.get("id")}


def forged_component_data(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """Component interaction data for any custom id: a button press, or a string select
    pick of exactly ``values`` when they are given."""
    if values is None:
        return {"custom_id": custom_id, "component_type": BUTTON}
    return {"custom_id": custom_id, "component_type": STRING_SELECT, "values": values}


def forged_message_payload(message: FakeMessage, data: dict[str, Any]) -> dict[str, Any]:
    """The message as an interaction would carry it, holding the forged component: a row
    with it is added (in place of the last row when there are five already) unless the
    message has a component of that custom id and type."""
    payload = message.payload()
    kind, custom_id = data["component_type"], data["custom_id"]
    if any(
        c.get("type") == kind and c.get("custom_id") == custom_id
        for c in walk_components(payload.get("components") or [])
    ):
        return payload
    if kind == BUTTON:
        forged: dict[str, Any] = {"type": BUTTON, "style": 1, "label": "?", "custom_id": custom_id}
    else:
        offered = list(dict.fromkeys(data["values"])) or ["?"]
        forged = {
            "type": STRING_SELECT,
            "custom_id": custom_id,
            "options": [{"label": value or "?", "value": value} for value in offered],
            "min_values": 1,
            "max_values": max(1, len(data["values"])),
        }
    rows = list(payload.get("components") or [])[:4]
    payload["components"] = [*rows, {"type": ACTION_ROW, "components": [forged]}]
    return payload


def _pick_options(comp: Component, values: tuple[Any, ...] | list[Any], where: str) -> list[str]:
    picked: list[str] = []
    for v in values:
        option = next((o for o in comp.options if v == o.get("value")), None)
        option = option or next((o for o in comp.options if v == o.get("label")), None)
        if option is None:
            raise FakeDiscordError(
                f"{where}: no option {v!r}; options are {[o.get('label') for o in comp.options]}"
                f" (values {[o.get('value') for o in comp.options]})"
            )
        picked.append(option["value"])
    return picked


def select_data(
    state: FakeState,
    comp: Component,
    values: tuple[Any, ...],
    where: str,
    guild: Guild | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "custom_id": comp.custom_id,
        "component_type": comp.type,
        "id": comp.raw.get("id"),
    }
    if not comp.min_values <= len(values) <= comp.max_values:
        raise FakeDiscordError(
            f"{where}: pick {comp.min_values}-{comp.max_values} values, got {len(values)}"
        )
    if comp.type == STRING_SELECT:
        data["values"] = _pick_options(comp, values, where)
    elif comp.type == USER_SELECT:
        resolved = _Resolved()
        ids = []
        for v in values:
            user = _as_user(state, v)
            if user is None:
                raise FakeDiscordError(f"{where}: unknown user {v!r}")
            ids.append(_option_value(state, {"type": USER}, user, resolved, where, guild))
        data["values"], data["resolved"] = ids, resolved.data
    else:
        raise FakeDiscordError(f"{where}: select type {comp.type} is not supported by the fake yet")
    return data


# ---------------------------------------------------------------------------
# modals
# ---------------------------------------------------------------------------


class ModalView:
    """A modal the bot opened; ``fields`` are its inputs (text inputs, selects...)."""

    def __init__(self, rec: InteractionRecord, data: dict[str, Any]) -> None:
        self.interaction = rec
        self.raw = data
        self.title: str = data.get("title", "")
        self.custom_id: str = data.get("custom_id", "")

    @property
    def fields(self) -> list[Component]:
        out: list[Component] = []
        for top in self.raw.get("components", []):
            if top.get("type") == LABEL and isinstance(top.get("component"), dict):
                out.append(Component(top["component"], label=top.get("label")))
            else:
                out += [Component(c) for c in walk_components([top]) if c.get("custom_id")]
        return out

    def field(self, key: str) -> Component:
        for f in self.fields:
            if key in (f.custom_id, f.label):
                return f
        raise FakeDiscordError(
            f"modal {self.title!r} has no field {key!r}; fields: "
            f"{[(f.label, f.custom_id) for f in self.fields]}"
        )

    def __repr__(self) -> str:
        return f"<Modal {self.title!r} fields={[f.label or f.custom_id for f in self.fields]}>"


def modal_submit_data(
    state: FakeState, modal: ModalView, values: dict[str, Any], guild: Guild | None = None
) -> dict[str, Any]:
    """Modal submit ``data`` mirroring the modal's layout, filled with ``values``."""
    by_key: dict[str, Any] = {}
    for key, value in values.items():
        by_key[modal.field(key).custom_id] = value
    where = f"modal {modal.title!r}"

    def answer(comp: dict[str, Any], label: str | None) -> dict[str, Any]:
        ctype, cid = comp.get("type"), comp.get("custom_id")
        out: dict[str, Any] = {"type": ctype, "id": comp.get("id"), "custom_id": cid}
        name = f"{where} field {label or comp.get('label') or cid!r}"
        given = by_key.get(str(cid))
        required = comp.get("required", True)
        if ctype == TEXT_INPUT:
            text = str(given) if given is not None else str(comp.get("value") or "")
            if required and not text:
                raise FakeDiscordError(f"{name} is required")
            if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                raise FakeDiscordError(f"{name}: length {len(text)} outside the allowed range")
            out["value"] = text
        elif ctype in SELECT_TYPES or ctype == CHECKBOX_GROUP:
            chosen = [] if given is None else [given] if isinstance(given, str) else list(given)
            view = Component(comp)
            if required and not chosen and view.min_values > 0:
                raise FakeDiscordError(f"{name} is required")
            if ctype in (STRING_SELECT, CHECKBOX_GROUP):
                out["values"] = _pick_options(view, chosen, name)
            else:
                out.update(select_data(state, view, tuple(chosen), name, guild))
                out.pop("component_type", None)
        elif ctype == RADIO_GROUP:
            if given is None:
                if required:
                    raise FakeDiscordError(f"{name} is required")
                out["value"] = None
            else:
                out["value"] = _pick_options(Component(comp), [given], name)[0]
        elif ctype == CHECKBOX:
            out["value"] = bool(given)
        else:
            out.pop("custom_id")
        return out

    components: list[dict[str, Any]] = []
    for top in modal.raw.get("components", []):
        if top.get("type") == ACTION_ROW:
            children = [answer(c, None) for c in top.get("components", [])]
            components.append({"type": ACTION_ROW, "id": top.get("id"), "components": children})
        elif top.get("type") == LABEL:
            components.append(
                {
                    "type": LABEL,
                    "id": top.get("id"),
                    "component": answer(top["component"], top.get("label")),
                }
            )
        else:
            components.append({"type": top.get("type"), "id": top.get("id")})
    return {"custom_id": modal.custom_id, "components": components}


def message_components_summary(msgs: list[FakeMessage]) -> str:
    """Short text listing the clickable components of some messages (for error messages)."""
    lines = []
    for msg in msgs[-6:]:
        comps = [c for c in msg.all_components if c.type in (BUTTON, *SELECT_TYPES)]
        if comps:
            lines.append(f"  message {msg.id} ({msg.text[:40]!r}): {comps}")
    return "\n".join(lines) or "  (no components on visible messages)"

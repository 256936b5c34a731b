"""REST half of the fake: an aiohttp app answering discord.py's HTTP calls (API v10).

Every request is recorded (``FakeState.requests``); anything not implemented gets a
404 JSON error and is flagged ``unexpected`` so a test can assert there were none.
Responses use ``Content-Type: application/json`` exactly (discord.py only parses
JSON when the header is exactly that). Rule breaks (late or double interaction
callbacks, expired tokens, editing an ephemeral message through the channel,
payloads Discord would reject...) answer what Discord answers *and* record a
:class:`~.state.Violation`.
"""

from __future__ import annotations

import copy
import io
import json
import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import multipart
from aiohttp import web

from . import permissions, validation
from .clock import monotonic
from .state import (
    ATTACH_FILES,
    CH_PUBLIC_THREAD,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MSG_CHAT_INPUT_COMMAND,
    MSG_REPLY,
    Attachment,
    Channel,
    FakeMessage,
    Guild,
    InteractionRecord,
    RequestRecord,
    number_components,
)

if TYPE_CHECKING:
    from .gateway import Gateway
    from .state import FakeState

log = logging.getLogger("fakediscord.server")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# interaction callback types
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9
CALLBACK_NAMES = {
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
}
# interaction type -> callback types Discord accepts for it
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# Discord's locales (Reference, "Locales"): the only keys a command's localizations take.
LOCALES = frozenset(
    [
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    ]
)


class Upload:
    """A ``files[n]`` part of a multipart request."""

    def __init__(self, field: str, filename: str, data: bytes, content_type: str | None) -> None:
        self.field, self.filename = field, filename
        self.data, self.content_type = data, content_type
        match = re.fullmatch(r"files\[(\d+)\]", field) or re.fullmatch(r"file(\d*)", field)
        self.index = int(match.group(1) or 0) if match else None


BODY = web.RequestKey("fakediscord_body", object)
"""Parsed JSON body (or ``payload_json`` of a multipart request), None when absent."""
UPLOADS = web.RequestKey("fakediscord_uploads", list)
"""The ``files[n]`` parts of a multipart request."""
RECORD = web.RequestKey("fakediscord_record", RequestRecord)
"""This request's entry in the raw log."""
# Bigger than any upload Discord takes, so a form is parsed in memory whole.
UPLOAD_MEMORY = 256 * 1024 * 1024


def body_of(request: web.Request) -> Any:
    """The parsed JSON body of a request (see :data:`BODY`)."""
    return request[BODY]


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def error_response(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status)


def no_content() -> web.Response:
    return web.Response(status=204)


class ApiError(Exception):
    """Raised inside a handler to answer an error (and optionally record a violation)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        violation: str | None = None,
        detail: str | None = None,
        errors: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.violation, self.detail, self.errors = violation, detail, errors


def unknown_message(violation: str | None = None, detail: str | None = None) -> ApiError:
    return ApiError(404, 10008, "Unknown Message", violation=violation, detail=detail)


def bad_request(errors: list[str], what: str) -> ApiError:
    empty = any("50006" in e for e in errors)
    return ApiError(
        400,
        50006 if empty else 50035,
        "Cannot send an empty message" if empty else "Invalid Form Body",
        violation="bad-request",
        detail=f"{what}: " + "; ".join(errors),
        errors=errors,
    )


class RestApi:
    """The routes. ``fake`` supplies config (token, timeouts, base URLs) and activity hooks."""

    def __init__(self, state: FakeState, gateway: Gateway, fake: Any) -> None:
        self.state = state
        self.gateway = gateway
        self.fake = fake

    # ------------------------------------------------------------------ app
    def build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        r.add_get("/gateway", self.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.cdn_attachment)
        api = "/api/v{version:\\d+}"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/applications/{app_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/commands", self.post_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", self.get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", self.patch_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self.delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.post_command),
            (
                "GET",
                "/applications/{app_id}/guilds/{guild_id}/commands/permissions",
                self.command_permissions,
            ),
            (
                "GET",
                "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
                self.get_command,
            ),
            (
                "PATCH",
                "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
                self.patch_command,
            ),
            (
                "DELETE",
                "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
                self.delete_command,
            ),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self.webhook_execute),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_delete),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("POST", "/channels/{channel_id}/messages/bulk-delete", self.bulk_delete),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.add_reaction,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.remove_reaction,
            ),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        for method, path, handler in routes:
            r.add_route(method, api + path, handler)
            # The same API under a client's own base (``FakeDiscord.api_base_for``), so the
            # log tells which of several bot processes sent each request.
            r.add_route(method, "/as/{client}" + api + path, handler)
        r.add_route("*", "/{tail:.*}", self.unexpected)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        record = RequestRecord(request.method, request.path, dict(request.query))
        record.client = request.match_info.get("client")
        record.guild_id = self._guild_touched(request.match_info)
        request[RECORD] = record
        self.state.requests.append(record)
        self.fake._request_started()
        try:
            await self._read_body(request, record)
            if await self.fake._run_hooks(record, after=False):
                return error_response(503, 0, "dropped by a test hook")
            passage = self.fake.rate_limiter.admit(request, record)  # ratelimits.py
            try:
                response = passage.refusal or await handler(request)
            except ApiError as exc:
                if exc.violation:
                    self.state.violate(
                        exc.violation,
                        exc.detail or f"{request.method} {request.path}: {exc.message}",
                    )
                response = error_response(
                    exc.status,
                    exc.code,
                    exc.message,
                    {"_errors": [{"message": e} for e in exc.errors]} if exc.errors else None,
                )
            passage.answered(response)
            record.status = response.status
            if isinstance(response, web.Response) and response.body:
                try:
                    record.response = json.loads(response.body)  # type: ignore[arg-type]
                except (ValueError, TypeError):
                    record.response = None
            await self.fake._run_hooks(record, after=True)
            return response
        finally:
            record.finished = monotonic()
            self.fake._request_finished()

    async def _read_body(self, request: web.Request, record: RequestRecord) -> None:
        request[BODY] = None
        request[UPLOADS] = []
        if not request.body_exists:
            return
        # aiohttp's own multipart reader parses each part's headers with the `email`
        # package, which cost the capacity benchmark a tenth of a core; `multipart` reads
        # the same form a hundred times faster.
        content_type, options = multipart.parse_options_header(
            request.headers.get("Content-Type", "")
        )
        if content_type.startswith("multipart/"):
            raw = await request.read()
            uploads: list[Upload] = []
            parser = multipart.MultipartParser(
                io.BytesIO(raw),
                options.get("boundary", ""),
                # in memory: spooling a board's picture to a temporary file cost the
                # benchmark a tenth of a core; the fake's size limits are checked later
                spool_limit=UPLOAD_MEMORY,
                memory_limit=UPLOAD_MEMORY,
            )
            for part in parser:
                if part.name == "payload_json":
                    request[BODY] = json.loads(part.raw.decode())
                else:
                    uploads.append(
                        Upload(
                            part.name or "",
                            part.filename or part.name or "file",
                            part.raw,
                            part.headers.get("Content-Type"),
                        )
                    )
            request[UPLOADS] = uploads
            record.files = [(u.field, u.filename, len(u.data)) for u in uploads]
        else:
            raw = await request.read()
            if raw:
                try:
                    request[BODY] = json.loads(raw)
                except ValueError:
                    request[BODY] = raw.decode(errors="replace")
        record.json = body_of(request)

    async def unexpected(self, request: web.Request) -> web.Response:
        request[RECORD].unexpected = True
        log.warning("fake discord: unexpected request %s %s", request.method, request.path)
        return error_response(404, 0, "404: Not Found (not implemented by the fake Discord)")

    # ------------------------------------------------------------------ helpers
    def _guild_touched(self, match: Any) -> int | None:
        """The guild a request acts in: named, or that of its channel or interaction."""
        try:
            if "guild_id" in match:
                return int(match["guild_id"])
            if "channel_id" in match:
                channel = self.state.channel(int(match["channel_id"]))
                return channel.guild_id if channel else None
            rec = None
            if "interaction_id" in match:
                rec = self.state.interactions.get(int(match["interaction_id"]))
            elif "token" in match:
                rec = self.state.interactions_by_token.get(match["token"])
            return rec.channel.guild_id if rec else None
        except ValueError:
            return None

    def _require_bot_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _check_app(self, request: web.Request) -> None:
        if int(request.match_info["app_id"]) != self.state.application_id:
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation="bad-request",
                detail=f"{request.path}: wrong application id",
            )

    def _channel(self, request: web.Request) -> Channel:
        channel = self.state.channel(_snowflake(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _bot_permissions(self, channel: Channel) -> int:
        return permissions.in_channel(self.state.guild_of(channel), channel, self.state.bot_user.id)

    def _require(
        self, channel: Channel, *, send: bool = False, files: bool = False, history: bool = False
    ) -> None:
        """Refuse a bot request its permissions in `channel` do not allow, as Discord does:
        403 with 50001 (no View Channel) or 50013 (see `permissions.refusal`)."""
        have = self._bot_permissions(channel)
        refused = permissions.refusal(have, channel, send=send, files=files, history=history)
        if refused is not None:
            raise ApiError(403, *refused)

    def _response_files(self, rec: InteractionRecord, uploads: list[Upload]) -> None:
        """Files in an interaction's response or followup need the app's Attach Files in the
        interaction's channel: the one permission of the bot's that counts there (see
        README.md, "Permissions")."""
        if uploads and not self._bot_permissions(rec.channel) & ATTACH_FILES:
            raise ApiError(403, 50013, "Missing Permissions")

    def _guild(self, request: web.Request) -> Guild:
        guild = self.state.guilds.get(_snowflake(request.match_info["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        return f"{self.fake.http_base}/attachments/{channel_id}/{attachment_id}/{filename}"

    def _build_attachments(
        self,
        payload: dict[str, Any],
        uploads: list[Upload],
        channel: Channel,
        existing: list[Attachment],
        *,
        ephemeral: bool,
        editing: bool,
    ) -> list[Attachment] | None:
        """New attachment list per Discord's rules, or None when unchanged."""
        by_index = {u.index: u for u in uploads if u.index is not None}
        if "attachments" not in payload or payload["attachments"] is None:
            if not uploads:
                return None
            entries: list[dict[str, Any]] = [
                {"id": u.index if u.index is not None else i} for i, u in enumerate(uploads)
            ]
            keep = list(existing) if editing else []
        else:
            entries, keep = payload["attachments"], []
        current = {a.id: a for a in existing}
        result = list(keep)
        used: set[int] = set()
        for entry in entries:
            ident = int(entry["id"])
            if ident in current and ident not in by_index:
                result.append(current[ident])
                continue
            upload = by_index.get(ident)
            if upload is None:
                raise bad_request([f"attachments: unknown attachment id {ident}"], "message")
            used.add(ident)
            att_id = self.state.snowflakes.next()
            filename = entry.get("filename") or upload.filename
            result.append(
                Attachment(
                    id=att_id,
                    filename=filename,
                    data=upload.data,
                    content_type=upload.content_type
                    if upload.content_type not in (None, "application/octet-stream")
                    else mimetypes.guess_type(filename)[0] or "application/octet-stream",
                    url=self._attachment_url(channel.id, att_id, filename),
                    description=entry.get("description"),
                    ephemeral=ephemeral,
                )
            )
        for index, upload in by_index.items():
            if index not in used:
                # a file part nobody referenced: Discord still attaches it
                att_id = self.state.snowflakes.next()
                result.append(
                    Attachment(
                        att_id,
                        upload.filename,
                        upload.data,
                        mimetypes.guess_type(upload.filename)[0],
                        self._attachment_url(channel.id, att_id, upload.filename),
                        ephemeral=ephemeral,
                    )
                )
        return result

    def _validate(
        self,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        creating: bool,
        what: str,
        channel: Channel,
        editing: FakeMessage | None = None,
    ) -> None:
        limit = validation.upload_limit(self.state.guild_of(channel))
        sizes = [len(u.data) for u in uploads]
        too_large = validation.upload_errors(sizes, limit)
        if too_large:
            raise ApiError(
                413,
                40005,
                "Request entity too large",
                violation="too-large",
                detail=f"{what}: " + "; ".join(too_large),
                errors=too_large,
            )
        names = {u.filename for u in uploads}
        names |= {
            str(a.get("filename")) for a in payload.get("attachments") or [] if a.get("filename")
        }
        flags = payload.get("flags")
        if editing is not None:
            if "attachments" not in payload:  # an edit without the list keeps them all
                names |= {a.filename for a in editing.attachments}
            else:  # kept ones are listed by id
                kept = {str(a.get("id")) for a in payload["attachments"]}
                names |= {a.filename for a in editing.attachments if str(a.id) in kept}
            if flags is None:
                flags = editing.flags
            elif editing.flags & FLAG_COMPONENTS_V2 and not int(flags) & FLAG_COMPONENTS_V2:
                raise bad_request(["the IS_COMPONENTS_V2 flag cannot be removed"], what)
        errors = validation.message_errors(
            payload,
            file_count=len(uploads),
            file_sizes=sizes,
            creating=creating,
            file_names=frozenset(names),
            flags=int(flags or 0),
            upload_limit=limit,
        )
        if errors:
            raise bad_request(errors, what)

    def _new_bot_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        what: str,
        ephemeral_to: int | None = None,
        rec: InteractionRecord | None = None,
        original_response_id: int | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        if not loading:
            self._validate(payload, uploads, creating=True, what=what, channel=channel)
        flags = int(payload.get("flags") or 0)
        keep_flags = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        flags &= keep_flags
        if ephemeral_to is not None:
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        fields: dict[str, Any] = {
            "content": str(payload.get("content") or ""),
            "embeds": _normalize_embeds(payload.get("embeds") or []),
            "components": number_components(payload.get("components") or []),
            "flags": flags,
            "tts": bool(payload.get("tts", False)),
            "ephemeral_to": ephemeral_to,
        }
        if rec is not None:
            fields.update(
                webhook_id=self.state.application_id,
                application_id=self.state.application_id,
                interaction_id=rec.id,
                interaction_metadata=self._interaction_metadata(rec, original_response_id),
            )
            if rec.type == 2:
                fields["interaction_legacy"] = {
                    "id": str(rec.id),
                    "type": rec.type,
                    "name": rec.command_name,
                    "user": rec.user.payload(),
                }
            if rec.message is not None:
                fields["type"] = MSG_REPLY
                fields["reference"] = {"message_id": str(rec.message.id), "resolved": rec.message}
            else:
                fields["type"] = MSG_CHAT_INPUT_COMMAND
        elif payload.get("message_reference"):
            ref_id = _snowflake(payload["message_reference"].get("message_id"))
            target = self.state.messages.get(ref_id)
            if target is None or target.deleted or target.channel.id != channel.id:
                if payload["message_reference"].get("fail_if_not_exists", True):
                    raise bad_request(["message_reference: Unknown message"], what)
            else:
                fields["type"] = MSG_REPLY
                fields["reference"] = {"message_id": str(ref_id), "resolved": target}
        attachments = self._build_attachments(
            payload, uploads, channel, [], ephemeral=ephemeral_to is not None, editing=False
        )
        fields["attachments"] = attachments or []
        return self.state.new_message(channel, self.state.bot_user, **fields)

    def _interaction_metadata(
        self, rec: InteractionRecord, original_response_id: int | None
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user.payload(),
            "authorizing_integration_owners": {"0": str(rec.channel.guild_id)},
        }
        if rec.type == 2:
            data["name"] = rec.command_name
            data["command_type"] = 1
        if rec.type == 3 and rec.message is not None:
            data["interacted_message_id"] = str(rec.message.id)
        if original_response_id is not None:
            data["original_response_message_id"] = str(original_response_id)
        return data

    def _apply_edit(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        what: str,
    ) -> None:
        """PATCH semantics: only the fields present change. Fills a loading message."""
        self._validate(
            payload, uploads, creating=False, what=what, channel=msg.channel, editing=msg
        )
        attachments = self._build_attachments(
            payload, uploads, msg.channel, msg.attachments, ephemeral=msg.ephemeral, editing=True
        )
        content = str(payload["content"] or "") if "content" in payload else msg.content
        embeds = _normalize_embeds(payload["embeds"] or []) if "embeds" in payload else msg.embeds
        components = (
            number_components(payload["components"] or [])
            if "components" in payload
            else msg.components
        )
        final_attachments = msg.attachments if attachments is None else attachments
        layout = bool(msg.flags & FLAG_COMPONENTS_V2)  # a layout message is its components
        if not (components if layout else content or embeds or components or final_attachments):
            raise bad_request(["Cannot send an empty message (code 50006)"], what)
        self.state.snapshot_before_edit(msg)
        msg.content, msg.embeds, msg.components = content, embeds, components
        msg.attachments = final_attachments
        if "flags" in payload and payload["flags"] is not None:
            editable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            msg.flags = (msg.flags & ~editable) | (int(payload["flags"]) & editable)
        msg.flags &= ~FLAG_LOADING
        self.state.record("message_update", message=msg)

    # ------------------------------------------------------------------ identity
    async def get_me(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        data = self.state.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        return json_response(data)

    async def get_user(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        user = self.state.users.get(_snowflake(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        state = self.state
        return json_response(
            {
                "id": str(state.application_id),
                "name": state.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": (1 << 19) | (1 << 23),
                "owner": state.owner.payload(),
                "team": None,
                "bot": state.bot_user.payload(),
                "rpc_origins": [],
                "redirect_uris": [],
                "tags": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "install_params": None,
                "integration_types_config": {"0": {}},
                "approximate_guild_count": len(state.guilds),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    # ------------------------------------------------------------------ commands
    def _command_store(self, request: web.Request) -> tuple[dict[int, dict[str, Any]], int | None]:
        self._require_bot_auth(request)
        self._check_app(request)
        if "guild_id" in request.match_info:
            gid = self._guild(request).id
            return self.state.guild_commands.setdefault(gid, {}), gid
        return self.state.global_commands, None

    def _normalize_command(
        self, body: dict[str, Any], guild_id: int | None, existing: dict[int, dict[str, Any]]
    ) -> dict[str, Any]:
        ctype = body.get("type", 1)
        errors: list[str] = []
        name = body.get("name", "")
        if not isinstance(name, str) or not COMMAND_NAME.match(name):
            errors.append(f"name {name!r}: must be 1-32 characters of letters/digits/-/_")
        elif ctype == 1 and name != name.lower():
            errors.append(f"name {name!r}: slash command names must be lowercase")
        errors += _localization_errors(f"/{name}", body)
        if ctype == 1:
            desc = body.get("description", "")
            if not 1 <= len(desc) <= 100:
                errors.append(f"/{name}: description must be 1-100 characters, got {len(desc)}")
            errors += _option_errors(f"/{name}", body.get("options") or [])
        if errors:
            raise bad_request(errors, "application command")
        same = [c for c in existing.values() if c["name"] == name and c.get("type", 1) == ctype]
        cid = int(same[0]["id"]) if same else self.state.snowflakes.next()
        command = copy.deepcopy(body)
        command.update(
            id=str(cid),
            application_id=str(self.state.application_id),
            version=str(self.state.snowflakes.next()),
            type=ctype,
            description=body.get("description", ""),
            options=copy.deepcopy(body.get("options") or []),
            default_member_permissions=body.get("default_member_permissions"),
            dm_permission=body.get("dm_permission", True),
            nsfw=body.get("nsfw", False),
        )
        command.setdefault("contexts", None)
        command.setdefault("integration_types", [0])
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def list_commands(self, request: web.Request) -> web.Response:
        store, _ = self._command_store(request)
        return json_response(list(store.values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        store, guild_id = self._command_store(request)
        body = body_of(request) or []
        names = [(c.get("name"), c.get("type", 1)) for c in body]
        if len(names) != len(set(names)):
            raise bad_request(["application commands: duplicate command names"], "command sync")
        new = [self._normalize_command(c, guild_id, store) for c in body]
        store.clear()
        store.update({int(c["id"]): c for c in new})
        self.state.command_syncs += 1
        self.state.record("commands_synced")
        return json_response(new)

    async def post_command(self, request: web.Request) -> web.Response:
        store, guild_id = self._command_store(request)
        command = self._normalize_command(body_of(request) or {}, guild_id, store)
        created = int(command["id"]) not in store
        store[int(command["id"])] = command
        self.state.command_syncs += 1
        self.state.record("commands_synced")
        return json_response(command, 201 if created else 200)

    def _command(self, request: web.Request) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
        store, _ = self._command_store(request)
        command = store.get(_snowflake(request.match_info["command_id"]))
        if command is None:
            raise ApiError(404, 10063, "Unknown application command")
        return store, command

    async def get_command(self, request: web.Request) -> web.Response:
        _, command = self._command(request)
        return json_response(command)

    async def patch_command(self, request: web.Request) -> web.Response:
        store, command = self._command(request)
        merged = {**command, **(body_of(request) or {})}
        guild_id = int(command["guild_id"]) if command.get("guild_id") else None
        others = {k: v for k, v in store.items() if k != int(command["id"])}
        updated = self._normalize_command(merged, guild_id, others)
        updated["id"] = command["id"]
        store[int(command["id"])] = updated
        self.state.record("commands_synced")
        return json_response(updated)

    async def delete_command(self, request: web.Request) -> web.Response:
        store, command = self._command(request)
        del store[int(command["id"])]
        return no_content()

    async def command_permissions(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        return json_response([])

    # ------------------------------------------------------------------ interactions
    def _interaction_for_callback(self, request: web.Request) -> InteractionRecord:
        rec = self.state.interactions.get(_snowflake(request.match_info["interaction_id"]))
        if rec is None or rec.token != request.match_info["token"]:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation="unknown-interaction",
                detail=f"callback for an interaction the fake never sent ({request.path})",
            )
        if rec.callback_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation="double-callback",
                detail=(
                    f"{rec.description}: second callback "
                    f"(already answered with {CALLBACK_NAMES.get(rec.callback_type)})"
                ),
            )
        elapsed = monotonic() - rec.sent_at
        if rec.failed or elapsed > self.fake.interaction_timeout:
            self.fake._expire_interaction(rec)
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation="late-callback",
                detail=f"{rec.description}: callback arrived after {elapsed:.2f}s (limit 3s)",
            )
        return rec

    async def interaction_callback(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_callback(request)
        body = body_of(request) or {}
        ctype = body.get("type")
        data = body.get("data") or {}
        uploads: list[Upload] = request[UPLOADS]
        self._response_files(rec, uploads)
        allowed = set(ALLOWED_CALLBACKS.get(rec.type, set()))
        if rec.type == 5 and rec.message is None:
            allowed -= {DEFERRED_UPDATE, UPDATE}
        if ctype not in allowed:
            raise ApiError(
                400,
                40043 if ctype in (DEFERRED_UPDATE, UPDATE) else 50035,
                "Interaction callback type is not valid for this interaction",
                violation="bad-callback",
                detail=f"{rec.description}: callback type {ctype} is not allowed here",
            )
        resource: dict[str, Any] | None = None
        if ctype == MESSAGE:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self._new_bot_message(
                rec.channel,
                data,
                uploads,
                what=f"{rec.description} response",
                ephemeral_to=rec.user.id if ephemeral else None,
                rec=rec,
            )
            rec.response_message_id = msg.id
            resource = {"type": ctype, "message": msg.payload()}
        elif ctype == DEFERRED_MESSAGE:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self._new_bot_message(
                rec.channel,
                {},
                [],
                what="defer",
                ephemeral_to=rec.user.id if ephemeral else None,
                rec=rec,
                loading=True,
            )
            rec.response_message_id = msg.id
            rec.deferred_ephemeral = ephemeral
        elif ctype == DEFERRED_UPDATE:
            rec.response_message_id = rec.message.id if rec.message else None
        elif ctype == UPDATE:
            assert rec.message is not None
            if rec.message.deleted:
                raise unknown_message()
            self._apply_edit(rec.message, data, uploads, what=f"{rec.description} update")
            rec.response_message_id = rec.message.id
            resource = {"type": ctype, "message": rec.message.payload()}
        elif ctype == AUTOCOMPLETE:
            rec.autocomplete_choices = list(data.get("choices") or [])
        elif ctype == MODAL:
            errors = validation.modal_errors(data)
            if errors:
                raise bad_request(errors, f"{rec.description} modal")
            rec.modal = {**data, "components": number_components(data.get("components") or [])}
        rec.callback_type = ctype
        rec.callback_at = monotonic()
        self.state.record("callback", interaction=rec)
        if ctype == MODAL:
            self.state.record("modal", interaction=rec)
            self.fake._modal_opened(rec)
        msg_for_gateway = self.state.messages.get(rec.response_message_id or 0)
        if msg_for_gateway is not None and ctype in (MESSAGE, DEFERRED_MESSAGE):
            await self.gateway.message_created(msg_for_gateway)
        elif msg_for_gateway is not None and ctype == UPDATE:
            await self.gateway.message_updated(msg_for_gateway)

        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        response_msg = self.state.messages.get(rec.response_message_id or 0)
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        if response_msg is not None and ctype in (MESSAGE, DEFERRED_MESSAGE, UPDATE):
            info.update(
                response_message_id=str(response_msg.id),
                response_message_loading=response_msg.loading,
                response_message_ephemeral=response_msg.ephemeral,
            )
        out: dict[str, Any] = {"interaction": info}
        if resource is not None:
            out["resource"] = resource
        return json_response(out)

    # ------------------------------------------------------------------ webhooks
    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        if _snowflake(request.match_info["app_id"]) != self.state.application_id:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="bad-request",
                detail=f"{request.path}: webhook id is not the application id",
            )
        token = request.match_info["token"]
        rec = self.state.interactions_by_token.get(token)
        if rec is None:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="unknown-token",
                detail=f"{request.method} {request.path}: token of no interaction",
            )
        if self.state.token_expired(rec, self.fake.token_lifetime):
            age = self.state.clock.now() - rec.created_at
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="token-expired",
                detail=(
                    f"{request.method} webhook for {rec.description}: interaction token is "
                    f"{age.total_seconds() / 60:.1f} minutes old (tokens last 15 minutes)"
                ),
            )
        if rec.callback_type is None or rec.callback_type in (AUTOCOMPLETE,):
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="webhook-before-callback",
                detail=f"{request.method} {request.path}: {rec.description} was not acknowledged",
            )
        return rec

    def _webhook_message(self, request: web.Request, rec: InteractionRecord) -> FakeMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            mid = rec.response_message_id
            if mid is None:
                raise unknown_message(
                    "bad-request",
                    f"{request.method} @original of {rec.description}: no original response "
                    f"(callback was {CALLBACK_NAMES.get(rec.callback_type or 0)})",
                )
        else:
            mid = _snowflake(raw)
            if mid not in (rec.response_message_id, *rec.followup_ids):
                raise unknown_message(
                    "bad-request",
                    f"{request.method} {request.path}: message {mid} does not belong to "
                    f"{rec.description}",
                )
        msg = self.state.messages.get(mid)
        if msg is None or msg.deleted:
            raise unknown_message()
        return msg

    async def webhook_execute(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        if rec.callback_type == MODAL:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="bad-request",
                detail=f"followup for {rec.description}, which was answered with a modal",
            )
        payload = body_of(request) or {}
        uploads: list[Upload] = request[UPLOADS]
        self._response_files(rec, uploads)
        original = self.state.messages.get(rec.response_message_id or 0)
        if rec.callback_type == DEFERRED_MESSAGE and original is not None and original.loading:
            # Discord: the first followup after a deferred response *is* the response.
            # It replaces the "thinking" message and keeps the defer's ephemerality
            # (its own ephemeral flag is ignored).
            self._validate(
                payload,
                uploads,
                creating=True,
                what=f"{rec.description} followup",
                channel=rec.channel,
            )
            fill = {k: v for k, v in payload.items() if k != "flags"}
            layout = int(payload.get("flags") or 0) & FLAG_COMPONENTS_V2
            if layout:  # the followup's layout flag does apply
                fill["flags"] = layout
            fill.setdefault("content", "")
            fill.setdefault("embeds", [])
            fill.setdefault("components", [])
            self._apply_edit(original, fill, uploads, what=f"{rec.description} followup")
            await self.gateway.message_updated(original)
            msg = original
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self._new_bot_message(
                rec.channel,
                payload,
                uploads,
                what=f"{rec.description} followup",
                ephemeral_to=rec.user.id if ephemeral else None,
                rec=rec,
                original_response_id=rec.response_message_id,
            )
            rec.followup_ids.append(msg.id)
            await self.gateway.message_created(msg)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg.payload())
        return no_content()

    async def webhook_get(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        return json_response(self._webhook_message(request, rec).payload())

    async def webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(request, rec)
        self._response_files(rec, request[UPLOADS])
        self._apply_edit(
            msg, body_of(request) or {}, request[UPLOADS], what=f"{rec.description} edit"
        )
        await self.gateway.message_updated(msg)
        return json_response(msg.payload())

    async def webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(request, rec)
        msg.deleted = True
        self.state.record("message_delete", message=msg)
        await self.gateway.message_deleted(msg)
        return no_content()

    # ------------------------------------------------------------------ channels
    async def get_channel(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel)
        return json_response(channel.payload())

    def _channel_message(self, request: web.Request, channel: Channel, action: str) -> FakeMessage:
        msg = self.state.messages.get(_snowflake(request.match_info["message_id"]))
        if msg is None or msg.channel.id != channel.id or msg.deleted:
            raise unknown_message()
        if msg.ephemeral:
            raise unknown_message(
                "ephemeral-via-channel",
                f"{action} of ephemeral message {msg.id} through the channel endpoint: Discord "
                "only lets the interaction token (webhook) touch ephemeral messages",
            )
        return msg

    async def list_messages(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel)
        if permissions.refusal(self._bot_permissions(channel), channel, history=True):
            return json_response([])  # Discord: without Read Message History, no messages
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [
            m for m in self.state.channel_messages(channel) if not m.deleted and not m.ephemeral
        ]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        msgs = msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    async def create_message(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        payload = body_of(request) or {}
        uploads: list[Upload] = request[UPLOADS]
        if int(payload.get("flags") or 0) & FLAG_EPHEMERAL:
            raise bad_request(
                ["flags: EPHEMERAL can only be set on interaction responses"], "channel message"
            )
        # A reply (message_reference) needs Read Message History besides.
        replying = bool(payload.get("message_reference"))
        self._require(channel, send=True, files=bool(uploads), history=replying)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            # Discord: the same author sending the same nonce within a few minutes gets the
            # message it already made back, and no new message is created.
            earlier = self.state.message_by_nonce(self.state.bot_user.id, str(nonce))
            if earlier is not None:
                return json_response(earlier.payload())
        msg = self._new_bot_message(channel, payload, uploads, what=f"message in #{channel.name}")
        if nonce is not None:
            msg.nonce = str(nonce)
            self.state.nonces[(self.state.bot_user.id, msg.nonce)] = msg.id
        await self.gateway.message_created(msg)
        return json_response(msg.payload())

    async def get_message(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel, history=True)
        return json_response(self._channel_message(request, channel, "GET").payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel, files=bool(request[UPLOADS]))  # new files need Attach Files
        msg = self._channel_message(request, channel, "PATCH")
        if msg.author.id != self.state.bot_user.id:
            raise ApiError(
                403,
                50005,
                "Cannot edit a message authored by another user",
                violation="bad-request",
                detail=f"PATCH of message {msg.id} written by {msg.author.name}",
            )
        self._apply_edit(msg, body_of(request) or {}, request[UPLOADS], what=f"edit of {msg.id}")
        await self.gateway.message_updated(msg)
        return json_response(msg.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel)
        msg = self._channel_message(request, channel, "DELETE")
        msg.deleted = True
        self.state.record("message_delete", message=msg)
        await self.gateway.message_deleted(msg)
        return no_content()

    async def bulk_delete(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel)
        ids = [_snowflake(i) for i in (body_of(request) or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise bad_request(["messages: must be 2-100 message ids"], "bulk delete")
        for mid in ids:
            msg = self.state.messages.get(mid)
            if msg is not None and msg.channel.id == channel.id and not msg.ephemeral:
                msg.deleted = True
                self.state.record("message_delete", message=msg)
                await self.gateway.message_deleted(msg)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel, send=True)
        self.state.typing.append((channel.id, monotonic()))
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        channel = self._channel(request)
        self._require(channel, history=True)
        msg = self._channel_message(request, channel, "reaction")
        emoji = unquote(request.match_info["emoji"])
        msg.reactions.setdefault(emoji, set()).add(self.state.bot_user.id)
        self.state.record("reaction", message=msg)
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        msg = self._channel_message(request, self._channel(request), "reaction")
        emoji = unquote(request.match_info["emoji"])
        msg.reactions.get(emoji, set()).discard(self.state.bot_user.id)
        self.state.record("reaction", message=msg)
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        parent = self._channel(request)
        self._require(parent)
        body = body_of(request) or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise bad_request(["name: must be 1-100 characters"], "thread")
        guild = self.state.guild_of(parent)
        thread = self.state.add_channel(
            name, type=int(body.get("type", CH_PUBLIC_THREAD)), guild=guild
        )
        thread.parent_id = parent.id
        if "message_id" in request.match_info:
            start = self._channel_message(request, parent, "thread")
            # A thread started from a message shares the message's id.
            del guild.channels[thread.id]
            thread.id = start.id
            thread.type = CH_PUBLIC_THREAD
            guild.channels[thread.id] = thread
        data = {**thread.payload(), "newly_created": True}
        await self.gateway.dispatch("THREAD_CREATE", data)
        self.state.record("thread_create")
        return json_response(thread.payload(), 201)

    # ------------------------------------------------------------------ guild
    async def get_guild(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        data = self._guild(request).payload(joined_at=self.state.bot_joined_at, members=[])
        for key in ("channels", "threads", "members", "voice_states", "presences", "joined_at"):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        guild = self._guild(request)
        channels = [c.payload() for c in guild.channels.values() if not c.is_thread]
        return json_response(channels)

    async def get_roles(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        return json_response([r.payload() for r in self._guild(request).roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        guild = self._guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted(guild.members.values(), key=lambda m: m.user.id)
        return json_response([m.payload() for m in members if m.user.id > after][:limit])

    async def get_member(self, request: web.Request) -> web.Response:
        self._require_bot_auth(request)
        member = self._guild(request).members.get(_snowflake(request.match_info["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # ------------------------------------------------------------------ cdn
    async def cdn_attachment(self, request: web.Request) -> web.Response:
        aid = _snowflake(request.match_info["attachment_id"])
        for msg in self.state.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data,
                        headers={"Content-Type": att.content_type or "application/octet-stream"},
                    )
        return web.Response(status=404, text="Not Found")


def _snowflake(raw: Any) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ApiError(404, 0, f"Not a snowflake: {raw!r}") from None


def _normalize_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for embed in embeds:
        e = copy.deepcopy(embed)
        e.setdefault("type", "rich")
        for field in e.get("fields", []):
            field.setdefault("inline", False)
        e["content_scan_version"] = 0
        out.append(e)
    return out


def _localization_errors(where: str, body: dict[str, Any]) -> list[str]:
    """A command's or option's names and descriptions in other locales: known locales only,
    the names under the rules of names (lowercase), descriptions of 1-100 characters."""
    errors = []
    for locale, name in (body.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            errors.append(f"{where}: name_localizations: unknown locale {locale!r}")
        elif not COMMAND_NAME.match(name) or name != name.lower():
            errors.append(f"{where}: name_localizations.{locale} {name!r} is not a valid name")
    for locale, said in (body.get("description_localizations") or {}).items():
        if locale not in LOCALES:
            errors.append(f"{where}: description_localizations: unknown locale {locale!r}")
        elif not 1 <= len(said) <= 100:
            errors.append(f"{where}: description_localizations.{locale} must be 1-100 characters")
    return errors


def _option_errors(where: str, options: list[dict[str, Any]]) -> list[str]:
    errors: list[str] = []
    if len(options) > 25:
        errors.append(f"{where}: at most 25 options")
    seen_optional = False
    for opt in options:
        name = opt.get("name", "")
        here = f"{where} {name}"
        if not COMMAND_NAME.match(name or "") or name != name.lower():
            errors.append(f"{here}: option names must be lowercase, 1-32 characters")
        if not 1 <= len(opt.get("description") or "") <= 100:
            errors.append(f"{here}: description must be 1-100 characters")
        errors += _localization_errors(here, opt)
        for choice in opt.get("choices") or []:
            for locale, said in (choice.get("name_localizations") or {}).items():
                if locale not in LOCALES or not 1 <= len(said) <= 100:
                    errors.append(f"{here}: choice localization {locale}={said!r} refused")
        if opt.get("type") in (1, 2):
            errors += _option_errors(here, opt.get("options") or [])
            continue
        if opt.get("required"):
            if seen_optional:
                errors.append(f"{here}: required options must come before optional ones")
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            errors.append(f"{here}: at most 25 choices")
    return errors

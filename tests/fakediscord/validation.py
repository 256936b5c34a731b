"""Discord's limits on message and modal payloads.

Real Discord rejects these with 400 "Invalid Form Body" (code 50035), and a file over the
upload limit with 413 "Request entity too large" (code 40005); the fake does the same and
records a violation, so a bot bug that would only show up in production (a 101-character
custom_id, a sixth button in a row, an 11 MiB picture...) fails the test.
"""

from __future__ import annotations

from typing import Any

from .state import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    FLAG_COMPONENTS_V2,
    LABEL,
    MEDIA_GALLERY,
    SECTION,
    SELECT_TYPES,
    SEPARATOR,
    STRING_SELECT,
    TEXT_DISPLAY,
    TEXT_INPUT,
    THUMBNAIL,
    Guild,
    walk_components,
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
# The upload limit applies to each file of a request (API Reference, Uploading Files) and
# rises with the server's boost tier. These are discord.py's figures (`Guild.filesize_limit`,
# what the bot reads); Discord's reference now gives 20 MiB unboosted, so the fake is the
# stricter of the two.
UPLOAD_LIMITS = {0: MAX_FILE_SIZE, 1: MAX_FILE_SIZE, 2: 50 * 1024 * 1024, 3: 100 * 1024 * 1024}
LINK_STYLE = 5
PREMIUM_STYLE = 6


def _embed_errors(embeds: list[dict[str, Any]]) -> list[str]:
    errors: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: must be {MAX_EMBEDS} or fewer in length")
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, embed in enumerate(embeds):
        for key, limit in limits.items():
            value = embed.get(key) or ""
            total += len(value)
            if len(value) > limit:
                errors.append(f"embeds.{i}.{key}: must be {limit} or fewer in length")
        fields = embed.get("fields", [])
        if len(fields) > 25:
            errors.append(f"embeds.{i}.fields: must be 25 or fewer in length")
        for j, field in enumerate(fields):
            name, value = str(field.get("name", "")), str(field.get("value", ""))
            total += len(name) + len(value)
            if not name or len(name) > 256:
                errors.append(f"embeds.{i}.fields.{j}.name: must be 1-256 characters")
            if not value or len(value) > 1024:
                errors.append(f"embeds.{i}.fields.{j}.value: must be 1-1024 characters")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors.append(f"embeds.{i}.footer.text: must be 2048 or fewer in length")
        if len(author) > 256:
            errors.append(f"embeds.{i}.author.name: must be 256 or fewer in length")
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds: total text {total} exceeds {MAX_EMBED_TOTAL}")
    return errors


def _select_errors(where: str, comp: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    if len(comp.get("placeholder") or "") > 150:
        errors.append(f"{where}.placeholder: must be 150 or fewer in length")
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
        errors.append(f"{where}: min_values/max_values out of range ({lo}, {hi})")
    if comp.get("type") == STRING_SELECT:
        options = comp.get("options", [])
        if not 1 <= len(options) <= 25:
            errors.append(f"{where}.options: must be 1-25 options, got {len(options)}")
        if hi > len(options):
            errors.append(f"{where}.max_values: larger than the number of options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"{where}.options: option values must be unique")
        for k, opt in enumerate(options):
            for key in ("label", "value"):
                if not 1 <= len(str(opt.get(key) or "")) <= 100:
                    errors.append(f"{where}.options.{k}.{key}: must be 1-100 characters")
            if len(opt.get("description") or "") > 100:
                errors.append(f"{where}.options.{k}.description: must be 100 or fewer")
    return errors


def _custom_id_errors(components: list[dict[str, Any]]) -> list[str]:
    errors: list[str] = []
    seen: set[str] = set()
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if not 1 <= len(cid) <= 100:
            errors.append(f"custom_id {cid[:30]!r}...: must be 1-100 characters, got {len(cid)}")
        if cid in seen:
            errors.append(f"custom_id {cid!r}: component custom id cannot be duplicated")
        seen.add(cid)
    return errors


def _button_errors(where: str, comp: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    style = comp.get("style")
    if style == LINK_STYLE:
        if not comp.get("url") or comp.get("custom_id"):
            errors.append(f"{where}: link buttons need a url and no custom_id")
    elif style != PREMIUM_STYLE and not comp.get("custom_id"):
        errors.append(f"{where}: non-link buttons need a custom_id")
    if len(comp.get("label") or "") > 80:
        errors.append(f"{where}.label: must be 80 or fewer in length")
    if not comp.get("label") and not comp.get("emoji") and style != PREMIUM_STYLE:
        errors.append(f"{where}: a button needs a label or an emoji")
    return errors


def _row_errors(where: str, row: dict[str, Any]) -> list[str]:
    """An action row: one to five buttons, or one select menu alone."""
    errors: list[str] = []
    children = row.get("components", [])
    if not children:
        errors.append(f"{where}: action row is empty")
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        errors.append(f"{where}: a select menu must be alone in its action row")
    if len(children) > 5:
        errors.append(f"{where}: must be 5 or fewer components, got {len(children)}")
    for j, comp in enumerate(children):
        inner = f"{where}.components.{j}"
        if comp.get("type") == BUTTON:
            errors += _button_errors(inner, comp)
        elif comp.get("type") in SELECT_TYPES:
            errors += _select_errors(inner, comp)
        else:
            errors.append(f"{inner}: type {comp.get('type')} is not allowed in a message row")
    return errors


def component_errors(
    components: list[dict[str, Any]], flags: int = 0, files: frozenset[str] = frozenset()
) -> list[str]:
    """Errors in a message's component tree (legacy action rows, or layout components
    with the IS_COMPONENTS_V2 flag; `files` names the message's attachments)."""
    errors = _custom_id_errors(components)
    if flags & FLAG_COMPONENTS_V2:
        return errors + layout_errors(components, files)
    if len(components) > 5:
        errors.append(f"components: must be 5 or fewer action rows, got {len(components)}")
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            errors.append(
                f"components.{i}: top-level component must be an action row "
                "(set the IS_COMPONENTS_V2 flag for layout components)"
            )
            continue
        errors += _row_errors(f"components.{i}", row)
    return errors


# Layout components ("components v2", Discord's component reference): which may sit at the
# top of a message, which inside a container, and their limits.
TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
MAX_LAYOUT_COMPONENTS = 40  # every component, nested ones included
MAX_LAYOUT_TEXT = 4000  # all text displays of a message together
MAX_GALLERY_ITEMS = 10
MAX_MEDIA_DESCRIPTION = 1024


def layout_errors(components: list[dict[str, Any]], files: frozenset[str]) -> list[str]:
    """Errors in a components-v2 message: nesting, counts, text length, and media that must
    be a web address or one of the message's own attachments (`attachment://name`)."""
    errors: list[str] = []

    def media(where: str, item: Any, only_attachments: bool = False) -> None:
        url = str((item or {}).get("url") or "")
        if url.startswith("attachment://"):
            if url.removeprefix("attachment://") not in files:
                errors.append(f"{where}: {url} is not an attachment of this message")
        elif only_attachments or not url.startswith(("https://", "http://")):
            errors.append(f"{where}: media must be an attachment:// reference or a web address")

    def check(where: str, comp: dict[str, Any], allowed: set[int]) -> None:
        kind = comp.get("type")
        if kind not in allowed:
            errors.append(f"{where}: type {kind} is not allowed here")
            return
        children = comp.get("components") or []
        if kind == CONTAINER:
            if not children:
                errors.append(f"{where}: a container needs at least one component")
            for i, child in enumerate(children):
                check(f"{where}.components.{i}", child, IN_CONTAINER)
        elif kind == SECTION:
            if not 1 <= len(children) <= 3 or any(c.get("type") != TEXT_DISPLAY for c in children):
                errors.append(f"{where}: a section holds one to three text displays")
            accessory = comp.get("accessory")
            if not isinstance(accessory, dict):
                errors.append(f"{where}: a section needs an accessory (a thumbnail or a button)")
            else:
                check(f"{where}.accessory", accessory, {THUMBNAIL, BUTTON})
        elif kind == ACTION_ROW:
            errors.extend(_row_errors(where, comp))
        elif kind == BUTTON:
            errors.extend(_button_errors(where, comp))
        elif kind == TEXT_DISPLAY and not comp.get("content"):
            errors.append(f"{where}: a text display needs content")
        elif kind == THUMBNAIL:
            media(f"{where}.media", comp.get("media"))
        elif kind == MEDIA_GALLERY:
            items = comp.get("items") or []
            if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
                errors.append(f"{where}.items: must be 1-{MAX_GALLERY_ITEMS} items")
            for i, item in enumerate(items):
                media(f"{where}.items.{i}.media", item.get("media"))
                if len(item.get("description") or "") > MAX_MEDIA_DESCRIPTION:
                    errors.append(f"{where}.items.{i}.description: too long")
        elif kind == FILE:
            media(f"{where}.file", comp.get("file"), only_attachments=True)

    for i, comp in enumerate(components):
        check(f"components.{i}", comp, TOP_LEVEL)
    every = list(walk_components(components))
    if len(every) > MAX_LAYOUT_COMPONENTS:
        errors.append(f"components: at most {MAX_LAYOUT_COMPONENTS} components, got {len(every)}")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > MAX_LAYOUT_TEXT:
        errors.append(f"components: text displays hold {text} characters, over {MAX_LAYOUT_TEXT}")
    return errors


def message_errors(
    payload: dict[str, Any],
    *,
    file_count: int,
    file_sizes: list[int],
    creating: bool,
    existing_attachments: int = 0,
    file_names: frozenset[str] = frozenset(),
    flags: int | None = None,
    upload_limit: int = MAX_FILE_SIZE,
) -> list[str]:
    """Errors for a message create (``creating``) or edit payload. `flags` are the
    message's flags after the change (an edit may leave them out of its payload);
    `upload_limit` is the guild's, for each file."""
    errors: list[str] = []
    flags = int(payload.get("flags") or 0) if flags is None else flags
    if flags & FLAG_COMPONENTS_V2 and (payload.get("content") or payload.get("embeds")):
        errors.append("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        errors.append(f"content: must be {MAX_CONTENT} or fewer in length, got {len(str(content))}")
    errors += _embed_errors(payload.get("embeds") or [])
    if payload.get("components"):
        errors += component_errors(payload["components"], flags, file_names)
    if file_count > MAX_FILES:
        errors.append(f"files: at most {MAX_FILES} attachments")
    errors += upload_errors(file_sizes, upload_limit)
    if creating:
        empty = (
            not content
            and not payload.get("embeds")
            and not file_count
            and not payload.get("sticker_ids")
            and not payload.get("poll")
            and not payload.get("components")
        )
        if empty:
            return [*errors, "Cannot send an empty message (code 50006)"]
    return errors


def upload_limit(guild: Guild) -> int:
    """What one file may weigh in `guild`: a test's own limit, else its boost tier's."""
    if guild.upload_limit is not None:
        return guild.upload_limit
    return UPLOAD_LIMITS.get(guild.premium_tier, MAX_FILE_SIZE)


def upload_errors(file_sizes: list[int], limit: int = MAX_FILE_SIZE) -> list[str]:
    """Files over the upload limit, each on its own (Discord answers 413, code 40005)."""
    return [
        f"files.{i}: {size} bytes is over the {limit} byte upload limit"
        for i, size in enumerate(file_sizes)
        if size > limit
    ]


def modal_errors(data: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    if not 1 <= len(data.get("title") or "") <= 45:
        errors.append("modal.title: must be 1-45 characters")
    if not 1 <= len(data.get("custom_id") or "") <= 100:
        errors.append("modal.custom_id: must be 1-100 characters")
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.append(f"modal.components: must be 1-5 components, got {len(components)}")
    errors += _custom_id_errors(components)
    for comp in walk_components(components):
        if comp.get("type") == TEXT_INPUT:
            label = comp.get("label")
            if label is not None and not 1 <= len(label) <= 45:
                errors.append(
                    f"text input {comp.get('custom_id')!r}: label must be 1-45 characters"
                )
            if comp.get("max_length", 4000) > 4000:
                errors.append(f"text input {comp.get('custom_id')!r}: max_length over 4000")
        elif comp.get("type") == LABEL and not 1 <= len(comp.get("label") or "") <= 45:
            errors.append("modal label: must be 1-45 characters")
    return errors

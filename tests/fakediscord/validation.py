"""Discord's limits on message and modal payloads.

Real Discord rejects these with 400 "Invalid Form Body" (code 50035); the fake does
the same and records a violation, so a bot bug that would only show up in
production (a 101-character custom_id, a sixth button in a row...) fails the test.
"""

from __future__ import annotations

from typing import Any

from .state import (
    ACTION_ROW,
    BUTTON,
    FLAG_COMPONENTS_V2,
    LABEL,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    walk_components,
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
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


def component_errors(components: list[dict[str, Any]], flags: int = 0) -> list[str]:
    """Errors in a message's component tree (legacy action rows or components v2)."""
    errors = _custom_id_errors(components)
    if flags & FLAG_COMPONENTS_V2:
        if sum(1 for _ in walk_components(components)) > 40:
            errors.append("components: at most 40 components in a components-v2 message")
        for comp in walk_components(components):
            if comp.get("type") == BUTTON:
                errors += _button_errors("components", comp)
            elif comp.get("type") in SELECT_TYPES:
                errors += _select_errors("components", comp)
        return errors
    if len(components) > 5:
        errors.append(f"components: must be 5 or fewer action rows, got {len(components)}")
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            errors.append(
                f"components.{i}: top-level component must be an action row "
                "(set the IS_COMPONENTS_V2 flag for layout components)"
            )
            continue
        children = row.get("components", [])
        if not children:
            errors.append(f"components.{i}: action row is empty")
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if selects and len(children) > 1:
            errors.append(f"components.{i}: a select menu must be alone in its action row")
        if len(children) > 5:
            errors.append(f"components.{i}: must be 5 or fewer components, got {len(children)}")
        for j, comp in enumerate(children):
            where = f"components.{i}.components.{j}"
            if comp.get("type") == BUTTON:
                errors += _button_errors(where, comp)
            elif comp.get("type") in SELECT_TYPES:
                errors += _select_errors(where, comp)
            else:
                errors.append(f"{where}: type {comp.get('type')} is not allowed in a message row")
    return errors


def message_errors(
    payload: dict[str, Any],
    *,
    file_count: int,
    file_sizes: list[int],
    creating: bool,
    existing_attachments: int = 0,
) -> list[str]:
    """Errors for a message create (``creating``) or edit payload."""
    errors: list[str] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        errors.append(f"content: must be {MAX_CONTENT} or fewer in length, got {len(str(content))}")
    errors += _embed_errors(payload.get("embeds") or [])
    if payload.get("components"):
        errors += component_errors(payload["components"], int(payload.get("flags") or 0))
    if file_count > MAX_FILES:
        errors.append(f"files: at most {MAX_FILES} attachments")
    for size in file_sizes:
        if size > MAX_FILE_SIZE:
            errors.append(f"files: {size} bytes is over the {MAX_FILE_SIZE} byte upload limit")
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

"""Discord's limits on what one message carries, and the cuts that keep the bot's text within
them. A leaf: everything that sends a message reads it.

Each text is cut in one place, where it is built, keeping what matters and saying what went
(never in the middle of a word): a board's log lines keep the newest (`fit_lines`), a page
or a reply keeps its start (`clip`). Files stay under the upload limit of the guild they go
to (`upload_limit`): each, and all of a message's together.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from lang import ENGLISH, say
from rules.phrases import phrase_n

# Discord's documented limits (developer docs, by section).
MAX_CONTENT = 2000  # a message's content (Message resource, Create Message)
MAX_LAYOUT_TEXT = 4000  # all text displays of a components-v2 message (Component reference)
MAX_LAYOUT_COMPONENTS = 40  # all components of such a message, nested ones too (same)
MAX_FILES = 10  # attachments of one message (Create Message, files[n])
# Controls (Component reference): a button's label, a menu's placeholder, an option's
# label and description; cut at a word, never inside one (`clip`).
MAX_BUTTON_LABEL = 80
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 100
# Embeds (Message resource, Embed Limits): the total counts every title, description, field,
# footer and author name of a message's embeds.
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_EMBED_TOTAL = 6000

# Uploads: the limit is per file, by the guild's boost tier (API Reference, Uploading Files;
# discord.py's `Guild.filesize_limit`: 10 MiB unboosted). The bot keeps a margin under it for
# the request around the files, and keeps a message's files together under it too.
UPLOAD_SHARE = 0.9

MORE = "…"


def clip(text: str, limit: int) -> str:
    """`text` within `limit` characters: whole, or cut at the end of a line (one in its
    second half), else of a word, with "…" after it."""
    if len(text) <= limit:
        return text
    room = limit - len(MORE) - 1  # what is kept, then a space or a line break, then "…"
    if room < 1:
        return MORE[:limit]
    head = text[: room + 1]  # a break just after the room cuts there too
    line = head.rfind("\n")
    if line >= room // 2:
        return f"{text[:line].rstrip()}\n{MORE}"
    space = max(head.rfind(" "), line)
    return f"{text[: space if space > 0 else room].rstrip()} {MORE}"


def fit_lines(
    header: str, lines: Sequence[str], footer: str, limit: int, language: str = ENGLISH
) -> str:
    """Header, the newest of `lines` that fit, footer, within `limit` characters. Lines
    left out are counted ("… 12 earlier lines", in `language`), not cut; the header and
    the footer (whose turn it is, the standings) always stay, clipped only if they alone
    would take most of the room."""
    footer = clip(footer, limit // 2)
    header = clip(header, limit // 4)
    budget = limit - len(header) - len(footer) - 2  # the line breaks around the body
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        left = len(lines) - len(kept) - 1  # left out if this one is kept
        note = len(earlier(left, language)) + 1 if left else 0
        if used + len(line) + note > budget:
            break
        kept.append(line)
        used += len(line) + 1
    if lines and not kept:  # the newest line alone is too long: its start
        left = len(lines) - 1
        room = budget - (len(earlier(left, language)) + 1 if left else 0)
        if room > 2 * len(MORE) + 1:
            kept.append(clip(lines[-1], room))
    left = len(lines) - len(kept)
    body = (
        [earlier(left, language)] if left and len(earlier(left, language)) + used <= budget else []
    )
    body += reversed(kept)
    return "\n".join(part for part in (header, "\n".join(body), footer) if part)


def earlier(count: int, language: str = ENGLISH) -> str:
    """The note standing for lines left out above the ones kept."""
    return f"{MORE} " + say(phrase_n("{n} earlier line", "{n} earlier lines", count), language)


def guild_upload_limit(guild: discord.Guild | None) -> int:
    """What one file may weigh in `guild` (its boost tier's limit; unboosted without one)."""
    return (
        guild.filesize_limit if guild is not None else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    )


def upload_limit(interaction: discord.Interaction) -> int:
    """What one file may weigh in an answer to `interaction`: the lower of the limit
    Discord gave the interaction (it counts the user's Nitro too, and the bot has none)
    and the guild's."""
    return min(interaction.filesize_limit, guild_upload_limit(interaction.guild))


def upload_budget(limit: int, reserved: int = 0) -> int:
    """The bytes a message's files may take together under an upload `limit`: the margin
    kept, less `reserved` for the rest of the request."""
    return int(limit * UPLOAD_SHARE) - reserved


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """`embed` within Discord's embed limits: each text clipped to its own, then, while the
    whole passes 6,000 characters, its last fields left off (they come last in what it
    says: the oldest game, the least urgent fact), then its description clipped."""
    if embed.title:
        embed.title = clip(embed.title, MAX_EMBED_TITLE)
    if embed.description:
        embed.description = clip(embed.description, MAX_EMBED_DESCRIPTION)
    fields = [
        (clip(f.name or "", MAX_FIELD_NAME), clip(f.value or "", MAX_FIELD_VALUE), f.inline)
        for f in embed.fields[:MAX_EMBED_FIELDS]
    ]
    footer = clip(embed.footer.text or "", MAX_FOOTER) if embed.footer.text else None

    def total() -> int:
        texts = [embed.title, embed.description, footer, embed.author.name]
        return sum(len(t or "") for t in texts) + sum(len(n) + len(v) for n, v, _ in fields)

    while fields and total() > MAX_EMBED_TOTAL:
        fields.pop()
    if total() > MAX_EMBED_TOTAL and embed.description:
        embed.description = clip(
            embed.description, len(embed.description) - total() + MAX_EMBED_TOTAL
        )
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if footer is not None:
        embed.set_footer(text=footer, icon_url=embed.footer.icon_url)
    return embed

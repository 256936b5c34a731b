"""The pages of each game's `/rules`: its plug-in's `guide` (`cogs/<game>/guide.md`), each
`## ` heading starting a page. Points the rulebook leaves open are marked there as table
rules of this bot. The text files are wrapped for reading in an editor; each page is
reflowed (`reflow`) so that Discord wraps it to the reader's screen instead, a phone's
included.

Each page's title and text are a catalogue entry of their own (in the senses `TITLE` and
`PAGE`), so a language translates a page as a whole.
"""

from __future__ import annotations

import re
from functools import cache

from cogs.shared.plugin import PLUGINS

TITLE = "rules page title"
PAGE = "rules page"

LIST_ITEM = re.compile(r"\s*(?:[-*•]|\d+\.)\s")


def reflow(text: str) -> str:
    """`text` with each paragraph and list item on one line: a line break stays only
    between paragraphs (a blank line) and before a list item."""
    lines: list[str] = []
    for line in text.splitlines():
        if lines and lines[-1] and line.strip() and not LIST_ITEM.match(line):
            lines[-1] = f"{lines[-1]} {line.strip()}"
        else:
            lines.append(line.rstrip())
    return "\n".join(lines)


@cache
def pages(kind: str) -> list[tuple[str, str]]:
    """(title, body) for each `## ` section of a game's rules text, reflowed."""
    text = PLUGINS[kind].guide.read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    return [(s.split("\n", 1)[0].strip(), reflow(s.split("\n", 1)[1].strip())) for s in sections]

"""`/rules` pages: reflowed, so Discord wraps them to the reader's screen (issue 14)."""

from __future__ import annotations

import pytest

from bot.extensions import walk_extensions
from cogs.guide._cog import LIST_ITEM, pages, reflow
from cogs.shared.plugin import PLUGINS

walk_extensions("cogs")


def test_reflow_joins_a_paragraph_and_keeps_lists_and_paragraph_breaks() -> None:
    text = "One line\nand its tail.\n\n- an item\n  wrapped\n- another\n1. first\n2. second"
    assert (
        reflow(text)
        == "One line and its tail.\n\n- an item wrapped\n- another\n1. first\n2. second"
    )


@pytest.mark.parametrize("kind", sorted(PLUGINS))
def test_no_rules_page_breaks_a_line_inside_a_paragraph(kind: str) -> None:
    """Every line break on a page ends a paragraph or comes before a list item, and the
    words are those of the text file, in order."""
    source = PLUGINS[kind].guide.read_text(encoding="utf-8")
    for title, body in pages(kind):
        for before, after in zip(body.splitlines(), body.splitlines()[1:], strict=False):
            assert not before or not after or LIST_ITEM.match(after), (kind, title, after)
        section = source.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
        assert body.split() == section.split()


def test_brawl_rules_say_the_garbage_truck_takes_nothing_in_rummy() -> None:
    """Issue 36: the Rummy table rule for the Garbage Truck is on the pages `/rules` shows,
    on the Rummy page and among the table rules."""
    shown = dict(pages("brawl"))
    assert "A Garbage Truck makes nobody discard." in shown["Round Rummage Rummy"]
    assert "there a Garbage Truck drives past" in shown["Table rules of this bot"]

"""Columns lined up by the cells characters take in a code block (cogs/shared/columns.py)."""

from __future__ import annotations

from cogs.shared.columns import cut_to_width, display_width, pad


def test_wide_characters_take_two_cells_and_marks_none() -> None:
    assert display_width("Bob") == 3
    assert display_width("王小明") == 6  # CJK
    assert display_width("🦝✨") == 4  # emoji
    assert display_width("❤️") == 2  # a narrow heart made an emoji by U+FE0F
    assert display_width("Zoe\u0301") == 3  # a combining accent
    assert display_width("👩\u200d💻") == 2  # pictographs joined into one emoji
    assert display_width("👍🏽") == 2  # a skin tone
    assert display_width("🇫🇷🇯🇵") == 4  # two flags, of two regional letters each
    assert display_width("Ａｎｎ") == 6  # full-width letters


def test_padding_and_cutting_keep_to_the_cells() -> None:
    for name in ["Zoë 王小明 🦝✨", "Bob", "Ａｎｎ ❤️", "a" * 30, "王" * 20]:
        assert display_width(pad(name, 12)) == 12
        assert display_width(pad(name, 12, right=True)) == 12
    assert cut_to_width("王小明王小明", 7) == "王小明…"
    assert pad("Bob", 5, right=True) == "  Bob"

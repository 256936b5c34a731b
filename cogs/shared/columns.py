"""Text columns in a monospaced block, lined up by how wide each character is drawn rather
than by how many there are: a CJK character or an emoji takes two cells of a code block,
an accent or a variation selector none, so names padded by their length push the columns
after them out of line."""

from __future__ import annotations

import unicodedata

from cogs.shared.limits import MORE

EMOJI_PRESENTATION = "\ufe0f"  # turns the character before it into a (wide) emoji
JOINER = "\u200d"
SKIN_TONES = ("\U0001f3fb", "\U0001f3ff")
REGIONAL = ("\U0001f1e6", "\U0001f1ff")  # two of these letters make one flag
ZERO_WIDTH = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufe0e", EMOJI_PRESENTATION}


def char_width(char: str) -> int:
    """The cells one character takes: 0 for marks and joiners, 2 for wide and full-width
    characters (CJK, most emoji), 1 otherwise."""
    if char in ZERO_WIDTH or unicodedata.combining(char):
        return 0
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    if category == "So" and ord(char) >= 0x1F000:  # emoji pictographs the table calls neutral
        return 2
    return 1


def display_width(text: str) -> int:
    """The cells `text` takes. Emoji sequences are drawn as one emoji (two cells): a
    character followed by U+FE0F, pictographs joined by U+200D, a skin tone after its
    emoji, and a flag's two regional letters."""
    width, flag_half = 0, False
    for index, char in enumerate(text):
        if text[index - 1 : index] == JOINER or SKIN_TONES[0] <= char <= SKIN_TONES[1]:
            continue  # drawn into the emoji before it
        if REGIONAL[0] <= char <= REGIONAL[1]:
            width += 0 if flag_half else 2
            flag_half = not flag_half
            continue
        flag_half = False
        wide = text[index + 1 : index + 2] == EMOJI_PRESENTATION
        width += 2 if wide and char_width(char) == 1 else char_width(char)
    return width


def cut_to_width(text: str, width: int) -> str:
    """`text` in at most `width` cells: whole, or its start with "…" after it."""
    if display_width(text) <= width:
        return text
    kept = ""
    for char in text:
        if display_width(kept + char) > width - len(MORE):
            break
        kept += char
    # a joiner or selector left dangling at the cut would join the emoji to "…"
    return kept.rstrip("".join(ZERO_WIDTH)) + MORE


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` cut to `width` cells, then padded with spaces to exactly `width` (aligned
    left, or `right`)."""
    text = cut_to_width(text, width)
    fill = " " * (width - display_width(text))
    return fill + text if right else text + fill

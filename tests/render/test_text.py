"""Every name drawn right (issue 14): the bundled Noto faces draw names in Latin with
accents, Cyrillic, Greek, CJK and emoji as they are written, no glyph missing."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageChops, ImageDraw

from render.common import text
from render.common.text import (
    FACES,
    clean_text,
    display_name,
    face,
    runs,
    text_mask,
    text_width,
)

NAMES = {
    "Latin with accents": "Zoë Ångström-Łukasz Straße",
    "Cyrillic": "Ёжик Толстой",
    "Greek": "Σοφία Παπαδοπούλου",
    "CJK": "名無しさん 김민준 王小明",
    "emoji": "🦝 Rocky 🔥",
}


def missing(index: int, size: int = 24) -> bytes:
    """What face `index` draws for a character it lacks (its "tofu" box)."""
    return bytes(face(index, size).getmask("\ue000"))


@pytest.mark.parametrize("script", sorted(NAMES))
def test_a_name_keeps_every_character_and_each_has_its_glyph(script: str) -> None:
    name = NAMES[script]
    assert display_name(name, "Player 1") == unicodedata.normalize("NFC", name)
    drawn = "".join(part for _, part in runs(clean_text(name)))
    assert drawn == name
    for index, part in runs(clean_text(name)):
        for char in part.replace(" ", ""):
            assert bytes(face(index, 24).getmask(char)) != missing(index), (script, char)


@pytest.mark.parametrize("script", sorted(NAMES))
def test_a_name_in_another_face_is_drawn_and_wider_than_its_first_letter(script: str) -> None:
    """The runs are set side by side: the mask is as wide as the text measures, and it
    is inked along its whole width."""
    name = clean_text(NAMES[script])
    mask, _, _ = text_mask(name, 24)
    first, _, _ = text_mask(name[0], 24)
    assert mask.width > first.width * 3
    assert abs(mask.width - text_width(name, 24)) <= 6
    ink = mask.getbbox()
    assert ink is not None and ink[2] - ink[0] >= mask.width - 8


def test_what_no_face_draws_is_left_out_and_a_name_of_nothing_falls_back() -> None:
    assert clean_text("Zoe\u200b Ann\u0007") == "Zoe Ann"  # a zero-width space, a bell
    assert clean_text("👨\u200d👩\u200d👧") == "👨👩👧"  # joiners go, the people stay
    assert display_name("\u200b\u200b", "Player 4") == "Player 4"


def test_the_faces_are_shipped_with_their_licence() -> None:
    folder = text.FONT_FOLDER
    assert all((folder / name).is_file() for name in FACES)
    assert "SIL Open Font License" in (folder / "OFL.txt").read_text(encoding="utf-8")


# Lines the issue saw spaced unevenly ("Ru mble 1"), and a line of each script.
LINES = ["Rumble 1", "your better", "30 turns", "2 make a set", *NAMES.values()]


@pytest.mark.parametrize("size", [11, 12, 14, 17, 22])
def test_a_line_advances_as_far_as_its_glyphs_and_is_drawn_glyph_by_glyph(size: int) -> None:
    """Even lettering (issue 38): each glyph advances by a whole pixel, its hinted width as
    drawn, and a line by the sum of those; drawn whole, a line has the very pixels of its
    glyphs drawn one by one at those advances. With RAQM the advances were unhinted
    fractions, so hinted glyphs sat unevenly ("Ru mble 1")."""
    for line in LINES:
        shown = clean_text(line)
        glyphs = [text_width(char, size) for char in shown]
        assert all(advance == int(advance) for advance in glyphs), (line, glyphs)
        assert text_width(shown, size) == sum(glyphs), line
        for index, part in runs(shown):
            font = face(index, size)
            whole = Image.new("L", (round(font.getlength(part)) + 2 * size, 3 * size), 0)
            ImageDraw.Draw(whole).text((size, 2 * size), part, font=font, fill=255, anchor="ls")
            pieced, pen = Image.new("L", whole.size, 0), size
            for char in part:
                glyph = Image.new("L", whole.size, 0)
                ImageDraw.Draw(glyph).text((pen, 2 * size), char, font=font, fill=255, anchor="ls")
                pieced = ImageChops.screen(pieced, glyph)  # overlapping ink as Pillow merges it
                pen += round(font.getlength(char))
            # (a level or two apart where ink overlaps: Pillow rounds its blend differently)
            assert ImageChops.difference(whole, pieced).getextrema()[1] <= 2, (line, part, size)


def cut_a_character_at_a_time(text: str, max_width: int, size: int) -> str:
    """How fit_text cut a text too wide at its smallest size before it added advances up:
    a character off the end, measured again, until the text and its "…" fit."""
    if text_width(text, size) <= max_width:
        return text
    cut = text
    while cut and text_width(cut + "…", size) > max_width:
        cut = cut[:-1]
    return cut.rstrip() + "…" if cut else ""


def test_a_text_is_cut_where_measuring_every_shorter_text_would_cut_it() -> None:
    """fit_text finds the cut from the characters' advances: the very cut of measuring the
    text again a character shorter each time, in every script and at every width."""
    mixed = " ".join(NAMES.values()) + " threw the Toaster (2) at Bob's left wall"
    for size in (11, 14, 20):
        for max_width in (0, 3, 9, 40, 77, 150, 333):
            for shown in (mixed, mixed[::-1], "Wide   spaces  here", "…" * 9):
                expected = cut_a_character_at_a_time(clean_text(shown), max_width, size)
                assert text.fit_text(shown, max_width, size) == (expected, size)

"""Rumble pictures: every phase renders, at the right size, with a few pixel facts checked.

The observations are hand-made in `samples.py`; the engine is never imported.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import common, rumble
from render.common import HIGHLIGHT, TORCH, Box, Colour
from render.rumble.reveal import _whereabouts
from rules.rumble.observation import RumbleObservation
from tests.render import samples

PHASES = {
    "start, 4 players": (samples.start(4), samples.NAMES[:4]),
    "start, 2 players": (samples.start(2), samples.NAMES[:2]),
    "mid rumble, crowded": (samples.crowded(4), samples.NAMES[:4]),
    "all twelve in one room": (samples.everyone_in_one_room(3), samples.NAMES[:3]),
    "seven and four in rooms": (samples.crowded_rooms(5), samples.NAMES[:5]),
    "chest gone, 6 long names": (samples.chest_gone(6), samples.LONG_NAMES),
    "eleven out": (samples.long_exit_line(6), samples.NAMES),
    "finished": (samples.finished(4), samples.NAMES[:4]),
    "finished, shared win, 2 players": (samples.finished(2, tie=True), samples.NAMES[:2]),
    "names missing": (samples.crowded(4), []),
}


def board(obs: RumbleObservation, names: list[str]) -> Image.Image:
    image = Image.open(io.BytesIO(rumble.draw_dungeon(obs, names)))
    image.load()
    return image


def colours_in(image: Image.Image, box: Box) -> set[Colour]:
    region = image.convert("RGB").crop(box)
    found = region.getcolors(maxcolors=region.width * region.height) or []
    return {colour for _, colour in found}


def share_of(image: Image.Image, box: Box, colour: Colour) -> float:
    region = image.convert("RGB").crop(box)
    found = dict((c, n) for n, c in region.getcolors(region.width * region.height) or [])
    return found.get(colour, 0) / (region.width * region.height)


def room_box(obs: RumbleObservation, room: str) -> Box:
    tile = next(t for t in obs["tiles"] if t["room"] == room)
    return rumble.tile_box(tile["row"], tile["col"])


@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_renders_a_png_of_the_board_size(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    assert image.format == "PNG"
    assert image.size == rumble.BOARD_SIZE


@pytest.mark.parametrize("phase", ["start, 4 players", "mid rumble, crowded", "eleven out"])
def test_the_player_to_act_has_a_highlighted_row(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    for seat in range(obs["seats"]):
        share = share_of(image, rumble.player_row_box(seat), HIGHLIGHT)
        if seat in obs["to_act"]:
            assert share > 0.5, f"seat {seat} should be highlighted"
        else:
            assert share == 0, f"seat {seat} should not be highlighted"


def test_a_finished_game_highlights_nobody_and_frames_the_winner() -> None:
    obs, names = PHASES["finished"]
    image = board(obs, names)
    winner = obs["totals"].index(max(obs["totals"]))
    for seat in range(obs["seats"]):
        box = rumble.player_row_box(seat)
        assert share_of(image, box, HIGHLIGHT) == 0
        framed = TORCH in colours_in(image, (box[0], box[1], box[0] + 4, box[3]))
        assert framed == (seat == winner)


def test_a_shared_win_frames_every_winner() -> None:
    obs, names = PHASES["finished, shared win, 2 players"]
    image = board(obs, names)
    for seat in (0, 1):
        box = rumble.player_row_box(seat)
        assert TORCH in colours_in(image, (box[0], box[1], box[0] + 4, box[3]))


def test_the_chest_is_drawn_in_its_room_only() -> None:
    obs, names = PHASES["mid rumble, crowded"]
    image = board(obs, names)
    for tile in obs["tiles"]:
        present = rumble.CHEST_WOOD in colours_in(image, room_box(obs, tile["room"]))
        assert present == (tile["room"] == obs["chest"]), tile["room"]


def test_a_chest_that_left_is_in_no_room_but_beside_the_exit_line() -> None:
    obs, names = PHASES["chest gone, 6 long names"]
    assert obs["chest"] is None
    image = board(obs, names)
    for tile in obs["tiles"]:
        assert rumble.CHEST_WOOD not in colours_in(image, room_box(obs, tile["room"]))
    assert rumble.CHEST_WOOD in colours_in(image, rumble.EXIT_BOX)
    escaped = rumble.CHARACTER_COLOURS["thief"]
    assert escaped in colours_in(image, rumble.EXIT_BOX)


@pytest.mark.parametrize("phase", ["mid rumble, crowded", "all twelve in one room", "eleven out"])
def test_each_character_is_drawn_in_its_room(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    for key, room in obs["positions"].items():
        assert rumble.CHARACTER_COLOURS[key] in colours_in(image, room_box(obs, room)), key


@pytest.mark.parametrize("phase", ["mid rumble, crowded", "chest gone, 6 long names"])
def test_characters_out_of_the_dungeon_are_in_no_room(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    gone = [key for key in samples.ALL if key not in obs["positions"]]
    assert gone
    for key in gone:
        for tile in obs["tiles"]:
            colours = colours_in(image, room_box(obs, tile["room"]))
            assert rumble.CHARACTER_COLOURS[key] not in colours, (key, tile["room"])
    exit_colours = colours_in(image, rumble.EXIT_BOX)
    for key in obs["exit_line"]:
        assert rumble.CHARACTER_COLOURS[key] in exit_colours, key


def test_the_public_board_never_draws_a_secret() -> None:
    public, names = PHASES["mid rumble, crowded"]
    own = samples.with_secret(public, 1, ["thief", "cube"])
    assert rumble.draw_dungeon(public, names) == rumble.draw_dungeon(own, names)


def test_rendering_is_deterministic() -> None:
    obs, names = PHASES["eleven out"]
    assert rumble.draw_dungeon(obs, names) == rumble.draw_dungeon(obs, names)


def test_the_secret_shows_both_characters() -> None:
    own = samples.with_secret(samples.chest_gone(4), 2, ["thief", "barbarian"])
    image = Image.open(io.BytesIO(rumble.draw_secret(own, "Cyrielle")))
    assert image.size == rumble.SECRET_SIZE
    colours = colours_in(image, (0, 0, *image.size))
    assert rumble.CHARACTER_COLOURS["thief"] in colours
    assert rumble.CHARACTER_COLOURS["barbarian"] in colours
    assert rumble.CHARACTER_COLOURS["knight"] not in colours


def test_whereabouts_follow_the_public_facts() -> None:
    obs = samples.chest_gone(4)
    assert str(_whereabouts(obs, "thief")) == "Escaped with the chest!"
    assert str(_whereabouts(obs, "knight")) == "Out, 2nd"
    assert str(_whereabouts(obs, "cube")) == "In room D3"


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_the_reveal_has_a_row_per_player(seats: int) -> None:
    result = samples.result(2, seats, chest=None if seats == 3 else "thief")
    image = Image.open(io.BytesIO(rumble.draw_reveal(result, samples.LONG_NAMES[:seats])))
    assert image.format == "PNG"
    assert image.width == rumble.REVEAL_WIDTH
    assert image.height == 100 + seats * 64
    colours = colours_in(image, (0, 0, *image.size))
    for pair in result["secrets"]:
        for key in pair:
            assert rumble.CHARACTER_COLOURS[key] in colours, key


def test_character_tables_cover_every_character() -> None:
    from rules.rumble.characters import CHARACTERS

    assert set(rumble.CHARACTER_COLOURS) == set(CHARACTERS)
    assert set(rumble.CHARACTER_MARKS) == set(CHARACTERS)
    assert len(set(rumble.CHARACTER_COLOURS.values())) == len(CHARACTERS)
    assert len(set(rumble.CHARACTER_MARKS.values())) == len(CHARACTERS)


# --- common helpers ---------------------------------------------------------------------


def test_fit_text_shrinks_then_cuts() -> None:
    assert common.fit_text("Troll", 200, 16, 10) == ("Troll", 16)
    text, size = common.fit_text("Gelatinous Cube", 60, 16, 10)
    assert size == 10 and text.endswith("…")
    assert common.text_width(text, size) <= 60


def test_ordinal() -> None:
    assert [common.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]

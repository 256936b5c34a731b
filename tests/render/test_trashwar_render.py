"""Trash War pictures: every phase renders at the right size, with pixel facts checked.

The observations are hand-made in `trashwar_samples.py`; the engine is never imported.
"""

from __future__ import annotations

import copy
import io
import itertools

import pytest
from PIL import Image

from render import trashwar
from render.common import HIGHLIGHT, PANEL, PLAYER_COLOURS, TORCH, Box, Colour
from render.common.caption import caption_height
from render.trashwar.recap import recap_rows
from render.trashwar.words import status_line
from rules.trashwar.cards import BY_CODE, KINDS
from rules.trashwar.observation import TrashWarObservation
from tests.render import trashwar_samples as samples

PHASES = {
    "start, 2 players": (samples.start(2), samples.NAMES[:2]),
    "start, 4 players": (samples.start(4, 2), samples.NAMES[:4]),
    "start, 6 long names": (samples.start(6, 5), samples.LONG_NAMES),
    "defend a catapult volley of three": (samples.catapult_volley(4), samples.NAMES[:4]),
    "bat with a mace, any": (samples.mace_any(4), samples.NAMES[:4]),
    "burn phase, 3 players": (samples.burn(3), samples.NAMES[:3]),
    "a toppled wall": (samples.toppled(4), samples.NAMES[:4]),
    "an eliminated player, drawn": (samples.eliminated(5), samples.NAMES[:5]),
    "torching phase 3 with piles": (samples.torching_three(6), samples.NAMES),
    "finished": (samples.finished(4), samples.NAMES[:4]),
    "finished, 6 players": (samples.finished(6), samples.LONG_NAMES),
    "stuck, shared win": (samples.stuck(4), samples.NAMES[:4]),
    "two-player duel": (samples.two_player_duel(), samples.NAMES[:2]),
    "six pieces in the air": (samples.volley_of_batted(6), samples.LONG_NAMES),
    "names missing": (samples.catapult_volley(4), []),
}


def board(obs: TrashWarObservation, names: list[str]) -> Image.Image:
    image = Image.open(io.BytesIO(trashwar.draw_battlefield(obs, names)))
    image.load()
    return image


def colours_in(image: Image.Image, box: Box) -> set[Colour]:
    region = image.convert("RGB").crop(box)
    found = region.getcolors(maxcolors=region.width * region.height) or []
    return {colour for _, colour in found}


def share_of(image: Image.Image, box: Box, colour: Colour) -> float:
    region = image.convert("RGB").crop(box)
    found = {c: n for n, c in region.getcolors(region.width * region.height) or []}
    return found.get(colour, 0) / (region.width * region.height)


def wall_face(box: Box) -> Box:
    """The upper middle of a wall: below the battlements, above any rubble."""
    left, top, right, bottom = box
    height = bottom - top
    return (left + 4, top + height * 3 // 10, right - 4, top + height * 11 // 20)


def runs_across(image: Image.Image, box: Box, background: Colour) -> int:
    """How many separate shapes a line through the middle of `box` crosses."""
    y = (box[1] + box[3]) // 2
    runs, inside = 0, False
    rgb = image.convert("RGB")
    for x in range(box[0], box[2]):
        pixel = rgb.getpixel((x, y))
        if pixel != background and not inside:
            runs += 1
        inside = pixel != background
    return runs


# --- the battlefield --------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_renders_a_png_of_the_board_size(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    assert image.format == "PNG"
    assert image.size == trashwar.board_size(obs["seats"])
    assert image.width == 1100
    assert 560 <= image.height <= 760 + caption_height(1100)  # the last move's caption


@pytest.mark.parametrize(
    "phase",
    [
        "start, 4 players",
        "defend a catapult volley of three",
        "bat with a mace, any",
        "burn phase, 3 players",
        "an eliminated player, drawn",
        "torching phase 3 with piles",
    ],
)
def test_the_player_to_act_is_highlighted(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    for seat in range(obs["seats"]):
        share = share_of(image, trashwar.header_box(obs["seats"], seat), HIGHLIGHT)
        if seat in obs["to_act"]:
            assert share > 0.4, f"seat {seat} should be highlighted"
        else:
            assert share == 0, f"seat {seat} should not be highlighted"


def test_the_seat_deciding_is_highlighted_not_the_turn_holder() -> None:
    obs, names = PHASES["torching phase 3 with piles"]
    assert obs["turn"] != obs["to_act"][0]
    image = board(obs, names)
    assert share_of(image, trashwar.header_box(6, obs["turn"]), HIGHLIGHT) == 0
    assert share_of(image, trashwar.header_box(6, obs["to_act"][0]), HIGHLIGHT) > 0.4


@pytest.mark.parametrize("phase", ["finished", "finished, 6 players", "stuck, shared win"])
def test_a_finished_game_highlights_nobody_and_frames_the_winner(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    assert HIGHLIGHT not in colours_in(image, (0, 0, *image.size))
    for seat in range(obs["seats"]):
        left, top, _, bottom = trashwar.fortress_box(obs["seats"], seat)
        framed = TORCH in colours_in(image, (left, top + 20, left + 3, bottom - 20))
        assert framed == (seat in obs["winners"]), seat


def test_a_toppled_wall_is_drawn_unlike_a_standing_one() -> None:
    obs, names = PHASES["a toppled wall"]
    image = board(obs, names)
    dmitri = obs["players"][3]
    assert [w["standing"] for w in dmitri["walls"]] == [True, False, True]
    standing = wall_face(trashwar.wall_box(4, 3, 0))
    toppled = wall_face(trashwar.wall_box(4, 3, 1))
    # where a standing wall shows stone, a toppled one shows the panel behind it
    assert share_of(image, standing, PANEL) < 0.05
    assert share_of(image, toppled, PANEL) > 0.6
    assert trashwar.MORTAR in colours_in(image, standing)
    assert trashwar.MORTAR not in colours_in(image, toppled)
    # rubble lies at the foot of the toppled wall
    left, _, right, bottom = trashwar.wall_box(4, 3, 1)
    foot = (left, bottom - 12, right, bottom)
    assert share_of(image, foot, PANEL) < 0.7


def test_a_wall_at_three_looks_in_danger() -> None:
    obs, names = PHASES["a toppled wall"]
    image = board(obs, names)
    assert obs["players"][3]["walls"][2]["damage"] == 3
    assert obs["players"][3]["walls"][0]["damage"] == 0
    assert trashwar.DANGER in colours_in(image, trashwar.wall_box(4, 3, 2))
    assert trashwar.DANGER not in colours_in(image, trashwar.wall_box(4, 3, 0))


@pytest.mark.parametrize("phase", list(PHASES))
def test_card_backs_count_equals_hand_size(phase: str) -> None:
    obs, names = PHASES[phase]
    image = board(obs, names)
    for player in obs["players"]:
        left, top, right, bottom = trashwar.hand_backs_box(
            obs["seats"], player["seat"], player["hand_size"]
        )
        box = (left - 8, top, right, bottom)  # the name ends at least 10 pixels before
        middle = (box[1] + box[3]) // 2
        background = image.convert("RGB").getpixel((box[2] + 2, middle))
        assert isinstance(background, tuple)
        assert runs_across(image, box, background) == player["hand_size"], player["seat"]


def test_an_eliminated_player_is_greyed_with_a_stamp() -> None:
    obs, names = PHASES["an eliminated player, drawn"]
    image = board(obs, names)
    out = obs["eliminated"][0]
    colours = colours_in(image, trashwar.fortress_box(5, out))
    assert trashwar.OUT_STAMP in colours
    assert PLAYER_COLOURS[out] not in colours
    for seat in range(5):
        if seat != out:
            assert PLAYER_COLOURS[seat] in colours_in(image, trashwar.header_box(5, seat))
    assert str(status_line(obs, obs["players"][out])[0]) == "OUT - 5th place"


def test_incoming_trash_is_marked_at_its_wall_and_its_target() -> None:
    obs, names = PHASES["defend a catapult volley of three"]
    image = board(obs, names)
    slot = trashwar.wall_box(4, 0, 1)
    above = (slot[0], slot[1] - 26, slot[2], slot[1])
    assert trashwar.FLIGHT_NOW in colours_in(image, above)
    for index in (0, 2):
        box = trashwar.wall_box(4, 0, index)
        assert trashwar.FLIGHT_NOW not in colours_in(image, (box[0], box[1] - 26, box[2], box[1]))
    assert trashwar.DANGER in colours_in(image, trashwar.header_box(4, 0))
    assert trashwar.DANGER not in colours_in(image, trashwar.header_box(4, 1))
    assert obs["players"][0]["under_attack"] == 7


def test_the_public_board_never_draws_a_hand() -> None:
    public, names = PHASES["defend a catapult volley of three"]
    codes = samples.HAND_CODES[: public["players"][0]["hand_size"]]
    with_hand = copy.deepcopy(public)
    with_hand["hand"] = [samples.card(code) for code in codes]
    assert trashwar.draw_battlefield(public, names) == trashwar.draw_battlefield(with_hand, names)
    own = samples.with_hand(public, 0, codes)
    assert trashwar.draw_battlefield(public, names) == trashwar.draw_battlefield(own, names)


def test_rendering_is_deterministic() -> None:
    obs, names = PHASES["torching phase 3 with piles"]
    assert trashwar.draw_battlefield(obs, names) == trashwar.draw_battlefield(obs, names)


def test_captions_tell_what_is_being_decided() -> None:
    def caption(phase: str) -> str:
        obs, names = PHASES[phase]
        return trashwar.caption(obs, names)

    assert caption("defend a catapult volley of three") == (
        "Ann is defending the middle wall against Cyrielle's toxic waste drum (4), 2 more to come"
    )
    assert caption("bat with a mace, any") == (
        "Bo swings a Mace at Dmitri's microwave (3), batting it at any knight's wall"
    )
    assert caption("burn phase, 3 players").startswith("Cyrielle may burn trash")
    assert caption("start, 4 players") == "Cyrielle opens the war: one Trash card at any wall"
    assert caption("an eliminated player, drawn").startswith("Eun-ji drew a Trash card")
    assert caption("finished") == "Bo is the last knight standing and wins the Trash War!"
    assert caption("stuck, shared win") == "The war is stuck: Ann and Cyrielle share the win"
    assert caption("names missing").startswith("Player 1 is defending")


def test_a_stuck_war_crowns_every_knight_sharing_the_win() -> None:
    """Table rule (a stuck war): the knights with the most walls up share the win; their
    bands say why they won and the recap gives them the same place."""
    obs, _ = PHASES["stuck, shared win"]
    assert [str(status_line(obs, obs["players"][s])[0]) for s in range(4)] == [
        "WINNER - most walls up",
        "",
        "WINNER - most walls up",
        "OUT - 4th place",
    ]
    rows = [(row.seat, row.total, row.won) for row in recap_rows(obs)]
    assert rows == [(0, "1st", True), (2, "1st", True), (1, "3rd", False), (3, "4th", False)]


def test_mace_directions_name_the_knight_batted_at() -> None:
    obs = samples.mace_any(4)
    for swing, expected in (("left", "left, at Cyrielle"), ("right", "right, at Ann"),
                            ("back", "back at Dmitri")):  # fmt: skip
        obs["swing"] = swing
        assert trashwar.caption(obs, samples.NAMES).endswith(expected), swing


# --- the hand ---------------------------------------------------------------------------


def hand(count: int) -> tuple[Image.Image, TrashWarObservation]:
    own = samples.with_hand(samples.catapult_volley(4), 0, samples.HAND_CODES[:count])
    image = Image.open(io.BytesIO(trashwar.draw_hand(own, "Ann")))
    image.load()
    return image, own


@pytest.mark.parametrize("count", [0, 1, 3, 5, 6, 8])
def test_the_hand_draws_every_card(count: int) -> None:
    image, own = hand(count)
    assert image.format == "PNG"
    assert image.size == trashwar.hand_size_px(count)
    cards = own["hand"] or []
    for index, card in enumerate(cards):
        box = trashwar.hand_card_box(count, index)
        assert box[0] >= 0 and box[2] <= image.width and box[3] <= image.height
        header = (box[0] + 6, box[1] + 6, box[0] + 40, box[1] + 28)
        assert trashwar.style_of(card["kind"]).colour in colours_in(image, header), card["code"]
    if count:
        boxes = [trashwar.hand_card_box(count, i) for i in range(count)]
        for a, b in itertools.pairwise(boxes):
            assert a[2] <= b[0] or a[3] <= b[1], "cards overlap"


def test_the_hand_shows_torch_marks_only_on_torch_cards() -> None:
    image, own = hand(8)
    rgb = image.convert("RGB")
    for index, card in enumerate(own["hand"] or []):
        _, top, right, _ = trashwar.hand_card_box(8, index)
        corner = rgb.crop((right - 50, top + 3, right - 3, top + 34))
        flames = sum(
            1
            for n, (r, g, b) in corner.getcolors(corner.width * corner.height) or []
            for _ in range(n)
            if r > 220 and 150 < g < 200 and b < 110
        )
        assert (flames > 0) == (card["torches"] > 0), card["code"]


def test_the_hand_strip_shows_the_players_walls() -> None:
    image, _ = hand(5)
    strip = (0, image.height - trashwar.HAND_STRIP_H - 12, image.width, image.height)
    colours = colours_in(image, strip)
    assert trashwar.DANGER in colours  # Ann's left wall is at 3/4
    assert trashwar.MORTAR in colours


def test_the_public_view_has_no_hand_to_draw() -> None:
    image = Image.open(io.BytesIO(trashwar.draw_hand(samples.start(3), "Ann")))
    assert image.size == trashwar.hand_size_px(0)


# --- cards and tables -------------------------------------------------------------------


def test_every_kind_has_its_own_colour() -> None:
    assert set(trashwar.KIND_STYLES) == set(KINDS)
    colours = [style.colour for style in trashwar.KIND_STYLES.values()]
    assert len(set(colours)) == len(colours)


@pytest.mark.parametrize("code", list(BY_CODE))
def test_every_card_draws_at_every_size(code: str) -> None:
    card = samples.card(code)
    for size in (trashwar.HAND_CARD, trashwar.MINI_CARD, (48, 67)):
        sprite = trashwar.card_sprite(card, size)
        assert sprite.size == size
        assert sprite.mode == "RGBA"
    face = trashwar.card_face(card)
    assert bool(face.value) == (card["kind"] in ("trash", "shield", "burn"))
    assert face.marks == card["torches"]

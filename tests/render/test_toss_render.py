"""Tests for the Toss It in the Trash pictures (render/toss/).

Observations come from real games: the engine is played with seeded random moves to a
fresh lobby (pre-filled bin, choosing), mid-choose, a place phase with many pieces and a
finished game. The pictures themselves only ever see the observations.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import math
import random
import statistics
from collections.abc import Callable
from functools import lru_cache
from typing import cast

import pytest
from PIL import Image

from render import toss
from render.common import CARD_BACK, HIGHLIGHT, TORCH, Box, Colour
from render.common.record import recording
from render.toss.pieces import piece_sprite
from rules.toss.bin import ANGLES, KINDS, grid_x
from rules.toss.engine import TOSS, State
from rules.toss.observation import BinPiece, TossObservation

NAMES = ["Ann", "Bo", "Cyrielle the Magnificent", "Dmitri", "Eun-ji"]


# --- sample games ---------------------------------------------------------------------


def play(seats: int, seed: int, stop: Callable[[State], bool]) -> State:
    """Random legal moves from a seeded new game until `stop(state)` or the game ends."""
    rng = random.Random(seed)
    state = TOSS.new_game(seats, {}, seed)
    while not stop(state) and not state.finished:
        seat = sorted(TOSS.to_act(state))[0]
        state = cast(
            State, TOSS.apply(state, seat, rng.choice(TOSS.legal_actions(state, seat))).state
        )
    return state


def public(state: State) -> TossObservation:
    return cast(TossObservation, TOSS.observe(state, None))


def own(state: State, seat: int) -> TossObservation:
    return cast(TossObservation, TOSS.observe(state, seat))


@lru_cache(maxsize=1)
def fresh() -> State:
    return TOSS.new_game(2, {}, 1)


@lru_cache(maxsize=1)
def placing() -> State:
    return play(4, 3, lambda s: s.phase == "place" and len(s.pieces) >= 14)


@lru_cache(maxsize=1)
def finished() -> State:
    return play(3, 4, lambda s: False)


def mid_choose(card_index: int) -> State:
    """Three players; seat 0 has laid down its `card_index`-th hand card, the rest not."""
    state = TOSS.new_game(3, {}, 2)
    action = TOSS.legal_actions(state, 0)[card_index]
    return cast(State, TOSS.apply(state, 0, action).state)


STATES: dict[str, tuple[Callable[[], State], int]] = {
    "fresh lobby": (fresh, 2),
    "mid-choose": (lambda: mid_choose(0), 3),
    "placing": (placing, 4),
    "finished": (finished, 3),
}


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def distance(a: Colour, b: Colour) -> float:
    return math.dist(a, b)


def pixel(image: Image.Image, xy: tuple[float, float]) -> Colour:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def colours_in(image: Image.Image, box: Box) -> set[Colour]:
    region = image.crop(box)
    found = region.getcolors(maxcolors=region.width * region.height) or []
    return {cast(Colour, colour) for _, colour in found}


def with_bin(obs: TossObservation, pieces: list[BinPiece]) -> TossObservation:
    changed = copy.deepcopy(obs)
    changed["bin"] = pieces
    return changed


# --- the channel's picture ------------------------------------------------------------


@pytest.mark.parametrize("name", list(STATES))
def test_every_state_renders_a_png_of_the_board_size(name: str) -> None:
    """Each sample state draws as a PNG of the fixed board size."""
    make, seats = STATES[name]
    obs = public(make())
    assert obs["seats"] == seats
    image = picture(toss.draw_bin(obs, NAMES[:seats]))
    assert image.size == toss.BOARD_SIZE


@pytest.mark.parametrize("name", ["fresh lobby", "placing", "finished"])
def test_every_piece_shows_its_kind_colour_at_its_centre(name: str) -> None:
    """The pixel at each resting piece's mapped centre is that kind's body colour (nearest
    of all kinds' colours and far from the bin's inside): pieces sit where physics put them."""
    obs = public(STATES[name][0]())
    assert obs["bin"]
    image = picture(toss.draw_bin(obs, NAMES))
    view = toss.board_view(obs["bin"])
    bodies = {key: toss.look_of(key).body for key in KINDS}
    for piece in obs["bin"]:
        found = pixel(image, view.at(piece["x"], piece["y"]))
        nearest = min(bodies, key=lambda key: distance(found, bodies[key]))
        assert nearest == piece["kind"], (piece, found)
        assert distance(found, bodies[piece["kind"]]) < 40, (piece, found)
        assert distance(found, toss.BIN_INSIDE) > 60


def test_y_points_up_and_angles_turn_counter_clockwise() -> None:
    """A piece near the floor is drawn near the floor; a bottle turned a quarter turn lies
    across (its glass left of its centre, where its neck end now points), not upright."""
    obs = with_bin(
        public(fresh()),
        [
            BinPiece(kind="carton", x=40.0, y=35.5, angle=0.0),
            BinPiece(kind="bottle", x=100.0, y=150.0, angle=math.pi / 2),
        ],
    )
    image = picture(toss.draw_bin(obs, NAMES))
    view = toss.board_view(obs["bin"])
    carton, bottle = toss.look_of("carton").body, toss.look_of("bottle").body
    assert distance(pixel(image, view.at(40, 35.5)), carton) < 20
    assert distance(pixel(image, view.at(40, 280 - 35.5)), carton) > 60
    assert view.at(40, 0)[1] > view.at(40, 100)[1]  # y up in the bin is up in the picture
    # turned 90 degrees: the bottle lies along x (18 mm thick, 84 long)
    assert distance(pixel(image, view.at(100 - 15, 150)), bottle) < 60
    assert distance(pixel(image, view.at(100, 150 + 15)), bottle) > 60
    assert distance(pixel(image, view.at(100, 150 - 15)), bottle) > 60


def test_piece_sprites_follow_the_kinds_table() -> None:
    """Sprites are sized from `KINDS` (a retuned size is drawn at the new size) and turn
    about their centre: a box turned 90 degrees swaps its width and height."""
    scale = 2.0
    for key, kind in KINDS.items():
        sprite = piece_sprite(key, kind, scale, 0, "solid")
        assert sprite.size == toss.piece_size_px(kind, scale)
        if kind.shape == "box":
            assert sprite.size == (round(kind.width * scale), round(kind.height * scale))
            turned = piece_sprite(key, kind, scale, 90, "solid")
            assert abs(turned.width - sprite.height) <= 2
            assert abs(turned.height - sprite.width) <= 2
        else:
            assert sprite.size == (round(2 * kind.radius * scale),) * 2
    wider = dataclasses.replace(KINDS["can"], width=KINDS["can"].width * 2)
    assert piece_sprite("can", wider, scale, 0, "solid").width == round(wider.width * 2)


def test_the_public_picture_does_not_depend_on_a_hidden_choice() -> None:
    """Mid-choose, seat 0 laid down different cards in two games: the public pictures are
    byte for byte the same, and the card shows as a back, never a number."""
    first, second = mid_choose(0), mid_choose(2)
    assert first.chosen[0] != second.chosen[0]
    one, other = public(first), public(second)
    assert toss.draw_bin(one, NAMES[:3]) == toss.draw_bin(other, NAMES[:3])
    image = picture(toss.draw_bin(one, NAMES[:3]))
    assert CARD_BACK in colours_in(image, toss.chip_box(0))
    assert CARD_BACK not in colours_in(image, toss.chip_box(1))
    # an own view holds the hand and the choice, but the channel picture ignores them
    mine = own(first, 0)
    mine["seat"] = None
    assert toss.draw_bin(mine, NAMES[:3]) == toss.draw_bin(one, NAMES[:3])


def test_seats_to_act_are_highlighted() -> None:
    """While choosing, the seats still to choose are framed; while placing, only the seat
    whose turn it is."""
    for state in (mid_choose(0), placing()):
        obs = public(state)
        image = picture(toss.draw_bin(obs, NAMES))
        for seat in range(obs["seats"]):
            left, top, right, _ = toss.row_box(seat)
            edge = colours_in(image, (left + 20, top, right - 20, top + 2))
            assert (HIGHLIGHT in edge) == (seat in obs["to_act"]), seat


def test_the_finished_game_names_and_frames_the_winners() -> None:
    """Game over: the caption names the winners (highest score, ties share) and their rows
    are framed in torch gold; taken counters show red minus and green plus sides."""
    obs = public(finished())
    assert obs["finished"]
    best = max(obs["scores"])
    winners = [seat for seat, score in enumerate(obs["scores"]) if score == best]
    assert toss.winners(obs) == winners
    text = toss.caption(obs, NAMES)
    assert text.startswith("Game over")
    for seat in winners:
        assert NAMES[seat] in text
    image = picture(toss.draw_bin(obs, NAMES))
    for seat in range(obs["seats"]):
        left, top, right, _ = toss.row_box(seat)
        edge = colours_in(image, (left + 20, top, right - 20, top + 2))
        assert (TORCH in edge) == (seat in winners), seat
        row = colours_in(image, toss.row_box(seat))
        taken = obs["taken"][seat]
        assert (toss.MINUS in row) == any(value < 0 for value in taken), seat
        assert (toss.PLUS in row) == any(value > 0 for value in taken), seat


def test_captions_tell_who_does_what() -> None:
    """The caption says who is still choosing (how many, when the rows must say who, so it
    stays one legible line), or who drops how many of what."""
    assert toss.caption(public(mid_choose(0)), NAMES).endswith("2 still choosing")
    obs = public(placing())
    turn = obs["turn"]
    assert turn is not None
    assert toss.caption(obs, NAMES).startswith(f"{NAMES[turn]} drops {obs['to_place']} more")


def test_rendering_is_deterministic() -> None:
    """The same observation always gives the same bytes."""
    obs = public(placing())
    assert toss.draw_bin(obs, NAMES) == toss.draw_bin(obs, NAMES)


def test_a_full_bin_draws() -> None:
    """A bin holding 40 pieces (about all a game ever packs) draws at the board's size.
    How fast it draws is measured by `make bench`, not here."""
    obs = public(placing())
    pieces = list(public(finished())["bin"]) + list(obs["bin"])
    full = with_bin(obs, pieces[:40])
    assert len(full["bin"]) == 40
    assert picture(toss.draw_bin(full, NAMES)).size == picture(toss.draw_bin(obs, NAMES)).size


# --- the preview ----------------------------------------------------------------------


@pytest.mark.parametrize("position", [3, 10, 17])
def test_the_preview_ghost_hangs_over_its_grid_spot(position: int) -> None:
    """The preview is small; the ghost (what differs from a preview with nothing held)
    is centred over `grid_x(position)` and above the pile."""
    obs = public(fresh())
    angle = 0
    base = picture(toss.draw_preview(obs, "nothing", position, angle))
    image = picture(toss.draw_preview(obs, "can", position, angle))
    assert image.size == base.size == toss.PREVIEW_SIZE
    assert image.width <= 360 and image.height <= 360
    x, lift, _ = toss.ghost_pose(obs["bin"], "can", position, angle)
    assert x == pytest.approx(grid_x(position), abs=0.01)
    top = lift + toss.half_box(KINDS["can"], 0)[1]
    view = toss.preview_view(obs["bin"], top)
    centre = view.at(grid_x(position), lift)
    assert pixel(image, centre) != pixel(base, centre)
    rim = round(view.rim)
    columns = [
        px
        for px in range(image.width)
        for py in range(30, rim - 4)
        if pixel(image, (px, py)) != pixel(base, (px, py))
    ]
    assert columns
    assert abs(statistics.mean(columns) - centre[0]) < 4


def test_the_preview_draws_every_kind_and_angle() -> None:
    """Every kind at every grid angle draws a preview of the preview's size (its speed is
    measured by `make bench`)."""
    obs = public(placing())
    for kind in KINDS:
        for angle in ANGLES:
            data = toss.draw_preview(obs, kind, (angle // 15) % 21, angle)
            assert picture(data).size == toss.PREVIEW_SIZE


# --- the private cards ----------------------------------------------------------------


def test_the_cards_picture_shows_the_hand_in_the_seats_colour() -> None:
    """A seat's own view: one card per hand card, headed in their colour, plus the card
    laid down when there is one."""
    for state, seat in ((fresh(), 0), (mid_choose(1), 0), (mid_choose(1), 1)):
        obs = own(state, seat)
        hand = obs["hand"] or []
        assert hand
        image = picture(toss.draw_cards(obs, NAMES[seat]))
        assert image.size == toss.cards_size(len(hand), obs["my_choice"] is not None)
        colour = toss.seat_colour(obs, seat)
        for index in range(len(hand)):
            left = 24 + index * (toss.CARD_SIZE[0] + toss.CARD_GAP)
            header = (left + 4, 86 + 4, left + 40, 86 + 16)
            assert colour in colours_in(image, header), index
        if obs["my_choice"] is not None:  # the laid-down card sits at the right, framed
            left = image.width - 24 - toss.CARD_SIZE[0]
            assert colour in colours_in(image, (left + 4, 86 + 4, left + 40, 86 + 16))
            assert HIGHLIGHT in colours_in(image, (left - 6, 86 - 6, left + 40, 86 - 2))


def test_the_cards_picture_copes_without_a_hand() -> None:
    """The public view (hand None) and an empty hand still draw."""
    obs = public(fresh())
    assert obs["hand"] is None
    image = picture(toss.draw_cards(obs, "Ann"))
    assert image.size == toss.cards_size(0, False)
    empty = own(fresh(), 0)
    empty["hand"] = []
    assert picture(toss.draw_cards(empty, "Ann")).size == toss.cards_size(0, False)


# --- the ruler of spots and the aimed preview (issue 14) ---------------------------------

SHOWN_WIDTH = 550  # how wide Discord shows a picture in the chat
LEGIBLE = 11  # pixels high, at that width


@pytest.mark.parametrize("state", [fresh, placing, finished], ids=lambda s: s.__name__)
def test_the_board_numbers_the_spots_along_the_opening_legibly(state: Callable[[], State]):
    """Issue 14: the board carries a ruler of the drop spots over the bin's opening (over
    the pile where it is higher), numbered 0, 5, 10, 15, 20 over their spots, each number at
    least 11 px high when the board is shown 550 px wide."""
    obs = public(state())
    with recording() as notes:
        toss.draw_bin(obs, NAMES)
    ruler = [n for n in notes if n.kind == "ruler"]
    assert [n.text for n in ruler] == ["0", "5", "10", "15", "20"]
    view = toss.board_view(obs["bin"])
    pile = view.at(0, toss.pile_top(obs["bin"], -math.inf, math.inf))[1]
    for label in ruler:
        assert label.size * SHOWN_WIDTH / toss.BOARD_SIZE[0] >= LEGIBLE
        centre = (label.box[0] + label.box[2]) / 2
        assert centre == pytest.approx(view.at(grid_x(int(label.text)), 0)[0], abs=1.5)
        assert label.box[3] < min(view.rim, pile)  # over the opening and the pile


def test_the_preview_shows_the_piece_turned_under_its_spot_on_the_ruler() -> None:
    """Issue 14: the preview holds the piece turned as aimed (a carton at 45° is wider than
    an upright one) right under its spot's number on the ruler, picked out among 0, 5 and
    20 (10 and 15 would crowd it), legible when the preview is shown 550 px wide."""
    obs = public(placing())
    with recording() as notes:
        toss.draw_preview(obs, "carton", 13, 45)
    ruler = {n.text: n for n in notes if n.kind == "ruler"}
    assert set(ruler) == {"0", "5", "13", "20"}
    assert all(n.size * SHOWN_WIDTH / toss.PREVIEW_SIZE[0] >= LEGIBLE for n in ruler.values())
    (held,) = [n for n in notes if n.kind == "held"]
    assert held.text == "carton spot 13 turned 45"
    spot = ruler["13"].box
    assert (held.box[0] + held.box[2]) / 2 == pytest.approx((spot[0] + spot[2]) / 2, abs=2)
    with recording() as upright_notes:
        toss.draw_preview(obs, "carton", 13, 0)
    (upright,) = [n for n in upright_notes if n.kind == "held"]
    turned_width, upright_width = held.box[2] - held.box[0], upright.box[2] - upright.box[0]
    assert turned_width > 1.5 * upright_width
    (release,) = [n for n in notes if n.kind == "release"]
    assert release.box[1] > held.box[3]  # let go below where it is held, over the pile

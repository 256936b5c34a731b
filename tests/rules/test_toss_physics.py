"""Toss It in the Trash: the bin's physics rules, each pinned on its own (docs/mutation.md).

How a drop starts (the hand's wobble, the piece moved in off a wall, the height it is let
go at), when it ends (a spill, two calm checks in a row, the step cap) and what counts as
fallen out. The start of a drop is read by running no steps at all (`MAX_STEPS` set to 0),
the end by scripting the calm checks, so each test runs a handful of drops at most.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pymunk
import pytest

from rules.toss import bin as toss_bin
from rules.toss.bin import (
    BIN_HEIGHT,
    BIN_WIDTH,
    DROP_GAP,
    GRAVITY,
    KINDS,
    MAX_STEPS,
    REST_CHECK,
    REST_SPEED,
    REST_SPIN,
    WOBBLE,
    Kind,
    Piece,
    grid_x,
    half_width,
    highest,
    inside_opening,
    prefill,
    simulate,
    wobbled,
)

CAN = KINDS["can"]  # 40 x 32 mm
FLAT_CAN = (Piece("can", 750, 160, 0),)  # lying in the middle: 54.5..95.5 mm across, 32.5 high


@pytest.fixture
def let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """No simulated step at all: a drop returns the piece where the hand lets go of it."""
    monkeypatch.setattr(toss_bin, "MAX_STEPS", 0)


# ---------------------------------------------------------------------------------------------
# The hand: wobble, width across the bin, moved in off a wall


def test_a_steady_hand_lets_go_exactly_where_it_aims_and_draws_nothing() -> None:
    """(house rule: the wobble option sets how unsteady the hand is; steady has none) The
    spot and the angle are the aim's, and the game's generator is left as it was."""
    rng = random.Random(5)
    assert wobbled(40.0, 30, "steady", rng) == (40.0, math.radians(30))
    assert rng.random() == random.Random(5).random()


@pytest.mark.parametrize("wobble", ["house", "shaky"])
def test_a_wobbly_hand_shifts_the_spot_then_the_angle_by_its_spread(wobble: str) -> None:
    """(house rule: a seeded wobble shifts the spot and the angle a little) Each is a normal
    draw around the aim with the option's spread, the spot's drawn first."""
    spread, turn = WOBBLE[wobble]
    draws = random.Random(9)
    dx, da = draws.gauss(0.0, spread), draws.gauss(0.0, turn)
    x, angle = wobbled(40.0, 30, wobble, random.Random(9))
    assert x == pytest.approx(40.0 + dx)
    assert angle == pytest.approx(math.radians(30 + da))
    assert dx != 0.0 and da != 0.0


def test_shaky_hands_shake_two_and_a_half_times_as_far_as_the_house_hand() -> None:
    """(house rule: shaky hands shake a lot, the house hand a little) From the same draws."""
    hx, ha = wobbled(75.0, 0, "house", random.Random(3))
    sx, sa = wobbled(75.0, 0, "shaky", random.Random(3))
    assert sx - 75.0 == pytest.approx(2.5 * (hx - 75.0))
    assert sa == pytest.approx(2.5 * ha)


def test_a_piece_reaches_across_the_bin_by_its_turned_box_or_its_radius() -> None:
    """(table rule: the whole piece is let go between the walls) Half the width a piece
    takes across the bin: a box's width lying flat, its height standing, both in part when
    turned (either way round); an apple core's radius at any turn."""
    assert half_width(CAN, 0.0) == pytest.approx(20.0)
    assert half_width(CAN, math.pi / 2) == pytest.approx(16.0)
    assert half_width(CAN, -math.pi / 2) == pytest.approx(16.0)
    assert half_width(CAN, math.pi) == pytest.approx(20.0)
    assert half_width(CAN, math.pi / 4) == pytest.approx(36 * math.sqrt(2) / 2)
    assert half_width(CAN, -math.pi / 4) == pytest.approx(36 * math.sqrt(2) / 2)
    assert half_width(CAN, 3 * math.pi / 4) == pytest.approx(36 * math.sqrt(2) / 2)
    for angle in (0.0, 1.0, -2.0):
        assert half_width(KINDS["apple"], angle) == 15


def test_a_spot_too_near_a_wall_is_moved_in_just_far_enough() -> None:
    """(table rule: a spot too near a wall for the piece's width is moved in just far enough,
    half a millimetre clear) A spot with room is kept as it is."""
    assert inside_opening(CAN, 0.0, 0.0) == pytest.approx(20.5)
    assert inside_opening(CAN, -30.0, 0.0) == pytest.approx(20.5)
    assert inside_opening(CAN, BIN_WIDTH, 0.0) == pytest.approx(BIN_WIDTH - 20.5)
    assert inside_opening(CAN, 0.0, math.pi / 2) == pytest.approx(16.5)
    assert inside_opening(CAN, 20.5, 0.0) == 20.5
    assert inside_opening(CAN, 60.0, 0.0) == 60.0
    assert inside_opening(KINDS["apple"], 140.0, 0.0) == pytest.approx(BIN_WIDTH - 15.5)


def test_a_piece_wider_than_the_opening_is_let_go_in_the_middle() -> None:
    """(table rule: the hand lets go with the piece between the walls, as near as it can)
    No kind is that wide; a made-up plank shows the fallback, and a plank that fits is
    moved in like any piece."""
    wide = Kind("plank", "plank", "box", width=160, height=10)
    assert inside_opening(wide, 0.0, 0.0) == BIN_WIDTH / 2
    assert inside_opening(wide, BIN_WIDTH, 0.0) == BIN_WIDTH / 2
    fits = Kind("plank", "plank", "box", width=110, height=10)
    assert inside_opening(fits, 0.0, 0.0) == pytest.approx(55.5)
    assert inside_opening(fits, BIN_WIDTH, 0.0) == pytest.approx(BIN_WIDTH - 55.5)


def test_a_piece_reaches_up_by_its_half_diagonal_or_its_radius() -> None:
    """(house rule: the piece is held just above the pile) Its reach, for the drop height,
    is half a box's diagonal or an apple core's radius."""
    assert KINDS["apple"].half_extent() == 15
    assert CAN.half_extent() == pytest.approx(math.hypot(40, 32) / 2)
    assert KINDS["bottle"].half_extent() == pytest.approx(math.hypot(18, 84) / 2)


# ---------------------------------------------------------------------------------------------
# Where the hand lets go


@pytest.mark.usefixtures("let_go")
def test_the_piece_is_let_go_just_above_the_pile_under_it() -> None:
    """(house rule: held at the spot and rotation, just above whatever lies under it) Its
    lowest possible point is the drop gap over the highest piece within its reach."""
    start = simulate((), "can", 75.0, 1.2)
    assert start.steps == 0 and start.spilled is False
    (piece,) = start.pieces
    assert (piece.kind, piece.x, piece.angle) == ("can", 750, 1200)
    assert piece.y == round((CAN.half_extent() + DROP_GAP) * 10)
    # An apple core over the flat can: the can's top, 32.5 mm, + 15 + 4.
    assert simulate(FLAT_CAN, "apple", 75.0, 0.0).pieces[-1].y == 515


@pytest.mark.usefixtures("let_go")
def test_the_pile_under_the_piece_is_read_across_its_whole_reach() -> None:
    """(house rule: just above whatever lies under it) A can reaching in under either side
    of the apple core's reach lifts it; one just out of reach does not."""
    over = 10 * (32.5 + 15 + DROP_GAP)
    floor = 10 * (15 + DROP_GAP)
    # The can spans 54.5..95.5 mm; the apple core reaches 15 mm either way.
    assert simulate(FLAT_CAN, "apple", 109.5, 0.0).pieces[-1].y == over  # its left end
    assert simulate(FLAT_CAN, "apple", 40.5, 0.0).pieces[-1].y == over  # its right end
    assert simulate(FLAT_CAN, "apple", 111.5, 0.0).pieces[-1].y == floor
    assert simulate(FLAT_CAN, "apple", 38.5, 0.0).pieces[-1].y == floor


@pytest.mark.usefixtures("let_go")
def test_the_piece_is_let_go_between_the_walls() -> None:
    """(table rule: a spot too near a wall is moved in) At the very wall a flat can starts
    with its side half a millimetre off it."""
    assert simulate((), "can", 0.0, 0.0).pieces[-1].x == 205
    assert simulate((), "can", BIN_WIDTH, 0.0).pieces[-1].x == 10 * BIN_WIDTH - 205


# ---------------------------------------------------------------------------------------------
# When a drop ends


def _scripted(monkeypatch: pytest.MonkeyPatch, answers: list[bool]) -> list[int]:
    """The calm checks answer `answers` in turn (then "moving"); returns how many pieces
    each check looked at."""
    seen: list[int] = []
    script: Iterator[bool] = iter(answers)

    def resting(motions: list[tuple[float, float, float]]) -> bool:
        seen.append(len(motions))
        return next(script, False)

    monkeypatch.setattr(toss_bin, "_resting", resting)
    return seen


def test_a_drop_ends_after_two_calm_checks_in_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """(house rule: the space runs until everything rests) Everything is checked every few
    steps; a check that finds movement starts the count of calm checks again."""
    seen = _scripted(monkeypatch, [True, False, False, True, True])
    result = simulate(FLAT_CAN, "apple", 20.0, 0.0)
    assert result.steps == 5 * REST_CHECK
    assert seen == [2] * 5  # the pile and the new piece, every time
    assert result.spilled is False


def test_a_drop_that_never_rests_stops_at_the_step_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """(house rule: the space runs until everything rests, or a step cap)"""
    seen = _scripted(monkeypatch, [])
    result = simulate((), "apple", 20.0, 0.0)
    assert result.steps == MAX_STEPS
    assert len(seen) == MAX_STEPS // REST_CHECK


def test_a_real_drop_ends_on_a_calm_check() -> None:
    """(house rule: the space runs until everything rests) A can dropped into an empty bin
    rests well before the cap, after a whole number of checks."""
    result = simulate((), "can", 75.0, 0.0)
    assert 2 * REST_CHECK <= result.steps < MAX_STEPS
    assert result.steps % REST_CHECK == 0
    assert result.spilled is False


def test_a_piece_crossing_a_wall_below_the_rim_ends_the_drop_at_once() -> None:
    """(house rule: a piece has fallen out when its centre passes a wall below the rim) The
    first check finds it: nothing else is waited for."""
    outside = (Piece("can", (BIN_WIDTH + 40) * 10, 500, 0),)
    result = simulate(outside, "apple", 75.0, 0.0)
    assert result.spilled and result.steps == REST_CHECK
    left = (Piece("can", -400, 500, 0),)
    assert simulate(left, "apple", 75.0, 0.0).steps == REST_CHECK


def test_a_piece_resting_on_a_wall_beyond_its_inside_has_fallen_out() -> None:
    """(house rule: a piece has fallen out when it rests beyond a wall, hung over the rim)
    A can lying on top of the right wall, its centre past the inside, counts once all is
    calm."""
    on_wall = (Piece("can", (BIN_WIDTH + 15) * 10, (BIN_HEIGHT + 16) * 10 + 5, 0),)
    result = simulate(on_wall, "apple", 30.0, 0.0)
    assert result.spilled is True
    assert result.steps == 2 * REST_CHECK  # not cut short: it is above the rim
    assert result.pieces[0].y > BIN_HEIGHT * 10


def test_a_centre_on_a_wall_is_still_inside() -> None:
    """(house rule: a piece falls out when its centre passes a wall) Exactly on the wall's
    inside is not past it."""
    assert not toss_bin._outside(0.0)
    assert not toss_bin._outside(float(BIN_WIDTH))
    assert not toss_bin._outside(75.0)
    assert toss_bin._outside(-0.01)
    assert toss_bin._outside(BIN_WIDTH + 0.01)


def test_the_checks_read_every_piece_in_order_and_not_the_bin() -> None:
    """(house rule: a spill or rest is judged on every piece) The checks' one read of the
    simulation holds each piece's place and motion, in the bin's order, and nothing of the
    walls."""
    pieces = (Piece("can", 300, 160, 0), Piece("apple", 1100, 150, 0))
    space, bodies = toss_bin._space(pieces)
    bodies[1].velocity = (3.0, -4.0)
    bodies[1].angular_velocity = 0.5
    xs, ys, motions = toss_bin._Watch(space, len(bodies)).read()
    assert (xs, ys) == ([30.0, 110.0], [16.0, 15.0])
    assert motions == [(0.0, 0.0, 0.0), (3.0, -4.0, 0.5)]


def test_everything_rests_when_every_piece_is_slow_and_hardly_turning() -> None:
    """(house rule: the space runs until everything rests) Resting is below the speed and
    the spin limits, for every piece, turning either way."""
    calm = (REST_SPEED * 0.6, -REST_SPEED * 0.7, -REST_SPIN * 0.9)  # 0.92 of the speed limit
    still = (0.0, 0.0, 0.0)
    moving = (0.0, -REST_SPEED, 0.0)  # exactly the limit is not slower
    spinning = (0.0, 0.0, REST_SPIN)
    backspin = (0.0, 0.0, -REST_SPIN)
    assert toss_bin._resting([])
    assert toss_bin._resting([calm])
    assert toss_bin._resting([calm, still])
    for restless in (moving, spinning, backspin):
        assert not toss_bin._resting([restless])
        assert not toss_bin._resting([calm, restless])
        assert not toss_bin._resting([restless, calm])


# ---------------------------------------------------------------------------------------------
# The bin itself


def _in_wall(space: pymunk.Space, x: float, y: float) -> bool:
    return bool(space.point_query((x, y), 0, pymunk.ShapeFilter()))


def test_the_bin_is_an_open_box_with_thick_walls_and_floor() -> None:
    """(house rule: an open box 150 mm wide and 280 mm tall; thick walls and floor, so
    nothing tunnels through) Just inside each inner corner is free, just past each face and
    at each outer corner is wall, and over the walls is open."""
    space, bodies = toss_bin._space(())
    assert bodies == []
    w, h, t = BIN_WIDTH, BIN_HEIGHT, toss_bin.WALL_THICKNESS
    for x, y in [(0.5, 0.5), (w - 0.5, 0.5), (0.5, h - 0.5), (w - 0.5, h - 0.5)]:
        assert not _in_wall(space, x, y), (x, y)
    for x, y in [(-t - 0.5, h - 0.5), (w + t + 0.5, h - 0.5), (-15, h + 0.5), (w + 15, h + 0.5)]:
        assert not _in_wall(space, x, y), (x, y)
    walls = [
        *[(x, y) for x in (-0.5, -t + 0.5, w + 0.5, w + t - 0.5) for y in (0.5, h - 0.5)],
        *[(x, -0.5) for x in (-t + 0.5, 0.5, w - 0.5, w + t - 0.5)],
        (-t + 0.5, -t + 0.5),
        (w + t - 0.5, -t + 0.5),
    ]
    for x, y in walls:
        assert _in_wall(space, x, y), (x, y)


def test_the_bin_pulls_straight_down_with_tuned_walls() -> None:
    """(house rule: the bin is seen from the side, y up) Gravity pulls straight down, and
    the walls are as slippery and as dead as the measured balance assumed."""
    space, _ = toss_bin._space(())
    assert tuple(space.gravity) == (0.0, -GRAVITY)
    shapes = [shape for shape in space.shapes if shape.body is space.static_body]
    assert len(shapes) == 3
    assert {(shape.friction, shape.elasticity) for shape in shapes} == {(0.5, 0.05)}


def test_an_apple_core_turns_like_a_solid_disc() -> None:
    """(house rule: an apple core is round) Its moment is a full disc's, m r squared / 2."""
    assert toss_bin._moment(KINDS["apple"]) == pytest.approx(0.5 * 15**2 / 2)


@pytest.mark.parametrize("angle", [3000, -1300])
def test_a_stored_pose_is_rebuilt_exactly(angle: int) -> None:
    """(house rule: poses are kept in tenths of a millimetre and milliradians, and the space
    is rebuilt from them alone) A bottle's top, turned as stored, where geometry puts it."""
    bottle = Piece("bottle", 750, 1000, angle)
    turned = 9 * abs(math.sin(angle / 1000)) + 42 * abs(math.cos(angle / 1000))
    assert highest((bottle,)) == pytest.approx(100 + turned + 0.5, rel=1e-9)


def test_the_drop_spots_run_evenly_between_the_margins() -> None:
    """(house rule: positions 0..20 evenly from one wall to the other, 12 mm in from each)"""
    assert grid_x(0) == 12
    assert grid_x(20) == pytest.approx(BIN_WIDTH - 12)
    assert grid_x(10) == pytest.approx(BIN_WIDTH / 2)
    assert grid_x(1) == pytest.approx(12 + 126 / 20)


def test_a_pre_fill_drops_only_the_kinds_it_is_given() -> None:
    """(rulebook: the pre-fill table gives a count of each kind) A kind not named gets no
    piece."""
    pieces = prefill({"apple": 1}, random.Random(2))
    assert [piece.kind for piece in pieces] == ["apple"]


def test_a_pre_fill_that_finds_no_room_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """(table rule: should no spot hold a pre-fill piece, the pre-fill is refused rather than
    short)"""

    def always_spills(pieces: tuple[Piece, ...], *args: object) -> tuple[tuple[Piece, ...], bool]:
        return pieces, True

    monkeypatch.setattr(toss_bin, "drop", always_spills)
    with pytest.raises(RuntimeError, match=r"^No spot in the bin holds another tin can\.$"):
        prefill({"can": 1}, random.Random(2))

"""Dumpster Brawl! pictures: real observations from seeded engine games, pixel facts checked.

The engine is played here (the render module itself never imports it): random legal moves
from a fixed seed, so every observation is one the bot can really produce.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Callable

import pytest
from PIL import Image

from render import brawl
from render.brawl.hand import _group_words
from render.common import HIGHLIGHT, Box, Colour, shade
from render.common.caption import caption_height
from render.common.record import recording
from rules.brawl.data import CARDS, CHARACTERS, KINDS
from rules.brawl.engine import BRAWL, State
from rules.brawl.observation import BrawlObservation, CardView, RollView
from rules.phrases import Readers

NAMES = ["Alice", "Bob", "Chandrasekhar the Magnificent", "Dee", "Eve", "Fay"]
MODES = ["round-rummage", "king-of-the-heap", "rummy"]
CHARACTER_VIEWS = {
    c.key: {"key": c.key, "name": c.name, "animal": c.animal, "affinity": c.affinity}
    for c in CHARACTERS
}


def play(
    mode: str,
    seats: int,
    seed: int = 3,
    steps: int = 80,
    stop: Callable[[BrawlObservation], bool] | None = None,
) -> State:
    """A game of random legal moves: `steps` actions, or until `stop` holds."""
    state = BRAWL.new_game(seats, {"mode": mode}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        acting = BRAWL.to_act(state)
        if not acting:
            break
        seat = min(acting)
        state = BRAWL.apply(state, seat, rng.choice(BRAWL.legal_actions(state, seat))).state
        if stop is not None and stop(observe(state, None)):
            break
    return state


def observe(state: State, seat: int | None) -> BrawlObservation:
    return BRAWL.observe(state, seat)  # type: ignore[return-value]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def share_of(image: Image.Image, box: Box, colour: Colour) -> float:
    region = image.convert("RGB").crop(box)
    found = {c: n for n, c in region.getcolors(region.width * region.height) or []}
    return found.get(colour, 0) / (region.width * region.height)


def card(key: str, nth: int = 0) -> CardView:
    """A real card of `key` (the `nth` copy), as a hand shows it."""
    found = [c for c in CARDS if c.key == key][nth]
    return CardView(id=found.id, type=found.type, key=found.key, name=found.name)


def cards(key: str, count: int) -> list[CardView]:
    return [card(key, n) for n in range(count)]


def own_view(mode: str = "round-rummage", seats: int = 4) -> BrawlObservation:
    return observe(play(mode, seats, steps=40), 0)


GAMES = [(mode, seats) for mode in MODES for seats in (3, 6)]


# --- the table ------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "seats"), GAMES)
def test_the_table_renders_for_every_mode_and_seat_count(mode: str, seats: int) -> None:
    """draw_table gives a decodable PNG of the laid-out size, 1000 px wide, for 3 and 6 seats
    in each mode, mid-game."""
    obs = observe(play(mode, seats, steps=90), None)
    image = decode(brawl.draw_table(obs, NAMES[:seats]))
    assert image.size == brawl.table_size(seats, mode == "rummy")
    assert image.width == 1000
    assert 400 <= image.height <= 800 + caption_height(1000)  # the last move's caption


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_placards_do_not_overlap_and_stay_on_the_picture(seats: int) -> None:
    """Every seat's placard lies inside the picture, above the piles strip, clear of the others."""
    for rummy in (False, True):
        width, _ = brawl.table_size(seats, rummy)
        boxes = [brawl.placard_box(seats, seat, rummy) for seat in range(seats)]
        strip_top = brawl.strip_box(seats, rummy)[1]
        for index, (left, top, right, bottom) in enumerate(boxes):
            assert 0 <= left < right <= width and brawl.GRID_TOP <= top < bottom < strip_top
            for other in boxes[index + 1 :]:
                assert right <= other[0] or other[2] <= left or bottom <= other[1]


def test_the_seat_to_act_is_highlighted() -> None:
    """The name band of the seat in `to_act` is filled with HIGHLIGHT; no other band is."""
    obs = observe(play("round-rummage", 5, steps=33), None)
    assert obs["to_act"]
    image = decode(brawl.draw_table(obs, NAMES[:5]))
    for seat in range(5):
        share = share_of(image, brawl.band_box(5, seat, False), HIGHLIGHT)
        assert (share > 0.4) == (seat in obs["to_act"]), seat


def test_the_public_table_never_reads_a_hand() -> None:
    """Secrecy: the table is byte-identical whether the observation carries a hand, another
    hand of the same size, or none at all."""
    state = play("round-rummage", 4, steps=50)
    public = observe(state, None)
    mine = observe(state, 0)
    assert mine["hand"]
    other = copy.deepcopy(mine)
    other["hand"] = cards("slug", len(mine["hand"]))
    other["seat"] = None
    pictures = {brawl.draw_table(view, NAMES[:4]) for view in (public, mine, other)}
    assert len(pictures) == 1


def test_the_king_wears_a_crown_in_king_of_the_heap() -> None:
    """King of the Heap: the King's placard shows the crown's gold; nobody else's does."""
    obs = observe(play("king-of-the-heap", 4, steps=30), None)
    king = obs["king"]
    assert king >= 0
    image = decode(brawl.draw_table(obs, NAMES[:4]))
    for seat in range(4):
        left, top, _, _ = brawl.placard_box(4, seat, False)
        area = (left + 6, top + 40, left + 80, top + 70)
        assert (share_of(image, area, brawl.CROWN_GOLD) > 0.02) == (seat == king), seat
    assert "the King" in brawl.caption(obs, NAMES) or obs["phase"] != "attack"


def test_marks_for_stink_cloud_and_slippery_lid_appear() -> None:
    """A seat under a Stink Cloud or a Slippery Lid gets a chip in that Blocker's colour."""
    obs = observe(play("round-rummage", 3, steps=20), None)
    plain = decode(brawl.draw_table(obs, NAMES[:3]))
    obs["stink"] = [0, 2, 0]
    obs["slippery"] = [2]
    marked = decode(brawl.draw_table(obs, NAMES[:3]))
    for seat, colour in ((1, brawl.STINK), (2, brawl.SLIPPERY)):
        box = brawl.placard_box(3, seat, False)
        assert share_of(plain, box, colour) == 0
        assert share_of(marked, box, colour) > 0.005


def test_rummy_shows_laid_cards_and_points() -> None:
    """Rummy placards list laid-down cards by kind and the points ("3 pts")."""
    state = play("rummy", 3, steps=400, stop=lambda o: any(o["laid"]))
    obs = observe(state, None)
    seat = next(s for s, laid in enumerate(obs["laid"]) if laid)
    image = decode(brawl.draw_table(obs, NAMES[:3]))
    left, top, right, bottom = brawl.placard_box(3, seat, True)
    key = obs["laid"][seat][0]["key"]
    chip = shade(brawl.KIND_ART[key].colour, 0.55)
    assert share_of(image, (left, top + brawl.CELL_H, right, bottom), chip) > 0.005


def test_a_finished_game_names_the_winner() -> None:
    """Once over, the caption names the winner (or the draw) and nobody is highlighted."""
    obs = observe(play("round-rummage", 3, seed=5, steps=6000), None)
    assert obs["finished"]
    text = brawl.caption(obs, NAMES[:3])
    assert "wins" in text or "draw" in text
    image = decode(brawl.draw_table(obs, NAMES[:3]))
    assert share_of(image, (0, 0, *image.size), HIGHLIGHT) == 0


def test_captions_tell_what_is_left() -> None:
    """The caption counts what is left of a rummage: draws and discards."""
    state = play("round-rummage", 3, steps=300, stop=lambda o: o["phase"] == "rummage")
    obs = observe(state, None)
    assert obs["phase"] == "rummage"
    text = brawl.caption(obs, NAMES[:3])
    assert "rummages" in text
    if obs["draws"]:
        assert "draw" in text


# --- the dice -------------------------------------------------------------------------------


def fight_state() -> State:
    return play("round-rummage", 4, steps=200, stop=lambda o: len(o["rolls"]) >= 3)


def test_draw_rolls_is_none_with_nothing_new() -> None:
    """No rolls after `since_step` (and no start roll asked for): None."""
    obs = observe(fight_state(), None)
    assert brawl.draw_rolls(obs, NAMES[:4], obs["step"]) is None


def test_draw_rolls_pictures_a_fight_in_blue_and_green() -> None:
    """After a fight the rolls picture shows the attacker's blue dice and the defender's
    green ones, one row per roll."""
    obs = observe(fight_state(), None)
    purposes = {roll["purpose"] for roll in obs["rolls"]}
    assert {"attack", "defence"} <= purposes
    since = obs["rolls"][0]["step"] - 1
    image = decode(brawl.draw_rolls(obs, NAMES[:4], since) or b"")
    rolls = brawl.new_rolls(obs, since)
    assert image.width == brawl.ROLLS_W
    assert image.height >= 48 + len(rolls) * brawl.ROLL_ROW_H
    whole = (0, 0, *image.size)
    assert share_of(image, whole, brawl.DIE_BLUE) > 0.01
    assert share_of(image, whole, brawl.DIE_GREEN) > 0.01


def test_the_start_roll_comes_first_only_from_step_zero() -> None:
    """since_step 0 adds the start-player rounds above the rolls; a later step does not."""
    obs = observe(fight_state(), None)
    assert obs["start_rolls"]
    first = decode(brawl.draw_rolls(obs, NAMES[:4], 0) or b"")
    later = decode(brawl.draw_rolls(obs, NAMES[:4], 1) or b"")
    extra = len(obs["start_rolls"]) * brawl.START_ROW_H
    assert first.height - later.height >= extra
    only_start = copy.deepcopy(obs)
    only_start["rolls"] = []
    only_start["verdicts"] = []  # nor a fight decided
    assert brawl.draw_rolls(only_start, NAMES[:4], 0) is not None
    assert brawl.draw_rolls(only_start, NAMES[:4], 1) is None


def test_at_most_eight_rolls_are_drawn() -> None:
    """More than eight new rolls: the latest eight, oldest first."""
    obs = observe(play("round-rummage", 3, steps=400), None)
    assert len(obs["rolls"]) > 8
    rolls = brawl.new_rolls(obs, 0)
    assert rolls == obs["rolls"][-8:]


def a_roll(colour: str, purpose: str, dice: list[int]) -> RollView:
    return RollView(step=1, seat=0, colour=colour, purpose=purpose, dice=dice, crowbars=0, pluses=0)


def test_roll_counts_say_what_matters() -> None:
    """Attacks count crowbars, defences lids, rummages pluses and (outside Rummy) minuses."""
    obs = observe(fight_state(), None)
    dice = [1, 1, 2, 1, 2, 2]  # 3 crowbar-minus, 3 lid-plus
    assert brawl.roll_counts(obs, a_roll("blue", "attack", dice)) == ["3 crowbars"]
    assert brawl.roll_counts(obs, a_roll("green", "defence", [1, 2, 2, 2, 1])) == ["3 lids"]
    assert brawl.roll_counts(obs, a_roll("green", "reroll", [1, 2, 2, 2, 1])) == ["3 lids"]
    rummage = a_roll("blue", "rummage", dice)
    assert brawl.roll_counts(obs, rummage) == ["+3 to draw", "-3 to discard"]
    obs["mode"] = "rummy"
    assert brawl.roll_counts(obs, rummage) == ["+3 to draw"]


# --- the hand -------------------------------------------------------------------------------


def test_three_pizza_boxes_are_a_highlighted_set() -> None:
    """hand_groups marks 3 Pizza Boxes as a set (first), and the picture frames that group
    in the set colour while an odd card's group is not."""
    obs = own_view()
    obs["affinity"] = False
    obs["hand"] = [*cards("pizza", 3), card("news")]
    groups = brawl.hand_groups(obs)
    assert [(g.key, g.count, g.is_set) for g in groups] == [("pizza", 3, True), ("news", 1, False)]
    image = decode(brawl.draw_hand(obs, "Alice"))
    placed = dict((g.key, box) for g, box in brawl.hand_layout(groups))
    assert share_of(image, placed["pizza"], brawl.SET_GLOW) > 0.02
    assert share_of(image, placed["news"], brawl.SET_GLOW) == 0


def test_two_of_the_affinity_kind_make_a_set() -> None:
    """With affinity on, two of the seat's character's kind are a set; two of another are not."""
    obs = own_view()
    assert obs["affinity"]
    mine = obs["characters"][0]["affinity"]
    other = next(k.key for k in KINDS if k.key != mine)
    obs["hand"] = cards(mine, 2) + cards(other, 2)
    sets = {g.key: g.is_set for g in brawl.hand_groups(obs)}
    assert sets == {mine: True, other: False}
    obs["affinity"] = False
    assert not any(g.is_set for g in brawl.hand_groups(obs))


def test_the_verdict_counts_sets_slugs_and_odd_cards() -> None:
    """The hand's line says how far it is from winning, and when it wins."""
    obs = own_view()
    obs["affinity"] = False
    obs["hand"] = cards("pizza", 3) + cards("tin", 3) + [card("slug")] + cards("egg", 2)
    text = brawl.hand_verdict(obs)
    assert text.startswith("2 sets, 1 Slug and 2 odd cards: not a winning hand")
    winning = cards("pizza", 3) + cards("tin", 4) + cards("egg", 3)
    obs["hand"] = winning
    assert brawl.hand_verdict(obs) == "3 sets and nothing else: a winning hand!"
    obs["hand"] = [*winning, card("wind")]
    assert "1 Booster" in brawl.hand_verdict(obs)
    rummy = own_view("rummy")
    assert brawl.hand_verdict(rummy).startswith("Rummy: your scoring area holds")


def test_slugs_and_boosters_are_explained() -> None:
    """A Slug's group says it blocks a win; a Booster's shows when to play it and what it
    does, from data.BOOSTERS (its card is too small to say it legibly)."""
    obs = own_view()
    obs["hand"] = [card("slug"), card("elbow")]
    words = {g.key: _group_words(g, "en")[1] for g in brawl.hand_groups(obs)}
    assert "blocks a win" in words["slug"]
    assert words["elbow"] == "you roll in combat: one more die of your colour"


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("count", [0, 1, 15, 34])
def test_the_hand_fits_in_a_thousand_pixels(count: int, language: str) -> None:
    """Hands from empty to 34 cards: 1000 px wide, groups wrap to more rows, all inside, in
    every language (its words decide how tall each group's note is)."""
    obs = own_view()
    every = [card(k.key, n) for n in range(4) for k in KINDS] + cards("slug", 2)
    obs["hand"] = every[:count]
    image = decode(brawl.draw_hand(obs, "Alice", language))
    assert image.width == 1000
    for _, (left, _top, right, bottom) in brawl.hand_layout(brawl.hand_groups(obs), language):
        assert 0 <= left < right <= 1000 and bottom < image.height


def test_every_kind_has_an_icon_and_its_own_colour() -> None:
    """The one table covers all 13 kinds, with 13 different colours and non-empty icons."""
    assert set(brawl.KIND_ART) == {k.key for k in KINDS}
    assert len({art.colour for art in brawl.KIND_ART.values()}) == 13
    for kind in KINDS:
        icon = brawl.kind_icon(kind.key, 48)
        assert icon.getbbox() is not None


# --- the largest pictures ------------------------------------------------------------------


def test_six_seats_and_a_fifteen_card_hand_draw() -> None:
    """The largest table (6 seats), a 15-card hand and the dice all draw (their speed is
    measured by `make bench`)."""
    state = play("round-rummage", 6, steps=120)
    public, mine = observe(state, None), observe(state, 0)
    mine["hand"] = [card(k.key, n) for n in range(2) for k in KINDS][:15]
    assert decode(brawl.draw_table(public, NAMES)).width > 0
    assert decode(brawl.draw_hand(mine, "Alice")).width > 0
    rolls = brawl.draw_rolls(public, NAMES, 0)
    assert rolls is None or decode(rolls).width > 0


def test_an_ai_seat_is_named_without_nested_brackets() -> None:
    """The character comes first and the player in brackets; an AI seat's own "(AI)" folds
    into them ("Bandit (Rusty, AI)"), with its level where it has one (issue 39: "Bandit
    (Grime, AI, hard)"), on the board and the dice alike."""
    obs = BRAWL.observe(play("round-rummage", 3, steps=0), None)
    names = ["Alice", "Grime (AI, hard)", "Rusty (AI)"]
    character = obs["characters"][2]["name"]
    assert brawl.who(obs, names, 2) == f"{character} (Rusty, AI)"
    assert brawl.who(obs, names, 1) == f"{obs['characters'][1]['name']} (Grime, AI, hard)"
    assert brawl.who(obs, names, 0) == f"{obs['characters'][0]['name']} (Alice)"
    # In French the mark reads "IA" and the character's name is French: folded the same.
    french = Readers(["Alice", "Grime (IA, difficile)", "Rusty (IA)"], "fr")
    bandit = {**obs, "characters": [CHARACTER_VIEWS["bandit"]] * 3}
    assert brawl.who(bandit, french, 1) == "Bandit (Grime, IA, difficile)"
    squeakers = {**obs, "characters": [CHARACTER_VIEWS["squeakers"]] * 3}
    assert brawl.who(squeakers, french, 2) == "Couinette (Rusty, IA)"


def test_the_start_roll_is_told_on_the_first_turn_and_not_after() -> None:
    """Nothing stale stays on a board (issue 38): "X won the start roll" is news on the
    first turn only, not on the last board of the game."""
    rng, state = random.Random(2), BRAWL.new_game(3, {}, 2)
    said = []
    while BRAWL.outcome(state) is None and state.step < 60:
        obs = BRAWL.observe(state, None)
        with recording() as notes:
            brawl.draw_table(obs, ["Ann", "Bob", "Cy"])
        said.append((obs["turns"], any("start roll" in n.text for n in notes)))
        seat = min(BRAWL.to_act(state))
        state = BRAWL.apply(state, seat, rng.choice(BRAWL.legal_actions(state, seat))).state
    assert said[0] == (1, True)
    assert [turns for turns, told in said if told] == [t for t, _ in said if t <= 1]
    assert any(turns > 1 for turns, _ in said)

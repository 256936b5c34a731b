"""Trash War's AI levels: the hard AI's sampled worlds, and what each level promises.

- `sample` deals a world its seat could be in: the seat sees exactly its own observation
  there, the hidden cards vary from world to world, the piles it saw filled stay as they
  are, and Trash just drawn stays Trash in its drawer's hand;
- the hard AI reads no more than its observation: two tables alike but for what the seat
  cannot see get the same choice;
- the playouts play as the normal AI does, on a quicker apply that reaches the same state;
- every level is seeded and only ever returns a legal action;
- each level's character: hard saves its last wall; easy blocks even a harmless hit with
  its biggest Shield, never deflects, burns late, and with no Trash discards its first
  card.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import LEVELS, Level
from rules.trashwar import ai, levels
from rules.trashwar.cards import CARDS, TRASH
from rules.trashwar.engine import TRASH_WAR, State
from rules.trashwar.observation import out_of_sight
from rules.trashwar.sample import Knowledge, sample
from rules.trashwar.state import DRAWN
from tests.rules.test_trashwar import build, card_list

SEARCH_ITERATIONS = 24  # enough to show the search's habits, few enough to stay fast


@pytest.fixture(autouse=True)
def _small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "ITERATIONS", SEARCH_ITERATIONS)


def positions(seats: int, seed: int, every: int = 7) -> Iterator[State]:
    """Every `every`-th state of a seeded game between normal AIs."""
    state = TRASH_WAR.new_game(seats, {}, seed)
    rng = random.Random(seed)
    step = 0
    while TRASH_WAR.outcome(state) is None:
        if step % every == 0:
            yield state
        seat = min(TRASH_WAR.to_act(state))
        legal = TRASH_WAR.legal_actions(state, seat)
        action = TRASH_WAR.choose(TRASH_WAR.observe(state, seat), legal, rng)
        state = TRASH_WAR.apply(state, seat, action).state
        step += 1


def choice(state: State, level: Level, seed: int) -> str:
    seat = min(TRASH_WAR.to_act(state))
    legal = TRASH_WAR.legal_actions(state, seat)
    observation = TRASH_WAR.observe(state, seat)
    return TRASH_WAR.choose(observation, legal, random.Random(seed), level)


# --- the sampled worlds --------------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_a_sampled_world_shows_the_seat_its_own_observation(seats: int, seed: int) -> None:
    """(hard AI: it searches only worlds it could be in) whoever looks, at any point of a
    war, sees in a sampled world exactly what they see in the real one, and in the world it
    has the same moves; the world holds each of the 112 cards once."""
    rng = random.Random(seed)
    for state in positions(seats, seed):
        acting = min(TRASH_WAR.to_act(state))
        for seat in [None, *range(seats)]:
            observation = TRASH_WAR.observe(state, seat)
            world = sample(observation, rng)
            assert TRASH_WAR.observe(world, seat) == observation
            assert sorted(card_list(world)) == list(range(len(CARDS)))
            if seat == acting:
                legal = TRASH_WAR.legal_actions(state, seat)
                assert TRASH_WAR.legal_actions(world, seat) == legal


def test_the_hidden_cards_vary_from_world_to_world() -> None:
    """(hard AI: it samples the hidden cards, not one fixed guess) the other hands and the
    draw pile differ between worlds drawn from one observation."""
    state = next(positions(3, 11, every=40))
    observation = TRASH_WAR.observe(state, 0)
    rng = random.Random(1)
    worlds = [sample(observation, rng) for _ in range(20)]
    assert len({world.hands[1] for world in worlds}) > 10
    assert len({world.draw for world in worlds}) > 10
    assert all(world.hands[0] == state.hands[0] for world in worlds)


def test_a_sampled_world_keeps_the_piles_the_table_saw() -> None:
    """(hard AI: it counts the cards played, as a player with a good memory does) after a
    recycling, every world keeps the recycle, torched and out piles as they are and deals
    the draw pile only from the pile it was shuffled from; which of those cards are still
    in it varies from world to world."""
    state = next(s for s in positions(3, 0, every=1) if s.torch_phase == 2 and len(s.recycle) > 3)
    assert state.reshuffled and set(state.draw) <= set(state.reshuffled)
    rng = random.Random(2)
    worlds = [sample(TRASH_WAR.observe(state, state.turn), rng) for _ in range(20)]
    for world in worlds:
        assert (world.recycle, world.torched, world.out) == (
            state.recycle,
            state.torched,
            state.out,
        )
        assert set(world.draw) <= set(state.reshuffled)
    assert len({frozenset(world.draw) for world in worlds}) > 1


def test_the_piles_shown_name_the_draw_piles_cards_but_never_their_order() -> None:
    """(secrets: nobody learns the draw pile's order) the observation lists the cards a
    recycling shuffled into the draw pile in id order, whatever order the shuffle left."""
    state = next(s for s in positions(3, 0, every=1) if s.torch_phase == 2)
    shown = TRASH_WAR.observe(state, None)["shuffled_into_draw"]
    assert shown == sorted(shown)
    assert set(state.draw) <= set(shown)


def test_out_of_sight_is_exactly_the_draw_pile_and_the_other_hands() -> None:
    """(counting cards: every card not in the draw pile or another hand is in view) at
    every position of a war, for every seat, the cards out of its sight are the draw
    pile's and the other knights' hands', after recyclings and with batted trash held."""
    recycled = held = False
    for state in (s for seed in (8, 10) for s in positions(4, seed, every=1)):
        recycled, held = recycled or state.torch_phase > 1, held or bool(state.held)
        for seat in range(4):
            hidden = set(state.draw).union(*(h for p, h in enumerate(state.hands) if p != seat))
            assert out_of_sight(TRASH_WAR.observe(state, seat)) == sorted(hidden)
    assert recycled and held  # the wars ran past a recycling and a Mace's swing


def test_the_trash_a_knight_has_just_drawn_stays_in_their_hand() -> None:
    """(rules: a drawn Trash must be thrown) while a knight holds the Trash they drew, every
    world the others sample gives that knight Trash as the last card of their hand."""
    drawing = (s for seed in range(20) for s in positions(3, seed, every=1) if s.phase == DRAWN)
    state = next(drawing)
    other = (state.turn + 1) % 3
    rng = random.Random(4)
    for _ in range(50):
        world = sample(TRASH_WAR.observe(state, other), rng)
        assert CARDS[world.hands[state.turn][-1]].kind == TRASH
        assert world.drawn == world.hands[state.turn][-1]


def test_the_knowledge_read_from_an_observation_holds_no_hidden_card() -> None:
    """(the AI never reads what its seat can't see) what `sample` keeps of an observation
    has the other hands and the draw pile empty."""
    state = next(positions(4, 3, every=25))
    public = Knowledge.read(TRASH_WAR.observe(state, 2)).public
    assert [len(hand) for hand in public.hands] == [0, 0, len(state.hands[2]), 0]
    assert public.draw == ()


def test_the_playouts_play_the_normal_ai_and_the_rules() -> None:
    """(hard AI: its playouts are the normal AI's play) the glance the playouts give the
    normal AI gets the choice the whole observation gets, and the imagined war's quicker
    apply reaches the engine's next state, the log's caption aside."""
    for k, state in enumerate(positions(4, 17, every=3)):
        seat = min(TRASH_WAR.to_act(state))
        legal = TRASH_WAR.legal_actions(state, seat)
        seen = TRASH_WAR.observe(state, seat)
        assert ai.choose(levels.glance(state, seat), legal, random.Random(k)) == ai.choose(
            seen, legal, random.Random(k)
        )
        for action in legal[:3]:
            imagined = levels.ImaginedWar(TRASH_WAR).apply(state, seat, action).state
            real = TRASH_WAR.apply(state, seat, action).state
            assert replace(imagined, last_move=None) == replace(real, last_move=None)


# --- every level ---------------------------------------------------------------------------


def test_every_level_plays_only_legal_actions_and_replays_the_same() -> None:
    """(issue 39: the AI is seeded) at each level, the same observation and seed give the
    same action, and it is one of the legal actions."""
    states = list(positions(3, 21, every=23))
    for level in LEVELS:
        for k, state in enumerate(states):
            seat = min(TRASH_WAR.to_act(state))
            action = choice(state, level, k)
            assert action in TRASH_WAR.legal_actions(state, seat)
            assert choice(state, level, k) == action


def test_the_hard_ai_reads_nothing_its_seat_cannot_see() -> None:
    """(the hard AI samples what it cannot see) tables alike but for the other hands and
    the draw pile's order get the same choices from the same seeds."""
    tables = [s for s in positions(3, 8, every=1) if s.phase == "attack" and s.step > 10]
    for k, state in enumerate(tables[:4]):
        seat = state.turn
        hands = list(state.hands)
        others = sorted((p for p in range(3) if p != seat), key=lambda p: len(hands[p]))
        # Deal the other two knights' cards again, each keeping their hand's size.
        pool = [c for p in others for c in hands[p]]
        random.Random(k).shuffle(pool)
        size = len(hands[others[0]])
        hands[others[0]], hands[others[1]] = tuple(pool[:size]), tuple(pool[size:])
        twin = replace(state, hands=tuple(hands), draw=tuple(reversed(state.draw)))
        assert TRASH_WAR.observe(twin, seat) == TRASH_WAR.observe(state, seat)
        assert twin.hands != state.hands
        for seed in range(2):
            assert choice(twin, "hard", seed) == choice(state, "hard", seed)


def test_the_search_weighs_choices_that_differ_not_the_same_throw_at_twin_walls() -> None:
    """The hard AI's shortlist holds one action of each kind: a throw at one of two bare
    walls of a knight does what it does at the other, and trash of the same face but for
    its flavour name does the same; a wall with other trash on it is another choice."""
    state = build(
        hands={0: ["toaster2", "tv2", "piano3"]},
        walls={1: [[], [], ["car1"]], 2: [[], [], []]},
    )
    observation = TRASH_WAR.observe(state, 0)
    legal = TRASH_WAR.legal_actions(state, 0)
    kinds = {levels.alike(observation, action) for action in legal}
    chosen = levels.shortlist(observation, legal)
    assert len(chosen) == levels.SHORTLIST < len(kinds) < len(legal)
    assert len({levels.alike(observation, action) for action in chosen}) == len(chosen)
    alike = levels.alike
    assert alike(observation, "play toaster2 at p1 left") == alike(
        observation, "play tv2 at p1 middle"
    )
    assert alike(observation, "play toaster2 at p1 left") != alike(
        observation, "play tv2 at p1 right"
    )
    assert alike(observation, "play toaster2 at p1 left") != alike(
        observation, "play toaster2 at p2 left"
    )


def test_the_search_weighs_a_throw_at_every_knight_still_in() -> None:
    """Whom to attack shapes a war of three: when the normal AI's best-liked kinds all fly
    at one knight, the hard AI's shortlist adds its best-liked throw at the other."""
    state = build(
        hands={0: ["toaster2", "tv1", "piano3", "car1"]},
        walls={1: [["tv2"], ["car2"], ["leftovers1", "gator1"]], 2: [[], [], []]},
    )
    observation = TRASH_WAR.observe(state, 0)
    legal = TRASH_WAR.legal_actions(state, 0)
    chosen = levels.shortlist(observation, legal)
    assert all(" at p1 " in action for action in chosen[: levels.SHORTLIST])
    assert chosen[levels.SHORTLIST :] == ["play piano3 at p2 left"]


# --- each level's character ----------------------------------------------------------------


def test_the_hard_ai_saves_its_last_wall() -> None:
    """(hard) trash that would topple the last wall standing is blocked when a Shield can."""
    state = build(
        hands={0: ["shield2", "toaster2", "mace-left", "burn2"]},
        walls={0: [None, ["piano1", "car1"], None]},
        flight=[("toaster2", 0, "middle", 1)],
        phase="defend",
        turn=0,
    )
    assert choice(state, "hard", 1) == "play shield2"


def test_the_easy_ai_spends_its_biggest_shield_on_a_harmless_hit() -> None:
    """(easy's habit) a 1 at an undamaged wall is blocked with the biggest Shield held."""
    state = build(
        hands={0: ["shield1", "shield3", "deflect", "toaster2"]},
        flight=[("tv1", 0, "left", 1)],
        phase="defend",
        turn=0,
    )
    assert choice(state, "easy", 1) == "play shield3"
    assert choice(state, "normal", 1) != "play shield3"


def test_the_easy_ai_forgets_its_deflect() -> None:
    """(easy's habit) with only a Deflect to save a wall, the beginner takes the hit."""
    state = build(
        hands={0: ["deflect", "toaster2"]},
        walls={0: [["tv2", "piano1"], [], []]},
        flight=[("xray2", 0, "left", 1)],
        phase="defend",
        turn=0,
    )
    assert choice(state, "easy", 1) == "take"
    assert choice(state, "normal", 1).startswith("play deflect")


def test_the_easy_ai_with_no_trash_discards_its_first_card() -> None:
    """(easy's habit) it discards the card it has held longest, even a Mace."""
    state = build(hands={0: ["mace-any++", "shield1", "burn2"]}, phase="attack", turn=0)
    assert choice(state, "easy", 1) == "discard mace-any++"
    assert choice(state, "normal", 1) != "discard mace-any++"


def test_the_easy_ai_burns_only_a_wall_about_to_fall() -> None:
    """(easy's habit) trash on a wall looks dangerous to it only one point from falling."""
    hand = {0: ["burn3", "toaster2"]}
    worn = build(hands=hand, walls={0: [["tv2"], [], []]}, phase="burn", turn=0)
    assert choice(worn, "easy", 1) == "pass"
    assert choice(worn, "normal", 1) != "pass"
    tottering = build(hands=hand, walls={0: [["tv2", "piano1"], [], []]}, phase="burn", turn=0)
    assert choice(tottering, "easy", 1).startswith("play burn3 left")

"""Trash War's hard AI reads the others' hands from their defences (`rules/trashwar/reading.py`).

- a hit a knight lets land rules out the cards the normal AI would have met it with: a
  Shield strong enough (not a big one for a harmless 1) and, for a hit that hurts, a Mace;
- the reading never rules out the hand a normal knight really holds, however many cards
  they have played and drawn since;
- the worlds the hard AI searches lean away from the cards a hit ruled out.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.trashwar import reading
from rules.trashwar.cards import CARDS, PLAY_IDS
from rules.trashwar.engine import TRASH_WAR
from rules.trashwar.sample import Knowledge
from tests.rules.test_trashwar import build, play
from tests.rules.test_trashwar_levels import positions


def codes(cards: frozenset[int]) -> set[str]:
    return {CARDS[card].code for card in cards}


def hit_on_seat_1(trash: str, wall: list[str] | None = None) -> reading.Tell:
    """Seat 1 lets `trash` (thrown by seat 0) hit its left wall; seat 0 reads it."""
    state = build(
        hands={0: ["tv1"], 1: ["tv2", "car1"]},
        walls={1: [wall or [], [], []]},
        turn=1,
        phase="defend",
        flight=[(trash, 1, "left", 0)],
    )
    state = play(state, 1, "take")
    (tell,) = reading.read(TRASH_WAR.observe(state, 0))
    assert tell.seat == 1
    return tell


def test_a_hit_that_hurts_rules_out_the_shields_that_stop_it_and_every_mace() -> None:
    """(normal AI: a Shield strong enough blocks, a Mace meets a hit that hurts) a hit of 3
    says its knight held no Shield of 3 or more and no Mace; a Shield of 2 stays possible."""
    tell = hit_on_seat_1("toaster3")
    assert codes(tell.ruled_out) == {
        "shield3",
        "shield4+",
        "mace-left",
        "mace-right",
        "mace-back",
        "mace-any++",
    }


def test_a_harmless_hit_rules_out_only_the_small_shields() -> None:
    """(normal AI: a big Shield is not spent on a harmless 1, nor a Mace) a hit of 1 on a
    wall it cannot bring down rules out Shields of 1 and 2 only."""
    assert codes(hit_on_seat_1("toaster1").ruled_out) == {"shield1", "shield2"}


def test_a_hit_that_fells_a_wall_rules_out_every_shield_that_stops_it() -> None:
    """(normal AI: any Shield strong enough saves a wall) a 1 that brings a wall down rules
    out every Shield and every Mace."""
    tell = hit_on_seat_1("toaster1", wall=["car3"])
    shields = {c.code for c in CARDS if c.kind == "shield"}
    assert shields <= codes(tell.ruled_out)
    assert "mace-back" in codes(tell.ruled_out)


def test_a_hand_still_holding_a_card_the_hit_ruled_out_cannot_be() -> None:
    """(reading: no card is drawn while a knight's own turn goes on) in the turn of the
    knight who took the hit, a hand with a Shield that would have stopped it weighs 0; once
    they have thrown and drawn again it may be a new card, and weighs more than 0."""
    tell = hit_on_seat_1("toaster3")
    shield = next(c for c in PLAY_IDS if CARDS[c].code == "shield3")
    other = [c for c in PLAY_IDS if c not in tell.ruled_out][:4]
    assert tell.weight([*other, shield]) == 0.0
    assert tell.weight(other) == 1.0
    later = replace(tell, new=((1, 1.0),))
    assert 0.0 < later.weight([*other, shield]) < 1.0


def test_the_reading_never_rules_out_the_hand_a_normal_knight_holds() -> None:
    """(reading: what is drawn since a hit is counted generously) at every decision of
    normal AI wars, the hand each other knight really holds has a chance above 0."""
    read = 0
    for seed in range(6):
        for state in positions(3, seed, every=1):
            seat = min(TRASH_WAR.to_act(state))
            for tell in reading.read(TRASH_WAR.observe(state, seat)):
                read += 1
                assert tell.weight(state.hands[tell.seat]) > 0, (seed, state.step, tell)
    assert read > 300


def test_the_worlds_searched_lean_away_from_the_cards_a_hit_ruled_out() -> None:
    """(hard AI: it reads the others' defences) a knight who let a 3 through holds a card
    that would have stopped it in fewer sampled worlds than when the hit goes unread."""
    state = build(
        hands={0: ["tv1", "tv2"], 1: ["tv2", "car1", "car2", "drum1"]},
        turn=1,
        phase="defend",
        flight=[("toaster3", 1, "left", 0)],
        draw_top=["car3"],
    )
    state = play(state, 1, "take")
    knowledge = Knowledge.read(TRASH_WAR.observe(state, 0))
    (tell,) = knowledge.tells
    unread = replace(knowledge, tells=())

    def holding(knowing: Knowledge) -> int:
        rng = random.Random(5)
        worlds = [knowing.sample(rng) for _ in range(300)]
        return sum(any(c in tell.ruled_out for c in world.hands[1]) for world in worlds)

    assert holding(knowledge) == 0  # their turn goes on: they have drawn nothing since
    assert holding(unread) > 50

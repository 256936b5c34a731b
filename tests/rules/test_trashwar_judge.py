"""Trash War's position judge (`rules/trashwar/judge.py`), which the hard AI's search
judges a stopped line by: the chances are a share of the win among the knights still in,
and they grow with the fortress and with the cards in hand, not with the walls alone."""

from __future__ import annotations

import pytest

from rules.trashwar import judge
from rules.trashwar.engine import State
from tests.rules.test_trashwar import build

# Hands alike in worth (a Trash 2 and a Trash 1 each), by codes the deck has enough of.
HANDS = {0: ["toaster2", "piano1"], 1: ["tv2", "car1"], 2: ["xray2", "gator1"]}


def table(card: str, walls: list[list[str] | None] | None = None) -> State:
    """Three knights alike but for one more card in knight 0's hand (and their walls)."""
    hands = {**HANDS, 0: [*HANDS[0], card]}
    return build(hands=hands, walls={0: walls or [[], [], []]}, turn=1)


def test_the_chances_share_one_win_among_the_knights_still_in() -> None:
    """(the last knight standing wins) the chances add up to one, a knight out has none."""
    state = build(hands={0: HANDS[0], 2: HANDS[2]}, eliminated=[1], turn=0)
    chances = judge.chances(state)
    assert chances[1] == 0.0
    assert sum(chances) == pytest.approx(1.0)


@pytest.mark.parametrize("card", ["mace-left", "shield3", "deflect", "burn3", "catapult+"])
def test_a_card_that_defends_or_strikes_is_worth_more_in_hand_than_a_small_trash(
    card: str,
) -> None:
    """(Mace, Shield, Deflect, Burn, Catapult: each saves a wall or topples one later) the
    knight holding it is judged likelier to win than one holding a Trash 1 instead."""
    assert judge.chances(table(card))[0] > judge.chances(table("sardines1"))[0]


def test_a_repair_is_worth_most_with_a_wall_down() -> None:
    """(a Repair raises a fallen wall) a Repair in hand adds more while a wall is down."""
    down: list[list[str] | None] = [None, [], []]
    gain_down = judge.score(table("repair", down), 0) - judge.score(table("tv1", down), 0)
    gain_up = judge.score(table("repair"), 0) - judge.score(table("tv1"), 0)
    assert gain_down > 1.2 * gain_up > 0


def test_damage_on_the_walls_lowers_the_chances() -> None:
    """(four damage topples a wall) a battered fortress is judged weaker."""
    battered = table("tv1", [["piano3"], ["car3"], []])
    assert judge.chances(battered)[0] < judge.chances(table("tv1"))[0]

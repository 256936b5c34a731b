"""Dumpster Brawl!: one test per rule, on hand-made tables where that reads best.

Each test says which rule it checks: "(rulebook: ...)" paraphrases the published rules,
"(house rule: ...)" the project's house rules, "(table rule: ...)" a choice this engine made
where both are silent (listed in the engine's docstring).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from rules.base import IllegalAction, rng_for
from rules.brawl import ai
from rules.brawl.data import (
    BLOCKER_IDS,
    BLUE_FACES,
    BOOSTER_IDS,
    CARDS,
    CHARACTER_INDEX,
    SLUG_IDS,
    TRASH,
)
from rules.brawl.engine import (
    BRAWL,
    KING,
    ROUND,
    RUMMY,
    State,
    _Table,
    crowbars,
    die_value,
    legal_moves,
    new_state,
    opening_events,
    pluses,
    rummy_points,
    start_roll,
    to_act,
    winning_hand,
)
from rules.brawl.observation import BrawlObservation

ISCRATCHU = CHARACTER_INDEX["iscratchu"]
MOOSETACHE = CHARACTER_INDEX["moosetache"]
ALL_SPECIALS = SLUG_IDS + BOOSTER_IDS + BLOCKER_IDS


class Deck:
    """Hands out card ids by key, each id once."""

    def __init__(self) -> None:
        self.free: list[int] = list(range(len(CARDS)))

    def take(self, key: str) -> int:
        for k, card in enumerate(self.free):
            if CARDS[card].key == key:
                return self.free.pop(k)
        raise AssertionError(f"no {key} left")

    def many(self, keys: Sequence[str]) -> tuple[int, ...]:
        return tuple(self.take(key) for key in keys)


def build(
    hands: dict[int, list[str]],
    *,
    seats: int = 3,
    mode: str = ROUND,
    affinity: bool = True,
    characters: Sequence[int] | None = None,
    trash_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    laid: dict[int, list[str]] | None = None,
    empty_trash: bool = False,
    **fields: Any,
) -> State:
    """A table set by hand. `trash_top` are the next cards drawn (first drawn first); the
    rest of the trash cards lie under them unless `empty_trash`. Every Slug, Booster and
    Blocker counts as in the game, so every Booster moment is asked."""
    deck = Deck()
    hand_ids = tuple(deck.many(hands.get(p, [])) for p in range(seats))
    laid_ids = tuple(deck.many((laid or {}).get(p, [])) for p in range(seats))
    discard_ids = deck.many(discard)
    top = deck.many(trash_top)
    rest = () if empty_trash else tuple(c for c in deck.free if CARDS[c].type == TRASH)
    return State(
        seed=fields.pop("seed", 5),
        seats=seats,
        mode=mode,
        affinity=affinity and mode != RUMMY,
        characters=tuple(characters or range(seats)),
        in_play=ALL_SPECIALS,
        start_rolls=((1,) + (0,) * (seats - 1),),
        starter=0,
        hands=hand_ids,
        trash=rest + tuple(reversed(top)),
        discard=discard_ids,
        laid=laid_ids,
        stink=fields.pop("stink", (0,) * seats),
        **fields,
    )


def play(state: State, *actions: str) -> State:
    for action in actions:
        seat = to_act(state)
        assert seat is not None
        assert action in BRAWL.legal_actions(state, seat), (action, state.phase)
        state = BRAWL.apply(state, seat, action).state
    return state


def keys(state: State, seat: int) -> list[str]:
    return sorted(CARDS[c].key for c in state.hands[seat])


SETS = ["soda"] * 3 + ["apple"] * 3


# --- winning hands -----------------------------------------------------------------------------


def test_iscratchu_example() -> None:
    """(rulebook: trash affinity) Three Soda Cans, three Apple Cores and two Take Out win for
    Iscratchu, whose affinity is Take Out, and for nobody else."""
    hand = [*SETS, "takeout", "takeout"]
    state = build({0: hand, 1: hand[:]}, characters=(ISCRATCHU, MOOSETACHE, 2))
    assert winning_hand(state, 0)
    assert not winning_hand(state, 1)
    assert not winning_hand(replace(state, affinity=False), 0)


def test_iscratchu_wins_through_play() -> None:
    """(rulebook: victory on the spot) Iscratchu drawing the second Take Out wins at once."""
    state = build(
        {0: [*SETS, "takeout"], 1: ["pizza"]},
        characters=(ISCRATCHU, MOOSETACHE, 2),
        trash_top=["takeout"],
        phase="rummage",
        actor=0,
        draws=1,
        defender=1,
    )
    state = play(state, "draw trash")
    assert state.finished and state.winners == (0,)


def test_extra_cards_block_victory() -> None:
    """(rulebook: no extra cards) Three sets plus any other card is not a win; a hand may hold
    more than three sets and sets larger than three."""
    state = build({0: [*SETS, "pizza", "pizza", "pizza", "bear"]}, affinity=False)
    assert not winning_hand(state, 0)
    state = build({0: [*SETS, "pizza", "pizza", "pizza", "pizza", "bear", "bear", "bear"]})
    assert winning_hand(replace(state, affinity=False), 0)
    state = build({0: [*SETS, "pizza", "pizza", "pizza", "elbow"]}, affinity=False)
    assert not winning_hand(state, 0)


def test_slugs_never_make_a_set() -> None:
    """(rulebook: Slug cards) Slugs match nothing, not even each other, and block a win."""
    state = build(
        {0: [*SETS, "slug", "slug", "slug"], 1: [*SETS, "pizza", "pizza", "pizza", "slug"]}
    )
    assert not winning_hand(state, 0)
    assert not winning_hand(state, 1)


def test_discarding_the_slug_wins() -> None:
    """(rulebook: Slug cards) Getting rid of the Slug lets the sets win."""
    state = build(
        {0: [*SETS, "pizza", "pizza", "pizza", "slug"], 1: ["bear"]},
        affinity=False,
        phase="pre",
        draws=0,
        discards=1,
    )
    state = play(state, "discard slug")
    assert state.finished and state.winners == (0,)


def test_winning_on_another_players_turn() -> None:
    """(rulebook: winning during someone else's turn) The attacker puts the last card into the
    defender's hand: the defender wins on the attacker's turn."""
    state = build(
        {0: ["pizza", "bear"], 1: [*SETS, "pizza", "pizza"]},
        affinity=False,
        phase="spoils",
        actor=0,
        spoils=1,
        defender=1,
    )
    state = play(state, "give pizza")
    assert state.finished and state.winners == (1,)


def test_simultaneous_victory_goes_to_the_larger_hand() -> None:
    """(rulebook: simultaneous victory) When two hands win at once, the larger victory set
    wins."""
    state = build(
        {0: [*SETS, "pizza", "pizza", "pizza", "raid"], 1: [*SETS, "bear", "bear", "bear", "bear"]},
        affinity=False,
    )
    # The Raid card stands for any non-trash card; swap it by hand to test the tie-break.
    hand0 = tuple(c for c in state.hands[0] if CARDS[c].type == TRASH)
    state = replace(state, hands=(hand0, state.hands[1], ()))
    table = _Table(state)
    table.check_victory()
    assert table.get("winners") == (1,)


def test_equal_simultaneous_victories_roll_off() -> None:
    """(rulebook: simultaneous victory) Equal victory sets roll six dice each until one has
    more crowbars."""
    state = build(
        {0: [*SETS, "pizza", "pizza", "pizza"], 1: ["bear"] * 3 + ["fish"] * 3 + ["milk"] * 3},
        affinity=False,
    )
    table = _Table(state)
    table.check_victory()
    assert table.get("winners") in ((0,), (1,))
    assert any("Roll-off" in str(e.text) for e in table.events)


# --- the turn ----------------------------------------------------------------------------------


def test_draw_or_discard_must_be_declared() -> None:
    """(rulebook: the pre-attack draw or discard is declared first) Before declaring, only
    declarations are offered; a declared draw offers no discard and the other way round;
    "both" gives one of each; "neither" goes straight to the attack."""
    base = build({0: ["pizza", "bear"], 1: ["fish"], 2: ["milk"]})
    legal = legal_moves(base, 0)
    assert {a for a in legal if not a.startswith("declare")} == set()
    drawn = play(base, "declare draw")
    legal = legal_moves(drawn, 0)
    assert "draw trash" in legal and not any(a.startswith("discard") for a in legal)
    drawn = play(drawn, "draw trash", "draw trash")
    assert drawn.phase == "attack" and len(drawn.hands[0]) == 4
    dumped = play(base, "declare discard")
    legal = legal_moves(dumped, 0)
    assert "discard pizza" in legal and "draw trash" not in legal
    both = play(base, "declare both", "discard bear")
    legal = legal_moves(both, 0)
    assert "draw trash" in legal and not any(a.startswith("discard") for a in legal)
    neither = play(base, "declare neither")
    assert neither.phase == "attack"
    assert all(a.startswith("attack") for a in legal_moves(neither, 0))


def test_an_attack_is_compulsory() -> None:
    """(rulebook: a player always attacks) Stopping early is done by attacking; no seat can
    pass its turn."""
    state = play(build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}), "declare neither")
    assert "done" not in legal_moves(state, 0)
    assert legal_moves(state, 0) == ["attack p1", "attack p2"]


def test_empty_trash_pile_reshuffles_the_discard_pile() -> None:
    """(rulebook: an empty trash pile) The discard pile is shuffled into the new trash pile
    when a card is to be drawn from the empty one (table rule: at that moment)."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        discard=["bear", "bear", "egg"],
        empty_trash=True,
        phase="pre",
        draws=2,
    )
    applied = BRAWL.apply(state, 0, "draw trash")
    after = applied.state
    assert len(after.hands[0]) == 2 and after.discard == () and len(after.trash) == 2
    assert any("shuffled" in str(e.text) for e in applied.events)


def test_no_draw_offered_when_both_piles_are_empty() -> None:
    """(table rule: nothing to draw) With both piles empty no draw is offered."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, empty_trash=True, phase="pre", draws=2)
    assert not any(a.startswith("draw") for a in legal_moves(state, 0))


def test_drawing_from_the_discard_pile_takes_its_top() -> None:
    """(house rule: the discard pile's top card) Drawing from the discard pile takes its top
    card."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]}, discard=["bear", "egg"], phase="pre", draws=1
    )
    state = play(state, "draw discard")
    assert keys(state, 0) == ["egg", "pizza"]


def _fight(attack: int, defence: int, mode: str = ROUND, **kw: Any) -> State:
    """A fight whose dice are set: `attack` crowbars of six, `defence` lids of five."""
    a = (1,) * attack + (2,) * (6 - attack)  # 1 a crowbar-minus, 2 a lid-plus
    d = (2,) * defence + (1,) * (5 - defence)
    return build(
        {0: ["pizza", "slug"], 1: ["fish", "fish"], 2: ["milk"]},
        mode=mode,
        phase="wind",
        defender=1,
        dice=(a, d),
        winds=(0, 1),
        **kw,
    )


def test_ties_go_to_the_defender() -> None:
    """(rulebook: ties) Equal crowbars and lids: the defender wins and may take or give up to
    two cards."""
    state = play(_fight(3, 3), "keep", "keep")
    assert state.phase == "spoils" and state.actor == 1 and state.spoils == 2
    state = play(state, "take", "take")
    assert len(state.hands[1]) == 4 and state.hands[0] == ()


def test_the_attacker_wins_takes_one_then_rummages() -> None:
    """(rulebook: attacker wins) More crowbars than lids: one take or give, then a rummage
    roll: draws up to the pluses, then discards up to the minuses."""
    state = play(_fight(4, 3), "keep", "keep")
    assert state.phase == "spoils" and state.actor == 0 and state.spoils == 1
    state = play(state, "give slug")
    assert state.phase == "rummage" and state.actor == 0
    assert state.draws + state.discards == 6


def test_second_wind_rerolls() -> None:
    """(house rule: Second Wind) A fighter holding Second Wind may reroll its dice once."""
    state = _fight(3, 3)
    state = replace(state, hands=(state.hands[0], state.hands[1] + (BOOSTER_IDS[1],), ()))
    state = play(state, "keep")
    assert "reroll" in legal_moves(state, 1)
    state = play(state, "reroll")
    assert BOOSTER_IDS[1] in state.discard


def test_defence_boosters() -> None:
    """(house rule: Extra Elbow, Sturdy Lid) The defender may add a die and an extra lid."""
    state = build({0: ["pizza"], 1: ["elbow", "lid"], 2: ["milk"]}, phase="attack", defender=-1)
    state = play(state, "attack p1")
    assert "defend elbow lid" in legal_moves(state, 1)
    state = play(state, "defend elbow lid")
    assert len(state.dice[1]) == 6 and state.lids == 1 and state.hands[1] == ()


def test_attack_with_extra_elbow() -> None:
    """(house rule: Extra Elbow) The attacker rolls seven dice with Extra Elbow."""
    state = build({0: ["elbow"], 1: ["fish"], 2: ["milk"]}, phase="attack")
    state = play(state, "attack p1 elbow", "defend")
    assert len(state.dice[0]) == 7


# --- setup -------------------------------------------------------------------------------------


def test_start_player_roll() -> None:
    """(rulebook: start player roll) Lids stop rolling, crowbars roll again, all lids roll
    again; the last crowbar left goes first."""
    for seed in range(200):
        seats = 3 + seed % 4
        starter, rounds = start_roll(seed, seats)
        rolling = set(range(seats))
        for row in rounds:
            assert {p for p, f in enumerate(row) if f >= 0} == rolling
            bars = {p for p, f in enumerate(row) if f == 1}
            if bars:
                rolling = bars
        assert rolling == {starter}
        assert rounds[-1].count(1) == 1


def test_opening_events_tell_the_roll() -> None:
    """(rulebook: start player roll) The log shows every round of the start roll."""
    state = BRAWL.new_game(4, {}, 3)
    events = opening_events(state)
    assert len(events) == len(state.start_rolls) + 2
    assert "{p" + str(state.starter) + "}" in str(events[-2].text)


def test_deal_and_blockers_after_the_deal() -> None:
    """(rulebook: setup) Everyone gets as many cards as players, at least four; Blockers are
    shuffled in only after the deal, so no hand starts with one."""
    for seed in range(60):
        seats = 3 + seed % 4
        state = BRAWL.new_game(seats, {"blockers": "5", "boosters": "7", "slugs": "6"}, seed)
        if state.finished:
            continue
        assert all(len(h) == max(seats, 4) for h in state.hands)
        assert not any(CARDS[c].type == "blocker" for h in state.hands for c in h)
        assert sum(CARDS[c].type == "blocker" for c in state.trash) == 5
        assert state.turn == state.starter


def test_options() -> None:
    """(house rule: lobby options) Slugs, Boosters and Blockers from 0 to the printed count;
    characters picked or random; bad values refused."""
    state = BRAWL.new_game(3, {"slugs": "0", "boosters": "0", "blockers": "0"}, 1)
    assert len(state.trash) + sum(map(len, state.hands)) == 91
    state = BRAWL.new_game(3, {"characters": "hissy,bandit"}, 1)
    assert state.characters[:2] == (CHARACTER_INDEX["hissy"], CHARACTER_INDEX["bandit"])
    assert len(set(state.characters)) == 3
    # Picks go by seat; a blank seat (no pick in the lobby) draws from the characters left.
    state = BRAWL.new_game(4, {"characters": ",bandit,,hissy"}, 1)
    assert state.characters[1] == CHARACTER_INDEX["bandit"]
    assert state.characters[3] == CHARACTER_INDEX["hissy"]
    assert len(set(state.characters)) == 4
    bad_picks = ({"characters": "x"}, {"characters": "bandit,bandit"}, {"characters": ",,,"})
    for bad in ({"slugs": "7"}, {"mode": "chess"}, {"affinity": "maybe"}, *bad_picks):
        with pytest.raises(IllegalAction):
            BRAWL.new_game(3, bad, 1)
    with pytest.raises(IllegalAction):
        BRAWL.new_game(2, {}, 1)
    assert not BRAWL.new_game(3, {"mode": "rummy", "affinity": "on"}, 1).affinity


# --- Blockers ----------------------------------------------------------------------------------


def _draw_blocker(key: str, **kw: Any) -> State:
    state = build(
        {0: ["pizza", "bear"], 1: ["fish"], 2: ["milk"]},
        trash_top=[key],
        discard=["egg", "egg"],
        phase="pre",
        draws=2,
        **kw,
    )
    state = play(state, "draw trash")
    assert CARDS[state.aside[-1]].key == key
    return state


def test_blockers_resolve_when_drawn_and_use_the_draw() -> None:
    """(rulebook: Blockers at once; table rule: the draw is used up) A Blocker drawn is
    resolved and set aside before anything else, and counts as the draw."""
    state = _draw_blocker("slippery")
    assert state.slippery == (0,) and state.draws == 1 and len(state.hands[0]) == 2


def test_garbage_truck() -> None:
    """(house rule: Garbage Truck; table rule: clockwise from the drawer) Every player with
    cards discards one of their choice, then the turn goes on."""
    state = _draw_blocker("truck")
    assert state.truck == (0, 1, 2) and to_act(state) == 0
    assert legal_moves(state, 0) == ["discard bear", "discard pizza"]
    state = play(state, "discard bear", "discard fish", "discard milk")
    assert state.truck == () and state.phase == "pre" and to_act(state) == 0
    assert len(state.discard) == 5


def test_raccoon_raid() -> None:
    """(house rule: Raccoon Raid) The left neighbour takes a random card from the drawer."""
    state = _draw_blocker("raid")
    assert len(state.hands[0]) == 1 and len(state.hands[1]) == 2


def test_spilled_bag() -> None:
    """(house rule: Spilled Bag) The discard pile goes into the trash pile."""
    state = _draw_blocker("spill")
    assert state.discard == () and sum(CARDS[c].key == "egg" for c in state.trash) >= 2


def test_stink_cloud() -> None:
    """(house rule: Stink Cloud; table rule: to the end of the drawer's next turn) The drawer
    cannot win meanwhile."""
    state = build(
        {0: ["pizza"] * 3 + ["bear"] * 3 + ["fish"] * 2, 1: ["milk"], 2: ["egg"]},
        affinity=False,
        trash_top=["stink", "fish"],
        phase="pre",
        draws=2,
    )
    state = play(state, "draw trash", "draw trash")
    assert not state.finished and state.stink[0] == 2


def test_slippery_lid_skips_the_rummage() -> None:
    """(house rule: Slippery Lid) The drawer's next rummage roll is skipped."""
    state = replace(_fight(5, 0), slippery=(0,))
    state = play(state, "keep", "keep", "take")
    assert state.slippery == () and state.turn == 1 and state.phase == "declare"


# --- Boosters on one's turn --------------------------------------------------------------------


def test_turn_boosters() -> None:
    """(house rule: Dumpster Dive, Clean Sweep, Quick Swap, Sneak Peek) Played on one's own
    turn, then discarded face down; the peek is private."""
    state = build({0: ["dive", "sweep", "swap", "peek", "slug", "pizza"], 1: ["fish"], 2: ["milk"]})
    legal = legal_moves(state, 0)
    assert {"play dive", "play sweep pizza slug", "play swap p1 slug", "play peek p2"} <= set(legal)
    state = play(state, "play dive")
    assert len(state.hands[0]) == 7
    applied = BRAWL.apply(state, 0, "play peek p1")
    assert [e.to for e in applied.events if "holds" in str(e.text)] == [0]
    state = play(applied.state, "play swap p1 slug", "play sweep pizza")
    assert "slug" in keys(state, 1)


# --- King of the Heap --------------------------------------------------------------------------


def test_king_of_the_heap_setup() -> None:
    """(rulebook: King of the Heap) The start player is King; the King's left neighbour attacks
    first, and only the King can be attacked."""
    state = BRAWL.new_game(4, {"mode": KING}, 11)
    assert state.king == state.starter and state.turn == (state.starter + 1) % 4
    assert legal_moves(state, state.turn)[0] == f"attack p{state.king}"
    assert all(
        a.split()[1] == f"p{state.king}"
        for a in legal_moves(state, state.turn)
        if a.startswith("attack")
    )


def test_the_crown_changes_hands() -> None:
    """(rulebook: King of the Heap) A winning attacker becomes King and rummages with blue
    dice."""
    state = _fight(4, 3, mode=KING, king=1, turn=0)
    applied = BRAWL.apply(play(state, "keep"), 1, "keep")
    state = applied.state
    assert state.king == 0 and state.phase == "rummage" and state.actor == 0
    assert any("blue dice" in str(e.text) and "rummages" in str(e.text) for e in applied.events)


def test_ties_go_to_the_king() -> None:
    """(rulebook: King of the Heap) A tie goes to the King, who rummages with green dice."""
    state = _fight(3, 3, mode=KING, king=1, turn=0)
    applied = BRAWL.apply(play(state, "keep"), 1, "keep")
    assert applied.state.king == 1 and applied.state.actor == 1
    assert any("green dice" in str(e.text) and "rummages" in str(e.text) for e in applied.events)


def test_attack_order_is_counter_clockwise_skipping_the_king() -> None:
    """(rulebook: next attacker counter-clockwise; table rule: from the last attacker, past
    the King)"""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"], 3: ["egg"]},
        seats=4,
        mode=KING,
        king=0,
        turn=1,
        phase="rummage",
        actor=0,
        draws=0,
        discards=0,
    )
    state = play(state, "done")
    assert state.turn == 3 and state.phase == "attack"
    state = replace(state, phase="rummage", actor=0)
    state = play(state, "done")
    assert state.turn == 2


# --- Rummy -------------------------------------------------------------------------------------


def test_rummy_first_lay_down_is_a_set_of_three() -> None:
    """(rulebook: Rummy lay-downs) The first lay-down is three or more of a kind; after it,
    more sets, add-ons to one's own sets and singles onto a kind someone has a set of."""
    state = build(
        {0: ["pizza"] * 3 + ["bear"] + ["fish"], 1: ["milk"], 2: ["egg"]},
        mode=RUMMY,
        laid={1: ["fish"] * 3},
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    legal = legal_moves(state, 0)
    assert "lay pizza 3" in legal and "lay fish 1" not in legal and "lay bear 1" not in legal
    state = play(state, "lay pizza 3")
    legal = legal_moves(state, 0)
    assert "lay fish 1" in legal and "lay bear 1" not in legal
    state = play(state, "lay fish 1")
    assert rummy_points(state)[0] == 4


def test_rummy_has_no_discard_and_no_affinity() -> None:
    """(rulebook: Rummy) No discard before the attack nor after the rummage; no affinity."""
    state = BRAWL.new_game(3, {"mode": RUMMY}, 4)
    assert not state.affinity and state.phase == "pre"
    assert not any(a.startswith(("discard", "declare")) for a in legal_moves(state, state.turn))


def test_rummy_going_out_by_a_steal() -> None:
    """(rulebook: Rummy going out) A player with a set down whose last card is stolen goes
    out first and gets two points more."""
    state = build(
        {0: ["pizza"], 1: ["milk"], 2: ["egg"]},
        mode=RUMMY,
        laid={1: ["fish"] * 3},
        phase="spoils",
        actor=0,
        spoils=1,
        defender=1,
    )
    state = play(state, "take")
    assert state.finished and state.went_out == 1
    assert rummy_points(state) == [0, 5, 0]
    outcome = BRAWL.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


def test_rummy_going_out_by_laying_down() -> None:
    """(rulebook: Rummy) A player who can lay down the whole hand before attacking may go
    out."""
    state = build({0: ["pizza"] * 3, 1: ["milk"], 2: ["egg"]}, mode=RUMMY, phase="pre", draws=2)
    state = play(state, "go out")
    assert state.finished and state.winners == (0,) and rummy_points(state)[0] == 5


def test_rummy_ties_go_to_most_cards_then_a_roll_off() -> None:
    """(rulebook: Rummy tie-breaks) Equal points: the most cards on the table wins, else a
    crowbar roll-off."""
    state = build(
        {0: [], 1: ["milk"], 2: []},
        mode=RUMMY,
        laid={0: ["pizza"] * 3, 1: ["fish"] * 5, 2: ["egg"] * 4},
    )
    table = _Table(state)
    table.score_rummy(0)  # 3 + 2 = 5 against 5 cards: the 5 cards win
    assert table.get("winners") == (1,)
    table = _Table(replace(state, laid=(state.laid[0], state.laid[2], ())))
    table.score_rummy(-1)
    assert table.get("winners") in ((1,),)
    even = build({}, mode=RUMMY, laid={0: ["pizza"] * 3, 1: ["fish"] * 3})
    table = _Table(even)
    table.score_rummy(-1)
    assert table.get("winners") in ((0,), (1,))
    assert any("Roll-off" in str(e.text) for e in table.events)


def test_rummy_ends_when_both_piles_are_empty() -> None:
    """(table rule: nothing left to draw) Rummy ends, scored as it stands, when a turn ends
    with both piles empty."""
    state = build(
        {0: ["pizza"], 1: ["milk"], 2: ["egg"]},
        mode=RUMMY,
        laid={2: ["fish"] * 3},
        empty_trash=True,
        phase="lay",
        layers=(0,),
        defender=1,
    )
    state = play(state, "done")
    assert state.finished and state.winners == (2,)


# --- the rest ----------------------------------------------------------------------------------


def test_turn_limit_ends_in_a_draw() -> None:
    """(table rule: turn limit) A game reaching the turn limit ends in a draw."""
    state = build({0: ["pizza"], 1: ["milk"], 2: ["egg"]}, turns=400, phase="rummage", actor=0)
    state = play(state, "done")
    assert state.finished and state.winners == (0, 1, 2)


def test_json_round_trip_and_views() -> None:
    """(contract) The state survives JSON exactly; views have the documented keys and the
    public one shows no hand."""
    state = BRAWL.new_game(5, {"mode": KING}, 9)
    data = json.loads(json.dumps(BRAWL.to_json(state)))
    assert BRAWL.from_json(data) == state
    public = BRAWL.observe(state, None)
    assert public.keys() == BrawlObservation.__required_keys__
    assert public["hand"] is None
    mine = BRAWL.observe(state, 2)
    assert [c["id"] for c in mine["hand"]] == list(state.hands[2])


def test_actions_are_short_and_described() -> None:
    """(contract) Every action fits in 80 characters and has a label."""
    state = build({0: ["dive", "sweep", "swap", "peek", "slug", "pizza"], 1: ["fish"], 2: ["milk"]})
    for action in legal_moves(state, 0):
        assert len(action) <= 80
        assert BRAWL.describe(state, action)


def test_ai_dumps_slugs_into_the_loser() -> None:
    """(issue: the AI) Winning a fight, the AI gives a Slug away."""
    state = replace(_fight(5, 0), phase="spoils", actor=0, spoils=1, winds=())
    obs = BRAWL.observe(state, 0)
    assert ai.choose(obs, legal_moves(state, 0), random.Random(1)) == "give slug"


def test_seeded_games_repeat() -> None:
    """(house rule: one seeded generator) The same seed and actions give the same game."""
    a = new_state(4, {}, 77)
    b = new_state(4, {}, 77)
    assert a == b
    rng = rng_for(1, "x")
    for _ in range(30):
        if a.finished:
            break
        seat = to_act(a)
        assert seat is not None
        action = rng.choice(legal_moves(a, seat))
        a = BRAWL.apply(a, seat, action).state
        b = BRAWL.apply(b, seat, action).state
        assert a == b


def test_stink_cloud_wears_off_after_the_next_turn() -> None:
    """(table rule: Stink Cloud drawn on another's turn) It lasts to the end of the drawer's
    next turn; a winning hand then wins as that turn ends."""
    hand = ["pizza"] * 3 + ["bear"] * 3 + ["fish"] * 3
    state = build(
        {0: ["egg"], 1: hand, 2: ["milk"]},
        affinity=False,
        stink=(0, 1, 0),
        turn=1,
        phase="rummage",
        actor=1,
        draws=0,
        discards=0,
        defender=0,
    )
    assert not state.finished and winning_hand(state, 1)
    state = play(state, "done")
    assert state.finished and state.winners == (1,)


def test_rummy_add_on_to_own_set() -> None:
    """(rulebook: Rummy add-ons) A player may add single cards onto their own set."""
    state = build(
        {0: ["pizza", "bear"], 1: ["milk"], 2: ["egg"]},
        mode=RUMMY,
        laid={0: ["pizza"] * 3},
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    legal = legal_moves(state, 0)
    assert "lay pizza 1" in legal and "lay bear 1" not in legal


def test_garbage_truck_skips_an_emptied_hand() -> None:
    """(table rule: Garbage Truck) A player with no cards is not asked to discard; a Dumpster
    Dive's Raid drawn after the Truck finds the diver's hand already emptied by it
    (rulebook: a Blocker is resolved as it is drawn, before the next card)."""
    state = build(
        {0: ["dive", "pizza"], 1: ["fish"], 2: []},
        trash_top=["truck", "raid"],
        discard=["egg"],
    )
    state = play(state, "play dive")
    assert state.truck == (0, 1) and keys(state, 0) == ["pizza"]
    state = play(state, "discard pizza", "discard fish")
    # Only now is the Raid drawn: it finds nothing to take.
    assert [CARDS[c].key for c in state.aside] == ["truck", "raid"]
    assert state.hands == ((), (), ()) and state.truck == () and to_act(state) == 0


def test_rummy_the_player_emptied_by_the_action_goes_out() -> None:
    """(table rule: Rummy, one player goes out) Should two hands be out at once, the one the
    action emptied goes out."""
    state = build({0: [], 1: [], 2: ["egg"]}, mode=RUMMY, laid={0: ["fish"] * 3, 1: ["pizza"] * 3})
    table = _Table(state)
    table.check_out(state, actor=1)
    assert table.get("went_out") == 1


def test_ai_attacks_the_rummy_leader_with_its_elbow() -> None:
    """(issue: the AI) The AI attacks the player nearest to winning, with Extra Elbow."""
    state = build(
        {0: ["elbow"], 1: ["fish"], 2: ["milk"], 3: ["egg"]},
        seats=4,
        mode=RUMMY,
        laid={1: ["bear"] * 3, 2: ["pizza"] * 5},
        phase="attack",
    )
    obs = BRAWL.observe(state, 0)
    assert ai.choose(obs, legal_moves(state, 0), random.Random(2)) == "attack p2 elbow"


def test_ai_uses_second_wind_only_when_losing() -> None:
    """(issue: the AI) Second Wind is played when the roll is lost, kept otherwise."""
    losing = _fight(1, 4)
    losing = replace(losing, hands=(losing.hands[0] + (BOOSTER_IDS[1],), *losing.hands[1:]))
    obs = BRAWL.observe(losing, 0)
    assert ai.choose(obs, legal_moves(losing, 0), random.Random(1)) == "reroll"
    winning = replace(losing, dice=((1,) * 6, (1,) * 5))
    obs = BRAWL.observe(winning, 0)
    assert ai.choose(obs, legal_moves(winning, 0), random.Random(1)) == "keep"


def test_king_of_the_heap_fights_count_as_the_kings_turns() -> None:
    """(table rule: Stink Cloud in King of the Heap) Every fight counts as a turn of the King
    too, so a stinking King can win again once a fight ends."""
    hand = ["pizza"] * 3 + ["bear"] * 3 + ["fish"] * 3
    state = build(
        {0: ["egg"], 1: hand, 2: ["milk"]},
        affinity=False,
        mode=KING,
        king=1,
        turn=0,
        stink=(0, 1, 0),
        phase="rummage",
        actor=1,
        defender=1,
    )
    state = play(state, "done")
    assert state.finished and state.winners == (1,)


def test_dice_faces_come_from_the_table() -> None:
    """(house rule: dice faces) A crowbar counts a minus and a lid a plus, as the faces
    table says."""
    values = [die_value(face) for face in BLUE_FACES]
    assert sorted(values) == [1, 1, 1, 2, 2, 2]
    assert crowbars(values) == 3 and pluses(values) == 3


def test_refused_actions_name_the_rule() -> None:
    """(contract) A refused action says which rule it breaks."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]})
    with pytest.raises(IllegalAction, match="declare"):
        BRAWL.apply(state, 0, "draw trash")
    with pytest.raises(IllegalAction, match="not your turn"):
        BRAWL.apply(state, 1, "declare draw")


def test_a_winning_deal_is_logged() -> None:
    """(house rule: victory checked after every change) A game won by the deal itself says
    so in its opening log."""
    state = build({1: ["pizza"] * 2 + ["bear"] * 2 + ["takeout"] * 2}, finished=True, winners=(1,))
    assert "{p1}" in str(opening_events(state)[-1].text) and "wins" in str(
        opening_events(state)[-1].text
    )

"""Dumpster Brawl!: the rules the second mutation run (docs/mutation.md) found untested, and
the private lines that name a card.

Same conventions as `test_brawl.py` (whose `build`/`play` helpers and hand-made tables these
tests use): each test names the rule it checks, "(rulebook: ...)", "(house rule: ...)",
"(table rule: ...)" or "(contract)" for what the bot and the players read.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from rules.base import IllegalAction, Outcome, rng_for
from rules.brawl import ai
from rules.brawl.data import BLOCKER_IDS, BOOSTER_IDS, CARDS, TRASH_IDS
from rules.brawl.engine import (
    BRAWL,
    KING,
    ROUND,
    RUMMY,
    State,
    _Table,
    legal_moves,
    new_state,
    pluses,
    to_act,
)
from rules.brawl.labels import describe_action
from rules.words import with_article
from tests.rules.test_brawl import build, keys, play

# --- naming one card in a line -------------------------------------------------------------------

# Every name printed on a card, as a line names one of it: "a" or "an" as the name is said,
# and no article before Fish Bones, one card whose name is a plural.
ONE_CARD = {
    "Pizza Box": "a Pizza Box",
    "Apple Core": "an Apple Core",
    "Soda Can": "a Soda Can",
    "Take Out": "a Take Out",
    "Stuffed Bear": "a Stuffed Bear",
    "Fish Bones": "Fish Bones",
    "Banana Peel": "a Banana Peel",
    "Milk Jug": "a Milk Jug",
    "Tin Can": "a Tin Can",
    "Old Sneaker": "an Old Sneaker",
    "Newspaper": "a Newspaper",
    "Egg Carton": "an Egg Carton",
    "Coffee Cup": "a Coffee Cup",
    "Slug": "a Slug",
    "Extra Elbow": "an Extra Elbow",
    "Second Wind": "a Second Wind",
    "Sturdy Lid": "a Sturdy Lid",
    "Dumpster Dive": "a Dumpster Dive",
    "Sneak Peek": "a Sneak Peek",
    "Quick Swap": "a Quick Swap",
    "Clean Sweep": "a Clean Sweep",
    "Garbage Truck": "a Garbage Truck",
    "Raccoon Raid": "a Raccoon Raid",
    "Slippery Lid": "a Slippery Lid",
    "Spilled Bag": "a Spilled Bag",
    "Stink Cloud": "a Stink Cloud",
}
# One key per name a hand can hold (Blockers are set aside when drawn, never held).
HELD = sorted({c.key: c.name for c in CARDS if c.type != "blocker"}.items())


def test_every_card_name_is_named_as_one_card() -> None:
    """(contract: the log) A line that names one card says "a" or "an" as the name is
    said, and leaves out the article before a plural name (Fish Bones)."""
    assert set(ONE_CARD) == {c.name for c in CARDS}  # a new card needs its phrase here
    for name, phrase in ONE_CARD.items():
        assert with_article(name) == phrase


@pytest.mark.parametrize(("key", "name"), HELD)
def test_each_private_line_names_the_card_as_one(key: str, name: str) -> None:
    """(contract: private lines) The card drawn, taken in the spoils or by a Raccoon Raid,
    given, or swapped by Quick Swap is named to its holders as one card, and so is a card
    in the discard and give buttons."""
    one = ONE_CARD[name]
    drawn = build({0: ["milk"], 1: ["egg"], 2: []}, phase="pre", draws=1, trash_top=[key])
    events = BRAWL.apply(drawn, 0, "draw trash").events
    assert (f"You drew {one}.", 0) in [(str(e.text), e.to) for e in events]

    raid = build({0: [key], 1: ["egg"], 2: []}, phase="pre", draws=1, trash_top=["raid"])
    events = BRAWL.apply(raid, 0, "draw trash").events
    assert (f"You took {one}.", 1) in [(str(e.text), e.to) for e in events]

    fights = {"phase": "spoils", "defender": 1, "spoils": 1}
    taken = build({0: ["milk"], 1: [key], 2: []}, actor=0, **fights)
    events = BRAWL.apply(taken, 0, "take").events
    assert (f"You took {one}.", 0) in [(str(e.text), e.to) for e in events]

    given = build({0: ["milk"], 1: [key, "egg"], 2: []}, actor=1, **fights)
    events = BRAWL.apply(given, 1, f"give {key}").events
    assert ("{p1} gave you " + one + ".", 0) in [(str(e.text), e.to) for e in events]

    if key != "swap":  # the Quick Swap played is not one of the cards swapped
        got = build({0: ["swap", "milk"], 1: [key], 2: []})
        events = BRAWL.apply(got, 0, "play swap p1 milk").events
        assert (f"You got {one}.", 0) in [(str(e.text), e.to) for e in events]
        gave = build({0: ["swap", key], 1: ["egg"], 2: []})
        events = BRAWL.apply(gave, 0, f"play swap p1 {key}").events
        line = "{p0} swapped your Egg Carton for " + one + "."
        assert (line, 1) in [(str(e.text), e.to) for e in events]
    assert str(describe_action(f"discard {key}")) == f"Discard {one}"
    assert str(describe_action(f"give {key}")) == f"Give {one}"


# --- setting up ----------------------------------------------------------------------------------

NO_SPECIALS = {"slugs": "0", "boosters": "0", "blockers": "0"}


@pytest.mark.parametrize("seats", [3, 5])
def test_the_deal_goes_clockwise_from_the_starter(seats: int) -> None:
    """(rulebook: the start player deals; engine docstring: one card at a time, clockwise,
    seats in seat order) The starter gets the top card of the shuffled deck, the next seat
    the next card, and so round the table, max(seats, 4) cards each."""
    for seed in (3, 11):
        state = new_state(seats, NO_SPECIALS, seed)
        deck = list(TRASH_IDS)
        rng_for(seed, "deal").shuffle(deck)  # the deal's own seeded stream
        for i in range(max(seats, 4)):
            for k in range(seats):
                assert state.hands[(state.starter + k) % seats][i] == deck.pop()


def test_each_seed_sets_up_its_own_game() -> None:
    """(house rule: one seeded generator; rulebook: characters, Boosters and Blockers drawn
    at random) Another seed draws other characters, other Boosters and Blockers, deals other
    cards and shuffles the Blockers in elsewhere."""
    seeds = range(1, 9)
    plain = [new_state(4, {**NO_SPECIALS, "blockers": "5"}, seed) for seed in seeds]
    assert len({s.characters for s in plain}) > 1
    assert len({frozenset(c for h in s.hands for c in h) for s in plain}) > 1
    where = {tuple(i for i, c in enumerate(s.trash) if c in BLOCKER_IDS) for s in plain}
    assert len(where) > 1
    chosen = [new_state(4, {}, seed).in_play for seed in seeds]
    assert len({tuple(c for c in ids if c in BOOSTER_IDS) for ids in chosen}) > 1
    assert len({tuple(c for c in ids if c in BLOCKER_IDS) for ids in chosen}) > 1


def test_each_mode_starts_as_its_rules_say() -> None:
    """(rulebook: the three modes) Round Rummage starts with the starter's declaration and
    no King; King of the Heap crowns the starter and his left neighbour attacks; Rummy has
    no affinity and starts with up to two draws. Affinity follows the lobby elsewhere."""
    round_ = new_state(3, {"affinity": "on"}, 4)
    assert (round_.king, round_.turn, round_.phase) == (-1, round_.starter, "declare")
    assert round_.draws == 0 and round_.affinity
    assert not new_state(3, {"affinity": "off"}, 4).affinity
    king = new_state(3, {"mode": KING}, 4)
    assert (king.king, king.turn, king.phase) == (king.starter, (king.starter + 1) % 3, "attack")
    assert king.draws == 0
    rummy = new_state(3, {"mode": RUMMY, "affinity": "on"}, 4)
    assert (rummy.king, rummy.phase, rummy.draws, rummy.affinity) == (-1, "pre", 2, False)


def _refused(seats: int, options: dict[str, str]) -> str:
    with pytest.raises(IllegalAction) as refused:
        new_state(seats, options, 1)
    return str(refused.value)


def test_lobby_options_out_of_range_are_refused_with_the_rule() -> None:
    """(contract: the lobby) A wrong option is refused with what it may be."""
    assert _refused(3, {"mode": "chess"}) == (
        "There is no mode 'chess': pick round-rummage, king-of-the-heap, rummy."
    )
    assert _refused(3, {"affinity": "maybe"}) == "affinity is on or off."
    assert _refused(3, {"slugs": "many"}) == "slugs must be a number from 0 to 6."
    assert _refused(3, {"boosters": "8"}) == "boosters must be a number from 0 to 7."
    assert _refused(3, {"characters": "bandit,hissy,gulliver,moosetache"}) == (
        "More characters than players."
    )
    assert _refused(3, {"characters": "bandit,bandit"}) == (
        "Characters are distinct keys: iscratchu, moosetache, bandit, squeakers, hissy, gulliver"
    )


# --- how a finished game ranks the seats ---------------------------------------------------------


def test_rummy_ranks_the_seats_by_points() -> None:
    """(rulebook: Rummy scoring; house rule: a point a card, two for going out) The winner
    ranks first, the others by their points, most first, equal points sharing a rank."""
    state = build(
        {},
        seats=5,
        mode=RUMMY,
        laid={0: ["egg"] * 3, 1: ["fish"] * 5, 2: ["milk"] * 4, 4: ["tin"] * 3},
        went_out=1,
        winners=(1,),
        finished=True,
        phase="over",
    )
    outcome = BRAWL.outcome(state)
    assert outcome == Outcome(ranks=(2, 0, 1, 3, 2), points=(3, 7, 4, 0, 3))


def test_the_other_modes_rank_winners_first_and_keep_no_points() -> None:
    """(rulebook: one winner, or a draw at the turn limit) The winners rank first, everyone
    else second, and no points are kept."""
    won = build({}, seats=4, winners=(2,), finished=True, phase="over")
    assert BRAWL.outcome(won) == Outcome(ranks=(1, 1, 0, 1), points=(0, 0, 0, 0))
    drawn = replace(won, mode=KING, winners=(0, 1, 2, 3))
    assert BRAWL.outcome(drawn) == Outcome(ranks=(0, 0, 0, 0), points=(0, 0, 0, 0))
    assert BRAWL.outcome(replace(won, finished=False)) is None


# --- fights and what follows them ----------------------------------------------------------------


def _lines(state: State, *actions: str) -> tuple[State, list[tuple[str, int | None]]]:
    """Play `actions` and keep every log line with whom it is for."""
    told: list[tuple[str, int | None]] = []
    for action in actions:
        seat = to_act(state)
        assert seat is not None
        applied = BRAWL.apply(state, seat, action)
        told += [(str(e.text), e.to) for e in applied.events]
        state = applied.state
    return state, told


def _won_by_seat_one(mode: str = ROUND, **fields: Any) -> State:
    """Seat 1's turn: five crowbars against no lid, so the attacker wins."""
    return build(
        {0: ["milk"], 1: ["pizza", "slug"], 2: ["fish", "fish"]},
        mode=mode,
        turn=1,
        phase="wind",
        defender=2,
        dice=((1,) * 5 + (2,), (1,) * 5),
        winds=(1, 2),
        **fields,
    )


def test_an_attacker_who_wins_is_told_and_takes_the_spoils() -> None:
    """(rulebook: more crowbars than lids, the attacker wins) The log gives the count; the
    attacker, whoever it is, decides the one spoil."""
    state, told = _lines(_won_by_seat_one(), "keep", "keep")
    assert told[-1] == ("5 crowbars beat 0 lids: {p1} wins the fight.", None)
    assert (state.phase, state.actor, state.spoils) == ("spoils", 1, 1)


def test_a_new_king_is_told_and_rummages_with_blue_dice() -> None:
    """(rulebook: King of the Heap) An attacker who beats the King becomes King and rolls
    six blue dice to rummage, pluses to draw and minuses to discard."""
    state, told = _lines(_won_by_seat_one(KING, king=2), "keep", "keep")
    plus = pluses(state.rummage)
    assert told[-2:] == [
        ("{p1} is the new King of the Heap!", None),
        (f"{{p1}} rummages with 6 blue dice: {plus} plus, {6 - plus} minus.", None),
    ]
    assert (state.king, state.actor, state.draws, state.discards) == (1, 1, plus, 6 - plus)


def test_a_slippery_lid_skips_the_winners_rummage_roll() -> None:
    """(house rule: Slippery Lid) The drawer's next rummage roll is skipped, and said so."""
    state, told = _lines(_won_by_seat_one(KING, king=2, slippery=(1,)), "keep", "keep")
    assert told[-1] == ("Slippery Lid: {p1}'s rummage roll is skipped.", None)
    assert state.slippery == () and state.turn != 1


def test_each_spoil_is_told_to_all_and_its_card_to_the_two_seats() -> None:
    """(rulebook: spoils; contract: the log) A take, a give and "done" are told to all; the
    card that changed hands only to its two seats. The spoils left are counted down to 0."""
    state = build(
        {0: ["milk"], 1: ["pizza", "egg"], 2: ["fish"]},
        turn=1,
        phase="spoils",
        actor=1,
        defender=0,
        spoils=1,
    )
    after, told = _lines(state, "take")
    assert told[:3] == [
        ("{p1} takes a random card from {p0}.", None),
        ("You took a Milk Jug.", 1),
        ("{p1} took your Milk Jug.", 0),
    ]
    assert after.spoils == 0 and after.phase == "rummage"
    after, told = _lines(state, "give egg")
    assert told[:2] == [
        ("{p1} puts a card into {p0}'s hand.", None),
        ("{p1} gave you an Egg Carton.", 0),
    ]
    assert after.spoils == 0
    after, told = _lines(replace(state, spoils=2), "done")
    assert told[0] == ("{p1} is done with the spoils.", None) and after.spoils == 0


def _two_out(**fields: Any) -> State:
    """Rummy: seat 0 already has no cards and a set down (as if just robbed under a cloud
    now lifted); seats 1 and 2 each hold one card, seat 2's onto its own set."""
    return build(
        {0: [], 1: ["milk"], 2: ["tin"]},
        mode=RUMMY,
        laid={0: ["fish"] * 3, 1: ["pizza"] * 3, 2: ["tin"] * 3},
        **fields,
    )


@pytest.mark.parametrize(
    ("setting", "action", "out"),
    [
        ({"turn": 2, "phase": "spoils", "actor": 2, "defender": 1, "spoils": 1}, "take", 1),
        ({"turn": 2, "phase": "spoils", "actor": 2, "defender": 1, "spoils": 1}, "give tin", 2),
        ({"turn": 1, "phase": "spoils", "actor": 2, "defender": 2, "spoils": 2}, "give tin", 2),
        ({"turn": 2, "phase": "pre", "draws": 0}, "go out", 2),
    ],
)
def test_rummy_the_hand_the_action_emptied_goes_out(
    setting: dict[str, Any], action: str, out: int
) -> None:
    """(table rule: Rummy, one player goes out) Should two hands be out at once, the one the
    action emptied goes out: the robbed one on a take, the giver on a give, the player who
    lays everything down."""
    state, _ = _lines(_two_out(**setting), action)
    assert state.finished and state.went_out == out and state.winners == (out,)


# --- Boosters ------------------------------------------------------------------------------------


def test_an_extra_elbow_in_the_attack_leaves_the_hand() -> None:
    """(house rule: Boosters go face down to the discard pile once played) The attacker's
    Extra Elbow leaves the hand for the discard pile."""
    state = build({0: ["elbow", "pizza"], 1: ["fish"], 2: ["milk"]}, phase="attack")
    state = play(state, "attack p1 elbow")
    assert keys(state, 0) == ["pizza"] and CARDS[state.discard[-1]].key == "elbow"


def test_clean_sweep_discards_both_cards_named() -> None:
    """(house rule: Clean Sweep, up to two cards) Both cards named go to the discard pile,
    and the log counts them."""
    state = build({0: ["sweep", "pizza", "egg", "milk"], 1: ["fish"], 2: ["tin"]})
    state, told = _lines(state, "play sweep egg pizza")
    assert keys(state, 0) == ["milk"]
    assert [CARDS[c].key for c in state.discard] == ["sweep", "egg", "pizza"]
    assert told[-1] == ("{p0} sweeps 2 cards onto the discard pile.", None)


def test_second_wind_is_told_in_a_fight_and_after_a_rummage_roll() -> None:
    """(house rule: Second Wind) Its play is told with the new roll, in a fight or right
    after a rummage roll."""
    fight = _won_by_seat_one()
    fight = replace(fight, hands=(fight.hands[0], fight.hands[1] + (BOOSTER_IDS[1],), ()))
    _, told = _lines(fight, "reroll")
    assert told[0] == ("{p1} plays Second Wind and rerolls.", None)
    rummage = build(
        {0: ["milk"], 1: ["pizza", "wind"], 2: ["fish"]},
        turn=1,
        phase="rummage",
        actor=1,
        draws=1,
        discards=5,
        roll_log=((0, 1, 0, 3, 1, 1, 1, 1, 1, 2),),
    )
    _, told = _lines(rummage, "reroll")
    assert told[0] == ("{p1} plays Second Wind and rerolls.", None)
    assert told[1][0].startswith("{p1} rummages with 6 blue dice: ")


# --- winning, drawing, the guards ----------------------------------------------------------------

SETS = ["pizza"] * 3 + ["bear"] * 3 + ["fish"] * 3


def test_a_lone_winner_is_named_without_a_tie_break() -> None:
    """(rulebook: victory on the spot) One winning hand wins at once, with no word of a
    tie-break."""
    state = build(
        {0: SETS[:-1], 1: ["milk"], 2: ["egg"]},
        affinity=False,
        phase="pre",
        draws=1,
        trash_top=["fish"],
    )
    state, told = _lines(state, "draw trash")
    assert state.winners == (0,)
    assert told[-1] == ("{p0} lays down three sets and wins!", None)
    assert not any(text.startswith("More than one") for text, _ in told)


def test_two_hands_winning_at_once_go_to_the_larger() -> None:
    """(house rule: simultaneous winners, the largest victory set) A give that completes
    both hands at once is told as a tie, and the larger winning hand takes it."""
    state = build(
        {0: [*SETS, "egg"], 1: ["milk"] * 3 + ["apple"] * 3 + ["tin"] * 3 + ["egg"] * 2},
        affinity=False,
        phase="spoils",
        actor=0,
        defender=1,
        spoils=1,
    )
    state, told = _lines(state, "give egg")
    assert ("More than one hand wins at once: the largest victory set takes it.", None) in told
    assert told[-1] == ("{p1} lays down three sets and wins!", None) and state.winners == (1,)


def test_a_draw_names_its_pile_and_an_empty_trash_pile_is_refilled() -> None:
    """(table rules: drawing from the discard pile; refilling the trash pile) A draw says
    which pile it came from; an empty trash pile is first made again from the shuffled
    discard pile, and that is told."""
    state = build({0: ["milk"], 1: ["fish"], 2: ["egg"]}, phase="pre", draws=2, discard=["tin"])
    _, told = _lines(state, "draw discard")
    assert told[0] == ("{p0} draws a card from the discard pile.", None)
    empty = replace(state, trash=())
    after, told = _lines(empty, "draw trash")
    assert told[:2] == [
        ("The trash pile is empty: the discard pile is shuffled into a new one.", None),
        ("{p0} draws a card from the trash pile.", None),
    ]
    assert after.discard == () and after.trash == ()


def test_every_roll_moves_the_dice_counter_on() -> None:
    """(house rule: one seeded generator) Each roll or shuffle draws from the next stream,
    so the two dice of a fight are counted and the next fight rolls afresh."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase="attack")
    state = play(state, "attack p1", "defend")
    assert state.rolls == 2


def test_the_working_guards_say_what_is_missing() -> None:
    """(contract) Drawing from an empty pile or playing a card not held is refused with the
    reason (the menus never offer these; the guards keep a direct call honest)."""
    table = _Table(build({0: ["milk"], 1: ["fish"], 2: ["egg"]}, empty_trash=True))
    with pytest.raises(IllegalAction, match=r"^The discard pile is empty\.$"):
        table.draw(0, "discard")
    with pytest.raises(IllegalAction, match=r"^There is nothing left to draw\.$"):
        table.draw(0, "trash")
    with pytest.raises(IllegalAction, match=r"^You hold no Tin Can\.$"):
        table.held(0, "tin")


# --- what is offered -----------------------------------------------------------------------------


def test_sneak_peek_and_quick_swap_are_offered_against_opponents_only() -> None:
    """(house rules: Sneak Peek, one opponent's hand; Quick Swap, a card of yours for an
    opponent's) Nobody peeks at their own hand, and the Quick Swap played is not the card
    given."""
    state = build({0: ["peek", "swap", "milk"], 1: ["fish"], 2: ["egg"]})
    legal = legal_moves(state, 0)
    assert [a for a in legal if a.startswith("play peek")] == ["play peek p1", "play peek p2"]
    swaps = [a for a in legal if a.startswith("play swap")]
    assert swaps == [f"play swap p{p} {k}" for p in (1, 2) for k in ("milk", "peek")]


# --- the AI --------------------------------------------------------------------------------------


def _choices(state: State) -> set[str]:
    """The AI's choices for the seat to act over several random streams."""
    seat = to_act(state)
    assert seat is not None
    view = BRAWL.observe(state, seat)
    return {ai.choose(view, legal_moves(state, seat), random.Random(s)) for s in range(8)}


def test_ai_keeps_quick_swap_for_a_slug() -> None:
    """(issue: the AI) A lone trash card is not worth the Quick Swap: it declares instead."""
    state = build({0: ["swap", "fish", "fish", "fish", "milk"], 1: ["pizza"], 2: ["apple"]})
    assert _choices(state) == {"declare draw"}


def test_ai_sweeps_the_most_junk_it_may() -> None:
    """(house rule: Clean Sweep; issue: the AI) Of the sweeps of junk it picks the one with
    the most cards, a Slug and a lone Tin Can together."""
    state = build({0: ["sweep", "slug", "tin", "fish", "fish", "fish"], 1: ["pizza"], 2: ["egg"]})
    assert _choices(state) == {"play sweep slug tin"}


def test_ai_lays_down_the_largest_set_whatever_its_name() -> None:
    """(issue: the AI) In Rummy it lays down the most cards it may, here four Apple Cores
    rather than three Tin Cans (a Sneak Peek kept stops it going out)."""
    state = build(
        {0: ["apple"] * 4 + ["tin"] * 3 + ["peek"], 1: ["pizza"], 2: ["egg"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    assert _choices(state) == {"lay apple 4"}

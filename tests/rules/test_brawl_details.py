"""Dumpster Brawl!: the details the mutation run (docs/mutation.md) found untested.

Same conventions as `test_brawl.py` (whose `build`/`play` helpers and hand-made tables
these tests use): each test names the rule it checks, "(rulebook: ...)", "(house rule: ...)",
"(table rule: ...)" or "(contract)" for what the bot and the players read.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from rules.base import IllegalAction
from rules.brawl import ai
from rules.brawl.data import (
    BLOCKER_IDS,
    BLOCKERS,
    BOOSTER_IDS,
    BOOSTERS,
    CARDS,
    COPIES,
    KINDS,
    MAX_SLUGS,
    _build,
)
from rules.brawl.engine import (
    BRAWL,
    KING,
    RUMMY,
    State,
    _Table,
    crowbars,
    legal_moves,
    opening_events,
    to_act,
)
from rules.brawl.groups import group_of, group_wording, verb_of
from rules.brawl.labels import card_name, describe_action, why_not
from rules.brawl.state import Handover, Verdict
from rules.brawl.view import _roll_view
from tests.rules.test_brawl import ISCRATCHU, _fight, build, keys, play

# --- the card table ----------------------------------------------------------------------------


def test_the_card_table_rebuilt_is_the_one_in_play() -> None:
    """(rulebook: the deck) Thirteen kinds of trash, seven cards each, then the printed
    Slugs, then one card per Booster and per Blocker, numbered in that order. The table is
    built once at import; building it again gives the same cards."""
    cards = _build()
    assert cards == CARDS
    assert len(cards) == len(KINDS) * COPIES + MAX_SLUGS + len(BOOSTERS) + len(BLOCKERS)
    assert [c.id for c in cards] == list(range(len(cards)))
    for k, kind in enumerate(KINDS):
        for card in cards[COPIES * k : COPIES * (k + 1)]:
            assert (card.type, card.key, card.name, card.kind) == ("trash", kind.key, kind.name, k)
    slugs = cards[len(KINDS) * COPIES : len(KINDS) * COPIES + MAX_SLUGS]
    assert {(c.type, c.key, c.name, c.kind) for c in slugs} == {("slug", "slug", "Slug", -1)}
    specials = cards[len(KINDS) * COPIES + MAX_SLUGS :]
    expected = [("booster", b.key, b.name, -1) for b in BOOSTERS]
    expected += [("blocker", b.key, b.name, -1) for b in BLOCKERS]
    assert [(c.type, c.key, c.name, c.kind) for c in specials] == expected


# --- what players read: actions, menus, refusals -----------------------------------------------


@pytest.mark.parametrize(
    ("action", "label"),
    [
        ("declare draw", "Declare: draw one or two"),
        ("declare discard", "Declare: discard one or two"),
        ("declare both", "Declare: discard one and draw one"),
        ("declare neither", "Declare: neither draw nor discard"),
        ("draw trash", "Draw from the trash pile"),
        ("draw discard", "Draw from the discard pile"),
        ("discard pizza", "Discard a Pizza Box"),
        ("discard apple", "Discard an Apple Core"),
        ("discard elbow", "Discard an Extra Elbow"),
        ("attack p2", "Attack {p2}"),
        ("attack p1 elbow", "Attack {p1} with Extra Elbow"),
        ("defend", "Defend"),
        ("defend lid", "Defend with Sturdy Lid"),
        ("defend elbow lid", "Defend with Extra Elbow and Sturdy Lid"),
        ("take", "Take a random card"),
        ("give slug", "Give a Slug"),
        ("give egg", "Give an Egg Carton"),
        ("lay fish 3", "Lay down 3 Fish Bones"),
        ("go out", "Lay down everything and go out"),
        ("keep", "Keep the roll"),
        ("reroll", "Second Wind: reroll"),
        ("done", "Done"),
        ("play sweep alone", "Play Clean Sweep alone (sweep no other card)"),
        ("play dive", "Play Dumpster Dive"),
        ("play peek p2", "Play Sneak Peek: {p2}"),
        ("play swap p1 slug", "Play Quick Swap: {p1}, Slug"),
        ("play sweep pizza egg", "Play Clean Sweep: Pizza Box, Egg Carton"),
    ],
)
def test_each_action_reads_as_the_players_say_it(action: str, label: str) -> None:
    """(contract: the log and the buttons) Every kind of action has its own words: cards by
    their printed names with "a"/"an", seats as mentions."""
    assert str(describe_action(action)) == label
    assert str(BRAWL.describe(build({0: ["pizza"]}), action)) == label


def test_card_names_fall_back_to_the_key() -> None:
    """(contract) A word that names no card is shown as it is; Slugs and Boosters by name."""
    assert card_name("slug") == "Slug"
    assert card_name("sweep") == "Clean Sweep"
    assert card_name("tin") == "Tin Can"
    assert card_name("zzz") == "zzz"


@pytest.mark.parametrize(
    ("action", "group"),
    [
        ("attack p2", "attack p2"),
        ("attack p2 elbow", "attack p2"),
        ("lay fish 3", "lay fish"),
        ("play swap p1 slug", "play swap p1"),
        ("play sweep pizza egg", "play sweep pizza egg"),
        ("play sweep pizza", "play sweep pizza"),
        ("play sweep alone", "play sweep alone"),
        ("play peek p2", "play peek"),
        ("play dive", "play dive"),
        ("discard pizza", "discard pizza"),
        ("give egg", "give egg"),
        ("declare both", "declare both"),
        ("done", "done"),
    ],
)
def test_actions_gather_in_menu_entries(action: str, group: str) -> None:
    """(contract: menus) An attack with or without Extra Elbow, the lay-downs of one kind,
    the swaps with one player, the sweeps starting with one card and all the peeks share an
    entry; every other action is its own."""
    assert group_of(action) == group
    assert BRAWL.group_of(action) == group
    assert verb_of(action) == action.split()[0]


def test_menu_entries_say_what_is_chosen_next() -> None:
    """(contract: menus) An entry standing for several actions names what it does and what
    the player picks next."""
    describe = describe_action
    assert tuple(
        map(str, group_wording("lay fish", ["lay fish 1", "lay fish 2", "lay fish 3"], describe))
    ) == (
        "Lay down Fish Bones …",
        "then choose how many (3 ways)",
    )
    assert tuple(
        map(str, group_wording("attack p2", ["attack p2", "attack p2 elbow"], describe))
    ) == (
        "Attack {p2} …",
        "then choose whether to add Extra Elbow",
    )
    assert tuple(
        map(str, group_wording("play peek", ["play peek p1", "play peek p2"], describe))
    ) == (
        "Play Sneak Peek …",
        "then choose whose hand",
    )
    swaps = ["play swap p1 slug", "play swap p1 egg"]
    assert tuple(map(str, group_wording("play swap p1", swaps, describe))) == (
        "Play Quick Swap: {p1} …",
        "then choose the card you give",
    )


@pytest.mark.parametrize(
    ("phase", "words"),
    [
        ("declare", "First declare whether you draw, discard, do both or neither."),
        ("pre", "Draw or discard only as declared (one card at a time), then attack."),
        ("attack", "Now attack: name the player you attack."),
        ("defend", "Defend, with Extra Elbow or Sturdy Lid if you hold them."),
        ("wind", "Keep the roll, or reroll it with Second Wind if you hold it."),
        ("spoils", "Take a random card, give one of yours, or be done."),
        ("rummage", "Draw up to your pluses, then discard up to your minuses, or be done."),
        ("lay", "Lay down a set of three or more, or cards onto a set on the table, or be done."),
        ("over", "The rules do not allow that now."),
    ],
)
def test_a_refusal_names_the_phase_rule(phase: str, words: str) -> None:
    """(contract: refusals) An action refused is answered with what the phase allows; while
    a Garbage Truck waits, with the Truck's demand."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase=phase)
    assert str(why_not(state)) == words
    truck = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase=phase, truck=(0,))
    assert str(why_not(truck)) == "Garbage Truck: discard one card of your choice first."


# --- the opening log and the rolls in a view ---------------------------------------------------


def test_the_opening_log_tells_roll_deal_and_crown() -> None:
    """(rulebook: start player roll, the deal, King of the Heap) Each round of the start
    roll lists who rolled what (those out of it are left out), then who goes first, how
    many cards the deal gives, and in King of the Heap who is King."""
    state = BRAWL.new_game(4, {}, 3)
    assert state.start_rolls == ((1, 0, 0, 1), (1, -1, -1, 1), (1, -1, -1, 0))
    assert [str(e.text) for e in opening_events(state)] == [
        "Start roll 1: {p0} crowbar, {p1} lid, {p2} lid, {p3} crowbar.",
        "Start roll 2: {p0} crowbar, {p3} crowbar.",
        "Start roll 3: {p0} crowbar, {p3} lid.",
        "{p0} rolled the last crowbar and goes first.",
        "{p0} deals 4 cards to everyone.",
    ]
    king = BRAWL.new_game(5, {"mode": KING}, 3)
    texts = [str(e.text) for e in opening_events(king)]
    starter = "{p" + str(king.starter) + "}"
    assert texts[-2:] == [
        f"{starter} deals 5 cards to everyone.",
        f"{starter} is King of the Heap.",
    ]
    assert all(e.to is None for e in opening_events(king))


def test_a_roll_in_a_view_names_colour_purpose_and_counts() -> None:
    """(contract: the dice pictures) A logged roll reads as the step, the roller, the dice
    colour and why it was rolled, its dice, and their crowbars and pluses."""
    assert _roll_view((4, 1, 1, 3, 1, 2, 2, 1)) == {
        "step": 4,
        "seat": 1,
        "colour": "green",
        "purpose": "rummage",
        "dice": [1, 2, 2, 1],
        "crowbars": 2,
        "pluses": 2,
    }
    assert _roll_view((9, 0, 0, 4, 1, 1, 1))["purpose"] == "roll-off"
    assert _roll_view((9, 0, 0, 0, 2))["colour"] == "blue"
    state = build({0: ["pizza"]}, roll_log=((3, 2, 0, 2, 1, 1, 2),))
    assert BRAWL.observe(state, None)["rolls"] == [
        {
            "step": 3,
            "seat": 2,
            "colour": "blue",
            "purpose": "reroll",
            "dice": [1, 1, 2],
            "crowbars": 2,
            "pluses": 1,
        }
    ]


# --- the AI's documented preferences -----------------------------------------------------------


def _ai(state: State, seat: int | None = None, seed: int = 1) -> str:
    """The AI's choice at `state` for the seat to act (its own view unless `seat` says)."""
    actor = to_act(state)
    assert actor is not None
    view = BRAWL.observe(state, actor if seat is None else seat)
    return ai.choose(view, legal_moves(state, actor), random.Random(seed))


def _always(state: State, seats: int = 8) -> set[str]:
    """The AI's choices over several random streams (its ties are broken at random)."""
    return {_ai(state, seed=seed) for seed in range(seats)}


def test_ai_takes_the_only_action_and_needs_one() -> None:
    """(issue: the AI) With one legal action the AI takes it; with none it refuses."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]})
    view = BRAWL.observe(state, 0)
    assert ai.choose(view, ["declare draw"], random.Random(1)) == "declare draw"
    with pytest.raises(ValueError, match=r"^No legal action to choose from\.$"):
        ai.choose(view, [], random.Random(1))
    assert ai.random_choice(["keep"], random.Random(1)) == "keep"


@pytest.mark.parametrize(
    ("hand", "declared"),
    [
        (["fish"] * 3 + ["egg"] * 3, "declare draw"),  # no junk: draw
        (["fish"] * 2 + ["egg"] * 2 + ["milk"] * 2, "declare both"),  # pairs: both
        (["fish"] * 2 + ["egg"] * 2 + ["milk"], "declare draw"),  # five cards: draw
        (["fish"] * 3 + ["egg"] * 2 + ["milk"], "declare discard"),  # a single: discard
        (["fish"] * 3 + ["egg"] * 2 + ["milk"] * 2 + ["tin"] * 2, "declare both"),  # nine
        (["fish"] * 4 + ["egg"] * 2 + ["milk"] * 2 + ["tin"] * 2, "declare discard"),  # ten
    ],
)
def test_ai_declares_by_its_junk_and_hand_size(hand: list[str], declared: str) -> None:
    """(issue: the AI) With six cards or more and junk in hand it declares a discard (both
    when the junk is a pair, unless it holds ten or more); otherwise it draws."""
    state = build({0: hand, 1: ["pizza"], 2: ["apple"]}, affinity=False)
    assert _always(state) == {declared}


def test_ai_counts_its_affinity_pair_as_a_set() -> None:
    """(rulebook: trash affinity; issue: the AI) Two of its affinity item are a set to the
    AI, but only when affinity is on."""
    hand = ["takeout"] * 2 + ["fish"] * 3 + ["egg"] * 3
    cat = (ISCRATCHU, 1, 2)
    on = build({0: hand, 1: ["pizza"], 2: ["apple"]}, characters=cat)
    assert _ai(on) == "declare draw"
    off = build({0: hand, 1: ["pizza"], 2: ["apple"]}, characters=cat, affinity=False)
    assert _ai(off) == "declare both"
    # Only its affinity item needs two: a pair of anything else stays junk.
    pair = ["takeout"] * 2 + ["fish"] * 2 + ["egg"] * 3
    assert _ai(build({0: pair, 1: ["pizza"], 2: ["apple"]}, characters=cat)) == "declare both"


def test_ai_decides_from_a_public_view_too() -> None:
    """(issue: the AI) Without a hand to read (the public view) the AI still answers, as
    the seat to act, with nothing to dump: it draws."""
    state = build({0: ["fish"] * 2 + ["egg"] * 2 + ["milk"] * 2, 1: ["pizza"], 2: ["apple"]})
    view = BRAWL.observe(state, None)
    assert ai.choose(view, legal_moves(state, 0), random.Random(1)) == "declare draw"


@pytest.mark.parametrize(
    ("hand", "dumped"),
    [
        (["elbow", "apple"], "discard apple"),  # a lone trash card before a Booster
        (["elbow", "fish", "fish"], "discard elbow"),  # a Booster before a pair
        (["slug", "elbow"], "discard slug"),  # a Slug first of all
        (["takeout"] * 2 + ["tin"] * 3, "discard takeout"),  # a set is a set: first by name
    ],
)
def test_ai_throws_its_least_useful_card_to_the_truck(hand: list[str], dumped: str) -> None:
    """(house rule: Garbage Truck; issue: the AI) Asked to discard, the AI throws its least
    useful card: Slugs, then odd trash, then Boosters, then pairs; the affinity pair counts
    as a set."""
    state = build({0: hand, 1: ["pizza"], 2: ["apple"]}, characters=(ISCRATCHU, 1, 2), truck=(0,))
    assert _ai(state) == dumped


def test_ai_goes_out_and_dives_first() -> None:
    """(issue: the AI) In Rummy it goes out when it can; it plays Dumpster Dive before
    anything else on its turn."""
    rummy = build({0: ["fish"] * 3, 1: ["pizza"], 2: ["apple"]}, mode=RUMMY, phase="pre", draws=2)
    assert _ai(rummy) == "go out"
    dive = build({0: ["dive", "fish"], 1: ["pizza"], 2: ["apple"]})
    assert _ai(dive) == "play dive"


def test_ai_swaps_away_a_slug_only() -> None:
    """(house rule: Quick Swap; issue: the AI) It swaps a Slug for a random card of an
    opponent, and keeps Quick Swap when it holds no Slug."""
    slug = build({0: ["swap", "slug", "fish", "fish", "fish"], 1: ["pizza"], 2: ["apple"]})
    assert _always(slug) == {"play swap p1 slug", "play swap p2 slug"}
    trash = build({0: ["swap", "fish", "fish", "egg", "egg", "egg"], 1: ["pizza"], 2: ["apple"]})
    assert _always(trash) == {"declare both"}


def test_ai_sweeps_only_junk_and_as_much_as_it_may() -> None:
    """(house rule: Clean Sweep; issue: the AI) It sweeps only cards it would dump, as many
    as it may: one Slug but never a set of Fish Bones; two junk cards together."""
    one = build({0: ["sweep", "slug", "fish", "fish", "fish"], 1: ["pizza"], 2: ["apple"]})
    assert _always(one) == {"play sweep slug"}
    two = build({0: ["sweep", "slug", "slug", "fish", "fish", "fish"], 1: ["pizza"], 2: ["milk"]})
    assert _always(two) == {"play sweep slug slug"}


def test_ai_draws_before_it_discards_and_keeps_what_it_needs() -> None:
    """(issue: the AI) It draws every card it may before discarding junk; with nothing to
    draw it discards junk; a rummage with nothing worth discarding ends "done"."""
    both = build(
        {0: ["fish"] * 3 + ["milk"], 1: ["pizza"], 2: ["apple"]}, phase="pre", draws=1, discards=1
    )
    assert _always(both) == {"draw trash"}
    junk = build({0: ["fish"] * 3 + ["milk"], 1: ["pizza"], 2: ["apple"]}, phase="pre", discards=1)
    assert _always(junk) == {"discard milk"}
    keep = build(
        {0: ["fish"] * 3, 1: ["pizza"], 2: ["apple"]}, phase="rummage", actor=0, discards=2
    )
    assert _always(keep) == {"done"}


def test_ai_keeps_a_fair_rummage_roll() -> None:
    """(house rule: Second Wind; issue: the AI) A rummage roll of three pluses or more is
    kept: the AI draws on it."""
    dice = (2, 2, 2, 1, 1, 1)
    state = build(
        {0: ["wind", "fish", "fish", "fish"], 1: ["pizza"], 2: ["apple"]},
        phase="rummage",
        actor=0,
        draws=3,
        discards=3,
        rummage=dice,
        roll_log=((0, 0, 0, 3, *dice),),
    )
    assert "reroll" in legal_moves(state, 0)
    assert _always(state) == {"draw trash"}


def test_ai_attacks_the_hand_nearest_nine_with_its_elbow() -> None:
    """(issue: the AI) Outside Rummy it attacks the hand whose size is nearest a winning
    nine, and always adds Extra Elbow when it holds it."""
    state = build(
        {
            0: ["elbow"],
            1: ["pizza"] * 3,
            2: ["apple"] * 7 + ["fish"] * 2,
            3: ["egg"] * 7 + ["milk"] * 3,
        },
        seats=4,
        phase="attack",
    )
    assert _always(state) == {"attack p2 elbow"}
    rummy = build(
        {0: ["elbow"], 1: ["fish"], 2: ["milk"], 3: ["egg"]},
        seats=4,
        mode=RUMMY,
        laid={1: ["bear"] * 3, 2: ["pizza"] * 5},
        phase="attack",
    )
    assert _always(rummy) == {"attack p2 elbow"}


def test_ai_defends_with_every_booster() -> None:
    """(house rule: Extra Elbow, Sturdy Lid; issue: the AI) It defends with all it holds."""
    state = build({0: ["pizza"], 1: ["elbow", "lid"], 2: ["milk"]}, phase="defend", defender=1)
    assert _always(state) == {"defend elbow lid"}


@pytest.mark.parametrize(
    ("seat", "bars", "lids", "extra", "choice"),
    [
        (1, 4, 3, 1, "keep"),  # the defender holds a tie, its Sturdy Lid counted
        (1, 5, 3, 1, "reroll"),  # the defender loses
        (0, 3, 3, 0, "reroll"),  # the attacker's tie is a loss
        (0, 4, 3, 0, "keep"),
    ],
)
def test_ai_second_wind_only_on_a_lost_fight(
    seat: int, bars: int, lids: int, extra: int, choice: str
) -> None:
    """(rulebook: ties go to the defender; house rule: Second Wind) The AI rerolls only a
    fight it is losing, reading ties and the Sturdy Lid as the engine does."""
    state = _fight(bars, lids)
    hands = list(state.hands)
    hands[seat] = hands[seat] + (BOOSTER_IDS[1],)
    state = replace(state, hands=tuple(hands), lids=extra, winds=(seat,))
    assert _always(state) == {choice}


def test_ai_keeps_without_second_wind() -> None:
    """(issue: the AI) Without Second Wind the attacker keeps its roll, whatever else it
    could play."""
    state = replace(_fight(1, 4), hands=((BOOSTER_IDS[4],), (), ()))
    assert "keep" in legal_moves(state, 0) and len(legal_moves(state, 0)) > 1
    assert _always(state) == {"keep"}


def test_ai_spoils_take_unless_it_has_junk_to_give() -> None:
    """(rulebook: spoils; issue: the AI) Winning a fight it gives away junk, else takes a
    card, else is done."""
    state = build(
        {0: ["fish"] * 3, 1: ["pizza"], 2: ["apple"]}, phase="spoils", actor=0, spoils=1, defender=1
    )
    assert _always(state) == {"take"}
    empty = build(
        {0: ["fish"] * 3, 1: [], 2: ["apple"]}, phase="spoils", actor=0, spoils=1, defender=1
    )
    assert _always(empty) == {"done"}


def test_ai_lays_down_the_most_cards() -> None:
    """(rulebook: Rummy lay-downs; issue: the AI) It lays down as many cards as it may, and
    is done when it may lay none."""
    state = build(
        {0: ["fish"] * 4 + ["egg"], 1: ["pizza"], 2: ["apple"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    assert _always(state) == {"lay fish 4"}
    none = build(
        {0: ["egg", "peek"], 1: ["pizza"], 2: ["apple"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    assert _always(none) == {"done"}


# --- rules-bearing steps: roll-offs, going out, Rummy's score, the Dive, the lay-down ------


def test_a_roll_off_goes_to_the_most_crowbars() -> None:
    """(house rule: simultaneous winners, crowbar roll-offs) Each tied seat rolls six blue
    dice; the most crowbars wins, and ties roll again. The log names every roll."""
    for seed in range(6):
        table = _Table(build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, seed=seed))
        winner = table.roll_off([0, 1, 2])
        lines = [str(e.text) for e in table.events]
        assert all(re.fullmatch(r"Roll-off: (\{p\d\} \d crowbars?(, )?)+\.", t) for t in lines)
        last = dict(re.findall(r"\{p(\d)\} (\d) crowbar", lines[-1]))
        assert int(last[str(winner)]) == max(int(n) for n in last.values())
        assert list(last.values()).count(last[str(winner)]) == 1
        rolled = [entry[1] for entry in table.roll_log]
        assert rolled[:3] == [0, 1, 2] and len(rolled) == 3 * len(lines) - (len(lines) > 1)


def test_rummy_going_out_scores_the_bonus_and_wins() -> None:
    """(house rule: Rummy points, two for going out) Going out with three cards laid (five
    points) beats four cards laid without going out; the log gives the points."""
    state = build(
        {0: ["egg"] * 3, 1: ["milk"], 2: ["apple"]},
        mode=RUMMY,
        laid={1: ["fish"] * 4},
        phase="pre",
        draws=2,
    )
    applied = BRAWL.apply(state, 0, "go out")
    assert applied.state.finished and applied.state.winners == (0,)
    assert applied.state.went_out == 0 and applied.state.phase == "over"
    texts = [str(e.text) for e in applied.events]
    assert texts[-3:] == [
        "{p0} lays down the whole hand.",
        "{p0} goes out!",
        "{p0} wins with 5 points.",
    ]


def test_going_out_lays_the_largest_group_first() -> None:
    """(rulebook: Rummy going out) The whole hand goes down, the kind held most first (a
    Pizza Box here joins the Pizza Boxes already on the table)."""
    state = build(
        {0: ["pizza"] + ["egg"] * 3, 1: ["milk"], 2: ["apple"]},
        mode=RUMMY,
        laid={1: ["pizza"] * 3},
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    state = play(state, "go out")
    assert [CARDS[c].key for c in state.laid[0]] == ["egg", "egg", "egg", "pizza"]
    assert state.winners == (0,)


def test_the_defender_lays_down_after_the_attacker() -> None:
    """(rulebook: Rummy lay-downs) After the fight the attacker, then the defender lays
    down; the turn ends when both are done."""
    state = build(
        {0: ["egg"], 1: ["milk"] * 3 + ["fish"], 2: ["apple"]},
        mode=RUMMY,
        phase="lay",
        layers=(0, 1),
        defender=1,
    )
    applied = BRAWL.apply(state, 0, "done")
    assert applied.state.phase == "lay" and to_act(applied.state) == 1
    assert [str(e.text) for e in applied.events] == ["{p0} is done laying down."]
    applied = BRAWL.apply(applied.state, 1, "lay milk 3")
    assert [str(e.text) for e in applied.events] == ["{p1} lays down 3 Milk Jugs."]
    state = play(applied.state, "done")
    assert state.phase == "pre" and state.turn == 1


def test_a_dive_draws_from_the_refilled_trash_pile() -> None:
    """(house rule: Dumpster Dive; table rule: refill from the discard pile) With the trash
    pile empty the Dive still draws two cards, from the discard pile shuffled into a new
    trash pile, and leaves nothing waiting."""
    refill = build(
        {0: ["dive"], 1: ["milk"], 2: ["apple"]}, discard=["egg", "fish"], empty_trash=True
    )
    state = play(refill, "play dive")
    assert len(state.hands[0]) == 2 and state.dive == 0
    assert len(state.trash) + len(state.discard) == 1


def test_second_wind_needs_a_rummage_roll_to_reroll() -> None:
    """(house rule: Second Wind, right after you roll) In a rummage with no roll made (a
    Slippery Lid, or a table without rolls) there is nothing to reroll."""
    state = build(
        {0: ["wind", "fish"], 1: ["milk"], 2: ["apple"]}, phase="rummage", actor=0, draws=1
    )
    assert "reroll" not in legal_moves(state, 0)


def test_sneak_peek_tells_the_hand_in_order_or_nothing() -> None:
    """(house rule: Sneak Peek) The peeker alone reads the other hand, by name in
    alphabetical order; an empty hand reads as nothing."""
    state = build({0: ["peek", "fish"], 1: ["milk", "apple", "slug"], 2: []})
    applied = BRAWL.apply(state, 0, "play peek p1")
    assert [(str(e.text), e.to) for e in applied.events] == [
        ("{p0} plays Sneak Peek.", None),
        ("{p0} peeks at {p1}'s hand.", None),
        ("{p1} holds: Apple Core, Milk Jug, Slug.", 0),
    ]
    applied = BRAWL.apply(state, 0, "play peek p2")
    assert str(applied.events[-1].text) == "{p2} holds: nothing."


def test_quick_swap_tells_each_side_its_card() -> None:
    """(house rule: Quick Swap) The swap is public; each side learns privately what it got
    and gave."""
    state = build({0: ["swap", "slug"], 1: ["milk"], 2: ["apple"]})
    applied = BRAWL.apply(state, 0, "play swap p1 slug")
    assert keys(applied.state, 0) == ["milk"] and keys(applied.state, 1) == ["slug"]
    assert [(str(e.text), e.to) for e in applied.events] == [
        ("{p0} plays Quick Swap.", None),
        ("{p0} swaps a card with {p1}.", None),
        ("You got a Milk Jug.", 0),
        ("{p0} swapped your Milk Jug for a Slug.", 1),
    ]


def test_a_truck_discard_is_public_but_faceless() -> None:
    """(house rule: Garbage Truck) Each discard to the Truck is told, not which card."""
    state = build({0: ["fish"], 1: ["milk"], 2: ["apple"]}, truck=(1, 2))
    applied = BRAWL.apply(state, 1, "discard milk")
    assert [str(e.text) for e in applied.events] == ["{p1} throws a card onto the discard pile."]


def test_the_lobby_turns_affinity_off_for_rummy() -> None:
    """(rulebook: Rummy has no affinity) The lobby's settled options say so."""
    assert BRAWL.settle_options({"mode": RUMMY, "affinity": "on"}) == {
        "mode": RUMMY,
        "affinity": "off",
    }
    assert BRAWL.settle_options({"mode": KING, "affinity": "on"})["affinity"] == "on"
    state = BRAWL.new_game(3, {}, 3)
    assert BRAWL.opening_events(state) == opening_events(state)


def test_the_winning_hand_is_shown_only_for_a_lone_winner() -> None:
    """(contract: the final board) A lone winner's hand is public once the game is over;
    not before, not in a draw and not in Rummy."""
    hand = ["pizza"] * 3 + ["bear"] * 3 + ["fish"] * 3
    won = build({0: ["egg"], 1: hand, 2: ["milk"]}, finished=True, winners=(1,), phase="over")
    shown = BRAWL.observe(won, None)["winning_hand"]
    assert [c["id"] for c in shown] == list(won.hands[1])
    assert BRAWL.observe(replace(won, finished=False), None)["winning_hand"] == []
    assert BRAWL.observe(replace(won, winners=(0, 1, 2)), None)["winning_hand"] == []
    assert BRAWL.observe(replace(won, mode=RUMMY), None)["winning_hand"] == []
    assert BRAWL.observe(won, None)["to_act"] == []


def test_a_view_shows_the_public_table() -> None:
    """(contract: observations) The view names the game and the characters, shows the
    Blockers set aside, the fights and the cards handed over, and no hand to an outsider."""
    state = build(
        {0: ["egg"], 1: ["milk"], 2: ["apple"]},
        aside=(BLOCKER_IDS[0],),
        verdicts=(Verdict(3, 0, 1, 4, 2, 0),),
        handovers=(Handover(4, 1, 0, 1),),
    )
    view = BRAWL.observe(state, 0)
    assert view["game"] == "brawl"
    assert view["characters"][0] == {
        "key": "iscratchu",
        "name": "Iscratchu",
        "animal": "alley cat",
        "affinity": "takeout",
    }
    assert [c["key"] for c in view["aside"]] == ["truck"]
    assert view["verdicts"] == [
        {"step": 3, "attacker": 0, "defender": 1, "crowbars": 4, "lids": 2, "winner": 0}
    ]
    assert view["handovers"] == [{"step": 4, "giver": 1, "receiver": 0, "cards": 1}]
    assert view["points"] == [0, 0, 0]
    assert BRAWL.observe(state, 3)["hand"] is None


def _told(state: State, *actions: str) -> tuple[State, list[list[tuple[str, int | None]]]]:
    """Play `actions` and keep, per action, the log lines with whom each is for."""
    told = []
    for action in actions:
        seat = to_act(state)
        assert seat is not None
        applied = BRAWL.apply(state, seat, action)
        told.append([(str(e.text), e.to) for e in applied.events])
        state = applied.state
    return state, told


def test_a_turn_is_told_step_by_step() -> None:
    """(contract: the log) A declaration, a draw (the card told to the drawer alone), a
    face-down discard, an attack with Extra Elbow, a Sturdy Lid, both rolls with their
    crowbars and lids, the kept rolls and the fight's end are each told."""
    state = build(
        {0: ["elbow", "pizza", "fish"], 1: ["lid", "fish", "egg"], 2: ["milk"]},
        trash_top=["pizza"],
        seed=7,
    )
    state, told = _told(
        state,
        "declare both",
        "draw trash",
        "discard fish",
        "attack p1 elbow",
        "defend lid",
        "keep",
        "keep",
    )
    assert told == [
        [("{p0} declares: both.", None)],
        [("{p0} draws a card from the trash pile.", None), ("You drew a Pizza Box.", 0)],
        [("{p0} discards a card face down.", None)],
        [("{p0} plays Extra Elbow.", None), ("{p0} attacks {p1}!", None)],
        [
            ("{p1} plays Sturdy Lid.", None),
            ("{p0} rolls 7 blue dice: 4 crowbars, 3 lids.", None),
            ("{p1} rolls 5 green dice: 2 crowbars, 3 lids.", None),
        ],
        [("{p0} keeps the roll.", None)],
        [
            ("{p1} keeps the roll.", None),
            ("4 lids hold off 4 crowbars: {p1} wins the fight.", None),
        ],
    ]
    attack, defence = state.roll_log[-2:]
    assert attack[1:4] == (0, 0, 0) and defence[1:4] == (1, 1, 1)


def test_an_extra_elbow_in_defence_is_no_lid() -> None:
    """(house rule: Extra Elbow, one more die) Defending with Extra Elbow adds a sixth
    green die but no lid; defending with nothing braces for the attack."""
    state = build({0: ["pizza"], 1: ["elbow", "fish"], 2: ["milk"]}, phase="attack", seed=7)
    state, told = _told(state, "attack p1", "defend elbow")
    assert state.lids == 0 and len(state.dice[1]) == 6
    assert told[1][0] == ("{p1} plays Extra Elbow.", None)
    bare = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase="attack", seed=7)
    state, told = _told(bare, "attack p1", "defend")
    assert state.lids == 0 and told[1][0] == ("{p1} braces for the attack.", None)


def test_no_defence_is_asked_without_its_boosters() -> None:
    """(table rule: "defend" asked only when Extra Elbow or Sturdy Lid is in the game) With
    neither in play the attack goes straight to the dice."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase="attack")
    state = replace(state, in_play=tuple(c for c in state.in_play if CARDS[c].key == "wind"))
    state = play(state, "attack p1")
    assert state.phase == "wind" and len(state.dice[0]) == 6


def test_a_declared_draw_is_taken_in_the_draw_phase() -> None:
    """(rulebook: declare, then draw or discard) Declaring a draw (or a discard) opens the
    "pre" phase; declaring neither goes straight to the attack."""
    state = build({0: ["pizza"], 1: ["fish"], 2: ["milk"]})
    assert play(state, "declare draw").phase == "pre"
    assert play(state, "declare discard").phase == "pre"
    assert play(state, "declare neither").phase == "attack"


def test_a_rummage_ends_when_done_and_draws_the_discard_top() -> None:
    """(rulebook: rummage, draw up to the pluses; table rule: the discard pile's top card)
    A rummage may draw from the discard pile, and "done" gives up what is left."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        phase="rummage",
        actor=0,
        draws=2,
        discards=2,
        discard=["bear", "egg"],
    )
    state, told = _told(state, "draw discard", "done")
    assert keys(state, 0) == ["egg", "pizza"]
    assert told[1] == [("{p0} is done rummaging.", None)]
    assert state.phase == "declare" and state.turn == 1 and state.draws == state.discards == 0
    rummy = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="rummage",
        actor=0,
        draws=2,
        defender=1,
    )
    state = play(rummy, "done")
    assert state.phase == "lay" and state.draws == 0 and state.discards == 0


def test_a_stink_cloud_the_king_draws_lasts_his_next_turn() -> None:
    """(table rule: Stink Cloud in King of the Heap) A King who draws the Stink Cloud in his
    own rummage draws it on his turn: it lasts to the end of his next turn."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        mode=KING,
        king=1,
        turn=0,
        phase="rummage",
        actor=1,
        draws=2,
        defender=1,
        trash_top=["stink"],
    )
    state, told = _told(state, "draw trash")
    assert state.stink == (0, 2, 0)
    assert told[0][-1] == ("{p1} cannot win until the end of their next turn.", None)


def test_laying_down_the_last_cards_goes_out() -> None:
    """(rulebook: Rummy going out) Laying down one's last cards with a set down goes out at
    once, and the going-out bonus counts."""
    state = build(
        {0: ["egg"], 1: ["milk"] * 3, 2: ["apple"]},
        mode=RUMMY,
        phase="lay",
        layers=(1,),
        defender=1,
    )
    state, told = _told(state, "lay milk 3")
    assert state.finished and state.went_out == 1 and state.winners == (1,)
    assert told[0][1:] == [("{p1} goes out!", None), ("{p1} wins with 5 points.", None)]


def test_blockers_are_told_to_all_and_the_raid_to_each_side() -> None:
    """(house rules: Blockers) Each Blocker drawn is told; the Raid tells the two seats
    alone which card changed hands."""
    raid = build({0: ["milk"], 1: ["fish"], 2: ["egg"]}, phase="pre", draws=1, trash_top=["raid"])
    _, told = _told(raid, "draw trash")
    assert told[0] == [
        ("{p0} draws the Blocker Raccoon Raid from the trash pile!", None),
        ("{p1} takes a random card from {p0}.", None),
        ("You took a Milk Jug.", 1),
        ("{p1} took your Milk Jug.", 0),
    ]
    for key, line in [
        ("truck", "Every player discards one card of their choice."),
        ("slippery", "{p0}'s next rummage roll is skipped."),
        ("spill", "The discard pile is shuffled into the trash pile."),
    ]:
        state = build({0: ["milk"], 1: ["fish"], 2: ["egg"]}, phase="pre", draws=1, trash_top=[key])
        _, told = _told(state, "draw trash")
        assert told[0][-1] == (line, None)


def test_too_few_or_too_many_animals_are_refused() -> None:
    """(rulebook: three to six players) Another number of seats is refused, and said so."""
    for seats in (2, 7):
        with pytest.raises(IllegalAction, match=r"^Dumpster Brawl! takes 3 to 6 players\.$"):
            BRAWL.new_game(seats, {}, 1)


@pytest.mark.parametrize(
    ("mode", "phase", "action", "next_phase", "next_turn", "draws"),
    [
        ("round-rummage", "rummage", "done", "declare", 1, 0),
        ("king-of-the-heap", "rummage", "done", "attack", 2, 0),
        ("rummy", "lay", "done", "pre", 1, 2),
    ],
)
def test_a_new_turn_starts_clean(
    mode: str, phase: str, action: str, next_phase: str, next_turn: int, draws: int
) -> None:
    """(rulebook: turns) When a turn ends the next attacker starts afresh: the turn count
    goes up by one, no fighter, Booster, roll answer or lay-down is left over, and only
    Rummy's two draws are open."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        mode=mode,
        phase=phase,
        actor=0,
        king=1 if mode == KING else -1,
        defender=1,
        elbows=(0, 1),
        lids=1,
        winds=(),
        layers=(0,),
        turns=5,
    )
    state = play(state, action)
    assert (state.phase, state.turn, state.turns) == (next_phase, next_turn, 6)
    assert state.elbows == () and state.lids == 0 and state.winds == () and state.layers == ()
    assert state.defender == -1 and state.draws == draws and state.discards == 0


def test_a_stink_cloud_wears_off_only_for_the_seat_whose_turn_ends() -> None:
    """(table rule: Stink Cloud, to the end of the drawer's next turn) The end of seat 0's
    turn wears off seat 0's cloud, not the cloud of the seat before it."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        phase="rummage",
        actor=0,
        defender=1,
        stink=(1, 0, 2),
    )
    state = play(state, "done")
    assert state.stink == (0, 0, 2)


@pytest.mark.parametrize("worn_out", [False, True])
def test_rummy_scored_as_it_stands_has_no_going_out_bonus(worn_out: bool) -> None:
    """(table rule: Rummy ends when both piles are empty, or at the turn limit) Nobody went
    out: the most cards laid down wins, without a going-out bonus for anyone."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="lay",
        layers=(1,),
        defender=1,
        laid={0: ["egg"] * 4, 1: ["bear"] * 3},
        empty_trash=not worn_out,
        turns=400 if worn_out else 5,
    )
    state, told = _told(state, "done")
    assert state.finished and state.winners == (0,) and state.went_out == -1
    line = (
        "The alley is worn out: the game ends in a draw."
        if worn_out
        else "Both piles are empty: the game is scored as it stands."
    )
    assert told[0][1] == (line, None)
    assert told[0][-1] == ("{p0} wins with 4 points.", None)


def test_rummy_fighters_lay_down_after_the_spoils() -> None:
    """(rulebook: Rummy, laying down after the fight) When the spoils are done the attacker
    and then the defender lay down."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]},
        mode=RUMMY,
        phase="spoils",
        actor=1,
        spoils=2,
        defender=1,
    )
    state = play(state, "done")
    assert state.phase == "lay" and state.layers == (0, 1) and to_act(state) == 0


@pytest.mark.parametrize("booster", ["elbow", "lid"])
def test_either_defence_booster_asks_for_a_defence(booster: str) -> None:
    """(table rule: "defend" asked when Extra Elbow or Sturdy Lid is in the game) One of
    the two in play is enough; the attack gives up the declared cards left."""
    state = build(
        {0: ["pizza"], 1: ["fish"], 2: ["milk"]}, phase="pre", draws=1, discards=1, lids=1
    )
    state = replace(state, in_play=tuple(c for c in state.in_play if CARDS[c].key == booster))
    state = play(state, "attack p1")
    assert state.phase == "defend" and to_act(state) == 1
    assert state.draws == 0 and state.discards == 0 and state.lids == 0


@pytest.mark.parametrize("seat", [0, 1])
def test_second_wind_rerolls_only_the_players_own_dice(seat: int) -> None:
    """(house rule: Second Wind, reroll all your dice) The attacker rerolls the six blue
    dice, the defender the five green; the other fighter's dice stay, and the fight's end is
    recorded for the dice picture."""
    state = _fight(3, 3)
    hands = list(state.hands)
    hands[seat] = hands[seat] + (BOOSTER_IDS[1],)
    state = replace(state, hands=tuple(hands), winds=(seat,))
    before = state.dice
    state, told = _told(state, "reroll")
    assert state.dice[1 - seat] == before[1 - seat]
    entry = state.roll_log[-1]
    assert entry[1:4] == (seat, seat, 2) and len(entry) - 4 == (6, 5)[seat]
    colour = ("blue", "green")[seat]
    assert told[0][1][0].startswith(f"{{p{seat}}} rolls {(6, 5)[seat]} {colour} dice: ")
    verdict = state.verdicts[-1]
    bars, lids = crowbars(state.dice[0]), len(state.dice[1]) - crowbars(state.dice[1])
    assert verdict == Verdict(state.step, 0, 1, bars, lids, 0 if bars > lids else 1)


def test_rummy_going_out_onto_the_tables_sets() -> None:
    """(rulebook: Rummy going out) The whole hand may go down when every kind in it is a
    set of three, or one a set on the table (anyone's) takes; a lone odd card stops it."""
    onto = build(
        {0: ["fish"] * 3 + ["pizza"], 1: ["milk"], 2: ["apple"]},
        mode=RUMMY,
        laid={1: ["pizza"] * 3},
        phase="pre",
        draws=2,
    )
    assert "go out" in legal_moves(onto, 0)
    odd = build(
        {0: ["fish"] * 3 + ["egg"], 1: ["milk"], 2: ["apple"]},
        mode=RUMMY,
        laid={1: ["pizza"] * 3},
        phase="pre",
        draws=2,
    )
    assert "go out" not in legal_moves(odd, 0)


def test_a_new_game_starts_with_no_stink() -> None:
    """(house rule: Stink Cloud, only when drawn) Nobody starts under a cloud."""
    for seats in (3, 6):
        assert BRAWL.new_game(seats, {}, 2).stink == (0,) * seats

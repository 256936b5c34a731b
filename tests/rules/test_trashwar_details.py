"""Trash War: the details mutation testing found unchecked (docs/mutation.md).

The deck table's own checks, the bookkeeping a state keeps (steps, turns, marks, the seed,
the starter), the order trash is met in when a defender out of turn bats it on, the
observation's fields, the refusals and log lines players read, the menu groups, and the
AI's preferences. Each test names the rule or promise it checks, as in test_trashwar.py.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.base import NOT_A_MOVE, IllegalAction
from rules.trashwar import ai, view
from rules.trashwar.actions import Burn, burnt_wordings, fit, parse_action, thrown_wordings
from rules.trashwar.cards import CARDS, Card, _build, check_deck
from rules.trashwar.engine import TRASH_WAR, State
from rules.trashwar.groups import MORE, QUESTIONS, group_wording
from rules.trashwar.state import MARKS_KEPT, Mark, mace_targets
from tests.rules.test_trashwar import build, codes, legal, play, refuse, texts

# --- The deck table --------------------------------------------------------------------------


def test_the_deck_is_built_from_the_deck_list_the_same_way_every_time() -> None:
    """Every card's id, face, flavour name, article and code come from the deck list
    alone (house rule: deck list; engine contract: codes name what a player sees)."""
    assert _build() == CARDS
    assert [c.code for c in CARDS[18:21]] == ["piano1", "car1", "gator1"]
    assert {c.code for c in CARDS if c.kind == "mace"} == {
        "mace-left",
        "mace-right",
        "mace-back",
        "mace-any++",
    }
    assert {c.code for c in CARDS if c.kind == "shield"} == {
        "shield1",
        "shield2",
        "shield3",
        "shield4+",
    }
    assert {(c.code, c.a) for c in CARDS if c.kind in ("repair", "deflect", "catapult")} == {
        ("repair", "a Repair Wall"),
        ("repair+", "a Repair Wall (1 torch)"),
        ("deflect", "a Deflect"),
        ("deflect++", "a Deflect (2 torches)"),
        ("catapult+", "a Catapult (1 torch)"),
    }


def _deck_with(k: int, **changes: object) -> tuple[Card, ...]:
    return (*CARDS[:k], dataclasses.replace(CARDS[k], **changes), *CARDS[k + 1 :])  # type: ignore[arg-type]


def _deck_error(cards: tuple[Card, ...]) -> str:
    with pytest.raises(ValueError) as caught:
        check_deck(cards)
    return str(caught.value)


def test_the_deck_check_refuses_a_deck_list_the_engine_cannot_play() -> None:
    """A group correcting the deck list in cards.py is told at once when the table breaks
    what the engine relies on: 112 cards, known kinds, a direction on every Mace and only
    there, a value on Trash, Shields and Burns, 0 to 2 torches, one face per code, and the
    eighteen Wall cards first (house rule: deck list)."""
    check_deck(CARDS)  # the house rules' list passes
    assert _deck_error(CARDS[:-1]) == "The deck has 111 cards, not 112."
    assert _deck_error(_deck_with(30, kind="bomb")) == "Unknown kind 'bomb'."
    mace = next(c.id for c in CARDS if c.kind == "mace")
    assert _deck_error(_deck_with(mace, direction="")) == (
        "mace-left: only a Mace has a direction, and every Mace one."
    )
    assert _deck_error(_deck_with(20, value=0)) == (
        "gator1: Trash, Shield and Burn cards need a value."
    )
    assert _deck_error(_deck_with(20, torches=3)) == "gator1: a card has 0, 1 or 2 torches."
    assert _deck_error(_deck_with(20, value=3)) == "Two different cards share the code 'gator1'."
    assert _deck_error(_deck_with(17, **_face(CARDS[18]))) == (
        "The deck list starts with the Wall cards, three for each of six."
    )


def _face(card: Card) -> dict[str, object]:
    fields = ("kind", "value", "torches", "direction", "key", "name", "article", "code")
    return {name: getattr(card, name) for name in fields}


# --- Setup and the state's bookkeeping ---------------------------------------------------------


def test_a_new_war_keeps_its_seed_counts_its_first_turn_and_deals_by_the_seed() -> None:
    """One seeded generator per game (house rule): the deal depends on the seed, and the
    state keeps the seed for the shuffles to come; the opener's turn is the first."""
    a, b = TRASH_WAR.new_game(3, {}, 1), TRASH_WAR.new_game(3, {}, 2)
    assert a.seed == 1 and b.seed == 2
    assert a.hands != b.hands
    assert a.turns == 1 and a.phase == "attack" and a.step == 0


def test_each_action_counts_a_step_and_each_turn_begun_counts_a_turn() -> None:
    """`step` counts the actions applied and `turns` the turns begun (engine contract:
    observe); the seed and the opener are kept."""
    state = dataclasses.replace(
        build(3, hands={2: ["tv2", "shield1"], 0: ["toaster1"]}, turn=2), turns=1
    )
    assert state.starter == 2
    state = play(state, 2, "play tv2 at p0 left")
    assert (state.step, state.turns, state.seed, state.starter) == (1, 2, 7, 2)
    assert state.drawn is None and state.opening is False
    state = play(state, 0, "take")
    assert (state.step, state.turns) == (2, 2)
    view = TRASH_WAR.observe(state, None)
    assert (view["step"], view["turns"]) == (2, 2)


def test_the_outcome_keeps_no_score() -> None:
    """The last knight standing wins; the game keeps no points (engine docstring)."""
    state = build(
        3,
        hands={0: ["tv3"]},
        walls={1: [["toaster1"], None, None]},
        eliminated=[2],
    )
    state = play(play(state, 0, "play tv3 at p1 left"), 1, "take")
    outcome = TRASH_WAR.outcome(state)
    assert outcome is not None and outcome.points == (0, 0, 0)
    assert outcome.ranks == (0, 1, 2)
    assert state.phase == "over"


# --- Marks on the board ------------------------------------------------------------------------


def test_every_hit_fall_shield_bat_burn_and_repair_leaves_a_mark_on_the_board() -> None:
    """The board marks what happened at each wall since it was last shown: the step, the
    seat, the wall, what happened and the cards that did it, by code, for the board to name
    in its readers' language (engine contract: observe)."""
    state = build(
        3,
        hands={1: ["shield2", "mace-left", "burn3", "repair"]},
        walls={1: [["tv3"], ["car1"], []]},
        turn=1,
        phase="defend",
        flight=[("toaster1", 1, "left", 0), ("drum2", 1, "middle", 0), ("bike1", 1, "right", 0)],
    )
    state = play(state, 1, "take")  # the left wall falls
    assert state.marks == (Mark(1, 1, 0, "felled", "toaster1"),)
    state = play(state, 1, "play shield2")
    assert state.marks[-1] == Mark(2, 1, 1, "shielded", "drum2")
    hit = play(state, 1, "take")
    assert hit.marks[-1] == Mark(3, 1, 2, "hit", "bike1")
    batted = play(play(state, 1, "play mace-left"), 1, "at p2 middle")
    assert batted.marks[-1] == Mark(4, 2, 1, "batted at", "bike1")
    assert batted.swing is None
    burned = play(hit, 1, "play burn3 middle car1 right bike1")
    assert burned.marks[-2:] == (
        Mark(4, 1, 1, "burned", "car1"),
        Mark(4, 1, 2, "burned", "bike1"),
    )
    repaired = play(hit, 1, "play repair left")
    assert repaired.marks[-1] == Mark(4, 1, 0, "repaired", "")
    view = TRASH_WAR.observe(repaired, None)
    assert view["marks"][-1] == {
        "step": 4,
        "seat": 1,
        "wall": "left",
        "what": "repaired",
        "card": "",
    }


def test_a_state_keeps_only_the_newest_marks() -> None:
    """Marks are the newest sixteen, oldest first (observation: marks)."""
    old = tuple(Mark(k, 2, 0, "hit", "toaster (1)") for k in range(MARKS_KEPT))
    state = dataclasses.replace(build(3, hands={0: ["tv2"]}), marks=old)
    state = play(play(state, 0, "play tv2 at p1 left"), 1, "take")
    assert len(state.marks) == MARKS_KEPT
    assert state.marks[0] == old[1] and state.marks[-1].what == "hit"


# --- Out of turn: batting on, re-drawing ---------------------------------------------------------


def test_trash_batted_at_a_bystander_is_met_before_the_turns_own_trash() -> None:
    """Trash batted by a knight defending out of turn at a third knight is met by that
    knight at once, ahead of the trash aimed at the knight whose turn it is; batted at the
    knight whose turn it is, it joins their trash at the back. The batter re-draws once
    their defence is over (table rule: batted trash)."""
    state = build(
        3,
        hands={1: ["mace-any++", "shield1", "shield2", "deflect", "repair"]},
        turn=0,
        phase="defend",
        flight=[("tv2", 1, "left", 2), ("toaster1", 0, "middle", 2)],
    )
    swung = play(state, 1, "play mace-any++")
    at_bystander = play(swung, 1, "at p2 right")
    assert [(f.target, codes([f.card])[0]) for f in at_bystander.flight] == [
        (2, "tv2"),
        (0, "toaster1"),
    ]
    assert at_bystander.flight[0].sender == 1 and at_bystander.turn == 0
    assert len(at_bystander.hands[1]) == 5  # re-drew after the defence out of turn
    assert "{p1} draws 1 card." in texts(swung, 1, "at p2 right")
    alone = build(
        3,
        hands={1: ["mace-any++"]},
        turn=0,
        phase="defend",
        flight=[("tv2", 1, "left", 2)],
    )
    alone = play(play(alone, 1, "play mace-any++"), 1, "at p2 right")
    assert [(f.target, f.wall, f.sender) for f in alone.flight] == [(2, 2, 1)]
    at_turn = play(swung, 1, "at p0 left")
    assert [(f.target, f.wall) for f in at_turn.flight] == [(0, 1), (0, 0)]


def test_a_defender_out_of_turn_re_draws_only_after_their_last_card() -> None:
    """A knight meeting several batted cards out of turn meets them all, then re-draws
    (table rule: batted trash)."""
    state = build(
        3,
        hands={2: ["shield1", "shield2"]},
        turn=0,
        phase="defend",
        flight=[("tv1", 2, "left", 1), ("toaster1", 2, "middle", 1), ("bike1", 0, "left", 1)],
    )
    state = play(state, 2, "play shield1")
    assert codes(state.hands[2]) == ["shield2"]
    state = play(state, 2, "play shield2")
    assert len(state.hands[2]) == 5


def test_a_redraw_cut_short_by_empty_piles_still_says_what_was_drawn() -> None:
    """Should both piles run dry, a player draws what there is (table rule), and the log
    says how many."""
    state = build(3, hands={0: ["tv2"]}, draw=["car1", "gator1"])
    assert "{p0} draws 2 cards." in texts(state, 0, "play tv2 at p1 left")


# --- The view --------------------------------------------------------------------------------


def test_the_view_shows_each_card_wall_and_flight_in_full() -> None:
    """Every face-up card shows its id, code, kind, value, torches, direction, name and
    title; every wall its position, state, trash and damage; every player their seat and
    the damage flying at them (observation)."""
    state = build(
        3,
        hands={1: ["mace-any++"]},
        walls={1: [["tv3"], [], None]},
        turn=1,
        phase="defend",
        flight=[("piano2", 1, "left", 0), ("car1", 1, "middle", 0)],
        torched=["shield4+"],
    )
    view = TRASH_WAR.observe(state, None)
    mace = next(c for c in CARDS if c.code == "mace-any++")
    own = TRASH_WAR.observe(state, 1)
    assert own["hand"] == [
        {
            "id": mace.id,
            "code": "mace-any++",
            "kind": "mace",
            "value": 0,
            "torches": 2,
            "direction": "any",
            "name": "Mace",
            "title": "Mace (bat at any player, 2 torches)",
        }
    ]
    player = view["players"][1]
    assert player["seat"] == 1 and player["under_attack"] == 3
    walls = player["walls"]
    assert [w["position"] for w in walls] == ["left", "middle", "right"]
    assert walls[0]["standing"] is True and walls[0]["damage"] == 3
    assert [c["code"] for c in walls[0]["trash"]] == ["tv3"]
    assert walls[1] == {"position": "middle", "standing": True, "trash": [], "damage": 0}
    assert walls[2]["standing"] is False
    assert view["incoming"][0]["target"] == 1
    assert view["torched_top"] is not None and view["torched_top"]["code"] == "shield4+"
    assert view["game"] == "trashwar" and view["winner"] is None


def test_a_seat_sees_its_own_hand_and_a_seat_outside_the_game_sees_none() -> None:
    """The first seat sees its hand like any other; a seat number outside the table sees
    the public view (observation: hand)."""
    state = build(2, hands={0: ["tv2"], 1: ["shield1"]})
    assert [c["code"] for c in TRASH_WAR.observe(state, 0)["hand"] or []] == ["tv2"]
    assert TRASH_WAR.observe(state, 2)["hand"] is None
    assert TRASH_WAR.observe(state, 5)["hand"] is None


def test_a_finished_war_shows_nobody_to_act_and_the_winner() -> None:
    """Once one knight is left nobody acts and the view names the winner (observation)."""
    state = build(2, hands={0: ["tv3"]}, walls={1: [["toaster1"], None, None]})
    state = play(play(state, 0, "play tv3 at p1 left"), 1, "take")
    view = TRASH_WAR.observe(state, None)
    assert view["to_act"] == [] and view["winner"] == 0 and view["finished"] is True


def test_the_hand_picture_marks_the_cards_a_move_open_now_plays() -> None:
    """While a knight decides, each card of their hand says whether some move open now
    plays or discards it; others see no such marks (observation: playable)."""
    state = build(3, hands={0: ["tv2", "catapult+", "shield1"], 1: ["shield2"]})
    assert TRASH_WAR.observe(state, 0)["playable"] == [True, True, False]
    assert TRASH_WAR.observe(state, 1)["playable"] is None
    defend = build(
        3,
        hands={1: ["shield2", "burn2"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0)],
    )
    assert TRASH_WAR.observe(defend, 1)["playable"] == [True, False]


def test_a_card_view_shows_the_whole_face() -> None:
    """A face-up card shows its id, code, kind, value, torches, direction, name and title
    (observation: CardView)."""
    card = next(c for c in CARDS if c.code == "drum4+")
    assert view._card_view(card) == {
        "id": card.id,
        "code": "drum4+",
        "kind": "trash",
        "value": 4,
        "torches": 1,
        "direction": "",
        "name": "toxic waste drum",
        "title": "toxic waste drum (4)",
    }


# --- Refusals players read ----------------------------------------------------------------------


def test_refusals_name_the_rule_broken() -> None:
    """Each refused action says which rule it breaks (engine contract: check)."""
    attack = build(3, hands={0: ["tv2", "catapult+", "toaster1"]}, eliminated=[2])
    assert refuse(attack, 0, "at p1 left") == "There is no Mace being swung."
    assert refuse(attack, 0, "play tv2 at p2 left") == "That player is not in the war."
    assert refuse(attack, 0, "play tv2 at p3 left") == "That player is not in the war."
    assert refuse(attack, 0, "play car1 at p1 left") == "You hold no muscle car (1)."
    assert refuse(attack, 0, "play catapult+ tv2 tv2 at p1 left") == (
        "You hold no more television (2)."
    )
    assert refuse(attack, 0, "take") == "No trash is flying at you to defend against."
    defend = build(
        3,
        hands={1: ["tv2", "shield3", "deflect", "mace-left"]},
        walls={1: [None, [], []]},
        turn=1,
        phase="defend",
        flight=[("car1", 1, "left", 0)],
    )
    assert refuse(defend, 1, "play tv2 at p0 left") == "You can throw trash only when you attack."
    assert refuse(defend, 1, "play shield3") == (
        "That trash falls into rubble: there is nothing to shield."
    )
    assert refuse(defend, 1, "play deflect middle") == (
        "That trash falls into rubble: there is nothing to deflect."
    )
    assert refuse(defend, 1, "play shield1") == "You hold no Shield 1."
    swung = play(defend, 1, "play mace-left")
    assert refuse(swung, 1, "take") == "First choose where your Mace bats the trash."


def test_actions_outside_the_grammar_are_not_moves() -> None:
    """Only the action grammar is understood: a card word with extra words, or a card that
    is never played (a Wall), is no move (engine contract)."""
    for text in ("discard tv2 now", "play wall"):
        with pytest.raises(IllegalAction) as caught:
            parse_action(text)
        assert caught.value.reason == NOT_A_MOVE
    volley = parse_action("play catapult+ toaster1 tv3 at p1 left")
    assert volley == parse_action("play catapult+ tv3 toaster1 at p1 left")
    assert getattr(volley, "trash", None) == ("tv3", "toaster1")


# --- Log lines players read ---------------------------------------------------------------


def test_throws_and_swings_are_told_in_the_log() -> None:
    """The log names who throws what at whom, and who swings which Mace at what."""
    state = build(3, hands={0: ["tv2"], 1: ["mace-left"]})
    assert texts(state, 0, "play tv2 at p1 left")[0] == (
        "{p0} throws a television (2) at {p1}'s left wall."
    )
    state = play(state, 0, "play tv2 at p1 left")
    assert texts(state, 1, "play mace-left") == [
        "{p1} swings a Mace (bat left) at the television (2)."
    ]


def test_the_log_counts_the_batted_trash_that_flies_on() -> None:
    """When a Mace ends a defence, the log says how many batted cards fly on and who
    takes the turn."""
    state = build(
        3,
        hands={1: ["mace-left", "mace-right"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 0), ("car1", 1, "left", 0)],
    )
    state = play(play(state, 1, "play mace-left"), 1, "at p2 left")
    state = play(state, 1, "play mace-right")
    assert "The 2 batted cards fly on; the turn passes to {p0}." in texts(state, 1, "at p0 left")


def test_a_discard_with_nothing_left_to_draw_passes_the_turn() -> None:
    """A knight with no Trash discards and draws; with no card left anywhere the log says
    so and play passes to the left (table rule: empty piles)."""
    state = build(3, hands={0: ["catapult+"], 1: ["shield1"]}, draw=[])
    lines = texts(state, 0, "discard catapult+")
    assert lines[1] == "There is no card left to draw."
    assert lines[-1] == "Play passes to the left, to {p1}."


def test_the_recycling_says_how_many_torched_cards_leave() -> None:
    """At each recycling the log tells the new pile's size, the torching phase and how
    many torched cards leave the game; the state counts the recyclings (rulebook:
    recycling)."""

    def recycling(torched: list[str], recycles: int = 0) -> tuple[str, State]:
        state = dataclasses.replace(
            build(3, hands={0: ["tv2"]}, draw=["xray1"], recycle=["car1"], torched=torched),
            recycles=recycles,
        )
        applied = TRASH_WAR.apply(state, 0, "play tv2 at p1 left")
        line = next(str(e.text) for e in applied.events if str(e.text).startswith("The draw pile"))
        return line, applied.state

    assert recycling([])[0].endswith("Torching phase 2 begins.")
    assert recycling(["shield4+", "drum4+"])[0].endswith("; 2 torched cards leave the game.")
    assert recycling(["shield4+"])[0].endswith("; 1 torched card leaves the game.")
    assert recycling([], recycles=2)[1].recycles == 3


# --- Labels and menus ----------------------------------------------------------------------------


def test_labels_of_batting_and_of_maces_name_whom_they_reach() -> None:
    """A Mace's label names the one knight it can reach, none when it may choose; a bat's
    label names where the trash goes (engine contract: describe)."""
    state = build(
        3,
        hands={1: ["mace-back", "mace-any++"]},
        turn=1,
        phase="defend",
        flight=[("tv2", 1, "left", 2)],
    )
    assert str(TRASH_WAR.describe(state, "play mace-back")) == (
        "Mace (bat back at the sender): bat the television (2) at {p2}"
    )
    assert str(TRASH_WAR.describe(state, "play mace-any++")) == (
        "Mace (bat at any player, 2 torches): bat the television (2)"
    )
    swung = play(state, 1, "play mace-any++")
    assert str(TRASH_WAR.describe(swung, "at p0 middle")) == "Bat it at {p0}'s middle wall"
    # A defence with nothing in flight (an older message) is shown as its text.
    assert str(TRASH_WAR.describe(build(3), "take")) == "take"


def test_short_wordings_for_long_throws_and_burns() -> None:
    """When the full wording is too long for a button, shorter ones follow: the values of
    a volley, the titles or values burned off each wall; failing all, the shortest."""
    assert str(thrown_wordings(("tv3", "toaster1"), "catapult+")[2]) == "Catapult 3 + 1"
    burn_text = "play burn4++ left toaster2 bike1 middle tv1"
    burn = parse_action(burn_text)
    assert str(TRASH_WAR.describe_in_group(build(3), burn_text, "play burn4++")) == (
        "toaster (2), exercise bike (1) off left; television (1) off middle"
    )
    assert isinstance(burn, Burn)
    assert str(burnt_wordings(burn)[2]) == "2+1 off left, 1 off middle"
    assert fit("x" * 81, "y" * 90) == "y" * 90


def wording(group: str) -> tuple[str, str]:
    """A group's button label and question, in English."""
    card, question = group_wording(group)
    return str(card), str(question)


def test_menu_groups_gather_a_cards_moves_and_label_them() -> None:
    """A card that can go several places is one button, then its targets (groups.py):
    the group is the card part, the label inside the group where it goes, and the group's
    button names the card and asks the question."""
    assert TRASH_WAR.group_of("play tv2 at p1 left") == "play tv2"
    assert TRASH_WAR.group_of("play catapult+ tv3 toaster1 at p2 middle") == (
        "play catapult+ tv3 toaster1"
    )
    assert TRASH_WAR.group_of("play deflect right") == "play deflect"
    assert TRASH_WAR.group_of("take") == "take"
    assert TRASH_WAR.group_of("nonsense") == "nonsense"
    state = build(3)
    assert str(TRASH_WAR.describe_in_group(state, "play tv2 at p1 left", "play tv2")) == (
        "{p1} · left wall"
    )
    assert str(TRASH_WAR.describe_in_group(state, "play repair middle", "play repair")) == (
        "your middle wall"
    )
    assert str(TRASH_WAR.describe_in_group(state, "take", "take")) == "take"
    assert wording("play catapult+ tv3 toaster1") == (
        "Catapult the television (3) and the toaster (1)" + MORE,
        str(QUESTIONS["catapult"]),
    )
    assert wording("play tv2") == (
        "Throw the television (2)" + MORE,
        "At which wall?",
    )
    assert wording("play burn3") == ("Burn 3" + MORE, str(QUESTIONS["burn"]))
    assert wording("play shield2") == (
        "Shield 2" + MORE,
        "Pick one of these:",
    )
    assert wording("take") == ("take", "Pick one of these:")
    assert wording("play") == ("play", "Pick one of these:")
    assert wording("play bogus") == ("play bogus", "Pick one of these:")
    long = "play catapult+ " + " ".join(["gator3"] * 3)
    assert str(group_wording(long)[0]) == "Catapult 3 + 3 + 3" + MORE


def test_trash_of_one_face_under_two_names_is_one_choice() -> None:
    """Issue 55 (which of several identical cards is no choice): no rule reads a Trash
    card's flavour name, so throwing the toaster (2) or the television (2) at one wall is
    one decision (`same_choice`), in a volley and a burn too; another wall or damage is
    another."""
    state = build(3, hands={0: ["toaster2", "tv2", "car1", "catapult+"]})

    def key(action: str) -> str:
        return TRASH_WAR.same_choice(state, action)

    assert key("play toaster2 at p1 left") == key("play tv2 at p1 left")
    assert key("play toaster2 at p1 left") != key("play tv2 at p1 right")
    assert key("play toaster2 at p1 left") != key("play car1 at p1 left")
    assert key("play catapult+ tv2 car1 at p2 middle") == key(
        "play catapult+ toaster2 tv1 at p2 middle"
    )
    assert key("play burn3 left toaster2 right tv1") == key("play burn3 left tv2 right car1")
    assert key("play burn3 left toaster2 right tv1") != key("play burn3 left tv1 right tv2")
    assert key("take") == "take"
    moves = legal(state, 0)
    offered = TRASH_WAR.one_of_each(state, moves)
    assert len(moves) > len(offered) and offered[0] == moves[0]
    assert not any(move.startswith("play tv2 ") for move in offered)


# --- Legal moves in a fixed order -----------------------------------------------------------------


def test_legal_moves_list_the_heaviest_cards_first() -> None:
    """Legal moves come in a fixed order, heaviest card first: stronger Shields before
    weaker ones, a burn's trash heaviest first on each wall (engine contract)."""
    state = build(
        3,
        hands={1: ["shield1", "shield3"]},
        turn=1,
        phase="defend",
        flight=[("car1", 1, "left", 0)],
    )
    assert legal(state, 1) == ["take", "play shield3", "play shield1"]
    burn = build(3, hands={0: ["burn3"]}, walls={0: [["toaster1", "tv2"], [], []]}, phase="burn")
    assert "play burn3 left tv2 toaster1" in legal(burn, 0)


# --- The AI -------------------------------------------------------------------------------------


def _choose(state: State, seat: int, seed: int = 3) -> str:
    return TRASH_WAR.choose(TRASH_WAR.observe(state, seat), legal(state, seat), random.Random(seed))


def test_ai_refuses_to_choose_from_nothing() -> None:
    """The AI needs at least one legal action."""
    with pytest.raises(ValueError) as caught:
        ai.choose(TRASH_WAR.observe(build(3), 0), [], random.Random(1))
    assert str(caught.value) == "No legal action to choose from."


def test_ai_reads_whom_a_mace_reaches_as_the_engine_rules_it() -> None:
    """The AI's reading of a Mace's reach (left, right, back, anyone; skipping knights who
    are out) is the engine's (table rule: maces)."""
    state = build(5, eliminated=[3])
    view = TRASH_WAR.observe(state, None)
    for seat in (0, 1, 2, 4):
        for direction in ("left", "right", "back", "any"):
            for sender in (0, 2, 3, 4):
                assert ai._reach(view, seat, direction, sender) == mace_targets(
                    state, seat, direction, sender
                ), (seat, direction, sender)


def _defend(hand: list[str], trash: str, walls: list[list[str] | None], seeds: int = 1) -> set[str]:
    """What the AI of seat 1 does, over `seeds` tie-breaks, against `trash` aimed at its
    left wall (sent by seat 0; seat 2 sits on its left, full strength)."""
    state = build(
        4,
        hands={1: hand},
        walls={1: walls, 0: [["car3"], None, None], 3: [["gator3"], None, None]},
        turn=1,
        phase="defend",
        flight=[(trash, 1, "left", 0)],
    )
    return {_choose(state, 1, seed) for seed in range(seeds)}


def test_ai_takes_a_harmless_hit_rather_than_spend_a_big_shield_or_a_mace() -> None:
    """A harmless 1 is not worth a big Shield, a Mace or a Deflect, even on a last wall;
    a hit that topples is (the AI's defence)."""
    assert _defend(["shield3"], "tv1", [[], [], []]) == {"take"}
    assert _defend(["mace-left"], "tv1", [[], [], []]) == {"take"}
    assert _defend(["mace-left"], "tv1", [[], None, None]) == {"take"}
    assert _defend(["deflect"], "toaster2", [[], [], []]) == {"take"}
    assert _defend(["shield3"], "tv3", [["car1"], [], []]) == {"play shield3"}
    assert _defend(["shield3"], "tv3", [["car1"], None, None]) == {"play shield3"}
    assert _defend(["mace-left"], "tv1", [["teeth3"], [], []]) == {"play mace-left"}
    assert _defend(["shield2"], "toaster2", [[], [], []]) == {"play shield2"}


def test_ai_prefers_a_shield_to_a_mace_and_a_mace_towards_the_strongest() -> None:
    """A Shield strong enough comes first, then a Mace swung towards the strongest knight
    it can reach (the AI's defence)."""
    assert _defend(["shield3", "mace-left"], "toaster2", [[], [], []]) == {"play shield3"}
    # Left reaches seat 2 at full strength; back reaches the battered sender, seat 0.
    assert _defend(["mace-back", "mace-left"], "tv3", [[], [], []], seeds=8) == {"play mace-left"}


def test_ai_bats_trash_falling_into_rubble_on() -> None:
    """Trash falling into rubble is batted on when a Mace is at hand (the AI's defence)."""
    assert _defend(["mace-left"], "tv1", [None, [], []]) == {"play mace-left"}


def test_ai_deflects_a_toppling_hit_onto_the_wall_that_holds_best() -> None:
    """A Deflect when the aimed wall would fall and another can take the hit, onto the
    least damaged wall; not when the only other wall would fall too (the AI's defence)."""
    assert _defend(["deflect"], "toaster2", [["car2"], ["tv1"], []]) == {"play deflect right"}
    assert _defend(["deflect"], "toaster2", [["car2"], ["tv1", "bike1"], None]) == {"take"}


def _bat(walls: dict[int, list[list[str] | None]], seeds: int = 1) -> set[str]:
    state = build(
        4,
        hands={1: []},
        walls=walls,
        turn=1,
        phase="bat",
        swing="any",
        flight=[("toaster2", 1, "left", 0)],
    )
    return {_choose(state, 1, seed) for seed in range(seeds)}


def test_ai_bats_at_a_knights_last_wall_above_all() -> None:
    """Batting: the wall that would fall, a knight's last wall above all; else the
    strongest knight's most damaged wall (the AI's batting)."""
    assert _bat({0: [["car2"], [], None], 2: [None, ["tv2"], None], 3: [None, None, []]}) == {
        "at p2 middle"
    }
    assert _bat({0: [["car1"], [], ["tv2"]], 2: [None, None, []], 3: [None, None, []]}) == {
        "at p0 right"
    }
    assert _bat({0: [["car2"], [], []], 2: [["tv2"], [], None], 3: [None, None, []]}, 8) == {
        "at p0 left"
    }
    assert _bat({0: [[], ["car1"], []], 2: [None, None, []], 3: [None, None, []]}) == {
        "at p0 middle"
    }


def test_ai_keeps_a_burn_when_there_is_hardly_anything_to_burn() -> None:
    """A single light trash is not worth a Burn (the AI's burn or repair)."""
    state = build(3, hands={0: ["burn2", "tv1"]}, walls={0: [["toaster1"], [], []]}, phase="burn")
    assert _choose(state, 0) == "pass"


def test_ai_discards_the_card_it_needs_least() -> None:
    """With no Trash the AI discards what it needs least: Maces are kept above all, even
    over the biggest Shield (the AI's discard)."""
    state = build(3, hands={0: ["mace-left", "mace-right", "mace-back", "mace-any++", "shield4+"]})
    assert _choose(state, 0) == "discard shield4+"
    state = build(3, hands={0: ["shield1", "shield3", "mace-left", "burn4++", "mace-right"]})
    assert _choose(state, 0) == "discard shield1"


def _attack(hand: list[str], walls: dict[int, list[list[str] | None]], seeds: int = 4) -> set[str]:
    state = build(3, hands={0: hand}, walls=walls)
    return {_choose(state, 0, seed) for seed in range(seeds)}


def test_ai_attacks_a_wall_it_can_topple_with_as_few_cards_as_it_takes() -> None:
    """A wall it can topple comes first, a knight's last wall above all, with as few cards
    as it takes, keeping heavy trash for later (the AI's attack)."""
    full: list[list[str] | None] = [[], [], []]
    assert _attack(["catapult+", "tv2", "toaster1"], {1: [["car2"], [], []], 2: full}) == {
        "play tv2 at p1 left"
    }
    assert _attack(["catapult+", "tv2", "toaster1"], {1: [["car1"], [], []], 2: full}) == {
        "play catapult+ tv2 toaster1 at p1 left"
    }
    assert _attack(["tv2"], {1: [["car2"], [], []], 2: [None, ["gator2"], None]}) == {
        "play tv2 at p2 middle"
    }
    assert _attack(["tv1", "xray3"], {1: [["car3"], [], []], 2: full}) == {"play tv1 at p1 left"}
    assert _attack(["catapult+", "tv3", "bike1", "car1"], {1: [["gator1"], [], []], 2: full}) == {
        "play tv3 at p1 left"
    }


def test_ai_saves_its_catapults_when_nothing_falls() -> None:
    """If nothing falls, one card at the most damaged wall, saving Catapults for a topple
    (the AI's attack)."""
    assert _attack(["catapult+", "tv1", "toaster1"], {1: [[], ["car1"], []], 2: [[], [], []]}) == {
        "play tv1 at p1 middle",
        "play toaster1 at p1 middle",
    }
    # No wall falls: three light cards are not worth a Catapult; the stronger knight is hit.
    thrown = _attack(
        ["catapult+", "tv1", "toaster1", "bike1"], {1: [[], [], []], 2: [None, [], []]}
    )
    assert all(action.count(" ") == 4 and " at p1 " in action for action in thrown)

"""Dumpster Brawl!'s private controls fit Discord however large a hand grows (issue 4: "no
control may break at Discord's 25 options or 25 buttons"), and every legal action stays
reachable: as a button, a menu option, or a menu option that opens the group it belongs to.

The states come from seeded games of random play in every mode, where hands grow far larger
than in careful play; the test keeps the decisions with the most legal actions.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from itertools import combinations

import discord
import pytest

from cogs.brawl._present import BrawlPresenter, SweepMenu
from cogs.shared.components import controls_view
from cogs.shared.menus import HAND, MAX_OPTIONS, buttons_of, menu_chunks
from cogs.shared.presenter import Buttons, Control, Menu, is_plan, plan, plan_of
from rules.brawl import BRAWL
from rules.brawl.engine import MODES
from rules.brawl.state import KING, ROUND, RUMMY, State, to_act
from tests.rules.test_brawl import build

PRESENTER = BrawlPresenter()
NARROWED_MAX = 5 * MAX_OPTIONS  # a group opens as buttons, or up to five menus of 25


def crowded_decisions(mode: str, games: int = 6, keep: int = 40) -> list[tuple[object, int]]:
    """(state, seat) pairs with the most legal actions over a few random games."""
    found: list[tuple[int, int, object, int]] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = BRAWL.new_game(4 + seed % 3, {"mode": mode, "slugs": "6", "boosters": "7"}, seed)
        step = 0
        while BRAWL.outcome(state) is None and step < 3000:
            (seat,) = BRAWL.to_act(state)
            legal = BRAWL.legal_actions(state, seat)
            found.append((len(legal), step, state, seat))
            state = BRAWL.apply(state, seat, rng.choice(legal)).state
            step += 1
    found.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [(state, seat) for _, _, state, seat in found[:keep]]


@pytest.mark.parametrize("mode", MODES)
async def test_a_crowded_hand_still_fits_discord_and_reaches_every_action(mode: str):
    decisions = crowded_decisions(mode)
    assert max(len(BRAWL.legal_actions(s, seat)) for s, seat in decisions) > 25  # crowded
    for state, seat in decisions:
        legal = BRAWL.legal_actions(state, seat)
        obs = BRAWL.observe(state, seat)
        controls = PRESENTER.hand_controls(obs, legal, lambda a, s=state: BRAWL.describe(s, a))
        buttons = [c for c in controls if isinstance(c, Buttons)]
        menus = menu_chunks(controls)
        rows = len(menus) + sum(-(-len(b.actions) // 5) for b in buttons)
        assert rows <= 5, (len(legal), rows)
        assert all(len(m.choices) <= MAX_OPTIONS for m in menus)
        # The same controls as real Discord components: within the limits discord.py checks.
        view = controls_view(1, 1, controls, legal, HAND)
        assert len(view.children) <= 25
        assert all(
            len(item.options) <= MAX_OPTIONS
            for item in view.children
            if isinstance(item, discord.ui.Select)
        )
        reached = reachable(controls, legal)
        assert set(legal) <= reached, set(legal) - reached
        entries = [m.picked([i]) for m in menus for i in range(len(m.choices))]
        for value in entries:  # no menu entry leads nowhere, and no group outgrows its reply
            if not is_plan(value):
                group = [a for a in legal if BRAWL.in_group(a, value)]
                assert 1 <= len(group) <= NARROWED_MAX, (value, len(group))


def reachable(controls: list[Control], legal: list[str]) -> set[str]:
    """The legal actions a player can start with: a button's or a menu option's first
    action, an action under a menu entry standing for a group, a Clean Sweep picked."""
    values = [c.value for c in buttons_of(controls)]
    for menu in menu_chunks(controls):
        values += [menu.picked([i]) for i in range(len(menu.choices))]
        if isinstance(menu, SweepMenu):
            pairs = combinations(range(len(menu.choices)), 2)
            values += [menu.picked(list(pair)) for pair in pairs]
    firsts = {plan_of(v)[0] for v in values}
    return firsts | {a for a in legal for v in values if BRAWL.in_group(a, v)}


# ------------------------------------------------------------------ one press, one decision
# (issue 55: "a declared take or give, a draw of several cards, a discard of several, each
# done in one press")


def controls_of(state: State, seat: int | None = None) -> list[Control]:
    seat = to_act(state) if seat is None else seat
    assert seat is not None
    legal = BRAWL.legal_actions(state, seat)
    obs = BRAWL.observe(state, seat)
    return PRESENTER.hand_controls(obs, legal, partial(described, state))


def described(state: State, action: str) -> str:
    return str(BRAWL.describe(state, action))


def button_values(controls: list[Control]) -> dict[str, str]:
    """label -> value"""
    return {c.label: c.value for c in buttons_of(controls)}


def menu_named(controls: list[Control], placeholder: str) -> Menu:
    (menu,) = [m for m in menu_chunks(controls) if m.placeholder == placeholder]
    return menu


def played_in_turn(state: State, seat: int, value: str) -> State:
    """Play a choice as the session service does, checking that each action of a plan is
    legal in its turn while the decision stays the seat's: the game's end, the decision or
    the turn passing on, or a Blocker drawn, stops the rest."""
    turns = state.turns
    for number, action in enumerate(plan_of(value)):
        if number and (
            BRAWL.outcome(state) is not None
            or seat not in BRAWL.to_act(state)
            or state.turns != turns
            or (state.stink[seat] and action.startswith("lay"))  # no last card laid down
        ):
            break
        assert action in BRAWL.legal_actions(state, seat), (value, action, state.phase)
        before = len(state.aside)
        state = BRAWL.apply(state, seat, action).state
        if len(state.aside) > before:
            break  # a Blocker drawn: the rest of the plan is not played
    return state


def every_value(controls: list[Control]) -> list[str]:
    """Every choice's value: buttons, each menu option, and a menu's picks taken together
    (its first two, its first `most`, and every pair of a sweep)."""
    values = [c.value for c in buttons_of(controls)]
    for menu in menu_chunks(controls):
        options = range(len(menu.choices))
        values += [menu.picked([i]) for i in options]
        picks = {tuple(options[:2]), tuple(options[: menu.most])}
        if isinstance(menu, SweepMenu):
            picks |= set(combinations(options, 2))
        values += [menu.picked(list(p)) for p in picks if 1 < len(p) <= menu.most]
    return values


@pytest.mark.parametrize("mode", MODES)
def test_each_one_press_plan_is_legal_action_by_action_on_a_real_game(mode: str) -> None:
    """Every choice the controls offer, played through the engine as the session service
    plays it, over seeded games of the AI with every Booster and Blocker in: each action of
    a plan is legal in its turn (or a Blocker, the game's end or the turn passing stops it)."""
    plans = 0
    for seed in range(3):
        options = {"mode": mode, "boosters": "7", "blockers": "5"}
        state = BRAWL.new_game(4, options, seed)
        for step in range(400):
            if BRAWL.outcome(state) is not None:
                break
            (seat,) = BRAWL.to_act(state)
            legal = BRAWL.legal_actions(state, seat)
            for value in every_value(controls_of(state, seat)):
                if value in legal or is_plan(value):
                    played_in_turn(state, seat, value)
                    plans += is_plan(value)
            action = BRAWL.choose(BRAWL.observe(state, seat), legal, random.Random(step))
            state = BRAWL.apply(state, seat, action).state
    assert plans > 100


def test_a_declaration_is_made_with_its_draws_discards_or_attack_in_one_press() -> None:
    state = build({0: ["pizza", "pizza", "slug", "fish"], 1: ["milk"], 2: ["tin"]})
    controls = controls_of(state)
    buttons = button_values(controls)
    assert buttons["Draw 2 cards from the trash pile"] == plan(
        "declare draw", "draw trash", "draw trash"
    )
    assert buttons["Draw 1 card from the trash pile"] == plan("declare draw", "draw trash")
    assert buttons["Draw 1 card from the trash pile, then discard 1"] == plan(
        "declare both", "draw trash"
    )
    assert not any(v.startswith("declare") and not is_plan(v) for v in buttons.values())
    assert "Draw 1 card from the discard pile" not in buttons  # the discard pile is empty
    discards = menu_named(controls, "Discard one or two cards…")
    assert (discards.most, discards.before, discards.after) == (2, ("declare discard",), ())
    assert discards.picked([0, 1]) == plan("declare discard", "discard fish", "discard pizza")
    attacks = menu_named(controls, "Attack, drawing first or not…")
    draw_two = ("declare draw", "draw trash", "draw trash")
    assert [c.value for c in attacks.choices] == [
        plan("declare neither", "attack p1"),
        plan("declare neither", "attack p2"),
        plan(*draw_two, "attack p1"),
        plan(*draw_two, "attack p2"),
    ]
    assert attacks.choices[2].label.startswith("Draw 2 cards from the trash pile → ")
    # Drawn and attacked in one press: the turn goes on to the defence (or the dice).
    fought = played_in_turn(state, 0, attacks.choices[2].value)
    assert len(fought.hands[0]) >= 6 and fought.phase not in ("declare", "pre", "attack")
    # Drawn: the declared draws are made, and the turn goes on to the attack.
    drawn = played_in_turn(state, 0, buttons["Draw 2 cards from the trash pile"])
    assert (drawn.phase, len(drawn.hands[0])) == ("attack", 6)


def test_a_declaration_offers_only_what_the_piles_and_the_hand_allow() -> None:
    state = build({0: [], 1: ["milk"], 2: ["tin"]}, empty_trash=True, discard=["egg"])
    buttons = button_values(controls_of(state))
    assert set(buttons) == {"Draw 1 card from the trash pile", "Draw 1 card from the discard pile"}
    assert not any(m.placeholder.startswith("Discard") for m in menu_chunks(controls_of(state)))


def test_the_draws_left_before_the_attack_take_one_press() -> None:
    state = build({0: ["pizza"], 1: ["milk"], 2: ["tin"]}, mode=RUMMY, phase="pre", draws=2)
    buttons = button_values(controls_of(state))
    assert buttons["Draw 2 cards from the trash pile"] == plan("draw trash", "draw trash")
    assert buttons["Draw 1 card from the trash pile"] == "draw trash"
    then = menu_named(controls_of(state), "Draw, then attack…")
    assert [c.value for c in then.choices] == [
        plan("draw trash", "draw trash", "attack p1"),
        plan("draw trash", "draw trash", "attack p2"),
    ]
    declared = build({0: ["pizza", "slug", "egg"], 1: ["milk"]}, phase="pre", discards=2)
    discards = menu_named(controls_of(declared), "Discard one or two cards…")
    assert (discards.most, discards.before, discards.after) == (2, (), ())


@pytest.mark.parametrize("mode", [ROUND, KING])
def test_a_rummage_draws_all_at_once_and_discards_in_one_pick(mode: str) -> None:
    hand = ["pizza", "slug", "slug", "egg"]
    state = build({0: hand, 1: ["milk"], 2: ["tin"]}, mode=mode, phase="rummage", draws=3)
    state = replace(state, discards=2, actor=0)
    controls = controls_of(state)
    buttons = button_values(controls)
    assert buttons["Draw 3 cards from the trash pile"] == plan(*["draw trash"] * 3)
    assert buttons["Draw 1 card from the trash pile"] == "draw trash"
    assert buttons["Done"] == "done"
    discards = menu_named(controls, "Discard up to 2 cards, then stop rummaging…")
    assert (discards.most, discards.after) == (2, ("done",))
    slugs = [i for i, c in enumerate(discards.choices) if c.label.startswith("Slug")]
    assert discards.picked(slugs) == plan("discard slug", "discard slug", "done")
    after = played_in_turn(state, 0, discards.picked(slugs[:1]))
    assert after.phase != "rummage" or to_act(after) != 0  # one discard, and the rummage ends


def test_the_defenders_two_spoils_take_one_press_in_any_mix() -> None:
    state = build({0: ["pizza", "egg"], 1: ["slug", "fish"], 2: ["tin"]}, phase="spoils")
    state = replace(state, actor=1, defender=1, spoils=2)
    controls = controls_of(state, 1)
    buttons = button_values(controls)
    assert buttons["Take 2 random cards"] == plan("take", "take")
    assert buttons["Take 1 random card, then stop"] == plan("take", "done")
    gives = menu_named(controls, "Give one or two cards…")
    assert gives.picked([0, 1]) == plan("give fish", "give slug", "done")
    mixed = menu_named(controls, "Take a random card, then give one…")
    assert mixed.picked([1]) == plan("take", "give slug")
    for value in [*buttons.values(), gives.picked([0, 1]), mixed.picked([1])]:
        assert played_in_turn(state, 1, value).spoils == 0


def test_a_clean_sweep_takes_its_cards_in_one_press() -> None:
    state = build({0: ["sweep", "pizza", "pizza", "slug"], 1: ["milk"], 2: ["tin"]})
    legal = BRAWL.legal_actions(state, 0)
    sweeps = {a for a in legal if a.startswith("play sweep") and a != "play sweep alone"}
    (menu,) = [m for m in menu_chunks(controls_of(state)) if isinstance(m, SweepMenu)]
    assert menu.most == 2 and len(menu.choices) == 3  # the Sweep itself is not swept
    picked = {menu.picked(list(p)) for n in (1, 2) for p in combinations(range(3), n)}
    assert picked == sweeps
    assert "play sweep alone" in button_values(controls_of(state)).values()


def test_rummy_lay_downs_are_picked_together_then_done() -> None:
    hand = ["pizza"] * 3 + ["fish"] * 4 + ["milk"]
    state = build({0: hand, 1: ["tin"], 2: ["egg"]}, mode=RUMMY, phase="lay", layers=(0, 1))
    menu = menu_named(controls_of(state), "Lay down, then be done…")
    labels = [c.label for c in menu.choices]
    both = [labels.index("Lay down 3 Pizza Boxes"), labels.index("Lay down 4 Fish Bones")]
    after = played_in_turn(state, 0, menu.picked(both))
    assert len(after.laid[0]) == 7 and to_act(after) == 1


def test_a_multi_card_menu_names_each_card_and_only_in_its_owners_reply() -> None:
    """One option per card, two of a kind told apart; the board has no controls, and the
    menu's custom id and option values are numbers, never a card."""
    state = build({0: ["pizza", "pizza", "slug"], 1: ["milk"], 2: ["tin"]})
    controls = controls_of(state)
    discards = menu_named(controls, "Discard one or two cards…")
    assert [c.label for c in discards.choices] == [
        "Pizza Box (1 of 2)",
        "Pizza Box (2 of 2)",
        "Slug",
    ]
    public = BRAWL.observe(state, None)
    assert PRESENTER.controls(public, BRAWL.legal_actions(state, 0), str) == []
    view = controls_view(1, 1, controls, BRAWL.legal_actions(state, 0), HAND)
    for item in view.children:
        custom_id = str(getattr(item, "custom_id", ""))
        assert "pizza" not in custom_id.lower() and "slug" not in custom_id.lower()
        if isinstance(item, discord.ui.Select):
            assert all(option.value.isdigit() for option in item.options)
            if item.placeholder == "Discard one or two cards…":
                assert item.max_values == 2

"""Trash War's private controls fit a phone (issue 14: "choose the card, then the target"):
the first step lists each card, or each other move, once; a card with several targets
opens them as buttons with a way back; no reply needs more than Discord's five rows of
five, and every legal action is reached exactly one way.

The decisions come from seeded games of random play with six knights, where a card has the
most walls to go at.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import discord

from bot.requests import Describer
from cogs.shared.components import controls_view
from cogs.shared.menus import HAND, buttons_of, menu_chunks
from cogs.shared.presenter import Buttons, Menu, is_plan, plan_of
from cogs.trashwar._present import TrashWarPresenter
from rules.phrases import Readers
from rules.trashwar import TRASH_WAR, State
from rules.trashwar.cards import CARDS
from rules.trashwar.plans import plans
from tests.rules.test_trashwar import build

PRESENTER = TrashWarPresenter()


def label(state: State, action: str) -> str:
    """A control's label, in English, as the bot says the engine's `describe`."""
    return str(TRASH_WAR.describe(state, action))


async def test_each_card_once_with_its_targets_and_every_reply_fits_a_phone():
    """Issue 55: each card once, a card with several targets a menu of them in short
    ("{p1} · left wall"), so the card and its target are one pick; every legal move has
    exactly one way in, and a reply stays within Discord's five rows (a hand too full for
    them gets the cards as buttons that open their targets, as before). A move that only
    leads to the next decision (a pass before the attack, a Mace swung) is offered with
    each move after it, as one pick, and not alone (unless they take too many rows)."""
    most, menus_seen, plans_seen = 0, 0, 0
    for seed in range(3):
        rng, state = random.Random(seed), TRASH_WAR.new_game(6, {}, seed)
        while TRASH_WAR.outcome(state) is None and state.step < 150:
            (seat,) = TRASH_WAR.to_act(state)
            legal = TRASH_WAR.legal_actions(state, seat)
            obs = TRASH_WAR.observe(state, seat)
            controls = PRESENTER.hand_controls(obs, legal, describer(state))
            view = controls_view(1, 1, controls, legal, HAND)
            menus = [c for c in view.children if isinstance(c, discord.ui.Select)]
            assert len(menus) + -(-(len(view.children) - len(menus)) // 5) <= 5
            values = [c.value for c in buttons_of(controls)]
            values += [c.value for m in menu_chunks(controls) for c in m.choices]
            assert len(set(values)) == len(values)  # each move once
            planned = [plan_of(value) for value in values if is_plan(value)]
            for first, then in plans(obs, legal).items():  # with each move after it, once
                offered = [p[1] for p in planned if p[0] == first]
                assert sorted(offered) == sorted(then) or not offered  # too many: alone
                plans_seen += bool(offered)
            alone = [value for value in values if not is_plan(value)]
            for action in legal:  # one way in: itself, its card's button, or its plans
                ways = sum(TRASH_WAR.in_group(action, value) for value in alone)
                assert ways + any(p[0] == action for p in planned) == 1, action
            for menu in menu_chunks(controls):
                menus_seen += 1
                said = describer(state)  # the card's name is the menu's, not each option's
                for c in menu.choices:
                    *first, action = plan_of(c.value)
                    short = said.in_group(action, TRASH_WAR.group_of(action))
                    # A menu of all the moves after a first one says each in full.
                    assert c.label == short or (first and c.label == said(action))
                    assert first or action in legal
                most = max(most, len(menu.choices))
            state = TRASH_WAR.apply(state, seat, rng.choice(legal)).state
    assert menus_seen and most >= 15  # a card that could go at every wall of five knights
    assert plans_seen


def test_the_hand_reply_counts_each_kind_of_card_out_of_sight():
    """(fair play against a card-counting AI) the private hand reply says how many cards of
    each kind the draw pile and the other hands hold between them, as the hard AI works
    out from the table; French readers get it in French."""
    rng, state = random.Random(2), TRASH_WAR.new_game(3, {}, 2)
    for _ in range(60):
        (seat,) = TRASH_WAR.to_act(state)
        state = TRASH_WAR.apply(state, seat, rng.choice(TRASH_WAR.legal_actions(state, seat))).state
    (seat,) = TRASH_WAR.to_act(state)
    hidden = Counter(
        CARDS[card].kind
        for card in state.draw + tuple(c for p, h in enumerate(state.hands) if p != seat for c in h)
    )
    names = ["Ann", "Bo", "Cy"]
    reply = PRESENTER.hand(TRASH_WAR.observe(state, seat), names)
    counted = reply.text.splitlines()[1]
    assert counted == (
        "Out of sight (the draw pile and the other hands): "
        f"Trash: {hidden['trash']}, Shield: {hidden['shield']}, Mace: {hidden['mace']}, "
        f"Deflect: {hidden['deflect']}, Catapult: {hidden['catapult']}, "
        f"Burn: {hidden['burn']}, Repair Wall: {hidden['repair']}."
    )
    french = PRESENTER.hand(TRASH_WAR.observe(state, seat), Readers(names, "fr"))
    assert french.text.splitlines()[1].startswith("Hors de vue (la pioche et les mains")


def test_a_hand_whose_every_choice_plays_one_card_offers_its_targets_at_once():
    """Issue 55 ("10 of 70 presses had a single legal card"): when every move in the reply
    plays the same card (the one Trash card in hand, or the card just drawn), a button
    naming that card would decide nothing: the reply offers where it goes, each target a
    move of its own; with two cards to choose from, the card comes first as before."""
    one = build(3, hands={0: ["toaster2", "shield2", "burn3"]})
    legal = TRASH_WAR.legal_actions(one, 0)
    (buttons,) = PRESENTER.hand_controls(TRASH_WAR.observe(one, 0), legal, partial(label, one))
    assert isinstance(buttons, Buttons)
    assert [choice.value for choice in buttons.actions] == legal and len(legal) == 6
    assert buttons.actions[0].label == "Throw the toaster (2) at {p1}'s left wall"

    two = build(3, hands={0: ["toaster2", "car1"]})
    legal = TRASH_WAR.legal_actions(two, 0)
    menus = PRESENTER.hand_controls(TRASH_WAR.observe(two, 0), legal, describer(two))
    assert [m.placeholder for m in menus if isinstance(m, Menu)] == [
        "Throw the toaster (2) …",
        "Throw the muscle car (1) …",
    ]


def describer(state: State) -> Describer:
    """Labels as the bot says them, in English, with the seats' placeholders for names."""
    return Describer(TRASH_WAR, state, [f"{{p{seat}}}" for seat in range(len(state.hands))])

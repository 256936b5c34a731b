"""Dumpster Brawl!'s private controls fit Discord however large a hand grows (issue 4: "no
control may break at Discord's 25 options or 25 buttons"), and every legal action stays
reachable: as a button, a menu option, or a menu option that opens the group it belongs to.

The states come from seeded games of random play in every mode, where hands grow far larger
than in careful play; the test keeps the decisions with the most legal actions.
"""

from __future__ import annotations

import random

import discord
import pytest

from cogs.brawl._present import BrawlPresenter
from cogs.shared.components import controls_view
from cogs.shared.menus import HAND, MAX_OPTIONS, menu_chunks
from cogs.shared.presenter import Buttons
from rules.brawl import BRAWL
from rules.brawl.engine import MODES

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
        pressed = {a.value for b in buttons for a in b.actions}
        entries = [choice.value for m in menus for choice in m.choices]
        for action in legal:
            opened_by = [v for v in entries if BRAWL.in_group(action, v)]
            assert (action in pressed) != bool(opened_by), action  # one way in, not two
            assert len(opened_by) <= 1, (action, opened_by)
        for value in entries:  # no menu entry leads nowhere, and no group outgrows its reply
            group = [a for a in legal if BRAWL.in_group(a, value)]
            assert 1 <= len(group) <= NARROWED_MAX, (value, len(group))

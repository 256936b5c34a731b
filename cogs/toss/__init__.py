"""Toss It in the Trash in Discord: how the bin is shown. `/toss new` is built from the
engine's options (cogs/shared/plugin.py) and `/rules` pages from guide.md beside this file."""

from __future__ import annotations

from pathlib import Path

from cogs.shared.plugin import GamePlugin
from cogs.toss._present import TossPresenter
from cogs.toss.aim import ITEMS
from rules.toss import TOSS

PLUGIN = GamePlugin(
    TOSS,
    TossPresenter(),
    Path(__file__).with_name("guide.md"),
    ITEMS,
    first_turn=("A round",),
)
setup, teardown = PLUGIN.setup, PLUGIN.teardown

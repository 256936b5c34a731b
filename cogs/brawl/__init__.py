"""Dumpster Brawl! in Discord: how the brawl is shown. `/brawl new` is built from the engine's
options (cogs/shared/plugin.py) and `/rules` pages from guide.md beside this file."""

from __future__ import annotations

from pathlib import Path

from cogs.brawl._present import BrawlPresenter
from cogs.shared.plugin import GamePlugin
from rules.brawl import BRAWL

PLUGIN = GamePlugin(
    BRAWL,
    BrawlPresenter(),
    Path(__file__).with_name("guide.md"),
    first_turn=("At the table", "A turn (Round Rummage)"),
)
setup, teardown = PLUGIN.setup, PLUGIN.teardown

"""Rumble in the Dungeon in Discord: how the dungeon is shown. `/rumble new` is built from the
engine's options (cogs/shared/plugin.py) and `/rules` pages from guide.md beside this file."""

from __future__ import annotations

from pathlib import Path

from cogs.rumble._present import RumblePresenter
from cogs.shared.plugin import GamePlugin
from rules.rumble import RUMBLE

PLUGIN = GamePlugin(
    RUMBLE,
    RumblePresenter(),
    Path(__file__).with_name("guide.md"),
    first_turn=("Your turn",),
)
setup, teardown = PLUGIN.setup, PLUGIN.teardown

"""Trash War in Discord: how the war is shown. `/trashwar new` is built from the engine's
options (cogs/shared/plugin.py) and `/rules` pages from guide.md beside this file."""

from __future__ import annotations

from pathlib import Path

from cogs.shared.plugin import GamePlugin
from cogs.trashwar._present import TrashWarPresenter
from rules.trashwar import TRASH_WAR

PLUGIN = GamePlugin(
    TRASH_WAR,
    TrashWarPresenter(),
    Path(__file__).with_name("guide.md"),
    first_turn=("The opening", "A turn"),
)
setup, teardown = PLUGIN.setup, PLUGIN.teardown
